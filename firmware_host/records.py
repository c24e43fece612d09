"""The GPIO adapter's records and its tick conversion: everything about it that needs no gpiozero.

Tests can convert ticks without importing gpiozero (which on a PC searches for a pin factory
as soon as a device is made). The records themselves (Press, Release, CaughtPress,
CaughtRelease, Go) live in the core, ``game.inputs``, where the table controller reads them.
"""

from __future__ import annotations

import enum
import math
import queue
from dataclasses import dataclass
from typing import TypeVar

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
    #: The board's number for the race armed (its RaceVoided names it); None on GPIO.
    race: int | None = None


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


# -- which way an edge went ---------------------------------------------------------------------

#: How long a line must have been quiet before the level the kernel read for its last edge is
#: trusted as the line's resting level. Longer than switch bounce (~6 ms at worst), and far longer
#: than the kernel's hard-IRQ-to-thread delay (µs typically; a thread held off longer than this
#: by load could mislead one resync, which the next arming corrects).
QUIET_NS = 10_000_000


@dataclass(slots=True)
class EdgeDirection:
    """Press or release for each edge of one input line, inferred by alternation.

    The kernel stamps an edge in its hard-IRQ handler but reads the line's level later, in its
    threaded handler, to say rising or falling; during contact bounce that level can already be
    the next bounce's, so the first, correctly stamped edge of a press can come labelled as a
    release. Edges alternate, so their direction is counted from a level read at a quiet moment
    (:meth:`rearm`, when a race is armed) and the kernel's level is only a check: when the line
    has been quiet for :data:`QUIET_NS` and the level reported with its last edge disagrees with
    the count, an odd number of edges was lost (coalesced while the line was masked) and the
    count resyncs to that level. A resync never makes a press: when the resting level was up it
    returns a corrective release at the last edge's stamp, when it was down only the count moves
    (so until then a press burst that lost an edge reads as released: a false start still down at
    GO may be reported without "held at GO"; the false start itself stands).
    """

    down: bool
    reported_down: bool
    last_t_ns: int | None = None
    resyncs: int = 0

    @classmethod
    def at_rest(cls, down: bool) -> EdgeDirection:
        """A line whose level, read while nothing moved, is ``down`` (button pressed) or up."""
        return cls(down=down, reported_down=down)

    def rearm(self, down: bool, t_ns: int) -> bool:
        """Take the level read from the pin at a quiet moment; True if the count had drifted."""
        drifted = down != self.down
        if drifted:
            self.resyncs += 1
        self.down = down
        self.reported_down = down
        self.last_t_ns = t_ns
        return drifted

    def edge(self, t_ns: int, reported_down: bool) -> tuple[bool, int | None]:
        """(whether this edge left the button down, the stamp of a corrective release or None).

        ``reported_down`` is the kernel's level for this edge translated to button terms."""
        correction: int | None = None
        quiet = self.last_t_ns is None or t_ns - self.last_t_ns >= QUIET_NS
        if quiet and self.reported_down != self.down:
            self.resyncs += 1
            if not self.reported_down and self.last_t_ns is not None:
                correction = self.last_t_ns  # the last edge was the release the count missed
            self.down = self.reported_down
        self.down = not self.down
        self.reported_down = reported_down
        self.last_t_ns = t_ns
        return self.down, correction

    def unstamped_edge(self, reported_down: bool) -> None:
        """Count an edge whose stamp was unreadable (it is reported, not judged): the line did change."""
        self.down = not self.down
        self.reported_down = reported_down


_Item = TypeVar("_Item")


def drain_queue(events: queue.Queue[_Item]) -> list[_Item]:
    """Take every record waiting on ``events`` without blocking (both rigs' ``drain``)."""
    taken: list[_Item] = []
    while True:
        try:
            taken.append(events.get_nowait())
        except queue.Empty:
            return taken
