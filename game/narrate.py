"""One English sentence per event, for the terminal; the same sentences in every language
come from :mod:`game.i18n.events`."""

from __future__ import annotations

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


def standings_table(state: GameState) -> str:
    """The final standings as a small text table, best first."""
    rows = [f"{'place':>5}  {'seat':>4}  {'points':>6}  {'moths':>5}  rounds"]
    for s in state.standings():
        per_round = " ".join(f"{row[s.player].points:>3}" for row in state.scores)
        rows.append(f"{s.place:>5}  {s.player:>4}  {s.total:>6}  {s.moths:>5}  {per_round}")
    return "\n".join(rows)
