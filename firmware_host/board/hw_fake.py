# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""A fake hardware layer: the board's main loop on a PC (MicroPython unix port or CPython).

The link is this process's stdin/stdout (a pty's master side: the host opens the slave like a
USB CDC port). Buttons are scripted through a control FIFO (path in ``BOARD_SIM_CONTROL``), one
command per line:

    edge BTN LEVEL REF OFFSET_NS   BTN's pin goes to LEVEL (0 = pressed) at REF + OFFSET_NS,
                                   REF one of ``go`` (the next GO), ``arm`` (the last arming)
                                   or ``now``; offsets are chosen to the tick (16 ns)
    players SEED MIN_MS MAX_MS     simulated players: every race button presses at a seeded
                                   reaction time after each GO and lets go 80 ms later
    players off
    corrupt N                      spoil the CRC of the next N frames written to the host
    drop N                         swallow the next N frames (as USB does when nobody reads)
    lose BTN                       BTN's logger overflowed its FIFO (the board reports DROP)
    quit

Edges become the same 32-bit words a PIO edge logger pushes (ticks.make_word), lockout
included, so the firmware's unwrapping runs as on the chip. Time is the PC's monotonic clock.
"""

import os
import select
import sys
import time

import ticks as T

TICK_HZ = 62500000  # MicroPython's 125 MHz system clock, two cycles per tick
NS_PER_TICK = 16
BUTTONS = 7
RELEASE_AFTER_NS = 80000000
MICROPYTHON = sys.implementation.name == "micropython"

try:
    _clock_ns = time.monotonic_ns  # type: ignore[attr-defined]
except AttributeError:  # MicroPython
    _clock_ns = time.time_ns


class _Rng:
    """xorshift32: the same numbers under MicroPython and CPython for the same seed."""

    def __init__(self, seed):
        # type: (int) -> None
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        # type: (int) -> int
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x % n


class FakeHardware:
    """Pins, edge loggers, LEDs and the USB link of a Pico, in software (it says it is one)."""

    chip = "RP2040"
    board = "pico"
    refused = False

    def __init__(self, control_path=None):
        # type: (str | None) -> None
        self.tick_hz = TICK_HZ
        self.buttons = BUTTONS
        self._t0 = _clock_ns()
        self.boot_id = "%08X" % (int.from_bytes(os.urandom(4), "big") | 1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._control = None  # type: object
        if control_path:
            # unbuffered: CPython's buffered readline would swallow every line after the first
            # of a burst into its buffer, where poll() no longer sees it
            self._control = open(control_path, "rb", buffering=0)
            self._poll.register(self._control, select.POLLIN)
        inputs = BUTTONS + 1  # the last one is the GO pin's logger
        self._raw = [1] * BUTTONS + [0]  # pull-ups: buttons rest high; GO rests low
        self._changes = [[] for _ in range(inputs)]  # type: list[list[tuple[int, int]]]
        self._reported = list(self._raw)
        self._blind_until = [0] * inputs
        self._epoch_ticks = 0
        self._lockout_ticks = T.LOCKOUT_FIXED_TICKS
        self._at_go = []  # type: list[tuple[int, int, int]]
        self._players = None  # type: _Rng | None
        self._player_range = (150, 350)
        self._corrupt = 0
        self._drop = 0
        self._lost = []  # type: list[int]
        self.leds = [False] * BUTTONS
        self.go_pin = False

    # -- time -------------------------------------------------------------------------------

    def stopwatch(self):
        # type: () -> int
        """A mark for timing a write (see hw_rp2): here simply the clock."""
        return self.now_us()

    def lap_us(self, mark):
        # type: (int) -> int
        return self.now_us() - mark

    def now_us(self):
        # type: () -> int
        return (_clock_ns() - self._t0) // 1000

    def _now_ticks(self):
        # type: () -> int
        return (_clock_ns() - self._t0) // NS_PER_TICK

    # -- edge loggers -----------------------------------------------------------------------

    def stop_loggers(self):
        # type: () -> None
        return None  # words are made when read: read_words right after sees every edge until now

    def start_loggers(self, loop_count):
        # type: (int) -> int
        sync_us = self.now_us()
        self._epoch_ticks = T.us_to_ticks(sync_us, TICK_HZ)
        self._lockout_ticks = loop_count + T.LOCKOUT_FIXED_TICKS
        for i in range(len(self._raw)):
            for t, level in self._changes[i]:
                if t <= self._epoch_ticks:
                    self._raw[i] = level
            self._changes[i] = [c for c in self._changes[i] if c[0] > self._epoch_ticks]
            self._reported[i] = self._raw[i]
            self._blind_until[i] = self._epoch_ticks
        return sync_us

    def held(self):
        # type: () -> list[bool]
        return [self._reported[i] == 0 for i in range(BUTTONS)]

    def read_words(self):
        # type: () -> list[tuple[int, int, int]]
        now = self._now_ticks()
        read_us = self.now_us()
        words = []  # type: list[tuple[int, int, int]]
        for i in range(len(self._raw)):
            due = [c for c in self._changes[i] if c[0] <= now]
            if due:
                self._changes[i] = [c for c in self._changes[i] if c[0] > now]
                due.sort()
            for t, level in due:
                self._settle(i, t, words, read_us)
                self._raw[i] = level
                if t >= self._blind_until[i] and level != self._reported[i]:
                    self._emit(i, level, t, words, read_us)
            self._settle(i, now, words, read_us)
        return words

    def _settle(self, i, upto, words, read_us):
        # type: (int, int, list[tuple[int, int, int]], int) -> None
        """At the end of a lockout the logger sees the level the pin rests at."""
        while self._blind_until[i] <= upto and self._raw[i] != self._reported[i]:
            self._emit(i, self._raw[i], self._blind_until[i], words, read_us)

    def _emit(self, i, level, t, words, read_us):
        # type: (int, int, int, list[tuple[int, int, int]], int) -> None
        self._reported[i] = level
        self._blind_until[i] = t + self._lockout_ticks
        words.append((i, T.make_word(level, t - self._epoch_ticks), read_us))

    def take_drops(self):
        # type: () -> list[int]
        lost, self._lost = self._lost, []
        return lost

    # -- outputs ----------------------------------------------------------------------------

    def go(self, on, btns):
        # type: (bool, list[int]) -> None
        now = self._now_ticks()
        self.go_pin = on
        self._changes[BUTTONS].append((now, 1 if on else 0))
        if not on:
            return
        for btn in btns:
            self.leds[btn] = True
        for btn, level, offset in self._at_go:
            self._changes[btn].append((now + offset, level))
        self._at_go = []
        if self._players is not None:
            low, high = self._player_range
            for btn in btns:
                reaction = (low + self._players.below(high - low + 1)) * 1000000 // NS_PER_TICK
                self._changes[btn].append((now + reaction, 0))
                self._changes[btn].append((now + reaction + RELEASE_AFTER_NS // NS_PER_TICK, 1))

    def set_led(self, btn, on):
        # type: (int, bool) -> None
        self.leds[btn] = on

    def log(self, exc):
        # type: (BaseException) -> None
        if MICROPYTHON:
            sys.print_exception(exc, sys.stderr)  # type: ignore[attr-defined]
        else:
            import traceback

            traceback.print_exception(exc, file=sys.stderr)

    def feed(self):
        # type: () -> None
        return None

    # -- the link and the control FIFO ------------------------------------------------------

    def write(self, data):
        # type: (bytes) -> None
        if self._drop:
            self._drop -= 1
            return
        if self._corrupt:
            self._corrupt -= 1
            last = data[-2:-1]
            data = data[:-2] + (b"0" if last != b"0" else b"1") + data[-1:]
        if MICROPYTHON:
            sys.stdout.buffer.write(data)
        else:
            view = memoryview(data)
            while view:
                view = view[os.write(1, view) :]

    def read_input(self):
        # type: () -> bytes
        chunk = b""
        poll = self._poll.poll
        while len(chunk) < 512:
            ready = poll(0)
            if not ready:
                break
            got_link = False
            for obj, _ in ready:
                # MicroPython's poll hands back the registered object, CPython's the fd
                if obj is self._control or (type(obj) is int and obj != 0):
                    self._control_line()
                else:
                    got_link = True
            if not got_link:
                continue
            if MICROPYTHON:
                byte = sys.stdin.buffer.read(1)
            else:
                byte = os.read(0, 512)
            if not byte:
                raise SystemExit(0)  # the pty is gone: the simulated board is unplugged
            chunk += byte
        return chunk

    def idle(self, ms):
        # type: (int) -> None
        self._poll.poll(ms)

    def _control_line(self):
        # type: () -> None
        line = self._control.readline()  # type: ignore[attr-defined]
        if not line:
            self._poll.unregister(self._control)
            return
        words = line.decode().split()
        if not words:
            return
        cmd = words[0]
        if cmd == "edge":
            btn, level, ref, offset_ns = int(words[1]), int(words[2]), words[3], int(words[4])
            offset = offset_ns // NS_PER_TICK
            if ref == "go":
                self._at_go.append((btn, level, offset))
            else:
                base = self._epoch_ticks if ref == "arm" else self._now_ticks()
                self._changes[btn].append((base + offset, level))
        elif cmd == "players":
            if words[1] == "off":
                self._players = None
            else:
                self._players = _Rng(int(words[1]))
                self._player_range = (int(words[2]), int(words[3]))
        elif cmd == "corrupt":
            self._corrupt += int(words[1])
        elif cmd == "drop":
            self._drop += int(words[1])
        elif cmd == "lose":
            self._lost.append(int(words[1]))
        elif cmd == "quit":
            raise SystemExit(0)
