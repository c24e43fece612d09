"""The quiz-show lockout: ``step(state, input) -> (state, effects)``, pure.

The host arms; the first valid press locks everyone out and lights that seat; every later
press joins the line in stamp order; the host marks right (points, the question ends) or wrong
(penalty, the next in line answers without re-arming; nobody left: the question ends). A press
before arming is early. The buzz window and the answer timer run on the input stamps and end
through ``Tick`` (the shell sends one at each ``WakeAt``).

Order is fixed by hardware stamps, never by arrival: edges of different seats may arrive in any
order within ``settle_ns`` of their stamps (the adapters' delivery bound), so the seat in front
is decided only ``resolution_ns + settle_ns`` after the first valid ring-in, when every press
that could tie or beat it has arrived. A ring-in that arrives later than that and is stamped
before a seat already put in front is counted as ``late`` and not put in line: the host has
already heard that seat, and an adapter breaking its bound is reported, not obeyed. Each seat's
own edges arrive in stamp order (every adapter stamps a seat in order).

Timers fire at their deadline's time, not at the tick that notices them, so the outcome does not
depend on how often the shell ticks. A host input takes effect at the later of its stamp and
the latest time already seen, so every press already counted stays on the side of it where it
was counted.

Refusals follow the table controller: ``step`` never raises on an input the room can send at a
bad moment; it returns the state unchanged with a ``Notice`` saying why in one sentence (and
the refused sound for a host tap). :func:`check` raises that same error, for tests and callers
that want it.
"""

from __future__ import annotations

from dataclasses import replace

from game.controller.effects import Effect, Leds, Light, Notice, PlaySound, WakeAt
from game.errors import BadInputEvent, GameError, IllegalCommand, WrongPhase
from game.judge import format_ms
from game.messages import Message

from .quiz_inputs import INPUT_TYPES, Arm, Press, QuizInput, Release, Reset, Right, Score, Skip, Tick, Wrong
from .quiz_line import RingInRow, Status, early_locked, early_rows, next_in_line, ring_in_order, valid
from .quiz_settings import QuizMode, QuizSettings
from .quiz_state import Phase, Question, QuizState, Stamp, new_quiz

# The sounds the quiz names (all in sounds/ and game/app/ui/synth.py); a ring-in plays the
# seat's own tone, f"seat_{n}".
SOUND_ARMED = "ready"
SOUND_RIGHT = "not_guilty"
SOUND_WRONG = "guilty"
SOUND_CLOSED = "round_over"     # the buzz window ended with nobody in
SOUND_EARLY = "false_start"     # an early press that costs points or locks the seat out
SOUND_REFUSED = "refused"

#: What each phase allows; everything else is refused naming the input and the phase.
ALLOWED: dict[Phase, tuple[type, ...]] = {
    Phase.IDLE: (Press, Release, Tick, Arm, Reset),
    Phase.ARMED: (Press, Release, Tick, Skip, Reset),
    Phase.SETTLING: (Press, Release, Tick, Skip, Reset),
    Phase.ANSWERING: (Press, Release, Tick, Right, Wrong, Score, Skip, Reset),
}

Steps = tuple[QuizState, tuple[Effect, ...]]


def step(state: QuizState, event: QuizInput) -> Steps:
    """Apply one input: the new state and the effects for the shell. A refused input leaves the
    state unchanged and says why (a ``Notice`` with message key "refused")."""
    try:
        new, effects = _apply(state, event)
    except GameError as exc:
        refusal: list[Effect] = [Notice(Message.of("refused", reason=str(exc)))]
        if not isinstance(event, (Press, Release, Tick)):
            refusal.append(PlaySound(SOUND_REFUSED))  # the host tapped: say so out loud
        return state, tuple(refusal)
    lights = leds(new)
    if lights != leds(state):
        effects.append(lights)
    return new, tuple(effects)


def check(state: QuizState, event: QuizInput) -> None:
    """Raise the error ``step`` would refuse ``event`` with; return None if it is accepted."""
    _apply(state, event)


# --- one input --------------------------------------------------------------------------------

def _apply(state: QuizState, event: QuizInput) -> tuple[QuizState, list[Effect]]:
    _check_record(state.settings, event)
    fx: list[Effect] = []
    state = _advance(state, max(state.now_t_ns, event.t_ns), fx)
    _check_phase(state, event)
    at = state.now_t_ns  # a host input takes effect no earlier than anything already seen
    if isinstance(event, Press):
        state = _press(state, event, fx)
    elif isinstance(event, Release):
        state = _release(state, event)
    elif isinstance(event, Arm):
        state = _arm(state, at, fx)
    elif isinstance(event, Right):
        state = _credit(state, state.settings.right_points, at, "right", fx)
    elif isinstance(event, Wrong):
        state = _wrong(state, at, fx)
    elif isinstance(event, Score):
        state = _credit(state, event.points, at, "score", fx)
        state = _arm(state, at, fx)
    elif isinstance(event, Skip):
        state = _close(state, "skip", at)
    elif isinstance(event, Reset):
        state = replace(new_quiz(state.settings, state.seed, at), edges=state.edges)
    # Deadlines already due (a settle window of 0, an answer time shorter than the settle).
    return _advance(state, state.now_t_ns, fx), fx


def _check_record(settings: QuizSettings, event: object) -> None:
    if not isinstance(event, INPUT_TYPES):
        names = ", ".join(t.__name__ for t in INPUT_TYPES)
        raise IllegalCommand(f"input {event!r} is not a quiz input: use one of {names}")
    t_ns = getattr(event, "t_ns")
    if type(t_ns) is not int or t_ns < 0:
        raise BadInputEvent(f"{type(event).__name__} t_ns {t_ns!r} is not valid: use a whole number of nanoseconds, 0 or more")
    if isinstance(event, (Press, Release)):
        what = "press" if isinstance(event, Press) else "release"
        if event.clock != settings.clock:
            raise IllegalCommand(f"{what} on clock {event.clock!r} is not comparable: this quiz "
                                 f"runs on clock {settings.clock!r}")
        if event.player >= settings.seats:
            raise IllegalCommand(f"{what} from seat {event.player!r} is not at this quiz: "
                                 f"seats are 0 to {settings.seats - 1}")
    if isinstance(event, Score) and event.points not in settings.shortcuts:
        shortcuts = ", ".join(f"{p:+d}" for p in settings.shortcuts)
        raise IllegalCommand(f"score shortcut {event.points:+d} is not one of this quiz's: use {shortcuts}")


def _check_phase(state: QuizState, event: QuizInput) -> None:
    allowed = ALLOWED[state.phase]
    if isinstance(event, allowed):
        return
    q = state.open
    if state.phase is Phase.IDLE or q is None:
        why = "no question is open, so nobody is in front"
    elif state.phase is Phase.ARMED:
        why = f"question {q.number} is armed and nobody has rung in yet"
    elif state.phase is Phase.SETTLING:
        wait = format_ms(state.settings.settle_ns + state.settings.resolution_ns)
        why = f"a ring-in on question {q.number} is settling: the seat in front is decided {wait} after the first press"
    else:
        why = f"seat {q.front} is in front on question {q.number}"
    hosts = ", ".join(t.__name__ for t in allowed if t not in (Press, Release, Tick))
    raise WrongPhase(f"{type(event).__name__} is not allowed in phase {state.phase.value!r} "
                     f"({why}): allowed now are {hosts}, presses and ticks")


# --- time -------------------------------------------------------------------------------------

def _advance(state: QuizState, to_t_ns: int, fx: list[Effect]) -> QuizState:
    """Fire every deadline up to ``to_t_ns``, each at its own time, then move the clock there."""
    while True:
        due = _deadline(state)
        if due is None or due[0] > to_t_ns:
            return replace(state, now_t_ns=max(state.now_t_ns, to_t_ns))
        t, what = due
        state = replace(state, now_t_ns=max(state.now_t_ns, t))
        if what == "settle":
            state = _decide_front(state, t, fx)
        elif what == "window":
            fx.append(PlaySound(SOUND_CLOSED))
            state = _close(state, "window", t)
        else:
            state = _wrong(state, t, fx)  # out of answer time counts as a wrong answer


def next_deadline_t_ns(state: QuizState) -> int | None:
    """When the next timer (settle window, buzz window, answer time) is due, or None: the shell
    ticks then. Every ``WakeAt`` says the same when it is made; this is for a shell that starts
    from a state it did not step to (a resumed log)."""
    due = _deadline(state)
    return None if due is None else due[0]


def _deadline(state: QuizState) -> tuple[int, str] | None:
    q = state.open
    s = state.settings
    if q is None:
        return None
    if state.phase is Phase.SETTLING:
        first = valid(s, q)
        if not first:
            return (state.now_t_ns, "settle")  # nobody valid any more: _decide_front re-opens
        return (first[0].t_ns + s.resolution_ns + s.settle_ns, "settle")
    if state.phase is Phase.ARMED and s.buzz_window_ns:
        # Nobody rang in by the window's end: decided a settle later, as a press stamped in
        # time may still be on its way.
        return (q.armed_t_ns + s.buzz_window_ns + s.settle_ns, "window")
    deadline = state.answer_deadline_t_ns
    return None if deadline is None else (deadline, "answer")


# --- buttons ----------------------------------------------------------------------------------

def _release(state: QuizState, release: Release) -> QuizState:
    seat = release.player
    if _bounce(state, seat, release.t_ns):
        return replace(state, bounces=state.bounces + 1)
    return _set_edge(state, seat, release.t_ns)


def _press(state: QuizState, press: Press, fx: list[Effect]) -> QuizState:
    seat, t = press.player, press.t_ns
    if _bounce(state, seat, t):
        return replace(state, bounces=state.bounces + 1)
    state = _set_edge(state, seat, t)
    if t < state.closed_t_ns:
        return replace(state, stale=state.stale + 1)
    q = state.open
    if q is None or t < q.armed_t_ns:
        return _early(state, Stamp(seat, t), fx)
    return _ring_in(state, q, Stamp(seat, t), fx)


def _bounce(state: QuizState, seat: int, t_ns: int) -> bool:
    """True if the edge is within ``bounce_ns`` of the seat's last counted edge (or older than
    it, which no adapter sends): the first edge counts with its own time, the rest is bounce."""
    last = state.edges[seat]
    return last is not None and t_ns - last < state.settings.bounce_ns


def _set_edge(state: QuizState, seat: int, t_ns: int) -> QuizState:
    edges = list(state.edges)
    edges[seat] = t_ns
    return replace(state, edges=tuple(edges))


def _early(state: QuizState, stamp: Stamp, fx: list[Effect]) -> QuizState:
    """A press before arming: kept (the seat's first per question only, so a button mashed
    before arming cannot grow the state); the penalty applies once per question."""
    q = state.open
    early = q.early if q is not None else state.early
    if any(e.seat == stamp.seat for e in early):
        return state
    early = tuple(sorted(early + (stamp,), key=lambda e: (e.t_ns, e.seat)))
    s = state.settings
    if s.early_points or s.early_lockout:
        fx.append(PlaySound(SOUND_EARLY))
    state = _add_points(state, stamp.seat, s.early_points)
    if q is not None:
        return replace(state, open=replace(q, early=early))
    return replace(state, early=early)


def _ring_in(state: QuizState, q: Question, stamp: Stamp, fx: list[Effect]) -> QuizState:
    s = state.settings
    if s.buzz_window_ns and stamp.t_ns >= q.armed_t_ns + s.buzz_window_ns:
        return replace(state, after_window=state.after_window + 1)
    if any(r.seat == stamp.seat for r in q.ring_ins):
        return state  # a seat rings in once per question; pressing again changes nothing
    if q.front_stamp_ns is not None and stamp.t_ns < q.front_stamp_ns:
        return replace(state, late=state.late + 1)
    q = replace(q, ring_ins=tuple(sorted(q.ring_ins + (stamp,), key=lambda r: (r.t_ns, r.seat))))
    state = replace(state, open=q)
    if state.phase in (Phase.ARMED, Phase.SETTLING) and valid(s, q):
        before = _deadline(state) if state.phase is Phase.SETTLING else None
        state = replace(state, phase=Phase.SETTLING)  # everyone is locked out from now on
        due = _deadline(state)
        if due is not None and due != before:
            fx.append(WakeAt(due[0]))
    return state


# --- the line ---------------------------------------------------------------------------------

def _decide_front(state: QuizState, at_t_ns: int, fx: list[Effect]) -> QuizState:
    q = state.open
    assert q is not None
    pick, lot = next_in_line(state.settings, q, state.seed)
    if pick is None:
        return replace(state, phase=Phase.ARMED)
    # The first answer's time runs from its buzz, not from the end of the settle window.
    return _put_in_front(state, q, pick, lot, pick.t_ns, fx)


def _put_in_front(state: QuizState, q: Question, pick: Stamp, lot: tuple[int, ...],
                  from_t_ns: int, fx: list[Effect]) -> QuizState:
    stamp = pick.t_ns if q.front_stamp_ns is None else max(q.front_stamp_ns, pick.t_ns)
    q = replace(q, front=pick.seat, front_t_ns=from_t_ns, front_stamp_ns=stamp, lot=lot)
    fx.append(PlaySound(f"seat_{pick.seat}"))
    if state.settings.answer_ns:
        fx.append(WakeAt(from_t_ns + state.settings.answer_ns))
    return replace(state, phase=Phase.ANSWERING, open=q)


def _wrong(state: QuizState, at_t_ns: int, fx: list[Effect]) -> QuizState:
    """The seat in front is wrong: its penalty; the next in line answers, else the question ends.
    Never re-arms: only seats that already rang in can answer."""
    q = state.open
    assert q is not None and q.front is not None
    seat = q.front
    state = _add_points(state, seat, state.settings.wrong_points)
    fx.append(PlaySound(SOUND_WRONG))
    q = replace(q, front=None, front_t_ns=None, wrong=q.wrong + (seat,), lot=())
    state = replace(state, open=q)
    pick, lot = next_in_line(state.settings, q, state.seed)
    if pick is None:
        return _close(state, "wrong", at_t_ns)
    return _put_in_front(state, q, pick, lot, at_t_ns, fx)


def _credit(state: QuizState, points: int, at_t_ns: int, how: str, fx: list[Effect]) -> QuizState:
    """``points`` to the seat in front and the question ends; a negative shortcut marks the seat
    wrong on the record rather than right."""
    q = state.open
    assert q is not None and q.front is not None
    seat = q.front
    state = _add_points(state, seat, points)
    fx.append(PlaySound(SOUND_RIGHT if points > 0 else SOUND_WRONG))
    if points > 0:
        state = replace(state, open=replace(q, right=seat))
    else:
        state = replace(state, open=replace(q, wrong=q.wrong + (seat,)))
    return _close(state, how, at_t_ns)


def _close(state: QuizState, how: str, at_t_ns: int) -> QuizState:
    """The open question ends at ``at_t_ns``: presses stamped before it belong to it, presses
    from it on are early for the next question."""
    q = state.open
    assert q is not None
    done = replace(q, ended=how, closed_t_ns=at_t_ns, front=None, front_t_ns=None)
    return replace(state, phase=Phase.IDLE, open=None, last=done, closed_t_ns=at_t_ns, early=())


def _arm(state: QuizState, at_t_ns: int, fx: list[Effect]) -> QuizState:
    number = state.questions + 1
    q = Question(number=number, armed_t_ns=at_t_ns, early=state.early)
    fx.append(PlaySound(SOUND_ARMED))
    s = state.settings
    if s.buzz_window_ns:
        fx.append(WakeAt(at_t_ns + s.buzz_window_ns + s.settle_ns))
    return replace(state, phase=Phase.ARMED, questions=number, open=q, early=())


def _add_points(state: QuizState, seat: int, points: int) -> QuizState:
    if not points:
        return state
    scores = list(state.scores)
    scores[seat] += points
    return replace(state, scores=tuple(scores))


# --- lights -----------------------------------------------------------------------------------

def leds(state: QuizState) -> Leds:
    """Every seat's light: armed seats glow, the seat in front is on, a seat locked out by an
    early press pulses, the last right answer blinks until the next arming. The host's (the
    Caught!) button is lit while it can arm."""
    s = state.settings
    lights = [Light.OFF] * s.seats
    q = state.open
    if q is None:
        last = state.last
        if last is not None and last.ended in ("right", "score") and last.right is not None:
            lights[last.right] = Light.WINNER
        if s.early_points or s.early_lockout:
            for e in state.early:
                lights[e.seat] = Light.LOSER
        return Leds(tuple(lights), Light.ON)
    locked = early_locked(s, q)
    if state.phase is Phase.ARMED:
        for seat in range(s.seats):
            lights[seat] = Light.ARMED
    for seat in locked:
        lights[seat] = Light.LOSER
    if q.front is not None:
        lights[q.front] = Light.ON
    return Leds(tuple(lights), Light.OFF)


__all__ = [
    "ALLOWED", "Arm", "Phase", "Press", "Question", "QuizInput", "QuizMode", "QuizSettings",
    "QuizState", "Release", "Reset", "Right", "RingInRow", "Score", "Skip", "Stamp", "Status",
    "Steps", "Tick", "Wrong", "check", "early_rows", "leds", "new_quiz", "next_deadline_t_ns",
    "ring_in_order", "step",
]
