"""The deck: how many cards of each kind carry each number, validated against the kind totals.

The default spread lives in ``game/data/deck.toml``; a café overrides it from its config
(``[deck.spread]`` / ``[deck.totals]``) to match a printed deck.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .cards import NUMBERS, Card, Kind
from .errors import BadDeck

#: Kind totals of the printed game (71 cards in all).
PRINTED_TOTALS: Mapping[Kind, int] = {
    Kind.NUMBER: 43,
    Kind.MOTH: 8,
    Kind.ANT: 5,
    Kind.SPIDER: 5,
    Kind.COCKROACH: 5,
    Kind.MOSQUITO: 5,
}


@dataclass(frozen=True, slots=True)
class Deck:
    """Cards per kind per number: ``spread[kind][number - 1]``. Kinds are in ``Kind`` order."""

    spread: tuple[tuple[int, int, int, int, int], ...]

    def count(self, kind: Kind, number: int) -> int:
        return self.spread[_KIND_INDEX[kind]][number - 1]

    def total(self, kind: Kind) -> int:
        return sum(self.spread[_KIND_INDEX[kind]])

    @property
    def size(self) -> int:
        return sum(sum(row) for row in self.spread)

    @property
    def moths(self) -> int:
        return self.total(Kind.MOTH)

    @property
    def actions(self) -> int:
        return sum(self.total(k) for k in Kind if k.is_action)

    @property
    def numbers(self) -> int:
        return self.total(Kind.NUMBER)

    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck, in a fixed order (kind, then number)."""
        return tuple(
            Card(kind, number)
            for kind in Kind
            for number in NUMBERS
            for _ in range(self.count(kind, number))
        )

    def to_dict(self) -> dict[str, list[int]]:
        return {kind.value: list(self.spread[i]) for i, kind in enumerate(Kind)}


_KIND_INDEX = {kind: i for i, kind in enumerate(Kind)}


def deck_from_mapping(
    spread: Mapping[str, Any], totals: Mapping[str, Any] | None = None, where: str = "deck"
) -> Deck:
    """Build and validate a deck from ``{"moth": [2, 1, 2, 1, 2], ...}``.

    ``totals`` (same keys, one int each) overrides the printed totals for a house deck. Every
    kind must be listed; every count must be a whole number 0 or more; each kind must add up to
    its total. The first problem found raises :class:`BadDeck` naming it.
    """
    expected = _parse_totals(totals, where)
    _refuse_unknown_kinds(spread, f"{where}.spread")
    rows: list[tuple[int, int, int, int, int]] = []
    for kind in Kind:
        if kind.value not in spread:
            raise BadDeck(f"{where}.spread has no entry for kind {kind.value!r}: "
                          f"list its counts for the numbers 1-5, e.g. {kind.value} = [1, 1, 1, 1, 1]")
        counts = spread[kind.value]
        if not isinstance(counts, list) or len(counts) != len(NUMBERS):
            raise BadDeck(f"{where}.spread.{kind.value} is {counts!r}: "
                          "give exactly five counts, one for each number 1-5")
        for number, n in zip(NUMBERS, counts):
            if type(n) is not int or n < 0:
                raise BadDeck(f"{where}.spread.{kind.value} number {number} has count {n!r}: "
                              f"use a whole number 0 or more (the {kind.value} cards must add up to "
                              f"{expected[kind]})")
        actual = sum(counts)
        if actual != expected[kind]:
            per_number = ", ".join(f"{number}: {n}" for number, n in zip(NUMBERS, counts))
            raise BadDeck(f"{where}.spread.{kind.value} adds up to {actual} cards ({per_number}) "
                          f"but {expected[kind]} {kind.value} cards are expected")
        rows.append((counts[0], counts[1], counts[2], counts[3], counts[4]))
    return Deck(tuple(rows))


def _parse_totals(totals: Mapping[str, Any] | None, where: str) -> dict[Kind, int]:
    expected = dict(PRINTED_TOTALS)
    if totals is None:
        return expected
    _refuse_unknown_kinds(totals, f"{where}.totals")
    for key, value in totals.items():
        if type(value) is not int or value < 0:
            raise BadDeck(f"{where}.totals.{key} is {value!r}: use a whole number of cards, 0 or more")
        expected[Kind(key)] = value
    return expected


def _refuse_unknown_kinds(table: Mapping[str, Any], where: str) -> None:
    if not isinstance(table, Mapping):
        raise BadDeck(f"{where} is {table!r}: it must be a table of kinds")
    valid = {k.value for k in Kind}
    for key in table:
        if key not in valid:
            raise BadDeck(f"{where} names unknown kind {key!r}: use {', '.join(k.value for k in Kind)}")


def load_default_deck() -> Deck:
    """The rig's default deck from ``game/data/deck.toml``."""
    text = resources.files("game.data").joinpath("deck.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return deck_from_mapping(data["spread"], data.get("totals"), where="default deck")


DEFAULT_DECK = load_default_deck()
