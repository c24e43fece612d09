"""The host link against scripted ports (no board): sequence bookkeeping, the handshake and its
refusals, retries that the board answers once, refusals, a callback that raises, a board that
restarts under an open port, frames that never come back."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

import pytest

from firmware_host.board import protocol as P
from firmware_host.boardlink.errors import BoardMismatch, BoardNotFound, BoardRefused, BoardTimeout, LinkDown
from firmware_host.boardlink.link import BoardInfo, BoardLink, Frame, SeqTracker

# A scripted board sends no TIME heartbeat: the link's silence limit (2 board s) is not under test here.
QUIET_S = 3600.0
WAIT_S = 5.0
HELLO_FIELDS: list[tuple[str, object]] = [("proto", "1.0"), ("fw", "0.1.0"), ("tick_hz", 62_500_000), ("buttons", 7), ("boot", "C0FFEE")]

Request = tuple[int, str, dict[str, str]]


class ScriptedPort:
    """A serial port whose far end is a function: it sees each request and may answer."""

    def __init__(self, answer: Callable[[ScriptedPort, Request], None]) -> None:
        self.answer = answer
        self.inbox: queue.Queue[bytes] = queue.Queue()
        self.requests: list[Request] = []
        self.board_seq = 0
        self.closed = False
        self._lines = P.LineBuffer()

    @property
    def in_waiting(self) -> int:
        return 0

    def read(self, size: int = 1) -> bytes:
        if self.closed:
            raise OSError("port closed")
        try:
            return self.inbox.get(timeout=0.01)
        except queue.Empty:
            return b""

    def write(self, data: bytes) -> int:
        for line in self._lines.feed(data):
            req = P.decode(line)
            self.requests.append(req)
            self.answer(self, req)
        return len(data)

    def close(self) -> None:
        self.closed = True

    def send(self, verb: str, fields: list[tuple[str, object]]) -> bytes:
        line = P.encode(self.board_seq, verb, fields)
        self.board_seq = P.next_seq(self.board_seq)
        self.inbox.put(line)
        return line


def hello_then(rest: Callable[[ScriptedPort, Request], None] | None = None, proto: str = "1.0") -> Callable[[ScriptedPort, Request], None]:
    def answer(port: ScriptedPort, req: Request) -> None:
        seq, verb, _ = req
        if verb == "HELLO":
            port.send("HELLO", [("re", seq), ("proto", proto)] + HELLO_FIELDS[1:])
        elif rest is not None:
            rest(port, req)
    return answer


def make_link(port: ScriptedPort, **kw: Any) -> BoardLink:
    return BoardLink("/dev/fake", opener=lambda _path: port, reply_timeout_s=0.1, silence_s=QUIET_S, **kw)


# -- sequence numbers --------------------------------------------------------------------------


def test_tracker_counts_gaps_late_frames_and_duplicates_across_the_wrap() -> None:
    t = SeqTracker()
    t.reset(65533)
    assert t.accept(65534, 0.0) == ("new", 0)
    assert t.accept(1, 0.0) == ("new", 2)  # 65535 and 0 missing
    assert t.last_in_order() == 65534
    assert t.accept(65535, 0.1) == ("late", 0)
    assert t.last_in_order() == 65535
    assert t.accept(65535, 0.1) == ("duplicate", 0)
    assert t.expire(0.4, 0.5) == [] and t.expire(0.6, 0.5) == [0]
    assert t.last_in_order() == 1


# -- handshake ----------------------------------------------------------------------------------


def test_handshake_ignores_stale_lines_and_reports_the_board() -> None:
    def answer(port: ScriptedPort, req: Request) -> None:
        port.inbox.put(b"MicroPython v1.24 on 2024-01-01; Raspberry Pi Pico\r\n>>> \n")
        port.send("TIME", [("ticks", 5)])  # a frame, but no HELLO yet: ignored
        hello_then()(port, req)

    link = make_link(ScriptedPort(answer))
    info = link.start()
    try:
        assert info == BoardInfo("/dev/fake", (1, 0), "0.1.0", 62_500_000, 7, "C0FFEE", session=1)
        assert not info.reports_identity  # a 1.0 board does not name its chip and board
        assert link.counters.ignored_before_hello == 3 and link.counters.bad_frames == 0
    finally:
        link.close()


def test_a_board_with_another_major_version_is_refused_with_both_versions() -> None:
    link = make_link(ScriptedPort(hello_then(proto="2.3")))
    with pytest.raises(BoardMismatch, match=r"board speaks protocol 2\.3 \(firmware 0\.1\.0\), this host speaks 1\.1: flash"):
        link.start()


def test_a_device_that_never_says_hello_times_out() -> None:
    link = make_link(ScriptedPort(lambda port, req: None))
    with pytest.raises(BoardTimeout, match="does not answer HELLO"):
        link.start(wait_s=3.0)


def test_a_port_that_cannot_be_opened_and_no_board_found() -> None:
    def opener(path: str) -> ScriptedPort:
        raise BoardNotFound(f"port {path!r} cannot be opened: check the cable")

    with pytest.raises(BoardNotFound, match="'/dev/gone' cannot be opened"):
        BoardLink("/dev/gone", opener=opener).start()
    with pytest.raises(BoardNotFound, match=r"no buzzer board found \(USB id 2E8A:0005, a Pico running MicroPython\)"):
        BoardLink(None, finder=lambda: []).start()


def test_auto_detect_uses_the_first_port_found() -> None:
    opened: list[str] = []
    port = ScriptedPort(hello_then())

    def opener(path: str) -> ScriptedPort:
        opened.append(path)
        return port

    link = BoardLink(None, opener=opener, finder=lambda: ["/dev/ttyACM1", "/dev/ttyACM2"])
    try:
        assert link.start().port == "/dev/ttyACM1" and opened == ["/dev/ttyACM1"]
    finally:
        link.close()


# -- requests ----------------------------------------------------------------------------------


def test_a_lost_reply_is_retried_with_the_same_number_and_the_second_copy_dropped() -> None:
    answers: dict[int, bytes] = {}

    def rest(port: ScriptedPort, req: Request) -> None:
        seq, verb, _ = req
        if seq not in answers:
            answers[seq] = P.encode(port.board_seq, "PONG", [("re", seq), ("ticks", 9)])
            port.board_seq += 1
            return  # the first reply is lost on the way
        port.inbox.put(answers[seq])  # the board's cached reply, byte for byte
        port.inbox.put(answers[seq])  # and once more: a duplicate

    port = ScriptedPort(hello_then(rest))
    link = make_link(port)
    link.start()
    try:
        assert link.request("PING", []).get_int("ticks") == 9
        pings = [r for r in port.requests if r[1] == "PING"]
        assert len(pings) == 2 and pings[0][0] == pings[1][0]
        c = link.counters
        assert c.retries == 1
    finally:
        link.close()


def test_an_err_reply_is_refused_and_no_reply_times_out() -> None:
    def rest(port: ScriptedPort, req: Request) -> None:
        if req[1] == "GO":
            port.send("ERR", [("re", req[0]), ("code", "state")])

    link = make_link(ScriptedPort(hello_then(rest)), tries=2)
    link.start()
    try:
        with pytest.raises(BoardRefused, match="refused GO with code 'state'"):
            link.request("GO", [("race", 1), ("delay_ms", 0)])
        with pytest.raises(BoardTimeout, match="did not answer STATUS after 2 tries"):
            link.request("STATUS", [])
        assert link.counters.retries == 1
    finally:
        link.close()


def test_a_request_before_connecting_is_refused() -> None:
    with pytest.raises(LinkDown, match="cannot send PING: the board is not connected"):
        BoardLink("/dev/x").request("PING", [])


def test_a_board_nak_resends_the_pending_request() -> None:
    def rest(port: ScriptedPort, req: Request) -> None:
        if len([r for r in port.requests if r[1] == "STATUS"]) == 1:
            port.send("NAK", [("last", 0)])  # "your STATUS arrived broken"
        else:
            port.send("STATUS", [("re", req[0]), ("state", "idle")])

    link = make_link(ScriptedPort(hello_then(rest)))
    link.start()
    try:
        assert link.request("STATUS", [], timeout_s=2.0).fields["state"] == "idle"
        assert link.counters.naks_received == 1 and link.counters.retries == 0
    finally:
        link.close()


# -- the thread never dies ----------------------------------------------------------------------


def test_a_raising_callback_is_counted_and_frames_keep_coming() -> None:
    got: queue.Queue[Frame] = queue.Queue()

    def on_frame(frame: Frame) -> None:
        if frame.get_int("ticks") == 1:
            raise RuntimeError("a bug in the adapter")
        got.put(frame)

    port = ScriptedPort(hello_then())
    link = make_link(port, on_frame=on_frame)
    link.start()
    try:
        port.send("TIME", [("ticks", 1)])
        port.send("TIME", [("ticks", 2)])
        assert got.get(timeout=WAIT_S).get_int("ticks") == 2
        assert link.counters.callback_errors == 1 and link.connected
    finally:
        link.close()


def test_a_board_restarting_under_an_open_port_starts_a_new_session() -> None:
    events: queue.Queue[tuple[bool, BoardInfo | None]] = queue.Queue()
    frames: queue.Queue[Frame] = queue.Queue()
    port = ScriptedPort(hello_then())
    link = make_link(port, on_link=lambda up, info: events.put((up, info)), on_frame=frames.put)
    link.start()
    try:
        up, first = events.get(timeout=WAIT_S)
        assert up and first is not None and first.session == 1 and first.solicited
        port.send("TIME", [("ticks", 9)])
        assert frames.get(timeout=WAIT_S).session == 1
        port.board_seq = 0  # a fresh board counts from 0 and says HELLO on its own
        port.send("HELLO", HELLO_FIELDS[:4] + [("boot", "BEEF"), ("uptime_ms", 12)])
        up, info = events.get(timeout=WAIT_S)
        assert up and info is not None and info.boot == "BEEF" and info.session == 2
        assert not info.solicited and info.uptime_ms == 12
        port.send("TIME", [("ticks", 3)])  # seq 1 after the new HELLO: no gap
        frame = frames.get(timeout=WAIT_S)
        assert (frame.get_int("ticks"), frame.session) == (3, 2)
        assert link.counters.gaps == 0 and link.counters.connects == 2 and link.session == 2
    finally:
        link.close()


def test_frames_that_never_come_back_are_reported_lost() -> None:
    got: queue.Queue[Frame] = queue.Queue()
    port = ScriptedPort(hello_then())
    link = make_link(port, on_frame=got.put)
    link.start()
    try:
        port.board_seq += 3  # three frames the board "wrote" that USB dropped; nobody resends
        port.send("TIME", [("ticks", 7)])
        assert got.get(timeout=WAIT_S).verb == "TIME"
        lost = got.get(timeout=WAIT_S)
        assert lost.verb == "LOST" and lost.seq == -1
        c = link.counters
        assert c.gaps == 1 and c.missing_frames == 3 and c.lost_frames == 3 and c.naks_sent >= 1
        naks = [r for r in port.requests if r[1] == "NAK"]
        assert naks[0][2]["last"] == "0"  # everything after the HELLO reply, please
    finally:
        link.close()


def test_unplugging_fails_the_waiting_request_and_the_link_comes_back() -> None:
    ports: list[ScriptedPort] = []
    release = threading.Event()

    def rest(port: ScriptedPort, req: Request) -> None:
        if req[1] == "STATUS" and len(ports) == 1:
            port.closed = True  # the cable is pulled while the request waits

    def opener(path: str) -> ScriptedPort:
        ports.append(ScriptedPort(hello_then(rest)))
        return ports[-1]

    link = BoardLink("/dev/fake", opener=opener, reply_timeout_s=0.5)
    link.start()
    try:
        with pytest.raises(LinkDown):
            link.request("STATUS", [])
        assert link.wait_connected(WAIT_S) and len(ports) == 2
        c = link.counters
        assert c.disconnects == 1 and c.connects == 2
    finally:
        release.set()
        link.close()
