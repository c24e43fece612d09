"""The GPIO adapter's records and its tick conversion: everything about it that needs no gpiozero.

Tests can convert ticks without importing gpiozero (which on a PC searches for a pin factory
as soon as a device is made). The records themselves (Press, Release, CaughtPress,
CaughtRelease, Go) live in the core, ``game.inputs``, where the table controller reads them.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from game.inputs import CaughtPress, CaughtRelease, Press, Release

from .errors import BadTicks

MONOTONIC_CLOCK = "monotonic"


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
