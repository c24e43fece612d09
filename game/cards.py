"""Cards of Cheating Moth: kinds, numbers 1-5 that wrap, and penalty points."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import BadRecord

NUMBERS = (1, 2, 3, 4, 5)


class Kind(enum.Enum):
    """What a card is. Every card also carries a number 1-5."""

    NUMBER = "number"
    MOTH = "moth"
    ANT = "ant"
    SPIDER = "spider"
    COCKROACH = "cockroach"
    MOSQUITO = "mosquito"

    # Set once for every member below. Plain attributes rather than properties over a dict:
    # an Enum's __hash__ runs in Python, and the simulation asks millions of times.
    penalty: int      # penalty points for one such card left in hand at round end
    is_action: bool   # ant, spider, cockroach, mosquito

    # Members are singletons compared by identity: hash them by identity at C speed too.
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> Kind:
        try:
            return cls(text)
        except ValueError:
            valid = ", ".join(k.value for k in cls)
            raise BadRecord(f"unknown card kind {text!r}: use one of {valid}") from None


ACTIONS = frozenset({Kind.ANT, Kind.SPIDER, Kind.COCKROACH, Kind.MOSQUITO})
PENALTY_POINTS = {
    Kind.NUMBER: 1,
    Kind.MOTH: 10,
    Kind.ANT: 5,
    Kind.SPIDER: 5,
    Kind.COCKROACH: 5,
    Kind.MOSQUITO: 5,
}
for _kind in Kind:
    _kind.penalty = PENALTY_POINTS[_kind]
    _kind.is_action = _kind in ACTIONS


_INTERNED: dict[tuple[Kind, int], Card] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card: its kind and its corner number.

    Cards are interned: ``Card(Kind.ANT, 3)`` always returns the same object, so equality and
    hashing are by identity, which is both correct and as fast as Python gets (the engine
    counts cards on the discard pile at every play).
    """

    kind: Kind
    number: int

    def __new__(cls, kind: Kind, number: int) -> Card:
        card = _INTERNED.get((kind, number))
        if card is not None:
            return card
        if not isinstance(kind, Kind):
            raise BadRecord(f"card kind {kind!r} is not valid: use a Kind such as Kind.ANT")
        if type(number) is not int or not 1 <= number <= 5:
            raise BadRecord(f"card number {number!r} is not valid: use 1, 2, 3, 4 or 5")
        card = object.__new__(cls)
        object.__setattr__(card, "kind", kind)
        object.__setattr__(card, "number", number)
        _INTERNED[(kind, number)] = card
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[Kind, int]]:
        return (Card, (self.kind, self.number))

    def __str__(self) -> str:
        return f"{self.kind.value} {self.number}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"mosquito 3"`` (kind, then number), as shown by ``str(card)``."""
        parts = text.split()
        if len(parts) != 2 or not parts[1].isdigit():
            raise BadRecord(f"card {text!r} is not valid: write the kind and the number, e.g. 'mosquito 3'")
        return cls(Kind.parse(parts[0]), int(parts[1]))


def fits(number: int, top: int) -> bool:
    """True if ``number`` is exactly one above or below ``top``, wrapping 5 -> 1 and 1 -> 5."""
    return (number - top) % 5 in (1, 4)


def neighbours(top: int) -> tuple[int, int]:
    """The two numbers that may be played on ``top`` (the one above first)."""
    return (top % 5 + 1, (top - 2) % 5 + 1)
