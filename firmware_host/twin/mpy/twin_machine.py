"""Fake ``machine`` for the twin (MicroPython): Pin, Timer, WDT, freq() and mem32 with the RP2040
addresses the firmware uses, on the virtual clock of twin_core."""

import twin_core

_core = twin_core.core
CPU_HZ = twin_core.SYS_HZ
GPIO_COUNT = 30

TIMERAWH = 0x40054024
TIMERAWL = 0x40054028
PIO_FDEBUG = (0x50200008, 0x50300008)
PIO_FSTAT = (0x50200004, 0x50300004)  # RXFULL 3:0, RXEMPTY 11:8, TXFULL 19:16, TXEMPTY 27:24
SIO_OUT_SET = 0xD0000014
SIO_OUT_CLR = 0xD0000018
WATCHDOG_BASE = 0x40058000
WATCHDOG_CTRL_CLR = WATCHDOG_BASE + 0x3000
WATCHDOG_ENABLE = 1 << 30
WDT_MAX_MS = 8388  # the RP2040 watchdog counts 24 bits of 2 us... MicroPython caps it here


def _signed(value):
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value


def freq(hz=None):
    _core.call()
    if hz is not None:
        raise ValueError("the twin runs at %d Hz only" % CPU_HZ)
    return CPU_HZ


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        _core.call()
        if not isinstance(id, int) or not 0 <= id < GPIO_COUNT:
            raise ValueError("invalid pin %r" % (id,))
        self.id = id
        self.mode = mode
        if mode == Pin.OUT:
            self.value(0 if value is None else value)
        _core.end("any")

    def value(self, v=None):
        _core.call()
        if v is None:
            level = _core.level(self.id)
            _core.end("any")
            return level
        if self.mode != Pin.OUT:
            raise ValueError("the twin drives GPIO %d, which is not an output" % self.id)
        _core.drive(self.id, 1 if v else 0)
        _core.end("sync" if self.id == _core.sync_pin else "out")
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, *, mode=1, period=-1, freq=-1, callback=None):
        _core.call()
        self.callback = None
        self.one_shot = False
        if callback is not None:
            self.init(mode=mode, period=period, freq=freq, callback=callback)
        _core.end("any")

    def init(self, *, mode=1, period=-1, freq=-1, callback=None):
        if freq > 0:
            period = 1000 // freq
        if period <= 0 or callback is None:
            raise ValueError("the twin's Timer needs a period and a callback")
        self.period = period * twin_core.CYCLES_PER_MS
        self.next = _core.now + self.period
        self.one_shot = mode == Timer.ONE_SHOT
        self.callback = callback
        if self not in _core.timers:
            _core.timers.append(self)

    def deinit(self):
        _core.call()
        if self in _core.timers:
            _core.timers.remove(self)


class WDT:
    def __init__(self, id=0, timeout=5000):
        _core.call()
        if not 1 <= timeout <= WDT_MAX_MS:
            raise ValueError("WDT timeout %d ms is out of range" % timeout)
        _core.wdt_cycles = timeout * twin_core.CYCLES_PER_MS
        _core.wdt_deadline = _core.now + _core.wdt_cycles
        _core.end("any")

    def feed(self):
        _core.call()
        if _core.wdt_deadline >= 0:
            _core.wdt_deadline = _core.now + _core.wdt_cycles
        _core.end("any")


class _Mem32:
    def __getitem__(self, addr):
        _core.call()
        _core.registers += 1
        if addr == TIMERAWH:
            value = (_core.now // twin_core.CYCLES_PER_US) >> 32
            point = "timerh"
        elif addr == TIMERAWL:
            value = (_core.now // twin_core.CYCLES_PER_US) & 0xFFFFFFFF
            point = "timerl"
        elif addr in PIO_FDEBUG:
            value = _core.rxstall[PIO_FDEBUG.index(addr)]  # RXSTALL bits 0-3 (others not modelled)
            point = "any"
        elif addr in PIO_FSTAT:
            base = PIO_FSTAT.index(addr) * 4
            value = 0xF << 24  # TX FIFOs: empty (a put is taken at once here)
            for k in range(4):
                n = len(_core.fifos[base + k])
                if n == 0:
                    value |= 1 << (8 + k)
                elif n >= _core.depth[base + k]:
                    value |= 1 << k
            point = "rx" if value & 0xF00 != 0xF00 else "any"
        else:
            raise ValueError("twin: reading register 0x%08X is not modelled" % addr)
        result = _signed(value)
        _core.end(point)
        return result

    def __setitem__(self, addr, value):
        _core.call()
        _core.registers += 1
        value &= 0xFFFFFFFF
        if addr in PIO_FDEBUG:
            block = PIO_FDEBUG.index(addr)
            _core.rxstall[block] &= ~value  # write 1 to clear
        elif addr == SIO_OUT_SET or addr == SIO_OUT_CLR:
            level = 1 if addr == SIO_OUT_SET else 0
            for pin in range(GPIO_COUNT):
                if value & (1 << pin):
                    _core.drive(pin, level)
        elif addr == WATCHDOG_CTRL_CLR:
            if value & WATCHDOG_ENABLE:
                _core.wdt_deadline = -1
        else:
            raise ValueError("twin: writing register 0x%08X is not modelled" % addr)
        _core.end("out")


mem32 = _Mem32()


def reset():
    _core.reset("machine.reset")


def unique_id():
    return b"TWIN0001"
