"""The host side of the buzzer board link: frames, sequence bookkeeping and a reader thread.

Framing and checksums come from the shared codec ``firmware_host/board/protocol.py`` (the same
file runs on the board); the protocol is ``firmware_host/board/PROTOCOL.md``.

:class:`BoardLink` owns one thread that opens the port (an explicit path, or each USB serial
port with id 2E8A:0005 in turn until one answers HELLO as this firmware; see identity.py), says
HELLO, reads, and reconnects after an unplug; it never dies on bad input: every bad line is
counted (by reason) and answered with a rate-limited ``NAK``; gaps in the board's sequence numbers
are counted and asked for again. Requests (:meth:`BoardLink.request`) are retried with the same
sequence number, which the board answers from its reply cache instead of acting twice.

Each connection is a *session* (numbered from 1; a board that restarts under an open port starts
a new one). Every frame carries the session it came in, so the race adapter maps a board's ticks
with the clock offset of the board that sent them. Protocol faults (a ``LOST`` whose range runs
backwards, a restarted board that speaks another protocol) are counted and reported through
``on_fault``; they never make a count negative and never leave stale sequence tracking.
All waits on the board are multiplied by the time scale (timescale.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..board import protocol as P
from .errors import (
    BoardAtPrompt, BoardError, BoardMismatch, BoardNotFound, BoardRefused, BoardTimeout, BoardUnsupported, LinkDown,
)
from .frames import BoardInfo, Frame, LinkCounters, SeqTracker, decode_frame, lost_range
from .identity import PICO_VID, USB_IDS, USE_INSTEAD, check_identity, matching_ports
from .timescale import resolve_time_scale

__all__ = [
    "PICO_VID", "BoardInfo", "BoardLink", "Frame", "LinkCounters", "SeqTracker", "decode_frame", "find_board_ports",
    "lost_range", "open_serial",
]

READ_TIMEOUT_S = 0.01
NAK_INTERVAL_S = 0.02  # at most one NAK per this long: a noisy line must not flood the board
MISSING_TIMEOUT_S = 0.5  # (board time) a frame asked for again and still missing after this is lost
HELLO_TRIES = 5
# (board time) A board sends a TIME heartbeat at least every 250 ms: a connected board that sent
# nothing for this long is treated as gone (the port is dropped and a fresh handshake tried), so
# a board that restarted into the MicroPython prompt under an open port is found, not waited on.
SILENCE_S = 2.0
# What MicroPython's REPL sends and the protocol never does (">" is not a protocol byte): the
# banner, the prompts, a traceback of a frame it tried to run as Python, the raw REPL's greeting.
REPL_SIGNS = (b">>> ", b"MicroPython v", b"Traceback (most recent call last)", b"raw REPL; CTRL-B to exit",
              b'Type "help()" for more information')
REPL_TAIL = 40  # bytes kept between reads so that a sign cut in two is still found
# Errors that need a person (flash, swap or restart the board): said at once, retried slowly.
NEEDS_A_PERSON = (BoardMismatch, BoardUnsupported, BoardAtPrompt)


def at_prompt_message(path: str) -> str:
    return (f"the board on {path!r} is at the MicroPython prompt instead of running the buzzer firmware (it "
            f"started in safe boot or the firmware stopped): unplug it and plug it in again, or flash it with "
            f"'cheating-moth board flash'")


class SerialPort(Protocol):
    """What the link needs of a ``serial.Serial``."""

    @property
    def in_waiting(self) -> int: ...
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


def find_board_ports() -> list[str]:
    """Serial ports of a Pico running MicroPython (USB 2E8A:0005; never a Debug Probe or
    another Raspberry Pi device), sorted. Each is then asked HELLO."""
    from serial.tools import list_ports  # type: ignore[import-untyped]

    return matching_ports(list_ports.comports())


def open_serial(path: str) -> SerialPort:
    import serial  # type: ignore[import-untyped]

    try:
        # Opened exclusively (advisory lock): pyserial's exclusive=True takes a flock, which a
        # second program that also asks for it is refused (it would steal half of the lines);
        # a program that does not ask is not stopped.
        port: SerialPort = serial.Serial(path, 115200, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True)
        return port
    except (serial.SerialException, OSError) as exc:
        raise BoardNotFound(
            f"port {path!r} cannot be opened ({exc}): check the cable and that no other program has it open"
        ) from exc


@dataclass
class _Pending:
    line: bytes
    done: threading.Event = field(default_factory=threading.Event)
    reply: Frame | None = None
    failed: BaseException | None = None


FrameHandler = Callable[[Frame], None]
LinkHandler = Callable[[bool, "BoardInfo | None"], None]
FaultHandler = Callable[[str], None]


class BoardLink:
    """One board on one serial port, kept connected by a reader thread until :meth:`close`."""

    def __init__(
        self,
        port: str | None = None,
        *,
        on_frame: FrameHandler | None = None,
        on_link: LinkHandler | None = None,
        on_fault: FaultHandler | None = None,
        reply_timeout_s: float = 0.3,
        tries: int = 5,
        reconnect_wait_s: float = 0.1,
        opener: Callable[[str], SerialPort] | None = None,
        finder: Callable[[], list[str]] | None = None,
        time_scale: float | None = None,
        silence_s: float = SILENCE_S,
    ) -> None:
        """``reply_timeout_s`` (per try), ``silence_s`` and every other wait on the board are in
        board seconds, multiplied by ``time_scale`` (None: $CHEATING_MOTH_BOARD_TIME_SCALE, else 1.0)."""
        self.port = port
        self.on_frame = on_frame
        self.on_link = on_link
        self.on_fault = on_fault
        self.reply_timeout_s = reply_timeout_s
        self.tries = tries
        self.reconnect_wait_s = reconnect_wait_s
        self.silence_s = silence_s
        self.time_scale = resolve_time_scale(time_scale)
        self._opener = opener
        self._finder = finder
        self._lock = threading.Lock()  # state shared with requesting threads
        self._write_lock = threading.Lock()
        self._counters = LinkCounters()
        self._closed = threading.Event()
        self._up = threading.Event()
        self._serial: SerialPort | None = None
        self._info: BoardInfo | None = None
        self._error: BaseException | None = None
        self._pending: dict[int, _Pending] = {}
        self._next_seq = 0
        self._thread: threading.Thread | None = None
        self._lines = P.LineBuffer()
        self._tracker = SeqTracker()
        self._hello: _Pending | None = None
        self._hello_seq = 0
        self._nak_due = False
        self._last_nak_s = 0.0
        self._session_no = 0
        self._session_up = False  # this port's handshake succeeded (later errors are not refusals)
        self._hello_port = ""
        self._tail = b""  # the last bytes read, for a REPL sign cut across two reads
        self._repl_seen = False  # MicroPython's REPL talked on this port since the last HELLO sent
        self._last_heard_s = time.monotonic()

    # -- public --------------------------------------------------------------------------

    def start(self, wait_s: float = 3.0) -> BoardInfo:
        """Start the thread and wait for the first HELLO (``wait_s`` board seconds). Raises
        BoardNotFound, BoardMismatch, BoardUnsupported or BoardTimeout (and stops the thread) if
        there is no working board in time."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="board-link", daemon=True)
            self._thread.start()
        deadline = time.monotonic() + wait_s * self.time_scale
        while True:
            if self._up.wait(0.02) and self._info is not None:
                return self._info
            error = self._error
            if isinstance(error, (BoardNotFound, BoardTimeout, *NEEDS_A_PERSON)) or time.monotonic() > deadline:
                break
        self.close()
        if isinstance(error, BoardError):
            raise error
        where = repr(self.port) if self.port else f"any USB port with id {USB_IDS}"
        raise BoardTimeout(f"no board answered HELLO on {where} within {wait_s * self.time_scale:g} s: is the firmware flashed?")

    @property
    def info(self) -> BoardInfo | None:
        return self._info

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    @property
    def session(self) -> int:
        """The current link session (1 for the first connection; 0 before it)."""
        return self._session_no

    @property
    def last_heard_s(self) -> float:
        """``time.monotonic()`` when the board last sent a byte (or this link started)."""
        return self._last_heard_s

    @property
    def error(self) -> BaseException | None:
        """Why the last connection attempt failed (None after a good HELLO)."""
        return self._error

    def record_restart(self) -> None:
        """Count a board that came back with a new clock (the race adapter decides that)."""
        with self._lock:
            self._counters.board_restarts += 1

    def record_fault(self, kind: str, message: str) -> None:
        """Count a fault found above the link (``kind`` "stamp": an impossible stamp)."""
        with self._lock:
            if kind == "stamp":
                self._counters.stamp_faults += 1
            else:
                self._counters.protocol_errors += 1
            self._counters.last_fault = message

    @property
    def counters(self) -> LinkCounters:
        with self._lock:
            return self._counters.copy()

    def wait_connected(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` board seconds for the link to be up."""
        return self._up.wait(timeout_s * self.time_scale)

    def request(self, verb: str, fields: list[tuple[str, object]], timeout_s: float | None = None) -> Frame:
        """Send a request and return its reply; retried with the same sequence number.

        Raises LinkDown if the link is (or goes) down, BoardTimeout after the retries,
        BoardRefused for an ``ERR`` reply (BoardUnsupported for ``ERR code=board``).
        ``timeout_s`` per try is in board seconds (times the time scale)."""
        per_try = (self.reply_timeout_s if timeout_s is None else timeout_s) * self.time_scale
        with self._lock:
            if not self._up.is_set():
                why = self._error if isinstance(self._error, BoardAtPrompt) else "the board is not connected"
                raise LinkDown(f"cannot send {verb}: {why}")
            seq = self._next_seq
            self._next_seq = P.next_seq(seq)
            pending = _Pending(P.encode(seq, verb, fields))
            self._pending[seq] = pending
        try:
            for attempt in range(self.tries):
                if attempt:
                    with self._lock:
                        self._counters.retries += 1
                self._write(pending.line)
                if pending.done.wait(per_try):
                    break
            else:
                raise BoardTimeout(f"the board did not answer {verb} after {self.tries} tries")
        finally:
            with self._lock:
                self._pending.pop(seq, None)
        if pending.failed is not None:
            raise pending.failed
        reply = pending.reply
        assert reply is not None
        if reply.verb == "ERR":
            code = reply.fields.get("code")
            if code == "board":
                raise BoardUnsupported(
                    f"the board refused {verb} with code 'board' (its firmware found hardware it does not support): {USE_INSTEAD}"
                )
            raise BoardRefused(f"the board refused {verb} with code {code!r}")
        return reply

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (tests: a bad frame)."""
        self._write(data)

    def close(self) -> None:
        self._closed.set()
        self._drop_serial(notify=False)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    # -- the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        while not self._closed.is_set():
            try:
                self._connect_any()
            except Exception as exc:  # never die: count, drop the port, try again
                with self._lock:
                    self._counters.read_errors += 1
                self._error = exc if isinstance(exc, BoardError) else self._error
                self._drop_serial(notify=True)
            if isinstance(self._error, NEEDS_A_PERSON):
                self._closed.wait(1.0)  # someone has to flash, swap or restart it: no hurry
            self._closed.wait(self.reconnect_wait_s)

    def _candidates(self) -> list[str]:
        if self.port:
            return [self.port]
        ports = (self._finder or find_board_ports)()
        if not ports:
            raise BoardNotFound(
                f"no buzzer board found (USB id {USB_IDS}, a Pico running MicroPython): plug it in or name its port with --port"
            )
        return ports

    def _connect_any(self) -> None:
        """Ask each candidate port HELLO in turn; keep the first that answers as this firmware
        until it goes away (or :meth:`close`)."""
        paths = self._candidates()
        refused: list[BoardError] = []
        for path in paths:
            if self._closed.is_set():
                return
            try:
                self._session(path)
                return
            except BoardError as exc:
                if self._session_up or len(paths) == 1:
                    raise
                refused.append(exc)
                self._drop_serial(notify=False)
        for said in refused:  # a board that said what it is beats one that said nothing
            if isinstance(said, NEEDS_A_PERSON):
                raise said
        raise BoardTimeout(
            f"none of the {len(paths)} ports with USB id {USB_IDS} ({', '.join(paths)}) answered HELLO as the "
            f"buzzer firmware: flash it with 'cheating-moth board flash --port PATH'"
        )

    def _session(self, path: str) -> None:
        self._session_up = False
        ser = (self._opener or open_serial)(path)
        with self._lock:
            self._serial = ser
            self._lines.clear()
            self._tail = b""
            self._repl_seen = False
            hello = self._pending_hello(path)
        self._write(hello.line)
        hello_timeout_s = self.reply_timeout_s * self.time_scale
        hello_sent_s = time.monotonic()
        hello_tries = 1
        while not self._closed.is_set():
            try:
                data = ser.read(max(1, ser.in_waiting))
            except Exception as exc:
                raise LinkDown(f"port {path!r} went away ({exc})") from exc
            now = time.monotonic()
            if data:
                self._last_heard_s = now
                self.feed(data, now)
            elif self._up.is_set() and now - self._last_heard_s > self.silence_s * self.time_scale:
                raise LinkDown(f"the board on {path!r} sent nothing for {self.silence_s * self.time_scale:g} s")
            if not self._session_up and now - hello_sent_s > hello_timeout_s:
                if self._repl_seen:  # the REPL answered our HELLO (echo, traceback, ">>> ")
                    self._at_prompt()
                if hello_tries >= HELLO_TRIES:
                    raise BoardTimeout(f"the device on {path!r} does not answer HELLO: is the firmware flashed?")
                hello_tries += 1
                hello_sent_s = now
                self._repl_seen = False
                self._write(hello.line)
            self._housekeeping(now)

    def _at_prompt(self) -> None:
        with self._lock:
            self._counters.protocol_errors += 1
            self._counters.last_fault = "the board answered at the MicroPython prompt"
        raise BoardAtPrompt(at_prompt_message(self._hello_port or str(self.port)))

    def _pending_hello(self, path: str) -> _Pending:
        self._hello_seq = 0
        self._hello = _Pending(P.encode(0, "HELLO", [("proto", P.PROTO)]))
        self._next_seq = 1
        self._hello_port = path
        return self._hello

    def feed(self, data: bytes, now_s: float) -> None:
        """Handle bytes read from the board (the thread calls it; tests may too). Raises
        BoardAtPrompt when they are MicroPython's REPL talking, not the firmware."""
        tail = self._tail + data
        self._tail = tail[-REPL_TAIL:]
        if any(sign in tail for sign in REPL_SIGNS):
            # Before the handshake it may be stale (the REPL talked, then a soft reboot started the
            # firmware): it counts only if our HELLO then goes unanswered. Once up, the firmware
            # is gone: it never writes these bytes.
            self._repl_seen = True
            if self._up.is_set():
                self._at_prompt()
        for line in self._lines.feed(data):
            self._handle_line(line, now_s)

    def _handle_line(self, line: bytes, now_s: float) -> None:
        up = self._up.is_set()
        try:
            frame = decode_frame(line)
        except P.ProtocolError as exc:
            with self._lock:
                if not up:
                    self._counters.ignored_before_hello += 1
                    return
                self._counters.bad_frames += 1
                self._counters.bad_by_reason[exc.reason] = self._counters.bad_by_reason.get(exc.reason, 0) + 1
                self._nak_due = True
            return
        if not up:
            self._maybe_hello(frame)
            return
        if frame.verb == "HELLO" and "re" not in frame.fields:
            self._board_restarted(frame)  # before the duplicate check: a new board counts from 0
            return
        frame = replace(frame, session=self._session_no)
        with self._lock:
            self._counters.frames_in += 1
            highest = self._tracker.highest
            kind, gap = self._tracker.accept(frame.seq, now_s)
            if kind == "behind":
                fault = (f"the board's sequence number went back from {highest} to {frame.seq}, further than any "
                         f"resend: it restarted without a HELLO the host could read")
                self._counters.protocol_errors += 1
                self._counters.last_fault = fault
                raise LinkDown(fault)  # a fresh handshake, never stale tracking
            if gap:
                self._counters.gaps += 1
                self._counters.missing_frames += gap
                self._nak_due = True
            if kind == "duplicate":
                self._counters.duplicates += 1
                return
            if kind == "late":
                self._counters.recovered_frames += 1
        self._dispatch(frame)

    def _maybe_hello(self, frame: Frame) -> None:
        hello = self._hello
        if hello is None or frame.verb != "HELLO" or frame.fields.get("re") != str(self._hello_seq):
            with self._lock:
                self._counters.ignored_before_hello += 1
            return
        info = self._checked_hello(frame, solicited=True)
        with self._lock:
            self._session_no += 1
            info = replace(info, session=self._session_no)
            self._tracker.reset(frame.seq)
            self._info = info
            self._error = None
            self._counters.connects += 1
            self._hello = None
            self._session_up = True
            self._up.set()
        self._notify_link(True, info)

    def _checked_hello(self, frame: Frame, solicited: bool) -> BoardInfo:
        """The HELLO's board, or BoardMismatch / BoardUnsupported (counted as a protocol error
        when it comes mid-session)."""
        try:
            try:
                info = self._hello_info(frame, solicited)
            except P.ProtocolError as exc:
                raise BoardMismatch(
                    f"the board's HELLO is not protocol {P.PROTO_MAJOR}.x ({exc}): flash this version's firmware with "
                    f"'cheating-moth board flash'"
                ) from exc
            if info.proto[0] != P.PROTO_MAJOR:
                raise BoardMismatch(
                    f"the board speaks protocol {info.proto[0]}.{info.proto[1]} (firmware {info.fw}), this host "
                    f"speaks {P.PROTO}: flash this version's firmware with 'cheating-moth board flash'"
                )
            check_identity(info.port, info.chip, info.board)
        except (BoardMismatch, BoardUnsupported) as exc:
            if not solicited:
                with self._lock:
                    self._counters.protocol_errors += 1
                    self._counters.last_fault = f"the board restarted and was refused: {exc}"
            raise
        return info

    def _hello_info(self, frame: Frame, solicited: bool) -> BoardInfo:
        fields = frame.fields
        return BoardInfo(
            port=self._hello_port,
            proto=P.parse_version(fields.get("proto", "")),
            fw=fields.get("fw", "?"),
            tick_hz=frame.get_int("tick_hz", 1, 10**10),
            buttons=frame.get_int("buttons", 1, 32),
            boot=fields.get("boot", "?"),
            chip=fields.get("chip"),
            board=fields.get("board"),
            uptime_ms=frame.get_int("uptime_ms") if "uptime_ms" in fields else None,
            solicited=solicited,
        )

    def _dispatch(self, frame: Frame) -> None:
        re = frame.fields.get("re")
        if re is not None:
            with self._lock:
                pending = self._pending.get(int(re)) if re.isdigit() else None
                if pending is None:
                    self._counters.unmatched_replies += 1
                    return
            pending.reply = frame
            pending.done.set()
            return
        if frame.verb == "NAK":
            with self._lock:
                self._counters.naks_received += 1
                lines = [p.line for p in self._pending.values()]
            for line in lines:
                self._write(line)
            return
        if frame.verb == "LOST":
            count, fault = lost_range(frame)
            with self._lock:
                if fault is None:
                    self._counters.lost_frames += count
                else:
                    self._counters.protocol_errors += 1
                    self._counters.last_fault = fault
            if fault is not None:
                self._fault(fault)
                return
        self._call(self.on_frame, frame)

    def _board_restarted(self, frame: Frame) -> None:
        """A HELLO nobody asked for: the board restarted under an open port (watchdog, reset).
        A new session starts (its sequence numbers and its clock are new); a HELLO that cannot
        be read or speaks another major version drops the port (the next handshake starts
        clean), as at connecting."""
        info = self._checked_hello(frame, solicited=False)
        with self._lock:
            self._session_no += 1
            info = replace(info, port=self._hello_port, session=self._session_no)
            self._tracker.reset(frame.seq)
            self._info = info
            self._counters.connects += 1
            self._counters.frames_in += 1
        self._notify_link(True, info)

    def _housekeeping(self, now_s: float) -> None:
        with self._lock:
            if not self._up.is_set():
                return
            gone = self._tracker.expire(now_s, MISSING_TIMEOUT_S * self.time_scale)
            send_nak = self._nak_due and now_s - self._last_nak_s >= NAK_INTERVAL_S
            if send_nak:
                self._nak_due = False
                self._last_nak_s = now_s
                self._counters.naks_sent += 1
                last = self._tracker.last_in_order()
                seq = self._next_seq
                self._next_seq = P.next_seq(seq)
                nak = P.encode(seq, "NAK", [("last", last)])
            if gone:
                self._counters.lost_frames += len(gone)
        if send_nak:
            self._write(nak)
        if gone:
            ordered = sorted(gone, key=lambda s: P.seq_after(s, gone[0]))  # in sequence order across the wrap
            lost = Frame(-1, "LOST", {"from": str(ordered[0]), "to": str(ordered[-1])}, self._session_no)
            self._call(self.on_frame, lost)

    def _fault(self, message: str) -> None:
        if self.on_fault is None:
            return
        try:
            self.on_fault(message)
        except Exception:
            with self._lock:
                self._counters.callback_errors += 1

    def _call(self, handler: Callable[[Frame], None] | None, frame: Frame) -> None:
        if handler is None:
            return
        try:
            handler(frame)
        except Exception:
            with self._lock:
                self._counters.callback_errors += 1

    def _notify_link(self, up: bool, info: BoardInfo | None) -> None:
        if self.on_link is None:
            return
        try:
            self.on_link(up, info)
        except Exception:
            with self._lock:
                self._counters.callback_errors += 1

    def _write(self, data: bytes) -> None:
        ser = self._serial
        if ser is None:
            raise LinkDown("the board is not connected")
        failed: Exception | None = None
        with self._write_lock:
            try:
                ser.write(data)
            except Exception as exc:
                failed = exc
        if failed is not None:
            # The port is gone for every caller from now on, not only once the reader notices:
            # a caller told "the board went away" must not find it "connected" a moment later.
            if ser is self._serial:
                self._drop_serial(notify=True)
            raise LinkDown(f"writing to the board failed ({failed})") from failed
        with self._lock:
            self._counters.frames_out += 1

    def _drop_serial(self, notify: bool) -> None:
        with self._lock:
            ser, self._serial = self._serial, None
            was_up = self._up.is_set()
            self._up.clear()
            pending = list(self._pending.values())
            if was_up:
                self._counters.disconnects += 1
        why = self._error if isinstance(self._error, BoardAtPrompt) else "the board was disconnected"
        for p in pending:
            p.failed = LinkDown(str(why))
            p.done.set()
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass
        if was_up and notify:
            self._notify_link(False, None)
