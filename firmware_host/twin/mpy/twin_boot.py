"""The twin's launcher (MicroPython unix port): fakes into ``sys.modules``, then ``import main``
runs the firmware's unmodified main.py/hw_rp2.py on them.

Environment: TWIN_BUS=<read fd>,<write fd> (pipes to firmware_host/twin/board.py's chip
server), TWIN_POLICY (twin_core.Policy), TWIN_ENTRY (the module to run, ``main`` unless a test
runs a probe). MICROPYPATH holds this folder and the firmware's.
"""

import os
import sys

import twin_core

_rfd, _wfd = os.getenv("TWIN_BUS").split(",")
twin_core.core = twin_core.Core(twin_core.Policy(os.getenv("TWIN_POLICY") or ""), twin_core.Bus(int(_rfd), int(_wfd)))

import twin_machine  # noqa: E402  (each fake binds twin_core.core when imported)
import twin_rp2  # noqa: E402
import twin_select  # noqa: E402
import twin_time  # noqa: E402
import twin_gc  # noqa: E402
import twin_sys  # noqa: E402

sys.modules["machine"] = twin_machine
sys.modules["rp2"] = twin_rp2
sys.modules["select"] = twin_select
sys.modules["time"] = twin_time
sys.modules["gc"] = twin_gc
sys.modules["sys"] = twin_sys.module


def _boot():
    core = twin_core.core
    try:
        import hw_rp2
        core.sync_pin = hw_rp2.SYNC_PIN
    except ImportError:
        pass
    try:
        __import__(os.getenv("TWIN_ENTRY") or "main")  # main.py runs the firmware
        why = "returned"
    except twin_core.WatchdogReset as exc:
        why = "reset"
    except KeyboardInterrupt:
        why = "interrupt"
    except SystemExit:
        why = "exit"
    except BaseException as exc:  # the firmware died: the test sees the reason
        sys.print_exception(exc)
        why = "crash"
    try:
        core.bus.note(core.stats())
        core.bus.note("E end %d %s\n" % (core.now, why))
        core.bus.flush()
    except OSError:
        pass


_boot()
