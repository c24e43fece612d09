"""Fake ``select`` for the twin (MicroPython): poll() over the real stdin (the pty), whose waits
pass on the virtual clock (paced by the PC's clock if the policy says so)."""

import select as _real
import twin_core

_core = twin_core.core
POLLIN = _real.POLLIN
POLLOUT = _real.POLLOUT
POLLERR = _real.POLLERR
POLLHUP = _real.POLLHUP


class _Poll:
    def __init__(self):
        self._p = _real.poll()

    def register(self, obj, mask=POLLIN | POLLOUT):
        self._p.register(obj, mask)

    def unregister(self, obj):
        self._p.unregister(obj)

    def modify(self, obj, mask):
        self._p.modify(obj, mask)

    def _ready(self, timeout_ms=0):
        return self._p.poll(timeout_ms)

    def poll(self, timeout=-1):
        _core.call()
        ready = self._p.poll(0)
        if ready or timeout == 0:
            _core.end("poll")
            return ready
        if timeout < 0:  # until input: in steps of a millisecond
            while not ready:
                ready = _core.wait(twin_core.CYCLES_PER_MS, self._ready) or []
        else:
            ready = _core.wait(timeout * twin_core.CYCLES_PER_MS, self._ready) or []
        _core.end("poll")
        return ready

    def ipoll(self, timeout=-1, flags=0):
        return iter(self.poll(timeout))


def poll():
    _core.call()
    return _Poll()
