"""Benchmark of the board's press ordering in the firmware twin (a script, not a test):
``python bench/bench_ordering.py``.

1. Ordering: two presses on two buttons k = 0..8 system cycles apart, at both phases of the
   loggers' 2-cycle sampling loop, either button first, on two state machines of one PIO block
   and of the two blocks, early in a race and past the 2**31-tick wrap of the count (~34.4 s).
   Every pair runs through the twin's chip model: the firmware's own edge logger in
   rp2040-pio-emulator with the 2-cycle input synchroniser, SYNC releasing all loggers. Each
   word is unwrapped with the firmware's own ``ticks.Epoch``, read 1 ms after it was pushed, as
   the board's drain does. A pair is ordered when the later press has the larger tick count,
   tied when equal, inverted when smaller.
2. Speed of the accelerated chip: the CPU time of a 0.5 s race on all eight state machines (3-6 edges each, bounce on every press and
   release), advanced in 1 ms steps as the firmware's drain timer would, and the simulated
   cycles per CPU second that makes; next to it, plain cycle-by-cycle emulation.
The process is pinned to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import cpu_model  # noqa: E402
from firmware_host.board.ticks import LOCKOUT_FIXED_TICKS, Epoch  # noqa: E402
from firmware_host.twin.chip import Chip  # noqa: E402
from firmware_host.twin.table import SYS_HZ, Table, us_to_cycles  # noqa: E402

BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8)
GO_PIN = 9
SYNC_PIN = 22
LOGGER_PINS = BUTTON_PINS + (GO_PIN,)  # state machine i watches LOGGER_PINS[i]
TICK_HZ = SYS_HZ // 2
LOCKOUT_LOOP = us_to_cycles(25_000) // 2 - LOCKOUT_FIXED_TICKS  # the firmware's default 25 ms
START_CYCLE = 1_000
SYNC_CYCLE = 125_000  # 1 ms after power-up
C0 = SYNC_CYCLE + 3  # first counting cycle: SYNC seen 2 cycles late, the wait passes, then count
READ_DELAY_US = 1_000
POSITIONS = {"early": us_to_cycles(200), "0.2 s": us_to_cycles(200_000), "40 s (past the wrap)": us_to_cycles(40_000_000)}
PAIRS = {"one block (SM 0, 1)": (0, 1), "two blocks (SM 2, 5)": (2, 5)}


def armed_chip(table: Table) -> Chip:
    chip = Chip(table, sync_pin=SYNC_PIN)
    for sm, pin in enumerate(LOGGER_PINS):
        chip.sm_start(sm, pin, LOCKOUT_LOOP, START_CYCLE + sm)
    chip.set_output(SYNC_PIN, 1, SYNC_CYCLE)
    return chip


def unwrapped_presses(chip: Chip, until: int) -> dict[int, int]:
    """Board ticks of each state machine's first word, unwrapped as the board does."""
    epoch = Epoch(SYNC_CYCLE // (SYS_HZ // 1_000_000), TICK_HZ)
    pushes, _ = chip.advance(until)
    out: dict[int, int] = {}
    for cycle, sm, word in pushes:
        read_us = cycle // (SYS_HZ // 1_000_000) + READ_DELAY_US
        out.setdefault(sm, epoch.edge_ticks(word, read_us))
    return out


def ordering_table() -> list[tuple[int, int, int, int, int]]:
    rows = []
    for k in range(9):
        pairs = ordered = tied = inverted = 0
        for position in POSITIONS.values():
            for sms in PAIRS.values():
                for phase in (0, 1):  # the first press on an even or an odd cycle after c0
                    for first, second in (sms, sms[::-1]):
                        press = C0 + position + phase
                        press += (press - C0 - phase) % 2  # keep the phase exact
                        table = Table.for_board()
                        table.edge(LOGGER_PINS[first], 0, press)
                        table.edge(LOGGER_PINS[second], 0, press + k)
                        ticks = unwrapped_presses(armed_chip(table), press + k + 200)
                        gap = ticks[second] - ticks[first]
                        pairs += 1
                        ordered += gap > 0
                        tied += gap == 0
                        inverted += gap < 0
        rows.append((k, pairs, ordered, tied, inverted))
    return rows


def race_table(rng: random.Random, race_cycles: int) -> tuple[Table, list[tuple[int, int]]]:
    """Buttons with 3-6 bouncy edges each (>= 30 ms apart) and GO toggled 3 times, in the race."""
    table = Table.for_board()
    for pin in BUTTON_PINS:
        level = 1
        cycle = SYNC_CYCLE + us_to_cycles(rng.randint(20_000, 60_000))
        for _ in range(rng.randint(3, 6)):
            level ^= 1
            table.bounce(pin, level, cycle, rng)
            cycle += us_to_cycles(rng.randint(30_000, 60_000))
            assert cycle < race_cycles
    go = [(us_to_cycles(100_000), 1), (us_to_cycles(300_000), 0), (us_to_cycles(400_000), 1)]
    return table, go


def run_race(rng: random.Random, race_cycles: int, step_cycles: int) -> tuple[float, int, Chip]:
    table, go = race_table(rng, race_cycles)
    start = time.process_time()
    chip = armed_chip(table)
    pushes = 0
    cycle = SYNC_CYCLE
    outputs = deque(go)
    while cycle < race_cycles:
        cycle = min(race_cycles, cycle + step_cycles)
        while outputs and outputs[0][0] <= cycle:
            at, level = outputs.popleft()
            out, _ = chip.advance(at)
            pushes += len(out)
            chip.set_output(GO_PIN, level, at)
        out, _ = chip.advance(cycle)
        pushes += len(out)
    return time.process_time() - start, pushes, chip


def plain_rate(cycles: int) -> float:
    table, go = race_table(random.Random(1), us_to_cycles(600_000))
    chip = Chip(table, sync_pin=SYNC_PIN, accelerate=False)
    for sm, pin in enumerate(LOGGER_PINS[:1]):
        chip.sm_start(sm, pin, 3, 0)
    chip.set_output(SYNC_PIN, 1, 100)
    start = time.process_time()
    chip.advance(cycles)
    return cycles / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=30, help="0.5 s races to time (default 30)")
    args = parser.parse_args()
    pinned = "no"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "yes"

    rows = ordering_table()
    run_race(random.Random(0), us_to_cycles(500_000), us_to_cycles(1_000))  # warm up
    rng = random.Random(2026)
    races = [run_race(rng, us_to_cycles(500_000), us_to_cycles(1_000)) for _ in range(args.races)]
    cpu_ms = [r[0] * 1e3 for r in races]
    pushes = statistics.mean(r[1] for r in races)
    steps = statistics.mean(r[2].emulated_steps for r in races)
    rate = us_to_cycles(500_000) / (statistics.median(cpu_ms) / 1e3)
    plain = plain_rate(20_000)

    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"pinned to one core: {pinned}")
    print()
    print(f"Two presses k system cycles apart ({len(POSITIONS)} positions x {len(PAIRS)} state-machine pairs x "
          "2 phases x 2 orders per k), the firmware's edge logger in the chip model, words unwrapped "
          "with ticks.Epoch:")
    print()
    print("| k (cycles, 8 ns each) | pairs | ordered correctly | tied | inverted |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for k, n, ordered, tied, inverted in rows:
        print(f"| {k} | {n} | {ordered} | {tied} | {inverted} |")
    print()
    print("| chip model speed | value |")
    print("| --- | --- |")
    print(f"| 0.5 s race, 8 state machines, 3-6 bouncy edges each, 1 ms steps: CPU ms, median of {args.races} "
          f"| {statistics.median(cpu_ms):.1f} (max {max(cpu_ms):.1f}) |")
    print(f"| words pushed / instructions emulated per 0.5 s race (mean) | {pushes:.0f} / {steps:.0f} |")
    print(f"| accelerated, those races: simulated system cycles per CPU second (all 8 SMs) | {rate:.3g} |")
    print(f"| plain emulation, one state machine: cycles per CPU second | {plain:.3g} |")


if __name__ == "__main__":
    main()
