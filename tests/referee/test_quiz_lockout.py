"""The quiz-show lockout (game/referee/quiz.py): arming, ring-in order by stamp, right and
wrong, early presses, bounce, ties, shortcuts, refusals. Chosen timestamps, no clock."""

from __future__ import annotations

import re

import pytest

from game.controller.effects import Leds, Light, Notice, PlaySound, WakeAt
from game.errors import BadConfig, BadInputEvent, IllegalCommand, WrongPhase
from game.referee.quiz import (
    Arm, Phase, Press, QuizSettings, QuizState, Release, Reset, Right, Score, Skip, Status, Tick,
    Wrong, check, early_rows, new_quiz, ring_in_order, step,
)
from game.referee.quiz_inputs import QuizInput

MS = 1_000_000
SETTLE = 50 * MS + 100_000   # the default settle window plus the default tie resolution


def press(seat: int, t_ms: float) -> Press:
    return Press(seat, round(t_ms * MS), "monotonic")


def release(seat: int, t_ms: float) -> Release:
    return Release(seat, round(t_ms * MS), "monotonic")


def run(state: QuizState, *inputs: QuizInput) -> tuple[QuizState, list[object]]:
    effects: list[object] = []
    for event in inputs:
        state, fx = step(state, event)
        effects.extend(fx)
    return state, effects


def armed(settings: QuizSettings | None = None, at_ms: int = 1000) -> QuizState:
    state, _ = run(new_quiz(settings or QuizSettings()), Arm(at_ms * MS))
    return state


def seats_in_line(state: QuizState) -> list[tuple[int, Status]]:
    return [(row.seat, row.status) for row in ring_in_order(state) if row.status is not Status.EARLY]


def refusal(effects: tuple[object, ...]) -> str:
    notices = [e for e in effects if isinstance(e, Notice)]
    assert len(notices) == 1 and notices[0].message.key == "refused"
    return str(dict(notices[0].message.params)["reason"])


# --- arming and the first press -----------------------------------------------------------------

def test_arming_lights_every_seat_and_sounds_ready() -> None:
    state, fx = step(new_quiz(QuizSettings(seats=3)), Arm(1000 * MS))
    assert state.phase is Phase.ARMED and state.questions == 1
    assert PlaySound("ready") in fx
    assert Leds((Light.ARMED,) * 3, Light.OFF) in fx


def test_the_first_press_locks_everyone_out_and_its_seat_is_lit_once_settled() -> None:
    state = armed()
    state, fx = step(state, press(2, 1400))
    assert state.phase is Phase.SETTLING
    assert WakeAt(1400 * MS + SETTLE) in fx                       # the decision comes back as a tick
    assert Leds((Light.OFF,) * 4, Light.OFF) in fx                 # locked out: nobody glows
    state, fx = step(state, Tick(1400 * MS + SETTLE - 1))
    assert state.phase is Phase.SETTLING and fx == ()
    state, fx = step(state, Tick(1400 * MS + SETTLE))
    assert state.phase is Phase.ANSWERING and state.open is not None and state.open.front == 2
    assert PlaySound("seat_2") in fx
    assert Leds((Light.OFF, Light.OFF, Light.ON, Light.OFF), Light.OFF) in fx


def test_later_presses_join_the_line_in_stamp_order_with_their_gaps() -> None:
    state, _ = run(armed(), press(1, 1500), press(3, 1512.5), press(0, 1700), Tick(2000 * MS))
    rows = ring_in_order(state)
    assert [(r.seat, r.status) for r in rows] == [
        (1, Status.FRONT), (3, Status.WAITING), (0, Status.WAITING)]
    assert [r.since_arm_ns for r in rows] == [500 * MS, 512_500_000, 700 * MS]
    assert [r.gap_ns for r in rows] == [None, 12_500_000, 187_500_000]
    assert [r.tie for r in rows] == [False, False, False]


def test_an_earlier_stamped_press_arriving_second_within_the_settle_window_is_in_front() -> None:
    # Seat 3's press reaches us first, seat 1's 20 ms later, but seat 1 pressed 5 ms earlier.
    state, _ = run(armed(), press(3, 1500), Tick(1520 * MS), press(1, 1495), Tick(2000 * MS))
    assert seats_in_line(state) == [(1, Status.FRONT), (3, Status.WAITING)]


def test_a_press_arriving_after_the_front_was_decided_and_stamped_before_it_is_counted_late() -> None:
    state, _ = run(armed(), press(3, 1500), Tick(2000 * MS), press(1, 1490))
    assert seats_in_line(state) == [(3, Status.FRONT)]
    assert state.late == 1


def test_a_seat_rings_in_once_per_question() -> None:
    state, _ = run(armed(), press(1, 1500), release(1, 1600), press(1, 1700), press(2, 1800))
    assert seats_in_line(state) == [(1, Status.FRONT), (2, Status.WAITING)]


# --- right and wrong ------------------------------------------------------------------------------

def test_right_scores_the_seat_in_front_and_ends_the_question() -> None:
    state, _ = run(armed(), press(2, 1500), press(0, 1600), Tick(1700 * MS))
    state, fx = step(state, Right(3000 * MS))
    assert state.phase is Phase.IDLE and state.open is None
    assert state.scores == (0, 0, 10, 0)
    assert PlaySound("not_guilty") in fx
    assert Leds((Light.OFF, Light.OFF, Light.WINNER, Light.OFF), Light.ON) in fx
    assert state.last is not None and state.last.ended == "right" and state.last.right == 2
    assert seats_in_line(state) == [(2, Status.RIGHT), (0, Status.WAITING)]


def test_wrong_passes_to_the_next_in_line_without_re_arming() -> None:
    settings = QuizSettings(wrong_points=-5)
    state, _ = run(armed(settings), press(2, 1500), press(0, 1600), press(3, 1650), Tick(1700 * MS))
    state, fx = step(state, Wrong(3000 * MS))
    assert state.phase is Phase.ANSWERING and state.questions == 1
    assert state.open is not None and state.open.armed_t_ns == 1000 * MS
    assert state.open.front == 0 and state.scores == (0, 0, -5, 0)
    assert fx[:2] == (PlaySound("guilty"), PlaySound("seat_0"))
    assert seats_in_line(state) == [(2, Status.WRONG), (0, Status.FRONT), (3, Status.WAITING)]
    state, _ = run(state, Wrong(3100 * MS), Right(3200 * MS))
    assert state.scores == (-5, 0, -5, 10)


def test_wrong_with_nobody_left_in_line_ends_the_question() -> None:
    state, _ = run(armed(), press(1, 1500), Tick(1700 * MS), Wrong(2000 * MS))
    assert state.phase is Phase.IDLE
    assert state.last is not None and state.last.ended == "wrong" and state.last.wrong == (1,)
    # A press now is early for the next question: the host re-arms, Wrong never does.
    state, _ = run(state, press(2, 2100))
    assert state.phase is Phase.IDLE and [e.seat for e in state.early] == [2]


def test_a_press_after_a_wrong_answer_still_joins_the_line() -> None:
    state, _ = run(armed(), press(1, 1500), press(2, 1600), Tick(1700 * MS), Wrong(2000 * MS),
                   press(0, 2100))
    assert seats_in_line(state) == [(1, Status.WRONG), (2, Status.FRONT), (0, Status.WAITING)]


def test_skip_ends_the_question_with_nobody_scoring() -> None:
    state, _ = run(armed(), press(1, 1500), Tick(1700 * MS), Skip(1800 * MS))
    assert state.phase is Phase.IDLE and state.scores == (0, 0, 0, 0)
    assert state.last is not None and state.last.ended == "skip"


def test_reset_starts_a_new_quiz_with_the_same_settings() -> None:
    state, _ = run(armed(), press(1, 1500), Tick(1700 * MS), Right(1800 * MS), Arm(1900 * MS))
    state, _ = step(state, Reset(2000 * MS))
    assert state.phase is Phase.IDLE and state.scores == (0, 0, 0, 0) and state.questions == 0
    assert state.last is None and ring_in_order(state) == ()


# --- score shortcuts ------------------------------------------------------------------------------

def test_a_score_shortcut_credits_the_seat_in_front_and_re_arms() -> None:
    state, _ = run(armed(), press(3, 1500), Tick(1700 * MS))
    state, fx = step(state, Score(10, 2000 * MS))
    assert state.scores == (0, 0, 0, 10)
    assert state.phase is Phase.ARMED and state.questions == 2
    assert state.open is not None and state.open.armed_t_ns == 2000 * MS
    assert fx[:2] == (PlaySound("not_guilty"), PlaySound("ready"))
    state, _ = run(state, press(0, 2100), Tick(2500 * MS), Score(-5, 2600 * MS))
    assert state.scores == (-5, 0, 0, 10) and state.questions == 3
    assert state.last is not None and state.last.wrong == (0,) and state.last.right is None


def test_a_score_that_is_not_a_shortcut_is_refused() -> None:
    state, _ = run(armed(), press(3, 1500), Tick(1700 * MS))
    after, fx = step(state, Score(7, 2000 * MS))
    assert after is state
    assert refusal(fx) == "score shortcut +7 is not one of this quiz's: use +10, -5"
    with pytest.raises(IllegalCommand, match=r"score shortcut \+7 is not one of this quiz's: use \+10, -5"):
        check(state, Score(7, 2000 * MS))


# --- early presses ------------------------------------------------------------------------------

def test_a_press_before_arming_is_early_and_recorded() -> None:
    state, fx = run(new_quiz(QuizSettings()), press(1, 500))
    assert state.phase is Phase.IDLE and state.scores == (0, 0, 0, 0)
    assert not any(isinstance(e, PlaySound) for e in fx)   # no rule set: recorded, silent
    assert [(r.seat, r.status, r.since_arm_ns) for r in early_rows(state)] == [(1, Status.EARLY, None)]
    state, _ = run(state, Arm(1000 * MS), press(1, 1200), Tick(1500 * MS))
    rows = ring_in_order(state)
    assert [(r.seat, r.status, r.since_arm_ns) for r in rows] == [
        (1, Status.EARLY, -500 * MS), (1, Status.FRONT, 200 * MS)]


def test_an_early_press_costs_its_penalty_once_per_question() -> None:
    state, fx = run(new_quiz(QuizSettings(early_points=-3)), press(1, 500), release(1, 600),
                    press(1, 700))
    assert state.scores == (0, -3, 0, 0)
    assert fx.count(PlaySound("false_start")) == 1
    assert Leds((Light.OFF, Light.LOSER, Light.OFF, Light.OFF), Light.ON) in fx


def test_an_early_press_can_lock_the_seat_out_of_the_question() -> None:
    settings = QuizSettings(early_lockout=True)
    state, fx = run(new_quiz(settings), press(1, 500), Arm(1000 * MS))
    assert Leds((Light.ARMED, Light.LOSER, Light.ARMED, Light.ARMED), Light.OFF) in fx
    state, _ = run(state, press(1, 1100))
    assert state.phase is Phase.ARMED                       # a locked seat does not lock anyone out
    state, _ = run(state, press(2, 1200), Tick(1500 * MS))
    assert seats_in_line(state) == [(1, Status.LOCKED), (2, Status.FRONT)]
    state, _ = run(state, Wrong(1600 * MS))
    assert state.phase is Phase.IDLE                        # the locked seat never answers
    state, _ = run(state, Arm(2000 * MS), press(1, 2100), Tick(2500 * MS))
    assert seats_in_line(state) == [(1, Status.FRONT)]      # locked for that question only


def test_a_press_stamped_before_arming_that_arrives_after_it_is_early() -> None:
    state, _ = run(new_quiz(QuizSettings(early_points=-3)), Arm(1000 * MS), press(2, 990))
    assert state.scores == (0, 0, -3, 0) and state.phase is Phase.ARMED
    assert state.open is not None and [e.seat for e in state.open.early] == [2]


def test_a_press_stamped_before_the_question_ended_but_arriving_after_is_ignored() -> None:
    state, _ = run(armed(QuizSettings(early_points=-3)), press(1, 1500), Tick(1700 * MS),
                   Right(2000 * MS), press(2, 1990))
    assert state.scores == (0, 10, 0, 0) and state.early == () and state.stale == 1


def test_a_host_tap_takes_effect_no_earlier_than_a_press_already_counted() -> None:
    # The press is stamped after the Arm's own stamp but reached us first: it stays early.
    state, _ = run(new_quiz(QuizSettings()), press(1, 1005), Arm(1000 * MS))
    assert state.open is not None and state.open.armed_t_ns == 1005 * MS
    assert [e.seat for e in state.open.early] == [1]


# --- bounce ---------------------------------------------------------------------------------

def test_a_bounce_across_arming_does_not_ring_in() -> None:
    # An early press at 998 ms bounces (release 999, press 1001) as the host arms at 1000.
    state, _ = run(new_quiz(QuizSettings()), press(0, 998), Arm(1000 * MS), release(0, 999),
                   press(0, 1001), Tick(2000 * MS))
    assert state.phase is Phase.ARMED and seats_in_line(state) == []
    assert state.bounces == 2


def test_a_release_and_press_within_the_bounce_window_is_not_a_second_ring_in() -> None:
    state, _ = run(armed(), press(2, 1500), release(2, 1503), press(2, 1504), press(1, 1600),
                   Tick(1700 * MS))
    assert seats_in_line(state) == [(2, Status.FRONT), (1, Status.WAITING)]
    assert state.bounces == 2


# --- ties -----------------------------------------------------------------------------------

def test_ring_ins_within_the_resolution_are_a_tie_drawn_by_a_seeded_lot() -> None:
    picks = set()
    for seed in range(12):
        state, _ = run(new_quiz(QuizSettings(), seed=seed), Arm(1000 * MS),
                       Press(3, 1500 * MS, "monotonic"), Press(1, 1500 * MS + 40_000, "monotonic"),
                       Tick(2000 * MS))
        assert state.open is not None and state.open.lot == (1, 3)
        picks.add(state.open.front)
        again, _ = run(new_quiz(QuizSettings(), seed=seed), Arm(1000 * MS),
                       Press(1, 1500 * MS + 40_000, "monotonic"), Press(3, 1500 * MS, "monotonic"),
                       Tick(2000 * MS))
        assert again.open is not None and again.open.front == state.open.front   # a replay draws the same
        rows = ring_in_order(state)
        assert [r.seat for r in rows] == [3, 1] and rows[1].tie and rows[1].gap_ns == 40_000
    assert picks == {1, 3}   # never by seat number


# --- refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("before", "event", "error", "message"), [
    ((), Right(100), WrongPhase,
     r"^Right is not allowed in phase 'idle' \(no question is open, so nobody is in front\): "
     r"allowed now are Arm, Reset, presses and ticks$"),
    ((Arm(100),), Right(200), WrongPhase,
     r"^Right is not allowed in phase 'armed' \(question 1 is armed and nobody has rung in yet\)"),
    ((Arm(100),), Wrong(200), WrongPhase, r"^Wrong is not allowed in phase 'armed'"),
    ((Arm(100), Press(0, 150, "monotonic")), Right(200), WrongPhase,
     r"^Right is not allowed in phase 'settling' \(a ring-in on question 1 is settling: the seat in "
     r"front is decided 50.100 ms after the first press\)"),
    ((Arm(100),), Arm(200), WrongPhase,
     r"^Arm is not allowed in phase 'armed' \(question 1 is armed and nobody has rung in yet\): "
     r"allowed now are Skip, Reset, presses and ticks$"),
    ((Arm(100), Press(0, 150, "monotonic"), Tick(10**9)), Arm(10**9), WrongPhase,
     r"^Arm is not allowed in phase 'answering' \(seat 0 is in front on question 1\): "
     r"allowed now are Right, Wrong, Score, Skip, Reset, presses and ticks$"),
    ((), Skip(100), WrongPhase, r"^Skip is not allowed in phase 'idle'"),
    ((), Press(4, 100, "monotonic"), IllegalCommand,
     r"^press from seat 4 is not at this quiz: seats are 0 to 3$"),
    ((), Release(9, 100, "monotonic"), IllegalCommand,
     r"^release from seat 9 is not at this quiz: seats are 0 to 3$"),
    ((), Press(0, 100, "board"), IllegalCommand,
     r"^press on clock 'board' is not comparable: this quiz runs on clock 'monotonic'$"),
    ((), Tick(-1), BadInputEvent, r"^Tick t_ns -1 is not valid: use a whole number of nanoseconds"),
    ((), "arm", IllegalCommand, r"^input 'arm' is not a quiz input: use one of Press, Release, Tick"),
])
def test_an_invalid_input_is_refused_in_one_sentence_and_changes_nothing(
        before: tuple[QuizInput, ...], event: QuizInput, error: type[Exception], message: str) -> None:
    state, _ = run(new_quiz(QuizSettings()), *before)
    with pytest.raises(error, match=message):
        check(state, event)
    after, fx = step(state, event)
    assert after is state
    assert re.search(message, refusal(fx))
    host_tap = not isinstance(event, (Press, Release, Tick))  # the host hears a refused tap
    assert (PlaySound("refused") in fx) is host_tap


# --- records and settings -----------------------------------------------------------------------

@pytest.mark.parametrize(("make", "message"), [
    (lambda: Arm(-1), r"^Arm t_ns -1 is not valid: use a whole number of nanoseconds, 0 or more$"),
    (lambda: Right(1.5), r"^Right t_ns 1.5 is not valid"),
    (lambda: Wrong(True), r"^Wrong t_ns True is not valid"),
    (lambda: Skip(-3), r"^Skip t_ns -3 is not valid"),
    (lambda: Reset(None), r"^Reset t_ns None is not valid"),
    (lambda: Score(1.0, 5), r"^Score points 1.0 is not valid: use a whole number such as 10 or -5$"),
    (lambda: Score(10, -5), r"^Score t_ns -5 is not valid"),
])
def test_a_malformed_host_input_is_refused_when_made(make: object, message: str) -> None:
    with pytest.raises(BadInputEvent, match=message):
        make()  # type: ignore[operator]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"seats": 1}, r"^seats 1 is not valid: a quiz has 2 to 8 seats$"),
    ({"seats": 9}, r"^seats 9 is not valid: a quiz has 2 to 8 seats$"),
    ({"seats": True}, r"^seats True is not valid"),
    ({"mode": "individual"}, r"^mode 'individual' is not valid: use QuizMode.INDIVIDUAL or QuizMode.FIRST_PER_TEAM$"),
    ({"buzz_window_ms": -1}, r"^buzz_window_ms -1 is not valid: use a whole number, 0 or more$"),
    ({"answer_ms": 2.5}, r"^answer_ms 2.5 is not valid"),
    ({"resolution_ns": 0}, r"^resolution_ns 0 is not valid: use a whole number, 1 or more$"),
    ({"settle_ns": -1}, r"^settle_ns -1 is not valid"),
    ({"bounce_ns": None}, r"^bounce_ns None is not valid"),
    ({"clock": ""}, r"^clock '' is not valid: name the clock domain"),
    ({"early_lockout": 1}, r"^early_lockout 1 is not valid: use True or False$"),
    ({"right_points": 0}, r"^right_points 0 is not valid: use a whole number, 1 or more$"),
    ({"wrong_points": 5}, r"^wrong_points 5 is not valid: a penalty is a whole number, 0 or below \(e.g. -5\)$"),
    ({"early_points": 1}, r"^early_points 1 is not valid: a penalty"),
    ({"shortcuts": (10, 0)}, r"^shortcuts \(10, 0\) are not valid: give distinct whole numbers other than 0"),
    ({"shortcuts": (10, 10)}, r"^shortcuts \(10, 10\) are not valid"),
    ({"shortcuts": [10]}, r"^shortcuts \[10\] are not valid"),
])
def test_settings_that_cannot_be_played_are_refused_by_name(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(BadConfig, match=message):
        QuizSettings(**kwargs)  # type: ignore[arg-type]


# --- the record -----------------------------------------------------------------------------------

def test_a_session_logged_as_json_lines_replays_to_the_same_state() -> None:
    from game.codec import dumps, loads
    from game.referee.quiz_inputs import INPUT_TYPES

    session: list[QuizInput] = [
        press(3, 900), Arm(1000 * MS), press(2, 1500), press(0, 1490), Tick(1600 * MS),
        Wrong(2000 * MS), Right(2100 * MS), Arm(3000 * MS), press(1, 3100), Tick(3200 * MS),
        Score(-5, 3300 * MS), Skip(3400 * MS), Reset(4000 * MS), Arm(4100 * MS)]
    quiz = QuizSettings(early_points=-3, wrong_points=-5)
    played, _ = run(new_quiz(quiz, seed=5), *session)
    types = {t.__name__: t for t in INPUT_TYPES}
    lines = [dumps(event) for event in session]
    assert lines[0] == '{"type":"Press","player":3,"t_ns":900000000,"clock":"monotonic"}'
    replayed, _ = run(new_quiz(quiz, seed=5), *(loads(line, types) for line in lines))
    assert replayed == played
