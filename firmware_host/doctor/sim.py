"""Simulated rigs and simulated people for the doctor: ``cheating-moth doctor --sim``, CI and tests.

A simulated person answers the light questions and presses the button they are asked for, on
gpiozero's MockFactory (the GPIO build: pins driven with chosen timestamps, the loopback a
``MockConnectedPin``) or on the simulated board (edges scripted to the tick through its
control FIFO). :class:`SimFaults` breaks the simulated rig the ways real rigs break: a stuck
button, an unwired one, a swapped pair, a bouncy contact, a dark LED, a missing loopback jumper.
The GPIO person really looks: a light counts as lit only when its pin is high and every other
output pin is low.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .core import MS, Point
from ..errors import BadSimulation
from ..pinmap import PinMap
from ..pinmap_board import BOARD_GUARD_SLOT, BoardPins

# One press and release, as (offset ns, down) from the moment the person presses.
CLEAN_PRESS: tuple[tuple[int, bool], ...] = ((0, True), (100 * MS, False))
# A worn switch: chatters 14 ms going down and 1 ms coming up (gaps of 0.3 ms or more, so the
# board's 100 µs doctor lockout sees them all).
BOUNCY_PRESS: tuple[tuple[int, bool], ...] = (
    (0, True), (500_000, False), (1_000_000, True), (3_000_000, False), (3_500_000, True),
    (8_000_000, False), (8_300_000, True), (13_600_000, False), (14_000_000, True),
    (100 * MS, False), (100 * MS + 400_000, True), (101 * MS, False),
)
FAULT_KINDS = ("stuck", "unwired", "swap", "bouncy", "dark", "no-loopback")


@dataclass(frozen=True, slots=True)
class SimFaults:
    """What is wrong with the simulated rig (keys: ``seat0``..., ``guard``, ``go``)."""

    stuck: frozenset[str] = frozenset()
    unwired: frozenset[str] = frozenset()
    swapped: tuple[str, str] | None = None
    bouncy: frozenset[str] = frozenset()
    dark: frozenset[str] = frozenset()
    no_loopback: bool = False

    def wire(self, key: str) -> str:
        """Whose pin a press of ``key``'s button reaches."""
        if self.swapped is not None and key in self.swapped:
            a, b = self.swapped
            return b if key == a else a
        return key

    def pattern(self, key: str) -> Sequence[tuple[int, bool]]:
        return BOUNCY_PRESS if key in self.bouncy else CLEAN_PRESS


def parse_faults(texts: Sequence[str]) -> SimFaults:
    """``stuck:seat1``, ``unwired:guard``, ``swap:seat0,seat1``, ``bouncy:seat2``, ``dark:go``,
    ``no-loopback`` (from ``--sim-fault``, which may repeat)."""
    stuck: set[str] = set()
    unwired: set[str] = set()
    bouncy: set[str] = set()
    dark: set[str] = set()
    swapped: tuple[str, str] | None = None
    no_loopback = False
    for text in texts:
        kind, _, arg = text.partition(":")
        keys = [k for k in arg.split(",") if k]
        if kind not in FAULT_KINDS or (kind == "no-loopback") != (not keys) or (kind == "swap") != (len(keys) == 2):
            raise BadSimulation(
                f"simulated fault {text!r} is not valid: use stuck:KEY, unwired:KEY, bouncy:KEY, "
                f"dark:KEY, swap:KEY,KEY or no-loopback, with KEY seat0, seat1, ..., guard or go"
            )
        if kind == "swap":
            swapped = (keys[0], keys[1])
        elif kind == "no-loopback":
            no_loopback = True
        else:
            {"stuck": stuck, "unwired": unwired, "bouncy": bouncy, "dark": dark}[kind].update(keys)
    return SimFaults(frozenset(stuck), frozenset(unwired), swapped, frozenset(bouncy), frozenset(dark), no_loopback)


# -- GPIO -------------------------------------------------------------------------------------


def sim_gpio_factory(pinmap: PinMap, faults: SimFaults) -> object:
    """A MockFactory of StampedMockPins on the monotonic clock, the loopback jumper fitted."""
    from gpiozero.pins.mock import MockConnectedPin, MockFactory  # type: ignore[import-untyped]

    from ..mockpins import StampedMockPin

    factory = MockFactory(pin_class=StampedMockPin)
    if pinmap.loopback is not None and not faults.no_loopback:
        factory.pin(pinmap.loopback.output, pin_class=MockConnectedPin, input_pin=factory.pin(pinmap.loopback.input))
    return factory


class SimGpioPeople:
    """People at a GPIO rig on a MockFactory. Call :meth:`break_rig` once the rig is open."""

    def __init__(self, factory: object, pinmap: PinMap, faults: SimFaults = SimFaults()) -> None:
        self.factory = factory
        self.pinmap = pinmap
        self.faults = faults
        self.said: list[str] = []

    def _button(self, key: str) -> int:
        pm = self.pinmap
        return pm.guard_button if key == "guard" else pm.seats[int(key.removeprefix("seat"))].button

    def _output(self, key: str) -> int | None:
        pm = self.pinmap
        if key == "guard":
            return pm.guard_led
        if key == "go":
            return pm.go_pin
        return pm.seats[int(key.removeprefix("seat"))].led

    def break_rig(self) -> None:
        for key in sorted(self.faults.stuck):
            pin = self.factory.pin(self._button(key))  # type: ignore[attr-defined]
            if self.pinmap.active_low:
                pin.drive_low()
            else:
                pin.drive_high()

    def say(self, text: str) -> None:
        self.said.append(text)

    def check_light(self, point: Point) -> bool:
        if point.key in self.faults.dark:
            return False
        want = self._output(point.key)
        states = {p: bool(self.factory.pin(p).state) for p in self.pinmap.output_pins()}  # type: ignore[attr-defined]
        return want is not None and states[want] and not any(v for p, v in states.items() if p != want)

    def press(self, point: Point) -> None:
        if point.key in self.faults.unwired:
            return
        from ..records import ticks_to_ns

        pin = self.factory.pin(self._button(self.faults.wire(point.key)))  # type: ignore[attr-defined]
        t0 = ticks_to_ns(self.factory.ticks()) + MS  # type: ignore[attr-defined]
        for offset, down in self.faults.pattern(point.key):
            if down:
                pin.press(t0 + offset, self.pinmap.active_low)
            else:
                pin.release(t0 + offset, self.pinmap.active_low)


# -- board ------------------------------------------------------------------------------------


class SimBoardPeople:
    """People at the simulated board (``firmware_host.boardlink.sim.SimBoard``).

    Presses are scripted relative to the last arming (``armed_t_ns``, set by the doctor rig),
    a little after the board's latest reported time, so every edge lands exactly where chosen."""

    LEAD_NS = 30 * MS  # how far ahead of the board's reported time the first edge goes

    def __init__(self, sim: object, pins: BoardPins, faults: SimFaults = SimFaults()) -> None:
        self.sim = sim
        self.pins = pins
        self.faults = faults
        self.said: list[str] = []
        self.rig: object = None  # the BoardDoctorRig, for its arming time and clock

    @staticmethod
    def _slot(key: str) -> int:
        return BOARD_GUARD_SLOT if key == "guard" else int(key.removeprefix("seat"))

    def break_rig(self) -> None:
        for key in sorted(self.faults.stuck):
            self.sim.control(f"edge {self._slot(key)} 0 now 0")  # type: ignore[attr-defined]

    def say(self, text: str) -> None:
        self.said.append(text)

    def check_light(self, point: Point) -> bool:
        return point.key not in self.faults.dark  # the fake board's LEDs cannot be seen from here

    def press(self, point: Point) -> None:
        if point.key in self.faults.unwired:
            return
        rig = self.rig
        armed = rig.armed_t_ns  # type: ignore[attr-defined]
        start = rig.rig.now_ns() - armed + self.LEAD_NS  # type: ignore[attr-defined]
        slot = self._slot(self.faults.wire(point.key))
        for offset, down in self.faults.pattern(point.key):
            self.sim.control(f"edge {slot} {0 if down else 1} arm {start + offset}")  # type: ignore[attr-defined]


class SimPulser:
    """Test pulses for the board doctor's timing self-test, through the simulated board."""

    def __init__(self, sim: object) -> None:
        self.sim = sim

    def at_go(self, slot: int, level: int, offset_ns: int) -> None:
        self.sim.control(f"edge {slot} {level} go {offset_ns}")  # type: ignore[attr-defined]
