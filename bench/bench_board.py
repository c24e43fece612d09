"""Benchmark of the buzzer board's host side (a script, not a test): ``python bench/bench_board.py``.

1. Latency: a board's deciding PRESS frame written into a pty -> the host link's reader thread
   decodes it -> the board adapter queues the Press -> ``judge()`` returns the decided slap.
   The clock starts just before ``os.write`` on the pty's board side and stops when the judge
   has returned. The "board" is a CPython thread on the pty answering requests, so the figure is
   the host's path only (on a Pico, add the board's drain + USB: not measured here).
2. Throughput: frames decoded per second by the codec alone, and through the link (pty, reader
   thread, sequence checks, callback) end to end.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_host.board import protocol as P  # noqa: E402
from firmware_host.boardlink.link import BoardLink, Frame  # noqa: E402
from firmware_host.boardlink.rig import BOARD_CLOCK, BoardRig  # noqa: E402
from game.inputs import Press  # noqa: E402
from game.judge import RaceSpec, Status, judge  # noqa: E402
from game.race import RaceKind  # noqa: E402

TICK_HZ = 62_500_000
MS_TICKS = TICK_HZ // 1000


class PtyBoard(threading.Thread):
    """The board's side of a pty, in CPython: answers requests, sends events when told."""

    def __init__(self, master: int) -> None:
        super().__init__(daemon=True)
        self.master = master
        self.seq = 0
        self.lock = threading.Lock()
        self.ticks = 1_000 * MS_TICKS
        self.race = 0

    def send(self, verb: str, fields: list[tuple[str, object]]) -> None:
        with self.lock:
            line = P.encode(self.seq, verb, fields)
            self.seq = P.next_seq(self.seq)
            os.write(self.master, line)

    def run(self) -> None:
        buf = P.LineBuffer()
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for line in buf.feed(data):
                seq, verb, fields = P.decode(line)
                self.answer(seq, verb, fields)

    def answer(self, seq: int, verb: str, fields: dict[str, str]) -> None:
        re: list[tuple[str, object]] = [("re", seq)]
        if verb == "HELLO":
            self.send("HELLO", re + [("proto", "1.0"), ("fw", "bench"), ("tick_hz", TICK_HZ), ("buttons", 7), ("boot", "B")])
        elif verb == "STATUS":
            self.send("STATUS", re + [("state", "idle"), ("held", []), ("ticks", self.ticks)])
        elif verb == "ARM":
            self.race = int(fields["race"])
            self.ticks += 100 * MS_TICKS
            self.send("ARMED", re + [("race", self.race), ("ticks", self.ticks), ("held", []), ("lockout_ticks", 6)])
        elif verb == "GO":
            self.ticks += 1_000 * MS_TICKS
            self.send("GOING", re + [("race", self.race)])
            self.send("GO", [("race", self.race), ("ticks", self.ticks)])
        elif verb in ("LED", "ABORT"):
            self.send("OK", re)


def _pctl(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000


def latency(races: int) -> tuple[float, float, float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    board = PtyBoard(master)
    board.start()
    rig = BoardRig(os.ttyname(slave))
    samples: list[int] = []
    try:
        for _ in range(races):
            arm = rig.arm([1, 2])
            go = rig.go([1, 2])
            go_ticks = go.t_ns // 16
            board.send("PRESS", [("btn", 1), ("ticks", go_ticks + 180 * MS_TICKS)])
            first = rig.events.get(timeout=5)
            assert isinstance(first, Press)
            spec = RaceSpec(kind=RaceKind.SLAP, players=3, active=0, eligible=(1, 2), clock=BOARD_CLOCK,
                            resolution_ns=rig.resolution_ns, armed_t_ns=arm.t_ns, go_t_ns=go.t_ns,
                            timeout_ns=3_000_000_000)
            deciding = [("btn", 2), ("ticks", go_ticks + 243 * MS_TICKS)]
            t0 = time.perf_counter_ns()
            board.send("PRESS", deciding)
            second = rig.events.get(timeout=5)
            assert isinstance(second, Press)
            result = judge(spec, [first, second], second.t_ns)
            t1 = time.perf_counter_ns()
            assert result.status is Status.DECIDED and result.loser == 2
            samples.append(t1 - t0)
            rig.finish()
    finally:
        rig.close()
        os.close(master)
        os.close(slave)
    return _pctl(samples, 0.5), _pctl(samples, 0.99), max(samples) / 1000


def codec_rate(n: int) -> float:
    lines = [P.encode(i % 65536, "PRESS", [("btn", i % 7), ("ticks", 10**12 + i * 977)]) for i in range(n)]
    t0 = time.perf_counter()
    for line in lines:
        P.decode(line)
    return n / (time.perf_counter() - t0)


def link_rate(n: int) -> float:
    master, slave = os.openpty()
    tty.setraw(slave)
    board = PtyBoard(master)
    board.start()
    done = threading.Event()
    count = 0

    def on_frame(frame: Frame) -> None:
        nonlocal count
        count += 1
        if count == n:
            done.set()

    link = BoardLink(os.ttyname(slave), on_frame=on_frame)
    link.start()
    try:
        with board.lock:
            first = board.seq
            data = b"".join(P.encode((first + i) % 65536, "PRESS", [("btn", i % 7), ("ticks", 10**12 + i)]) for i in range(n))
            board.seq = (first + n) % 65536
        t0 = time.perf_counter()
        view = memoryview(data)
        while view:
            view = view[os.write(master, view[:65536]):]
        assert done.wait(60), f"only {count} of {n} frames arrived"
        elapsed = time.perf_counter() - t0
        assert link.counters.bad_frames == 0 and link.counters.gaps == 0
    finally:
        link.close()
        os.close(master)
        os.close(slave)
    return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=2000)
    parser.add_argument("--frames", type=int, default=200_000)
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    p50, p99, worst = latency(args.races)
    print(f"deciding PRESS written into the pty -> judge decided ({args.races} slaps): "
          f"p50 {p50:.0f} us, p99 {p99:.0f} us, max {worst:.0f} us")
    rates = [codec_rate(args.frames) for _ in range(3)]
    print(f"codec: {statistics.median(rates):,.0f} frames decoded/s (median of 3 x {args.frames:,})")
    rates = [link_rate(args.frames // 2) for _ in range(3)]
    print(f"link over a pty: {statistics.median(rates):,.0f} frames/s end to end (median of 3 x {args.frames // 2:,})")


if __name__ == "__main__":
    main()
