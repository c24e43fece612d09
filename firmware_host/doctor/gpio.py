"""The doctor on the Raspberry Pi GPIO build: :class:`GpioRig` plus the loopback jumper.

Timing self-test: the pin map's ``[loopback]`` output is wired straight to its input. The doctor
switches the output ``pulses`` times, reading the clock right before each write; the input's
edge comes back with the kernel's stamp (CLOCK_MONOTONIC, the same clock). Each sample's error
is stamp minus write time: the write itself plus the interrupt latency. Its spread (jitter) is
what two truly simultaneous presses on two pins could differ by, so it bounds the tie window
(``resolution_us``). An edge stamped before its write means the stamps are not on the doctor's
clock: a failure.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from gpiozero import DigitalOutputDevice, InputDevice  # type: ignore[import-untyped]

from game.inputs import CaughtPress, Press, Release
from game.judge import DEFAULT_LOCKOUT_NS

from .core import Edge, Point, TimingCheck, TimingStatus, timing_from_errors
from ..gpio import GpioRig
from ..pinmap import PI_PHYSICAL, PinMap
from ..records import SeatLight, ticks_to_ns

LOOPBACK_PULSES = 40
LOOPBACK_SPACING_S = 0.002  # between test edges: each is stamped and read before the next
LOOPBACK_WAIT_S = 1.0


def pi_pin(gpio: int) -> str:
    return f"GPIO {gpio} (pin {PI_PHYSICAL[gpio]})"


class GpioDoctorRig:
    """The GPIO build as the doctor sees it. ``now_ns`` defaults to the factory's clock."""

    build = "gpio"

    def __init__(
        self,
        pinmap: PinMap,
        *,
        pin_factory: object,
        lockout_ns: int = DEFAULT_LOCKOUT_NS,
        pulses: int = LOOPBACK_PULSES,
        spacing_s: float = LOOPBACK_SPACING_S,
        now_ns: Callable[[], int] | None = None,
    ) -> None:
        self.pinmap = pinmap
        self.source = pinmap.source
        self.lockout_ns = lockout_ns
        self.resolution_ns = pinmap.resolution_ns
        self.rig = GpioRig(pinmap, pin_factory=pin_factory)
        self._factory = pin_factory
        self._now_ns = now_ns or self.rig.now_ns
        self._pulses = pulses
        self._spacing = threading.Event()  # never set: wait() is the pause between test edges
        self._spacing_s = spacing_s
        self._loop_edges: queue.Queue[tuple[int, int]] = queue.Queue()
        self._loop_callback: Callable[[object, object], None] | None = None

    # -- points ----------------------------------------------------------------------------

    def buttons(self) -> tuple[Point, ...]:
        pm = self.pinmap
        seats = tuple(Point(f"seat{n}", f"seat {n}", pi_pin(s.button)) for n, s in enumerate(pm.seats))
        return seats + (Point("guard", "Caught!", pi_pin(pm.guard_button)),)

    def outputs(self) -> tuple[Point, ...]:
        pm = self.pinmap
        out = [Point(f"seat{n}", f"seat {n}", pi_pin(s.led)) for n, s in enumerate(pm.seats) if s.led is not None]
        if pm.guard_led is not None:
            out.append(Point("guard", "Caught!", pi_pin(pm.guard_led)))
        if pm.go_pin is not None:
            out.append(Point("go", "GO", pi_pin(pm.go_pin)))
        return tuple(out)

    def light(self, key: str, on: bool) -> None:
        if key == "guard":
            self.rig.show_guard(on)
        elif key == "go":
            if on:
                self.rig.go([])
            else:
                self.rig.go_off()
        else:
            self.rig.show({int(key.removeprefix("seat")): SeatLight.GO if on else SeatLight.OFF})

    # -- buttons ---------------------------------------------------------------------------

    def begin_buttons(self) -> None:
        return None

    def held(self) -> frozenset[str]:
        keys = {f"seat{s}" for s in self.rig.held_seats()}
        if self.rig.guard_held():
            keys.add("guard")
        return frozenset(keys)

    def next_edge(self, timeout_s: float) -> Edge | None:
        try:
            event = self.rig.events.get(timeout=timeout_s) if timeout_s > 0 else self.rig.events.get_nowait()
        except queue.Empty:
            return None
        if isinstance(event, (Press, Release)):
            return Edge(f"seat{event.player}", isinstance(event, Press), event.t_ns)
        return Edge("guard", isinstance(event, CaughtPress), event.t_ns)

    # -- timing ----------------------------------------------------------------------------

    def timing_test(self) -> TimingCheck:
        loop = self.pinmap.loopback
        if loop is None:
            return TimingCheck("loopback", TimingStatus.SKIPPED, 0, 0,
                               note="the pin map has no [loopback]: add one and fit the jumper")
        method = "loopback"
        where = f"{pi_pin(loop.output)} -> {pi_pin(loop.input)}"
        inp = InputDevice(loop.input, pull_up=False, pin_factory=self._factory)
        out = DigitalOutputDevice(loop.output, initial_value=False, pin_factory=self._factory)
        put = self._loop_edges.put

        def on_changed(ticks: object, state: object) -> None:
            try:
                put((ticks_to_ns(ticks), int(bool(state))))
            except Exception:  # never raise on the callback thread: a missing edge is the report
                pass

        self._loop_callback = on_changed  # gpiozero keeps only a weak reference
        inp.pin.when_changed = on_changed
        errors: list[int] = []
        ordered = True
        note = ""
        last_t = -1
        try:
            for i in range(self._pulses):
                level = i % 2 == 0
                if self._spacing_s > 0:
                    self._spacing.wait(self._spacing_s)
                before = self._now_ns()
                if level:
                    out.on()
                else:
                    out.off()
                try:
                    t_ns, got = self._loop_edges.get(timeout=LOOPBACK_WAIT_S)
                except queue.Empty:
                    note = (f"no edge came back on {pi_pin(loop.input)}: fit the jumper from "
                            f"{pi_pin(loop.output)} (or skip the self-test)")
                    break
                if got != int(level) or t_ns <= last_t:
                    ordered = False
                last_t = t_ns
                if t_ns < before:
                    note = (f"an edge was stamped {(before - t_ns) / 1000:.1f} µs before its write: the pin "
                            f"factory's stamps are not on the doctor's clock")
                    ordered = False
                errors.append(t_ns - before)
        finally:
            inp.pin.when_changed = None
            out.off()
            out.close()
            inp.close()
            self._loop_callback = None
        check = timing_from_errors(method, errors, self._pulses, ordered, note)
        return TimingCheck(check.method, check.status, check.samples, check.expected_samples,
                           check.median_error_ns, check.jitter_ns, check.max_abs_error_ns, check.ordered,
                           check.note or where)

    def close(self) -> None:
        self.rig.close()

