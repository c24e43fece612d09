"""``cheating-moth simulate``: many bot games, statistics, and a card-conservation verdict."""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..sim import GameReport, Policy, run_games, simulate_game
from .options import SEED_MAX, add_config, count_arg, players_arg, rules_from_args, seed_arg
from .progress import Progress

HELP = "simulate many games with bots and print statistics (turns, races, accusations, penalties, cards)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=players_arg, default=5, help="3 to 5 (default 5)")
    parser.add_argument("--games", type=count_arg, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=seed_arg, default=0, help=f"seed of the run, 0 to {SEED_MAX} (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_config(parser)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    progress = Progress(sys.stderr, args.games, "simulated games:")
    policy = Policy()
    played = 0

    def play(players: int, seed: int) -> GameReport:
        nonlocal played
        try:
            return simulate_game(players, seed, rules, policy)
        finally:  # a game that fails its card check still counts as played
            played += 1
            progress.update(played)

    start = time.perf_counter()
    try:
        summary = run_games(args.players, args.games, args.seed, play)
    finally:
        progress.finish()
    seconds = time.perf_counter() - start
    out = summary.to_json()
    out["rules"] = rules.variants()
    out["seconds"] = round(seconds, 4)
    out["games_per_second"] = round(args.games / seconds, 1) if seconds > 0 else None
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        _print_text(out)
    return 0 if summary.all_cards_conserved else 1


def _print_text(out: dict[str, object]) -> None:
    labels = [
        ("games", "games"), ("players", "players"), ("rounds", "rounds"),
        ("turns_per_round", "turns per round"), ("races_per_round", "races per round"),
        ("slaps_per_round", "  mosquito slaps"), ("cockroaches_per_round", "  cockroach races"),
        ("accusations_right", "accusations right"), ("accusations_wrong", "accusations wrong"),
        ("mean_penalty_per_player", "mean penalty per player (game)"),
        ("mean_penalty_per_player_round", "mean penalty per player (round)"),
        ("cards_vanished", "cards vanished"), ("cards_vanished_per_round", "  per round"),
        ("cheats", "cheats (incl. caught)"), ("conservation_checks", "conservation checks"),
        ("all_cards_conserved", "all cards conserved"), ("games_per_second", "games per second"),
    ]
    for key, label in labels:
        print(f"{label:<34} {out[key]}")
    failures = out["conservation_failures"]
    assert isinstance(failures, list)
    for failure in failures:
        print(f"  FAILED {failure}")
