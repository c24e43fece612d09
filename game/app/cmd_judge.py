"""``cheating-moth judge FILE``: judge a recorded race offline and print the decision as JSON.

A race document (see :mod:`game.judge_file`) is read from FILE, or from stdin with ``-``.
Anything wrong with the input, from an unreadable file to a seat outside the table, exits with
status 2 and one line on stderr, and prints nothing on stdout, so a script can trust stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.errors import BadRace
from game.judge import RaceResult, format_gap, format_ms, format_seats
from game.judge_file import judge_document, result_to_json

HELP = "Judge a recorded race (JSON file, or - for stdin) and print the decision."

EXIT_BAD_INPUT = 2


class _BadInput(Exception):
    """The input could not be read or decoded; the message is the whole stderr line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="race document (JSON); '-' reads stdin")
    parser.add_argument("--text", action="store_true", help="print the reason and a table instead of JSON")


def run(args: argparse.Namespace) -> int:
    try:
        result = judge_document(_decode(_read(args.file), args.file))
    except (_BadInput, BadRace) as exc:
        print(f"cheating-moth judge: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.text:
        sys.stdout.write(render_text(result))
    else:
        sys.stdout.write(json.dumps(result_to_json(result), indent=2) + "\n")
    return 0


def _label(path: str) -> str:
    return "stdin" if path == "-" else repr(path)


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as exc:
        raise _BadInput(f"cannot read {_label(path)}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise _BadInput(f"{_label(path)} is not UTF-8 text: byte {exc.start} cannot be decoded") from None


def _decode(text: str, path: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise _BadInput(f"{_label(path)} is not valid JSON: {exc.msg} at {where}") from None
    except (ValueError, RecursionError) as exc:
        # Numbers longer than Python's digit limit, or nesting deeper than the parser's stack.
        raise _BadInput(f"{_label(path)} cannot be decoded as a race: {type(exc).__name__}") from None


def render_text(result: RaceResult) -> str:
    """The reason, then one row per valid press, then false starts and seats without a press."""
    lines = [result.reason, "", f"{'place':>5}  {'seat':>4}  {'reaction':>12}  {'gap':>12}"]
    for place, placing in enumerate(result.ranking, start=1):
        gap = format_gap(placing.gap_ns) if place > 1 else ""  # a 16 ns board gap must not read 0.000 ms
        lines.append(f"{place:>5}  {placing.player:>4}  {format_ms(placing.reaction_ns):>12}  {gap:>12}".rstrip())
    for false_start in result.false_starts:
        held = " (held at GO)" if false_start.held_at_go else ""
        lines.append(f"false start: seat {false_start.player} at t_ns {false_start.t_ns}{held}")
    if result.no_press:
        lines.append(f"no press: {format_seats(result.no_press)}")
    return "\n".join(lines) + "\n"
