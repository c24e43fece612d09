"""Builders for the rules-engine tests: a chosen table in a line or two, never anything random.

Every state here is reached by real commands through ``apply`` except with :func:`given`,
which sets fields directly (for a hand count that would take dozens of plays) and drops the
history, so a test that undoes never starts from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from game.cards import Card, Kind
from game.deck import DEFAULT_DECK, Deck, deck_from_mapping
from game.engine import (
    DeclareOut, DrawCard, EnterPenalty, Event, GameState, NewGame, PlayCard, StartRound, apply,
)
from game.variants import Rules

#: The numbers that may be played on each top card (RULES.md, "A turn": 1 -> 5 or 2, 5 -> 4 or 1).
FITTING = {1: (2, 5), 2: (1, 3), 3: (2, 4), 4: (3, 5), 5: (4, 1)}


def card(text: str) -> Card:
    """``card("ant 3")``: the card as the table names it."""
    return Card.parse(text)


def above(number: int) -> int:
    """The number one above ``number``, wrapping 5 -> 1."""
    return 1 if number == 5 else number + 1


def run(state: GameState, *commands: Any) -> GameState:
    """Apply ``commands`` in order and return the final state."""
    for command in commands:
        state, _ = apply(state, command)
    return state


def events(state: GameState, command: Any) -> tuple[Event, ...]:
    """The events ``command`` produces in ``state``."""
    return apply(state, command)[1]


def new_game(players: int = 4, oldest: int = 0, rules: Rules | None = None) -> GameState:
    """A game in round set-up: ``oldest`` is the guard."""
    return run(GameState(), NewGame(players, oldest, rules if rules is not None else Rules()))


def started(players: int = 4, oldest: int = 0, starter: str = "number 3",
            rules: Rules | None = None) -> GameState:
    """Round 1 under way: 8 cards each, ``starter`` on the discard pile, the guard to play."""
    return run(new_game(players, oldest, rules), StartRound(card(starter)))


def given(state: GameState, **changes: Any) -> GameState:
    """``state`` with chosen fields (e.g. ``hands=(1, 8, 8, 8)``) and no history to undo."""
    if "hands" in changes:
        changes["hands"] = tuple(changes["hands"])
    return dataclasses.replace(state, previous=None, command=None, **changes)


def may_go_out(state: GameState, *seats: int) -> GameState:
    """``state`` as if ``seats`` had played, laid or given a card this round, so their hands may
    be empty and they may declare out; every count is unchanged. Like :func:`given`, no history."""
    return given(state, shed=tuple(shed or p in seats for p, shed in enumerate(state.shed)))


def play(state: GameState, text: str) -> GameState:
    """The active player lays ``text`` on the discard pile."""
    return run(state, PlayCard(state.active, card(text)))


def draw(state: GameState) -> GameState:
    """The active player draws."""
    return run(state, DrawCard(state.active))


def cycle_plays(state: GameState, count: int) -> GameState:
    """``count`` turns in which the active player lays the number card one above the top."""
    for _ in range(count):
        top = state.discard[-1].number
        state = run(state, PlayCard(state.active, Card(Kind.NUMBER, above(top))))
    return state


def draw_until_empty(state: GameState) -> GameState:
    """Turns of drawing until the draw pile is empty (the discard pile is left alone)."""
    while state.draw_pile:
        state = draw(state)
    return state


def house_deck(**rows: list[int]) -> Deck:
    """The default spread with some kinds' rows replaced; the totals follow the new rows."""
    spread = DEFAULT_DECK.to_dict()
    spread.update(rows)
    totals = {kind: sum(counts) for kind, counts in spread.items()}
    return deck_from_mapping(spread, totals)


def finish_round(state: GameState, out: int,
                 penalties: Mapping[int, tuple[int, int, int]]) -> GameState:
    """``out`` (who has given their last card away, say) declares out, then each seat's
    (moths, actions, numbers) is entered in seat order."""
    state = run(may_go_out(state, out), DeclareOut(out))
    for seat in sorted(penalties):
        state = run(state, EnterPenalty(seat, *penalties[seat]))
    return state


def play_round(state: GameState, out: int, penalties: Mapping[int, tuple[int, int, int]],
               starter: str = "number 3") -> GameState:
    """Start a round with ``starter``, then :func:`finish_round`."""
    return finish_round(run(state, StartRound(card(starter))), out, penalties)
