"""Standings at game end: lowest total wins; ties per the top-tie variant."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..variants import TopTie

if TYPE_CHECKING:
    from .state import GameState, Standing


def standings(state: GameState) -> tuple[Standing, ...]:
    """Seats best first. Equal totals share a place; with ``fewest-moths`` moths break ties first."""
    from .state import Standing

    totals = state.totals
    moths = state.moths_taken
    fewest_moths = state.rules.top_tie is TopTie.FEWEST_MOTHS

    def key(p: int) -> tuple[int, int]:
        return (totals[p], moths[p] if fewest_moths else 0)

    order = sorted(state.seats, key=lambda p: (key(p), p))
    result: list[Standing] = []
    for i, p in enumerate(order):
        place = result[-1].place if result and key(order[i - 1]) == key(p) else i + 1
        result.append(Standing(player=p, total=totals[p], moths=moths[p], place=place))
    return tuple(result)


def winners(state: GameState) -> tuple[int, ...]:
    """The seats in first place, in seat order."""
    return tuple(sorted(s.player for s in standings(state) if s.place == 1))
