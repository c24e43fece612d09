"""Which board is ours: USB ids for finding its port, and the chip and board its HELLO names.

A Pico running MicroPython enumerates as USB 2E8A:0005. The vendor id 0x2E8A alone is every
Raspberry Pi device (a Debug Probe is 2E8A:000C), so ports are matched on both ids, and each
match is then asked ``HELLO`` (link.py): only one that answers as this firmware is used.

From protocol 1.1 the board's HELLO names its ``chip`` and ``board``. The firmware drives RP2040
registers and GP25's LED, so only an RP2040 on a plain Pico (or another RP2040 board) is used;
an RP2350 (Pico 2) or a Pico W is refused with a message saying what to use instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from .errors import BoardUnsupported

PICO_VID = 0x2E8A  # Raspberry Pi (every device they make)
MICROPYTHON_PID = 0x0005  # MicroPython's own USB product id on the Pico
DEBUG_PROBE_PID = 0x000C  # never ours
USB_IDS = f"{PICO_VID:04X}:{MICROPYTHON_PID:04X}"

SUPPORTED_CHIP = "RP2040"
BOARD_NAMES = {
    "pico": "Raspberry Pi Pico",
    "pico_w": "Raspberry Pi Pico W",
    "pico2": "Raspberry Pi Pico 2",
    "pico2_w": "Raspberry Pi Pico 2 W",
    "other": "board",
}
REFUSED_BOARDS = ("pico_w", "pico2", "pico2_w")
USE_INSTEAD = "use a plain Raspberry Pi Pico (RP2040)"


class PortInfo(Protocol):
    """What is needed of a ``serial.tools.list_ports`` entry."""

    @property
    def device(self) -> str: ...
    @property
    def vid(self) -> int | None: ...
    @property
    def pid(self) -> int | None: ...


def matching_ports(ports: Iterable[PortInfo]) -> list[str]:
    """The devices with USB id 2E8A:0005 (a Pico running MicroPython), sorted."""
    return sorted(p.device for p in ports if p.vid == PICO_VID and p.pid == MICROPYTHON_PID)


def describe(chip: str | None, board: str | None) -> str:
    """``"Raspberry Pi Pico W (RP2040)"``, or what is known of it."""
    name = BOARD_NAMES.get(board or "", f"board {board!r}" if board else "board")
    return f"{name} ({chip})" if chip else name


def check_identity(port: str, chip: str | None, board: str | None) -> None:
    """Refuse hardware the firmware does not support; a board that names neither (firmware of
    protocol 1.0) is accepted."""
    if chip is None and board is None:
        return
    if (chip is not None and chip != SUPPORTED_CHIP) or board in REFUSED_BOARDS:
        raise BoardUnsupported(f"the board on {port!r} is a {describe(chip, board)}, which this rig does not support: {USE_INSTEAD}")
