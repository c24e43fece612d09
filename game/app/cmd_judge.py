"""``cheating-moth judge FILE``: judge a recorded race offline and print the decision as JSON.

A race document (see :mod:`game.judge_file`) is read from FILE, or from stdin with ``-``; a
referee race's whole record (``{"referee": {preset, rules}, "judge": document}``, written by
``cheating-moth referee --export``) is judged under the preset's rules kept in it.
Anything wrong with the input, from an unreadable file to a seat outside the table, exits with
status 2 and one line on stderr of at most 200 characters, and prints nothing on stdout, so a
script can trust stdout. Reading is bounded (game/bounded.py): at most 1 MiB is read, a key
given twice, a number of more than 20 digits or nesting deeper than 16 levels is refused.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.bounded import BadInput, label, load_json, one_line, read_file, read_stream, utf8
from game.errors import BadConfig, BadRace
from game.judge import RaceResult, format_gap, format_ms, format_seats
from game.judge_file import MAX_DOCUMENT_BYTES, judge_document, result_to_json

HELP = "Judge a recorded race (JSON file, or - for stdin) and print the decision."

EXIT_BAD_INPUT = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="race document (JSON); '-' reads stdin")
    parser.add_argument("--text", action="store_true", help="print the reason and a table instead of JSON")


def run(args: argparse.Namespace) -> int:
    try:
        doc = read_document(args.file)
        if isinstance(doc, dict) and "referee" in doc:
            return _referee(doc, args.text)
        result = judge_document(doc)
    except (BadInput, BadRace, BadConfig) as exc:       # BadConfig: a referee record's bad rules
        # one_line: the contract holds for any message, even one quoting the document.
        print(one_line(f"cheating-moth judge: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.text:
        sys.stdout.write(render_text(result))
    else:
        sys.stdout.write(json.dumps(result_to_json(result), indent=2) + "\n")
    return 0


def _referee(doc: dict[str, object], text: bool) -> int:
    """A referee race's whole record (``referee --export``'s ``race-NNN.referee.json``): judged
    again under the preset's own rules kept in it (false starts, voids, ties, places)."""
    from game.referee.race import rejudge
    from game.referee.race import result_to_json as referee_json

    result = rejudge(doc)
    if text:
        lines = [result.reason, "", f"{'place':>5}  {'seat':>4}  {'reaction':>12}  {'gap':>12}"]
        for p in result.places:
            reaction = format_ms(p.reaction_ns) if p.reaction_ns is not None else "—"
            gap = format_gap(p.gap_ns) if p.place > 1 else ""
            lines.append(f"{p.place:>5}  {p.seat:>4}  {reaction:>12}  {gap:>12}".rstrip())
        for early in result.false_starts:
            lines.append(f"false start: seat {early.seat} at t_ns {early.t_ns}"
                         f"{' (held at GO)' if early.held_at_go else ''}")
        sys.stdout.write("\n".join(lines) + "\n")
    else:
        sys.stdout.write(json.dumps(referee_json(result), indent=2) + "\n")
    return 0


def read_document(path: str) -> object:
    """The decoded race document from ``path`` ('-': stdin), read within the bounds."""
    what = "stdin" if path == "-" else label(path)
    if path == "-":
        raw = read_stream(getattr(sys.stdin, "buffer", sys.stdin), MAX_DOCUMENT_BYTES, what)
    else:
        raw = read_file(path, MAX_DOCUMENT_BYTES, what)
    return load_json(utf8(raw, what), what)


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
