"""Properties of the quiz lockout on random input: the line is the stamp order of first presses
whatever order the edges arrive in (within the adapters' settle bound); scores move only on
right, wrong, a shortcut, an early press's penalty or running out of answer time; wrong never
re-arms; a refused input changes nothing; how often the shell ticks changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import given, settings, strategies as st

from game.controller.effects import Notice
from game.referee.quiz import (
    Arm, Phase, Press, QuizMode, QuizSettings, QuizState, Release, Reset, Right, Score, Skip,
    Status, Tick, Wrong, new_quiz, ring_in_order, step,
)
from game.referee.quiz_inputs import QuizInput
from game.referee.quiz_line import valid

MS = 1_000_000
SETTLE = 50 * MS
BOUNCE = 25 * MS


# --- arrival order --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Timed:
    edge: Press | Release
    arrives_ns: int


@st.composite
def seat_edges(draw: st.DrawFn, seat: int) -> list[Timed]:
    """One seat's edges after arming at 0: presses and releases further apart than the bounce
    window, some with bounce bursts; each arrives within SETTLE of its stamp, in stamp order."""
    t = draw(st.integers(1, 400 * MS))
    edges: list[Press | Release] = []
    for _ in range(draw(st.integers(1, 3))):
        edges.append(Press(seat, t, "monotonic"))
        if draw(st.booleans()):  # contact bounce: up and down again within a few ms
            edges.append(Release(seat, t + 1 * MS, "monotonic"))
            edges.append(Press(seat, t + 2 * MS, "monotonic"))
        t += draw(st.integers(BOUNCE + 3 * MS, 200 * MS))
        edges.append(Release(seat, t, "monotonic"))
        t += draw(st.integers(BOUNCE, 200 * MS))
    timed: list[Timed] = []
    arrived = 0
    for edge in edges:
        # An adapter delivers a seat's edges in order, each within SETTLE of its stamp.
        arrived = max(arrived, edge.t_ns + draw(st.integers(0, SETTLE)))
        timed.append(Timed(edge, arrived))
    return timed


@st.composite
def races(draw: st.DrawFn) -> tuple[int, list[Timed]]:
    seats = draw(st.integers(2, 8))
    timed = [e for seat in range(seats) for e in draw(seat_edges(seat))]
    return seats, timed


def feed(settings_: QuizSettings, timed: list[Timed]) -> QuizState:
    """Arm at 0, then each edge as it arrives, with a tick at its arrival (the shell's clock)."""
    state, _ = step(new_quiz(settings_, seed=7), Arm(0))
    for item in timed:
        state, _ = step(state, Tick(item.arrives_ns))
        state, _ = step(state, item.edge)
    state, _ = step(state, Tick(10**12))
    return state


@settings(max_examples=300, deadline=None)
@given(races())
def test_the_line_is_the_stamp_order_of_first_presses_whatever_the_arrival_order(
        race: tuple[int, list[Timed]]) -> None:
    seats, timed = race
    quiz = QuizSettings(seats=seats)
    in_arrival = sorted(timed, key=lambda x: x.arrives_ns)
    state = feed(quiz, in_arrival)
    firsts = sorted((min(x.edge.t_ns for x in timed if x.edge.player == seat and isinstance(x.edge, Press)), seat)
                    for seat in range(seats))
    assert [(r.t_ns, r.seat) for r in ring_in_order(state)] == firsts
    # The same edges in stamp order, as if nothing had been delayed, give the same state.
    in_stamp_order = sorted(timed, key=lambda x: x.edge.t_ns)
    same = feed(quiz, [Timed(x.edge, x.edge.t_ns) for x in in_stamp_order])
    assert same == state
    # The seat in front pressed first, or within the resolution of the first (then by lot).
    assert state.open is not None and state.open.front is not None
    front_t = next(t for t, seat in firsts if seat == state.open.front)
    assert front_t - firsts[0][0] < quiz.resolution_ns
    assert state.late == 0 and state.stale == 0


# --- random sessions --------------------------------------------------------------------------------

PRIMITIVE = st.one_of(
    st.tuples(st.just("press"), st.integers(0, 7), st.integers(0, 300 * MS)),
    st.tuples(st.just("release"), st.integers(0, 7), st.integers(0, 300 * MS)),
    st.tuples(st.just("tick"), st.just(0), st.integers(0, 4000 * MS)),
    st.tuples(st.sampled_from(["arm", "right", "wrong", "skip", "reset", "score+", "score-"]),
              st.just(0), st.integers(0, 2000 * MS)),
)
TAPS = st.tuples(st.sampled_from(["right", "wrong", "wrong", "score+", "score-", "skip"]),
                 st.just(0), st.integers(0, 4000 * MS))
# A question as a host runs it (arm, presses, a tick past the settle window, taps), so random
# sessions reach answering, wrong answers and the line running out, not only refusals.
QUESTION = st.tuples(
    st.tuples(st.just("arm"), st.just(0), st.integers(0, 3000 * MS)),
    st.lists(st.tuples(st.sampled_from(["press", "release"]), st.integers(0, 7), st.integers(0, 100 * MS)),
             max_size=10),
    st.tuples(st.just("tick"), st.just(0), st.integers(60 * MS, 200 * MS)),
    st.lists(TAPS, max_size=4),
).map(lambda q: [q[0], *q[1], q[2], *q[3]])
ACTIONS = st.lists(st.one_of(PRIMITIVE.map(lambda a: [a]), QUESTION), max_size=12).map(
    lambda blocks: [a for block in blocks for a in block])


QUIZZES = st.builds(
    QuizSettings,
    seats=st.just(6),
    teams=st.sampled_from([(), tuple((s, "AB"[s % 2]) for s in range(6)),
                           tuple((s, "XYZ"[s // 2]) for s in range(6))]),
    buzz_window_ms=st.sampled_from([0, 2000]),
    answer_ms=st.sampled_from([0, 3000]),
    wrong_points=st.sampled_from([0, -5]),
    early_points=st.sampled_from([0, -3]),
    early_lockout=st.booleans(),
)


def first_per_team_or_not(quiz: QuizSettings, team_mode: bool) -> QuizSettings:
    if team_mode and quiz.teams:
        return replace(quiz, mode=QuizMode.FIRST_PER_TEAM)
    return quiz


def inputs_of(quiz: QuizSettings, actions: list[tuple[str, int, int]]) -> list[QuizInput]:
    t = 0
    out: list[QuizInput] = []
    for kind, seat, dt in actions:
        t += dt
        seat %= quiz.seats
        if kind == "press":
            out.append(Press(seat, t, "monotonic"))
        elif kind == "release":
            out.append(Release(seat, t, "monotonic"))
        elif kind == "tick":
            out.append(Tick(t))
        elif kind == "arm":
            out.append(Arm(t))
        elif kind == "right":
            out.append(Right(t))
        elif kind == "wrong":
            out.append(Wrong(t))
        elif kind == "skip":
            out.append(Skip(t))
        elif kind == "reset":
            out.append(Reset(t))
        else:
            out.append(Score(10 if kind == "score+" else -5, t))
    return out


def check_invariants(state: QuizState) -> None:
    s = state.settings
    assert (state.open is None) == (state.phase is Phase.IDLE)
    q = state.open
    if q is None:
        return
    stamps = [(r.t_ns, r.seat) for r in q.ring_ins]
    assert stamps == sorted(stamps) and len({r.seat for r in q.ring_ins}) == len(q.ring_ins)
    assert all(r.t_ns >= q.armed_t_ns for r in q.ring_ins)
    assert all(e.t_ns <= q.armed_t_ns for e in q.early)  # equal: it reached us before the Arm
    fronts = [r for r in ring_in_order(state) if r.status is Status.FRONT]
    if state.phase is Phase.ANSWERING:
        assert q.front is not None and [r.seat for r in fronts] == [q.front]
        assert q.front in {r.seat for r in valid(s, q)} and q.front not in q.wrong
    else:
        assert q.front is None and fronts == []
    if state.phase is Phase.SETTLING:
        assert valid(s, q)
    if s.mode is QuizMode.FIRST_PER_TEAM:
        teams = [s.team_of(r.seat) for r in valid(s, q)]
        assert len(teams) == len(set(teams))


def deltas(before: QuizState, after: QuizState) -> dict[int, int]:
    return {seat: new - old for seat, (old, new) in enumerate(zip(before.scores, after.scores)) if new != old}


@settings(max_examples=400, deadline=None)
@given(QUIZZES, st.booleans(), ACTIONS)
def test_scores_move_only_on_answers_shortcuts_and_early_penalties_and_wrong_never_re_arms(
        quiz: QuizSettings, team_mode: bool, actions: list[tuple[str, int, int]]) -> None:
    quiz = first_per_team_or_not(quiz, team_mode)
    state = new_quiz(quiz, seed=3)
    for event in inputs_of(quiz, actions):
        # Time first, as step does (a tick at the input's time: how often the shell ticks
        # changes nothing, tested below): only running out of answer time moves scores then.
        before = state
        state, _ = step(state, Tick(event.t_ns))
        check_invariants(state)
        timed_out = deltas(before, state)
        assert not timed_out or (quiz.answer_ms and set(timed_out.values()) == {quiz.wrong_points})
        if timed_out:
            assert state.questions == before.questions
        before = state
        state, fx = step(state, event)
        check_invariants(state)
        if any(isinstance(e, Notice) and e.message.key == "refused" for e in fx):
            assert state is before                      # a refused input changes nothing
            continue
        changed = deltas(before, state)
        front = before.open.front if before.open is not None else None
        if isinstance(event, Right):
            assert front is not None and changed == {front: quiz.right_points}
        elif isinstance(event, Score):
            assert front is not None and changed == {front: event.points}
        elif isinstance(event, Wrong):
            assert front is not None and changed == ({front: quiz.wrong_points} if quiz.wrong_points else {})
        elif isinstance(event, Reset):
            assert state.scores == (0,) * quiz.seats
        elif isinstance(event, Press):
            assert changed in ({}, {event.player: quiz.early_points})
            if changed:
                early = state.open.early if state.open is not None else state.early
                assert event.player in {e.seat for e in early}
        else:
            assert changed == {}                        # Arm, Skip, Release, Tick
        if isinstance(event, Wrong):
            assert state.questions == before.questions
            assert state.phase in (Phase.ANSWERING, Phase.IDLE)
            if state.open is not None:
                assert before.open is not None and state.open.armed_t_ns == before.open.armed_t_ns
                assert set(before.open.wrong) < set(state.open.wrong)
                assert state.open.ring_ins == before.open.ring_ins   # nobody new may answer
        if state.questions > before.questions:
            assert isinstance(event, (Arm, Score))      # only the host arms


@settings(max_examples=300, deadline=None)
@given(QUIZZES, ACTIONS, st.data())
def test_extra_ticks_between_inputs_change_nothing(
        quiz: QuizSettings, actions: list[tuple[str, int, int]], data: st.DataObject) -> None:
    inputs = inputs_of(quiz, actions)
    plain = new_quiz(quiz)
    for event in inputs:
        plain, _ = step(plain, event)
    ticked = new_quiz(quiz)
    last_t = 0
    for event in inputs:
        # Ticks at any times between the previous input and this one (the shell's frame rate).
        for t in sorted(data.draw(st.lists(st.integers(last_t, event.t_ns), max_size=3))):
            ticked, _ = step(ticked, Tick(t))
        ticked, _ = step(ticked, event)
        last_t = event.t_ns
    # A refused input leaves even the clock where it was: bring both to the last input's time.
    assert step(ticked, Tick(last_t))[0] == step(plain, Tick(last_t))[0]
