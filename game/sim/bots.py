"""How simulated players behave: which card to play, cheat with, give away; how fast they slap.

All randomness comes from the ``random.Random`` passed in, so a game is a function of its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import Card, Kind, fits

NS_PER_MS = 1_000_000


@dataclass(frozen=True, slots=True)
class Policy:
    """Probabilities and timings of the bots (per step, per player where it says so)."""

    cheat_p: float = 0.06           # each non-guard player, each turn: make one card vanish
    spot_p: float = 0.4             # the guard sees a given cheat and calls "Caught!"
    false_accuse_p: float = 0.01    # each turn: the guard accuses someone who did not cheat
    draw_anyway_p: float = 0.1      # with draw-when-playable 'allowed': draw despite a fitting card
    false_start_p: float = 0.03     # each racer, each race
    reaction_mean_ms: float = 240.0
    reaction_sd_ms: float = 45.0
    reaction_min_ms: float = 150.0
    reaction_max_ms: float = 350.0

    def reaction_ns(self, rng: random.Random) -> int:
        ms = min(max(rng.gauss(self.reaction_mean_ms, self.reaction_sd_ms), self.reaction_min_ms),
                 self.reaction_max_ms)
        return int(ms * NS_PER_MS)


def _penalty_first(cards: tuple[Card, ...], ids: Iterable[int]) -> list[int]:
    """Card ids, most penalty points first; ties keep hand order (deterministic)."""
    return sorted(ids, key=lambda i: -cards[i].kind.penalty)


def playable(cards: tuple[Card, ...], hand: list[int], top: int, may_lay_moth: bool) -> list[int]:
    return [i for i in hand
            if fits(cards[i].number, top) and (may_lay_moth or cards[i].kind is not Kind.MOTH)]


def matching(cards: tuple[Card, ...], hand: list[int], number: int, may_lay_moth: bool) -> list[int]:
    return [i for i in hand
            if cards[i].number == number and (may_lay_moth or cards[i].kind is not Kind.MOTH)]


def best_to_shed(cards: tuple[Card, ...], ids: list[int]) -> int:
    """The card a player most wants gone: the one worth the most penalty points."""
    return _penalty_first(cards, ids)[0]


def gift_choice(cards: tuple[Card, ...], hand: list[int]) -> int | None:
    """The card to give away (never a moth); None if the hand holds only moths."""
    allowed = [i for i in hand if cards[i].kind is not Kind.MOTH]
    return best_to_shed(cards, allowed) if allowed else None
