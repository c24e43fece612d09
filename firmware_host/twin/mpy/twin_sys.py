"""Fake ``sys`` for the twin (MicroPython): the real one, but ``implementation._machine`` names
the board the test chose (e.g. "Raspberry Pi Pico W with RP2040")."""

import sys as _real
import twin_core


class _Implementation:
    def __init__(self, machine):
        real = _real.implementation
        self.name = real.name
        self.version = real.version
        self._machine = machine
        self._mpy = getattr(real, "_mpy", 0)


class _Out:
    """stdout.buffer: a write costs its bytes on the virtual clock (frame encoding and USB)."""

    def __init__(self, real):
        self._real = real

    def write(self, data):
        core = twin_core.core
        core.call()
        core.advance_to(core.now + len(data) * core.policy.write_cycles)
        n = self._real.write(data)
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
