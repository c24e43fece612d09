"""The buzzer board as a race input: the same shape as the GPIO rig, on the board's own clock.

``BoardRig`` offers what :class:`firmware_host.gpio.GpioRig` offers the controller: an
``events`` queue of Press / Release / CaughtPress / CaughtRelease records, ``arm(seats)`` ->
ArmReport, ``go(seats)`` -> Go, ``show({seat: SeatLight})``, ``held_seats()``, ``now_ns()``,
``close()``, ``resolution_ns`` and ``clock``. Every time is integer ns in the clock domain
``"board"``: the board's PIO tick counter (16 ns at 62.5 MHz) since it powered up. GO comes
from the board (its own GO pin, stamped by its own logger), never from this computer's clock.

Buttons map to seats: by default buttons 0-5 are seats 0-5 and button 6 is the guard's Caught!.

**One patience for a board that is gone.** A board that is unplugged, restarts (on a Pico that
re-enumerates USB: about 1.3 s of boot before its HELLO, plus the host's enumeration) or sends
nothing for the link's silence limit is gone. Every user of the rig waits for it the same
``patience_s`` (board seconds, times the time scale; DEFAULT_PATIENCE_S), counted from the last
byte the board sent: back within it, the voided race is armed again (one :class:`RaceVoided`);
past it, one :class:`BoardAway` record goes on ``events`` and :meth:`BoardRig.wait_back` raises
BoardGone, each with one sentence saying what to check.

If the link drops, the board restarts, reports lost edges (``DROP``, ``LOST``, a gap that was
not filled), sends an impossible stamp or a second GO for the race while a race is armed or
running, the race is void: a :class:`RaceVoided` record goes on ``events`` and, once the board is
back, the same seats are armed again (``rearmed``). The game itself is never touched; the caller
runs the race again from its fore-period. A void is told once: if :meth:`BoardRig.go` already
raised RaceVoidedError for it (the caller arms anew), no RaceVoided follows and nothing is re-armed.

**One clock across restarts.** The ``"board"`` clock this adapter hands out is the board's ticks
in ns plus an offset per link session. The first board starts at offset 0. A board that comes
back with another ``boot`` id, says its power-up HELLO under an open port, or whose uptime cannot
continue the old clock, is a new clock: its offset is the last board time known here minus its
own time at HELLO (``uptime_ms``) plus RESTART_MARGIN_NS, so the clock never runs backwards and
stamps of the new board are judged on the new clock. Each frame's ticks are mapped with the
offset of the session it came in.

**Impossible stamps.** A PRESS, RELEASE or GO whose ticks are negative, more than the PIO
counter's 31-bit wrap (2**31 ticks) before the arming, or behind the board's last ``TIME``
promise (every edge stamped before it had been sent) is a protocol fault: counted
(``stamp_faults``), kept in ``faults``, and the race in progress is voided with a message naming
the stamp and why. Such an edge is never handed to the judge.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType

from game.inputs import CaughtPress, CaughtRelease, Go, Press, Release
from game.judge import DEFAULT_LOCKOUT_NS

from ..board import protocol as P
from .errors import (
    BoardAtPrompt, BoardError, BoardGone, BoardMismatch, BoardTimeout, BoardUnsupported, LinkDown, RaceVoidedError,
)
from .link import NEEDS_A_PERSON, BoardInfo, BoardLink, Frame, LinkCounters
from ..errors import BadSeat
from ..records import ArmReport, RigEvent, SeatLight, drain_queue

BOARD_CLOCK = "board"
DEFAULT_SEAT_BUTTONS = (0, 1, 2, 3, 4, 5)
DEFAULT_GUARD_BUTTON = 6
DEFAULT_TIMEOUT_NS = 10_000_000_000  # the board's GO lamp goes out this long after GO
GO_REPORT_S = 1.0  # (board time) after the GO delay, how long the board has to report its GO edge
MAX_GO_DELAY_NS = 10_000_000_000
RESTART_MARGIN_NS = 1_000_000_000  # a restarted board's clock starts this long after the old one's last time
PIO_WRAP_TICKS = 2**31  # the edge loggers' counter: a stamp off by a whole wrap is 34.36 s early
TIME_PROMISES_KEPT = 512  # TIME heartbeats remembered for late (resent) edges: ~5 s while racing
MAX_TICKS = 2**63
# (board time) How long a board that is gone gets to come back, from the last byte it sent: a
# Pico's restart is ~1.3 s of boot to its HELLO plus USB enumeration, a cable pulled and pushed
# back a few seconds. The café config's [input] board-patience-s and --board-patience-s set it.
DEFAULT_PATIENCE_S = 10.0
PATIENCE_RANGE_S = (1.0, 600.0)


@dataclass(frozen=True, slots=True)
class RaceVoided:
    """Race ``race`` was voided (``why``); ``rearmed`` is the new arming, or None if the board
    could not be armed again (it is still away)."""

    race: int
    why: str
    rearmed: ArmReport | None


@dataclass(frozen=True, slots=True)
class BoardAway:
    """The board has been gone for the rig's whole patience (``patience_s`` board seconds): one
    per absence. ``message`` is the one sentence to show."""

    message: str
    patience_s: float


def gone_message(error: BaseException | None, patience_s: float) -> str:
    """What to say of a board gone for the patience: what the link found if it needs a person
    (the MicroPython prompt, another protocol, unsupported hardware), else the cable."""
    if isinstance(error, NEEDS_A_PERSON):
        return f"the buzzer board has not worked for {patience_s:g} s: {error}"
    return f"the buzzer board has been gone for {patience_s:g} s: check its USB cable and plug it in again"


BoardEvent = RigEvent | RaceVoided | BoardAway


def open_board(port: str | None = None, *, time_scale: float | None = None, **kwargs: object) -> BoardRig | None:
    """The board on ``port`` (or the first Pico port with USB id 2E8A:0005 that answers HELLO
    as this firmware), or None when no such port is there. For the app's input auto-detection."""
    from . import link as board_link

    if port is None and not board_link.find_board_ports():
        return None
    return BoardRig(port, time_scale=time_scale, **kwargs)  # type: ignore[arg-type]


@dataclass(slots=True)
class _Race:
    race: int
    seats: tuple[int, ...]
    session: int
    armed_ticks: int
    go_t_ns: int | None = None
    live: bool = True  # armed or running: edges lost now void it
    why: str = ""  # why it was voided
    reported: bool = False  # its void was told to the caller (RaceVoided, or go() raised)


@dataclass(frozen=True, slots=True)
class _Clock:
    """One link session's board clock: host ns = ticks * 1e9 // tick_hz + offset_ns."""

    session: int
    tick_hz: int
    offset_ns: int
    boot: str

    def to_ns(self, ticks: int) -> int:
        return ticks * 1_000_000_000 // self.tick_hz + self.offset_ns


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
        time_scale: float | None = None,
        patience_s: float = DEFAULT_PATIENCE_S,
    ) -> None:
        """Waits on the board (``connect_wait_s``, the GO report, :meth:`wait_until`, the
        ``patience_s`` for a board that is gone) are board seconds times ``time_scale`` (None:
        $CHEATING_MOTH_BOARD_TIME_SCALE, else 1.0; see timescale.py). A ``link`` given keeps its
        own time scale."""
        low, high = PATIENCE_RANGE_S
        if isinstance(patience_s, bool) or not isinstance(patience_s, (int, float)) or not low <= patience_s <= high:
            raise BoardError(f"board patience {patience_s!r} s is not valid: use {low:g} to {high:g} seconds")
        self.patience_s = float(patience_s)
        self.events: queue.Queue[BoardEvent] = queue.Queue() if events is None else events
        self.seat_buttons = seat_buttons
        self.guard_button = guard_button
        self.lockout_ns = lockout_ns
        self.timeout_ns = timeout_ns
        self.faults: deque[str] = deque(maxlen=32)  # the latest stamp and protocol faults, as reported
        self._cond = threading.Condition()
        self._now_ns = 0  # the latest board time reported, on this adapter's continuous clock
        self._clock: _Clock | None = None
        self._clocks: dict[int, _Clock] = {}
        self._promises: deque[tuple[int, int]] = deque(maxlen=TIME_PROMISES_KEPT)  # (seq, ticks) of TIMEs
        self._held: set[int] = set()
        self._race: _Race | None = None
        self._next_race = 1
        self._voiding = False
        self._closed = False
        self._away: str | None = None  # why the board is gone, once gone for the whole patience
        self._voids: dict[int, str] = {}  # race -> why it was voided (the latest few)
        self._arm_lock = threading.RLock()  # one arming at a time: the caller's or a re-arm's
        self._link = link or BoardLink(port, time_scale=time_scale)
        self.time_scale = self._link.time_scale
        self._link.on_frame = self._on_frame
        self._link.on_link = self._on_link
        self._link.on_fault = self._on_fault
        info = self._link.start(connect_wait_s)
        self._check_buttons(info)
        self.tick_hz = info.tick_hz
        # One tick: presses in the same tick tie, one tick apart are ordered (see pio_programs.py).
        self.resolution_ns = resolution_ns if resolution_ns is not None else -(-1_000_000_000 // info.tick_hz)
        self._refresh_status()
        threading.Thread(target=self._watch, name="board-patience", daemon=True).start()

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
        """The current board's ticks on this adapter's clock."""
        with self._cond:
            return self._to_ns(ticks, None)

    def now_ns(self) -> int:
        """The latest board time the board has reported (every edge before it has arrived),
        on this adapter's clock: it never runs backwards, across restarts too."""
        with self._cond:
            return self._now_ns

    def wait_connected(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` board seconds (times the time scale) for the board to be back."""
        return self._link.wait_connected(timeout_s)

    def wait_back(self) -> None:
        """Return once the board is connected; raise BoardGone once it has been gone for the
        patience (counted from the last byte it sent, not from this call)."""
        with self._cond:
            while not (self._link.connected or self._away is not None or self._closed):
                self._cond.wait(0.1)  # _on_link and the watcher notify; the timeout only re-checks
            if not self._link.connected:
                raise BoardGone(self._away or "the buzzer board was closed while the rig waited for it to come back")

    def held_seats(self) -> tuple[int, ...]:
        with self._cond:
            return tuple(s for s, b in enumerate(self.seat_buttons) if b in self._held)

    def guard_held(self) -> bool:
        with self._cond:
            return self.guard_button in self._held

    def wait_until(self, t_ns: int, timeout_s: float) -> bool:
        """Wait until the board's time reaches ``t_ns`` (True) or ``timeout_s`` board seconds
        (times the time scale) pass (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._now_ns >= t_ns, timeout_s * self.time_scale)

    def drain(self) -> list[BoardEvent]:
        return drain_queue(self.events)

    # -- race outputs ----------------------------------------------------------------------

    def arm(self, seats: Iterable[int]) -> ArmReport:
        """Arm a race for ``seats`` on the board: GO off, loggers restarted with the lockout, the
        race buttons flash once. Returns the arming time and the race seats already held."""
        race_seats = tuple(sorted(self._check_seats(seats)))
        with self._arm_lock:
            return self._arm(race_seats)

    def _arm(self, race_seats: tuple[int, ...]) -> ArmReport:
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
            if self._clock is None or reply.session != self._clock.session:
                raise LinkDown(f"the board restarted while race {race} was being armed: arm it again")
            self._race = _Race(race, race_seats, reply.session, ticks)
            for s in race_seats:
                self._held.discard(self.seat_buttons[s])
            self._held |= held_buttons
            t_ns = self._to_ns(ticks, reply.session)
            self._now_ns = max(self._now_ns, t_ns)
        held = tuple(s for s in race_seats if self.seat_buttons[s] in held_buttons)
        return ArmReport(t_ns=t_ns, clock=BOARD_CLOCK, held=held, race=race)

    def go(self, seats: Iterable[int], delay_ns: int = 0, *, race_id: int | None = None) -> Go:
        """GO after ``delay_ns`` counted on the board (so this computer cannot give it away):
        the board raises its GO pin and the race buttons' LEDs; returns GO as the board stamped it.
        ``race_id`` (the ArmReport's ``race``): GO only that race, not one the rig re-armed in its
        place after a void (None: the race armed now, the game loop's way).

        Raises RaceVoidedError if the race is voided meanwhile (its void is then told: no
        RaceVoided record follows for it, and the caller arms anew)."""
        self._check_seats(seats)
        if not 0 <= delay_ns <= MAX_GO_DELAY_NS:
            raise BoardError(f"GO delay {delay_ns!r} ns is not valid: use 0 to {MAX_GO_DELAY_NS} ns")
        with self._cond:
            race = self._race
            if race is not None and race_id is not None and race.race != race_id:
                raise RaceVoidedError(f"race {race_id} was voided before GO: {self._voids.get(race_id, 'it was armed again')}")
            if race is not None and not race.live:
                race.reported = True
                raise RaceVoidedError(f"race {race.race} was voided before GO: {race.why}")
        if race is None:
            raise BoardError("GO without an armed race: arm the race first")
        try:
            self._link.request("GO", [("race", race.race), ("delay_ms", delay_ns // 1_000_000)])
        except (LinkDown, BoardTimeout) as exc:  # the board went away: the race is void either way
            self._told(race)
            raise RaceVoidedError(f"race {race.race} was voided before GO ({exc})") from exc
        except BoardError as exc:
            with self._cond:
                live = race.live
            if not live:  # e.g. a restarted board that does not know the race any more
                self._told(race)
                raise RaceVoidedError(f"race {race.race} was voided before GO ({exc})") from exc
            raise
        with self._cond:
            ok = self._cond.wait_for(
                lambda: race.go_t_ns is not None or not race.live or self._closed,
                (delay_ns / 1e9 + GO_REPORT_S) * self.time_scale,
            )
            go_t_ns = race.go_t_ns
        if go_t_ns is None:
            if ok:
                self._told(race)
                raise RaceVoidedError(f"race {race.race} was voided before GO: {race.why or 'the rig was closed'}")
            raise BoardTimeout(f"the board did not report GO for race {race.race}: check the GO pin wiring")
        return Go(t_ns=go_t_ns, clock=BOARD_CLOCK)

    def _told(self, race: _Race) -> None:
        """The caller was told this race is void (go() raised): no RaceVoided, no re-arm for it."""
        with self._cond:
            race.live = False
            race.reported = True
            self._voiding = False

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
        if verb in ("PRESS", "RELEASE", "GO"):
            self._on_stamp(frame)
        elif verb in ("TIME", "PONG"):
            ticks = frame.get_int("ticks")
            with self._cond:
                if verb == "TIME" and frame.seq >= 0:
                    self._promises.append((frame.seq, ticks))
                self._now_ns = max(self._now_ns, self._to_ns(ticks, frame.session))
                self._cond.notify_all()
        elif verb in ("DROP", "LOST"):
            self._void(f"the board lost edges ({verb.lower()})", rearm_now=True)
        elif verb == "END" and frame.fields.get("why") == "nogo":
            self._void("the board's GO pin did not report (check its wiring)", rearm_now=True)

    def _on_stamp(self, frame: Frame) -> None:
        verb = frame.verb
        ticks = frame.get_int("ticks", -MAX_TICKS, MAX_TICKS)
        btn = frame.get_int("btn", 0, 63) if verb != "GO" else -1
        race_id = frame.get_int("race") if verb == "GO" else 0
        with self._cond:
            fault = self._impossible(frame, ticks)
            if fault is None:
                t_ns = self._to_ns(ticks, frame.session)
                if verb == "GO":
                    race = self._race
                    if race is not None and race.race == race_id:
                        if race.go_t_ns is not None and race.live:
                            # One GO per race: a second one (not a resend: those keep their number and
                            # are dropped as duplicates) leaves no way to know which stamp is true.
                            fault = (f"the board sent a second GO for race {race_id} (ticks={ticks}) after "
                                     f"the one at {race.go_t_ns} ns on the host's clock")
                        elif race.go_t_ns is None:
                            race.go_t_ns = t_ns
                else:
                    (self._held.add if verb == "PRESS" else self._held.discard)(btn)
                self._now_ns = max(self._now_ns, t_ns)
                self._cond.notify_all()
        if fault is not None:
            if fault.startswith("the board sent a second GO"):
                self._on_protocol_fault(fault)
            else:
                self._stamp_fault(fault)
            return
        if verb != "GO":
            event = self._edge(btn, t_ns, verb == "PRESS")
            if event is not None:
                self.events.put(event)

    def _impossible(self, frame: Frame, ticks: int) -> str | None:
        """Why the stamp of this PRESS/RELEASE/GO cannot be true, or None (under the lock)."""
        what = " ".join([frame.verb, *(f"{k}={v}" for k, v in frame.fields.items())])
        if ticks < 0:
            return f"the board stamped {what} before its power-up (a negative tick count)"
        race = self._race
        if race is not None and race.session == frame.session and ticks < race.armed_ticks - PIO_WRAP_TICKS:
            return (f"the board stamped {what} more than one PIO counter wrap (2**31 ticks) before its "
                    f"arming at ticks={race.armed_ticks}")
        promise = self._promise_before(frame.seq)
        if promise is not None and ticks < promise:
            return (f"the board stamped {what} behind its heartbeat TIME ticks={promise}, which said every "
                    f"earlier edge had been sent")
        return None

    def _promise_before(self, seq: int) -> int | None:
        """The highest ``TIME`` the board sent before frame ``seq`` (this session), if any."""
        if seq < 0:
            return None
        before = [ticks for time_seq, ticks in self._promises if P.seq_after(seq, time_seq) > 0]
        return max(before) if before else None

    def _stamp_fault(self, message: str) -> None:
        self._link.record_fault("stamp", message)
        self.faults.append(message)
        self._void(message, rearm_now=True)

    def _on_protocol_fault(self, message: str) -> None:
        self._link.record_fault("protocol", message)
        self.faults.append(message)
        self._void(message, rearm_now=True)

    def _on_fault(self, message: str) -> None:
        """A protocol fault the link found (it counted it): the race in progress cannot be trusted."""
        self.faults.append(message)
        self._void(message, rearm_now=True)

    def _on_link(self, up: bool, info: BoardInfo | None) -> None:
        with self._cond:
            if up:
                self._away = None  # back: a later absence gets the whole patience again
            self._cond.notify_all()  # wait_back and the watcher look again
        if not up or info is None:
            why = "the board was disconnected"
            error = self._link.error
            refused = isinstance(error, (BoardMismatch, BoardUnsupported, BoardAtPrompt))
            if refused:
                why += f" and refused ({error})"
            # a refused board comes back only after someone flashes or swaps it: say so now
            self._void(why, rearm_now=False, report_now=refused)
            return
        with self._cond:
            old = self._clock
            self._new_clock(info)
            race = self._race
            stale = race is not None and race.live and race.session != info.session
            pending = self._voiding
        if stale:
            why = "the board restarted"
            if old is not None and old.boot != info.boot:
                why += f" (boot {old.boot}, now {info.boot})"
            self._void(why, rearm_now=True)
        elif pending:
            threading.Thread(target=self._rearm, args=("the board was disconnected",), daemon=True).start()

    def _new_clock(self, info: BoardInfo) -> None:
        """The clock of a new link session (under the lock): the old one goes on if it is the
        same board still counting, else a new offset keeps this adapter's clock monotonic."""
        old = self._clock
        at_hello_ns = (info.uptime_ms or 0) * 1_000_000  # never more than the board's ticks then
        if old is None:
            offset_ns = 0
        elif (info.solicited and info.boot == old.boot and info.tick_hz == old.tick_hz
              and old.offset_ns + at_hello_ns >= self._now_ns):
            offset_ns = old.offset_ns  # unplugged and back without a restart: the same clock
        else:
            # never below 0: a board whose own clock is already ahead keeps it (still monotonic)
            offset_ns = max(0, self._now_ns + RESTART_MARGIN_NS - at_hello_ns)
            self._held = set()  # a new board: what the old one held is gone (ARM and STATUS say anew)
            self._link.record_restart()
        self._clock = _Clock(info.session, info.tick_hz, offset_ns, info.boot)
        self._clocks = {k: v for k, v in self._clocks.items() if k >= info.session - 4}
        self._clocks[info.session] = self._clock
        self._promises.clear()
        self.tick_hz = info.tick_hz
        self._cond.notify_all()

    def _to_ns(self, ticks: int, session: int | None) -> int:
        clock = self._clocks.get(session, self._clock) if session is not None else self._clock
        if clock is None:
            return ticks * 1_000_000_000 // self.tick_hz
        return clock.to_ns(ticks)

    def _void(self, why: str, rearm_now: bool, report_now: bool = False) -> None:
        """Void the live race: re-arm it now (a worker thread), once the board is back (the next
        HELLO), or report it now with nothing re-armed (``report_now``)."""
        with self._cond:
            race = self._race
            if race is None or not race.live:
                return
            race.live = False
            race.why = why
            self._voids[race.race] = why
            while len(self._voids) > 16:
                del self._voids[next(iter(self._voids))]
            self._voiding = not report_now
            self._cond.notify_all()
        if rearm_now:
            threading.Thread(target=self._rearm, args=(why,), daemon=True).start()
        elif report_now:
            with self._cond:
                race.reported = True
            self.events.put(RaceVoided(race.race, why, None))

    def _rearm(self, why: str) -> None:
        """On a worker thread (the link thread must keep reading): arm the voided race's seats
        again and report the void, unless it was told already (go() raised for it: the caller
        arms anew) or the caller armed another race meanwhile."""
        with self._arm_lock:
            with self._cond:
                race = self._race
                self._voiding = False
                if race is None or race.live or race.reported:
                    return
            rearmed: ArmReport | None = None
            try:
                rearmed = self.arm(race.seats)  # the lock is re-entrant: arm() as any caller's
            except (BoardError, LinkDown):
                rearmed = None
            with self._cond:
                if race.reported:
                    return
                race.reported = True
        self.events.put(RaceVoided(race.race, why, rearmed))

    def _watch(self) -> None:
        """Thread: once the board has been gone (link down) for the patience, counted from the
        last byte it sent, one BoardAway goes on ``events`` and wait_back() gives up."""
        with self._cond:
            while not self._closed:
                if self._link.connected or self._away is not None:
                    self._cond.wait(0.5)  # _on_link notifies; the timeout only re-checks
                    continue
                left = self._link.last_heard_s + self.patience_s * self.time_scale - time.monotonic()
                if left > 0:
                    self._cond.wait(min(left, 0.5))
                    continue
                self._away = gone_message(self._link.error, self.patience_s)
                self.events.put(BoardAway(self._away, self.patience_s))
                self._cond.notify_all()

    def _edge(self, btn: int, t_ns: int, down: bool) -> RigEvent | None:
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
            self._now_ns = max(self._now_ns, self._to_ns(reply.get_int("ticks"), reply.session))

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
