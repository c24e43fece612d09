"""New game and round set-up (RULES.md "Players and game length", "Round set-up")."""

from __future__ import annotations

import re

import pytest
from rules_helpers import card, events, house_deck, new_game, play_round, run, started

from game.engine import GameState, NewGame, Phase, PlayCard, StartRound
from game.engine.events import GameStarted, RoundStarted, StarterFlipped, TurnStarted
from game.errors import CardDoesNotFit, IllegalCommand, WrongPhase
from game.variants import Rules

# --- new game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_is_for_3_to_5_players(players: int) -> None:
    state = new_game(players)
    assert state.phase is Phase.ROUND_SETUP
    assert state.players == players
    assert state.round == 0
    assert state.scores == ()


@pytest.mark.parametrize("players", [2, 6, 0, -1])
def test_fewer_than_3_or_more_than_5_players_are_refused(players: int) -> None:
    with pytest.raises(IllegalCommand,
                       match=rf"^{players} players cannot play: Cheating Moth is for 3 to 5 players$"):
        run(GameState(), NewGame(players, 0))


@pytest.mark.parametrize("players", ["4", 4.0, True])
def test_a_player_count_that_is_not_a_whole_number_is_refused(players: object) -> None:
    with pytest.raises(IllegalCommand,
                       match=re.escape(f"{players!r} players cannot play: Cheating Moth is for 3 to 5 players")):
        run(GameState(), NewGame(players, 0))  # type: ignore[arg-type]


@pytest.mark.parametrize("oldest", [0, 1, 2, 3])
def test_the_oldest_player_is_the_guard_of_round_1(oldest: int) -> None:
    state = new_game(4, oldest)
    assert state.guard == oldest
    assert state.oldest == oldest


@pytest.mark.parametrize("oldest", [4, -1, "0", None])
def test_an_oldest_player_who_is_not_a_seat_is_refused(oldest: object) -> None:
    with pytest.raises(IllegalCommand,
                       match=re.escape(f"oldest player {oldest!r} is not a seat at this table: use 0 to 3")):
        run(GameState(), NewGame(4, oldest))  # type: ignore[arg-type]


def test_new_game_reports_players_oldest_and_rules() -> None:
    rules = Rules()
    assert events(GameState(), NewGame(5, 2, rules)) == (GameStarted(5, 2, rules),)


def test_a_deck_too_small_for_8_cards_each_and_a_starter_is_refused() -> None:
    small = house_deck(number=[1, 1, 1, 1, 1])  # 5 + 8 + 20 = 33 cards
    assert small.size == 33
    with pytest.raises(IllegalCommand,
                       match=r"^a deck of 33 cards cannot serve 5 players: "
                             r"it needs at least 41 \(8 each and a starter\)$"):
        run(GameState(), NewGame(5, 0, Rules(deck=small)))


def test_a_deck_of_exactly_8_cards_each_and_a_starter_is_enough() -> None:
    small = house_deck(number=[1, 1, 1, 1, 1])  # 33 = 8 * 4 + 1
    state = started(4, rules=Rules(deck=small))
    assert state.draw_pile == 0
    assert state.hands == (8, 8, 8, 8)


def test_new_game_is_refused_while_a_round_is_played() -> None:
    with pytest.raises(WrongPhase, match=r"^NewGame is not allowed in phase 'turn': allowed now are "
                                         r"PlayCard, DrawCard, Accuse, DeclareOut, Undo$"):
        run(started(), NewGame(4, 0))


# --- round set-up -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "draw_pile"), [(3, 71 - 24 - 1), (4, 71 - 32 - 1), (5, 71 - 40 - 1)])
def test_each_player_is_dealt_8_cards_and_the_rest_but_the_starter_is_the_draw_pile(
        players: int, draw_pile: int) -> None:
    state = started(players)
    assert state.hands == (8,) * players
    assert state.draw_pile == draw_pile


def test_the_flipped_card_starts_the_discard_pile() -> None:
    state = started(starter="number 2")
    assert state.discard == (card("number 2"),)


@pytest.mark.parametrize("oldest", [0, 2])
def test_the_guard_takes_the_first_turn(oldest: int) -> None:
    state = started(4, oldest)
    assert state.phase is Phase.TURN
    assert state.active == oldest
    assert state.round == 1


def test_round_start_reports_round_guard_hand_size_draw_pile_starter_and_first_turn() -> None:
    evs = events(new_game(4, 1), StartRound(card("mosquito 5")))
    assert evs == (RoundStarted(1, 1, 8, 38), StarterFlipped(card("mosquito 5")), TurnStarted(1))


@pytest.mark.parametrize("starter", ["ant 3", "spider 3", "cockroach 3", "mosquito 3"])
def test_a_flipped_action_card_is_not_carried_out(starter: str) -> None:
    state = started(4, starter=starter)
    assert state.phase is Phase.TURN
    assert state.race is None
    assert state.gift_from is None
    assert state.hands == (8, 8, 8, 8)  # no ant draws, no spider gift, no mosquito gifts
    assert state.draw_pile == 38
    assert state.active == 0


@pytest.mark.parametrize("starter", ["ant 5", "spider 5", "cockroach 5", "mosquito 5"])
def test_a_flipped_action_cards_number_counts(starter: str) -> None:
    state = started(starter=starter)
    run(state, PlayCard(0, card("number 4")))
    run(state, PlayCard(0, card("number 1")))
    with pytest.raises(CardDoesNotFit, match=r"^cannot play number 3 on a 5"):
        run(state, PlayCard(0, card("number 3")))


def test_a_flipped_moth_starts_the_discard_pile_by_its_number() -> None:
    # RULES.md is silent on flipping a moth (moths "can never go on the discard pile", but the
    # flip is the guard's, who may play moths); the rig takes the card shown.
    state = started(starter="moth 2")
    assert state.discard == (card("moth 2"),)
    run(state, PlayCard(0, card("number 3")))


@pytest.mark.parametrize("starter", ["ant 3", 3, None])
def test_a_starter_that_is_not_a_card_is_refused(starter: object) -> None:
    with pytest.raises(IllegalCommand, match=re.escape(
            f"starter {starter!r} is not a card: name a kind and a number, e.g. 'ant 3'")):
        run(new_game(), StartRound(starter))  # type: ignore[arg-type]


def test_a_starter_the_deck_does_not_have_is_refused() -> None:
    deck = house_deck(ant=[2, 0, 1, 1, 1])
    with pytest.raises(IllegalCommand, match=r"^the deck has no ant 2\b"):
        run(new_game(rules=Rules(deck=deck)), StartRound(card("ant 2")))


def test_a_house_deck_sets_the_draw_pile_size() -> None:
    deck = house_deck(number=[10, 10, 10, 10, 10])  # 50 + 28 = 78 cards
    assert started(3, rules=Rules(deck=deck)).draw_pile == 78 - 24 - 1


def test_start_round_is_refused_once_the_round_is_under_way() -> None:
    with pytest.raises(WrongPhase, match=r"^StartRound is not allowed in phase 'turn': allowed now are "
                                         r"PlayCard, DrawCard, Accuse, DeclareOut, Undo$"):
        run(started(), StartRound(card("number 3")))


def test_a_new_round_deals_afresh() -> None:
    state = play_round(new_game(), out=1, penalties={0: (0, 0, 8), 2: (0, 0, 3), 3: (1, 1, 1)})
    assert state.phase is Phase.ROUND_SETUP
    state = run(state, StartRound(card("spider 1")))
    assert state.round == 2
    assert state.hands == (8, 8, 8, 8)
    assert state.draw_pile == 38
    assert state.discard == (card("spider 1"),)
    assert state.out == ()
    assert state.entries == ()
    assert state.guard_changed is False
    assert state.active == state.guard
