"""Who may answer, in what order: the line of ring-ins with each one's status, and the view of
it the screen draws. Pure functions of the settings and a question."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from .quiz_settings import QuizMode, QuizSettings
from .quiz_state import Question, QuizState, Stamp


class Status(enum.Enum):
    FRONT = "in front"     # answering now
    WAITING = "waiting"    # rang in; answers if everyone before is wrong
    WRONG = "wrong"        # answered wrong (or ran out of answer time)
    LOCKED = "locked"      # rang in but may not answer: early press, or a teammate rang in first
    EARLY = "early"        # pressed before arming
    RIGHT = "right"        # answered right (or was credited by a score shortcut); question over


def early_locked(settings: QuizSettings, q: Question) -> frozenset[int]:
    """Seats an early press locked out of question ``q`` (none unless the settings say so)."""
    return frozenset(e.seat for e in q.early) if settings.early_lockout else frozenset()


def valid(settings: QuizSettings, q: Question) -> tuple[Stamp, ...]:
    """The ring-ins that may answer at all, in line order: not locked out by an early press, and
    in first-per-team mode only each team's first such ring-in. Marking a seat wrong does not
    change this (its team stays claimed: the rest of that team was locked out by it)."""
    locked = early_locked(settings, q)
    claimed: set[str | None] = set()
    out: list[Stamp] = []
    for r in q.ring_ins:
        if r.seat in locked:
            continue
        if settings.mode is QuizMode.FIRST_PER_TEAM:
            team = settings.team_of(r.seat)
            if team in claimed:
                continue
            claimed.add(team)
        out.append(r)
    return tuple(out)


def next_in_line(settings: QuizSettings, q: Question, seed: int) -> tuple[Stamp | None, tuple[int, ...]]:
    """The ring-in that answers next (valid, not yet in front, not wrong) and, when others rang
    in within the resolution of it, the seats it was drawn from by lot; (None, ()) if nobody is
    left. A tie is never broken by seat number: a generator seeded by the quiz's seed, the
    question and how many answered before draws it, so a replay draws the same seat."""
    waiting = [r for r in valid(settings, q) if r.seat != q.front and r.seat not in q.wrong]
    if not waiting:
        return None, ()
    first = waiting[0]
    tied = [r for r in waiting if r.t_ns - first.t_ns < settings.resolution_ns]
    if len(tied) == 1:
        return first, ()
    rng = random.Random(f"quiz/{seed}/{q.number}/{len(q.wrong)}")
    pick = rng.choice(tied)
    return pick, tuple(sorted(r.seat for r in tied))


@dataclass(frozen=True, slots=True)
class RingInRow:
    """One line of the ring-in order for the screen."""

    seat: int
    team: str | None
    t_ns: int                    # the press's hardware stamp
    since_arm_ns: int | None     # after arming (below 0 for an early press); None before arming
    gap_ns: int | None           # after the ring-in before it; None for the first and early rows
    tie: bool                    # within the input's resolution of the ring-in before it
    status: Status


def ring_in_order(state: QuizState) -> tuple[RingInRow, ...]:
    """The open question's line (or, between questions, the last question's as it ended):
    early presses first (one row per seat, its first), then every ring-in in stamp order."""
    q = state.open if state.open is not None else state.last
    if q is None:
        return ()
    return question_rows(state.settings, q)


def early_rows(state: QuizState) -> tuple[RingInRow, ...]:
    """Between questions: the early presses already made for the next question."""
    if state.open is not None:
        return ()
    return tuple(_early_row(state.settings, e, None) for e in _first_per_seat(state.early))


def question_rows(settings: QuizSettings, q: Question) -> tuple[RingInRow, ...]:
    rows = [_early_row(settings, e, q.armed_t_ns) for e in _first_per_seat(q.early)]
    allowed = {r.seat for r in valid(settings, q)}
    before: Stamp | None = None
    for r in q.ring_ins:
        if q.ended in ("right", "score") and r.seat == q.right:
            status = Status.RIGHT
        elif r.seat == q.front:
            status = Status.FRONT
        elif r.seat in q.wrong:
            status = Status.WRONG
        elif r.seat not in allowed:
            status = Status.LOCKED
        else:
            status = Status.WAITING
        gap = None if before is None else r.t_ns - before.t_ns
        rows.append(RingInRow(seat=r.seat, team=settings.team_of(r.seat), t_ns=r.t_ns,
                              since_arm_ns=r.t_ns - q.armed_t_ns, gap_ns=gap,
                              tie=gap is not None and gap < settings.resolution_ns, status=status))
        before = r
    return tuple(rows)


def _first_per_seat(early: tuple[Stamp, ...]) -> list[Stamp]:
    seen: set[int] = set()
    out: list[Stamp] = []
    for e in sorted(early, key=lambda e: (e.t_ns, e.seat)):
        if e.seat not in seen:
            seen.add(e.seat)
            out.append(e)
    return out


def _early_row(settings: QuizSettings, e: Stamp, armed_t_ns: int | None) -> RingInRow:
    return RingInRow(seat=e.seat, team=settings.team_of(e.seat), t_ns=e.t_ns,
                     since_arm_ns=None if armed_t_ns is None else e.t_ns - armed_t_ns,
                     gap_ns=None, tie=False, status=Status.EARLY)
