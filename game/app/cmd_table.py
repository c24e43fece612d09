"""``cheating-moth table``: a whole game played through the table controller by simulated
players pressing buttons (no screen); ``--db`` logs it and resumes it after a crash."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..controller import Notice, Stage, Step, Table, TableSettings, step
from ..controller.resume import resume
from ..errors import BadTableLog
from ..narrate import describe, standings_table
from ..sim.presses import T0_NS, resume_script
from .options import SEED_MAX, add_config, fail, players_arg, resume_clash, rules_from_args, seed_arg
from .tablelog import TableLog

PLAYERS = 4
SEED = 1

HELP = "play a whole game through the table controller with simulated players pressing buttons"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", choices=("sim",), default="sim",
                        help="sim: simulated players press the buttons (the only input without a screen)")
    parser.add_argument("--players", type=players_arg, default=None, help=f"3 to 5 (default {PLAYERS})")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help=f"seed of the game, 0 to {SEED_MAX} (default {SEED}); a game resumed from --db keeps its own")
    parser.add_argument("--db", metavar="PATH",
                        help="SQLite log: every input is written before it takes effect; an "
                             "unfinished game in it is resumed")
    parser.add_argument("--json", action="store_true", help="print one JSON summary at the end")
    add_config(parser)


def run(args: argparse.Namespace) -> int:
    players = args.players if args.players is not None else PLAYERS
    seed = args.seed if args.seed is not None else SEED
    settings = TableSettings(seats=players, clock="sim", rules=rules_from_args(args))
    log: TableLog | None = None
    if args.db:
        try:
            log = TableLog.open(args.db, settings, seed, T0_NS)
        except BadTableLog as exc:
            fail(str(exc))
        clash = resume_clash(args.db, args.seed, log.seed, args.players, log.settings.seats)
        if clash:
            log.close()
            fail(clash)
        settings, seed = log.settings, log.seed
        players = settings.seats
        for notice in log.notices:  # on stderr, with --json too: a loss is never quiet
            print(f"note: {notice}", file=sys.stderr, flush=True)
    try:
        table, steps = _play(args, settings, seed, players, log)
    except BadTableLog as exc:
        fail(str(exc))
    finally:
        if log is not None:
            log.close()
    if args.json:
        print(json.dumps(_summary(table, steps, seed), indent=2))
    else:
        print(f"Final standings (penalty points, lowest wins):\n{standings_table(table.game, table.name, lambda p: table.seated[p] + 1)}")
    if log is not None and log.lost:
        # The game was played to its end from memory; the log misses its last steps: said, and
        # the exit status says the log is not whole.
        print(f"note: {log.lost} step{'s' * (log.lost != 1)} could not be written to {args.db} and "
              f"{'are' if log.lost != 1 else 'is'} lost ({log.trouble}): free space on the disk or make "
              f"the file writable, then run the command again: it resumes after the {log.written} steps in "
              "the log", file=sys.stderr, flush=True)
        return 1
    return 0


def _play(args: argparse.Namespace, settings: TableSettings, seed: int, players: int,
          log: TableLog | None) -> tuple[Table, int]:
    logged = log.steps if log is not None else []
    table = resume(settings, seed, T0_NS, logged)
    if table.stage is Stage.GAME_OVER:
        _say(args, f"The game in {args.db} is already over ({len(logged)} logged steps).")
        return table, len(logged)
    # The simulated players act the game out from the start; the logged part is replayed.
    script, next_event = resume_script(players, seed, settings, logged)
    assert next_event is not None
    event = next_event
    if logged:
        _say(args, f"Resumed the game in {args.db} after {len(logged)} logged steps "
                   f"(round {table.game.round}, stage {table.stage.value}).")
    else:
        _say(args, f"Cheating Moth table, {players} simulated players, seed {seed}")
    steps = len(logged)
    while True:
        made = step(table, event)
        if log is not None:
            log.append(event, made)  # on disk before anything is shown or done
        steps += 1
        _tell(args, made)
        table = made.table
        if table.stage is Stage.GAME_OVER:
            return table, steps
        try:
            event = script.send(made)
        except StopIteration:
            return table, steps


def _tell(args: argparse.Namespace, made: Step) -> None:
    if args.json:
        return
    lines = [describe(e, made.table.name) for e in made.events]
    lines += [e.message.render() for e in made.effects if isinstance(e, Notice)]
    for line in lines:
        if line:
            print(f"  {line}", flush=True)


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text, flush=True)


def _summary(table: Table, steps: int, seed: int) -> dict[str, Any]:
    game = table.game
    return {
        "seed": seed,
        "players": table.players,
        "steps": steps,
        "stage": table.stage.value,
        "rounds": len(game.scores),
        "standings": [{"player": s.player, "name": table.name(s.player), "total": s.total,
                       "moths": s.moths, "place": s.place} for s in game.standings()],
    }
