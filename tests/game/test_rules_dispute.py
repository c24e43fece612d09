""""Caught!": only the guard accuses; a verdict or a cancel ends the dispute (RULES.md "Caught!")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rules_helpers import card, cycle_plays, draw_until_empty, events, may_go_out, play, run, started

from game.engine import (
    Accuse, CancelDispute, CancelRace, DecideRace, DeclareOut, Dispute, DrawCard, EnterPenalty,
    GameState, GiveCard, NewGame, Phase, PlayCard, StartRound, Verdict,
)
from game.engine.events import (
    AccusationRejected, AccusationUpheld, Accused, CardDrawn, CardGiven, DisputeCancelled,
    GuardChanged, NothingToDraw, RoundEnded,
)
from game.errors import IllegalCommand, NotYourTurn, WrongPhase


def accused(state: GameState | None = None, seat: int = 2) -> GameState:
    """The guard (seat 0 unless changed) has called "Caught!" on ``seat``."""
    state = started() if state is None else state
    return run(state, Accuse(state.guard, seat))


# --- the accusation ---------------------------------------------------------------------------


def test_only_the_guard_may_call_caught() -> None:
    with pytest.raises(NotYourTurn, match=r"^seat 1 cannot call Caught!: only the guard \(seat 0\) may accuse$"):
        run(started(), Accuse(1, 2))


def test_the_guard_cannot_accuse_themselves() -> None:
    with pytest.raises(IllegalCommand, match=r"^the guard \(seat 0\) cannot accuse themselves: "
                                             r"accuse one of seats 1, 2 and 3$"):
        run(started(), Accuse(0, 0))


@pytest.mark.parametrize(("guard", "who", "bad"), [(0, "accused", 4), (9, "guard", 9), ("0", "guard", "0")])
def test_an_accusation_naming_a_seat_not_at_the_table_is_refused(guard: Any, who: str, bad: Any) -> None:
    accused_seat = bad if who == "accused" else 1
    with pytest.raises(IllegalCommand, match=re.escape(f"{who} {bad!r} is not a seat at this table: use 0 to 3")):
        run(started(), Accuse(guard, accused_seat))


def test_caught_opens_a_dispute_that_remembers_where_play_resumes() -> None:
    state = started()
    after, evs = accused(state), events(state, Accuse(0, 2))
    assert after.phase is Phase.DISPUTE
    assert after.dispute == Dispute(guard=0, accused=2, resume=Phase.TURN)
    assert after.hands == state.hands
    assert after.active == 0
    assert evs == (Accused(0, 2),)


def test_the_guard_may_accuse_during_another_players_turn() -> None:
    state = cycle_plays(started(), 2)  # seat 2 to play
    assert accused(state, 3).dispute == Dispute(0, 3, Phase.TURN)


def test_the_guard_may_accuse_during_a_spider_gift() -> None:
    state = play(cycle_plays(started(), 1), "spider 5")  # seat 1 owes a card
    assert accused(state, 3).dispute == Dispute(0, 3, Phase.SPIDER_GIFT)


# --- the verdict ------------------------------------------------------------------------------


def test_caught_for_real_the_cheater_gets_a_card_from_the_guard_and_the_guard_bug() -> None:
    state = accused(started(), 2)
    after, evs = run(state, Verdict(True)), events(state, Verdict(True))
    # The card taken back was never off the official count; the guard's card is.
    assert after.hands == (7, 8, 9, 8)
    assert after.guard == 2
    assert after.guard_changed is True
    assert after.phase is Phase.TURN and after.dispute is None
    assert after.active == 0
    assert evs == (AccusationUpheld(0, 2), CardGiven(0, 2), GuardChanged(0, 2))


def test_a_wrong_accusation_makes_the_guard_draw_and_stay_guard() -> None:
    state = accused(started(), 2)
    after, evs = run(state, Verdict(False)), events(state, Verdict(False))
    assert after.hands == (9, 8, 8, 8)
    assert after.draw_pile == 37
    assert after.guard == 0
    assert after.guard_changed is False
    assert after.phase is Phase.TURN and after.active == 0
    assert evs == (AccusationRejected(0, 2), CardDrawn(0))


def test_a_wrongly_accusing_guard_with_nothing_to_draw_draws_nothing() -> None:
    state = accused(draw_until_empty(started()), 1)
    assert events(state, Verdict(False)) == (AccusationRejected(0, 1), NothingToDraw(0))


def test_a_cancelled_dispute_leaves_the_table_as_it_was() -> None:
    before = cycle_plays(started(), 1)
    state = accused(before, 3)
    after, evs = run(state, CancelDispute()), events(state, CancelDispute())
    assert after == before
    assert evs == (DisputeCancelled(0, 3),)


@pytest.mark.parametrize("guilty", [True, False])
def test_a_dispute_during_a_spider_gift_returns_to_the_gift(guilty: bool) -> None:
    state = play(cycle_plays(started(), 1), "spider 5")
    after = run(accused(state, 3), Verdict(guilty))
    assert after.phase is Phase.SPIDER_GIFT
    assert after.gift_from == 1
    assert run(after, GiveCard(1, 2)).active == 2


@pytest.mark.parametrize("guilty", ["yes", 1, None])
def test_a_verdict_that_is_not_true_or_false_is_refused(guilty: object) -> None:
    with pytest.raises(IllegalCommand, match=re.escape(
            f"verdict {guilty!r} is not valid: say guilty (true) or not guilty (false)")):
        run(accused(), Verdict(guilty))  # type: ignore[arg-type]


def test_the_guard_giving_away_their_last_card_ends_the_round() -> None:
    state = accused(cycle_plays(started(), 28), 2)  # one card each
    after, evs = run(state, Verdict(True)), events(state, Verdict(True))
    assert after.hands == (0, 1, 2, 1)
    assert after.phase is Phase.PENALTY_ENTRY
    assert after.out == (0,)
    assert after.guard == 2
    assert evs[-1] == RoundEnded(1, (0,))


# --- the new guard ----------------------------------------------------------------------------


def test_after_caught_only_the_new_guard_may_accuse() -> None:
    state = run(accused(started(), 2), Verdict(True))
    with pytest.raises(NotYourTurn, match=r"^seat 0 cannot call Caught!: only the guard \(seat 2\) may accuse$"):
        run(state, Accuse(0, 1))
    assert accused(state, 0).dispute == Dispute(2, 0, Phase.TURN)


def test_after_caught_the_new_guard_may_play_moths_and_the_old_may_not() -> None:
    state = run(accused(started(), 2), Verdict(True))  # seat 0 still to play
    with pytest.raises(IllegalCommand, match=r"^seat 0 cannot lay moth 4: only the guard \(seat 2\)"):
        run(state, PlayCard(0, card("moth 4")))
    state = cycle_plays(state, 2)  # seat 2 to play on a 5
    assert play(state, "moth 4").discard_top == card("moth 4")


# --- nothing else during a dispute ------------------------------------------------------------

_NOT_IN_A_DISPUTE = [
    PlayCard(0, card("number 4")), DrawCard(0), Accuse(0, 1), DeclareOut(1), GiveCard(0, 1),
    DecideRace((1,), loser=1), CancelRace(), EnterPenalty(1, 0, 0, 1), StartRound(card("number 3")),
    NewGame(4, 0),
]


@pytest.mark.parametrize("command", _NOT_IN_A_DISPUTE, ids=lambda c: type(c).__name__)
def test_a_dispute_allows_only_a_verdict_a_cancel_or_undo(command: Any) -> None:
    with pytest.raises(WrongPhase, match=rf"^{type(command).__name__} is not allowed in phase 'dispute': "
                                         r"allowed now are Verdict, CancelDispute, Undo$"):
        run(accused(), command)


@pytest.mark.parametrize("phase_state", ["round-setup", "penalty-entry"])
def test_caught_is_refused_outside_the_play_of_a_round(phase_state: str) -> None:
    state = run(may_go_out(started(), 1), DeclareOut(1)) if phase_state == "penalty-entry" else run(GameState(), NewGame(4, 0))
    with pytest.raises(WrongPhase, match=rf"^Accuse is not allowed in phase '{phase_state}'"):
        run(state, Accuse(0, 1))
