"""The buzzer board as a race input: the same shape as the GPIO rig, on the board's own clock.

``BoardRig`` offers what :class:`firmware_host.gpio.GpioRig` offers the controller: an
``events`` queue of Press / Release / CaughtPress / CaughtRelease records, ``arm(seats)`` ->
ArmReport, ``go(seats)`` -> Go, ``show({seat: SeatLight})``, ``held_seats()``, ``now_ns()``,
``close()``, ``resolution_ns`` and ``clock``. Every time is integer ns in the clock domain
``"board"``: the board's PIO tick counter (16 ns at 62.5 MHz) since it powered up. GO comes
from the board (its own GO pin, stamped by its own logger), never from this computer's clock.

Buttons map to seats: by default buttons 0-5 are seats 0-5 and button 6 is the guard's Caught!.

If the link drops, or the board reports lost edges (``DROP``, ``LOST``, a gap that was not
filled), while a race is armed or running, the race is void: a :class:`RaceVoided` record goes
on ``events`` and, once the board is back, the same seats are armed again (``rearmed``). The game
itself is never touched; the caller runs the race again from its fore-period.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType

from game.inputs import CaughtPress, CaughtRelease, Go, Press, Release
from game.judge import DEFAULT_LOCKOUT_NS

from .errors import BoardError, BoardTimeout, LinkDown, RaceVoidedError
from .link import BoardInfo, BoardLink, Frame, LinkCounters
from ..errors import BadSeat
from ..records import ArmReport, RigEvent, SeatLight

BOARD_CLOCK = "board"
DEFAULT_SEAT_BUTTONS = (0, 1, 2, 3, 4, 5)
DEFAULT_GUARD_BUTTON = 6
DEFAULT_TIMEOUT_NS = 10_000_000_000  # the board's GO lamp goes out this long after GO
GO_REPORT_S = 1.0  # after the GO delay, how long the board has to report its GO edge
MAX_GO_DELAY_NS = 10_000_000_000


@dataclass(frozen=True, slots=True)
class RaceVoided:
    """Race ``race`` was voided (``why``); ``rearmed`` is the new arming, or None if the board
    could not be armed again (it is still away)."""

    race: int
    why: str
    rearmed: ArmReport | None


BoardEvent = RigEvent | RaceVoided


def open_board(port: str | None = None, **kwargs: object) -> BoardRig | None:
    """The board on ``port`` (or the first found by USB vendor id), or None when no board is
    plugged in. For the app's input auto-detection."""
    from . import link as board_link

    if port is None:
        ports = board_link.find_board_ports()
        if not ports:
            return None
        port = ports[0]
    return BoardRig(port, **kwargs)  # type: ignore[arg-type]


@dataclass(slots=True)
class _Race:
    race: int
    seats: tuple[int, ...]
    go_t_ns: int | None = None
    live: bool = True  # armed or running: edges lost now void it


class BoardRig:
    """A buzzer board on a serial port (``port`` None: found by USB vendor id)."""

    clock = BOARD_CLOCK

    def __init__(
        self,
        port: str | None = None,
        *,
        seat_buttons: tuple[int, ...] = DEFAULT_SEAT_BUTTONS,
        guard_button: int | None = DEFAULT_GUARD_BUTTON,
        lockout_ns: int = DEFAULT_LOCKOUT_NS,
        timeout_ns: int = DEFAULT_TIMEOUT_NS,
        resolution_ns: int | None = None,
        events: queue.Queue[BoardEvent] | None = None,
        connect_wait_s: float = 3.0,
        link: BoardLink | None = None,
    ) -> None:
        self.events: queue.Queue[BoardEvent] = queue.Queue() if events is None else events
        self.seat_buttons = seat_buttons
        self.guard_button = guard_button
        self.lockout_ns = lockout_ns
        self.timeout_ns = timeout_ns
        self._cond = threading.Condition()
        self._now_ticks = 0
        self._held: set[int] = set()
        self._race: _Race | None = None
        self._next_race = 1
        self._voiding = False
        self._closed = False
        self._link = link or BoardLink(port)
        self._link.on_frame = self._on_frame
        self._link.on_link = self._on_link
        info = self._link.start(connect_wait_s)
        self._check_buttons(info)
        self.tick_hz = info.tick_hz
        # One tick: presses in the same tick tie, one tick apart are ordered (see pio_programs.py).
        self.resolution_ns = resolution_ns if resolution_ns is not None else -(-1_000_000_000 // info.tick_hz)
        self._refresh_status()

    # -- queries ---------------------------------------------------------------------------

    @property
    def info(self) -> BoardInfo | None:
        return self._link.info

    @property
    def counters(self) -> LinkCounters:
        return self._link.counters

    @property
    def seats(self) -> int:
        return len(self.seat_buttons)

    def ticks_to_ns(self, ticks: int) -> int:
        return ticks * 1_000_000_000 // self.tick_hz

    def now_ns(self) -> int:
        """The latest board time the board has reported (every edge before it has arrived)."""
        with self._cond:
            return self.ticks_to_ns(self._now_ticks)

    def held_seats(self) -> tuple[int, ...]:
        with self._cond:
            return tuple(s for s, b in enumerate(self.seat_buttons) if b in self._held)

    def guard_held(self) -> bool:
        with self._cond:
            return self.guard_button in self._held

    def wait_until(self, t_ns: int, timeout_s: float) -> bool:
        """Wait until the board's time reaches ``t_ns`` (True) or ``timeout_s`` passes (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: self.ticks_to_ns(self._now_ticks) >= t_ns, timeout_s)

    def drain(self) -> list[BoardEvent]:
        taken: list[BoardEvent] = []
        while True:
            try:
                taken.append(self.events.get_nowait())
            except queue.Empty:
                return taken

    # -- race outputs ----------------------------------------------------------------------

    def arm(self, seats: Iterable[int]) -> ArmReport:
        """Arm a race for ``seats`` on the board: GO off, loggers restarted with the lockout, the
        race buttons flash once. Returns the arming time and the race seats already held."""
        race_seats = tuple(sorted(self._check_seats(seats)))
        with self._cond:
            race = self._next_race
            self._next_race += 1
        reply = self._link.request("ARM", [
            ("race", race),
            ("btns", [self.seat_buttons[s] for s in race_seats]),
            ("lockout_us", max(100, self.lockout_ns // 1000)),
            ("timeout_ms", max(1, min(30_000, self.timeout_ns // 1_000_000))),
        ])
        ticks = reply.get_int("ticks")
        held_buttons = set(reply.get_ints("held"))
        with self._cond:
            self._race = _Race(race, race_seats)
            for s in race_seats:
                self._held.discard(self.seat_buttons[s])
            self._held |= held_buttons
            self._now_ticks = max(self._now_ticks, ticks)
        held = tuple(s for s in race_seats if self.seat_buttons[s] in held_buttons)
        return ArmReport(t_ns=self.ticks_to_ns(ticks), clock=BOARD_CLOCK, held=held)

    def go(self, seats: Iterable[int], delay_ns: int = 0) -> Go:
        """GO after ``delay_ns`` counted on the board (so this computer cannot give it away):
        the board raises its GO pin and the race buttons' LEDs; returns GO as the board stamped it.

        Raises RaceVoidedError if the race is voided meanwhile."""
        self._check_seats(seats)
        if not 0 <= delay_ns <= MAX_GO_DELAY_NS:
            raise BoardError(f"GO delay {delay_ns!r} ns is not valid: use 0 to {MAX_GO_DELAY_NS} ns")
        with self._cond:
            race = self._race
        if race is None or not race.live:
            raise RaceVoidedError("GO without an armed race: arm the race first")
        self._link.request("GO", [("race", race.race), ("delay_ms", delay_ns // 1_000_000)])
        with self._cond:
            ok = self._cond.wait_for(
                lambda: race.go_t_ns is not None or not race.live or self._closed,
                delay_ns / 1e9 + GO_REPORT_S,
            )
            go_t_ns = race.go_t_ns
        if go_t_ns is None:
            if ok:
                raise RaceVoidedError(f"race {race.race} was voided before GO")
            raise BoardTimeout(f"the board did not report GO for race {race.race}: check the GO pin wiring")
        return Go(t_ns=go_t_ns, clock=BOARD_CLOCK)

    def show(self, lights: Mapping[int, SeatLight]) -> None:
        """Set seat LEDs; seats not named keep what they show."""
        self._check_seats(lights)
        if lights:
            modes = ",".join(f"{self.seat_buttons[s]}:{light.value}" for s, light in sorted(lights.items()))
            self._link.request("LED", [("set", modes)])

    def finish(self) -> None:
        """The race is decided: later link trouble no longer voids it. GO goes off."""
        with self._cond:
            race, self._race = self._race, None
        if race is not None:
            self._link.request("ABORT", [("race", race.race)])

    go_off = finish

    def show_guard(self, on: bool) -> None:
        """Light the Caught! button's LED (a dispute is open) or put it out."""
        if self.guard_button is not None:
            self._link.request("LED", [("set", f"{self.guard_button}:{'go' if on else 'off'}")])

    def close(self) -> None:
        """Put the LEDs out and close the link. Safe to call twice."""
        if self._closed:
            return
        try:
            if self._link.connected:
                self._link.request("ABORT", [("race", 0)])
        except BoardError:
            pass
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._link.close()

    def __enter__(self) -> BoardRig:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- from the link thread --------------------------------------------------------------

    def _on_frame(self, frame: Frame) -> None:
        verb = frame.verb
        if verb in ("PRESS", "RELEASE"):
            btn, ticks = frame.get_int("btn", 0, 63), frame.get_int("ticks")
            event = self._edge(btn, ticks, verb == "PRESS")
            with self._cond:
                (self._held.add if verb == "PRESS" else self._held.discard)(btn)
                self._now_ticks = max(self._now_ticks, ticks)
                self._cond.notify_all()
            if event is not None:
                self.events.put(event)
        elif verb == "GO":
            race, ticks = frame.get_int("race"), frame.get_int("ticks")
            with self._cond:
                if self._race is not None and self._race.race == race:
                    self._race.go_t_ns = self.ticks_to_ns(ticks)
                self._now_ticks = max(self._now_ticks, ticks)
                self._cond.notify_all()
        elif verb in ("TIME", "PONG"):
            with self._cond:
                self._now_ticks = max(self._now_ticks, frame.get_int("ticks"))
                self._cond.notify_all()
        elif verb in ("DROP", "LOST"):
            self._void(f"the board lost edges ({verb.lower()})", rearm_now=True)
        elif verb == "END" and frame.fields.get("why") == "nogo":
            self._void("the board's GO pin did not report (check its wiring)", rearm_now=True)

    def _on_link(self, up: bool, info: BoardInfo | None) -> None:
        if not up:
            self._void("the board was disconnected", rearm_now=False)
        else:
            with self._cond:
                pending = self._voiding
            if pending:
                threading.Thread(target=self._rearm, args=("the board was disconnected",), daemon=True).start()

    def _void(self, why: str, rearm_now: bool) -> None:
        with self._cond:
            race = self._race
            if race is None or not race.live:
                return
            race.live = False
            self._voiding = True
            self._cond.notify_all()
        if rearm_now:
            threading.Thread(target=self._rearm, args=(why,), daemon=True).start()

    def _rearm(self, why: str) -> None:
        """On a worker thread (the link thread must keep reading): arm the voided race's seats
        again and report the void."""
        with self._cond:
            race = self._race
            self._voiding = False
        if race is None:
            return
        rearmed: ArmReport | None = None
        try:
            rearmed = self.arm(race.seats)
        except (BoardError, LinkDown):
            rearmed = None
        self.events.put(RaceVoided(race.race, why, rearmed))

    def _edge(self, btn: int, ticks: int, down: bool) -> RigEvent | None:
        t_ns = self.ticks_to_ns(ticks)
        if btn in self.seat_buttons:
            seat = self.seat_buttons.index(btn)
            return Press(seat, t_ns, BOARD_CLOCK) if down else Release(seat, t_ns, BOARD_CLOCK)
        if btn == self.guard_button:
            return CaughtPress(t_ns, BOARD_CLOCK) if down else CaughtRelease(t_ns, BOARD_CLOCK)
        return None

    # -- helpers ---------------------------------------------------------------------------

    def _refresh_status(self) -> None:
        reply = self._link.request("STATUS", [])
        with self._cond:
            self._held = set(reply.get_ints("held"))
            self._now_ticks = max(self._now_ticks, reply.get_int("ticks"))

    def _check_buttons(self, info: BoardInfo) -> None:
        used = list(self.seat_buttons) + ([self.guard_button] if self.guard_button is not None else [])
        for b in used:
            if not 0 <= b < info.buttons or used.count(b) > 1:
                self._link.close()
                raise BadSeat(
                    f"button {b!r} is not valid for a board with {info.buttons} buttons: use each of 0 to "
                    f"{info.buttons - 1} at most once"
                )

    def _check_seats(self, seats: Iterable[int]) -> frozenset[int]:
        chosen = frozenset(seats)
        for seat in chosen:
            if type(seat) is not int or not 0 <= seat < self.seats:
                raise BadSeat(f"seat {seat!r} is not on this board: it wires seats 0 to {self.seats - 1}")
        return chosen
