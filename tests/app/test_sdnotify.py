"""The notify protocol against a real Unix datagram socket standing in for systemd."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.app.sdnotify import Watchdog, notify


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def test_ready_reaches_systemd(systemd: tuple[socket.socket, str]) -> None:
    sock, path = systemd
    assert notify("READY=1", {"NOTIFY_SOCKET": path})
    assert sock.recv(100) == b"READY=1"


def test_without_a_socket_nothing_is_sent() -> None:
    assert notify("READY=1", {}) is False
    assert Watchdog({}).kick(0) is False


def test_the_watchdog_is_fed_every_half_period(systemd: tuple[socket.socket, str]) -> None:
    sock, path = systemd
    dog = Watchdog({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"})  # 10 s
    assert dog.period_ns == 5_000_000_000
    sent = [dog.kick(t * 1_000_000_000) for t in (0, 1, 4, 5, 9, 10)]
    assert sent == [True, False, False, True, False, True]
    assert [sock.recv(100) for _ in range(3)] == [b"WATCHDOG=1"] * 3
