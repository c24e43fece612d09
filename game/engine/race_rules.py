"""Race decisions: the judge's ranking and the outcome it implies (slap or cockroach)."""

from __future__ import annotations

from ..cards import Card
from ..errors import CardDoesNotFit, IllegalCommand
from ..race import RaceKind
from ..variants import CockroachCard
from . import steps
from .commands import CancelRace, DecideRace
from .events import CardPlayed, RaceCancelled, RaceDecided
from .state import GameState, Race

def decide_race(state: GameState, d: steps.Draft, c: DecideRace) -> None:
    race = state.race
    assert race is not None  # RACE always has a race
    eligible = race.eligible
    ranking = tuple(c.ranking)
    for name, seats in (("ranking", ranking), ("tied", tuple(c.tied)),
                        ("false_starts", tuple(c.false_starts)), ("voided", tuple(c.voided))):
        for seat in seats:
            steps.check_seat(state, seat, f"{name} seat")
            if seat not in eligible:
                raise IllegalCommand(f"{name} names seat {seat}, who is not in this race: "
                                     f"the racers are seats {steps.seat_list(eligible)}")
        if len(set(seats)) != len(seats):
            raise IllegalCommand(f"{name} {seats!r} names a seat twice: list each seat once")
    if race.kind is RaceKind.SLAP:
        decide_slap(state, d, c, race)
    else:
        decide_cockroach(state, d, c, race)


def decide_slap(state: GameState, d: steps.Draft, c: DecideRace, race: Race) -> None:
    if c.winner is not None or c.card is not None or c.voided:
        card = str(c.card) if isinstance(c.card, Card) else c.card
        raise IllegalCommand(f"a mosquito slap has a loser, not a winner or a card: got winner "
                             f"{c.winner!r} and card {card!r}")
    if c.loser is None:
        raise IllegalCommand(f"a mosquito slap needs a loser: name one of seats {steps.seat_list(race.eligible)}")
    loser = steps.check_seat(state, c.loser, "loser")
    if loser not in race.eligible:
        raise IllegalCommand(f"seat {loser} did not race this mosquito (seat {race.actor} played it): "
                             f"the loser is one of seats {steps.seat_list(race.eligible)}")
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
                             f"the loser must be seat {steps.seat_list(tuple(slowest), 'or')}")
    d.events.append(RaceDecided(race.kind, tuple(c.ranking), None, loser, None,
                                tuple(c.tied), tuple(c.false_starts), ()))
    # The slowest receives one card from each other player, the active player included.
    for step in range(1, d.players):
        steps.give(d, (loser + step) % d.players, loser)
    if not steps.round_over_if_empty(d):
        steps.pass_turn(d, race.anchor)


def decide_cockroach(state: GameState, d: steps.Draft, c: DecideRace, race: Race) -> None:
    if c.loser is not None:
        raise IllegalCommand(f"a cockroach race has a winner, not a loser: got loser {c.loser!r}")
    if c.winner is None:
        if c.card is not None:
            raise IllegalCommand(f"card {c.card} needs a winner who laid it: name the winner or drop the card")
        d.events.append(RaceDecided(race.kind, tuple(c.ranking), None, None, None,
                                    tuple(c.tied), tuple(c.false_starts), tuple(c.voided)))
        steps.pass_turn(d, race.anchor)
        return
    winner = steps.check_seat(state, c.winner, "winner")
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
                             f"the winner must be seat {steps.seat_list(tuple(fastest), 'or')}")
    card = c.card
    if card is None:
        raise IllegalCommand(f"the cockroach winner seat {winner} must name the card laid: "
                             f"any card with the number {race.number}")
    steps.require_card_left(state, card)
    if card.number != race.number:
        raise CardDoesNotFit(f"cannot lay {card} on cockroach {race.number}: "
                             f"the card must carry the number {race.number}")
    steps.require_may_lay_moth(state, winner, card)
    d.events.append(RaceDecided(race.kind, tuple(c.ranking), winner, None, card,
                                tuple(c.tied), tuple(c.false_starts), tuple(c.voided)))
    d.hands[winner] -= 1
    d.discard = state.discard + (card,)
    d.events.append(CardPlayed(winner, card))
    if steps.round_over_if_empty(d):
        return
    if card.kind.is_action and state.rules.cockroach_card is CockroachCard.CHAIN:
        d.race = None
        steps.carry_out(state, d, winner, card, anchor=race.anchor)
    else:
        steps.pass_turn(d, race.anchor)


def cancel_race(state: GameState, d: steps.Draft, c: CancelRace) -> None:
    race = state.race
    assert race is not None
    d.events.append(RaceCancelled(race.kind))
    steps.pass_turn(d, race.anchor)
