"""Cockroach and mosquito races (RULES.md "Action cards"; variants "who races a cockroach" and
"a cockroach winner's card is an action card")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rules_helpers import card, cycle_plays, events, given, house_deck, play, run, started

from game.engine import (
    Accuse, CancelDispute, CancelRace, DecideRace, DeclareOut, DrawCard, EnterPenalty, GameState,
    GiveCard, NewGame, Phase, PlayCard, Race, StartRound, Undo, Verdict,
)
from game.engine.events import (
    CardGiven, CardPlayed, RaceArmed, RaceCancelled, RaceDecided, RoundEnded, TurnStarted,
)
from game.errors import CardDoesNotFit, IllegalCommand, WrongPhase
from game.race import RaceKind
from game.variants import CockroachCard, CockroachRacers, Rules


def mosquito(players: int = 4) -> GameState:
    """Seat 0 (the guard) has laid a mosquito 4 on the starter 3."""
    return play(started(players), "mosquito 4")


def cockroach(racers: CockroachRacers = CockroachRacers.EVERYONE,
              chain: CockroachCard = CockroachCard.NUMBER_ONLY, **rules: Any) -> GameState:
    """Seat 0 (the guard) has laid a cockroach 4 on the starter 3."""
    return play(started(rules=Rules(cockroach_racers=racers, cockroach_card=chain, **rules)), "cockroach 4")


def givers(evs: tuple[Any, ...]) -> list[int]:
    return sorted(e.giver for e in evs if isinstance(e, CardGiven))


# --- mosquito ---------------------------------------------------------------------------------


def test_a_mosquito_starts_a_slap_among_everyone_but_its_player() -> None:
    state = started()
    after, evs = play(state, "mosquito 4"), events(state, PlayCard(0, card("mosquito 4")))
    assert after.phase is Phase.RACE
    assert after.race == Race(RaceKind.SLAP, actor=0, eligible=(1, 2, 3), number=4, anchor=0)
    assert evs == (CardPlayed(0, card("mosquito 4")), RaceArmed(RaceKind.SLAP, 0, (1, 2, 3), 4))


@pytest.mark.parametrize("racers", list(CockroachRacers))
def test_the_cockroach_racers_variant_does_not_change_who_slaps(racers: CockroachRacers) -> None:
    state = play(started(rules=Rules(cockroach_racers=racers)), "mosquito 4")
    assert state.race is not None and state.race.eligible == (1, 2, 3)


def test_the_slowest_slapper_receives_one_card_from_each_other_player() -> None:
    state = mosquito()
    decision = DecideRace(ranking=(1, 2, 3), loser=3)
    after, evs = run(state, decision), events(state, decision)
    assert after.hands == (6, 7, 7, 11)  # seat 0 played the mosquito, then gave like the others
    assert givers(evs) == [0, 1, 2]
    assert evs[0] == RaceDecided(RaceKind.SLAP, (1, 2, 3), None, 3, None, (), ())
    assert evs[-1] == TurnStarted(1)


def test_after_a_mosquito_the_turn_passes_left_of_its_player_not_of_the_loser() -> None:
    state = play(cycle_plays(started(5), 2), "mosquito 4")  # seat 2 lays it on a 5
    after = run(state, DecideRace(ranking=(3, 4, 1, 0), loser=0))
    assert after.active == 3
    assert after.hands == (7 + 4, 6, 6, 7, 7)  # seats 0, 1, 2 played one each


def test_a_seat_that_never_slapped_is_the_slowest() -> None:
    assert run(mosquito(), DecideRace(ranking=(1,), loser=2)).hands[2] == 11
    assert run(mosquito(), DecideRace(ranking=(1,), loser=3)).hands[3] == 11


def test_when_nobody_slaps_any_racer_may_be_the_loser() -> None:
    assert run(mosquito(), DecideRace(ranking=(), loser=1)).hands[1] == 11


def test_a_loser_tied_for_slowest_is_accepted() -> None:
    assert run(mosquito(), DecideRace(ranking=(1, 3, 2), loser=3, tied=(3, 2))).hands[3] == 11


def test_a_slap_gift_that_empties_a_hand_ends_the_round() -> None:
    state = play(given(started(), hands=(1, 8, 8, 8), active=1), "mosquito 4")
    after, evs = run(state, DecideRace(ranking=(3, 0, 2), loser=2)), events(state, DecideRace((3, 0, 2), loser=2))
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.out == (0,)
    assert evs[-1] == RoundEnded(1, (0,))


# --- slap loser validation --------------------------------------------------------------------


def test_a_slap_decision_naming_a_winner_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^a mosquito slap has a loser, not a winner or a card: "
                                             r"got winner 1 and card None$"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), winner=1, loser=3))


def test_a_slap_decision_naming_a_card_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^a mosquito slap has a loser, not a winner or a card: "
                                             r"got winner None and card "):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=3, card=card("number 4")))


def test_a_slap_decision_naming_a_card_names_it_as_the_table_does() -> None:
    with pytest.raises(IllegalCommand, match=r"and card '?number 4'?$"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=3, card=card("number 4")))


def test_a_slap_decision_without_a_loser_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^a mosquito slap needs a loser: name one of seats 1, 2 and 3$"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3)))


def test_the_mosquito_player_cannot_be_the_loser() -> None:
    with pytest.raises(IllegalCommand, match=r"^seat 0 did not race this mosquito \(seat 0 played it\): "
                                             r"the loser is one of seats 1, 2 and 3$"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=0))


def test_a_loser_faster_than_another_racer_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^seat 2 cannot be the slowest of ranking \(1, 2, 3\): "
                                             r"the loser must be seat 3$"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=2))


def test_a_ranked_loser_is_refused_while_a_racer_never_slapped() -> None:
    with pytest.raises(IllegalCommand, match=r"^seat 1 cannot be the slowest of ranking \(1,\): "
                                             r"the loser must be seat 2 or 3$"):
        run(mosquito(), DecideRace(ranking=(1,), loser=1))


def test_a_tied_loser_must_be_tied_for_slowest_place() -> None:
    with pytest.raises(IllegalCommand, match=r"seat 1"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=1, tied=(1, 2)))


def test_a_loser_who_is_not_a_seat_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^loser 7 is not a seat at this table: use 0 to 3$"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=7))


@pytest.mark.parametrize(("field", "seats", "bad"), [
    ("ranking", (0, 1, 2, 3), 0), ("tied", (0, 3), 0), ("false_starts", (0,), 0),
])
def test_a_decision_naming_a_seat_outside_the_race_is_refused(field: str, seats: tuple[int, ...], bad: int) -> None:
    changes: dict[str, Any] = {"ranking": (1, 2, 3), "loser": 3, field: seats}
    with pytest.raises(IllegalCommand, match=rf"^{field} names seat {bad}, who is not in this race: "
                                             r"the racers are seats 1, 2 and 3$"):
        run(mosquito(), DecideRace(**changes))


@pytest.mark.parametrize("field", ["ranking", "tied", "false_starts"])
def test_a_decision_naming_a_seat_not_at_the_table_is_refused(field: str) -> None:
    changes: dict[str, Any] = {"ranking": (1, 2, 3), "loser": 3, field: (1, 9)}
    with pytest.raises(IllegalCommand, match=rf"^{field} seat 9 is not a seat at this table: use 0 to 3$"):
        run(mosquito(), DecideRace(**changes))


@pytest.mark.parametrize("field", ["ranking", "tied", "false_starts"])
def test_a_decision_naming_a_seat_twice_is_refused(field: str) -> None:
    changes: dict[str, Any] = {"ranking": (1, 2, 3), "loser": 3, field: (3, 3)}
    if field == "ranking":
        changes["ranking"] = (1, 2, 3, 3)
    seats = re.escape(repr(changes[field]))
    with pytest.raises(IllegalCommand, match=rf"^{field} {seats} names a seat twice: list each seat once$"):
        run(mosquito(), DecideRace(**changes))


# --- cockroach: who races ---------------------------------------------------------------------


def test_by_default_everyone_races_a_cockroach_its_player_too() -> None:
    state = started()
    evs = events(state, PlayCard(0, card("cockroach 4")))
    assert play(state, "cockroach 4").race == Race(RaceKind.COCKROACH, 0, (0, 1, 2, 3), 4, anchor=0)
    assert evs[-1] == RaceArmed(RaceKind.COCKROACH, 0, (0, 1, 2, 3), 4)


def test_under_others_the_cockroach_player_does_not_race() -> None:
    state = cockroach(CockroachRacers.OTHERS)
    assert state.race == Race(RaceKind.COCKROACH, 0, (1, 2, 3), 4, anchor=0)


def test_under_everyone_the_cockroach_player_may_win() -> None:
    after = run(cockroach(CockroachRacers.EVERYONE), DecideRace((0, 2), winner=0, card=card("number 4")))
    assert after.hands == (6, 8, 8, 8)
    assert after.active == 1


def test_under_others_the_cockroach_player_cannot_win() -> None:
    with pytest.raises(IllegalCommand, match=r"^ranking names seat 0, who is not in this race: "
                                             r"the racers are seats 1, 2 and 3$"):
        run(cockroach(CockroachRacers.OTHERS), DecideRace((0,), winner=0, card=card("number 4")))


# --- cockroach: the winner lays a card --------------------------------------------------------


def test_the_fastest_leaves_a_card_with_the_same_number_on_the_cockroach() -> None:
    state = cockroach()
    decision = DecideRace(ranking=(2, 1), winner=2, card=card("number 4"))
    after, evs = run(state, decision), events(state, decision)
    assert after.hands == (7, 8, 7, 8)  # the others take theirs back
    assert after.discard[-2:] == (card("cockroach 4"), card("number 4"))
    assert evs == (RaceDecided(RaceKind.COCKROACH, (2, 1), 2, None, card("number 4"), (), ()),
                   CardPlayed(2, card("number 4")), TurnStarted(1))


def test_after_a_cockroach_the_turn_passes_left_of_its_player() -> None:
    state = play(cycle_plays(started(), 2), "cockroach 4")  # seat 2 lays it on a 5
    assert run(state, DecideRace((0,), winner=0, card=card("ant 4"))).active == 3
    assert run(state, DecideRace((3,), winner=3, card=card("ant 4"))).active == 3


def test_if_nobody_has_the_number_play_continues_left_of_the_cockroach_player() -> None:
    state = cockroach()
    after, evs = run(state, DecideRace(ranking=())), events(state, DecideRace(ranking=()))
    assert after.hands == (7, 8, 8, 8)
    assert after.discard_top == card("cockroach 4")
    assert after.active == 1
    assert evs == (RaceDecided(RaceKind.COCKROACH, (), None, None, None, (), ()), TurnStarted(1))


def test_a_cockroach_winner_among_the_tied_is_accepted() -> None:
    after = run(cockroach(), DecideRace((1, 2), winner=2, card=card("number 4"), tied=(1, 2)))
    assert after.hands == (7, 8, 7, 8)


def test_the_cockroach_winner_must_be_the_fastest() -> None:
    with pytest.raises(IllegalCommand, match=r"(?s)(?=.*\bseat 2\b)(?=.*\b1\b)"):
        run(cockroach(), DecideRace(ranking=(1, 2), winner=2, card=card("number 4")))


def test_the_card_laid_on_a_cockroach_must_carry_its_number() -> None:
    with pytest.raises(CardDoesNotFit, match=r"^cannot lay number 5 on cockroach 4: "
                                             r"the card must carry the number 4$"):
        run(cockroach(), DecideRace((1,), winner=1, card=card("number 5")))


def test_a_cockroach_decision_naming_a_loser_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^a cockroach race has a winner, not a loser: got loser 1$"):
        run(cockroach(), DecideRace((2, 1), winner=2, loser=1, card=card("number 4")))


def test_a_card_without_a_winner_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^card number 4 needs a winner who laid it: "
                                             r"name the winner or drop the card$"):
        run(cockroach(), DecideRace((), card=card("number 4")))


def test_a_winner_without_a_valid_press_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^winner seat 2 has no valid press in ranking \(1,\): "
                                             r"the winner must be one of the ranked seats$"):
        run(cockroach(), DecideRace((1,), winner=2, card=card("number 4")))


def test_a_winner_who_made_a_false_start_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^winner seat 2 made a false start and is out of this race: "
                                             r"pick the next valid press$"):
        run(cockroach(), DecideRace((2, 1), winner=2, card=card("number 4"), false_starts=(2,)))


def test_a_winner_who_is_not_a_seat_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^winner 9 is not a seat at this table: use 0 to 3$"):
        run(cockroach(), DecideRace((1,), winner=9, card=card("number 4")))


def test_a_winner_must_name_the_card_laid() -> None:
    with pytest.raises(IllegalCommand, match=r"^the cockroach winner seat 2 must name the card laid: "
                                             r"any card with the number 4$"):
        run(cockroach(), DecideRace((2,), winner=2))


def test_a_card_with_no_copy_left_cannot_be_laid_on_a_cockroach() -> None:
    with pytest.raises(IllegalCommand, match=r"^there is no cockroach 4 left to play: "
                                             r"the deck has 1 and 1 is on the discard pile$"):
        run(cockroach(), DecideRace((1,), winner=1, card=card("cockroach 4")))


def test_only_the_guard_may_lay_a_moth_on_a_cockroach() -> None:
    with pytest.raises(IllegalCommand, match=r"^seat 2 cannot lay moth 4: only the guard \(seat 0\) may play "
                                             r"Cheating Moths"):
        run(cockroach(), DecideRace((2,), winner=2, card=card("moth 4")))
    assert run(cockroach(), DecideRace((0,), winner=0, card=card("moth 4"))).discard_top == card("moth 4")


def test_a_cockroach_winners_last_card_ends_the_round() -> None:
    state = play(given(started(), hands=(8, 8, 1, 8)), "cockroach 4")
    after = run(state, DecideRace((2,), winner=2, card=card("ant 4")))
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.out == (2,)
    assert after.hands == (7, 8, 0, 8)  # the ant's action does not happen


# --- cockroach: the winner's card is an action card -------------------------------------------


@pytest.mark.parametrize("text", ["ant 4", "spider 4", "mosquito 4"])
def test_under_number_only_the_winners_action_card_does_nothing(text: str) -> None:
    after = run(cockroach(chain=CockroachCard.NUMBER_ONLY), DecideRace((2,), winner=2, card=card(text)))
    assert after.phase is Phase.TURN
    assert after.race is None and after.gift_from is None
    assert after.hands == (7, 8, 7, 8)
    assert after.draw_pile == 38
    assert after.active == 1


def test_under_number_only_a_cockroach_on_a_cockroach_starts_no_race() -> None:
    after = run(cockroach(chain=CockroachCard.NUMBER_ONLY, deck=house_deck(cockroach=[1, 1, 1, 2, 0])),
                DecideRace((2,), winner=2, card=card("cockroach 4")))
    assert after.phase is Phase.TURN
    assert after.active == 1


def test_under_chain_the_winners_ant_makes_everyone_else_draw() -> None:
    after = run(cockroach(chain=CockroachCard.CHAIN), DecideRace((2,), winner=2, card=card("ant 4")))
    assert after.hands == (8, 9, 7, 9)
    assert after.draw_pile == 35
    assert after.active == 1  # left of the cockroach player


def test_under_chain_the_winners_spider_lets_the_winner_give_a_card() -> None:
    state = run(cockroach(chain=CockroachCard.CHAIN), DecideRace((2,), winner=2, card=card("spider 4")))
    assert state.phase is Phase.SPIDER_GIFT
    assert state.gift_from == 2
    after = run(state, GiveCard(2, 3))
    assert after.hands == (7, 8, 6, 9)
    assert after.active == 1  # left of the cockroach player, not of the winner


def test_under_chain_the_winners_mosquito_starts_a_slap_against_the_winner() -> None:
    state = run(cockroach(chain=CockroachCard.CHAIN), DecideRace((2,), winner=2, card=card("mosquito 4")))
    assert state.phase is Phase.RACE
    assert state.race == Race(RaceKind.SLAP, actor=2, eligible=(0, 1, 3), number=4, anchor=0)
    after = run(state, DecideRace((0, 3, 1), loser=1))
    assert after.hands == (6, 11, 6, 7)
    assert after.active == 1


@pytest.mark.parametrize(("racers", "eligible"), [
    (CockroachRacers.EVERYONE, (0, 1, 2, 3)), (CockroachRacers.OTHERS, (0, 1, 3)),
])
def test_under_chain_a_cockroach_on_a_cockroach_starts_another_race(
        racers: CockroachRacers, eligible: tuple[int, ...]) -> None:
    # Ambiguous in RULES.md: the engine keeps the first cockroach player as the turn's anchor.
    state = cockroach(racers, CockroachCard.CHAIN, deck=house_deck(cockroach=[1, 1, 1, 2, 0]))
    winner = 2
    state = run(state, DecideRace((winner,), winner=winner, card=card("cockroach 4")))
    assert state.race == Race(RaceKind.COCKROACH, actor=2, eligible=eligible, number=4, anchor=0)
    assert run(state, DecideRace(())).active == 1


def test_under_chain_the_winners_last_card_ends_the_round_without_its_action() -> None:
    state = play(given(started(rules=Rules(cockroach_card=CockroachCard.CHAIN)), hands=(8, 8, 1, 8)),
                 "cockroach 4")
    after = run(state, DecideRace((2,), winner=2, card=card("ant 4")))
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.hands == (7, 8, 0, 8)
    assert after.draw_pile == state.draw_pile


# --- the race phase ---------------------------------------------------------------------------

_NOT_IN_A_RACE = [
    PlayCard(1, card("number 5")), DrawCard(1), Accuse(0, 1), DeclareOut(1), GiveCard(0, 1),
    Verdict(True), CancelDispute(), EnterPenalty(1, 0, 0, 1), StartRound(card("number 3")), NewGame(4, 0),
]


@pytest.mark.parametrize("command", _NOT_IN_A_RACE, ids=lambda c: type(c).__name__)
@pytest.mark.parametrize("state", [mosquito(), cockroach()], ids=["slap", "cockroach"])
def test_a_race_only_allows_its_decision_a_cancel_or_undo(state: GameState, command: Any) -> None:
    with pytest.raises(WrongPhase, match=rf"^{type(command).__name__} is not allowed in phase 'race': "
                                         r"allowed now are DecideRace, CancelRace, Undo$"):
        run(state, command)


def test_a_cancelled_slap_moves_no_card_and_passes_the_turn_left_of_its_player() -> None:
    state = mosquito()
    after, evs = run(state, CancelRace()), events(state, CancelRace())
    assert after.hands == (7, 8, 8, 8)
    assert after.phase is Phase.TURN and after.race is None
    assert after.active == 1
    assert evs == (RaceCancelled(RaceKind.SLAP), TurnStarted(1))


def test_a_cancelled_cockroach_race_lays_no_card() -> None:
    state = play(cycle_plays(started(), 1), "cockroach 5")  # seat 1 lays it on a 4
    after, evs = run(state, CancelRace()), events(state, CancelRace())
    assert after.discard_top == card("cockroach 5")
    assert after.active == 2
    assert evs == (RaceCancelled(RaceKind.COCKROACH), TurnStarted(2))


def test_undo_in_a_race_takes_back_the_card_that_started_it() -> None:
    before = started()
    assert run(play(before, "mosquito 4"), Undo()) == before


# --- voided cockroach winners (the table says the fastest had no matching card) -------------

def test_after_a_void_the_next_in_line_wins() -> None:
    state = run(cockroach(), DecideRace(ranking=(1, 2, 3), winner=2, card=card("number 4"), voided=(1,)))
    assert state.discard[-1] == card("number 4") and state.hands[2] == 7


def test_a_voided_seat_cannot_win() -> None:
    with pytest.raises(IllegalCommand, match=r"^winner seat 1 was voided \(no matching card\): "
                                             r"the next valid press in line wins$"):
        run(cockroach(), DecideRace(ranking=(1, 2), winner=1, card=card("number 4"), voided=(1,)))


def test_after_a_void_a_later_seat_cannot_jump_the_line() -> None:
    with pytest.raises(IllegalCommand, match=r"^seat 3 was not the fastest of ranking \(1, 2, 3\): "
                                             r"the winner must be seat 2$"):
        run(cockroach(), DecideRace(ranking=(1, 2, 3), winner=3, card=card("number 4"), voided=(1,)))


def test_a_winner_drawn_by_lot_from_a_tie_is_accepted() -> None:
    state = run(cockroach(), DecideRace(ranking=(1, 2, 3), winner=2, card=card("number 4"), tied=(1, 2)))
    assert state.hands[2] == 7


def test_a_slap_decision_cannot_void() -> None:
    with pytest.raises(IllegalCommand, match=r"^a mosquito slap has a loser, not a winner or a card"):
        run(mosquito(), DecideRace(ranking=(1, 2, 3), loser=3, voided=(1,)))
