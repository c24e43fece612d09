"""GPIO adapter: seat buttons, the guard's Caught! button, seat LEDs and the GO output, via gpiozero.

Timestamps. Race inputs use the *pin-level* ``pin.when_changed(ticks, state)`` callback, never
``Button.when_pressed`` (which drops the stamp) and never ``bounce_time`` (which moves or drops
stamps; the judge debounces on timestamps instead). What ``ticks`` is depends on the factory:

- ``LGPIOFactory`` (Pi 4/5): lgpio hands gpiozero the kernel's edge timestamp, an integer count
  of ns on CLOCK_MONOTONIC taken in the GPIO hard-IRQ handler; gpiozero passes on
  ``ticks_ns / 1e9``, a float of seconds. ``factory.ticks()`` is ``time.monotonic()`` (float
  seconds, same clock), so GO and presses share one clock domain, ``"monotonic"``.
- ``MockFactory`` (tests): ``ticks`` is ``time.monotonic()`` at ``drive_low()/drive_high()``
  and ``factory.ticks()`` is ``time.monotonic()``.

:func:`~firmware_host.records.ticks_to_ns` turns those floats back into integer ns exactly (no rounding through a
second float). A double holds CLOCK_MONOTONIC to better than 1 ns until 2**23 s (97 days) of
uptime, so the kernel's integer stamp comes back unchanged until then; after that the loss is at
most half a float step: 1 ns to 194 days, 4 ns to 2 years. That is far below ``resolution_ns``,
the tie window the judge uses (from the pin map; it covers the interrupt latency, not float
precision). Factories that stamp at Python-callback time (RPi.GPIO, native) or on another clock
(pigpio) are refused: a referee must not rank players by scheduler luck.

Direction. For a both-edges request the kernel stamps the edge in its hard-IRQ handler but
reads the line's *level* later, in its threaded handler (``edge_irq_thread`` in
``gpiolib-cdev.c``), and says rising or falling from that level; lgpio passes it on as
``state``. During contact bounce the first, correctly stamped edge of a press can come labelled
as a release. So ``state`` never decides press or release: edges alternate, and each line counts
them from the level read when the race is armed (a quiet moment), with the kernel's level only
as a check that resyncs the count after a lost edge (:class:`~firmware_host.records.EdgeDirection`).

Tie window. Edges of several pins of one bank pending in the same interrupt are stamped one after
another in the handler's loop (pin) order, a few µs apart: near-simultaneous presses carry a small
pin-order bias, and load can hold the handler off so that presses further apart are stamped
together in pin order. ``resolution_ns`` must be wider than that spread; see
:data:`MIN_RESOLUTION_NS`.

Threads. lgpio runs the callbacks on its own thread; MockPin runs them synchronously in the
thread that drives the pin. Either way a callback only converts and enqueues onto ``events`` and
never raises (an exception would kill lgpio's callback thread): unreadable edges are counted.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import entry_points
from types import TracebackType
from typing import Protocol

from gpiozero import LED, DigitalOutputDevice, InputDevice  # type: ignore[import-untyped]

from game.errors import BadConfig
from game.inputs import CaughtPress, CaughtRelease, Go, Press, Release

from .errors import BadPinFactory, BadSeat, BadTicks
from .pinmap import MIN_RESOLUTION_US, PinMap, Pull
from .records import (
    MONOTONIC_CLOCK,
    ArmReport,
    BadEdge,
    EdgeDirection,
    RigEvent,
    SeatLight,
    drain_queue,
    ticks_to_ns,
)

SUPPORTED_FACTORIES = ("lgpio", "mock")
# The ARMED cue: one short flash, dark long before the earliest GO (0.8 s after arming), so
# nobody mistakes it for GO and nobody stares at a lit button waiting for a change.
ARMED_FLASH_S = 0.15
WINNER_BLINK_S = 0.5
LOSER_BLINK_S = 0.1
# The narrowest tie window the GPIO build accepts: 20 µs. The kernel stamps the edges of one bank
# that are pending together in pin order, 1-3 µs apart per pin (the handler loop; the kernel model
# in firmware_host/mockpins.py draws that step), so the six inputs of the default pin map, all in
# bank 0, spread over at most 5 x 3 = 15 µs; the model measured 14.0 µs at most over 2,000
# six-pin simultaneous presses (tests/firmware_host/test_gpio_kernel.py). A window narrower than
# the spread lets pin order decide a tie. The default window (100 µs, pin map ``resolution_us``) also covers the difference
# in interrupt latency between two separate interrupts, which the spread alone does not.
MIN_RESOLUTION_NS = MIN_RESOLUTION_US * 1000


class _Pin(Protocol):
    when_changed: Callable[[object, object], None] | None


class _Input(Protocol):
    pin: _Pin
    is_active: bool

    def close(self) -> None: ...


class _Output(Protocol):
    is_active: bool

    def on(self) -> None: ...
    def off(self) -> None: ...
    def blink(self, on_time: float, off_time: float, n: int | None, background: bool) -> None: ...
    def close(self) -> None: ...


def timestamp_source(factory: object) -> str:
    """``"kernel"`` for lgpio, ``"mock"`` for MockFactory; refuse factories that cannot referee."""
    names = {(c.__module__, c.__name__) for c in type(factory).__mro__}
    if ("gpiozero.pins.lgpio", "LGPIOFactory") in names:
        return "kernel"
    if ("gpiozero.pins.mock", "MockFactory") in names:
        return "mock"
    why = (
        "counts 32-bit microsecond ticks on the pigpio daemon's clock"
        if ("gpiozero.pins.pigpio", "PiGPIOFactory") in names
        else "stamps edges when Python runs the callback, not when the edge happens"
    )
    raise BadPinFactory(
        f"pin factory {type(factory).__name__!r} {why}: use the lgpio factory "
        f"(pip install lgpio; GPIOZERO_PIN_FACTORY=lgpio) or 'mock' in tests"
    )


def open_pin_factory(name: str | None = None) -> object:
    """Build the pin factory named by ``name`` or ``GPIOZERO_PIN_FACTORY`` (default lgpio).

    This never assigns gpiozero's global ``Device.pin_factory``: the caller passes the factory
    to :class:`GpioRig` and closes it when done."""
    chosen = (name or os.environ.get("GPIOZERO_PIN_FACTORY") or "lgpio").lower()
    if chosen not in SUPPORTED_FACTORIES:
        raise BadPinFactory(
            f"pin factory {chosen!r} cannot referee races: use one of "
            f"{', '.join(repr(f) for f in SUPPORTED_FACTORIES)}"
        )
    (ep,) = [e for e in entry_points(group="gpiozero_pin_factories") if e.name == chosen]
    try:
        factory: object = ep.load()()
    except Exception as e:  # lgpio missing, no /dev/gpiochip*, no permission: all one message
        raise BadPinFactory(
            f"pin factory {chosen!r} cannot start ({type(e).__name__}: {e}): on a Raspberry Pi "
            f"install lgpio and add the user to the gpio group"
        ) from e
    return factory


class GpioRig:
    """The button table on the GPIO header: edges onto :attr:`events`, LEDs and GO out.

    Usage: ``arm(seats)`` → wait a fore-period while reading ``events`` → ``go(seats)`` → read
    ``events`` and judge → ``show({seat: SeatLight.WINNER, ...})`` → ``close()``.
    """

    clock = MONOTONIC_CLOCK

    def __init__(
        self,
        pinmap: PinMap,
        *,
        pin_factory: object,
        events: queue.Queue[RigEvent] | None = None,
        resolution_ns: int | None = None,
    ) -> None:
        self.timestamp_source = timestamp_source(pin_factory)
        self.pinmap = pinmap
        self.events: queue.Queue[RigEvent] = queue.Queue() if events is None else events
        self.resolution_ns = pinmap.resolution_ns if resolution_ns is None else resolution_ns
        if type(self.resolution_ns) is not int or self.resolution_ns < MIN_RESOLUTION_NS:
            raise BadConfig(
                f"resolution_ns {self.resolution_ns!r} is not valid on the GPIO build: the kernel "
                f"stamps pins of one bank in pin order µs apart, use a whole number of ns, "
                f"{MIN_RESOLUTION_NS} or more"
            )
        self._factory = pin_factory
        self._lock = threading.Lock()
        self._bad_edges: list[BadEdge] = []
        self._bad_edge_count = 0
        # One direction count per input, by gpio; guarded by _lock (callback thread vs arm()).
        self._directions: dict[int, EdgeDirection] = {}
        # gpiozero holds when_changed through a weak reference: these lists are what keep the
        # callbacks alive. Dropping them (or passing a lambda) silently stops every edge.
        self._callbacks: list[Callable[[object, object], None]] = []
        self._seat_inputs: list[_Input] = []
        self._guard_input: _Input | None = None
        self._leds: dict[int, _Output] = {}
        self._lights: dict[int, SeatLight] = {}
        self._guard_led: _Output | None = None
        self._go: _Output | None = None
        self._go_timer: threading.Timer | None = None
        self._go_count = 0
        self._closed = False
        try:
            self._open_devices()
        except BaseException:
            self.close()
            raise

    # -- construction ---------------------------------------------------------------------

    def _open_devices(self) -> None:
        pm = self.pinmap
        for seat, pins in enumerate(pm.seats):
            self._seat_inputs.append(
                self._open_input(pins.button, _seat_edge(seat, True), _seat_edge(seat, False))
            )
        self._guard_input = self._open_input(pm.guard_button, _caught_edge(True), _caught_edge(False))
        for seat, pins in enumerate(pm.seats):
            if pins.led is not None:
                self._leds[seat] = self._output(LED, pins.led)
                self._lights[seat] = SeatLight.OFF
        if pm.guard_led is not None:
            self._guard_led = self._output(LED, pm.guard_led)
        if pm.go_pin is not None:
            self._go = self._output(DigitalOutputDevice, pm.go_pin)

    def _output(self, cls: Callable[..., _Output], gpio: int) -> _Output:
        dev = cls(gpio, initial_value=False, pin_factory=self._factory)
        return dev

    def _open_input(
        self,
        gpio: int,
        make_down: Callable[[int], RigEvent],
        make_up: Callable[[int], RigEvent],
    ) -> _Input:
        pm = self.pinmap
        # InputDevice (not Button) reserves the pin and sets the pull but installs no handler of
        # its own on pin.when_changed, so ours is the only one and sees every edge.
        if pm.pull is Pull.NONE:
            dev: _Input = InputDevice(
                gpio, pull_up=None, active_state=not pm.active_low, pin_factory=self._factory
            )
        else:
            dev = InputDevice(gpio, pull_up=pm.pull is Pull.UP, pin_factory=self._factory)
        with self._lock:
            self._directions[gpio] = EdgeDirection.at_rest(bool(dev.is_active))
        callback = self._edge_callback(gpio, make_down, make_up)
        self._callbacks.append(callback)
        try:
            dev.pin.when_changed = callback
        except BaseException:
            dev.close()  # not yet in the lists close() walks
            raise
        return dev

    def _edge_callback(
        self,
        gpio: int,
        make_down: Callable[[int], RigEvent],
        make_up: Callable[[int], RigEvent],
    ) -> Callable[[object, object], None]:
        put = self.events.put
        active_low = self.pinmap.active_low

        def on_changed(ticks: object, state: object) -> None:
            # Runs on lgpio's callback thread: convert, enqueue, nothing else, never raise.
            # ``state`` is the level the kernel read for this edge, possibly after a later bounce
            # (lgpio), or the new pin state (mock): a check on the direction, never its source.
            # lgpio's level 2 (watchdog timeout) is not an edge and is counted.
            try:
                if state not in (0, 1):
                    raise BadTicks(f"level {state!r} is not an edge")
            except Exception:
                self._count_bad_edge(gpio, ticks, state)
                return
            reported_down = bool(state) is not active_low
            try:
                t_ns = ticks_to_ns(ticks)
            except Exception:
                # The line did change (the level is valid): keep the count in step, then report.
                with self._lock:
                    self._directions[gpio].unstamped_edge(reported_down)
                self._count_bad_edge(gpio, ticks, state)
                return
            try:
                with self._lock:
                    down, correction = self._directions[gpio].edge(t_ns, reported_down)
                    if correction is not None:
                        put(make_up(correction))
                    put(make_down(t_ns) if down else make_up(t_ns))
            except Exception:
                self._count_bad_edge(gpio, ticks, state)

        return on_changed

    def _count_bad_edge(self, gpio: int, ticks: object, state: object) -> None:
        with self._lock:
            self._bad_edge_count += 1
            if len(self._bad_edges) < 64:  # keep the first few for the report, count the rest
                self._bad_edges.append(BadEdge(gpio, repr(ticks), repr(state)))

    # -- queries ---------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.pinmap.seats)

    @property
    def direction_resyncs(self) -> int:
        """How often an input's press/release count disagreed with its level at a quiet moment
        (an edge lost by the kernel) and was set right."""
        with self._lock:
            return sum(d.resyncs for d in self._directions.values())

    @property
    def bad_edge_count(self) -> int:
        with self._lock:
            return self._bad_edge_count

    def bad_edges(self) -> tuple[BadEdge, ...]:
        with self._lock:
            return tuple(self._bad_edges)

    def now_ns(self) -> int:
        """The factory clock now, in the same clock domain and units as the edges."""
        return ticks_to_ns(self._factory.ticks())  # type: ignore[attr-defined]

    def held_seats(self) -> tuple[int, ...]:
        """Seats whose buttons are down right now (read from the pins, not from edges)."""
        return tuple(seat for seat, dev in enumerate(self._seat_inputs) if dev.is_active)

    def guard_held(self) -> bool:
        """Whether the Caught! button is down right now."""
        return self._guard_input is not None and bool(self._guard_input.is_active)

    def lights(self) -> Mapping[int, SeatLight]:
        """What each seat LED was last told to show (seats without an LED are absent)."""
        return dict(self._lights)

    def drain(self) -> list[RigEvent]:
        """Take every record waiting on :attr:`events` without blocking."""
        return drain_queue(self.events)

    # -- race outputs ----------------------------------------------------------------------

    def arm(self, seats: Iterable[int]) -> ArmReport:
        """Arm a race for ``seats``: GO off, their LEDs flash once, others dark.

        Returns the arming time and which of those seats' buttons are already down: a button
        held now would show up as neither a press nor a release, so the caller must get it
        released (or count it as a false start) before GO."""
        race = self._check_seats(seats)
        self._go_off()
        self.show({s: SeatLight.ARMED if s in race else SeatLight.OFF for s in range(self.seats)})
        t_ns = self.now_ns()
        self._resync_directions(t_ns)
        held = tuple(s for s in self.held_seats() if s in race)
        return ArmReport(t_ns=t_ns, clock=MONOTONIC_CLOCK, held=held)

    def _resync_directions(self, t_ns: int) -> None:
        # Arming is the quiet moment: count each input's edges from the level it reads now.
        inputs = list(zip((p.button for p in self.pinmap.seats), self._seat_inputs))
        if self._guard_input is not None:
            inputs.append((self.pinmap.guard_button, self._guard_input))
        for gpio, dev in inputs:
            down = bool(dev.is_active)
            with self._lock:
                self._directions[gpio].rearm(down, t_ns)

    def go(self, seats: Iterable[int]) -> Go:
        """Raise GO: the GO output, then the race seats' LEDs; return GO on the edges' clock.

        GO is stamped right after the first output switches on (the GO pin if wired, else the
        first seat LED). The other LEDs follow within tens of microseconds of Python; the order
        rotates from race to race so no seat is always lit last."""
        race = sorted(self._check_seats(seats))
        t_ns: int | None = None
        if self._go is not None:
            self._go.on()
            t_ns = self.now_ns()
            self._schedule_go_off()
        start = self._go_count % len(race) if race else 0
        self._go_count += 1
        for seat in race[start:] + race[:start]:
            self._set_light(seat, SeatLight.GO)
            if t_ns is None and seat in self._leds:
                t_ns = self.now_ns()
        if t_ns is None:  # no GO pin and no seat LED: the screen or a sound is the GO signal
            t_ns = self.now_ns()
        return Go(t_ns=t_ns, clock=MONOTONIC_CLOCK)

    def show(self, lights: Mapping[int, SeatLight]) -> None:
        """Set seat LEDs; seats not named keep what they show."""
        self._check_seats(lights)
        for seat, light in lights.items():
            self._set_light(seat, light)

    def show_guard(self, on: bool) -> None:
        """Light the Caught! button (a dispute is open) or put it out."""
        if self._guard_led is None:
            return
        if on:
            self._guard_led.on()
        else:
            self._guard_led.off()

    def go_off(self) -> None:
        """Switch the GO output off (the race is over)."""
        self._go_off()

    def _set_light(self, seat: int, light: SeatLight) -> None:
        led = self._leds.get(seat)
        if led is None:
            return
        if light is SeatLight.OFF:
            led.off()
        elif light is SeatLight.ARMED:
            led.blink(on_time=ARMED_FLASH_S, off_time=0.0, n=1, background=True)
        elif light is SeatLight.GO:
            led.on()
        elif light is SeatLight.WINNER:
            led.blink(on_time=WINNER_BLINK_S, off_time=WINNER_BLINK_S, n=None, background=True)
        else:
            led.blink(on_time=LOSER_BLINK_S, off_time=LOSER_BLINK_S, n=None, background=True)
        self._lights[seat] = light

    def _schedule_go_off(self) -> None:
        pulse_ms = self.pinmap.go_pulse_ms
        if pulse_ms is None:
            return
        # Switched on synchronously above (blink() would switch it on later, from a thread,
        # after GO was stamped); only the switching off is left to a timer.
        timer = threading.Timer(pulse_ms / 1000, self._go_off_from_timer)
        timer.daemon = True
        self._go_timer = timer
        timer.start()

    def _go_off_from_timer(self) -> None:
        with self._lock:
            if self._closed or self._go is None:
                return
            self._go.off()

    def _go_off(self) -> None:
        if self._go_timer is not None:
            self._go_timer.cancel()
            self._go_timer = None
        if self._go is not None:
            self._go.off()

    def _check_seats(self, seats: Iterable[int]) -> frozenset[int]:
        chosen = frozenset(seats)
        for seat in chosen:
            if type(seat) is not int or not 0 <= seat < self.seats:
                raise BadSeat(
                    f"seat {seat!r} is not on this table: the pin map {self.pinmap.source} wires "
                    f"seats 0 to {self.seats - 1}"
                )
        return chosen

    # -- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the callbacks, switch outputs off and release every pin. Safe to call twice."""
        if self._go_timer is not None:
            self._go_timer.cancel()
            self._go_timer = None
        with self._lock:
            self._closed = True
        inputs = self._seat_inputs + ([self._guard_input] if self._guard_input else [])
        for dev in inputs:
            dev.pin.when_changed = None
            dev.close()
        outputs = list(self._leds.values()) + [
            d for d in (self._guard_led, self._go) if d is not None
        ]
        for out in outputs:
            out.off()  # close() alone leaves a lit LED floating (lit, on MockPin)
            out.close()
        self._seat_inputs.clear()
        self._guard_input = None
        self._leds.clear()
        self._lights.clear()
        self._guard_led = None
        self._go = None
        self._callbacks.clear()

    def __enter__(self) -> GpioRig:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _seat_edge(seat: int, down: bool) -> Callable[[int], RigEvent]:
    def make(t_ns: int) -> RigEvent:
        return Press(seat, t_ns, MONOTONIC_CLOCK) if down else Release(seat, t_ns, MONOTONIC_CLOCK)

    return make


def _caught_edge(down: bool) -> Callable[[int], RigEvent]:
    def make(t_ns: int) -> RigEvent:
        return CaughtPress(t_ns, MONOTONIC_CLOCK) if down else CaughtRelease(t_ns, MONOTONIC_CLOCK)

    return make
