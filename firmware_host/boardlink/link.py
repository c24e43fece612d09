"""The host side of the buzzer board link: frames, sequence bookkeeping and a reader thread.

Framing and checksums come from the shared codec ``firmware_host/board/protocol.py`` (the same
file runs on the board); the protocol is ``firmware_host/board/PROTOCOL.md``.

:class:`BoardLink` owns one thread that opens the port (an explicit path, or the first USB
serial port with the Raspberry Pi vendor id 0x2E8A), says HELLO, reads, and reconnects after an
unplug; it never dies on bad input: every bad line is counted (by reason) and answered with a
rate-limited ``NAK``; gaps in the board's sequence numbers are counted and asked for again.
Requests (:meth:`BoardLink.request`) are retried with the same sequence number, which the board
answers from its reply cache instead of acting twice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..board import protocol as P
from .errors import BoardError, BoardMismatch, BoardNotFound, BoardRefused, BoardTimeout, LinkDown

PICO_VID = 0x2E8A
READ_TIMEOUT_S = 0.01
NAK_INTERVAL_S = 0.02  # at most one NAK per this long: a noisy line must not flood the board
MISSING_TIMEOUT_S = 0.5  # a frame asked for again and still missing after this is lost
HELLO_TRIES = 5


class SerialPort(Protocol):
    """What the link needs of a ``serial.Serial``."""

    @property
    def in_waiting(self) -> int: ...
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded frame. ``seq`` is -1 for a frame the host made up (a ``LOST`` it detected)."""

    seq: int
    verb: str
    fields: Mapping[str, str]

    def get_int(self, key: str, low: int = 0, high: int = 2**63) -> int:
        return P.get_int(dict(self.fields), key, low, high)

    def get_ints(self, key: str, high: int = 63) -> list[int]:
        return P.get_list(dict(self.fields), key, 0, high, high + 1)


def decode_frame(line: bytes) -> Frame:
    """A frame from one line; raises ``protocol.ProtocolError`` (a ValueError) and nothing else."""
    seq, verb, fields = P.decode(line)
    return Frame(seq, verb, fields)


@dataclass(slots=True)
class LinkCounters:
    """What went over the link and what went wrong, since the link was made."""

    frames_in: int = 0
    frames_out: int = 0
    bad_frames: int = 0
    bad_by_reason: dict[str, int] = field(default_factory=dict)
    ignored_before_hello: int = 0
    gaps: int = 0
    missing_frames: int = 0
    recovered_frames: int = 0
    lost_frames: int = 0
    duplicates: int = 0
    naks_sent: int = 0
    naks_received: int = 0
    retries: int = 0
    connects: int = 0
    disconnects: int = 0
    read_errors: int = 0
    callback_errors: int = 0
    unmatched_replies: int = 0

    def copy(self) -> LinkCounters:
        return replace(self, bad_by_reason=dict(self.bad_by_reason))


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """The board's HELLO."""

    port: str
    proto: tuple[int, int]
    fw: str
    tick_hz: int
    buttons: int
    boot: str


def find_board_ports() -> list[str]:
    """Serial ports of USB devices with the Raspberry Pi vendor id (a Pico running MicroPython)."""
    from serial.tools import list_ports  # type: ignore[import-untyped]

    return sorted(p.device for p in list_ports.comports() if p.vid == PICO_VID)


def open_serial(path: str) -> SerialPort:
    import serial  # type: ignore[import-untyped]

    try:
        # exclusive: a second program on the same board would steal half of its lines
        port: SerialPort = serial.Serial(path, 115200, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True)
        return port
    except (serial.SerialException, OSError) as exc:
        raise BoardNotFound(
            f"port {path!r} cannot be opened ({exc}): check the cable and that no other program has it open"
        ) from exc


class SeqTracker:
    """The board's sequence numbers as received: gaps, late (resent) frames and duplicates."""

    def __init__(self) -> None:
        self.highest: int | None = None
        self.missing: dict[int, float] = {}  # seq -> when it was found missing

    def reset(self, seq: int) -> None:
        self.highest = seq
        self.missing.clear()

    def accept(self, seq: int, now_s: float) -> tuple[str, int]:
        """("new", gap) with the number of frames skipped, ("late", 0) or ("duplicate", 0)."""
        if self.highest is None:
            self.highest = seq
            return "new", 0
        ahead = P.seq_after(seq, self.highest)
        if ahead > 0:
            for k in range(1, min(ahead, 1024)):
                self.missing[(self.highest + k) % P.SEQ_MOD] = now_s
            self.highest = seq
            return "new", ahead - 1
        if seq in self.missing:
            del self.missing[seq]
            return "late", 0
        return "duplicate", 0

    def last_in_order(self) -> int:
        """The last sequence number before the first missing one (what a NAK names)."""
        assert self.highest is not None
        if not self.missing:
            return self.highest
        first = min(self.missing, key=lambda s: P.seq_after(s, self.highest or 0))
        return (first - 1) % P.SEQ_MOD

    def expire(self, now_s: float, after_s: float) -> list[int]:
        gone = [s for s, t in self.missing.items() if now_s - t >= after_s]
        for s in gone:
            del self.missing[s]
        return gone


@dataclass
class _Pending:
    line: bytes
    done: threading.Event = field(default_factory=threading.Event)
    reply: Frame | None = None
    failed: BaseException | None = None


FrameHandler = Callable[[Frame], None]
LinkHandler = Callable[[bool, "BoardInfo | None"], None]


class BoardLink:
    """One board on one serial port, kept connected by a reader thread until :meth:`close`."""

    def __init__(
        self,
        port: str | None = None,
        *,
        on_frame: FrameHandler | None = None,
        on_link: LinkHandler | None = None,
        reply_timeout_s: float = 0.3,
        tries: int = 5,
        reconnect_wait_s: float = 0.1,
        opener: Callable[[str], SerialPort] = open_serial,
        finder: Callable[[], list[str]] = find_board_ports,
    ) -> None:
        self.port = port
        self.on_frame = on_frame
        self.on_link = on_link
        self.reply_timeout_s = reply_timeout_s
        self.tries = tries
        self.reconnect_wait_s = reconnect_wait_s
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

    # -- public --------------------------------------------------------------------------

    def start(self, wait_s: float = 3.0) -> BoardInfo:
        """Start the thread and wait for the first HELLO. Raises BoardNotFound, BoardMismatch
        or BoardTimeout (and stops the thread) if there is no working board within ``wait_s``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="board-link", daemon=True)
            self._thread.start()
        deadline = time.monotonic() + wait_s
        while True:
            if self._up.wait(0.02) and self._info is not None:
                return self._info
            error = self._error
            if isinstance(error, (BoardNotFound, BoardMismatch, BoardTimeout)) or time.monotonic() > deadline:
                break
        self.close()
        if isinstance(error, BoardError):
            raise error
        where = repr(self.port) if self.port else "any USB port with vendor id 0x2E8A"
        raise BoardTimeout(f"no board answered HELLO on {where} within {wait_s:g} s: is the firmware flashed?")

    @property
    def info(self) -> BoardInfo | None:
        return self._info

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    @property
    def counters(self) -> LinkCounters:
        with self._lock:
            return self._counters.copy()

    def wait_connected(self, timeout_s: float) -> bool:
        return self._up.wait(timeout_s)

    def request(self, verb: str, fields: list[tuple[str, object]], timeout_s: float | None = None) -> Frame:
        """Send a request and return its reply; retried with the same sequence number.

        Raises LinkDown if the link is (or goes) down, BoardTimeout after the retries,
        BoardRefused for an ``ERR`` reply."""
        per_try = self.reply_timeout_s if timeout_s is None else timeout_s
        with self._lock:
            if not self._up.is_set():
                raise LinkDown(f"cannot send {verb}: the board is not connected")
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
            raise BoardRefused(f"the board refused {verb} with code {reply.fields.get('code')!r}")
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
                self._session()
            except Exception as exc:  # never die: count, drop the port, try again
                with self._lock:
                    self._counters.read_errors += 1
                self._error = exc if isinstance(exc, BoardError) else self._error
                self._drop_serial(notify=True)
            if isinstance(self._error, BoardMismatch):
                self._closed.wait(1.0)  # someone has to flash it: no hurry
            self._closed.wait(self.reconnect_wait_s)

    def _resolve_port(self) -> str:
        if self.port:
            return self.port
        ports = self._finder()
        if not ports:
            raise BoardNotFound("no buzzer board found (USB vendor id 0x2E8A): plug it in or name its port with --port")
        return ports[0]

    def _session(self) -> None:
        path = self._resolve_port()
        ser = self._opener(path)
        with self._lock:
            self._serial = ser
            self._lines.clear()
            self._pending_hello(path)
        self._write(self._hello.line if self._hello else b"")
        hello_sent_s = time.monotonic()
        hello_tries = 1
        while not self._closed.is_set():
            try:
                data = ser.read(max(1, ser.in_waiting))
            except Exception as exc:
                raise LinkDown(f"port {path!r} went away ({exc})") from exc
            now = time.monotonic()
            if data:
                self.feed(data, now)
            if not self._up.is_set() and self._hello is not None and now - hello_sent_s > self.reply_timeout_s:
                if hello_tries >= HELLO_TRIES:
                    raise BoardTimeout(f"the device on {path!r} does not answer HELLO: is the firmware flashed?")
                hello_tries += 1
                hello_sent_s = now
                self._write(self._hello.line)
            self._housekeeping(now)

    def _pending_hello(self, path: str) -> None:
        self._next_seq = 0
        self._hello_seq = 0
        self._hello = _Pending(P.encode(0, "HELLO", [("proto", P.PROTO)]))
        self._next_seq = 1
        self._hello_port = path

    def feed(self, data: bytes, now_s: float) -> None:
        """Handle bytes read from the board (the thread calls it; tests may too)."""
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
        with self._lock:
            self._counters.frames_in += 1
            kind, gap = self._tracker.accept(frame.seq, now_s)
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
        try:
            info = self._hello_info(frame)
        except P.ProtocolError as exc:
            raise BoardMismatch(f"the board's HELLO is not protocol {P.PROTO} ({exc}): flash this version's firmware with 'cheating-moth board flash'") from exc
        if info.proto[0] != P.PROTO_MAJOR:
            raise BoardMismatch(
                f"the board speaks protocol {info.proto[0]}.{info.proto[1]} (firmware {info.fw}), this host "
                f"speaks {P.PROTO}: flash this version's firmware with 'cheating-moth board flash'"
            )
        with self._lock:
            self._tracker.reset(frame.seq)
            self._info = info
            self._error = None
            self._counters.connects += 1
            self._hello = None
            self._up.set()
        self._notify_link(True, info)

    def _hello_info(self, frame: Frame) -> BoardInfo:
        return BoardInfo(
            port=self._hello_port,
            proto=P.parse_version(frame.fields.get("proto", "")),
            fw=frame.fields.get("fw", "?"),
            tick_hz=frame.get_int("tick_hz", 1, 10**10),
            buttons=frame.get_int("buttons", 1, 32),
            boot=frame.fields.get("boot", "?"),
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
            with self._lock:
                self._counters.lost_frames += self._lost_count(frame)
        self._call(self.on_frame, frame)

    def _board_restarted(self, frame: Frame) -> None:
        """A HELLO nobody asked for: the board restarted under an open port (watchdog, reset)."""
        try:
            info = replace(self._hello_info(frame), port=self._hello_port)
        except P.ProtocolError:
            with self._lock:
                self._counters.bad_frames += 1
            return
        self._notify_link(False, None)
        with self._lock:
            self._tracker.reset(frame.seq)
            self._info = info
            self._counters.connects += 1
            self._counters.frames_in += 1
        self._notify_link(True, info)

    @staticmethod
    def _lost_count(frame: Frame) -> int:
        try:
            return P.seq_after(frame.get_int("to", 0, P.SEQ_MOD - 1), frame.get_int("from", 0, P.SEQ_MOD - 1)) + 1
        except P.ProtocolError:
            return 1

    def _housekeeping(self, now_s: float) -> None:
        with self._lock:
            if not self._up.is_set():
                return
            gone = self._tracker.expire(now_s, MISSING_TIMEOUT_S)
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
            frm = min(gone)
            self._call(self.on_frame, Frame(-1, "LOST", {"from": str(frm), "to": str(max(gone))}))

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
        with self._write_lock:
            try:
                ser.write(data)
            except Exception as exc:
                raise LinkDown(f"writing to the board failed ({exc})") from exc
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
        for p in pending:
            p.failed = LinkDown("the board was disconnected")
            p.done.set()
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass
        if was_up and notify:
            self._notify_link(False, None)
