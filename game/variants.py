"""House rules: where the original rule texts disagree or are silent (RULES.md, "Variants").

Each variant is an enum whose first member is the default. :class:`Rules` bundles the
variants with the deck; the engine takes it in :class:`~game.engine.commands.NewGame`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .deck import DEFAULT_DECK, Deck
from .errors import BadConfig


class GuardNextRound(enum.Enum):
    """Who is guard when a new round starts."""

    #: The Guard Bug passes to the player left of whoever holds it at round end (text 000).
    ROTATE_LEFT = "rotate-left"
    #: Whoever holds the Guard Bug keeps it (text 001).
    KEEP = "keep"


class CockroachRacers(enum.Enum):
    """Who may race to lay a card on a cockroach."""

    #: All players, the one who played the cockroach too (text 000: "ALL players").
    EVERYONE = "everyone"
    #: Everyone but the player who played it.
    OTHERS = "others"


class CockroachCard(enum.Enum):
    """What happens when the card laid on a cockroach is itself an action card."""

    #: Only its number counts; its action is not carried out.
    NUMBER_ONLY = "number-only"
    #: Its action happens, carried out by the race winner.
    CHAIN = "chain"


class DrawWhenPlayable(enum.Enum):
    """May a player draw instead of playing a card that fits?

    The rig cannot see hands, so the engine accepts a draw either way; the simulation's bots
    (which hold real cards) obey it, and the screen shows it as a house rule.
    """

    #: Draw only if no card fits (text 000: "if you do not have any card ... you must draw").
    ONLY_IF_STUCK = "only-if-stuck"
    #: A player may draw even with a card that fits.
    ALLOWED = "allowed"


class TopTie(enum.Enum):
    """How a tie for the lowest total is settled at game end."""

    #: Everyone tied on the lowest total wins together.
    SHARED_WIN = "shared-win"
    #: Fewest Cheating Moths taken over the game wins; a remaining tie is shared.
    FEWEST_MOTHS = "fewest-moths"


@dataclass(frozen=True, slots=True)
class Rules:
    """The variants in force and the deck, fixed for one game."""

    guard_next_round: GuardNextRound = GuardNextRound.ROTATE_LEFT
    cockroach_racers: CockroachRacers = CockroachRacers.EVERYONE
    cockroach_card: CockroachCard = CockroachCard.NUMBER_ONLY
    draw_when_playable: DrawWhenPlayable = DrawWhenPlayable.ONLY_IF_STUCK
    top_tie: TopTie = TopTie.SHARED_WIN
    deck: Deck = field(default=DEFAULT_DECK)

    def variants(self) -> dict[str, str]:
        """The variants as ``{"guard-next-round": "rotate-left", ...}`` (config and log form)."""
        return {
            _key(f.name): getattr(self, f.name).value
            for f in fields(self)
            if f.name != "deck"
        }


def _key(name: str) -> str:
    return name.replace("_", "-")


_VARIANT_TYPES: dict[str, type[enum.Enum]] = {
    "guard-next-round": GuardNextRound,
    "cockroach-racers": CockroachRacers,
    "cockroach-card": CockroachCard,
    "draw-when-playable": DrawWhenPlayable,
    "top-tie": TopTie,
}


def rules_from_mapping(variants: Mapping[str, Any], deck: Deck = DEFAULT_DECK, where: str = "rules") -> Rules:
    """Build :class:`Rules` from ``{"guard-next-round": "keep", ...}``; missing keys take defaults."""
    values: dict[str, Any] = {}
    for key, raw in variants.items():
        variant = _VARIANT_TYPES.get(key)
        if variant is None:
            raise BadConfig(f"{where} has unknown variant {key!r}: use {', '.join(_VARIANT_TYPES)}")
        options = [m.value for m in variant]
        if raw not in options:
            raise BadConfig(f"{where}.{key} is {raw!r}: use one of {', '.join(map(repr, options))}")
        values[key.replace("-", "_")] = variant(raw)
    return Rules(deck=deck, **values)
