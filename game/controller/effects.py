"""Effects: what the controller asks the shell to do, as data (the app executes them)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..messages import Message


class Light(enum.Enum):
    """An LED pattern; the adapter turns it into on/off/blink on its LED."""

    OFF = "off"
    ON = "on"                  # whose turn it is; GO
    SLOW = "slow"              # the guard (slow blink)
    ARMED = "armed"            # a race is armed: wait for GO (dim / short flash)
    WINNER = "winner"          # fast blink
    LOSER = "loser"            # long pulses
    VOTING = "voting"          # may vote / may pick now (medium blink)


@dataclass(frozen=True, slots=True)
class Leds:
    """The pattern for every physical seat's LED (by seat number) and the Caught! button's."""

    seats: tuple[Light, ...]
    caught: Light


@dataclass(frozen=True, slots=True)
class PlaySound:
    """One of the sounds in ``sounds/``: go, slap, cockroach, caught, guilty, not_guilty,
    false_start, round_over, game_won, ready, seat_<n>, refused."""

    name: str


@dataclass(frozen=True, slots=True)
class Arm:
    """Arm the input adapter for race ``race``: these physical seats race; report held buttons."""

    race: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScheduleGo:
    """Raise GO for race ``race`` at ``t_ns`` (the adapter's clock) and report the ``Go`` it stamps."""

    race: int
    t_ns: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Send a ``Tick`` no later than ``t_ns``: a window or a race deadline ends then."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class Show:
    """The screen to show and its instruction."""

    screen: str
    message: Message


@dataclass(frozen=True, slots=True)
class Notice:
    """A short-lived note on screen (an ignored press, a refused tap, a result)."""

    message: Message


Effect = Leds | PlaySound | Arm | ScheduleGo | WakeAt | Show | Notice
