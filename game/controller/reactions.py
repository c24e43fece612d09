"""Each player's reaction times over a game: races, best, median, false starts.

A race counts once the controller decided it (the engine's DecideRace): a tie that runs again
counts as the run that decided it, and a race whose decision is undone is taken back out with it
(the engine's Undone names the DecideRace). The times are the judge's placings (hardware
stamps, GO to press), so the statistics are as exact as the race itself. A new game (the
engine's NewGame) starts them afresh; they stay up on the game-over screen until then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import Command, DecideRace, Event, NewGame
from ..engine.events import Undone
from ..judge import RaceResult


@dataclass(frozen=True, slots=True)
class RaceTimes:
    """One decided race: who took part, their reactions (ns) and who started early."""

    entered: tuple[int, ...]                   # players: a valid press, none, or a false start
    reactions: tuple[tuple[int, int], ...]     # (player, reaction_ns) of the valid presses
    false_starts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player: int
    races: int                  # decided races the player took part in
    best_ns: int | None         # None: no valid press yet
    median_ns: int | None
    false_starts: int


def times_of(result: RaceResult | None) -> RaceTimes:
    if result is None:
        return RaceTimes((), (), ())
    false = tuple(dict.fromkeys(f.player for f in result.false_starts))
    entered = tuple(sorted({p.player for p in result.ranking} | set(result.no_press) | set(false)))
    return RaceTimes(entered, tuple((p.player, p.reaction_ns) for p in result.ranking), false)


def track(times: tuple[RaceTimes, ...], last_race: RaceResult | None, commands: Sequence[Command],
          events: Sequence[Event]) -> tuple[RaceTimes, ...]:
    """The game's decided races after a step that applied ``commands`` and told ``events``;
    ``last_race``: the result the step left as the latest race (the one a DecideRace decided)."""
    for command in commands:
        if isinstance(command, NewGame):
            times = ()
        elif isinstance(command, DecideRace):
            times += (times_of(last_race),)
    for event in events:
        if isinstance(event, Undone) and isinstance(event.command, DecideRace) and times:
            times = times[:-1]
    return times


def stats(times: Sequence[RaceTimes], players: int) -> tuple[PlayerStats, ...]:
    """Each player's statistics over ``times``."""
    made = []
    for player in range(players):
        valid = sorted(ns for race in times for p, ns in race.reactions if p == player)
        made.append(PlayerStats(
            player=player,
            races=sum(1 for race in times if player in race.entered),
            best_ns=valid[0] if valid else None,
            median_ns=_median(valid),
            false_starts=sum(1 for race in times if player in race.false_starts)))
    return tuple(made)


def _median(values: Sequence[int]) -> int | None:
    """The middle value; of an even count, the mean of the two middle ones (whole ns, rounded
    down: a reaction is known to the tick anyway)."""
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) // 2
