"""End of a round, penalty entry, scoring and the end of the game (RULES.md "End of a round and
scoring"; variants "guard at the next round" and "tie for the lowest total")."""

from __future__ import annotations

import re

import pytest
from rules_helpers import (
    above, card, cycle_plays, events, finish_round, house_deck, may_go_out, new_game, play, play_round, run,
    started,
)

from game.engine import (
    Accuse, DeclareOut, EnterPenalty, GameState, GiveCard, NewGame, Penalty, Phase, PlayCard,
    StartRound, Standing, Verdict,
)
from game.engine.events import (
    CardPlayed, GameOver, GuardChanged, PenaltyEntered, RoundEnded, RoundScored,
)
from game.errors import BadPenalty, IllegalCommand, WrongPhase
from game.variants import GuardNextRound, Rules, TopTie


def caught(state: GameState, seat: int) -> GameState:
    """The guard catches ``seat`` for real: ``seat`` becomes the guard."""
    return run(state, Accuse(state.guard, seat), Verdict(True))


# --- the round ends ---------------------------------------------------------------------------


def test_a_player_with_no_cards_left_declares_out_and_the_round_ends() -> None:
    state = may_go_out(started(), 1)
    after, evs = run(state, DeclareOut(1)), events(state, DeclareOut(1))
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.out == (1,)
    assert after.entries == (None, Penalty(), None, None)
    assert evs == (RoundEnded(1, (1,)),)


def test_the_guard_who_held_the_guard_bug_all_round_cannot_declare_out() -> None:
    with pytest.raises(IllegalCommand, match=r"^seat 0 is the guard and still holds 8 cards: "
                                             r"the guard cannot cheat, so must play them all to go out$"):
        run(started(), DeclareOut(0))


def test_a_guard_who_received_the_guard_bug_this_round_may_declare_out() -> None:
    state = caught(started(), 2)
    assert run(may_go_out(state, 2), DeclareOut(2)).out == (2,)


def test_the_old_guard_may_declare_out_after_losing_the_guard_bug() -> None:
    state = caught(started(), 2)
    assert run(state, DeclareOut(0)).out == (0,)


def test_a_player_may_declare_out_during_a_spider_gift() -> None:
    state = play(started(), "spider 4")
    assert run(may_go_out(state, 3), DeclareOut(3)).out == (3,)


def test_declaring_out_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^player 9 is not a seat at this table: use 0 to 3$"):
        run(started(), DeclareOut(9))


def test_playing_the_last_card_ends_the_round_at_once() -> None:
    state = cycle_plays(started(), 28)  # one card each, seat 0 to play
    last = card(f"number {above(state.discard[-1].number)}")
    after, evs = run(state, PlayCard(0, last)), events(state, PlayCard(0, last))
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.out == (0,)
    assert evs == (CardPlayed(0, last), RoundEnded(1, (0,)))


@pytest.mark.parametrize("kind", ["ant", "spider", "cockroach", "mosquito"])
def test_a_last_action_card_ends_the_round_before_its_action(kind: str) -> None:
    state = cycle_plays(started(), 28)
    after = play(state, f"{kind} {above(state.discard[-1].number)}")
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.race is None and after.gift_from is None
    assert after.hands == (0, 1, 1, 1)
    assert after.draw_pile == state.draw_pile


# --- penalty entry ----------------------------------------------------------------------------


def out_1() -> GameState:
    """Round 1 over: seat 1 went out; everyone else officially holds 8; seat 0 is the guard."""
    return run(may_go_out(started(), 1), DeclareOut(1))


def test_an_entry_of_more_cards_than_the_official_count_is_refused() -> None:
    with pytest.raises(BadPenalty, match=r"^seat 2 cannot hold 9 cards: officially they hold 8 "
                                         r"\(cheating only makes a hand smaller\)$"):
        run(out_1(), EnterPenalty(2, 1, 0, 8))


def test_an_entry_of_fewer_cards_than_the_official_count_is_accepted() -> None:
    after = run(out_1(), EnterPenalty(2, 0, 1, 2))  # five cards made to vanish
    assert after.entries[2] == Penalty(0, 1, 2)


def test_the_guard_who_held_the_guard_bug_all_round_must_enter_exactly_the_official_count() -> None:
    with pytest.raises(BadPenalty, match=r"^seat 0 was the guard all round and cannot have cheated: "
                                         r"enter exactly 8 cards, not 7$"):
        run(out_1(), EnterPenalty(0, 0, 0, 7))
    assert run(out_1(), EnterPenalty(0, 1, 2, 5)).entries[0] == Penalty(1, 2, 5)


@pytest.mark.parametrize("seat", [0, 2])
def test_after_the_guard_bug_changed_hands_both_guards_may_enter_fewer(seat: int) -> None:
    state = run(may_go_out(caught(started(), 2), 3), DeclareOut(3))  # seat 0 holds 7, seat 2 holds 9
    assert run(state, EnterPenalty(seat, 0, 0, 1)).entries[seat] == Penalty(0, 0, 1)


def test_moths_entered_cannot_exceed_the_moths_in_the_deck() -> None:
    state = run(out_1(), EnterPenalty(2, 5, 0, 0))
    with pytest.raises(BadPenalty, match=r"^moths 4 for seat 3 is too many: the deck has 8, "
                                         r"0 are on the discard pile and 5 are entered for other players, "
                                         r"so at most 3 remain$"):
        run(state, EnterPenalty(3, 4, 0, 0))


def test_actions_on_the_discard_pile_are_not_in_any_hand() -> None:
    state = run(may_go_out(play(started(), "ant 4"), 1), DeclareOut(1))  # seat 0 holds 7, seats 2 and 3 hold 9
    state = run(state, EnterPenalty(0, 0, 7, 0), EnterPenalty(2, 0, 9, 0))
    with pytest.raises(BadPenalty, match=r"^actions 4 for seat 3 is too many: the deck has 20, "
                                         r"1 (is|are) on the discard pile and 16 are entered for other players, "
                                         r"so at most 3 remain$"):
        run(state, EnterPenalty(3, 0, 4, 0))


def test_the_too_many_message_says_1_is_on_the_discard_pile() -> None:
    state = run(may_go_out(play(started(), "ant 4"), 1), DeclareOut(1))
    state = run(state, EnterPenalty(0, 0, 7, 0), EnterPenalty(2, 0, 9, 0))
    with pytest.raises(BadPenalty, match=r"1 is on the discard pile"):
        run(state, EnterPenalty(3, 0, 4, 0))


def test_moths_laid_by_the_guard_are_not_in_any_hand() -> None:
    state = run(may_go_out(play(started(), "moth 4"), 1), DeclareOut(1))
    state = run(state, EnterPenalty(2, 7, 0, 1))
    with pytest.raises(BadPenalty, match=r"^moths 1 for seat 3 is too many: the deck has 8, "
                                         r"1 (is|are) on the discard pile and 7 are entered"):
        run(state, EnterPenalty(3, 1, 0, 0))


def test_number_cards_entered_cannot_exceed_the_deck_minus_the_discard_pile() -> None:
    deck = house_deck(number=[3, 3, 3, 3, 3])  # 15 number cards, the starter is one
    state = run(may_go_out(started(rules=Rules(deck=deck)), 1), DeclareOut(1))
    state = run(state, EnterPenalty(0, 0, 0, 8), EnterPenalty(2, 0, 0, 6))
    with pytest.raises(BadPenalty, match=r"^numbers 1 for seat 3 is too many: the deck has 15, "
                                         r"1 (is|are) on the discard pile and 14 are entered for other players, "
                                         r"so at most 0 remain$"):
        run(state, EnterPenalty(3, 0, 0, 1))


def test_a_player_who_went_out_has_no_entry() -> None:
    with pytest.raises(BadPenalty, match=r"^seat 1 went out this round and scores 0: "
                                         r"enter penalties for seats 0, 2 and 3$"):
        run(out_1(), EnterPenalty(1, 0, 0, 0))


@pytest.mark.parametrize("value", [-1, 1.5, "2", True, None])
@pytest.mark.parametrize("field", ["moths", "actions", "numbers"])
def test_an_entry_that_is_not_a_whole_number_0_or_more_is_refused(field: str, value: object) -> None:
    counts: dict[str, object] = {"moths": 0, "actions": 0, "numbers": 1, field: value}
    with pytest.raises(BadPenalty, match=re.escape(
            f"{field} {value!r} for seat 2 is not valid: enter a whole number 0 or more")):
        run(out_1(), EnterPenalty(2, **counts))  # type: ignore[arg-type]


def test_an_entry_for_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^player 4 is not a seat at this table: use 0 to 3$"):
        run(out_1(), EnterPenalty(4, 0, 0, 1))


def test_an_entry_may_be_corrected_until_the_round_is_scored() -> None:
    state = run(out_1(), EnterPenalty(2, 5, 0, 0), EnterPenalty(2, 8, 0, 0))
    assert state.entries[2] == Penalty(8, 0, 0)
    assert state.phase is Phase.PENALTY_ENTRY


# --- points -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("moths", "actions", "numbers", "points"), [
    (0, 0, 1, 1), (0, 1, 0, 5), (1, 0, 0, 10), (2, 3, 3, 20 + 15 + 3), (0, 0, 0, 0),
])
def test_penalty_points_are_1_per_number_5_per_action_10_per_moth(
        moths: int, actions: int, numbers: int, points: int) -> None:
    evs = events(out_1(), EnterPenalty(2, moths, actions, numbers))
    assert evs == (PenaltyEntered(2, moths, actions, numbers, points),)


def test_the_round_is_scored_once_every_hand_is_entered() -> None:
    state = run(may_go_out(started(), 2), DeclareOut(2), EnterPenalty(0, 1, 2, 5), EnterPenalty(1, 0, 1, 2))
    assert state.phase is Phase.PENALTY_ENTRY
    after, evs = run(state, EnterPenalty(3, 2, 0, 0)), events(state, EnterPenalty(3, 2, 0, 0))
    assert evs[:2] == (PenaltyEntered(3, 2, 0, 0, 20), RoundScored(1, (25, 7, 0, 20), (25, 7, 0, 20)))
    assert after.scores == ((Penalty(1, 2, 5), Penalty(0, 1, 2), Penalty(), Penalty(2, 0, 0)),)
    assert after.totals == (25, 7, 0, 20)


def test_totals_add_up_over_the_rounds() -> None:
    state = play_round(new_game(3), out=1, penalties={0: (0, 0, 8), 2: (1, 0, 0)})
    state = play_round(state, out=0, penalties={1: (0, 1, 7), 2: (0, 0, 3)})
    assert state.totals == (8, 12, 13)
    assert state.moths_taken == (0, 0, 1)


# --- rounds and guards ------------------------------------------------------------------------


def quick_round(state: GameState) -> GameState:
    """A round in which the player left of the guard goes out and everyone else holds 8 or 1."""
    out = state.left_of(state.guard)
    penalties = {p: ((0, 0, 8) if p == state.guard else (0, 0, 1)) for p in state.seats if p != out}
    return play_round(state, out, penalties)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_has_as_many_rounds_as_players(players: int) -> None:
    state = new_game(players)
    for _ in range(players - 1):
        state = quick_round(state)
        assert state.phase is Phase.ROUND_SETUP
    state = quick_round(state)
    assert state.phase is Phase.GAME_OVER
    assert len(state.scores) == players


@pytest.mark.parametrize(("players", "oldest", "guards"), [(3, 0, [0, 1, 2]), (4, 2, [2, 3, 0, 1]),
                                                           (5, 4, [4, 0, 1, 2, 3])])
def test_by_default_the_guard_bug_passes_left_each_round(players: int, oldest: int, guards: list[int]) -> None:
    state = new_game(players, oldest)
    seen = []
    for _ in range(players):
        seen.append(state.guard)
        state = quick_round(state)
    assert seen == guards


def test_the_guard_bug_passes_left_of_whoever_holds_it_at_round_end() -> None:
    state = run(may_go_out(caught(started(), 2), 1), DeclareOut(1), EnterPenalty(0, 0, 0, 1), EnterPenalty(2, 0, 0, 1))
    after, evs = run(state, EnterPenalty(3, 0, 0, 1)), events(state, EnterPenalty(3, 0, 0, 1))
    assert after.guard == 3
    assert after.active == 3
    assert evs[-1] == GuardChanged(2, 3)


def test_under_keep_the_guard_keeps_the_guard_bug() -> None:
    state = new_game(4, 1, Rules(guard_next_round=GuardNextRound.KEEP))
    for _ in range(3):
        state = quick_round(state)
        assert state.guard == 1


def test_under_keep_whoever_holds_the_guard_bug_at_round_end_keeps_it() -> None:
    state = caught(started(rules=Rules(guard_next_round=GuardNextRound.KEEP)), 2)
    after = finish_round(state, out=1, penalties={0: (0, 0, 1), 2: (0, 0, 1), 3: (0, 0, 1)})
    assert after.guard == 2


@pytest.mark.parametrize("variant", list(GuardNextRound))
def test_the_guard_takes_the_first_turn_of_every_round(variant: GuardNextRound) -> None:
    state = quick_round(new_game(4, 1, Rules(guard_next_round=variant)))
    state = run(state, StartRound(card("number 2")))
    assert state.active == state.guard


# --- standings and the end of the game ---------------------------------------------------------


def three_rounds(top_tie: TopTie, rounds: list[tuple[int, dict[int, tuple[int, int, int]]]]) -> GameState:
    state = new_game(3, 0, Rules(top_tie=top_tie))
    for out, penalties in rounds:
        state = play_round(state, out, penalties)
    return state


#: Seats 0 and 1 tie on 18; seat 0 took a moth, seat 1 none; seat 2 has 23.
TIE_WITH_MOTHS = [
    (1, {0: (1, 0, 7), 2: (1, 1, 0)}),
    (2, {1: (0, 2, 6), 0: (0, 0, 1)}),
    (0, {2: (0, 0, 8), 1: (0, 0, 2)}),
]
#: Seats 0 and 1 tie on 9 with no moths; seat 2 has 11.
TIE_WITHOUT_MOTHS = [
    (1, {0: (0, 0, 8), 2: (0, 0, 3)}),
    (2, {1: (0, 0, 8), 0: (0, 0, 1)}),
    (0, {2: (0, 0, 8), 1: (0, 0, 1)}),
]
#: 8, 9, 10.
NO_TIE = [
    (1, {0: (0, 0, 8), 2: (0, 0, 1)}),
    (0, {1: (0, 0, 8), 2: (0, 0, 1)}),
    (0, {2: (0, 0, 8), 1: (0, 0, 1)}),
]


@pytest.mark.parametrize("top_tie", list(TopTie))
def test_the_lowest_total_wins(top_tie: TopTie) -> None:
    state = three_rounds(top_tie, NO_TIE)
    assert state.totals == (8, 9, 10)
    assert state.standings() == (Standing(0, 8, 0, 1), Standing(1, 9, 0, 2), Standing(2, 10, 0, 3))


def test_under_shared_win_a_tie_for_the_lowest_total_is_shared() -> None:
    state = three_rounds(TopTie.SHARED_WIN, TIE_WITH_MOTHS)
    assert state.totals == (18, 18, 23)
    assert state.standings() == (Standing(0, 18, 1, 1), Standing(1, 18, 0, 1), Standing(2, 23, 1, 3))


def test_under_fewest_moths_a_tie_for_the_lowest_total_goes_to_fewer_moths() -> None:
    state = three_rounds(TopTie.FEWEST_MOTHS, TIE_WITH_MOTHS)
    assert state.standings() == (Standing(1, 18, 0, 1), Standing(0, 18, 1, 2), Standing(2, 23, 1, 3))


def test_under_fewest_moths_a_tie_on_moths_too_is_shared() -> None:
    state = three_rounds(TopTie.FEWEST_MOTHS, TIE_WITHOUT_MOTHS)
    assert state.totals == (9, 9, 11)
    assert [s.place for s in state.standings()] == [1, 1, 3]


@pytest.mark.parametrize(("top_tie", "winners"), [(TopTie.SHARED_WIN, (0, 1)), (TopTie.FEWEST_MOTHS, (1,))])
def test_the_last_round_ends_the_game_with_totals_and_winners(top_tie: TopTie, winners: tuple[int, ...]) -> None:
    state = three_rounds(top_tie, TIE_WITH_MOTHS[:2])
    state = run(may_go_out(run(state, StartRound(card("number 3"))), 0), DeclareOut(0), EnterPenalty(1, 0, 0, 2))
    after, evs = run(state, EnterPenalty(2, 0, 0, 8)), events(state, EnterPenalty(2, 0, 0, 8))
    assert after.phase is Phase.GAME_OVER
    assert evs[-2:] == (RoundScored(3, (0, 2, 8), (18, 18, 23)), GameOver((18, 18, 23), winners))


def test_no_round_starts_after_the_game_is_over() -> None:
    state = three_rounds(TopTie.SHARED_WIN, NO_TIE)
    with pytest.raises(WrongPhase, match=r"^StartRound is not allowed in phase 'game-over': "
                                         r"allowed now are NewGame, Undo$"):
        run(state, StartRound(card("number 3")))


def test_a_new_game_after_game_over_starts_afresh() -> None:
    state = run(three_rounds(TopTie.SHARED_WIN, NO_TIE), NewGame(5, 3))
    assert state == new_game(5, 3)
    assert state.scores == () and state.round == 0 and state.guard == 3


def test_a_spider_gift_that_ends_the_round_is_scored_like_any_other() -> None:
    state = cycle_plays(started(), 24)
    state = play(state, f"spider {above(state.discard[-1].number)}")
    state = run(state, GiveCard(0, 3))  # seat 0's last card: round over
    state = run(state, EnterPenalty(1, 0, 0, 2), EnterPenalty(2, 0, 0, 2))
    assert run(state, EnterPenalty(3, 0, 0, 3)).scores[0][0] == Penalty()
