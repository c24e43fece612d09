"""Teams in the quiz lockout: first-per-team locks the rest of a team out, individual play lets
teammates answer after each other; points add up per seat and per team."""

from __future__ import annotations

import pytest

from game.errors import BadConfig
from game.referee.quiz import (
    Arm, Phase, Press, QuizMode, QuizSettings, QuizState, Right, Status, Tick, Wrong, new_quiz,
    ring_in_order, step,
)
from game.referee.quiz_inputs import QuizInput

MS = 1_000_000
# Seats 0 and 1 are the Owls, 2 and 3 the Foxes, 4 and 5 the Hares.
TEAMS = ((0, "Owls"), (1, "Owls"), (2, "Foxes"), (3, "Foxes"), (4, "Hares"), (5, "Hares"))


def press(seat: int, t_ms: int) -> Press:
    return Press(seat, t_ms * MS, "monotonic")


def run(state: QuizState, *inputs: QuizInput) -> QuizState:
    for event in inputs:
        state, _ = step(state, event)
    return state


def line(state: QuizState) -> list[tuple[int, str | None, Status]]:
    return [(r.seat, r.team, r.status) for r in ring_in_order(state)]


def first_per_team(**kwargs: object) -> QuizState:
    settings = QuizSettings(seats=6, teams=TEAMS, mode=QuizMode.FIRST_PER_TEAM, **kwargs)  # type: ignore[arg-type]
    return run(new_quiz(settings), Arm(1000 * MS))


def test_the_first_of_each_team_rings_in_and_the_rest_of_the_team_is_locked_out() -> None:
    state = run(first_per_team(), press(1, 1500), press(0, 1510), press(3, 1520), press(2, 1530),
                Tick(2000 * MS))
    assert line(state) == [(1, "Owls", Status.FRONT), (0, "Owls", Status.LOCKED),
                           (3, "Foxes", Status.WAITING), (2, "Foxes", Status.LOCKED)]


def test_wrong_passes_to_the_next_team_never_to_a_teammate() -> None:
    state = run(first_per_team(wrong_points=-5), press(1, 1500), press(0, 1510), press(3, 1520),
                Tick(2000 * MS), Wrong(2100 * MS))
    assert state.open is not None and state.open.front == 3
    state = run(state, Wrong(2200 * MS))
    assert state.phase is Phase.IDLE          # Owl seat 0 stays locked: its team already answered
    assert state.scores == (0, -5, 0, -5, 0, 0)
    assert state.team_scores == (("Owls", -5), ("Foxes", -5), ("Hares", 0))


def test_an_early_locked_seat_does_not_claim_its_team() -> None:
    settings = QuizSettings(seats=6, teams=TEAMS, mode=QuizMode.FIRST_PER_TEAM, early_lockout=True)
    state = run(new_quiz(settings), press(0, 500), Arm(1000 * MS), press(0, 1400), press(1, 1500),
                Tick(2000 * MS))
    assert line(state) == [(0, "Owls", Status.EARLY), (0, "Owls", Status.LOCKED),
                           (1, "Owls", Status.FRONT)]


def test_in_individual_play_a_teammate_answers_after_a_wrong_answer_and_points_add_up() -> None:
    settings = QuizSettings(seats=6, teams=TEAMS, wrong_points=-5)
    state = run(new_quiz(settings), Arm(1000 * MS), press(4, 1500), press(5, 1510), Tick(2000 * MS),
                Wrong(2100 * MS))
    assert line(state) == [(4, "Hares", Status.WRONG), (5, "Hares", Status.FRONT)]
    state = run(state, Right(2200 * MS), Arm(3000 * MS), press(2, 3100), Tick(3500 * MS),
                Right(3600 * MS))
    assert state.scores == (0, 0, 10, 0, -5, 10)
    assert state.team_scores == (("Owls", 0), ("Foxes", 10), ("Hares", 5))


def test_without_teams_there_are_no_team_scores_and_no_team_names() -> None:
    state = run(new_quiz(QuizSettings(seats=2)), Arm(0), press(1, 10), Tick(100 * MS))
    assert state.team_scores == () and line(state) == [(1, None, Status.FRONT)]


def test_teams_may_be_given_as_a_mapping_in_any_order() -> None:
    a = QuizSettings(seats=3, teams={2: "B", 0: "A", 1: "A"})  # type: ignore[arg-type]
    b = QuizSettings(seats=3, teams=((0, "A"), (1, "A"), (2, "B")))
    assert a == b and hash(a) == hash(b) and a.team_names == ("A", "B") and a.team_of(2) == "B"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mode": QuizMode.FIRST_PER_TEAM},
     r"^mode 'first-per-team' needs teams: give every seat 0 to 3 a team name, or use mode 'individual'$"),
    ({"teams": ((0, "A"), (1, "A"), (2, "B"))},
     r"^teams name seats \[0, 1, 2\]: give every seat 0 to 3 exactly one team$"),
    ({"teams": ((0, "A"), (0, "B"), (1, "A"), (2, "B"))}, r"^teams name seats \[0, 0, 1, 2\]"),
    ({"teams": ((0, "A"), (1, "A"), (2, "B"), (3, ""))}, r"^teams .* is not valid: give \(seat, team name\) pairs"),
    ({"teams": ((0, "A"), (1, "A"), (2, "B"), (3, 4))}, r"^teams .* is not valid"),
    ({"teams": "ABAB"}, r"^teams 'ABAB' is not valid"),
    ({"teams": ((0, "A"), (1, "A"), (2, "A"), (3, "A")), "mode": QuizMode.FIRST_PER_TEAM},
     r"^teams \('A',\) are one team: first-per-team needs at least two teams$"),
])
def test_teams_that_cannot_be_played_are_refused_by_name(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(BadConfig, match=message):
        QuizSettings(seats=4, **kwargs)  # type: ignore[arg-type]
