"""Benchmark of the race judge (a script, not a test): ``python bench/bench_judge.py``.

1. Decision latency: many 5-player slaps with contact bounce on every press and release. All
   edges up to the slowest seat's press are already in the list; the clock starts when that
   deciding press is appended and stops when ``judge()`` has returned the decision.
2. Throughput: whole races (every edge, bounces included) judged end to end, as edges per
   second, and one long stream of chattering buttons to show how the cost grows.

The races are generated from a seeded ``random.Random``, so two runs judge the same edges.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.inputs import Press, Release  # noqa: E402
from game.judge import RaceSpec, Status, default_eligible, judge  # noqa: E402
from game.race import RaceKind  # noqa: E402

MS = 1_000_000
CLOCK = "monotonic"
PLAYERS = 5
ACTIVE = 0
# About ten days of uptime on CLOCK_MONOTONIC: timestamps of the size the judge really sees.
BASE_T_NS = 864_000 * 10**9

Edge = Press | Release


@dataclass(frozen=True, slots=True)
class Race:
    spec: RaceSpec
    before: tuple[Edge, ...]  # every edge up to (not including) the deciding press
    deciding: Press
    everything: tuple[Edge, ...]  # the whole race, for throughput


def _bounce(rng: random.Random, seat: int, t_ns: int, press: bool) -> list[Edge]:
    """An edge at t_ns followed by 0-12 chatter edges within 6 ms, coming to rest in the same state."""
    first, other = (Press, Release) if press else (Release, Press)
    edges: list[Edge] = [first(seat, t_ns, CLOCK)]
    chatter = sorted(rng.sample(range(50_000, 6 * MS), rng.randrange(0, 7) * 2))
    for k, offset in enumerate(chatter):
        edges.append((other if k % 2 == 0 else first)(seat, t_ns + offset, CLOCK))
    return edges


def make_race(rng: random.Random, index: int) -> Race:
    armed = BASE_T_NS + index * 10_000 * MS
    go = armed + rng.randrange(1_000 * MS, 3_000 * MS)
    spec = RaceSpec(
        kind=RaceKind.SLAP,
        players=PLAYERS,
        active=ACTIVE,
        eligible=default_eligible(RaceKind.SLAP, PLAYERS, ACTIVE),
        clock=CLOCK,
        resolution_ns=16,  # an RP2040 PIO tick at 125 MHz
        armed_t_ns=armed,
        go_t_ns=go,
        timeout_ns=3_000 * MS,
    )
    presses: dict[int, int] = {}
    edges: list[Edge] = []
    for seat in spec.eligible:
        reaction = max(120 * MS, int(rng.lognormvariate(19.1, 0.25)))  # median ~200 ms
        press_t = go + reaction + rng.randrange(1000)
        presses[seat] = press_t
        edges += _bounce(rng, seat, press_t, press=True)
        edges += _bounce(rng, seat, press_t + rng.randrange(80 * MS, 200 * MS), press=False)
    last_seat = max(presses, key=lambda seat: presses[seat])
    deciding_t = presses[last_seat]
    deciding = Press(last_seat, deciding_t, CLOCK)
    before = [e for e in edges if e.t_ns < deciding_t or (e.t_ns == deciding_t and e.player != last_seat)]
    rng.shuffle(before)  # adapters deliver across seats in any order
    return Race(spec, tuple(before), deciding, tuple(edges))


def percentile(sorted_ns: list[int], q: float) -> int:
    return sorted_ns[min(len(sorted_ns) - 1, int(q * len(sorted_ns)))]


def bench_latency(races: list[Race]) -> list[int]:
    timings: list[int] = []
    for race in races:
        edges = list(race.before)
        start = time.perf_counter_ns()
        edges.append(race.deciding)
        result = judge(race.spec, edges, race.deciding.t_ns)
        timings.append(time.perf_counter_ns() - start)
        if result.status is not Status.DECIDED or result.loser != race.deciding.player:
            raise SystemExit(f"wrong decision for {race!r}: {result.reason}")
    return sorted(timings)


def bench_throughput(races: list[Race], rounds: int) -> tuple[int, int]:
    """(edges judged, nanoseconds spent) over whole races."""
    edges_total = 0
    start = time.perf_counter_ns()
    for _ in range(rounds):
        for race in races:
            judge(race.spec, race.everything, race.everything[-1].t_ns + 4_000 * MS)
            edges_total += len(race.everything)
    return edges_total, time.perf_counter_ns() - start


def bench_long_stream(rng: random.Random, edges_count: int) -> tuple[int, int]:
    """One race where every seat chatters for a long time: (edges, nanoseconds)."""
    race = make_race(rng, 0)
    go = race.spec.go_t_ns
    edges: list[Edge] = []
    for k in range(edges_count):
        seat = 1 + k % (PLAYERS - 1)
        kind = Press if (k // (PLAYERS - 1)) % 2 == 0 else Release
        edges.append(kind(seat, go + 100 * MS + k * 7_919, CLOCK))
    start = time.perf_counter_ns()
    judge(race.spec, edges, edges[-1].t_ns)
    return len(edges), time.perf_counter_ns() - start


def us(ns: float) -> str:
    return f"{ns / 1000:.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=5000, help="races for the latency figures")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the races for throughput")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    races = [make_race(rng, i) for i in range(args.races)]
    # The generated races are long-lived; freezing them keeps the collector from re-walking them
    # on every collection, which would be charged to judge() (a kiosk app can do the same).
    gc.collect()
    gc.freeze()
    bench_latency(races[: min(200, len(races))])  # warm-up: imports, caches
    latency = bench_latency(races)
    edges, spent = bench_throughput(races, args.rounds)
    # Median of five runs.
    long_runs = sorted((bench_long_stream(rng, 20_000) for _ in range(5)), key=lambda run: run[1])
    long_edges, long_spent = long_runs[2]
    mean_edges = statistics.fmean(len(r.before) + 1 for r in races)

    machine = platform.processor() or platform.machine()
    print(f"Race judge benchmark — {machine}, {platform.platform()}, "
          f"Python {platform.python_version()} ({platform.python_implementation()})")
    print()
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| races (5-player slap, bounce on every edge) | {len(races)} |")
    print(f"| edges in the list when the deciding press arrives (mean) | {mean_edges:.1f} |")
    print(f"| decision latency p50 | {us(percentile(latency, 0.50))} |")
    print(f"| decision latency p99 | {us(percentile(latency, 0.99))} |")
    print(f"| decision latency max | {us(latency[-1])} |")
    print(f"| whole races: edges judged per second | {edges * 10**9 // spent:,} |")
    print(f"| one stream of {long_edges:,} edges: edges judged per second | {long_edges * 10**9 // long_spent:,} |")


if __name__ == "__main__":
    main()
