"""Benchmark of the simulation (a script, not a test): ``python bench/bench_simulate.py``.

Simulated 5-player games per second on one core, exactly as ``cheating-moth simulate`` plays
them: real hidden hands, bots, every command through the engine, and every card checked after
every command. Also the engine alone: the same games' commands re-applied without bots or checks.
The process is pinned to one CPU where the OS allows it. Games are seeded, so every run plays
the same games; the figures vary only with the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import cpu_model  # noqa: E402
from game.codec import is_command  # noqa: E402
from game.engine import GameState, apply  # noqa: E402
from game.sim import simulate_game  # noqa: E402
from game.sim.stats import game_seed  # noqa: E402

PLAYERS = 5




def games_per_second(games: int, repeats: int) -> list[float]:
    rates = []
    for r in range(repeats):
        start = time.perf_counter()
        for i in range(games):
            simulate_game(PLAYERS, game_seed(r, i))
        rates.append(games / (time.perf_counter() - start))
    return rates


def engine_rate(games: int) -> tuple[float, float]:
    logs = [[x for x in simulate_game(PLAYERS, game_seed(99, i), keep_log=True).log if is_command(x)]
            for i in range(games)]
    commands = sum(map(len, logs))
    start = time.perf_counter()
    for log in logs:
        state = GameState()
        for command in log:
            state, _ = apply(state, command)
    seconds = time.perf_counter() - start
    return games / seconds, commands / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per repeat (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    args = parser.parse_args()
    pinned = "no"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "yes"
    simulate_game(PLAYERS, 0)  # warm up imports and caches
    rates = games_per_second(args.games, args.repeats)
    engine_games, engine_commands = engine_rate(args.games)
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"pinned to one core: {pinned}")
    print()
    print("| figure | value |")
    print("| --- | --- |")
    print(f"| simulated 5-player games/s, median of {args.repeats}x{args.games} | {statistics.median(rates):.0f} |")
    print(f"| simulated 5-player games/s, best | {max(rates):.0f} |")
    print(f"| engine alone: games/s (commands re-applied) | {engine_games:.0f} |")
    print(f"| engine alone: commands/s | {engine_commands:.0f} |")


if __name__ == "__main__":
    main()
