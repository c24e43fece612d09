"""Which board is ours (issue 11, item 5, host side): ports found by USB 2E8A:0005 only, each
asked HELLO in turn (ptys standing in for USB CDC ports, fake ``list_ports`` entries naming
them), hardware the firmware does not support refused in one sentence, a 1.0 board accepted."""

from __future__ import annotations

import os
import threading
import tty
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_host.board import protocol as P
from firmware_host.boardlink import link as board_link
from firmware_host.boardlink.errors import BoardTimeout, BoardUnsupported
from firmware_host.boardlink.identity import DEBUG_PROBE_PID, MICROPYTHON_PID, PICO_VID, check_identity, matching_ports
from firmware_host.boardlink.link import BoardLink, SerialPort, open_serial

from test_link_faults import FakeBoard

# A scripted board sends no TIME heartbeat: the link's silence limit (2 board s) is not under test here.
QUIET_S = 3600.0
WAIT_S = 5.0


@dataclass(frozen=True)
class FakeListPort:
    """What ``serial.tools.list_ports.comports()`` lists, as far as the link looks."""

    device: str
    vid: int | None
    pid: int | None


# -- refusing hardware ----------------------------------------------------------------------------


@pytest.mark.parametrize(("chip", "board", "what"), [
    ("RP2350", "pico2", "Raspberry Pi Pico 2 (RP2350)"),
    ("RP2350", "pico2_w", "Raspberry Pi Pico 2 W (RP2350)"),
    ("RP2040", "pico_w", "Raspberry Pi Pico W (RP2040)"),
    ("RP2350", "other", "board (RP2350)"),
    ("RP2350", None, "board (RP2350)"),
    (None, "pico_w", "Raspberry Pi Pico W"),
])
def test_hardware_the_firmware_does_not_support_is_refused_in_one_sentence(chip: str | None, board: str | None, what: str) -> None:
    with pytest.raises(BoardUnsupported) as refused:
        check_identity("/dev/ttyACM0", chip, board)
    assert str(refused.value) == (
        f"the board on '/dev/ttyACM0' is a {what}, which this rig does not support: use a plain Raspberry Pi Pico (RP2040)"
    )


@pytest.mark.parametrize(("chip", "board"), [("RP2040", "pico"), ("RP2040", "other"), (None, None)])
def test_an_rp2040_pico_and_a_board_that_does_not_say_are_accepted(chip: str | None, board: str | None) -> None:
    check_identity("/dev/ttyACM0", chip, board)


def test_a_pico_2_is_refused_at_the_handshake() -> None:
    fake = FakeBoard(extra_hello=[("chip", "RP2350"), ("board", "pico2")])
    link = BoardLink("/dev/ttyACM0", opener=lambda _path: fake, reply_timeout_s=0.1, silence_s=QUIET_S)
    with pytest.raises(BoardUnsupported, match=r"^the board on '/dev/ttyACM0' is a Raspberry Pi Pico 2 \(RP2350\), which"):
        link.start()


def test_a_pico_reports_its_chip_and_board_and_err_code_board_is_explained() -> None:
    fake = FakeBoard(extra_hello=[("chip", "RP2040"), ("board", "pico")])
    link = BoardLink("/dev/ttyACM0", opener=lambda _path: fake, reply_timeout_s=0.1, silence_s=QUIET_S)
    info = link.start()
    try:
        assert (info.chip, info.board, info.proto, info.reports_identity) == ("RP2040", "pico", (1, 1), True)
        fake.answer = lambda seq, verb, fields: fake.send("ERR", [("re", seq), ("code", "board")])  # type: ignore[method-assign]
        with pytest.raises(BoardUnsupported, match=(
                r"^the board refused ARM with code 'board' \(its firmware found hardware it does not support\): "
                r"use a plain Raspberry Pi Pico \(RP2040\)$")):
            link.request("ARM", [("race", 1), ("btns", [0]), ("lockout_us", 1000), ("timeout_ms", 10)])
    finally:
        link.close()


def test_a_1_0_board_without_identity_is_accepted() -> None:
    fake = FakeBoard(proto="1.0")
    link = BoardLink("/dev/ttyACM0", opener=lambda _path: fake, reply_timeout_s=0.1, silence_s=QUIET_S)
    info = link.start()
    link.close()
    assert info.proto == (1, 0) and (info.chip, info.board) == (None, None) and not info.reports_identity


# -- finding the port ---------------------------------------------------------------------------


def test_only_micropython_picos_match_never_a_debug_probe() -> None:
    ports = [
        FakeListPort("/dev/ttyACM3", PICO_VID, MICROPYTHON_PID),
        FakeListPort("/dev/ttyACM0", PICO_VID, DEBUG_PROBE_PID),  # a Debug Probe's UART
        FakeListPort("/dev/ttyACM1", PICO_VID, 0x0003),  # another Raspberry Pi device
        FakeListPort("/dev/ttyUSB0", 0x0403, 0x6001),  # an FTDI adapter
        FakeListPort("/dev/ttyS0", None, None),
        FakeListPort("/dev/ttyACM2", PICO_VID, MICROPYTHON_PID),
    ]
    assert matching_ports(ports) == ["/dev/ttyACM2", "/dev/ttyACM3"]


class PtyBoard:
    """The board's side of a pty behind ``path``: answers HELLO with ``hello`` (None: silent,
    like a Pico running MicroPython without this firmware)."""

    def __init__(self, path: Path, hello: list[tuple[str, object]] | None) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        path.symlink_to(os.ttyname(self.slave))
        self.path = str(path)
        self.hello = hello
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        buf = P.LineBuffer()
        seq = 0
        while not self._stop.is_set():
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            for line in buf.feed(chunk):
                rseq, verb, _ = P.decode(line)
                if self.hello is not None:
                    fields: list[tuple[str, object]] = [("re", rseq)] + self.hello if verb == "HELLO" else [("re", rseq), ("state", "idle")]
                    os.write(self.master, P.encode(seq, "HELLO" if verb == "HELLO" else "STATUS", fields))
                    seq += 1

    def close(self) -> None:
        self._stop.set()
        os.close(self.master)
        os.close(self.slave)


def hello(boot: str, **extra: object) -> list[tuple[str, object]]:
    return [("proto", "1.1"), ("fw", "0.2.0"), ("tick_hz", 62_500_000), ("buttons", 7), ("boot", boot), *extra.items()]


@pytest.fixture
def ptys(tmp_path: Path) -> Iterator[dict[str, PtyBoard]]:
    boards = {
        "silent": PtyBoard(tmp_path / "ttyACM0", None),
        "pico_w": PtyBoard(tmp_path / "ttyACM1", hello("AAAA", chip="RP2040", board="pico_w")),
        "pico": PtyBoard(tmp_path / "ttyACM2", hello("BBBB", chip="RP2040", board="pico")),
        "probe": PtyBoard(tmp_path / "ttyACM00", hello("CCCC", chip="RP2040", board="pico")),  # would answer!
    }
    yield boards
    for b in boards.values():
        b.close()


def test_every_matching_port_is_asked_hello_and_the_first_that_answers_as_ours_is_used(
        ptys: dict[str, PtyBoard], monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools import list_ports  # type: ignore[import-untyped]

    entries = [FakeListPort(ptys[k].path, PICO_VID, MICROPYTHON_PID) for k in ("pico", "silent", "pico_w")]
    entries.append(FakeListPort(ptys["probe"].path, PICO_VID, DEBUG_PROBE_PID))
    monkeypatch.setattr(list_ports, "comports", lambda: entries)
    opened: list[str] = []

    def opener(path: str) -> SerialPort:
        opened.append(path)
        return open_serial(path)

    link = BoardLink(None, opener=opener, reply_timeout_s=0.1, silence_s=QUIET_S)
    info = link.start()
    try:
        assert info.port == ptys["pico"].path and info.boot == "BBBB"
        # in name order: the silent one times out, the Pico W is refused, the Debug Probe is never opened
        assert opened == [ptys["silent"].path, ptys["pico_w"].path, ptys["pico"].path]
        assert link.request("STATUS", []).fields["state"] == "idle"
    finally:
        link.close()


def test_when_no_matching_port_answers_as_ours_the_refusal_is_what_is_said(
        ptys: dict[str, PtyBoard], monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [ptys["silent"].path, ptys["pico_w"].path]
    monkeypatch.setattr(board_link, "find_board_ports", lambda: paths)
    with pytest.raises(BoardUnsupported, match=r"is a Raspberry Pi Pico W \(RP2040\), which this rig does not support"):
        BoardLink(None, reply_timeout_s=0.05).start(wait_s=WAIT_S)
    monkeypatch.setattr(board_link, "find_board_ports", lambda: [ptys["silent"].path, ptys["silent"].path + "x"])
    with pytest.raises(BoardTimeout, match=r"^none of the 2 ports with USB id 2E8A:0005 \(.*\) answered HELLO as the buzzer firmware"):
        BoardLink(None, reply_timeout_s=0.05).start(wait_s=WAIT_S)


def test_an_explicit_port_is_always_allowed(ptys: dict[str, PtyBoard], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_link, "find_board_ports", lambda: [])  # not listed at all (a pty never is)
    link = BoardLink(ptys["probe"].path, reply_timeout_s=0.1, silence_s=QUIET_S)
    try:
        assert link.start().boot == "CCCC"
    finally:
        link.close()
