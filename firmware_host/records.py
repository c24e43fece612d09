"""The GPIO adapter's records and its tick conversion: everything about it that needs no gpiozero.

The app can filter ``CaughtPress`` records, and tests can convert ticks, without importing
gpiozero (which on a PC searches for a pin factory as soon as a device is made).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from game.errors import BadInputEvent
from game.inputs import Press, Release

from .errors import BadTicks

MONOTONIC_CLOCK = "monotonic"


@dataclass(frozen=True, slots=True)
class CaughtPress:
    """The guard's Caught! button went down at ``t_ns`` (same clock as the seat presses).

    A record of its own, not a ``Press`` with a made-up seat: the guard is also a seated player
    whose seat button races, and a sentinel seat number would leak into every seat loop."""

    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_stamp(self.t_ns, self.clock, "Caught! press")


@dataclass(frozen=True, slots=True)
class CaughtRelease:
    """The guard's Caught! button came up at ``t_ns``."""

    t_ns: int
    clock: str

    def __post_init__(self) -> None:
        _check_stamp(self.t_ns, self.clock, "Caught! release")


RigEvent = Press | Release | CaughtPress | CaughtRelease


@dataclass(frozen=True, slots=True)
class ArmReport:
    """What :meth:`GpioRig.arm` found: the arming time and the race seats whose buttons are down."""

    t_ns: int
    clock: str
    held: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BadEdge:
    """An edge the callback could not turn into a record (kept for the report, never raised)."""

    gpio: int
    ticks: str
    state: str


class SeatLight(enum.Enum):
    """What a seat's button LED shows."""

    OFF = "off"  # dark
    ARMED = "armed"  # one short flash, then dark until GO
    GO = "go"  # steady on
    WINNER = "winner"  # slow blink
    LOSER = "loser"  # fast blink


def ticks_to_ns(ticks: object) -> int:
    """Convert gpiozero ticks (float or int seconds on CLOCK_MONOTONIC) to integer ns, exactly.

    The float's exact binary value is scaled with integers and rounded half up, so a stamp that
    lgpio made as ``ns / 1e9`` comes back as ``ns`` (see :mod:`firmware_host.gpio` for the limits)."""
    if type(ticks) is int and ticks >= 0:
        return ticks * 1_000_000_000
    if type(ticks) is float and math.isfinite(ticks) and ticks >= 0.0:
        num, den = ticks.as_integer_ratio()
        return (2 * num * 1_000_000_000 + den) // (2 * den)
    raise BadTicks(
        f"ticks {ticks!r} from the pin factory are not valid: expected a finite number of "
        f"seconds 0 or more, as the lgpio and mock factories give"
    )


def _check_stamp(t_ns: object, clock: object, what: str) -> None:
    if type(t_ns) is not int or t_ns < 0:
        raise BadInputEvent(f"{what} t_ns {t_ns!r} is not valid: use an integer count of ns, 0 or more")
    if not isinstance(clock, str) or not clock:
        raise BadInputEvent(f"{what} clock {clock!r} is not valid: name the clock domain, e.g. 'monotonic'")
