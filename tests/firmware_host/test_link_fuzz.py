"""Fuzz: over 100,000 corrupted, truncated and random frames into the host codec, then into the
host link through a pty. Nothing crashes, every bad line is counted (and NAKed, rate-limited),
and every good frame after a bad one is decoded: the stream resynchronises on the next LF."""

from __future__ import annotations

import os
import queue
import random
import threading
import tty

from firmware_host.board import protocol as P
from firmware_host.boardlink.link import BoardLink, Frame

# A scripted board sends no TIME heartbeat: the link's silence limit (2 board s) is not under test here.
QUIET_S = 3600.0
BAD_LINES = 100_000
GOOD_EVERY = 5  # one good frame after every few bad lines
PRINTABLE_NO_STAR = bytes(b for b in range(0x20, 0x7F) if b != ord("*"))


def _bad_line(rng: random.Random, good: bytes) -> bytes:
    """One line (no LF) that PROTOCOL.md does not allow, of a random kind."""
    body = good[:-1]
    kind = rng.randrange(6)
    if kind == 0:  # one byte changed: CRC-16 catches every error burst of 16 bits or fewer
        i = rng.randrange(len(body))
        new = rng.choice([b for b in PRINTABLE_NO_STAR if b != body[i]])
        return body[:i] + bytes([new]) + body[i + 1 :]
    if kind == 1:  # cut short
        return body[: rng.randrange(len(body) - 1)]
    if kind == 2:  # printable junk
        return bytes(rng.choice(PRINTABLE_NO_STAR) for _ in range(rng.randrange(1, 80)))
    if kind == 3:  # a control or high byte inside a frame (0x03 included)
        i = rng.randrange(len(body))
        return body[:i] + bytes([rng.choice([0, 3, 9, 0x7F, 0x80, 0xFF])]) + body[i:]
    if kind == 4:  # far too long
        return bytes(rng.choice(PRINTABLE_NO_STAR) for _ in range(rng.randrange(161, 400)))
    return body + b" *" + body[-4:]  # two CRCs


def _stream(seed: int) -> tuple[bytes, list[bytes], int]:
    """(bytes, the good frames in order, the number of bad lines)."""
    rng = random.Random(seed)
    chunks: list[bytes] = []
    good_frames: list[bytes] = []
    seq = 1
    for n in range(BAD_LINES):
        template = P.encode(rng.randrange(65536), "PRESS", [("btn", rng.randrange(7)), ("ticks", rng.randrange(2**40))])
        chunks.append(_bad_line(rng, template) + b"\n")
        if n % GOOD_EVERY == GOOD_EVERY - 1:
            frame = P.encode(seq, "TIME", [("ticks", seq * 1000)])
            good_frames.append(frame)
            chunks.append(frame)
            seq += 1
    return b"".join(chunks), good_frames, BAD_LINES


def test_codec_survives_100k_bad_lines_and_decodes_every_good_one() -> None:
    data, good, bad = _stream(1)
    buf = P.LineBuffer()
    decoded: list[tuple[int, str, dict[str, str]]] = []
    reasons: dict[str, int] = {}
    for start in range(0, len(data), 4093):  # odd chunks: lines split anywhere
        for line in buf.feed(data[start : start + 4093]):
            try:
                decoded.append(P.decode(line))
            except P.ProtocolError as exc:
                reasons[exc.reason] = reasons.get(exc.reason, 0) + 1
    assert sum(reasons.values()) == bad
    assert set(reasons) == {P.BAD_CRC, P.BAD_FORMAT, P.BAD_BYTES, P.BAD_LONG}
    assert decoded == [P.decode(f) for f in good]


def test_link_survives_100k_bad_frames_counts_them_and_resyncs() -> None:
    data, good, bad = _stream(2)
    master, slave = os.openpty()
    tty.setraw(slave)
    frames: queue.Queue[Frame] = queue.Queue()
    host_lines: list[bytes] = []
    stop = threading.Event()

    def board() -> None:
        """The board's side of the pty: answer HELLO, then keep reading what the host sends."""
        buf = P.LineBuffer()
        while not stop.is_set():
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            for line in buf.feed(chunk):
                host_lines.append(line)
                seq, verb, _ = P.decode(line)
                if verb == "HELLO":
                    os.write(master, b"junk before hello\n" + P.encode(0, "HELLO", [
                        ("re", seq), ("proto", "1.0"), ("fw", "9.9"), ("tick_hz", 62_500_000), ("buttons", 7), ("boot", "AB")]))

    reader = threading.Thread(target=board, daemon=True)
    reader.start()
    link = BoardLink(os.ttyname(slave), on_frame=frames.put, silence_s=QUIET_S)
    try:
        link.start()
        view = memoryview(data)
        while view:
            view = view[os.write(master, view[:65536]) :]
        got: list[Frame] = []
        while len(got) < len(good):
            got.append(frames.get(timeout=30))
        c = link.counters
        assert c.bad_frames == bad
        assert c.ignored_before_hello == 1
        assert [(f.seq, f.verb, dict(f.fields)) for f in got] == [P.decode(g) for g in good]
        assert c.gaps == 0 and c.lost_frames == 0 and c.duplicates == 0
        assert c.naks_sent >= 1 and link.connected
        naks = [line for line in host_lines if b" NAK " in line]
        assert naks and all(P.decode(n)[2]["last"].isdigit() for n in naks)
    finally:
        stop.set()
        link.close()
        os.close(master)
        os.close(slave)
