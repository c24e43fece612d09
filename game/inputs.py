"""Timestamped input from the buttons: press and release edges, and GO.

Times are integer nanoseconds in a named clock domain (``"monotonic"`` for kernel GPIO
timestamps, ``"board"`` for the buzzer board's timer, ``"sim"`` for simulated players). A float
of seconds cannot hold nanoseconds on a clock that has run for months, so floats are refused.
Events from different clock domains are never compared.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BadInputEvent


def _check_t_ns(t_ns: object, what: str) -> None:
    if type(t_ns) is not int:
        raise BadInputEvent(f"{what} t_ns {t_ns!r} is not valid: use an integer count of nanoseconds")
    if t_ns < 0:
        raise BadInputEvent(f"{what} t_ns {t_ns!r} is not valid: timestamps are 0 or more nanoseconds")


def _check_player(player: object, what: str) -> None:
    if type(player) is not int or player < 0:
        raise BadInputEvent(f"{what} player {player!r} is not valid: use a seat number 0 or more")


def _check_clock(clock: object, what: str) -> None:
    if not isinstance(clock, str) or not clock:
        raise BadInputEvent(f"{what} clock {clock!r} is not valid: name the clock domain, e.g. 'monotonic'")


@dataclass(frozen=True, slots=True)
class Press:
    """A seat's button went down at ``t_ns``."""

    player: int
    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_player(self.player, "press")
        _check_t_ns(self.t_ns, "press")
        _check_clock(self.clock, "press")


@dataclass(frozen=True, slots=True)
class Release:
    """A seat's button came up at ``t_ns``."""

    player: int
    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_player(self.player, "release")
        _check_t_ns(self.t_ns, "release")
        _check_clock(self.clock, "release")


@dataclass(frozen=True, slots=True)
class Go:
    """The GO signal was raised at ``t_ns``, stamped on the same clock as the presses."""

    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "GO")
        _check_clock(self.clock, "GO")


@dataclass(frozen=True, slots=True)
class CaughtPress:
    """The guard's red Caught! button went down at ``t_ns`` (same clock as the seat presses).

    A record of its own, not a ``Press`` with a made-up seat: the guard is also a seated player
    whose seat button races, and a sentinel seat number would leak into every seat loop.
    """

    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Caught! press")
        _check_clock(self.clock, "Caught! press")


@dataclass(frozen=True, slots=True)
class CaughtRelease:
    """The guard's Caught! button came up at ``t_ns``."""

    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_t_ns(self.t_ns, "Caught! release")
        _check_clock(self.clock, "Caught! release")


Edge = Press | Release
