"""The twin's launcher (MicroPython unix port): fakes into ``sys.modules``, then ``import main``
runs the firmware's unmodified main.py/hw_rp2.py on them.

Before main.py, ``boot_us`` of the policy passes on the virtual clock (paced like every wait):
MicroPython's own start on the RP2040 (a test's probe entry starts at once). When main.py returns (safe boot) or is interrupted, the
board is where a real Pico would be: at MicroPython's friendly REPL on the USB link (``_repl``),
which echoes what the host sends, runs it as Python and prompts again.

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


BANNER = (b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
          b'Type "help()" for more information.\r\n')


def _repl(write, read):
    """MicroPython's friendly REPL as the rp2 port runs it on USB CDC when main.py has ended:
    every printable byte echoed, CR or LF (a CR LF pair once) runs the line as Python, a
    traceback for what fails, ``>>> `` again; Ctrl-C drops the line; Ctrl-A enters the raw REPL
    (no echo) until Ctrl-B. Until the process is killed (unplug, reset) or stdin ends."""
    write(BANNER + b">>> ")
    line = b""
    last_nl = 0
    raw = False
    scope = {}
    while True:
        c = read(1)
        if not c:
            return
        ch = c[0]
        if ch in (10, 13):
            if last_nl and last_nl != ch:  # the second byte of a CR LF pair
                last_nl = 0
                continue
            last_nl = ch
            if raw:
                continue
            write(b"\r\n")
            if line:
                try:
                    exec(line.decode(), scope)
                except Exception as exc:  # what the REPL prints for a line it cannot run
                    write(b'Traceback (most recent call last):\r\n  File "<stdin>", line 1\r\n'
                          + type(exc).__name__.encode() + b": " + str(exc).encode() + b"\r\n")
            line = b""
            write(b">>> ")
            continue
        last_nl = 0
        if ch == 1:
            raw = True
            line = b""
            write(b"raw REPL; CTRL-B to exit\r\n>")
        elif ch == 2 and raw:
            raw = False
            write(b"\r\n" + BANNER + b">>> ")
        elif ch == 3:
            line = b""
            write(b"\r\n>>> ")
        elif ch in (8, 127):
            if line and not raw:
                line = line[:-1]
                write(b"\x08 \x08")
        elif 32 <= ch < 127:
            line += c
            if not raw:
                write(c)


def _boot():
    core = twin_core.core
    entry = os.getenv("TWIN_ENTRY") or "main"
    if entry == "main":  # a test's probe schedules its edges from cycle 0 on: no boot before it
        core.wait(core.policy.boot_us * twin_core.CYCLES_PER_US)  # MicroPython starts (paced)
    try:
        import hw_rp2
        core.sync_pin = hw_rp2.SYNC_PIN
    except ImportError:
        pass
    try:
        __import__(entry)  # main.py runs the firmware
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
        if entry == "main" and why in ("returned", "interrupt"):
            core.bus.note("E prompt %d\n" % core.now)
        core.bus.flush()
    except OSError:
        pass
    if entry == "main" and why in ("returned", "interrupt"):
        out = sys.stdout.buffer

        def write(data):
            out.write(data)
            if hasattr(out, "flush"):
                out.flush()

        _repl(write, sys.stdin.buffer.read)


_boot()
