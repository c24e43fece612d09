"""Fake ``sys`` for the twin (MicroPython): the real one, but ``implementation._machine`` names
the board the test chose (e.g. "Raspberry Pi Pico W with RP2040")."""

import select as _real_select
import sys as _real
import twin_core


class _Implementation:
    def __init__(self, machine):
        real = _real.implementation
        self.name = real.name
        self.version = real.version
        self._machine = machine
        self._mpy = getattr(real, "_mpy", 0)


USB_TX_TIMEOUT_MS = 500  # the rp2 port waits this long for the host to take USB CDC data


class _Out:
    """stdout.buffer: a write costs its bytes on the virtual clock (frame encoding and USB); with
    the host not reading (the pty full) it waits 500 ms, running timer callbacks, then drops the
    data, as the rp2 port's USB CDC does."""

    def __init__(self, real):
        self._real = real
        self._poll = _real_select.poll()
        self._poll.register(real, _real_select.POLLOUT)
        self.dropped = 0

    def _writable(self, timeout_ms=0):
        return self._poll.poll(timeout_ms)

    def write(self, data):
        core = twin_core.core
        core.call()
        core.advance_to(core.now + len(data) * core.policy.write_cycles)
        if not self._poll.poll(0) and not core.wait(USB_TX_TIMEOUT_MS * twin_core.CYCLES_PER_MS, self._writable):
            self.dropped += 1
            core.bus.note("E usbdrop %d %d\n" % (core.now, len(data)))
            core.end("any")
            return len(data)
        n = self._real.write(data)
        if core.policy.log_writes:  # the bench matches each frame's sequence number with its cycle
            core.bus.note("E tx %d %s\n" % (core.now, data[: data.find(b" ")].decode() if b" " in data else "-"))
        core.end("any")
        return n

    def flush(self):
        pass


class _Stdout:
    def __init__(self, real):
        self._real = real
        self.buffer = _Out(real.buffer)

    def write(self, text):
        return self._real.write(text)


class _Sys:
    def __init__(self, machine):
        self.implementation = _Implementation(machine)
        self.stdout = _Stdout(_real.stdout)

    def __getattr__(self, name):
        return getattr(_real, name)


module = _Sys(twin_core.core.policy.machine)
