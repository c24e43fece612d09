"""A turn: playing, wrapping numbers, drawing, the draw pile running out, moths, ants, spiders.

RULES.md "A turn", "Action cards" (ant, spider), "Draw pile runs out".
"""

from __future__ import annotations

import re

import pytest
from rules_helpers import (
    FITTING, card, cycle_plays, draw, draw_until_empty, events, house_deck, play, run,
    started,
)

from game.engine import DrawCard, GiveCard, Phase, PlayCard, can_apply
from game.engine.events import (
    CardDrawn, CardGiven, CardPlayed, DiscardReshuffled, GiftDue, GiftSkipped, NothingToDraw,
    RoundEnded, TurnStarted,
)
from game.errors import CardDoesNotFit, IllegalCommand, NotYourTurn
from game.variants import DrawWhenPlayable, Rules

# --- playing a card ---------------------------------------------------------------------------


@pytest.mark.parametrize(("top", "number"), [(t, n) for t, pair in FITTING.items() for n in pair])
def test_a_card_one_above_or_below_the_top_may_be_played(top: int, number: int) -> None:
    state = play(started(starter=f"number {top}"), f"number {number}")
    assert state.discard_top == card(f"number {number}")


@pytest.mark.parametrize(("top", "number"), [(t, n) for t in FITTING for n in range(1, 6)
                                             if n not in FITTING[t]])
def test_a_card_not_next_to_the_top_is_refused(top: int, number: int) -> None:
    a, b = FITTING[top]
    with pytest.raises(CardDoesNotFit, match=rf"^cannot play number {number} on a {top}: "
                                             rf"play a ({a} or a {b}|{b} or a {a}), or draw$"):
        play(started(starter=f"number {top}"), f"number {number}")


@pytest.mark.parametrize("number", [5, 2])
def test_on_a_1_a_5_or_a_2_may_be_played(number: int) -> None:
    assert play(started(starter="number 1"), f"number {number}").discard_top == card(f"number {number}")


@pytest.mark.parametrize("number", [4, 1])
def test_on_a_5_a_4_or_a_1_may_be_played(number: int) -> None:
    assert play(started(starter="number 5"), f"number {number}").discard_top == card(f"number {number}")


@pytest.mark.parametrize("kind", ["ant", "spider", "cockroach", "mosquito"])
def test_an_action_card_is_played_by_its_number(kind: str) -> None:
    with pytest.raises(CardDoesNotFit, match=rf"^cannot play {kind} 3 on a 3"):
        play(started(starter="number 3"), f"{kind} 3")
    assert can_apply(started(starter="number 3"), PlayCard(0, card(f"{kind} 4")))


def test_playing_a_card_takes_it_from_the_hand_and_passes_the_turn_left() -> None:
    state = started()
    after, evs = run(state, PlayCard(0, card("number 4"))), events(state, PlayCard(0, card("number 4")))
    assert after.hands == (7, 8, 8, 8)
    assert after.discard == (card("number 3"), card("number 4"))
    assert after.active == 1
    assert evs == (CardPlayed(0, card("number 4")), TurnStarted(1))


def test_turns_pass_left_and_wrap_to_seat_0() -> None:
    state = started()
    seen = []
    for _ in range(5):
        seen.append(state.active)
        state = cycle_plays(state, 1)
    assert seen == [0, 1, 2, 3, 0]


def test_only_the_active_player_may_play() -> None:
    with pytest.raises(NotYourTurn, match=r"^seat 1 cannot play: it is seat 0's turn$"):
        run(started(), PlayCard(1, card("number 4")))


def test_only_the_active_player_may_draw() -> None:
    with pytest.raises(NotYourTurn, match=r"^seat 2 cannot draw: it is seat 0's turn$"):
        run(started(), DrawCard(2))


@pytest.mark.parametrize("seat", [4, -1, "0"])
def test_a_player_who_is_not_a_seat_is_refused(seat: object) -> None:
    with pytest.raises(IllegalCommand, match=re.escape(f"player {seat!r} is not a seat at this table: use 0 to 3")):
        run(started(), PlayCard(seat, card("number 4")))  # type: ignore[arg-type]


def test_a_play_that_names_no_card_is_refused() -> None:
    with pytest.raises(IllegalCommand, match=r"^'number 4' is not a card: name a kind and a number, e\.g\. 'ant 3'$"):
        run(started(), PlayCard(0, "number 4"))  # type: ignore[arg-type]


# --- no card left -----------------------------------------------------------------------------


def test_a_card_whose_only_copy_is_on_the_discard_pile_cannot_be_played() -> None:
    state = play(started(starter="ant 3"), "number 4")  # the deck has one ant 3: the starter
    with pytest.raises(IllegalCommand, match=r"^there is no ant 3 left to play: "
                                             r"the deck has 1 and 1 is on the discard pile$"):
        play(state, "ant 3")


def test_a_card_whose_copies_are_all_on_the_discard_pile_cannot_be_played() -> None:
    state = started(starter="number 2")  # the deck has two moth 1s; the guard, seat 0, lays both
    for _ in range(2):
        for text in ("moth 1", "number 2", "number 1", "number 2"):
            state = play(state, text)
    assert state.active == 0
    with pytest.raises(IllegalCommand, match=r"^there is no moth 1 left to play: "
                                             r"the deck has 2 and 2 are on the discard pile$"):
        run(state, PlayCard(0, card("moth 1")))


def test_a_card_the_deck_does_not_have_cannot_be_played() -> None:
    state = started(starter="number 3", rules=Rules(deck=house_deck(ant=[1, 0, 2, 1, 1])))
    with pytest.raises(IllegalCommand, match=r"^this deck has no ant 2: check the card and enter it again$"):
        play(state, "ant 2")


def test_a_card_reshuffled_into_the_draw_pile_can_be_played_again() -> None:
    state = draw_until_empty(started(starter="ant 3"))
    state = play(state, "number 4")
    assert not can_apply(state, PlayCard(state.active, card("ant 3")))
    state = draw(state)  # the draw pile is empty: the discard pile but its top is reshuffled
    assert can_apply(state, PlayCard(state.active, card("ant 3")))


# --- drawing ----------------------------------------------------------------------------------


def test_drawing_adds_a_card_to_the_hand_and_ends_the_turn() -> None:
    state = started()
    after, evs = draw(state), events(state, DrawCard(0))
    assert after.hands == (9, 8, 8, 8)
    assert after.draw_pile == 37
    assert after.discard == state.discard
    assert after.active == 1
    assert evs == (CardDrawn(0), TurnStarted(1))


@pytest.mark.parametrize("variant", list(DrawWhenPlayable))
def test_a_draw_is_accepted_under_either_draw_variant_because_hands_are_hidden(
        variant: DrawWhenPlayable) -> None:
    # A 4 fits on the 3, but the rig cannot see whether the player holds one.
    state = started(starter="number 3", rules=Rules(draw_when_playable=variant))
    assert draw(state).hands == (9, 8, 8, 8)


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top() -> None:
    state = draw_until_empty(started(starter="number 3"))  # 38 draws: seat 2 to play
    assert (state.draw_pile, state.active) == (0, 2)
    state = play(play(play(state, "number 4"), "number 5"), "number 1")
    evs = events(state, DrawCard(1))
    after = draw(state)
    assert evs == (DiscardReshuffled(3), CardDrawn(1), TurnStarted(2))
    assert after.discard == (card("number 1"),)
    assert after.draw_pile == 2
    assert after.hands[1] == state.hands[1] + 1


def test_with_nothing_to_draw_the_turn_just_passes() -> None:
    state = draw_until_empty(started(starter="number 3"))  # the discard pile holds only its top
    after, evs = draw(state), events(state, DrawCard(2))
    assert evs == (NothingToDraw(2), TurnStarted(3))
    assert after.hands == state.hands
    assert after.draw_pile == 0
    assert after.discard == (card("number 3"),)


# --- moths ------------------------------------------------------------------------------------


def test_the_guard_may_play_a_moth_by_its_number() -> None:
    state = play(started(), "moth 4")  # seat 0 is the guard
    assert state.hands == (7, 8, 8, 8)
    assert state.discard_top == card("moth 4")
    assert state.active == 1


def test_a_moth_on_the_pile_counts_by_its_number() -> None:
    state = play(started(), "moth 4")
    play(state, "number 5")
    play(state, "number 3")
    with pytest.raises(CardDoesNotFit, match=r"^cannot play number 4 on a 4"):
        play(state, "number 4")


def test_a_moth_that_does_not_fit_is_refused_even_for_the_guard() -> None:
    with pytest.raises(CardDoesNotFit, match=r"^cannot play moth 1 on a 3"):
        play(started(), "moth 1")


def test_only_the_guard_may_play_a_moth() -> None:
    state = play(started(), "number 4")
    with pytest.raises(IllegalCommand, match=r"^seat 1 cannot lay moth 3: only the guard \(seat 0\) may play "
                                             r"Cheating Moths; other players can only make them vanish$"):
        play(state, "moth 3")


# --- ant --------------------------------------------------------------------------------------


def test_an_ant_makes_every_other_player_draw_one_card() -> None:
    state = started()
    after, evs = play(state, "ant 4"), events(state, PlayCard(0, card("ant 4")))
    assert after.hands == (7, 9, 9, 9)
    assert after.draw_pile == 35
    assert evs == (CardPlayed(0, card("ant 4")), CardDrawn(1), CardDrawn(2), CardDrawn(3), TurnStarted(1))


def test_after_an_ant_the_turn_passes_left_of_its_player() -> None:
    state = cycle_plays(started(), 2)  # seat 2 to play on a 5
    after = play(state, "ant 4")
    assert after.hands == (8, 8, 7, 9)  # seats 0 and 1 played one each, then drew
    assert after.active == 3
    assert after.phase is Phase.TURN


def test_an_ant_refills_the_draw_pile_when_it_runs_out_midway() -> None:
    state = started(starter="number 3")
    for _ in range(37):  # one card left; seat 1 to play
        state = draw(state)
    state = play(state, "number 4")
    evs = events(state, PlayCard(2, card("ant 5")))
    assert evs == (CardPlayed(2, card("ant 5")), CardDrawn(3), DiscardReshuffled(2), CardDrawn(0),
                   CardDrawn(1), TurnStarted(3))
    assert play(state, "ant 5").draw_pile == 0


def test_an_ant_with_nothing_left_to_draw_gives_nothing() -> None:
    state = draw_until_empty(started(starter="number 3"))  # seat 2 to play
    evs = events(state, PlayCard(2, card("ant 4")))
    assert evs == (CardPlayed(2, card("ant 4")), DiscardReshuffled(1), CardDrawn(3), NothingToDraw(0),
                   NothingToDraw(1), TurnStarted(3))


# --- spider -----------------------------------------------------------------------------------


def test_a_spider_asks_its_player_for_a_gift() -> None:
    state = started()
    after, evs = play(state, "spider 4"), events(state, PlayCard(0, card("spider 4")))
    assert after.phase is Phase.SPIDER_GIFT
    assert after.gift_from == 0
    assert after.hands == (7, 8, 8, 8)
    assert evs == (CardPlayed(0, card("spider 4")), GiftDue(0))


@pytest.mark.parametrize("recipient", [1, 2, 3])
def test_the_spider_player_gives_one_card_to_any_other_player(recipient: int) -> None:
    state = play(started(), "spider 4")
    after, evs = run(state, GiveCard(0, recipient)), events(state, GiveCard(0, recipient))
    hands = [6, 8, 8, 8]
    hands[recipient] += 1
    assert after.hands == tuple(hands)
    assert after.phase is Phase.TURN
    assert after.active == 1
    assert evs == (CardGiven(0, recipient), TurnStarted(1))


def test_after_a_spider_the_turn_passes_left_of_its_player() -> None:
    state = play(cycle_plays(started(), 2), "spider 4")  # seat 2 plays the spider on a 5
    assert run(state, GiveCard(2, 0)).active == 3


def test_a_spider_player_holding_only_moths_gives_nothing() -> None:
    state = play(started(), "spider 4")
    after, evs = run(state, GiveCard(0, None)), events(state, GiveCard(0, None))
    assert after.hands == (7, 8, 8, 8)
    assert after.active == 1
    assert evs == (GiftSkipped(0), TurnStarted(1))


def test_only_the_spider_player_gives() -> None:
    state = play(started(), "spider 4")
    with pytest.raises(NotYourTurn, match=r"^seat 1 cannot give the spider's card: seat 0 played the spider$"):
        run(state, GiveCard(1, 2))


def test_the_spider_player_cannot_give_to_themselves() -> None:
    state = play(started(), "spider 4")
    with pytest.raises(IllegalCommand, match=r"^seat 0 cannot give a card to themselves: give it to one of seats"):
        run(state, GiveCard(0, 0))


def test_the_give_to_yourself_message_lists_the_other_seats_like_the_others() -> None:
    state = play(started(), "spider 4")
    with pytest.raises(IllegalCommand, match=r"give it to (one of )?seats 1, 2 (and|or) 3$"):
        run(state, GiveCard(0, 0))


def test_a_spider_gift_to_a_seat_not_at_the_table_is_refused() -> None:
    state = play(started(), "spider 4")
    with pytest.raises(IllegalCommand, match=r"^recipient 4 is not a seat at this table: use 0 to 3$"):
        run(state, GiveCard(0, 4))


def test_a_spider_gift_from_a_seat_not_at_the_table_is_refused() -> None:
    state = play(started(), "spider 4")
    with pytest.raises(IllegalCommand, match=r"^player 9 is not a seat at this table: use 0 to 3$"):
        run(state, GiveCard(9, 1))


def test_giving_away_the_last_card_ends_the_round() -> None:
    state = cycle_plays(started(), 24)  # 2 cards each, seat 0 to play
    assert state.hands == (2, 2, 2, 2)
    state = run(state, PlayCard(0, card(f"spider {FITTING[state.discard[-1].number][0]}")))
    after, evs = run(state, GiveCard(0, 1)), events(state, GiveCard(0, 1))
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.out == (0,)
    assert evs == (CardGiven(0, 1), RoundEnded(1, (0,)))
