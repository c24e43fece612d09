"""Headroom on the board (issue 21): the main loop left the core about half busy while idle and
94 % busy at the worst input the lockout allows, so frames and heartbeats left late. These checks
count what the loop does per second of the twin's virtual clock (register reads, FIFO checks,
timer callbacks: the fake calls), which no machine's speed changes; bench/bench_board_loop.py
measures the CPU time itself.

Before: a soft timer every 1 ms asked all eight FIFOs and FDEBUG (1000 callbacks a second), and a
pass every 1 ms asked them again, the LEDs and the watchdog: about 30,000 fake calls a board
second on an idle board. And the heartbeat went on at the idle 250 ms for up to a quarter of a
second after an arming, where the protocol promises one every 10 ms while a race is armed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.board import protocol as P  # noqa: E402
from firmware_host.twin.board import Policy, TwinBoard  # noqa: E402
from twin_races import RawHost  # noqa: E402

TICKS_PER_MS = 62_500
CYCLES_PER_S = 125_000_000


@pytest.fixture
def twin(micropython: str, tmp_path: Path) -> Iterator[TwinBoard]:
    board = TwinBoard(tmp_path / "ttyTWIN", policy=Policy(speed=0, boot_us=0), micropython=micropython)  # free-running
    board.plug()
    yield board
    board.close()


def ask(host: RawHost, verb: str, fields: list[tuple[str, object]]) -> dict[str, str]:
    seq = host.send(verb, fields)
    while True:
        item = host.queue.get(timeout=60)
        assert item is not None, "the twin hung up"
        if item[1].get("re") == str(seq):
            return item[1]


def until_time(host: RawHost, ticks: int) -> None:
    """Until the board's heartbeat says its clock passed ``ticks``."""
    while True:
        item = host.queue.get(timeout=60)
        assert item is not None, "the twin hung up"
        if item[0] == "TIME" and int(item[1]["ticks"]) >= ticks:
            return


def test_an_idle_board_leaves_its_core_alone(twin: TwinBoard) -> None:
    host = RawHost(twin.link)
    try:
        ask(host, "HELLO", [("proto", P.PROTO)])
        until_time(host, 3_000 * TICKS_PER_MS)
    finally:
        host.close()
    log = [s for s in twin.boot.stats_log if "now" in s]
    first = next(s for s in log if int(s["now"]) >= CYCLES_PER_S)  # after the start and its first collection
    last = log[-1]
    seconds = (int(last["now"]) - int(first["now"])) / CYCLES_PER_S
    assert seconds >= 1.5
    timers = (int(last["timers"]) - int(first["timers"])) / seconds
    calls = (int(last["calls"]) - int(first["calls"])) / seconds
    assert timers <= 60, f"{timers:.0f} drain callbacks a second"  # every 20 ms at the 25 ms lockout: 50
    assert calls <= 4_000, f"{calls:.0f} fake calls a second"


def test_the_heartbeat_comes_every_10_ms_from_the_arming_on(twin: TwinBoard) -> None:
    host = RawHost(twin.link)
    try:
        ask(host, "HELLO", [("proto", P.PROTO)])
        until_time(host, 600 * TICKS_PER_MS)  # an idle heartbeat just went: the next is 250 ms away
        armed = ask(host, "ARM", [("race", 1), ("btns", [0, 1]), ("lockout_us", 25_000), ("timeout_ms", 3_000)])
        armed_ticks = int(armed["ticks"])
        until_time(host, armed_ticks + 300 * TICKS_PER_MS)
        times = [int(f["ticks"]) for verb, f in host.frames if verb == "TIME" and int(f["ticks"]) > armed_ticks]
    finally:
        host.close()
    gaps_ms = [(b - a) / TICKS_PER_MS for a, b in zip([armed_ticks, *times], times)]
    assert len(times) >= 25 and max(gaps_ms) <= 12.5, gaps_ms  # 10 ms, give or take a 2 ms pass
    assert sum(gaps_ms[1:]) / len(gaps_ms[1:]) == pytest.approx(10.0, abs=0.2)  # a cadence that does not drift
