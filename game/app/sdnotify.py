"""systemd's notify protocol (READY=1, WATCHDOG=1, STATUS=...), in a few lines of stdlib.

Silent when ``NOTIFY_SOCKET`` is unset (not started by systemd), so the app calls it always.
Written here rather than taken from PyPI: it is one datagram to a Unix socket.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` to systemd; True if there was a socket to send it to."""
    address = (env if env is not None else os.environ).get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


class Watchdog:
    """Feeds systemd's watchdog from the render loop: ``kick(now_ns)`` each frame sends
    WATCHDOG=1 at most every half watchdog period (``WATCHDOG_USEC`` / 2)."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self._env = dict(env if env is not None else os.environ)
        usec = self._env.get("WATCHDOG_USEC", "")
        self.period_ns = int(usec) * 1_000 // 2 if usec.isdigit() and int(usec) > 0 else 0
        self._last_ns: int | None = None

    def kick(self, now_ns: int) -> bool:
        if not self.period_ns:
            return False
        if self._last_ns is not None and now_ns - self._last_ns < self.period_ns:
            return False
        self._last_ns = now_ns
        return notify("WATCHDOG=1", self._env)
