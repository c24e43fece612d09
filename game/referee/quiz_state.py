"""The quiz's state after the last input: the open question's line, early presses, scores.

Time rules, all decided from hardware stamps (never from the order edges arrive in):
- a question is open from ``armed_t_ns`` until it closes at ``closed_t_ns``; a press stamped
  before the last close belongs to a question that is over and is ignored (``stale``);
- a press stamped after the last close and before arming is early for the next question;
- the line is kept sorted by stamp; the seat in front is decided ``settle_ns`` (plus the tie
  window) after the first valid ring-in, because an edge reaches us up to ``settle_ns`` after
  its stamp and an earlier press may still be on its way.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .quiz_settings import QuizSettings


class Phase(enum.Enum):
    IDLE = "idle"              # no question open: a press is early (for the next question)
    ARMED = "armed"            # open: the first valid press locks everyone out
    SETTLING = "settling"      # locked out; waiting for an earlier-stamped press still on its way
    ANSWERING = "answering"    # a seat is in front; the host marks right or wrong


@dataclass(frozen=True, slots=True)
class Stamp:
    """A counted press of ``seat`` stamped ``t_ns`` (a ring-in, or an early press)."""

    seat: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class Question:
    """One question as it stands (open) or as it ended (``QuizState.last``)."""

    number: int
    armed_t_ns: int
    ring_ins: tuple[Stamp, ...] = ()       # first counted press per seat, sorted by (t_ns, seat)
    early: tuple[Stamp, ...] = ()          # presses after the last close, before arming
    front: int | None = None               # the seat answering now
    front_t_ns: int | None = None          # its answer time runs from here
    front_stamp_ns: int | None = None      # the latest stamp ever put in front (late presses: see quiz.py)
    wrong: tuple[int, ...] = ()            # seats marked wrong (or timed out), in order
    lot: tuple[int, ...] = ()              # the seats the front was drawn from on a tie; () if none
    # How it ended (None while open): "right", "score", "wrong" (nobody left to answer),
    # "window" (nobody rang in within the buzz window), "skip", "reset".
    ended: str | None = None
    closed_t_ns: int | None = None
    right: int | None = None               # the seat credited by Right or Score


@dataclass(frozen=True, slots=True)
class QuizState:
    """Everything the quiz knows after the last input. Seats are 0 .. seats-1."""

    settings: QuizSettings
    seed: int                              # draws the front among tied ring-ins (replayable)
    phase: Phase
    now_t_ns: int                          # the latest time seen (stamps and ticks)
    scores: tuple[int, ...]                # by seat
    edges: tuple[int | None, ...]          # by seat: the stamp of its last counted edge (bounce)
    closed_t_ns: int = 0                   # when the last question closed (or the quiz began)
    questions: int = 0                     # questions armed so far
    open: Question | None = None           # the open question (phase is not IDLE)
    early: tuple[Stamp, ...] = ()          # while IDLE: early presses for the next question
    last: Question | None = None           # the latest question that ended, for the screen
    # Edges not counted, for the doctor and the report (never silently dropped):
    bounces: int = 0                       # within bounce_ns of the seat's last counted edge
    stale: int = 0                         # stamped before the last close: that question is over
    late: int = 0                          # stamped before a seat already put in front (slow adapter)
    after_window: int = 0                  # stamped after the buzz window ended

    @property
    def team_scores(self) -> tuple[tuple[str, int], ...]:
        """(team, points) for every team, in the order of its lowest seat; () without teams."""
        s = self.settings
        return tuple((team, sum(self.scores[seat] for seat, t in s.teams if t == team))
                     for team in s.team_names)

    @property
    def buzz_deadline_t_ns(self) -> int | None:
        """When the buzz window ends (for a countdown), or None when it does not apply now."""
        q = self.open
        window = self.settings.buzz_window_ns
        if q is None or not window or self.phase is not Phase.ARMED:
            return None
        return q.armed_t_ns + window

    @property
    def answer_deadline_t_ns(self) -> int | None:
        """When the seat in front's answer time ends (for a countdown), or None."""
        q = self.open
        limit = self.settings.answer_ns
        if q is None or not limit or q.front_t_ns is None or self.phase is not Phase.ANSWERING:
            return None
        return q.front_t_ns + limit


def new_quiz(settings: QuizSettings, seed: int = 0, t_ns: int = 0) -> QuizState:
    """A quiz with every score at 0 and no question open; presses from ``t_ns`` on are early."""
    return QuizState(settings=settings, seed=seed, phase=Phase.IDLE, now_t_ns=t_ns,
                     scores=(0,) * settings.seats, edges=(None,) * settings.seats, closed_t_ns=t_ns)
