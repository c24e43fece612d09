"""What reaches the quiz: button edges (``game.inputs.Press`` / ``Release``, hardware-stamped),
the host's taps, and ticks of time. Every input carries ``t_ns`` on the quiz's one clock.

The host's inputs are verbs (the style of the table controller's console taps); the seat is
never named in them: right, wrong and a score shortcut always mean the seat in front, so a tap
cannot credit the wrong player.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.controller.inputs import Tick
from game.errors import BadInputEvent
from game.inputs import Press, Release


def _check_t_ns(t_ns: object, what: str) -> None:
    if type(t_ns) is not int or t_ns < 0:
        raise BadInputEvent(f"{what} t_ns {t_ns!r} is not valid: use a whole number of nanoseconds, 0 or more")


@dataclass(frozen=True, slots=True)
class Arm:
    """The host opens the question: the first valid press from now on locks everyone out."""

    t_ns: int

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Arm")


@dataclass(frozen=True, slots=True)
class Right:
    """The seat in front answered right: its points, and the question ends."""

    t_ns: int

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Right")


@dataclass(frozen=True, slots=True)
class Wrong:
    """The seat in front answered wrong: its penalty, and the next in line answers (no re-arm)."""

    t_ns: int

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Wrong")


@dataclass(frozen=True, slots=True)
class Score:
    """A shortcut (+10, -5, ...): ``points`` to the seat in front, the question ends and the next
    one is armed at once."""

    points: int
    t_ns: int

    def __post_init__(self) -> None:
        if type(self.points) is not int:
            raise BadInputEvent(f"Score points {self.points!r} is not valid: use a whole number such as 10 or -5")
        _check_t_ns(self.t_ns, "Score")


@dataclass(frozen=True, slots=True)
class Skip:
    """The host drops the open question: nobody scores."""

    t_ns: int

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Skip")


@dataclass(frozen=True, slots=True)
class Reset:
    """A new quiz with the same settings: every score back to 0, no question open."""

    t_ns: int

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Reset")


Host = Arm | Right | Wrong | Score | Skip | Reset
QuizInput = Press | Release | Tick | Host
INPUT_TYPES = (Press, Release, Tick, Arm, Right, Wrong, Score, Skip, Reset)

__all__ = ["Arm", "Host", "INPUT_TYPES", "Press", "QuizInput", "Release", "Reset", "Right", "Score",
           "Skip", "Tick", "Wrong"]
