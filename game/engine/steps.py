"""Shared steps of the rules: the working draft of a state, validation of seats and cards, and
the moves several commands make (draw with reshuffle, give, pass the turn, end the round, carry
out an action card). Used by the command handlers in rules.py, race_rules.py, dispute_rules.py
and round_end.py."""

from __future__ import annotations

import operator

from ..cards import Card, Kind
from ..errors import IllegalCommand, NotYourTurn
from ..race import RaceKind
from ..variants import CockroachRacers
from .commands import Command
from .events import (
    CardDrawn, CardGiven, CardPlayed, DiscardReshuffled, Event, GiftDue, NothingToDraw, RaceArmed, RoundEnded,
    TurnStarted,
)
from .state import GameState, Penalty, Phase, Race, Dispute

_FIELDS = tuple(name for name in GameState.__dataclass_fields__ if name not in ("previous", "command"))
_get_fields = operator.attrgetter(*_FIELDS)


class Draft:
    """A mutable working copy of a :class:`GameState` for one command."""

    def __init__(self, state: GameState) -> None:
        self.events: list[Event] = []
        self.reset(state)

    def reset(self, state: GameState) -> None:
        """Make every field that of ``state`` (a new game starts from a fresh state)."""
        self.__dict__.update(zip(_FIELDS, _get_fields(state)))
        self.hands: list[int] = list(state.hands)

    def freeze(self, previous: GameState, command: Command) -> GameState:
        self.hands = tuple(self.hands)  # type: ignore[assignment]  # the draft is done with
        # Positional, in field order: previous and command are the last two fields.
        return GameState(*(*_get_fields(self), previous, command))

    # Every field is an attribute; typed here for the handlers below.
    phase: Phase
    players: int
    round: int
    guard: int
    guard_changed: bool
    active: int
    draw_pile: int
    discard: tuple[Card, ...]
    race: Race | None
    dispute: Dispute | None
    gift_from: int | None
    anchor: int
    out: tuple[int, ...]
    shed: tuple[bool, ...]
    entries: tuple[Penalty | None, ...]
    scores: tuple[tuple[Penalty, ...], ...]


def check_seat(state: GameState, seat: object, what: str) -> int:
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalCommand(f"{what} {seat!r} is not a seat at this table: use 0 to {state.players - 1}")
    return seat


def require_active(state: GameState, player: object, verb: str) -> int:
    seat = check_seat(state, player, "player")
    if seat != state.active:
        raise NotYourTurn(f"seat {seat} cannot {verb}: it is seat {state.active}'s turn")
    return seat


def require_card_left(state: GameState, card: Card) -> None:
    """The deck must hold such a card that is not already on the discard pile."""
    if not isinstance(card, Card):
        raise IllegalCommand(f"{card!r} is not a card: name a kind and a number, e.g. 'ant 3'")
    in_deck = state.rules.deck.count(card.kind, card.number)
    if in_deck == 0:
        raise IllegalCommand(f"this deck has no {card}: check the card and enter it again")
    on_pile = state.discard.count(card)
    if on_pile >= in_deck:
        raise IllegalCommand(
            f"there is no {card} left to play: the deck has {in_deck} and "
            f"{on_pile} {'is' if on_pile == 1 else 'are'} on the discard pile"
        )


def require_may_lay_moth(state: GameState, player: int, card: Card) -> None:
    if card.kind is Kind.MOTH and player != state.guard:
        raise IllegalCommand(
            f"seat {player} cannot lay {card}: only the guard (seat {state.guard}) may play "
            "Cheating Moths; other players can only make them vanish"
        )


def draw(d: Draft, player: int) -> None:
    """One card from the draw pile to ``player``, reshuffling the discard pile if needed."""
    if d.draw_pile == 0:
        if len(d.discard) <= 1:
            d.events.append(NothingToDraw(player))
            return
        d.draw_pile = len(d.discard) - 1
        d.discard = d.discard[-1:]
        d.events.append(DiscardReshuffled(d.draw_pile))
    d.draw_pile -= 1
    d.hands[player] += 1
    d.events.append(CardDrawn(player))


def give(d: Draft, giver: int, recipient: int) -> None:
    d.hands[giver] -= 1
    d.hands[recipient] += 1
    d.events.append(CardGiven(giver, recipient))


def pass_turn(d: Draft, anchor: int) -> None:
    d.phase = Phase.TURN
    d.race = None
    d.gift_from = None
    d.active = (anchor + 1) % d.players
    d.events.append(TurnStarted(d.active))


def note_shed(d: Draft) -> None:
    """Mark who played, laid or gave a card in this command's events: from now on this round
    their hand may be empty (see :func:`game.engine.round_end.declare_out`). Read from the
    events so every way a card leaves a hand counts, whichever handler moved it."""
    shed = d.shed
    for event in d.events:
        kind = type(event)
        if kind is CardPlayed:
            seat = event.player  # type: ignore[union-attr]
        elif kind is CardGiven:
            seat = event.giver  # type: ignore[union-attr]
        else:
            continue
        if not shed[seat]:
            shed = shed[:seat] + (True,) + shed[seat + 1:]
    d.shed = shed


def round_over_if_empty(d: Draft) -> bool:
    """End the round if an official count hit 0: that hand is truly empty (cheating only lowers)."""
    if 0 not in d.hands:
        return False
    end_round(d, tuple(p for p, n in enumerate(d.hands) if n == 0))
    return True


def end_round(d: Draft, out: tuple[int, ...]) -> None:
    d.phase = Phase.PENALTY_ENTRY
    d.race = None
    d.dispute = None
    d.gift_from = None
    d.out = out
    d.entries = tuple(Penalty() if p in out else None for p in range(d.players))
    d.events.append(RoundEnded(d.round, out))


def carry_out(state: GameState, d: Draft, actor: int, card: Card, anchor: int) -> None:
    """Carry out ``card``'s action for ``actor``; afterwards the turn passes left of ``anchor``."""
    kind = card.kind
    n = d.players
    if kind is Kind.ANT:
        for step in range(1, n):
            draw(d, (actor + step) % n)
        pass_turn(d, anchor)
    elif kind is Kind.SPIDER:
        d.phase = Phase.SPIDER_GIFT
        d.gift_from = actor
        d.anchor = anchor
        d.events.append(GiftDue(actor))
    elif kind is Kind.COCKROACH or kind is Kind.MOSQUITO:
        race_kind = RaceKind.COCKROACH if kind is Kind.COCKROACH else RaceKind.SLAP
        everyone = race_kind is RaceKind.COCKROACH and (
            state.rules.cockroach_racers is CockroachRacers.EVERYONE)
        eligible = tuple(p for p in range(n) if everyone or p != actor)
        d.phase = Phase.RACE
        d.race = Race(race_kind, actor, eligible, card.number, anchor)
        d.events.append(RaceArmed(race_kind, actor, eligible, card.number))
    else:
        pass_turn(d, anchor)


def seat_list(seats: tuple[int, ...] | list[int], last: str = "and") -> str:
    items = [str(s) for s in seats]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
