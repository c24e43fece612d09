"""The twin's RP2040 on MicroPython's unix port: a virtual clock in system cycles, the state
machines' RX FIFOs, the soft timer, the watchdog, and the bus to the CPython chip model.

The fake ``machine``, ``rp2``, ``select``, ``time``, ``gc`` and ``sys`` modules (twin_*.py)
call into one :class:`Core`. Virtual time advances by ``cost`` cycles per fake call and by the
requested time in waits; it never follows the PC's clock unless ``speed`` paces it. Words come
from the chip (firmware_host/twin/chip.py) over two pipes: the fake asks for the pushes up to
the current cycle only when time passes the chip's ``quiet_until`` or after an output write.

Quirks carried (FACTS.md): soft Timer callbacks run between bytecodes (``micropython.schedule``,
at points a seeded policy may pick adversarially); ``StateMachine.get()`` on an empty FIFO
waits, running scheduled callbacks meanwhile, until that machine pushes (recorded as a block; a
watchdog reset if that takes past the watchdog's deadline); RX FIFOs hold 4 words and a push to a
full one is dropped and sets FDEBUG.RXSTALL (8 words with ``fifo_join=PIO.JOIN_RX``); a GC pause stops Python, never the PIO.

CPU model (``cpu_factor`` > 0, for bench/bench_board_loop.py): the firmware's own Python between
two fake calls takes time on the chip too. Each fake call charges the PC's microseconds spent in
firmware code since the previous fake call returned (stretches over CPU_GAP_US are the PC
running something else, counted apart and not charged), times ``cpu_factor`` (how much
slower the RP2040 runs MicroPython than this PC), on the virtual clock; time inside the fakes
(the bus, pacing) is not charged. ``cpu`` and ``idle`` in the stats are the cycles charged and
the cycles spent waiting (poll, sleep), so the loop's busy share and cost per frame can be read.
"""

import micropython
import select as _real_select
import time as _real_time

SYS_HZ = 125000000
CYCLES_PER_US = 125
CYCLES_PER_MS = 125000
FIFO_DEPTH = 4
STATE_MACHINES = 8
NEVER = 1 << 62
# CPU model: the firmware's own code between two fake calls takes microseconds on a PC; a longer
# stretch is the PC running another process (time.clock() counts only the process, but in 1 ms
# steps: too coarse for stretches this short), so it is not charged.
CPU_GAP_US = 300
POINTS = ("rx", "get", "timerh", "timerl", "sync", "out", "poll", "any")


class WatchdogReset(BaseException):
    """The watchdog expired: the chip resets (not an Exception: the firmware cannot catch it)."""


class Rng:
    """xorshift32, the same numbers under MicroPython and CPython for the same seed."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x % n

    def chance(self, per_million):
        return per_million > 0 and self.below(1000000) < per_million


class Policy:
    """What the test chose: ``key=value`` pairs joined by ``,`` (see firmware_host/twin/board.py)."""

    def __init__(self, text):
        self.seed = 1
        self.cost = 250  # cycles per fake call (2 us: a MicroPython call on the RP2040)
        self.boot_cycle = 0
        self.speed = 0.0  # 0: free-running; k: at most k virtual ms per ms of the PC's clock
        self.timer_hold_us = 0  # adversarial: a due tick may wait this long for a chosen point
        self.timer = {}  # point -> chance (per million) to deliver a held tick there
        self.gc = {}  # point -> chance (per million) of a GC pause there
        self.gc_us = 10000  # length of an inserted GC pause
        self.collect_us = 10000  # what an explicit gc.collect() costs
        self.gc_gap_us = 50000  # an automatic collection needs a heap refilled since the last one
        self.bootsel = 0
        # MicroPython's own start on the RP2040 before main.py's first line (runtime, USB, reading
        # and compiling the firmware's ~51 KB of .py): with main.py's 500 ms BOOTSEL window, the
        # 1.3 s from power-up to HELLO measured on the real rp2 port (FACTS.md).
        self.boot_us = 800000
        self.write_cycles = 250  # per byte written to the link (CRC in Python, USB)
        self.machine = "Raspberry Pi Pico with RP2040"
        self.cpu_factor = 0.0  # 0: firmware code costs nothing but the fake calls' ``cost``
        self.log_writes = 0  # 1: note each frame written to the link (its cycle and sequence number)
        for part in text.split(","):
            if "=" not in part:
                continue
            key, value = part.split("=", 1)
            if key.startswith("timer_") and key[6:] in POINTS:
                self.timer[key[6:]] = int(value)
            elif key.startswith("gc_") and key[3:] in POINTS:
                self.gc[key[3:]] = int(value)
            elif key == "machine":
                self.machine = value.replace("_", " ")
            elif key == "speed":
                self.speed = float(value)
            elif key == "cpu_factor":
                self.cpu_factor = float(value)
            elif key == "log_writes":
                self.log_writes = int(value)
            elif key in ("seed", "cost", "boot_cycle", "timer_hold_us", "gc_us", "collect_us", "gc_gap_us", "bootsel",
                         "write_cycles", "boot_us"):
                setattr(self, key, int(value))
            else:
                raise ValueError("twin policy key %r is not known" % key)


class Bus:
    """Line requests to the CPython chip server; one-way notes ride along with the next request."""

    def __init__(self, rfd, wfd):
        self._r = open(rfd, "rb")
        self._w = open(wfd, "wb")
        self._notes = []
        self.requests = 0

    def note(self, line):
        self._notes.append(line)

    def flush(self):
        if self._notes:
            self._w.write("".join(self._notes).encode())
            self._notes = []

    def request(self, line):
        self._notes.append(line)
        self.requests += 1
        if self.requests % 128 == 0 and core is not None:
            self._notes.append(core.stats())  # the counters now and then, not only at the end
        self.flush()
        reply = self._r.readline()
        if not reply:
            raise SystemExit(3)  # the test went away
        return reply


class Core:
    def __init__(self, policy, bus):
        self.policy = policy
        self.bus = bus
        self.rng = Rng(policy.seed)
        self.now = policy.boot_cycle
        self.quiet = -1  # no push before this cycle (unless an output is written)
        self.dirty = True
        self.fifos = [[] for _ in range(STATE_MACHINES)]
        self.depth = [FIFO_DEPTH] * STATE_MACHINES  # 8 with the TX FIFO joined to the RX FIFO
        self.rxstall = [0, 0]
        self.timers = []
        self.pending = False  # a timer callback is scheduled and has not run yet
        self.held_since = -1  # adversarial: the cycle a due tick started waiting for its point
        self.in_callback = False
        self.wdt_deadline = -1  # -1: the watchdog is not running
        self.wdt_cycles = 0
        self.calls = 0
        self.cpu_cycles = 0  # charged for the firmware's own code (cpu_factor)
        self.idle_cycles = 0  # spent in wait(): poll and sleep
        self._exit_us = _real_time.ticks_us()  # the PC's clock when the last fake call returned
        self.cpu_skipped = 0  # stretches longer than CPU_GAP_US: the PC ran something else
        self.blocks = 0
        self.stalls = 0
        self.gc_pauses = 0
        self.last_gc_end = -(1 << 40)
        self.last_collect_end = -(1 << 40)
        self.timer_runs = 0
        self.timer_chosen = 0
        self.outputs = {}  # pin -> level driven by the firmware
        self.driven = []  # pins the firmware drove, in order of first drive
        self.registers = 0  # mem32 accesses
        self.state_machines = 0  # StateMachine objects made
        self.watched = {}  # pin -> state machine watching it (outputs the chip must hear of)
        self.sync_pin = -1
        self._r_anchor = _real_time.ticks_ms()
        self._v_anchor = self.now
        self.bus.note("E boot %d\n" % self.now)

    # -- time -------------------------------------------------------------------------------

    def call(self):
        """Every fake call: it costs ``cost`` cycles, and the chip's pushes up to now arrive."""
        self.calls += 1
        extra = 0
        if self.policy.cpu_factor > 0:  # the firmware's own code since the last fake call returned
            spent_us = _real_time.ticks_diff(_real_time.ticks_us(), self._exit_us)
            if spent_us > CPU_GAP_US:
                self.cpu_skipped += 1  # preempted (or the unix port's own GC): not the firmware's
            elif spent_us > 0:
                extra = int(spent_us * self.policy.cpu_factor * CYCLES_PER_US)
                self.cpu_cycles += extra
        self.advance_to(self.now + self.policy.cost + extra)

    def advance_to(self, cycle):
        if self.wdt_deadline >= 0 and cycle > self.wdt_deadline:
            self.now = self.wdt_deadline
            self.sync()
            self.reset("watchdog")
        if cycle > self.now:
            self.now = cycle
        self.sync()

    def reset(self, why):
        self.bus.note("E reset %d %s\n" % (self.now, why))
        self.bus.flush()
        raise WatchdogReset(why)

    def sync(self):
        if self.now < self.quiet and not self.dirty:
            return
        reply = self.bus.request("A %d\n" % self.now).split()
        self.dirty = False
        self.quiet = int(reply[0])
        i = 1
        while i < len(reply):
            self._push(int(reply[i + 1]), int(reply[i + 2]), int(reply[i]))
            i += 3

    def _push(self, sm, word, cycle):
        fifo = self.fifos[sm]
        if len(fifo) >= self.depth[sm]:  # non-blocking PUSH to a full FIFO: dropped, RXSTALL set
            self.rxstall[sm >> 2] |= 1 << (sm & 3)
            self.stalls += 1
            self.bus.note("E stall %d %d %d\n" % (sm, cycle, word))
        else:
            fifo.append(word)

    def pause(self, us, where):
        """A garbage collection: Python stops for ``us``; the PIO goes on pushing."""
        self.gc_pauses += 1
        self.bus.note("E gc %d %d %s\n" % (self.now, us, where))
        self.advance_to(self.now + us * CYCLES_PER_US)
        if where == "collect":
            self.last_collect_end = self.now
        else:
            self.last_gc_end = self.now

    # -- the end of a fake call: GC pauses and timer callbacks at chosen points ----------------

    def end(self, point):
        self._end(point)
        if self.policy.cpu_factor > 0:  # the fake's own work ends here: what follows is the firmware's
            self._exit_us = _real_time.ticks_us()

    def _end(self, point):
        p = self.policy
        gap = p.gc_gap_us * CYCLES_PER_US
        # an automatic collection needs a heap filled again since the last one; the one
        # between the timer reads around SYNC stands for any stall there (an interrupt too)
        if (p.gc and self.now - self.last_gc_end >= gap
                and (point == "sync" or self.now - self.last_collect_end >= gap)
                and self.rng.chance(p.gc.get(point, 0) or p.gc.get("any", 0))):
            self.pause(p.gc_us, point)
        if self.pending or self.in_callback or not self.timers:
            return
        due = self._due()
        if due is None:
            self.held_since = -1
            return
        if p.timer_hold_us and self.now - due < p.timer_hold_us * CYCLES_PER_US:
            if not self.rng.chance(p.timer.get(point, 0)):
                return
            self.timer_chosen += 1
        self.pending = True
        micropython.schedule(self._fire, None)  # runs at the next branch of the caller's code

    def _due(self):
        first = None
        for t in self.timers:
            if t.next <= self.now and (first is None or t.next < first):
                first = t.next
        return first

    def _fire(self, _arg):
        self.pending = False
        self.run_timers()

    def run_timers(self):
        """Run every due timer callback now (the scheduler does this between bytecodes)."""
        if self.in_callback:
            return
        self.in_callback = True
        try:
            for t in list(self.timers):
                if t.next <= self.now:
                    t.next += t.period  # expiry-based like the rp2 soft timer: a late tick is owed
                    if t.next <= self.now - t.period:
                        t.next = self.now  # but never more than one
                    if t.one_shot:
                        self.timers.remove(t)
                    self.timer_runs += 1
                    t.callback(t)
        finally:
            self.in_callback = False

    # -- waiting: poll/sleep, and get() on an empty FIFO ------------------------------------

    def wait(self, cycles, ready=None):
        """Idle for ``cycles`` (poll or sleep): timer callbacks run at their ticks. ``ready()``
        ends the wait early when it returns something (input on the link)."""
        target = self.now + cycles
        while True:
            stop = target
            if ready is not None:  # input or a writable link is seen within a USB frame (1 ms)
                stop = min(stop, self.now + CYCLES_PER_MS)
            if not self.in_callback:
                for t in self.timers:
                    if self.now < t.next < stop:
                        stop = t.next
            self._pace(stop, ready)
            self.dirty = True  # idle: ask the chip (the test may have scheduled edges meanwhile)
            before = self.now
            self.advance_to(stop)
            self.idle_cycles += self.now - before  # waiting only: timer callbacks below are work
            if not self.in_callback and self._due() is not None:
                self.run_timers()
            if ready is not None:
                got = ready()
                if got:
                    return got
            if self.now >= target:
                return None

    def _pace(self, stop, ready):
        speed = self.policy.speed
        if speed <= 0:
            return
        real_ms = (stop - self._v_anchor) // int(CYCLES_PER_MS * speed)
        now_ms = _real_time.ticks_ms()
        left = _real_time.ticks_diff(_real_time.ticks_add(self._r_anchor, real_ms), now_ms)
        if left > 0:
            if ready is None:
                _real_time.sleep_ms(left)  # a sleep (the boot, time.sleep_ms) takes its time too
            else:
                ready(left)  # ahead of the PC's clock: sleep on the link (input ends the sleep)
        elif left < -20:  # behind (a slow PC): start afresh rather than rush to catch up
            self._v_anchor = stop
            self._r_anchor = now_ms

    def block(self, sm):
        """``get()`` on machine ``sm``'s empty FIFO: wait (callbacks run) until it has a word."""
        self.blocks += 1
        start = self.now
        self.bus.note("E block %d %d\n" % (sm, start))
        fifo = self.fifos[sm]
        while not fifo:
            stop = self.quiet if self.quiet > self.now else self.now + 1
            if not self.in_callback:
                for t in self.timers:
                    if self.now < t.next < stop:
                        stop = t.next
            if self.wdt_deadline >= 0 and stop > self.wdt_deadline + 1:
                stop = self.wdt_deadline + 1
            self.advance_to(stop)
            if not self.in_callback and self._due() is not None:
                self.run_timers()
        self.bus.note("E unblock %d %d %d\n" % (sm, start, self.now))

    # -- outputs -------------------------------------------------------------------------------

    def drive(self, pin, level):
        if pin not in self.outputs:
            self.driven.append(pin)
            self.bus.note("E drive %d %d %d\n" % (pin, level, self.now))
        old = self.outputs.get(pin)
        self.outputs[pin] = level
        if old != level and (pin == self.sync_pin or pin in self.watched):
            self.bus.note("O %d %d %d\n" % (pin, level, self.now))
            self.dirty = True

    def level(self, pin):
        if pin in self.outputs:
            return self.outputs[pin]
        self.dirty = True  # the test's scripts may have run: ask the chip again
        return int(self.bus.request("L %d %d\n" % (pin, self.now)))

    def stats(self):
        return ("E stats calls=%d blocks=%d stalls=%d gc=%d timers=%d chosen=%d registers=%d sms=%d driven=%s bus=%d "
                "now=%d cpu=%d idle=%d skipped=%d\n") % (
            self.calls, self.blocks, self.stalls, self.gc_pauses, self.timer_runs, self.timer_chosen,
            self.registers, self.state_machines, ":".join([str(p) for p in self.driven]) or "-", self.bus.requests,
            self.now, self.cpu_cycles, self.idle_cycles, self.cpu_skipped)


core = None  # set by twin_boot before the fakes are imported
