"""gpiozero mock pins with chosen edge timestamps, for tests and demos of the GPIO adapter.

gpiozero's ``MockPin`` stamps each edge with ``time.monotonic()`` when it is driven, so a test
cannot choose the timestamps a race is judged on. ``StampedMockPin.press(t_ns)`` delivers the
edge with ticks of ``t_ns / 1e9`` — exactly what the lgpio factory hands gpiozero for a kernel
stamp of ``t_ns`` — so the adapter's whole conversion path runs as on a Pi. The factory's own
clock (``ticks()``, used for arming and GO) reads ``ClockedMockFactory.now_s``.

Callbacks still run synchronously in the thread that drives the pin, as with any MockPin.
"""

from __future__ import annotations

import threading

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

NS_PER_S = 1_000_000_000


class StampedMockPin(MockPin):  # type: ignore[misc]
    """A MockPin whose next edge carries chosen ticks, and which counts its state changes."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        # Set before MockPin.__init__: setting the pull there already drives the pin.
        self.next_ticks: object = None
        self.changes = 0
        self._changed = threading.Condition()
        super().__init__(*args, **kwargs)

    def press(self, t_ns: int, active_low: bool = True) -> None:
        """Close the button at kernel time ``t_ns`` (drive low for a pulled-up button)."""
        self.edge(level=not active_low, t_ns=t_ns)

    def release(self, t_ns: int, active_low: bool = True) -> None:
        """Open the button at kernel time ``t_ns``."""
        self.edge(level=active_low, t_ns=t_ns)

    def edge(self, level: bool, t_ns: int | None = None, ticks: object = None) -> None:
        """Drive the input to ``level``; the edge carries ``t_ns / 1e9`` (or raw ``ticks``)."""
        self.next_ticks = t_ns / NS_PER_S if t_ns is not None else ticks
        if level:
            self.drive_high()
        else:
            self.drive_low()

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.next_ticks is not None:
            # MockPin._call_when_changed passes _last_change as the edge's ticks.
            self._last_change = self.next_ticks
        self.next_ticks = None
        if changed:
            with self._changed:
                self.changes += 1
                self._changed.notify_all()
        return changed

    def wait_changes(self, n: int, timeout_s: float = 5.0) -> bool:
        """Block until the pin has changed state ``n`` times in all (e.g. an LED blinking)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.changes >= n, timeout=timeout_s)


class ClockedMockFactory(MockFactory):  # type: ignore[misc]
    """A MockFactory of StampedMockPins whose ``ticks()`` reads ``now_s`` (float seconds)."""

    def __init__(self, now_s: float = 1000.0) -> None:
        super().__init__(pin_class=StampedMockPin)
        self.now_s: object = now_s

    def ticks(self) -> object:
        return self.now_s

    def set_now_ns(self, t_ns: int) -> None:
        """Set the factory clock the way the adapter will read it back: ``t_ns / 1e9``."""
        self.now_s = t_ns / NS_PER_S

    def stamped_pin(self, gpio: int) -> StampedMockPin:
        pin: StampedMockPin = self.pin(gpio)
        return pin
