"""Input adapters the app can run on, and auto-detection: the serial buzzer board if its
module is installed and a board answers, else the GPIO buttons on a Raspberry Pi, else
keyboard seats. Every adapter has GpioRig's shape (see :class:`InputAdapter`)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from firmware_host.records import RigEvent, SeatLight

from ...controller import Light
from ...inputs import Go

MONOTONIC = "monotonic"

#: The controller's LED patterns on the adapters' lights (SeatLight has no slow or voting
#: blink: the guard's slow blink uses the winner's slow blink, voting the fast one).
LIGHTS: dict[Light, SeatLight] = {
    Light.OFF: SeatLight.OFF, Light.ON: SeatLight.GO, Light.SLOW: SeatLight.WINNER,
    Light.ARMED: SeatLight.ARMED, Light.WINNER: SeatLight.WINNER, Light.LOSER: SeatLight.LOSER,
    Light.VOTING: SeatLight.LOSER,
}

class InputAdapter(Protocol):
    @property
    def clock(self) -> str: ...
    @property
    def resolution_ns(self) -> int: ...
    @property
    def seats(self) -> int: ...
    def now_ns(self) -> int: ...
    def drain(self) -> list[Any]: ...
    def arm(self, seats: Iterable[int]) -> object: ...
    def go(self, seats: Iterable[int]) -> Go: ...
    def show(self, lights: Mapping[int, SeatLight]) -> None: ...
    def close(self) -> None: ...


class KeyboardSeats:
    """No hardware: seats are keys (the console turns key edges into presses), GO is the screen
    flash and the sound, the clock is CLOCK_MONOTONIC. Key events are stamped when the loop
    reads them (up to a frame late), so races are fair only to about a frame."""

    clock = MONOTONIC
    resolution_ns = 1_000_000

    def __init__(self, seats: int = 5) -> None:
        self.seats = seats

    def now_ns(self) -> int:
        return time.monotonic_ns()

    def drain(self) -> list[RigEvent]:
        return []

    def arm(self, seats: Iterable[int]) -> object:
        return None

    def go(self, seats: Iterable[int]) -> Go:
        return Go(self.now_ns(), self.clock)

    def show(self, lights: Mapping[int, SeatLight]) -> None:
        return None

    def show_guard(self, on: bool) -> None:
        return None

    def close(self) -> None:
        return None


class AdapterProxy:
    """An input adapter passed through unchanged: a base for one that changes a part of what
    the adapter it wraps does. Anything else the wrapped one has (the board's link, ``info``,
    ``wait_connected``, the guard's light) is reached through it as well."""

    def __init__(self, adapter: InputAdapter) -> None:
        self._adapter = adapter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._adapter, name)

    @property
    def clock(self) -> str:
        return self._adapter.clock

    @property
    def resolution_ns(self) -> int:
        return self._adapter.resolution_ns

    @property
    def seats(self) -> int:
        return self._adapter.seats

    def now_ns(self) -> int:
        return self._adapter.now_ns()

    def drain(self) -> list[Any]:
        return list(self._adapter.drain())

    def arm(self, seats: Iterable[int]) -> object:
        return self._adapter.arm(seats)

    def go(self, seats: Iterable[int]) -> Go:
        return self._adapter.go(seats)

    def show(self, lights: Mapping[int, SeatLight]) -> None:
        self._adapter.show(lights)

    def close(self) -> None:
        self._adapter.close()


class ClockShift(AdapterProxy):
    """An adapter whose clock reads ``shift_ns`` later: after a restart whose clock began again
    at zero, a resumed table's time must not run backwards. Everything the adapter stamps (edges,
    GO) is shifted by the same amount, so reaction times are unchanged."""

    def __init__(self, adapter: InputAdapter, shift_ns: int) -> None:
        super().__init__(adapter)
        self.shift_ns = shift_ns

    def now_ns(self) -> int:
        return self._adapter.now_ns() + self.shift_ns

    def drain(self) -> list[Any]:
        return [self._shift(record) for record in self._adapter.drain()]

    def go(self, seats: Iterable[int]) -> Go:
        go = self._adapter.go(seats)
        return Go(go.t_ns + self.shift_ns, go.clock)

    def _shift(self, record: Any) -> Any:
        t_ns = getattr(record, "t_ns", None)
        return replace(record, t_ns=t_ns + self.shift_ns) if isinstance(t_ns, int) else record


@dataclass(slots=True)
class Detected:
    adapter: InputAdapter
    name: str                       # "board", "gpio" or "keyboard" (ui_input_<name>)
    notes: list[str] = field(default_factory=list)
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        self.adapter.close()
        for close in self.closers:
            close()


def _open_board(notes: list[str], port: str | None = None, patience_s: float | None = None) -> InputAdapter | None:
    """The buzzer board (firmware_host.boardlink.rig) if pyserial finds one by its USB vendor id."""
    try:
        from firmware_host.boardlink.link import find_board_ports
        from firmware_host.boardlink.rig import BoardRig
    except ImportError:
        return None
    try:
        if port is None and not find_board_ports():
            return None
        board: InputAdapter = BoardRig(port) if patience_s is None else BoardRig(port, patience_s=patience_s)
    except Exception as exc:  # a board that is there but will not talk: say so, go on
        notes.append(f"buzzer board not used: {type(exc).__name__}: {exc}")
        return None
    return board


def _on_a_pi() -> bool:
    return any(Path("/dev").glob("gpiochip*")) and os.environ.get("GPIOZERO_PIN_FACTORY", "") != "mock"


def _open_gpio(notes: list[str], closers: list[Callable[[], None]], pins: str | None = None) -> InputAdapter | None:
    from firmware_host.errors import AdapterError
    from firmware_host.pinmap import load_pinmap
    from game.errors import GameError

    try:
        from firmware_host.gpio import GpioRig, open_pin_factory

        factory = open_pin_factory()
        rig = GpioRig(load_pinmap(pins) if pins else load_pinmap(), pin_factory=factory)
    except (AdapterError, GameError, ImportError, OSError) as exc:
        notes.append(f"GPIO buttons not used: {exc}")
        return None
    closer = getattr(factory, "close", None)
    if callable(closer):
        closers.append(closer)
    return rig


def detect(requested: str = "auto", seats: int = 5, *, port: str | None = None,
           pins: str | None = None, board_patience_s: float | None = None) -> Detected:
    """Open the input ``requested`` ("auto", "board", "gpio" or "keyboard"); ``port`` is the
    board's serial port (None: find it by USB id), ``pins`` the GPIO pin map (None: default),
    ``board_patience_s`` how long a board that is gone has to come back (None: the rig's 10 s)."""
    notes: list[str] = []
    closers: list[Callable[[], None]] = []
    if requested in ("auto", "board"):
        board = _open_board(notes, port, board_patience_s)
        if board is not None:
            return Detected(board, "board", notes)
        if requested == "board":
            notes.append("no buzzer board found")
    if requested == "gpio" or requested == "auto" and _on_a_pi():
        rig = _open_gpio(notes, closers, pins)
        if rig is not None:
            return Detected(rig, "gpio", notes, closers)
    return Detected(KeyboardSeats(seats), "keyboard", notes)
