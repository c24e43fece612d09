"""One English sentence per event, for the terminal; the same sentences in every language
come from :mod:`game.i18n.events`."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from .engine import Event, GameState
from .i18n.events import event_text, seat_name

__all__ = ["describe", "seat_name", "standings_table"]


def describe(event: Event, name: Callable[[int], str] = seat_name) -> str | None:
    """A sentence for ``event``, or None for events too small to narrate (a turn starting).

    ``name`` turns a seat into what the table calls that player. The sentences come from the
    English catalog (:mod:`game.i18n.en`); :func:`game.i18n.events.event_text` gives the others.
    """
    return event_text(event, name, "en")


def standings_table(state: GameState, name: Callable[[int], str] | None = None,
                    seat: Callable[[int], int] | None = None) -> str:
    """The final standings as a terminal table, best first: each player by name and seat
    (counted from 1, as on the table), the total, the moths held, and each round's points under
    its own heading. ``name`` and ``seat`` give a player's name and seat (by default "player N"
    and N, counted from 1, for a log that holds no names)."""
    name = name or (lambda p: f"player {p + 1}")
    seat = seat or (lambda p: p + 1)
    rounds = [f"round {n}" for n in range(1, len(state.scores) + 1)]
    names = {s.player: name(s.player) for s in state.standings()}
    name_w = max([_width("player"), *map(_width, names.values())])
    head = ["place", _pad("player", name_w), "seat", "points", "moths", *rounds]
    rows = ["  ".join(head).rstrip()]
    for s in state.standings():
        points = [f"{row[s.player].points:>{len(r)}}" for row, r in zip(state.scores, rounds)]
        cells = [f"{s.place:>5}", _pad(names[s.player], name_w), f"{seat(s.player):>4}",
                 f"{s.total:>6}", f"{s.moths:>5}", *points]
        rows.append("  ".join(cells).rstrip())
    return "\n".join(rows)


def _width(text: str) -> int:
    """Terminal columns ``text`` takes: a Hangul or other wide letter takes two, a combining
    accent none (a name typed as E + U+0301 is one column, as É is)."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))
