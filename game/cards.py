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

    @property
    def is_action(self) -> bool:
        return self in ACTIONS

    @property
    def penalty(self) -> int:
        """Penalty points for one such card left in hand at round end."""
        return PENALTY_POINTS[self]

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


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card: its kind and its corner number."""

    kind: Kind
    number: int

    def __post_init__(self) -> None:
        if type(self.number) is not int or not 1 <= self.number <= 5:
            raise BadRecord(f"card number {self.number!r} is not valid: use 1, 2, 3, 4 or 5")

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
