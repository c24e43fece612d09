"""``cheating-moth`` / ``cheating-moth play``: the rig's main job.

Until the table display and the button adapters are wired in, the main job plays a whole
simulated game with bots and tells it turn by turn, ending with the standings.
"""

from __future__ import annotations

import argparse
import random
import sys

from ..codec import dumps
from ..engine import Command, Event, GameState
from ..narrate import describe, standings_table
from ..sim import Policy, simulate_game
from .options import add_config, players_arg, rules_from_args

HELP = "play a simulated game and tell it turn by turn (the default)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=players_arg, default=4, help="3 to 5 (default 4)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the game (default: a new one, printed so it can be replayed)")
    parser.add_argument("--log", metavar="FILE", help="also write the game's log (JSON lines) here")
    add_config(parser)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"Cheating Moth — simulated table, {args.players} players, seed {seed}")
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    last: list[GameState] = []

    def tell(state: GameState, command: Command, events: tuple[Event, ...]) -> None:
        last[:] = [state]
        if log is not None:
            log.write(dumps(command) + "\n")
            log.writelines(dumps(e) + "\n" for e in events)
        for event in events:
            line = describe(event)
            if line:
                print(("  " if state.round else "") + line)

    try:
        report = simulate_game(args.players, seed, rules, Policy(), on_step=tell, keep_log=False)
    finally:
        if log is not None:
            log.close()
    print()
    print(f"Final standings after {len(report.turns)} rounds (penalty points, lowest wins):")
    print(standings_table(last[0]))
    if args.log:
        print(f"Log written to {args.log}; check it with: cheating-moth replay {args.log}", file=sys.stderr)
    return 0

