"""A referee session's statistics per player: races, wins, losses, reaction times, false starts.

Computed from the session's decided results (pending ones are not races yet and are skipped):

- ``races``: the decided runs a seat raced in, re-runs included (each run is a race the seat
  reacted in); ``wins`` / ``losses``: the seat among ``winners`` / ``losers`` of a run that is
  not to be re-run (a shared win counts for each seat sharing it);
- reaction times: each run's valid press of the seat, from GO, only where GO was the rig's (a
  table-GO time from arming is no reaction): ``best_ns``, ``median_ns`` (of an even count the
  mean of the two middle ones, rounded down, as game/controller/reactions.py) and the spread as
  the **interquartile range** ``iqr_ns`` (Q3 - Q1, quartiles interpolated linearly between the
  sorted times, the "inclusive" method of ``statistics.quantiles``; rounded half to even to
  whole ns). The IQR rather than the standard deviation: one distracted 2-second press should
  not make a steady player look erratic. None for fewer than 2 times;
- ``false_starts``: the seat's early presses over every run, as the judge lists them.

Integers throughout: times are whole nanoseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .race import RefereeResult

#: How the spread is measured, named in the JSON so a reader need not guess.
SPREAD = "iqr"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One seat over a session; ``reactions_ns`` are its reaction times in race order."""

    seat: int
    races: int
    wins: int
    losses: int
    false_starts: int
    reactions_ns: tuple[int, ...]
    best_ns: int | None
    median_ns: int | None
    iqr_ns: int | None


def median_ns(values: Sequence[int]) -> int | None:
    """The middle of ``values``; of an even count the mean of the two middle ones, rounded down."""
    ordered = sorted(values)
    if not ordered:
        return None
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) // 2


def quartile_ns(values: Sequence[int], quarter: int) -> int:
    """Quartile ``quarter`` (1 or 3) of at least one value, interpolated linearly between the
    sorted values at (n - 1) * quarter / 4, rounded half to even to whole ns."""
    ordered = sorted(values)
    position = Fraction((len(ordered) - 1) * quarter, 4)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (position - low))


def iqr_ns(values: Sequence[int]) -> int | None:
    """Q3 - Q1 of ``values``, or None for fewer than 2."""
    if len(values) < 2:
        return None
    return quartile_ns(values, 3) - quartile_ns(values, 1)


def session_stats(results: Iterable[RefereeResult], seats: Iterable[int] = ()) -> tuple[PlayerStats, ...]:
    """Every seat that raced in a decided result (and every seat of ``seats``, even with no
    race), by seat number."""
    decided = [r for r in results if r.decided]
    everyone = sorted(set(seats) | {s for r in decided for s in r.racers})
    made = []
    for seat in everyone:
        runs = [r for r in decided if seat in r.racers]
        counted = [r for r in runs if not r.rerun]
        reactions = tuple(p.reaction_ns for r in runs for p in r.places
                          if p.seat == seat and p.reaction_ns is not None)
        made.append(PlayerStats(
            seat=seat,
            races=len(runs),
            wins=sum(1 for r in counted if seat in r.winners),
            losses=sum(1 for r in counted if seat in r.losers),
            false_starts=sum(1 for r in runs for e in r.false_starts if e.seat == seat),
            reactions_ns=reactions,
            best_ns=min(reactions) if reactions else None,
            median_ns=median_ns(reactions),
            iqr_ns=iqr_ns(reactions),
        ))
    return tuple(made)


def stats_to_json(stats: Iterable[PlayerStats], names: Sequence[str] | None = None) -> dict[str, Any]:
    """The statistics as plain JSON values (integer ns; None where there is no time);
    ``names[seat]`` is added as ``name`` when given."""
    players = []
    for s in stats:
        entry: dict[str, Any] = {"seat": s.seat}
        if names is not None and s.seat < len(names):
            entry["name"] = names[s.seat]
        entry |= {
            "races": s.races, "wins": s.wins, "losses": s.losses, "false_starts": s.false_starts,
            "reactions": len(s.reactions_ns), "best_ns": s.best_ns, "median_ns": s.median_ns, "iqr_ns": s.iqr_ns,
            "reactions_ns": list(s.reactions_ns),
        }
        players.append(entry)
    return {"spread": SPREAD, "players": players}
