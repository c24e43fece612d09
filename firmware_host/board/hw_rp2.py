# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""The real hardware layer: a Raspberry Pi Pico (RP2040) running MicroPython.

Pins (GP numbers) come from ``board_pins.py``, which ``cheating-moth board flash`` writes from
the ``[board]`` part of the pin map (hardware/pins.toml). Without it (a board flashed by hand)
the numbers below are used; they are the default map's:

    buttons 0-6   GP2-GP8   to GND, internal pull-up (pressed = low); 0-5 seats, 6 Caught!
    GO            GP9       output to the GO lamp/buzzer driver (high = GO); watched by logger 7
    LEDs 0-6      GP10-GP16 outputs to the button LED drivers (high = lit)
    SYNC          GP22      output, not wired: releases all eight loggers in the same cycle

A slot whose pin is None (a table with fewer than six seats, a button without an LED) has no
pin, no state machine and never reports. State machine i watches button slot i: 0-3 on PIO0,
4-6 and GO (7) on PIO1. Both blocks hold one copy of the edge logger. A soft timer (every two
lockouts, 1 to 20 ms) drains the RX FIFOs into a list so a USB write that blocks the main loop
does not overflow them; each pass reads one FSTAT register per PIO block to skip empty FIFOs;
FDEBUG's RXSTALL bits report a word a logger had to drop (the datasheet: set on a non-blocking
PUSH to a full FIFO).

The timer's callback is soft: MicroPython runs it between any two bytecodes of the main loop.
So the FIFOs have one reader at a time: the main loop sets ``_busy`` while it reads them and
the callback then leaves them alone (otherwise it could empty a FIFO between the main loop's
``rx_fifo()`` and its ``get()``, which then waits for that logger's next edge: a lost GO word
is a watchdog reset). Each word is paired with the µs timer read after it was popped, so a
garbage collection in the middle of a drain cannot leave a word newer than its time (it would
be unwrapped 2**31 ticks early). SYNC's time is read right after SYNC rises; if the read before
and the read after are more than ``SYNC_GAP_US`` apart (a pause in between), the loggers are
armed again.

``LinkOnly`` is the link alone, for hardware this firmware refuses (main.py checks the chip and
board before anything here touches a pin or a register).
"""

import machine
import rp2
import select
import sys
import time

import pio_programs

try:
    import board_pins as _pins
except ImportError:  # flashed without a pin map: the default map's numbers
    _pins = None

BUTTON_PINS = getattr(_pins, "BUTTON_PINS", (2, 3, 4, 5, 6, 7, 8))
GO_PIN = getattr(_pins, "GO_PIN", 9)
LED_PINS = getattr(_pins, "LED_PINS", (10, 11, 12, 13, 14, 15, 16))
SYNC_PIN = getattr(_pins, "SYNC_PIN", 22)
STATUS_LED = 25  # a plain Pico's LED (on a Pico W, GP25 is the radio's line: never driven)
WDT_TIMEOUT_MS = 4000
SYNC_GAP_US = 100  # longest credible time between the two timer reads around raising SYNC
# Armings tried before a late SYNC stamp is accepted. Neither direction is safe: an early stamp
# breaks TIME's promise, one later than ticks.UNWRAP_MARGIN_US unwraps words a whole PIO wrap
# wrong. A try fails only if a pause (GC, a long interrupt) lands in the few µs between the two
# timer reads, so after gc.collect() at arming 64 failures in a row do not happen; the twin's
# adversarial policy (a 10 ms pause there on about 1 try in 6) once failed 4 in a row in 200
# armings, which the old limit of 4 accepted 10 ms late. 64 tries of at most ~10 ms each stay far
# inside the 4 s watchdog.
SYNC_TRIES = 64

_PIO_FDEBUG = (0x50200008, 0x50300008)  # PIO0, PIO1: RXSTALL in bits 0-3
_PIO_FSTAT = (0x50200004, 0x50300004)  # PIO0, PIO1: RXEMPTY in bits 8-11 (one read for four FIFOs)
# The soft timer drains the FIFOs only while the main loop cannot (a USB write blocked for up to
# 500 ms): a FIFO holds 4 words and a logger pushes at most one per lockout, so draining every
# two lockouts (at most DRAIN_MAX_MS) loses nothing. It used to run every 1 ms: 1000 soft
# callbacks a second, each asking all eight FIFOs, were about half of an idle core (issue 21).
DRAIN_MAX_MS = 20
_TIMERAWH = 0x40054024
_TIMERAWL = 0x40054028
_SIO_OUT_SET = 0xD0000014
_SIO_OUT_CLR = 0xD0000018
_WATCHDOG_CTRL_CLR = 0x40058000 + 0x3000  # atomic clear alias of WATCHDOG CTRL
_WATCHDOG_ENABLE = 1 << 30


def disable_watchdog():
    # type: () -> None
    """Stop the watchdog (MicroPython's WDT cannot): so mpremote can work after Ctrl-C."""
    machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE


class _Link:
    """The USB link (stdin/stdout) and what every board answers HELLO with."""

    refused = False

    def __init__(self, chip, board):
        # type: (str, str) -> None
        self.chip = chip
        self.board = board
        self.tick_hz = machine.freq() // 2
        self.buttons = len(BUTTON_PINS)
        self.boot_id = "%08X" % (int.from_bytes(__import__("os").urandom(4), "big") | 1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer

    def read_input(self):
        # type: () -> bytes
        chunk = b""
        while len(chunk) < 256 and self._poll.poll(0):
            chunk += self._stdin.read(1)
        return chunk

    def write(self, data):
        # type: (bytes) -> None
        self._stdout.write(data)

    def stopwatch(self):
        # type: () -> int
        """A cheap mark for timing a write: one call and a small int (``now_us`` reads three
        registers and builds a big int on every frame)."""
        return time.ticks_us()

    def lap_us(self, mark):
        # type: (int) -> int
        return time.ticks_diff(time.ticks_us(), mark)

    def idle(self, ms):
        # type: (int) -> None
        self._poll.poll(ms)

    def log(self, exc):
        # type: (BaseException) -> None
        return None  # stderr is the USB link: nothing may be printed


class LinkOnly(_Link):
    """Hardware this firmware refuses (an RP2350, a Pico W): no pins, no state machines, no
    registers, no watchdog. The board answers HELLO (naming its chip and board) and nothing else."""

    refused = True

    def __init__(self, chip, board):
        # type: (str, str) -> None
        import time

        _Link.__init__(self, chip, board)
        self._time = time
        self._start_ms = time.ticks_ms()

    def now_us(self):
        # type: () -> int
        return self._time.ticks_diff(self._time.ticks_ms(), self._start_ms) * 1000

    def feed(self):
        # type: () -> None
        return None


class Hardware(_Link):
    def __init__(self, chip="RP2040", board="pico"):
        # type: (str, str) -> None
        _Link.__init__(self, chip, board)
        self._sync = machine.Pin(SYNC_PIN, machine.Pin.OUT, value=0)
        self._go = machine.Pin(GO_PIN, machine.Pin.OUT, value=0)
        self._buttons = [
            None if p is None else machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in BUTTON_PINS
        ]
        self._leds = [None if p is None else machine.Pin(p, machine.Pin.OUT, value=0) for p in LED_PINS]
        program = pio_programs.edge_logger_program(SYNC_PIN)
        self._sms = []  # (input index = state machine id, state machine)
        for i, pin in enumerate(tuple(BUTTON_PINS) + (GO_PIN,)):
            if pin is None:
                continue
            p = machine.Pin(pin)
            self._sms.append((i, rp2.StateMachine(i, program, freq=machine.freq(), in_base=p, jmp_pin=p)))
        self._by_block = ([], [])  # type: tuple[list[tuple[int, object]], list[tuple[int, object]]]
        for i, sm in self._sms:
            self._by_block[i >> 2].append((i, sm))
        self._words = []  # type: list[tuple[int, int, int]]
        self._busy = False  # the main loop is reading the FIFOs: the timer's callback keeps off
        self._drain_ms = 1
        self._timer = machine.Timer(period=1, mode=machine.Timer.PERIODIC, callback=self._drain)
        self._wdt = machine.WDT(timeout=WDT_TIMEOUT_MS)

    def now_us(self):
        # type: () -> int
        """The 64-bit microsecond timer (never wraps; the same crystal as the PIO clock)."""
        mem = machine.mem32
        while True:
            hi = mem[_TIMERAWH] & 0xFFFFFFFF
            lo = mem[_TIMERAWL] & 0xFFFFFFFF
            if mem[_TIMERAWH] & 0xFFFFFFFF == hi:
                return (hi << 32) | lo

    def _drain(self, _timer=None):
        # type: (object) -> None
        """The 1 ms timer's callback (soft: it runs between two bytecodes of the main loop)."""
        if self._busy:
            return  # the main loop is reading the FIFOs and takes every word
        self._busy = True
        try:
            self._pop_all()
        finally:
            self._busy = False

    def _pop_all(self):
        # type: () -> None
        """Every word in the RX FIFOs into ``_words`` (only with ``_busy`` set). One FSTAT read
        per PIO block says which FIFOs hold words: an idle pass is two register reads, not
        eight ``rx_fifo()`` calls."""
        words = self._words
        mem = machine.mem32
        for block in (0, 1):
            empty = (mem[_PIO_FSTAT[block]] >> 8) & 0xF
            if empty == 0xF:
                continue
            for i, sm in self._by_block[block]:
                if empty & (1 << (i & 3)):
                    continue
                while sm.rx_fifo():
                    word = sm.get()
                    words.append((i, word, self.now_us()))  # read after the pop: the edge is older

    def stop_loggers(self):
        # type: () -> None
        """Lower SYNC and stop every logger; their last words stay for ``read_words``."""
        self._sync.value(0)
        for _, sm in self._sms:
            sm.active(0)

    def start_loggers(self, loop_count):
        # type: (int) -> int
        """Empty the FIFOs, restart every logger with ``loop_count`` and raise SYNC; returns the
        µs time read right after SYNC rose (at most SYNC_GAP_US late unless all SYNC_TRIES paused).
        The drain timer's period follows the lockout (two lockouts, 1 to DRAIN_MAX_MS)."""
        lockout_ms = (loop_count + 6) * 1000 // self.tick_hz
        drain_ms = max(1, min(DRAIN_MAX_MS, 2 * lockout_ms))
        if drain_ms != self._drain_ms:
            self._drain_ms = drain_ms
            self._timer.init(period=drain_ms, mode=machine.Timer.PERIODIC, callback=self._drain)
        self._busy = True
        try:
            for _ in range(SYNC_TRIES):
                self.stop_loggers()
                for _, sm in self._sms:
                    while sm.rx_fifo():  # words of an epoch already read, or of a failed try
                        sm.get()
                    sm.restart()  # back to the program's first instruction, ISR and counters cleared
                    sm.put(loop_count)
                    sm.active(1)  # pulls the lockout, sets X, waits for SYNC
                mem = machine.mem32
                for block in (0, 1):
                    mem[_PIO_FDEBUG[block]] = 0xF
                # Only the timer's low word around the rise: two register reads bracket it (a
                # whole now_us() before and after took long enough on a slow core to fail every
                # try); the high word comes after, one less if the low word wrapped since.
                before = mem[_TIMERAWL] & 0xFFFFFFFF
                self._sync.value(1)  # every logger leaves its wait in this cycle
                after = mem[_TIMERAWL] & 0xFFFFFFFF
                hi = mem[_TIMERAWH] & 0xFFFFFFFF
                if mem[_TIMERAWL] & 0xFFFFFFFF < after:
                    hi -= 1
                sync_us = (hi << 32) | after
                if (after - before) & 0xFFFFFFFF <= SYNC_GAP_US:
                    break
            return sync_us
        finally:
            self._busy = False

    def read_words(self):
        # type: () -> list[tuple[int, int, int]]
        self._busy = True
        try:
            self._pop_all()
            words, self._words = self._words, []
        finally:
            self._busy = False
        return words

    def take_drops(self):
        # type: () -> list[int]
        """Loggers that lost words (FDEBUG.RXSTALL, sticky until cleared): the firmware asks
        before each heartbeat, so a DROP always comes before the TIME that would vouch for it."""
        drops = []
        mem = machine.mem32
        for block in (0, 1):
            stalled = mem[_PIO_FDEBUG[block]] & 0xF
            if stalled:
                mem[_PIO_FDEBUG[block]] = stalled  # write 1 to clear
                for k in range(4):
                    if stalled & (1 << k):
                        drops.append(block * 4 + k)
        return drops

    def held(self):
        # type: () -> list[bool]
        return [pin is not None and pin.value() == 0 for pin in self._buttons]

    def go(self, on, btns):
        # type: (bool, list[int]) -> None
        if on:  # GO pin and the race LEDs in one register write: lit in the same cycle
            mask = 1 << GO_PIN
            for b in btns:
                if LED_PINS[b] is not None:
                    mask |= 1 << LED_PINS[b]
            machine.mem32[_SIO_OUT_SET] = mask
        else:
            machine.mem32[_SIO_OUT_CLR] = 1 << GO_PIN

    def set_led(self, btn, on):
        # type: (int, bool) -> None
        led = self._leds[btn]
        if led is not None:
            led.value(1 if on else 0)

    def feed(self):
        # type: () -> None
        self._wdt.feed()

    def all_off(self):
        # type: () -> None
        self._go.value(0)
        for led in self._leds:
            if led is not None:
                led.value(0)
        for _, sm in self._sms:
            sm.active(0)
        self._timer.deinit()
