"""The board's main loop on the firmware twin: its CPU cost, heartbeat and frame delay (a script,
not a test): ``python bench/bench_board_loop.py [--old REV] [--seconds S]``.

The twin (firmware_host/twin) runs the board's own main.py / firmware.py / hw_rp2.py under
MicroPython's unix port against the RP2040 models. With ``Policy.cpu_factor`` its virtual clock
charges the firmware's own Python (the PC's real microseconds between two fake calls, times the
factor) besides each fake call's fixed cost, so a loop that is too slow shows as it would on the
Pico: the core busy, the heartbeat late, frames leaving late.

The factor is calibrated, not guessed: the loop of ``--old`` (the firmware before issue 21's
optimisation) kept the core of an emulated Pico running MicroPython's real rp2 port about 51 %
busy while idle (94 % at the worst load, 1.2-1.7 ms of CPU per frame; FACTS.md). Short idle runs
of the old firmware bisect the factor that makes it 51 % busy here, and that factor is used for
both versions; the old loop's worst-load share at it is printed beside the 94 % as a check. The
CPU time is the process's (``time.clock()``): a loaded PC adds noise, not busy time.

Two windows per version, on board time (the host reads the board's own TIME/PRESS ticks and the
twin logs the cycle each frame was written at):

- idle: no race, heartbeat every 250 ms;
- worst: a race armed on all 7 buttons with the default 25 ms lockout, every button toggling as
  fast as the lockout lets an edge through (a press or release every 25.2 ms: 278 edges/s).

Reported: the core's busy share (1 - waiting / elapsed), CPU per frame sent (busy time / frames)
and per edge frame beyond the quiet armed loop, the heartbeat's interval while racing, and how
long after its edge each PRESS/RELEASE frame left the board.
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import tty
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_host.board import protocol as P  # noqa: E402
from firmware_host.twin.board import Boot, Policy, TwinBoard  # noqa: E402
from firmware_host.twin.table import Table, us_to_cycles  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ("fastcrc.py", "protocol.py", "ticks.py", "pio_programs.py", "firmware.py", "hw_rp2.py", "main.py")
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8)
CYCLES_PER_US = 125
TICKS_PER_US = 62.5
LOCKOUT_US = 25_000
EDGE_EVERY_US = 25_200  # just past the lockout: every edge gets through
OLD_IDLE_BUSY = 0.51  # the old loop on the emulated Pico, idle (issue 21, FACTS.md)
OLD_WORST_BUSY = 0.94  # ... and at the worst load the lockout allows
DEFAULT_OLD = "456ac8d"  # the firmware before the loop was made lighter (issue 21)
WAIT_S = 300.0
HEAP_KB = 320
# Paced at half real time: the host reads every frame as the board writes it, as a Pi does (a
# free-running twin outruns the reader, fills the pty and waits on it like a USB link nobody reads).
SPEED = 0.5


class Host:
    """The host side of the twin's pty: every frame with the time it arrived, in order."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(str(path), os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.frames: list[tuple[int, str, dict[str, str]]] = []
        self.queue: queue.Queue[tuple[int, str, dict[str, str]] | None] = queue.Queue()
        self.seq = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        lines = P.LineBuffer()
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.queue.put(None)
                return
            for line in lines.feed(data):
                try:
                    frame = P.decode(line)
                except P.ProtocolError:
                    continue
                self.frames.append(frame)
                self.queue.put(frame)

    def send(self, verb: str, fields: list[tuple[str, object]]) -> int:
        seq, self.seq = self.seq, P.next_seq(self.seq)
        os.write(self.fd, P.encode(seq, verb, fields))
        return seq

    def until(self, test: object) -> tuple[int, str, dict[str, str]]:
        while True:
            item = self.queue.get(timeout=WAIT_S)
            if item is None:
                raise EOFError("the twin hung up")
            if test(item):  # type: ignore[operator]
                return item

    def ask(self, verb: str, fields: list[tuple[str, object]]) -> dict[str, str]:
        seq = self.send(verb, fields)
        return self.until(lambda f: f[2].get("re") == str(seq))[2]

    def board_time_us(self, us: int) -> None:
        """Wait until the board's heartbeat says its clock passed ``us``."""
        self.until(lambda f: f[1] == "TIME" and int(f[2]["ticks"]) >= us * TICKS_PER_US)

    def close(self) -> None:
        os.close(self.fd)


@dataclass(frozen=True)
class Window:
    busy: float  # share of the window the core was not waiting
    cpu_cycles: int  # charged to the firmware's own code
    cycles: int
    frames: int  # frames the board wrote in it
    edges: int  # PRESS/RELEASE frames among them


def window(boot: Boot, host: Host, start_us: int, end_us: int) -> Window:
    stats = [s for s in boot.stats_log if "now" in s]
    first = next(s for s in stats if int(s["now"]) >= start_us * CYCLES_PER_US)
    last = [s for s in stats if int(s["now"]) <= end_us * CYCLES_PER_US][-1]
    t0, t1 = int(first["now"]), int(last["now"])
    idle = int(last["idle"]) - int(first["idle"])
    cpu = int(last["cpu"]) - int(first["cpu"])
    written = {seq for cycle, seq in boot.writes if t0 <= cycle < t1}
    edges = sum(1 for seq, verb, _ in host.frames if verb in ("PRESS", "RELEASE") and seq in written)
    return Window(busy=1 - idle / (t1 - t0), cpu_cycles=cpu, cycles=t1 - t0, frames=len(written), edges=edges)


@dataclass(frozen=True)
class Result:
    idle: Window
    quiet: Window  # armed, no edges
    worst: Window
    heartbeat_ms: list[float]
    delay_ms: list[float]

    @property
    def ms_per_frame(self) -> float:
        """Busy time per frame sent under the worst load."""
        return self.worst.busy * self.worst.cycles / CYCLES_PER_US / 1000 / max(1, self.worst.frames)

    @property
    def ms_per_edge(self) -> float:
        """CPU each edge frame adds to the quiet armed loop."""
        quiet_rate = self.quiet.busy
        extra = (self.worst.busy - quiet_rate) * self.worst.cycles / CYCLES_PER_US / 1000
        return extra / max(1, self.worst.edges)


def pico_heap(twin: TwinBoard) -> None:
    """A heap of a Pico's size (MicroPython's rp2 port has about 190 KB; the twin's fakes need a
    little more): the unix port's default heap makes each garbage collection, charged as the
    firmware's CPU time, far longer than the Pico's."""
    twin.command = [twin.command[0], "-X", f"heapsize={HEAP_KB}K", *twin.command[1:]]


def idle_busy(board_dir: Path, micropython: str | None, cpu_factor: float, link: Path) -> float:
    """The core's busy share over 2 board seconds of an idle board (no race)."""
    twin = TwinBoard(link, policy=Policy(speed=SPEED, cpu_factor=cpu_factor, boot_us=0), micropython=micropython,
                     board_dir=board_dir)
    pico_heap(twin)
    twin.plug()
    host = Host(twin.link)
    try:
        host.ask("HELLO", [("proto", P.PROTO)])
        host.board_time_us(500_000)
        start = twin.boot.cycle // CYCLES_PER_US
        host.board_time_us(start + 2_000_000)
        end = twin.boot.cycle // CYCLES_PER_US
    finally:
        host.close()
        twin.close()
    return window(twin.boot, host, start, end).busy


def calibrate(board_dir: Path, micropython: str | None, link: Path) -> float:
    low, high = 1.0, 40.0
    for _ in range(6):
        mid = float((low * high) ** 0.5)
        if idle_busy(board_dir, micropython, mid, link) < OLD_IDLE_BUSY:
            low = mid
        else:
            high = mid
    return float((low * high) ** 0.5)


def run(board_dir: Path, micropython: str | None, cpu_factor: float, seconds: float, link: Path) -> Result:
    quiet_s, load_start_s = 1.0, 1.5

    def make_table(_n: int) -> Table:
        table = Table.for_board()
        step = us_to_cycles(EDGE_EVERY_US)
        first = us_to_cycles(int(load_start_s * 1e6))
        count = int(seconds * 1e6 / EDGE_EVERY_US) + 20

        def at_go(cycle: int) -> None:  # GO comes once the race is armed: the load starts after it
            for i, pin in enumerate(BUTTON_PINS):  # staggered: the buttons do not all move at once
                for k in range(count):
                    table.edge(pin, k % 2, cycle + first + k * step + i * us_to_cycles(3_600), cause="bench")

        table.on_rise(table.go_pin, at_go)
        return table

    policy = Policy(speed=SPEED, cpu_factor=cpu_factor, log_writes=True, boot_us=0)
    twin = TwinBoard(link, policy=policy, micropython=micropython, make_table=make_table, board_dir=board_dir)
    pico_heap(twin)
    twin.plug()
    host = Host(twin.link)
    try:
        host.ask("HELLO", [("proto", P.PROTO)])
        host.board_time_us(1_000_000)
        idle_from = twin.boot.cycle // CYCLES_PER_US
        host.board_time_us(idle_from + 3_000_000)
        idle_to = twin.boot.cycle // CYCLES_PER_US
        host.ask("ARM", [("race", 1), ("btns", list(range(7))), ("lockout_us", LOCKOUT_US),
                                 ("timeout_ms", 30_000)])
        host.ask("GO", [("race", 1), ("delay_ms", 0)])
        sync_us = int(int(host.until(lambda f: f[1] == "GO")[2]["ticks"]) / TICKS_PER_US)  # the load's anchor
        end_us = sync_us + int((load_start_s + seconds) * 1e6)
        host.board_time_us(end_us + 200_000)
    finally:
        host.close()
        twin.close()
    boot = twin.boot
    idle = window(boot, host, idle_from, idle_to)
    quiet = window(boot, host, sync_us + 200_000, sync_us + int(quiet_s * 1e6))
    load_from = sync_us + int(load_start_s * 1e6) + 200_000
    worst = window(boot, host, load_from, end_us)
    times = [int(f["ticks"]) / TICKS_PER_US for _s, verb, f in host.frames if verb == "TIME"]
    racing = [t for t in times if load_from <= t <= end_us]
    heartbeat = [(b - a) / 1000 for a, b in zip(racing, racing[1:])]
    written = dict((seq, cycle) for cycle, seq in boot.writes)
    delays = []
    for seq, verb, fields in host.frames:
        if verb in ("PRESS", "RELEASE") and seq in written:
            edge_us = int(fields["ticks"]) / TICKS_PER_US
            if load_from <= edge_us <= end_us:
                delays.append((written[seq] / CYCLES_PER_US - edge_us) / 1000)
    return Result(idle, quiet, worst, heartbeat, delays)


def old_firmware(rev: str, folder: Path) -> Path:
    for name in FIRMWARE:
        done = subprocess.run(["git", "show", f"{rev}:firmware_host/board/{name}"], cwd=ROOT, capture_output=True,
                              text=True)
        if done.returncode == 0:  # a file the old firmware did not have (fastcrc.py) is left out
            (folder / name).write_text(done.stdout)
    return folder


def describe(name: str, r: Result) -> str:
    hb = r.heartbeat_ms or [0.0]
    dl = r.delay_ms or [0.0]
    return (f"{name}: busy idle {r.idle.busy:.0%}, armed quiet {r.quiet.busy:.0%}, worst {r.worst.busy:.0%} "
            f"({r.worst.edges} edge frames in {r.worst.cycles / 125e6:.1f} s); CPU per frame {r.ms_per_frame:.2f} ms, "
            f"per edge frame {r.ms_per_edge:.2f} ms; heartbeat while racing median {statistics.median(hb):.1f} ms, "
            f"99th percentile {pct(hb, 0.99):.1f} ms, max {max(hb):.1f} ms; frames left after their edge median "
            f"{statistics.median(dl):.1f} ms, 99th percentile {pct(dl, 0.99):.1f} ms, max {max(dl):.1f} ms")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    from firmware_host.boardlink.sim import find_micropython

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=DEFAULT_OLD, help=f"git revision of the old firmware (default {DEFAULT_OLD})")
    parser.add_argument("--seconds", type=float, default=4.0, help="board seconds of worst load (default 4)")
    parser.add_argument("--factor", type=float, default=None, help="cpu_factor to use instead of calibrating")
    args = parser.parse_args()
    mpy = find_micropython()
    with tempfile.TemporaryDirectory(prefix="bench-loop-") as tmp:
        old_dir = old_firmware(args.old, Path(tmp))
        link = Path(tmp) / "tty"
        factor = args.factor
        if factor is None:
            factor = calibrate(old_dir, mpy, link)
            print(f"calibration: cpu_factor {factor:.1f} (the RP2040 runs MicroPython that many times slower than "
                  f"this PC) makes the old idle loop {OLD_IDLE_BUSY:.0%} busy, the emulated Pico's figure")
        old = run(old_dir, mpy, factor, args.seconds, link)
        print(f"check: the old loop's worst load here {old.worst.busy:.0%} (emulated Pico: {OLD_WORST_BUSY:.0%})")
        print(describe(f"old ({args.old})", old))
        new = run(ROOT / "firmware_host" / "board", mpy, factor, args.seconds, link)
        print(describe("now", new))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
