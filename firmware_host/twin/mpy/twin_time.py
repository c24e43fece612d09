"""Fake ``time`` for the twin (MicroPython): ticks on the virtual clock (rp2 period 2**30)."""

import twin_core

_core = twin_core.core
_PERIOD = 1 << 30


def ticks_ms():
    _core.call()
    value = (_core.now // twin_core.CYCLES_PER_MS) & (_PERIOD - 1)
    _core.end("any")
    return value


def ticks_us():
    _core.call()
    value = (_core.now // twin_core.CYCLES_PER_US) & (_PERIOD - 1)
    _core.end("any")
    return value


def ticks_cpu():
    _core.call()
    return _core.now & (_PERIOD - 1)


def ticks_diff(a, b):
    return ((a - b + (_PERIOD >> 1)) & (_PERIOD - 1)) - (_PERIOD >> 1)


def ticks_add(a, delta):
    return (a + delta) & (_PERIOD - 1)


def sleep_ms(ms):
    _core.call()
    _core.wait(ms * twin_core.CYCLES_PER_MS)
    _core.end("any")


def sleep_us(us):
    _core.call()
    _core.wait(us * twin_core.CYCLES_PER_US)
    _core.end("any")


def sleep(s):
    sleep_ms(int(s * 1000))


def time():
    return _core.now // twin_core.SYS_HZ


def time_ns():
    return _core.now * 8
