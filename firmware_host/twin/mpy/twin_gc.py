"""Fake ``gc`` for the twin (MicroPython): collect() really collects and costs its pause on the
virtual clock (the PIO keeps pushing meanwhile)."""

import gc as _real
import twin_core

_core = twin_core.core
enable = _real.enable
disable = _real.disable
isenabled = _real.isenabled
mem_alloc = _real.mem_alloc
mem_free = _real.mem_free
threshold = _real.threshold


def collect():
    _real.collect()
    _core.call()
    _core.pause(_core.policy.collect_us, "collect")
    _core.end("any")
