"""``cheating-moth replay FILE``: re-apply a game log and print the standings."""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any

from ..bounded import BadInput, label, open_regular
from ..engine import GameState, Phase
from ..errors import BadLogLine
from ..narrate import standings_table
from ..replay import replay
from .options import fail

#: A whole game logged with its events is a few hundred kilobytes; a file past this is not one.
MAX_LOG_BYTES = 64 * 1024 * 1024

HELP = "re-apply a JSON-lines game log (commands, optionally their events) and print the standings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the log, one JSON record per line ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        # Bounded (game/bounded.py): a FIFO, a device or a folder named as the log is refused
        # without waiting on it (a pipe comes in through '-'), a larger file before it is read.
        stream = sys.stdin if args.file == "-" else io.TextIOWrapper(
            open_regular(args.file, MAX_LOG_BYTES, f"log {label(args.file)}",
                         "give a game log's file, or '-' to read stdin"), encoding="utf-8")
    except BadInput as exc:
        fail(str(exc))
    try:
        with stream:
            result = replay(stream)
    except BadLogLine as exc:
        fail(f"{args.file}: {exc} (replay stopped; {exc.commands} commands before it were applied)")
    except UnicodeDecodeError:
        fail(f"{args.file} is not UTF-8 text: a log is JSON lines")
    if result.commands == 0:
        # Nothing to re-apply is not a replay: an empty file (or one of blank lines) is most
        # likely a log whose writer never got going, and "phase setup, round 0" would hide that.
        fail(f"{args.file} holds no commands: a game log is JSON lines of commands and their events, "
             "as 'cheating-moth play --log FILE' writes")
    if args.json:
        print(json.dumps(_summary(result.state, result.commands, result.events), indent=2))
    else:
        print(f"Replayed {result.commands} commands ({result.events} logged events checked); "
              f"phase {result.state.phase.value}, round {result.state.round}.")
        if result.state.players:
            print(standings_table(result.state))
    return 0


def _summary(state: GameState, commands: int, events: int) -> dict[str, Any]:
    return {
        "commands": commands,
        "events_checked": events,
        "phase": state.phase.value,
        "round": state.round,
        "complete": state.phase is Phase.GAME_OVER,
        "standings": [
            {"player": s.player, "total": s.total, "moths": s.moths, "place": s.place}
            for s in (state.standings() if state.players else ())
        ],
        "winners": [s.player for s in state.standings() if s.place == 1] if state.players else [],
    }
