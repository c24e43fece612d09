"""The rules of Cheating Moth as one pure function: ``apply(state, command) -> (state, events)``.

Every handler validates before it changes anything, and states are frozen, so an illegal
command raises a :class:`~game.errors.GameError` subclass and the caller's state is untouched.
Handlers write into a :class:`_Draft` (a mutable copy) and the result is frozen once at the end,
which keeps a step cheap enough for thousands of simulated games a second.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ..cards import Card, Kind, fits, neighbours
from ..errors import (
    BadPenalty, CardDoesNotFit, IllegalCommand, NothingToUndo, NotYourTurn, WrongPhase,
)
from ..race import RaceKind
from ..variants import CockroachCard, CockroachRacers, GuardNextRound
from .commands import (
    Accuse, CancelDispute, CancelRace, Command, DecideRace, DeclareOut, DrawCard, EnterPenalty,
    GiveCard, NewGame, PlayCard, StartRound, Undo, Verdict,
)
from .events import (
    AccusationRejected, AccusationUpheld, Accused, CardDrawn, CardGiven, CardPlayed,
    DiscardReshuffled, DisputeCancelled, Event, GameOver, GameStarted, GiftDue, GiftSkipped,
    GuardChanged, NothingToDraw, PenaltyEntered, RaceArmed, RaceCancelled, RaceDecided,
    RoundEnded, RoundScored, RoundStarted, StarterFlipped, TurnStarted, Undone,
)
from .phases import ALLOWED, allowed_names
from .scoring import winners
from .state import (
    HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Dispute, GameState, Penalty, Phase, Race,
)

_FIELDS = tuple(name for name in GameState.__dataclass_fields__ if name not in ("previous", "command"))
_get_fields = operator.attrgetter(*_FIELDS)


class _Draft:
    """A mutable working copy of a :class:`GameState` for one command."""

    def __init__(self, state: GameState) -> None:
        self.__dict__.update(zip(_FIELDS, _get_fields(state)))
        self.hands: list[int] = list(state.hands)
        self.events: list[Event] = []

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
    entries: tuple[Penalty | None, ...]
    scores: tuple[tuple[Penalty, ...], ...]


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
    draft = _Draft(state)
    _HANDLERS[kind](state, draft, command)
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


# --- validation helpers -------------------------------------------------------------------

def _seat(state: GameState, seat: object, what: str) -> int:
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalCommand(f"{what} {seat!r} is not a seat at this table: use 0 to {state.players - 1}")
    return seat


def _require_active(state: GameState, player: object, verb: str) -> int:
    seat = _seat(state, player, "player")
    if seat != state.active:
        raise NotYourTurn(f"seat {seat} cannot {verb}: it is seat {state.active}'s turn")
    return seat


def _require_card_left(state: GameState, card: Card) -> None:
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


def _require_may_lay_moth(state: GameState, player: int, card: Card) -> None:
    if card.kind is Kind.MOTH and player != state.guard:
        raise IllegalCommand(
            f"seat {player} cannot lay {card}: only the guard (seat {state.guard}) may play "
            "Cheating Moths; other players can only make them vanish"
        )


# --- shared steps ---------------------------------------------------------------------------

def _draw(d: _Draft, player: int) -> None:
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


def _give(d: _Draft, giver: int, recipient: int) -> None:
    d.hands[giver] -= 1
    d.hands[recipient] += 1
    d.events.append(CardGiven(giver, recipient))


def _pass_turn(d: _Draft, anchor: int) -> None:
    d.phase = Phase.TURN
    d.race = None
    d.gift_from = None
    d.active = (anchor + 1) % d.players
    d.events.append(TurnStarted(d.active))


def _round_over_if_empty(d: _Draft) -> bool:
    """End the round if an official count hit 0: that hand is truly empty (cheating only lowers)."""
    if 0 not in d.hands:
        return False
    _end_round(d, tuple(p for p, n in enumerate(d.hands) if n == 0))
    return True


def _end_round(d: _Draft, out: tuple[int, ...]) -> None:
    d.phase = Phase.PENALTY_ENTRY
    d.race = None
    d.dispute = None
    d.gift_from = None
    d.out = out
    d.entries = tuple(Penalty() if p in out else None for p in range(d.players))
    d.events.append(RoundEnded(d.round, out))


def _carry_out(state: GameState, d: _Draft, actor: int, card: Card, anchor: int) -> None:
    """Carry out ``card``'s action for ``actor``; afterwards the turn passes left of ``anchor``."""
    kind = card.kind
    n = d.players
    if kind is Kind.ANT:
        for step in range(1, n):
            _draw(d, (actor + step) % n)
        _pass_turn(d, anchor)
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
        _pass_turn(d, anchor)


# --- handlers -------------------------------------------------------------------------------

def _new_game(state: GameState, d: _Draft, c: NewGame) -> None:
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
    d.__dict__.update(zip(_FIELDS, _get_fields(fresh)))
    d.hands = list(fresh.hands)
    d.events.append(GameStarted(c.players, c.oldest, c.rules))


def _start_round(state: GameState, d: _Draft, c: StartRound) -> None:
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
    d.entries = ()
    d.race = None
    d.dispute = None
    d.gift_from = None
    d.events.append(RoundStarted(d.round, state.guard, HAND_SIZE, d.draw_pile))
    d.events.append(StarterFlipped(c.starter))  # an action card's action is NOT carried out
    d.events.append(TurnStarted(d.active))


def _play_card(state: GameState, d: _Draft, c: PlayCard) -> None:
    player = _require_active(state, c.player, "play")
    card = c.card
    _require_card_left(state, card)
    top = state.discard[-1]
    if not fits(card.number, top.number):
        up, down = neighbours(top.number)
        raise CardDoesNotFit(f"cannot play {card} on a {top.number}: play a {up} or a {down}, or draw")
    _require_may_lay_moth(state, player, card)
    d.hands[player] -= 1
    d.discard = state.discard + (card,)
    d.events.append(CardPlayed(player, card))
    # The round ends the moment a hand is empty: a last action card's action does not happen.
    if not _round_over_if_empty(d):
        _carry_out(state, d, player, card, anchor=player)


def _draw_card(state: GameState, d: _Draft, c: DrawCard) -> None:
    player = _require_active(state, c.player, "draw")
    _draw(d, player)
    _pass_turn(d, player)


def _give_card(state: GameState, d: _Draft, c: GiveCard) -> None:
    giver = state.gift_from
    assert giver is not None  # SPIDER_GIFT always has a giver
    player = _seat(state, c.player, "player")
    if player != giver:
        raise NotYourTurn(f"seat {player} cannot give the spider's card: seat {giver} played the spider")
    if c.recipient is None:
        d.events.append(GiftSkipped(player))
    else:
        recipient = _seat(state, c.recipient, "recipient")
        if recipient == player:
            others = _list(tuple(p for p in state.seats if p != player), "or")
            raise IllegalCommand(f"seat {player} cannot give a card to themselves: give it to one of seats {others}")
        _give(d, player, recipient)
        if _round_over_if_empty(d):
            return
    _pass_turn(d, state.anchor)


def _decide_race(state: GameState, d: _Draft, c: DecideRace) -> None:
    race = state.race
    assert race is not None  # RACE always has a race
    eligible = race.eligible
    ranking = tuple(c.ranking)
    for name, seats in (("ranking", ranking), ("tied", tuple(c.tied)),
                        ("false_starts", tuple(c.false_starts)), ("voided", tuple(c.voided))):
        for seat in seats:
            _seat(state, seat, f"{name} seat")
            if seat not in eligible:
                raise IllegalCommand(f"{name} names seat {seat}, who is not in this race: "
                                     f"the racers are seats {_list(eligible)}")
        if len(set(seats)) != len(seats):
            raise IllegalCommand(f"{name} {seats!r} names a seat twice: list each seat once")
    if race.kind is RaceKind.SLAP:
        _decide_slap(state, d, c, race)
    else:
        _decide_cockroach(state, d, c, race)


def _decide_slap(state: GameState, d: _Draft, c: DecideRace, race: Race) -> None:
    if c.winner is not None or c.card is not None or c.voided:
        card = str(c.card) if isinstance(c.card, Card) else c.card
        raise IllegalCommand(f"a mosquito slap has a loser, not a winner or a card: got winner "
                             f"{c.winner!r} and card {card!r}")
    if c.loser is None:
        raise IllegalCommand(f"a mosquito slap needs a loser: name one of seats {_list(race.eligible)}")
    loser = _seat(state, c.loser, "loser")
    if loser not in race.eligible:
        raise IllegalCommand(f"seat {loser} did not race this mosquito (seat {race.actor} played it): "
                             f"the loser is one of seats {_list(race.eligible)}")
    unranked = [p for p in race.eligible if p not in c.ranking]
    # The slowest place: everyone without a valid press, or else the last press (with the
    # presses tied with it when the judge reported a tie for that place).
    if unranked:
        slowest = unranked
    elif c.tied and c.ranking[-1] in c.tied:
        slowest = [p for p in c.ranking if p in c.tied]
    else:
        slowest = [c.ranking[-1]]
    if loser not in slowest:
        raise IllegalCommand(f"seat {loser} cannot be the slowest of ranking {tuple(c.ranking)!r}: "
                             f"the loser must be seat {_list(tuple(slowest), 'or')}")
    d.events.append(RaceDecided(race.kind, tuple(c.ranking), None, loser, None,
                                tuple(c.tied), tuple(c.false_starts), ()))
    # The slowest receives one card from each other player, the active player included.
    for step in range(1, d.players):
        _give(d, (loser + step) % d.players, loser)
    if not _round_over_if_empty(d):
        _pass_turn(d, race.anchor)


def _decide_cockroach(state: GameState, d: _Draft, c: DecideRace, race: Race) -> None:
    if c.loser is not None:
        raise IllegalCommand(f"a cockroach race has a winner, not a loser: got loser {c.loser!r}")
    if c.winner is None:
        if c.card is not None:
            raise IllegalCommand(f"card {c.card} needs a winner who laid it: name the winner or drop the card")
        d.events.append(RaceDecided(race.kind, tuple(c.ranking), None, None, None,
                                    tuple(c.tied), tuple(c.false_starts), tuple(c.voided)))
        _pass_turn(d, race.anchor)
        return
    winner = _seat(state, c.winner, "winner")
    if winner not in c.ranking:
        raise IllegalCommand(f"winner seat {winner} has no valid press in ranking {tuple(c.ranking)!r}: "
                             "the winner must be one of the ranked seats")
    if winner in c.false_starts:
        raise IllegalCommand(f"winner seat {winner} made a false start and is out of this race: "
                             "pick the next valid press")
    if winner in c.voided:
        raise IllegalCommand(f"winner seat {winner} was voided (no matching card): "
                             "the next valid press in line wins")
    # Only the fastest leaves the card: the first ranked seat the table did not void (or a
    # seat tied with it, when the judge drew the winner by lot).
    contenders = [p for p in c.ranking if p not in c.voided and p not in c.false_starts]
    fastest = [p for p in contenders if p in c.tied] if contenders and contenders[0] in c.tied else contenders[:1]
    if winner not in fastest:
        raise IllegalCommand(f"seat {winner} was not the fastest of ranking {tuple(c.ranking)!r}: "
                             f"the winner must be seat {_list(tuple(fastest), 'or')}")
    card = c.card
    if card is None:
        raise IllegalCommand(f"the cockroach winner seat {winner} must name the card laid: "
                             f"any card with the number {race.number}")
    _require_card_left(state, card)
    if card.number != race.number:
        raise CardDoesNotFit(f"cannot lay {card} on cockroach {race.number}: "
                             f"the card must carry the number {race.number}")
    _require_may_lay_moth(state, winner, card)
    d.events.append(RaceDecided(race.kind, tuple(c.ranking), winner, None, card,
                                tuple(c.tied), tuple(c.false_starts), tuple(c.voided)))
    d.hands[winner] -= 1
    d.discard = state.discard + (card,)
    d.events.append(CardPlayed(winner, card))
    if _round_over_if_empty(d):
        return
    if card.kind.is_action and state.rules.cockroach_card is CockroachCard.CHAIN:
        d.race = None
        _carry_out(state, d, winner, card, anchor=race.anchor)
    else:
        _pass_turn(d, race.anchor)


def _cancel_race(state: GameState, d: _Draft, c: CancelRace) -> None:
    race = state.race
    assert race is not None
    d.events.append(RaceCancelled(race.kind))
    _pass_turn(d, race.anchor)


def _accuse(state: GameState, d: _Draft, c: Accuse) -> None:
    guard = _seat(state, c.guard, "guard")
    if guard != state.guard:
        raise NotYourTurn(f"seat {guard} cannot call Caught!: only the guard (seat {state.guard}) may accuse")
    accused = _seat(state, c.accused, "accused")
    if accused == guard:
        raise IllegalCommand(f"the guard (seat {guard}) cannot accuse themselves: "
                             f"accuse one of seats {_list(tuple(p for p in state.seats if p != guard))}")
    d.phase = Phase.DISPUTE
    d.dispute = Dispute(guard, accused, resume=state.phase)
    d.events.append(Accused(guard, accused))


def _verdict(state: GameState, d: _Draft, c: Verdict) -> None:
    dispute = state.dispute
    assert dispute is not None
    if type(c.guilty) is not bool:
        raise IllegalCommand(f"verdict {c.guilty!r} is not valid: say guilty (true) or not guilty (false)")
    d.dispute = None
    d.phase = dispute.resume
    guard, accused = dispute.guard, dispute.accused
    if c.guilty:
        # The cheater takes the card back (invisible to the official count), receives one
        # card from the guard and becomes the guard.
        d.events.append(AccusationUpheld(guard, accused))
        _give(d, guard, accused)
        d.guard = accused
        d.guard_changed = True
        d.events.append(GuardChanged(guard, accused))
        _round_over_if_empty(d)
    else:
        d.events.append(AccusationRejected(guard, accused))
        _draw(d, guard)


def _cancel_dispute(state: GameState, d: _Draft, c: CancelDispute) -> None:
    dispute = state.dispute
    assert dispute is not None
    d.dispute = None
    d.phase = dispute.resume
    d.events.append(DisputeCancelled(dispute.guard, dispute.accused))


def _declare_out(state: GameState, d: _Draft, c: DeclareOut) -> None:
    player = _seat(state, c.player, "player")
    if player == state.guard and not state.guard_changed:
        # This guard has held the Guard Bug all round and cannot have cheated, so the
        # official count is the real one.
        raise IllegalCommand(f"seat {player} is the guard and still holds {state.hands[player]} "
                             "cards: the guard cannot cheat, so must play them all to go out")
    _end_round(d, (player,))


def _enter_penalty(state: GameState, d: _Draft, c: EnterPenalty) -> None:
    player = _seat(state, c.player, "player")
    if player in state.out:
        raise BadPenalty(f"seat {player} went out this round and scores 0: enter penalties for seats "
                         f"{_list(tuple(p for p in state.seats if p not in state.out))}")
    counts = {"moths": c.moths, "actions": c.actions, "numbers": c.numbers}
    for name, value in counts.items():
        if type(value) is not int or value < 0:
            raise BadPenalty(f"{name} {value!r} for seat {player} is not valid: enter a whole number 0 or more")
    penalty = Penalty(c.moths, c.actions, c.numbers)
    official = state.hands[player]
    if penalty.cards > official:
        raise BadPenalty(f"seat {player} cannot hold {penalty.cards} cards: officially they hold "
                         f"{official} (cheating only makes a hand smaller)")
    if player == state.guard and not state.guard_changed and penalty.cards != official:
        raise BadPenalty(f"seat {player} was the guard all round and cannot have cheated: enter "
                         f"exactly {official} cards, not {penalty.cards}")
    _require_within_deck(state, player, penalty)
    entries = list(state.entries)
    entries[player] = penalty
    d.entries = tuple(entries)
    d.events.append(PenaltyEntered(player, c.moths, c.actions, c.numbers, penalty.points))
    if all(e is not None for e in d.entries):
        _score_round(state, d)


def _require_within_deck(state: GameState, player: int, penalty: Penalty) -> None:
    """All hands together cannot hold more of a class than the deck minus the discard pile."""
    deck = state.rules.deck
    pile = state.discard
    for name, in_deck, on_pile in (
        ("moths", deck.moths, sum(1 for card in pile if card.kind is Kind.MOTH)),
        ("actions", deck.actions, sum(1 for card in pile if card.kind.is_action)),
        ("numbers", deck.numbers, sum(1 for card in pile if card.kind is Kind.NUMBER)),
    ):
        others = sum(getattr(e, name) for p, e in enumerate(state.entries) if e is not None and p != player)
        mine = getattr(penalty, name)
        left = in_deck - on_pile - others
        if mine > left:
            raise BadPenalty(f"{name} {mine} for seat {player} is too many: the deck has {in_deck}, "
                             f"{on_pile} {'is' if on_pile == 1 else 'are'} on the discard pile and "
                             f"{others} {'is' if others == 1 else 'are'} entered for other "
                             f"players, so at most {max(left, 0)} remain")


def _score_round(state: GameState, d: _Draft) -> None:
    row = tuple(e if e is not None else Penalty() for e in d.entries)
    d.scores = state.scores + (row,)
    finished = GameState(players=state.players, rules=state.rules, scores=d.scores)
    totals = finished.totals
    d.events.append(RoundScored(d.round, tuple(e.points for e in row), totals))
    if d.round >= d.players:
        d.phase = Phase.GAME_OVER
        d.events.append(GameOver(totals, winners(finished)))
        return
    d.phase = Phase.ROUND_SETUP
    if state.rules.guard_next_round is GuardNextRound.ROTATE_LEFT:
        new_guard = (d.guard + 1) % d.players
        d.events.append(GuardChanged(d.guard, new_guard))
        d.guard = new_guard
    d.active = d.guard


def _undo(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    if state.previous is None or state.command is None:
        raise NothingToUndo("there is nothing to undo: no command has been applied yet")
    return state.previous, (Undone(state.command),)


def _list(seats: tuple[int, ...] | list[int], last: str = "and") -> str:
    items = [str(s) for s in seats]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


_HANDLERS: dict[type[Any], Callable[[GameState, _Draft, Any], None]] = {
    NewGame: _new_game,
    StartRound: _start_round,
    PlayCard: _play_card,
    DrawCard: _draw_card,
    GiveCard: _give_card,
    DecideRace: _decide_race,
    CancelRace: _cancel_race,
    Accuse: _accuse,
    Verdict: _verdict,
    CancelDispute: _cancel_dispute,
    DeclareOut: _declare_out,
    EnterPenalty: _enter_penalty,
}
