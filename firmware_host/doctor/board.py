"""The doctor on the buzzer board build: :class:`BoardRig` on the board's own clock.

Buttons are checked with the edge loggers restarted on a short lockout (``DOCTOR_LOCKOUT_NS``),
so bounce longer than that shows as extra edges. Timing self-test:

- with a :class:`Pulser` (the simulated board: its fake hardware injects edges to the tick), test
  pulses on two inputs, a seat on PIO0 and the Caught! button on PIO1, at known offsets from GO
  and from each other, including 0 and one tick: each stamp's error and the order are checked;
- without one (a real board) the board's GO is checked instead: GO is asked for a known delay
  after arming and the board's own GO stamp must land there (its main loop runs every 1 ms).
"""

from __future__ import annotations

import queue
from collections.abc import Sequence
from typing import Protocol

from game.inputs import CaughtPress, CaughtRelease, Press, Release

from ..boardlink.errors import BoardError
from ..boardlink.rig import BoardRig
from .core import MS, Edge, Point, TimingCheck, timing_from_errors
from ..pinmap_board import BOARD_GUARD_SLOT, PICO_PHYSICAL, BoardPins
from ..records import SeatLight

DOCTOR_LOCKOUT_NS = 100_000  # the firmware's shortest: bounce longer than 100 µs is seen
PULSE_BASE_NS = 2 * MS  # first test edge after GO
PULSE_HOLD_NS = 1 * MS
PULSE_OFFSETS_NS = (0, 16, 32, 160, 1_600, 16_000, -16, -1_600)  # multiples of the 16 ns tick
GO_DELAY_NS = 50 * MS
GO_TRIALS = 5
GO_LATE_LIMIT_NS = 5 * MS  # the main loop raises GO within a few of its 1 ms steps
WAIT_S = 3.0


def go_check(errors_ns: Sequence[int], go_pin: int) -> TimingCheck:
    """The GO self-test's verdict from each trial's GO stamp minus (arming + delay): never early,
    and at most ``GO_LATE_LIMIT_NS`` late. Pure, so it is tested with chosen errors; how late a
    board's main loop raises GO depends on that board (and a simulated one on the PC's load)."""
    late = max(errors_ns)
    ok_order = min(errors_ns) >= 0 and late <= GO_LATE_LIMIT_NS
    note = (f"GO asked for {GO_DELAY_NS // MS} ms after arming, stamped by the board's own GO logger; "
            f"two-input pulses need a pulse source (the simulated board)")
    if not ok_order:
        note = (f"GO came {late / MS:.2f} ms after its {GO_DELAY_NS // MS} ms delay (or early): "
                f"check the GO pin ({pico_pin(go_pin)}) and the firmware")
    return timing_from_errors("board GO", errors_ns, GO_TRIALS, ok_order, note)


class Pulser(Protocol):
    """Something that can drive board inputs at chosen offsets after the next GO."""

    def at_go(self, slot: int, level: int, offset_ns: int) -> None: ...


def pico_pin(gp: int) -> str:
    return f"GP{gp} (pin {PICO_PHYSICAL[gp]})"


class BoardDoctorRig:
    """The board build as the doctor sees it. ``lockout_ns`` is the game's, for the report."""

    build = "board"

    def __init__(self, rig: BoardRig, pins: BoardPins, *, source: str, lockout_ns: int,
                 pulser: Pulser | None = None) -> None:
        self.rig = rig
        self.pins = pins
        self.source = source
        self.lockout_ns = lockout_ns
        self.resolution_ns = rig.resolution_ns
        self._pulser = pulser
        self.armed_t_ns = 0  # when begin_buttons armed the board (the simulated people script from it)

    def buttons(self) -> tuple[Point, ...]:
        seats = tuple(Point(f"seat{n}", f"seat {n}", pico_pin(s.button)) for n, s in enumerate(self.pins.seats))
        return seats + (Point("guard", "Caught!", pico_pin(self.pins.guard_button)),)

    def outputs(self) -> tuple[Point, ...]:
        out = [Point(f"seat{n}", f"seat {n}", pico_pin(s.led)) for n, s in enumerate(self.pins.seats)
               if s.led is not None]
        if self.pins.guard_led is not None:
            out.append(Point("guard", "Caught!", pico_pin(self.pins.guard_led)))
        out.append(Point("go", "GO", pico_pin(self.pins.go)))
        return tuple(out)

    def light(self, key: str, on: bool) -> None:
        if key == "guard":
            self.rig.show_guard(on)
        elif key == "go":
            if on:  # the board raises GO only in a race: arm seat 0, GO now, put seat 0 out again
                self.rig.arm([0])
                self.rig.go([0], 0)
                self.rig.show({0: SeatLight.OFF})
            else:
                self.rig.finish()
        else:
            seat = int(key.removeprefix("seat"))
            self.rig.show({seat: SeatLight.GO if on else SeatLight.OFF})

    def begin_buttons(self) -> None:
        # ARM restarts every logger with the doctor's short lockout (the LEDs flash once)
        self.armed_t_ns = self.rig.arm(range(self.rig.seats)).t_ns

    def held(self) -> frozenset[str]:
        keys = {f"seat{s}" for s in self.rig.held_seats()}
        if self.rig.guard_held():
            keys.add("guard")
        return frozenset(keys)

    def next_edge(self, timeout_s: float) -> Edge | None:
        while True:
            try:
                event = self.rig.events.get(timeout=timeout_s) if timeout_s > 0 else self.rig.events.get_nowait()
            except queue.Empty:
                return None
            if isinstance(event, (Press, Release)):
                return Edge(f"seat{event.player}", isinstance(event, Press), event.t_ns)
            if isinstance(event, (CaughtPress, CaughtRelease)):
                return Edge("guard", isinstance(event, CaughtPress), event.t_ns)
            # a RaceVoided (the board lost edges and re-armed): not an edge

    def timing_test(self) -> TimingCheck:
        try:
            return self._pulse_test() if self._pulser is not None else self._go_test()
        except BoardError as exc:
            return timing_from_errors("board", [], 1, False, f"the board failed the test: {exc}")
        finally:
            self.rig.finish()

    def _pulse_test(self) -> TimingCheck:
        assert self._pulser is not None
        a, b = 0, BOARD_GUARD_SLOT
        where = (f"test pulses on seat 0 ({pico_pin(self.pins.seats[0].button)}) and Caught! "
                 f"({pico_pin(self.pins.guard_button)}) at offsets {', '.join(str(d) for d in PULSE_OFFSETS_NS)} ns")
        errors: list[int] = []
        ordered = True
        for d in PULSE_OFFSETS_NS:
            self.rig.arm([0])
            for slot, at in ((a, PULSE_BASE_NS), (b, PULSE_BASE_NS + d)):
                self._pulser.at_go(slot, 0, at)
                self._pulser.at_go(slot, 1, at + PULSE_HOLD_NS)
            go = self.rig.go([0], 0)
            downs: dict[str, int] = {}
            for _ in range(4):
                edge = self.next_edge(WAIT_S)
                if edge is None:
                    return timing_from_errors("board pulses", errors, 2 * len(PULSE_OFFSETS_NS), False,
                                              f"a test edge did not come back ({where})")
                if edge.down:
                    downs[edge.key] = edge.t_ns
            if set(downs) != {"seat0", "guard"}:
                return timing_from_errors("board pulses", errors, 2 * len(PULSE_OFFSETS_NS), False,
                                          f"test edges came back on the wrong inputs: {sorted(downs)}")
            t_a, t_b = downs["seat0"], downs["guard"]
            errors += [t_a - go.t_ns - PULSE_BASE_NS, t_b - go.t_ns - PULSE_BASE_NS - d]
            if (t_b > t_a) != (d > 0) or (t_b == t_a) != (d == 0):
                ordered = False
            self.rig.finish()
        return timing_from_errors("board pulses", errors, 2 * len(PULSE_OFFSETS_NS), ordered, where)

    def _go_test(self) -> TimingCheck:
        errors: list[int] = []
        for _ in range(GO_TRIALS):
            arm = self.rig.arm([0])
            go = self.rig.go([0], GO_DELAY_NS)
            errors.append(go.t_ns - arm.t_ns - GO_DELAY_NS)
            self.rig.finish()
        return go_check(errors, self.pins.go)

    def close(self) -> None:
        self.rig.close()

