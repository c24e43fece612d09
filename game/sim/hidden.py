"""Where every physical card is: draw pile, discard pile, a hand, or vanished (cheated away)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import Card


class ConservationError(AssertionError):
    """A card is in two places or none — a bug in the simulation or the engine."""


@dataclass(slots=True)
class HiddenTable:
    """The real cards of one round. Cards are ids into ``cards`` so copies stay distinct."""

    cards: tuple[Card, ...]
    draw: list[int]
    discard: list[int]
    hands: list[list[int]]
    vanished: list[int]
    #: For each seat, the cards it made vanish this round and could be made to take back.
    cheated: list[list[int]]

    @classmethod
    def deal(cls, cards: tuple[Card, ...], players: int, hand_size: int, rng: random.Random) -> HiddenTable:
        order = list(range(len(cards)))
        rng.shuffle(order)
        hands = [order[p * hand_size:(p + 1) * hand_size] for p in range(players)]
        rest = order[players * hand_size:]
        starter = rest.pop()
        return cls(cards, rest, [starter], hands, [], [[] for _ in range(players)])

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    @property
    def top(self) -> Card:
        return self.cards[self.discard[-1]]

    def draw_to(self, player: int) -> None:
        self.hands[player].append(self.draw.pop())

    def reshuffle(self, rng: random.Random) -> None:
        rest = self.discard[:-1]
        rng.shuffle(rest)
        self.draw = rest
        self.discard = self.discard[-1:]

    def play(self, player: int, card_id: int) -> None:
        self.hands[player].remove(card_id)
        self.discard.append(card_id)

    def give(self, giver: int, recipient: int, card_id: int) -> None:
        self.hands[giver].remove(card_id)
        self.hands[recipient].append(card_id)

    def vanish(self, player: int, card_id: int) -> None:
        self.hands[player].remove(card_id)
        self.vanished.append(card_id)
        self.cheated[player].append(card_id)

    def take_back(self, player: int) -> int:
        """The caught cheater takes back the card they last made vanish."""
        card_id = self.cheated[player].pop()
        self.vanished.remove(card_id)
        self.hands[player].append(card_id)
        return card_id

    def check_conservation(self) -> None:
        """Each card of the deck is in exactly one place."""
        ids = self.draw + self.discard + self.vanished  # a new list: the piles stay untouched
        for hand in self.hands:
            ids += hand
        # As many entries as cards, all distinct: each card exactly once (and none missing).
        if len(ids) == len(self.cards) and len(set(ids)) == len(ids):
            return
        seen = bytearray(len(self.cards))
        for card_id in ids:
            seen[card_id] += 1
        missing = [i for i, n in enumerate(seen) if n == 0]
        doubled = [i for i, n in enumerate(seen) if n > 1]
        raise ConservationError(f"cards missing {missing} or in two places {doubled}")
