"""Benchmark of the table log's cost per step (a script, not a test): ``python bench/bench_tablelog.py``.

A seeded game is played once without a log; its steps are then appended to a fresh log again
and again. Three costs per step are timed on the folder given (default: a temporary folder in
the current one, so the disk the rig would use):

1. the SQLite commit alone (WAL, ``synchronous=FULL``, rows of the same bodies) — what a log
   without the mirror would cost;
2. the mirror write alone (``pwrite`` of one 32-byte slot and ``fdatasync``);
3. ``TableLog.append`` — the row with its chain fields, the commit and the mirror;
4. ``RaceLog.step`` — a referee session's input (grab races, three seats): the pure step, the
   row with its chain fields (and a finished race's record), the commit and the mirror.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import cpu_model  # noqa: E402
from game.app.referee.race_log import LogInput, RaceLog  # noqa: E402
from game.app.tablelog import Mirrored, TableLog  # noqa: E402
from game.controller import Stage, Step, TableSettings, new_table, step  # noqa: E402
from game.controller.effects import ScheduleGo  # noqa: E402
from game.controller.inputs import Input, Tick  # noqa: E402
from game.inputs import Go, Press, Release  # noqa: E402
from game.referee import session as referee  # noqa: E402
from game.referee.presets import Preset, load_presets  # noqa: E402
from game.sim.presses import T0_NS, resume_script  # noqa: E402


def game_steps(players: int, seed: int) -> tuple[TableSettings, list[tuple[Input, Step]]]:
    """Every input of a whole simulated game with what it made."""
    settings = TableSettings(seats=players, clock="sim")
    table = new_table(settings, seed, T0_NS)
    script, event = resume_script(players, seed, settings, [])
    made_steps: list[tuple[Input, Step]] = []
    while event is not None:
        made = step(table, event)
        made_steps.append((event, made))
        table = made.table
        try:
            event = script.send(made)
        except StopIteration:
            break
        if table.stage is Stage.GAME_OVER:
            break
    return settings, made_steps


MS = 1_000_000


def referee_inputs(preset: Preset, count: int, seed: int) -> list[LogInput]:
    """``count`` inputs of grab races at three seats: start, GO when asked, three presses 40 ms
    apart, the releases, a tick; the next start a second later."""
    s = referee.new_session(preset, 3, clock="sim", resolution_ns=100_000, seed=seed, t_ns=T0_NS)
    inputs: list[LogInput] = []
    while len(inputs) < count:
        start = referee.Start(s.now_t_ns + 1_000 * MS)
        s, effects = referee.step(s, start)
        (go,) = [e.t_ns for e in effects if isinstance(e, ScheduleGo)]   # GO drawn from the seed
        race: list[LogInput] = [start, Go(go, "sim")]
        race += [Press(seat, go + (200 + 40 * seat) * MS, "sim") for seat in (2, 0, 1)]
        race += [Release(seat, go + 400 * MS, "sim") for seat in range(3)]
        race.append(Tick(go + 500 * MS))
        for event in race[1:]:
            s, _ = referee.step(s, event)
        inputs += race
    return inputs[:count]


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def us(ns: int) -> str:
    return f"{ns / 1000:,.0f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="folder on the disk to measure")
    parser.add_argument("--steps", type=int, default=600, help="steps timed for each cost")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    settings, played = game_steps(5, args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        base = Path(folder)
        sqlite_ns, mirror_ns, append_ns = [], [], []
        # 1. SQLite alone.
        db = sqlite3.connect(base / "plain.db", isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE steps(seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT, crc INTEGER)")
        log = TableLog.open(base / "table.db", settings, args.seed, T0_NS)
        for n in range(args.steps):   # 3. the whole append
            event, made = played[n % len(played)]
            t = time.perf_counter_ns()
            log.append(event, made)
            append_ns.append(time.perf_counter_ns() - t)
        log.close()
        # 4. A referee session's input, the whole step.
        grab = load_presets().get("grab")
        referee_ns = []
        race_log = RaceLog.open(base / "referee.db", grab, 3, clock="sim", resolution_ns=100_000, seed=args.seed,
                                t0_ns=T0_NS)
        for event in referee_inputs(grab, args.steps, args.seed):
            t = time.perf_counter_ns()
            race_log.step(event)
            referee_ns.append(time.perf_counter_ns() - t)
        race_log.close()
        with sqlite3.connect(base / "table.db") as written:
            bodies = [body for (body,) in written.execute("SELECT body FROM steps ORDER BY seq")]
        for body in bodies:
            t = time.perf_counter_ns()
            db.execute("INSERT INTO steps(body, crc) VALUES (?, ?)", (body, 0))
            sqlite_ns.append(time.perf_counter_ns() - t)
        db.close()
        # 2. The mirror alone.
        fd = os.open(base / "alone-mirror", os.O_RDWR | os.O_CREAT)
        os.write(fd, bytes(8192))
        os.fsync(fd)
        for n in range(args.steps):
            t = time.perf_counter_ns()
            os.pwrite(fd, Mirrored(b"\0" * 8, n, n).pack(), (n % 2) * 4096)
            os.fdatasync(fd)
            mirror_ns.append(time.perf_counter_ns() - t)
        os.close(fd)
    print(f"Table log benchmark — {cpu_model()}, {platform.platform()}, Python {platform.python_version()}, "
          f"folder {args.dir}, {args.steps} steps each")
    print()
    print("| cost per step | p50 | p90 | p99 |")
    print("| --- | --- | --- | --- |")
    for name, values in (("SQLite commit alone (WAL, synchronous=FULL)", sqlite_ns),
                         ("mirror alone (pwrite + fdatasync)", mirror_ns),
                         ("TableLog.append (chain, commit, mirror)", append_ns),
                         ("RaceLog.step (referee step, chain, commit, mirror)", referee_ns)):
        print(f"| {name} | {us(percentile(values, 0.5))} | {us(percentile(values, 0.9))} | "
              f"{us(percentile(values, 0.99))} |")


if __name__ == "__main__":
    main()
