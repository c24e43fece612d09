"""Undo: take back the last command, as often as there are commands to take back."""

from __future__ import annotations

import pytest
from rules_helpers import card, draw_until_empty, events, given, may_go_out, new_game, play, play_round, run, started

from game.engine import (
    Accuse, DecideRace, DeclareOut, DrawCard, EnterPenalty, GameState, NewGame, Phase, PlayCard,
    StartRound, Undo, Verdict,
)
from game.engine.events import Undone
from game.errors import NothingToUndo

_NOTHING = r"^there is nothing to undo: no command has been applied yet$"


def same(a: GameState, b: GameState) -> bool:
    """Equal in every field, the history too (``==`` leaves ``previous`` and ``command`` out)."""
    return a == b and a.command == b.command and a.previous is b.previous


def test_undo_returns_the_exact_state_before_the_last_command() -> None:
    before = started()
    after = play(before, "number 4")
    undone = run(after, Undo())
    assert same(undone, before)


def test_undo_reports_the_command_it_took_back() -> None:
    after = play(started(), "number 4")
    assert events(after, Undo()) == (Undone(PlayCard(0, card("number 4"))),)


def test_several_undos_walk_back_one_command_each() -> None:
    states = [GameState()]
    for command in (NewGame(4, 0), StartRound(card("number 3")), PlayCard(0, card("number 4")),
                    PlayCard(1, card("ant 5")), PlayCard(2, card("spider 1"))):
        states.append(run(states[-1], command))
    state = states[-1]
    for expected in reversed(states[:-1]):
        state = run(state, Undo())
        assert same(state, expected)
    with pytest.raises(NothingToUndo, match=_NOTHING):
        run(state, Undo())


def test_there_is_nothing_to_undo_before_the_first_command() -> None:
    with pytest.raises(NothingToUndo, match=_NOTHING):
        run(GameState(), Undo())


def test_there_is_nothing_to_undo_from_a_state_without_history() -> None:
    with pytest.raises(NothingToUndo, match=_NOTHING):
        run(given(started()), Undo())


def test_undo_brings_back_a_reshuffled_discard_pile() -> None:
    before = play(draw_until_empty(started()), "number 4")
    after = run(before, DrawCard(before.active))
    assert after.draw_pile == 0 and len(after.discard) == 1
    assert same(run(after, Undo()), before)


def test_undo_of_a_race_decision_reopens_the_race() -> None:
    race = play(started(), "mosquito 4")
    assert same(run(race, DecideRace((1, 2, 3), loser=3), Undo()), race)


def test_undo_of_a_verdict_reopens_the_dispute_and_restores_the_guard() -> None:
    dispute = run(started(), Accuse(0, 2))
    undone = run(dispute, Verdict(True), Undo())
    assert same(undone, dispute)
    assert undone.guard == 0


def test_undo_of_declaring_out_resumes_the_round() -> None:
    before = may_go_out(started(), 1)
    assert same(run(before, DeclareOut(1), Undo()), before)


def game_over() -> tuple[GameState, GameState]:
    """A 3-player game just over, and the state before its last penalty entry."""
    state = play_round(new_game(3), out=1, penalties={0: (0, 0, 8), 2: (0, 0, 1)})
    state = play_round(state, out=2, penalties={0: (0, 0, 1), 1: (0, 0, 8)})
    before_last = play_round(state, out=0, penalties={1: (0, 0, 1)})
    return run(before_last, EnterPenalty(2, 0, 0, 8)), before_last


def test_undo_of_the_entry_that_ended_the_game_reopens_penalty_entry() -> None:
    over, before_last = game_over()
    assert over.phase is Phase.GAME_OVER
    undone = run(over, Undo())
    assert same(undone, before_last)
    assert undone.phase is Phase.PENALTY_ENTRY


def test_undo_of_a_new_game_after_game_over_returns_to_the_finished_game() -> None:
    over, _ = game_over()
    assert same(run(over, NewGame(4, 0), Undo()), over)


def test_after_an_undo_a_different_command_may_be_applied() -> None:
    before = started()
    state = run(play(before, "number 4"), Undo(), PlayCard(0, card("number 2")))
    assert state.discard_top == card("number 2")
    assert same(run(state, Undo()), before)
