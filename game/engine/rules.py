"""The rules of Cheating Moth as one pure function: ``apply(state, command) -> (state, events)``.

Every handler validates before it changes anything, and states are frozen, so an illegal
command raises a :class:`~game.errors.GameError` subclass and the caller's state is untouched.
Handlers write into a :class:`~game.engine.steps.Draft` (a mutable copy) and the result is
frozen once at the end, which keeps a step cheap enough for many simulated games a second.
The handlers live here (turns), in race_rules.py, dispute_rules.py and round_end.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import Card, fits, neighbours
from ..errors import CardDoesNotFit, IllegalCommand, NothingToUndo, NotYourTurn, WrongPhase
from . import dispute_rules, race_rules, round_end, steps
from .commands import (
    Accuse, CancelDispute, CancelRace, Command, CorrectHand, DecideRace, DeclareOut, DrawCard,
    EnterPenalty, GiveCard, NewGame, PlayCard, StartRound, Undo, Verdict,
)
from .events import CardPlayed, Event, GameStarted, GiftSkipped, RoundStarted, StarterFlipped, TurnStarted, Undone
from .phases import ALLOWED, allowed_names
from .state import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, GameState, Phase


def apply(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``command`` to ``state``; return the new state and what happened.

    Raises a :class:`~game.errors.GameError` subclass if the rules forbid the command; the
    given state is never modified.
    """
    kind = type(command)
    if kind is Undo:
        return _undo(state)
    if kind not in ALLOWED[state.phase]:
        raise WrongPhase(
            f"{_describe(command)} is not allowed in phase {state.phase.value!r}: "
            f"allowed now are {allowed_names(state.phase)}"
        )
    draft = steps.Draft(state)
    _HANDLERS[kind](state, draft, command)
    steps.note_shed(draft)
    return draft.freeze(previous=state, command=command), tuple(draft.events)


def check(state: GameState, command: Command) -> None:
    """Raise the error ``apply`` would raise, or return None if the command is legal."""
    apply(state, command)


def can_apply(state: GameState, command: Command) -> bool:
    """True if the rules allow ``command`` now."""
    try:
        apply(state, command)
    except IllegalCommand:
        return False
    return True


def _describe(command: Command) -> str:
    return type(command).__name__


# --- handlers -------------------------------------------------------------------------------

def _new_game(state: GameState, d: steps.Draft, c: NewGame) -> None:
    if type(c.players) is not int or not MIN_PLAYERS <= c.players <= MAX_PLAYERS:
        raise IllegalCommand(f"{c.players!r} players cannot play: Cheating Moth is for "
                             f"{MIN_PLAYERS} to {MAX_PLAYERS} players")
    if type(c.oldest) is not int or not 0 <= c.oldest < c.players:
        raise IllegalCommand(f"oldest player {c.oldest!r} is not a seat at this table: "
                             f"use 0 to {c.players - 1}")
    needed = HAND_SIZE * c.players + 1
    if c.rules.deck.size < needed:
        raise IllegalCommand(f"a deck of {c.rules.deck.size} cards cannot serve {c.players} players: "
                             f"it needs at least {needed} (8 each and a starter)")
    fresh = GameState(phase=Phase.ROUND_SETUP, players=c.players, oldest=c.oldest, rules=c.rules,
                      guard=c.oldest, active=c.oldest, hands=(0,) * c.players)
    d.reset(fresh)
    d.events.append(GameStarted(c.players, c.oldest, c.rules))


def _start_round(state: GameState, d: steps.Draft, c: StartRound) -> None:
    if not isinstance(c.starter, Card):
        raise IllegalCommand(f"starter {c.starter!r} is not a card: name a kind and a number, e.g. 'ant 3'")
    if state.rules.deck.count(c.starter.kind, c.starter.number) == 0:
        raise IllegalCommand(f"the deck has no {c.starter}: check the flipped card and enter it again")
    n = state.players
    d.phase = Phase.TURN
    d.round = state.round + 1
    d.hands = [HAND_SIZE] * n
    d.draw_pile = state.rules.deck.size - HAND_SIZE * n - 1
    d.discard = (c.starter,)
    d.active = state.guard
    d.guard_changed = False
    d.out = ()
    d.shed = (False,) * n
    d.entries = ()
    d.race = None
    d.dispute = None
    d.gift_from = None
    d.events.append(RoundStarted(d.round, state.guard, HAND_SIZE, d.draw_pile))
    d.events.append(StarterFlipped(c.starter))  # an action card's action is NOT carried out
    d.events.append(TurnStarted(d.active))


def _play_card(state: GameState, d: steps.Draft, c: PlayCard) -> None:
    player = steps.require_active(state, c.player, "play")
    card = c.card
    steps.require_card_left(state, card)
    top = state.discard[-1]
    if not fits(card.number, top.number):
        up, down = neighbours(top.number)
        raise CardDoesNotFit(f"cannot play {card} on a {top.number}: play a {up} or a {down}, or draw")
    steps.require_may_lay_moth(state, player, card)
    last = c.last_card
    if type(last) is not bool:
        raise IllegalCommand(f"last_card {last!r} is not valid: say true (it was the player's last "
                             "card) or false")
    left = state.hands[player] - 1
    if last and left and player == state.guard and not state.guard_changed:
        # This guard has held the Guard Bug all round and cannot have cheated, so the official
        # count is the real one.
        raise IllegalCommand(f"{card} cannot be the last card of seat {player}: they are the guard, "
                             f"cannot cheat and would still hold {left} cards, so play it as a "
                             "normal card")
    d.hands[player] -= 1
    d.discard = state.discard + (card,)
    d.events.append(CardPlayed(player, card))
    # The round ends the moment a hand is empty: a last action card's action does not happen.
    # A count of 0 shows it; after cheating only the table can say so (``last_card``).
    if last and left:
        steps.end_round(d, (player,))
    elif not steps.round_over_if_empty(d):
        steps.carry_out(state, d, player, card, anchor=player)


def _draw_card(state: GameState, d: steps.Draft, c: DrawCard) -> None:
    player = steps.require_active(state, c.player, "draw")
    steps.draw(d, player)
    steps.pass_turn(d, player)


def _give_card(state: GameState, d: steps.Draft, c: GiveCard) -> None:
    giver = state.gift_from
    assert giver is not None  # SPIDER_GIFT always has a giver
    player = steps.check_seat(state, c.player, "player")
    if player != giver:
        raise NotYourTurn(f"seat {player} cannot give the spider's card: seat {giver} played the spider")
    if c.recipient is None:
        d.events.append(GiftSkipped(player))
    else:
        recipient = steps.check_seat(state, c.recipient, "recipient")
        if recipient == player:
            others = steps.seat_list(tuple(p for p in state.seats if p != player), "or")
            raise IllegalCommand(f"seat {player} cannot give a card to themselves: give it to one of seats {others}")
        steps.give(d, player, recipient)
        if steps.round_over_if_empty(d):
            return
    steps.pass_turn(d, state.anchor)


def _undo(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    if state.previous is None or state.command is None:
        raise NothingToUndo("there is nothing to undo: no command has been applied yet")
    return state.previous, (Undone(state.command),)


_HANDLERS: dict[type[Any], Callable[[GameState, steps.Draft, Any], None]] = {
    NewGame: _new_game,
    StartRound: _start_round,
    PlayCard: _play_card,
    DrawCard: _draw_card,
    GiveCard: _give_card,
    DecideRace: race_rules.decide_race,
    CancelRace: race_rules.cancel_race,
    Accuse: dispute_rules.accuse,
    Verdict: dispute_rules.verdict,
    CancelDispute: dispute_rules.cancel_dispute,
    DeclareOut: round_end.declare_out,
    EnterPenalty: round_end.enter_penalty,
    CorrectHand: round_end.correct_hand,
}
