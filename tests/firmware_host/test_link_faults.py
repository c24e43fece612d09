"""Protocol faults on the host side of the board link, against a scripted board (no firmware):
impossible stamps (negative, a whole PIO wrap before arming, behind a TIME promise), a LOST whose
range runs backwards, a restarted board that speaks another protocol or none we can read, and
the clock offset a restarted board gets. Timestamps are chosen; waits are on queues."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator

import pytest

from firmware_host.board import protocol as P
from firmware_host.boardlink.errors import BoardMismatch, LinkDown
from firmware_host.boardlink.link import BoardLink, Frame, lost_range
from firmware_host.boardlink.rig import BOARD_CLOCK, RESTART_MARGIN_NS, BoardEvent, BoardRig, RaceVoided
from game.inputs import Press

# A scripted board sends no TIME heartbeat: the link's silence limit (2 board s) is not under test here.
QUIET_S = 3600.0
WAIT_S = 5.0
TICK_HZ = 62_500_000


class FakeBoard:
    """A serial port whose far end answers like the firmware: HELLO, STATUS, ARM, GO, ABORT,
    LED. The test sends the board's events with :meth:`send` (any sequence number it likes)."""

    def __init__(self, boot: str = "B001", uptime_ms: int = 5_000, proto: str = "1.1", ticks: int = 0,
                 extra_hello: list[tuple[str, object]] | None = None) -> None:
        self.inbox: queue.Queue[bytes] = queue.Queue()
        self.requests: list[tuple[int, str, dict[str, str]]] = []
        self.seq = 0
        self.boot = boot
        self.uptime_ms = uptime_ms
        self.proto = proto
        self.ticks = ticks  # what ARM, STATUS and PONG report
        self.extra_hello = extra_hello or []
        self.go_ticks: int | None = None  # GO answered, then its GO event stamped here
        self.closed = False
        self._lines = P.LineBuffer()

    # the SerialPort protocol
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
            seq, verb, fields = P.decode(line)
            self.requests.append((seq, verb, fields))
            self.answer(seq, verb, fields)
        return len(data)

    def close(self) -> None:
        self.closed = True

    # the board
    def hello_fields(self) -> list[tuple[str, object]]:
        return [("proto", self.proto), ("fw", "0.2.0"), ("tick_hz", TICK_HZ), ("buttons", 7), ("boot", self.boot),
                ("uptime_ms", self.uptime_ms), *self.extra_hello]

    def answer(self, seq: int, verb: str, fields: dict[str, str]) -> None:
        re: list[tuple[str, object]] = [("re", seq)]
        if verb == "HELLO":
            self.send("HELLO", re + self.hello_fields())
        elif verb == "STATUS":
            self.send("STATUS", re + [("state", "idle"), ("held", []), ("ticks", self.ticks)])
        elif verb == "ARM":
            self.send("ARMED", re + [("race", int(fields["race"])), ("ticks", self.ticks), ("held", []), ("lockout_ticks", 1)])
        elif verb == "GO":
            self.send("GOING", re + [("race", int(fields["race"]))])
            if self.go_ticks is not None:
                self.send("GO", [("race", int(fields["race"])), ("ticks", self.go_ticks)])
        elif verb in ("ABORT", "LED"):
            self.send("OK", re)
        elif verb == "PING":
            self.send("PONG", re + [("ticks", self.ticks)])

    def send(self, verb: str, fields: list[tuple[str, object]], seq: int | None = None) -> None:
        if seq is None:
            seq, self.seq = self.seq, P.next_seq(self.seq)
        self.inbox.put(P.encode(seq, verb, fields))


def open_rig(boards: list[FakeBoard], **kw: object) -> BoardRig:
    """A rig whose link opens the next board of ``boards`` at each (re)connect."""
    opened = iter(boards)
    link = BoardLink("/dev/fake", opener=lambda _path: next(opened), reply_timeout_s=0.2, silence_s=QUIET_S, reconnect_wait_s=0.005)
    return BoardRig(link=link, timeout_ns=1_000_000_000, **kw)  # type: ignore[arg-type]


@pytest.fixture
def board() -> FakeBoard:
    return FakeBoard(ticks=1_000_000_000)  # 16 s of uptime


@pytest.fixture
def rig(board: FakeBoard) -> Iterator[BoardRig]:
    r = open_rig([board])
    yield r
    r.close()


def voided(rig: BoardRig) -> RaceVoided:
    event: BoardEvent = rig.events.get(timeout=WAIT_S)
    assert isinstance(event, RaceVoided), event
    return event


def ns(ticks: int) -> int:
    return ticks * 16


# -- impossible stamps ----------------------------------------------------------------------------


def test_a_negative_stamp_voids_the_race_and_is_counted_never_judged(rig: BoardRig, board: FakeBoard) -> None:
    rig.arm([0, 1])
    board.send("PRESS", [("btn", 1), ("ticks", -1918188607)])
    v = voided(rig)
    assert v.why == "the board stamped PRESS btn=1 ticks=-1918188607 before its power-up (a negative tick count)"
    assert v.rearmed is not None  # armed again at once: the link is fine
    c = rig.counters
    assert c.stamp_faults == 1 and c.callback_errors == 0 and c.last_fault == v.why
    assert list(rig.faults) == [v.why]
    assert rig.drain() == []  # the press itself never reaches the judge


def test_a_stamp_a_whole_pio_wrap_before_the_arming_voids_the_race(rig: BoardRig, board: FakeBoard) -> None:
    board.ticks = 3_000_000_000
    rig.arm([2])
    board.send("RELEASE", [("btn", 2), ("ticks", 3_000_000_000 - 2**31 - 1)])
    assert voided(rig).why == (
        "the board stamped RELEASE btn=2 ticks=852516351 more than one PIO counter wrap (2**31 ticks) before its "
        "arming at ticks=3000000000"
    )
    assert rig.counters.stamp_faults == 1


def test_a_press_just_before_the_arming_is_not_a_fault(rig: BoardRig, board: FakeBoard) -> None:
    board.ticks = 3_000_000_000
    arm = rig.arm([2])
    board.send("PRESS", [("btn", 2), ("ticks", board.ticks - 2**31 + 1)])
    assert rig.events.get(timeout=WAIT_S) == Press(2, arm.t_ns - ns(2**31 - 1), BOARD_CLOCK)
    assert rig.counters.stamp_faults == 0


def test_a_stamp_behind_the_last_time_promise_voids_the_race(rig: BoardRig, board: FakeBoard) -> None:
    rig.arm([3])
    board.send("TIME", [("ticks", 2679892749)])
    board.send("PRESS", [("btn", 3), ("ticks", 538168267)])
    assert voided(rig).why == (
        "the board stamped PRESS btn=3 ticks=538168267 behind its heartbeat TIME ticks=2679892749, which said "
        "every earlier edge had been sent"
    )


def test_a_resent_press_from_before_the_time_promise_is_judged(rig: BoardRig, board: FakeBoard) -> None:
    arm = rig.arm([3])
    press_seq = board.seq
    board.seq += 1  # the press is lost on the way; the TIME after it arrives first
    board.send("TIME", [("ticks", board.ticks + 5_000)])
    assert rig.wait_until(arm.t_ns + ns(5_000), WAIT_S)
    board.send("PRESS", [("btn", 3), ("ticks", board.ticks + 1_000)], seq=press_seq)  # resent after the NAK
    assert rig.events.get(timeout=WAIT_S) == Press(3, arm.t_ns + ns(1_000), BOARD_CLOCK)
    c = rig.counters
    assert c.stamp_faults == 0 and c.recovered_frames == 1


def test_an_impossible_go_voids_the_race_and_go_says_so(rig: BoardRig, board: FakeBoard) -> None:
    from firmware_host.boardlink.errors import RaceVoidedError

    arm = rig.arm([0])
    board.send("TIME", [("ticks", board.ticks + 100)])
    assert rig.wait_until(arm.t_ns + ns(100), WAIT_S)
    board.go_ticks = board.ticks + 99
    with pytest.raises(RaceVoidedError, match="race 1 was voided before GO: the board stamped GO race=1 "
                                              "ticks=1000000099 behind its heartbeat TIME ticks=1000000100"):
        rig.go([0])
    # go() told the void: no RaceVoided record says it again (issue 21: one void, one notice). The
    # next arming waits for a re-arm thread's decision (one arming at a time), so none can follow.
    rig.arm([0])
    assert not [e for e in rig.drain() if isinstance(e, RaceVoided)]


def test_an_impossible_stamp_outside_a_race_is_counted(rig: BoardRig, board: FakeBoard) -> None:
    board.send("PRESS", [("btn", 0), ("ticks", -5)])
    board.send("PRESS", [("btn", 0), ("ticks", board.ticks + 7)])  # a good one after it
    assert isinstance(rig.events.get(timeout=WAIT_S), Press)
    assert rig.counters.stamp_faults == 1 and len(rig.faults) == 1


# -- LOST ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "last", "count"), [(10, 10, 1), (10, 73, 64), (65530, 5, 12), (0, 32767, 32768)])
def test_lost_ranges_count_forwards_across_the_wrap(first: int, last: int, count: int) -> None:
    assert lost_range(Frame(1, "LOST", {"from": str(first), "to": str(last)})) == (count, None)


@pytest.mark.parametrize(("first", "last"), [(100, 10), (5, 65530), (0, 32768)])
def test_a_lost_range_that_runs_backwards_is_a_fault(first: int, last: int) -> None:
    count, why = lost_range(Frame(1, "LOST", {"from": str(first), "to": str(last)}))
    assert count == 0 and why == (
        f"the board sent LOST from={first} to={last}, whose end is before its start: the lost range is unknown"
    )


def test_a_backwards_lost_is_a_protocol_error_that_voids_the_race_not_a_negative_count(rig: BoardRig, board: FakeBoard) -> None:
    rig.arm([0, 1])
    board.send("LOST", [("from", 100), ("to", 10)])
    v = voided(rig)
    assert v.why == "the board sent LOST from=100 to=10, whose end is before its start: the lost range is unknown"
    c = rig.counters
    assert c.protocol_errors == 1 and c.lost_frames == 0 and c.last_fault == v.why
    board.send("LOST", [("from", 65535), ("to", 1)])  # across the wrap: 3 frames, the race voided again
    assert voided(rig).why == "the board lost edges (lost)"
    assert rig.counters.lost_frames == 3


def test_a_lost_without_numbers_is_a_protocol_error(rig: BoardRig, board: FakeBoard) -> None:
    rig.arm([0])
    board.send("LOST", [("from", "x")])
    assert voided(rig).why.startswith("the board sent a LOST that names no frames (")
    assert rig.counters.protocol_errors == 1 and rig.counters.lost_frames == 0


# -- a board that restarts -----------------------------------------------------------------------


def test_a_restart_under_the_open_port_gets_a_new_clock_offset(rig: BoardRig, board: FakeBoard) -> None:
    first = rig.arm([0, 1])
    board.send("TIME", [("ticks", board.ticks + 62_500)])  # 1 ms later
    assert rig.wait_until(first.t_ns + 1_000_000, WAIT_S)
    last_ns = rig.now_ns()
    board.seq, board.boot, board.uptime_ms, board.ticks = 0, "B002", 3, 250_000  # 4 ms since power-up
    board.send("HELLO", board.hello_fields())
    v = voided(rig)
    assert v.why == "the board restarted (boot B001, now B002)" and v.rearmed is not None
    # offset = last time seen - the new board's uptime at HELLO + the margin
    offset = last_ns + RESTART_MARGIN_NS - 3_000_000
    assert v.rearmed.t_ns == ns(250_000) + offset > last_ns
    board.send("PRESS", [("btn", 1), ("ticks", 250_016)])
    assert rig.events.get(timeout=WAIT_S) == Press(1, ns(250_016) + offset, BOARD_CLOCK)
    assert rig.counters.board_restarts == 1 and rig.counters.stamp_faults == 0


def test_a_replug_of_the_same_board_keeps_its_clock_and_a_new_board_gets_a_new_one() -> None:
    old = FakeBoard(boot="B001", uptime_ms=16_000, ticks=1_000_000_000)
    same = FakeBoard(boot="B001", uptime_ms=17_000, ticks=1_062_500_000)  # unplugged for a second
    new = FakeBoard(boot="B003", uptime_ms=900, ticks=56_250_000)
    rig = open_rig([old, same, new])
    try:
        a = rig.arm([0])
        assert a.t_ns == ns(1_000_000_000)
        old.closed = True
        v = voided(rig)
        assert v.why == "the board was disconnected" and v.rearmed is not None
        assert v.rearmed.t_ns == ns(1_062_500_000)  # the same clock going on
        assert rig.counters.board_restarts == 0
        last_ns = rig.now_ns()
        same.closed = True
        v = voided(rig)
        assert v.rearmed is not None and v.rearmed.t_ns == last_ns + RESTART_MARGIN_NS - 900_000_000 + ns(56_250_000)
        assert rig.counters.board_restarts == 1
    finally:
        rig.close()


def test_a_restarted_board_with_another_major_version_is_refused_mid_session() -> None:
    old = FakeBoard(ticks=1_000)
    again = FakeBoard(proto="2.0")
    rig = open_rig([old, again, again, again])
    try:
        rig.arm([0])
        old.seq = 0
        old.send("HELLO", [("proto", "2.0")] + old.hello_fields()[1:])
        v = voided(rig)
        assert v.why == (
            "the board was disconnected and refused (the board speaks protocol 2.0 (firmware 0.2.0), this host speaks "
            "1.1: flash this version's firmware with 'cheating-moth board flash')"
        )
        assert v.rearmed is None
        c = rig.counters
        assert c.protocol_errors == 1 and c.last_fault is not None and "restarted and was refused" in c.last_fault
        assert isinstance(rig._link.error, BoardMismatch)
    finally:
        rig.close()


def test_a_restart_hello_with_a_garbage_proto_leaves_no_stale_sequence_tracking() -> None:
    old = FakeBoard(ticks=1_000)
    fresh = FakeBoard(boot="B009", ticks=2_000)
    boards = iter([old, fresh])
    link = BoardLink("/dev/fake", opener=lambda _path: next(boards), reply_timeout_s=0.2, silence_s=QUIET_S, reconnect_wait_s=0.005)
    events: queue.Queue[tuple[bool, object]] = queue.Queue()
    link.on_link = lambda up, info: events.put((up, info))
    link.start()
    try:
        assert events.get(timeout=WAIT_S)[0] is True
        for _ in range(40):
            assert link.request("PING", []).verb == "PONG"  # the board's numbers climb past 40
        old.seq = 0
        old.send("HELLO", [("proto", "x.y")] + old.hello_fields()[1:])  # CRC-valid, protocol unreadable
        assert events.get(timeout=WAIT_S) == (False, None)
        assert events.get(timeout=WAIT_S)[0] is True  # reconnected with a fresh handshake
        assert [link.request("PING", []).get_int("ticks") for _ in range(250)] == [2_000] * 250
        c = link.counters
        assert c.protocol_errors == 1 and c.duplicates == 0
        assert c.last_fault is not None and "HELLO is not protocol 1.x" in c.last_fault
    finally:
        link.close()


def test_arming_a_board_that_restarted_meanwhile_is_link_down(rig: BoardRig, board: FakeBoard) -> None:
    answer: Callable[[int, str, dict[str, str]], None] = board.answer

    def restart_then_answer(seq: int, verb: str, fields: dict[str, str]) -> None:
        if verb == "ARM":  # the old board answers, then says HELLO again before the host reads on
            answer(seq, verb, fields)
            board.seq = 0
            board.send("HELLO", board.hello_fields())
            return
        answer(seq, verb, fields)

    board.answer = restart_then_answer  # type: ignore[method-assign]
    with pytest.raises(LinkDown, match="the board restarted while race 1 was being armed"):
        rig.arm([0])


def test_a_board_whose_numbers_go_back_further_than_any_resend_gets_a_fresh_handshake() -> None:
    old = FakeBoard(ticks=1_000)
    old.seq = 5_000  # a board that has been talking for a while
    fresh = FakeBoard(boot="B010", ticks=2_000)
    boards = iter([old, fresh])
    link = BoardLink("/dev/fake", opener=lambda _path: next(boards), reply_timeout_s=0.2, silence_s=QUIET_S, reconnect_wait_s=0.005)
    events: queue.Queue[tuple[bool, object]] = queue.Queue()
    link.on_link = lambda up, info: events.put((up, info))
    link.start()
    try:
        assert events.get(timeout=WAIT_S)[0] is True
        old.send("TIME", [("ticks", 1_500)], seq=3)  # its power-up HELLO was lost: numbers from 0 again
        assert events.get(timeout=WAIT_S) == (False, None)
        assert events.get(timeout=WAIT_S)[0] is True
        assert link.request("PING", []).get_int("ticks") == 2_000
        c = link.counters
        assert c.protocol_errors == 1 and c.last_fault == (
            "the board's sequence number went back from 5000 to 3, further than any resend: it restarted without "
            "a HELLO the host could read")
    finally:
        link.close()


def test_a_cached_reply_far_behind_is_still_a_duplicate() -> None:
    from firmware_host.boardlink.frames import BEHIND_LIMIT, SeqTracker

    t = SeqTracker()
    t.reset(BEHIND_LIMIT + 10)
    assert t.accept(10, 0.0) == ("duplicate", 0)
    assert t.accept(9, 0.0) == ("behind", BEHIND_LIMIT + 1)
    assert t.highest == BEHIND_LIMIT + 10


# -- issue 21: one patience, one void, one GO -----------------------------------------------------


def test_a_second_go_for_the_same_race_is_a_protocol_fault_that_voids_it(rig: BoardRig, board: FakeBoard) -> None:
    arm = rig.arm([0, 1])
    board.go_ticks = board.ticks + 1_000
    go = rig.go([0, 1], race_id=arm.race)
    assert go.t_ns == arm.t_ns + ns(1_000)
    board.send("GO", [("race", arm.race), ("ticks", board.ticks + 1_500)])  # another number: not a resend
    v = voided(rig)
    assert v.race == arm.race and v.why == (
        f"the board sent a second GO for race {arm.race} (ticks=1000001500) after the one at {go.t_ns} ns on the "
        f"host's clock")
    c = rig.counters
    assert c.protocol_errors == 1 and c.stamp_faults == 0 and c.last_fault == v.why


class HeldArmBoard(FakeBoard):
    """Answers ARM only once ``release`` is set (while ``holding``): a re-arm still under way."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.holding = False
        self.release = threading.Event()

    def answer(self, seq: int, verb: str, fields: dict[str, str]) -> None:
        if verb == "ARM" and self.holding:
            threading.Thread(target=lambda: (self.release.wait(WAIT_S), super(HeldArmBoard, self).answer(seq, verb, fields)),
                             daemon=True).start()
            return
        super().answer(seq, verb, fields)


def test_a_restart_before_go_voids_the_race_once() -> None:
    """Before: GO while the rig was still re-arming failed with the internal 'GO without an armed
    race', then the re-arm's RaceVoided voided the re-run too: two notices, 2 of 3 re-runs used."""
    from firmware_host.boardlink.errors import RaceVoidedError
    from game.app.cmd_race import BoardInput

    board = HeldArmBoard(ticks=1_000_000_000)
    rig = open_rig([board])
    try:
        inp = BoardInput(rig, 3, 0.0)
        inp.arm([1, 2])
        board.holding = True  # the rig's own re-arm will hang until released
        board.seq = 0
        board.boot = "B002"
        board.send("HELLO", board.hello_fields())  # restarted under the open port: power-up HELLO
        with rig._cond:  # the rig has voided race 1 (its re-arm waits on the board)
            assert rig._cond.wait_for(lambda: rig._race is not None and not rig._race.live, WAIT_S)
        with pytest.raises(RaceVoidedError, match=r"^race 1 was voided before GO: the board restarted \(boot B001, now B002\)$"):
            inp.go([1, 2])  # the fore-period ran out: GO, as the race command does
        board.release.set()
        board.holding = False
        inp.arm([1, 2])  # the race runs again (after a re-arm under way, if any: one arming at a time)
        assert inp._race is not None and inp._race > 1
        assert [e for e in rig.drain() if isinstance(e, RaceVoided)] == []  # told once: no second void
    finally:
        rig.close()


def test_a_board_gone_past_the_patience_ends_the_race_wait_with_one_sentence() -> None:
    import time as _time

    from firmware_host.boardlink.errors import BoardGone, BoardNotFound
    from firmware_host.boardlink.rig import BoardAway
    from game.app.cmd_race import BoardInput

    board = FakeBoard(ticks=1_000_000_000)

    def opener(_path: str) -> FakeBoard:
        if board.closed:
            raise BoardNotFound("port '/dev/fake' cannot be opened (gone)")
        return board

    link = BoardLink("/dev/fake", opener=opener, reply_timeout_s=0.2, silence_s=QUIET_S, reconnect_wait_s=0.005)
    rig = BoardRig(link=link, timeout_ns=1_000_000_000, patience_s=1.0)
    try:
        inp = BoardInput(rig, 3, 0.0)
        # The patience counts from the last byte heard, which may come before the cable is
        # pulled: the earliest it can be is when arming began (arming waits for the reply).
        armed_at = _time.monotonic()
        inp.arm([1, 2])
        board.closed = True  # the cable is pulled for good
        with pytest.raises(BoardGone, match=r"^the buzzer board has been gone for 1 s: check its USB cable and plug "
                                            r"it in again$"):
            inp.wait(rig.now_ns() + 10**9)  # the fore-period: no limit of its own, the patience ends it
        assert _time.monotonic() - armed_at >= 1.0  # not before the patience (a slow machine only adds)
        with pytest.raises(BoardGone, match="gone for 1 s"):
            rig.wait_back()
        assert not [e for e in rig.drain() if isinstance(e, BoardAway)]  # one BoardAway, taken by the wait
    finally:
        rig.close()


def test_a_board_back_within_the_patience_reruns_the_race_where_the_old_stall_limit_gave_up() -> None:
    """The race wait gave up after the remaining fore-period + 2 s of board time ('the board stopped
    reporting its time'); a board out for 2.5 s is back well within the 10 s patience."""
    from firmware_host.boardlink.errors import RaceVoidedError
    from game.app.cmd_race import BoardInput

    old = FakeBoard(ticks=1_000_000_000)
    new = FakeBoard(boot="B002", uptime_ms=1_300, ticks=81_250_000)  # 1.3 s of boot to its HELLO
    plugged = threading.Event()

    def opener(_path: str) -> FakeBoard:
        if not old.closed:
            return old
        if not plugged.is_set():
            from firmware_host.boardlink.errors import BoardNotFound

            raise BoardNotFound("port '/dev/fake' cannot be opened (gone)")
        return new

    link = BoardLink("/dev/fake", opener=opener, reply_timeout_s=0.2, silence_s=QUIET_S, reconnect_wait_s=0.005)
    rig = BoardRig(link=link, timeout_ns=1_000_000_000)
    try:
        inp = BoardInput(rig, 3, 0.0)
        inp.arm([1, 2])
        old.closed = True
        back = threading.Timer(2.5, plugged.set)  # the cable goes back in 2.5 s later
        back.start()
        with pytest.raises(RaceVoidedError, match="^race voided: the board was disconnected$"):
            inp.wait(rig.now_ns() + 200_000_000)  # 0.2 s of fore-period left: the old limit gave up at 2.2 s
        assert plugged.is_set()
        rig.wait_back()
    finally:
        rig.close()


def test_a_board_that_restarts_into_the_micropython_prompt_is_named_not_retried() -> None:
    """Before: the REPL's banner and prompt were bad frames, and the next request failed 'the board
    did not answer ARM after 5 tries' (the REPL echoes requests and answers none)."""
    from firmware_host.boardlink.errors import BoardAtPrompt

    board = FakeBoard(ticks=1_000_000_000)
    rig = open_rig([board])  # a reconnect finds no second board: the REPL board is all there is
    try:
        arm = rig.arm([0, 1])
        # a watchdog reset while BOOTSEL was held, USB kept: MicroPython's REPL greets the host
        board.inbox.put(b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
                        b'Type "help()" for more information.\r\n>>> ')
        v = voided(rig)
        assert v.race == arm.race and v.rearmed is None
        assert "is at the MicroPython prompt instead of running the buzzer firmware" in v.why
        assert isinstance(rig._link.error, BoardAtPrompt)
        with pytest.raises(LinkDown, match=r"^cannot send ARM: the board on '/dev/fake' is at the MicroPython prompt "
                                           r"instead of running the buzzer firmware .*: unplug it and plug it in again"):
            rig.arm([0, 1])
        c = rig.counters
        assert c.protocol_errors == 1 and c.last_fault == "the board answered at the MicroPython prompt"
    finally:
        rig.close()


def test_a_connected_board_that_sends_nothing_gets_a_fresh_handshake() -> None:
    """A board sends a heartbeat at least every 250 ms: one silent for the silence limit is
    treated as gone (the port dropped, HELLO said again), not waited on for ever."""
    quiet = FakeBoard(ticks=1_000)  # answers requests, never a heartbeat
    again = FakeBoard(boot="B002", ticks=2_000)
    boards = iter([quiet, again])
    link = BoardLink("/dev/fake", opener=lambda _path: next(boards), reply_timeout_s=0.2, silence_s=0.3,
                     reconnect_wait_s=0.005)
    events: queue.Queue[tuple[bool, object]] = queue.Queue()
    link.on_link = lambda up, info: events.put((up, info))
    link.start()
    try:
        assert events.get(timeout=WAIT_S)[0] is True
        assert events.get(timeout=WAIT_S) == (False, None)  # 0.3 s of silence: dropped
        up, info = events.get(timeout=WAIT_S)
        assert up is True and getattr(info, "boot", None) == "B002"
        assert link.counters.disconnects == 1
    finally:
        link.close()
