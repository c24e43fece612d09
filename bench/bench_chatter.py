"""Benchmark of a chattering button in a race (a script, not a test): ``python bench/bench_chatter.py``.

A 5-player table plays a mosquito; after GO three seats' buttons chatter (an edge every 100 µs,
press and release in turn, most of them bounces) while the fourth racer never slaps, so the race
stays open until its timeout and every edge is a real controller step. The figure is the time
of one ``step(table, edge)`` once ``N`` edges are already in the race: the median of
``--probe`` consecutive steps after ``N`` edges were fed (untimed). A step's cost must not grow
with the edges already seen (issue 12 point 6: at most 200 µs per step at 10,000 edges).

Every timestamp is chosen (GO from the controller's ScheduleGo, then fixed offsets), so two runs
feed the same steps; only the timings vary.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import cpu_model  # noqa: E402
from game.cards import Card  # noqa: E402
from game.controller import ScheduleGo, Stage, Table, TableSettings, new_table, step  # noqa: E402
from game.controller import inputs as console  # noqa: E402
from game.inputs import Go, Press, Release  # noqa: E402

MS = 1_000_000
CLOCK = "bench"
#: About ten days of uptime: timestamps of the size the rig really sees.
T0_NS = 864_000 * 10**9
CHATTER_GAP_NS = 100_000
CHATTERING = (1, 2, 3)  # seat 4 races too but never slaps: the race cannot close early


def race_table() -> tuple[Table, int]:
    """A 5-player table with a mosquito just started and GO given: (table, GO's t_ns)."""
    table = new_table(TableSettings(seats=5, clock=CLOCK), seed=1, t_ns=T0_NS)
    t = T0_NS

    def feed(event: object) -> None:
        nonlocal table
        table = step(table, event).table  # type: ignore[arg-type]

    for seat in range(5):
        t += 300 * MS
        feed(Press(seat, t, CLOCK))
        t += 100 * MS
        feed(Release(seat, t, CLOCK))
    t += 500 * MS
    feed(console.StartGame(t))
    t += 300 * MS
    feed(Press(0, t, CLOCK))
    t += 100 * MS
    feed(Release(0, t, CLOCK))
    t += 500 * MS
    feed(console.Starter(Card.parse("number 3"), t))
    t += 500 * MS
    made = step(table, console.Play(Card.parse("mosquito 4"), t))
    table = made.table
    go = next(e for e in made.effects if isinstance(e, ScheduleGo))
    table = step(table, Go(go.t_ns, CLOCK)).table
    if table.stage is not Stage.RACE or table.race is None or table.race.go_t_ns != go.t_ns:
        raise SystemExit(f"the bench table did not reach a race at GO: stage {table.stage}")
    return table, go.t_ns


def chatter_edge(k: int, go_t_ns: int) -> Press | Release:
    """The k-th chatter edge: seats 1-3 in turn, each alternating press and release."""
    seat = CHATTERING[k % len(CHATTERING)]
    kind = Press if (k // len(CHATTERING)) % 2 == 0 else Release
    return kind(seat, go_t_ns + 50 * MS + k * CHATTER_GAP_NS, CLOCK)


def step_cost_ns(sizes: list[int], probe: int) -> dict[int, int]:
    """For each size N: the median time of one step with N edges already in the race."""
    table, go = race_table()
    fed = 0
    costs: dict[int, int] = {}
    for size in sorted(sizes):
        while fed < size:
            table = step(table, chatter_edge(fed, go)).table
            fed += 1
        timings: list[int] = []
        probe_table = table
        for k in range(probe):
            edge = chatter_edge(fed + k, go)
            start = time.perf_counter_ns()
            probe_table = step(probe_table, edge).table
            timings.append(time.perf_counter_ns() - start)
        race = probe_table.race
        if race is None or race.result is not None or probe_table.stage is not Stage.RACE:
            raise SystemExit(f"the race closed during the probe at {size} edges: the bench is wrong")
        costs[size] = int(statistics.median(timings))
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000,10000",
                        help="edges already in the race when a step is timed, comma-separated")
    parser.add_argument("--probe", type=int, default=200, help="steps timed at each size")
    args = parser.parse_args()
    try:
        sizes = [int(part) for part in args.sizes.split(",")]
    except ValueError:
        raise SystemExit(f"--sizes {args.sizes!r} is not valid: give whole numbers separated by commas") from None
    if any(size < 0 or size * CHATTER_GAP_NS >= 2_900 * MS for size in sizes):
        raise SystemExit(f"--sizes {args.sizes!r} is not valid: each size from 0 to "
                         f"{2_900 * MS // CHATTER_GAP_NS - 1} (the chatter must fit the 3 s timeout)")
    gc.collect()
    costs = step_cost_ns(sizes, args.probe)
    print(f"Chattering-button benchmark — {cpu_model()}, {platform.platform()}, "
          f"Python {platform.python_version()} ({platform.python_implementation()})")
    print()
    print("| edges already in the race | one controller step (median) |")
    print("| --- | --- |")
    for size, ns in costs.items():
        print(f"| {size:,} | {ns / 1000:.1f} µs |")


if __name__ == "__main__":
    main()
