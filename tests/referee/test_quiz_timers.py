"""The quiz's timers: the buzz window after arming and the answer timer after a buzz end through
ticks (the shell sends one at each WakeAt), at their own deadline whatever tick notices them."""

from __future__ import annotations

from game.controller.effects import PlaySound, WakeAt
from game.referee.quiz import (
    Arm, Phase, Press, QuizSettings, QuizState, Right, Status, Tick, Wrong, new_quiz,
    next_deadline_t_ns, ring_in_order, step,
)
from game.referee.quiz_inputs import QuizInput

MS = 1_000_000
SETTLE = 50 * MS                      # the default settle window
DECIDE = SETTLE + 100_000             # ... plus the default tie resolution


def press(seat: int, t_ms: int) -> Press:
    return Press(seat, t_ms * MS, "monotonic")


def run(state: QuizState, *inputs: QuizInput) -> tuple[QuizState, list[object]]:
    effects: list[object] = []
    for event in inputs:
        state, fx = step(state, event)
        effects.extend(fx)
    return state, effects


def line(state: QuizState) -> list[tuple[int, Status]]:
    return [(r.seat, r.status) for r in ring_in_order(state)]


# --- the buzz window ----------------------------------------------------------------------------

def test_arming_asks_for_a_tick_when_the_buzz_window_has_surely_ended() -> None:
    state, fx = run(new_quiz(QuizSettings(buzz_window_ms=5000)), Arm(1000 * MS))
    assert WakeAt(6000 * MS + SETTLE) in fx
    assert state.buzz_deadline_t_ns == 6000 * MS


def test_nobody_ringing_in_within_the_window_ends_the_question_a_settle_window_after_it() -> None:
    state, _ = run(new_quiz(QuizSettings(buzz_window_ms=5000)), Arm(1000 * MS))
    state, fx = step(state, Tick(6000 * MS + SETTLE - 1))
    assert state.phase is Phase.ARMED and fx == ()
    state, fx = step(state, Tick(6000 * MS + SETTLE))
    assert state.phase is Phase.IDLE and PlaySound("round_over") in fx
    assert state.last is not None and state.last.ended == "window" and state.buzz_deadline_t_ns is None


def test_the_window_ends_at_its_deadline_however_late_the_tick_comes() -> None:
    state, _ = run(new_quiz(QuizSettings(buzz_window_ms=5000)), Arm(1000 * MS), Tick(60_000 * MS))
    assert state.last is not None and state.last.closed_t_ns == 6000 * MS + SETTLE
    # A press stamped after that close is early for the next question, not a lost ring-in.
    state, _ = run(state, press(1, 7000))
    assert [e.seat for e in state.early] == [1]


def test_a_press_stamped_inside_the_window_that_arrives_after_it_still_rings_in() -> None:
    state, _ = run(new_quiz(QuizSettings(buzz_window_ms=5000)), Arm(1000 * MS),
                   Tick(6000 * MS + SETTLE - MS), press(2, 5990), Tick(7000 * MS))
    assert state.phase is Phase.ANSWERING and line(state) == [(2, Status.FRONT)]


def test_a_press_after_the_window_is_not_a_ring_in() -> None:
    state, _ = run(new_quiz(QuizSettings(buzz_window_ms=5000)), Arm(1000 * MS), press(1, 5000),
                   press(3, 6010), Tick(7000 * MS))
    assert line(state) == [(1, Status.FRONT)] and state.after_window == 1
    # Even once someone rang in, the window is when ring-ins count; and it never ends a
    # question that someone rang in to.
    assert state.phase is Phase.ANSWERING


# --- the answer timer ---------------------------------------------------------------------------

def test_the_answer_timer_runs_from_the_buzz_and_asks_for_a_tick() -> None:
    state, fx = run(new_quiz(QuizSettings(answer_ms=3000)), Arm(1000 * MS), press(0, 1500),
                    Tick(1500 * MS + DECIDE))
    assert WakeAt(4500 * MS) in fx
    assert state.answer_deadline_t_ns == 4500 * MS


def test_running_out_of_answer_time_is_a_wrong_answer_and_the_next_in_line_gets_a_fresh_timer() -> None:
    settings = QuizSettings(answer_ms=3000, wrong_points=-5)
    state, _ = run(new_quiz(settings), Arm(1000 * MS), press(0, 1500), press(2, 1600),
                   Tick(2000 * MS))
    state, fx = step(state, Tick(4500 * MS))
    assert line(state) == [(0, Status.WRONG), (2, Status.FRONT)]
    assert state.scores == (-5, 0, 0, 0)
    assert fx[:3] == (PlaySound("guilty"), PlaySound("seat_2"), WakeAt(7500 * MS))
    assert state.answer_deadline_t_ns == 7500 * MS
    state, _ = run(state, Tick(7499 * MS), Right(7499 * MS))
    assert state.scores == (-5, 0, 10, 0)


def test_a_late_tick_times_out_each_seat_at_its_own_deadline() -> None:
    state, _ = run(new_quiz(QuizSettings(answer_ms=3000)), Arm(1000 * MS), press(0, 1500),
                   press(2, 1600), press(1, 1700), Tick(60_000 * MS))
    assert state.phase is Phase.IDLE
    assert state.last is not None and state.last.wrong == (0, 2, 1)
    assert state.last.ended == "wrong" and state.last.closed_t_ns == (1500 + 3 * 3000) * MS


def test_a_wrong_tap_restarts_the_timer_for_the_next_in_line() -> None:
    state, _ = run(new_quiz(QuizSettings(answer_ms=3000)), Arm(1000 * MS), press(0, 1500),
                   press(2, 1600), Tick(2000 * MS), Wrong(2500 * MS))
    assert state.answer_deadline_t_ns == 5500 * MS


def test_a_right_answer_before_the_deadline_stops_the_timer() -> None:
    state, _ = run(new_quiz(QuizSettings(answer_ms=3000)), Arm(1000 * MS), press(0, 1500),
                   Tick(2000 * MS), Right(4000 * MS), Tick(60_000 * MS))
    assert state.scores == (10, 0, 0, 0) and state.answer_deadline_t_ns is None


def test_without_timers_nothing_ends_by_itself() -> None:
    state, fx = run(new_quiz(QuizSettings()), Arm(1000 * MS), Tick(10**15))
    assert state.phase is Phase.ARMED and not any(isinstance(e, WakeAt) for e in fx)
    state, _ = run(state, press(1, 10**9 + 1), Tick(10**16))
    assert state.phase is Phase.ANSWERING and state.answer_deadline_t_ns is None


def test_the_next_deadline_is_what_the_last_wake_at_asked_for() -> None:
    quiz = QuizSettings(buzz_window_ms=5000, answer_ms=3000)
    state, fx = run(new_quiz(quiz), Arm(1000 * MS))
    assert next_deadline_t_ns(state) == 6000 * MS + SETTLE and WakeAt(6000 * MS + SETTLE) in fx
    state, fx = run(state, press(1, 1500))
    assert next_deadline_t_ns(state) == 1500 * MS + DECIDE and WakeAt(1500 * MS + DECIDE) in fx
    state, fx = run(state, Tick(2000 * MS))
    assert next_deadline_t_ns(state) == 4500 * MS and WakeAt(4500 * MS) in fx
    state, _ = run(state, Right(2500 * MS))
    assert next_deadline_t_ns(state) is None
