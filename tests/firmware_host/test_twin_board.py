"""The firmware twin itself: its fakes carry the RP2040/MicroPython quirks (soft timer between
bytecodes, blocking get, 4-word FIFOs with RXSTALL, signed mem32, the watchdog), and the unmodified
main.py boots on them behind a pty the host link opens like a Pico's port."""

from __future__ import annotations

import os
import queue
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.board import protocol as P  # noqa: E402
from firmware_host.boardlink.errors import BoardAtPrompt  # noqa: E402
from firmware_host.boardlink.link import BoardLink  # noqa: E402
from firmware_host.twin.board import Policy, TwinBoard  # noqa: E402
from firmware_host.twin.table import Table, us_to_cycles  # noqa: E402

WAIT_S = 20.0
SCALE = 8.0  # host waits on the twin: board time times this (a loaded PC runs it slower than real time)
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8)
PROBE_HEAD = """
import machine, rp2, time, twin_core
core = twin_core.core
def result(*values):
    f = open(RESULT, "w")
    f.write(" ".join([str(v) for v in values]) + "\\n")
    f.close()
"""


def probe(tmp_path: Path, micropython: str, body: str, *, policy: Policy | None = None,
          table: Table | None = None) -> tuple[list[str], TwinBoard]:
    """Run ``body`` under the twin's fakes (not the firmware); its ``result(...)`` comes back."""
    out = tmp_path / "result.txt"
    (tmp_path / "probe.py").write_text(f"RESULT = {str(out)!r}\n" + PROBE_HEAD + body)
    twin = TwinBoard(tmp_path / "ttyPROBE", policy=policy, micropython=micropython, entry="probe", path=tmp_path,
                     make_table=(lambda _n: table) if table is not None else None, reboot_on_reset=False)
    twin.plug()
    try:
        while True:
            kind, _boot, detail = twin.events.get(timeout=WAIT_S)
            if kind == "end":
                break
    finally:
        twin.close()
    assert twin.boot.ended in ("returned", "reset"), twin.stderr()
    return (out.read_text().split() if out.exists() else []), twin


LOGGER = """
pin = machine.Pin(3)
sm = rp2.StateMachine(1, None, freq=125000000, in_base=pin, jmp_pin=pin)
sync = machine.Pin(22, machine.Pin.OUT, value=0)
core.sync_pin = 22
sm.put(LOOP)
sm.active(1)
sync.value(1)
"""


def test_a_timer_tick_can_run_between_rx_fifo_and_get_and_the_get_then_blocks(tmp_path: Path, micropython: str) -> None:
    """Today's _drain pattern, read by the main loop and the 1 ms timer: the timer's drain runs
    right after rx_fifo() said 1, takes the word, and get() waits for the release."""
    table = Table.for_board()
    table.edge(3, 0, us_to_cycles(1500))
    table.edge(3, 1, us_to_cycles(9000))
    body = "LOOP = 1000\n" + LOGGER + """
words = []
def drain(_t=None):
    while sm.rx_fifo():
        words.append(sm.get())
machine.Timer(period=1, mode=machine.Timer.PERIODIC, callback=drain)
for _ in range(5000):
    drain()
result(len(words), core.blocks, core.timer_chosen)
"""
    values, twin = probe(tmp_path, micropython, body, table=table,
                         policy=Policy(timer_hold_us=1000, timer={"rx": 1_000_000}))
    assert values[:2] == ["2", "1"] and int(values[2]) >= 1
    (block,) = twin.boot.blocks
    release = [c for c, sm, _w in twin.boot.pushes if sm == 1][1]
    assert block.sm == 1 and block.end == release  # blocked until the machine's next push


@pytest.mark.parametrize(("join", "held", "dropped"), [("", 4, 6), (", fifo_join=rp2.PIO.JOIN_RX", 8, 2)])
def test_a_fifo_holds_four_words_eight_joined_and_a_push_to_a_full_one_sets_rxstall(
        tmp_path: Path, micropython: str, join: str, held: int, dropped: int) -> None:
    table = Table.for_board()
    for k in range(10):  # ten edges, one word each (the lockout is a few ticks)
        table.edge(3, k % 2, us_to_cycles(1000 + 100 * k))
    logger = LOGGER.replace("jmp_pin=pin)", "jmp_pin=pin" + join + ")")
    # The probe runs inside the twin, where ``time`` is the fake module: sleep_ms advances the
    # twin's virtual clock by 3 board ms (the ten edges land meanwhile); nothing waits on the PC.
    body = "LOOP = 10\n" + logger + """
time.sleep_ms(3)
n = sm.rx_fifo()
stalled = machine.mem32[0x50200008]
machine.mem32[0x50200008] = stalled
after = machine.mem32[0x50200008]
result(n, stalled, after)
"""
    values, twin = probe(tmp_path, micropython, body, table=table)
    # state machine 1: PIO0's RXSTALL bit 1, write 1 to clear
    assert values == [str(held), str(1 << 1 if dropped else 0), "0"]
    assert len(twin.boot.stalls) == dropped and twin.rxstall_drops == dropped


def test_mem32_reads_the_64_bit_us_timer_signed_like_micropython(tmp_path: Path, micropython: str) -> None:
    boot_us = (1 << 31) + 5
    body = """
result(machine.mem32[0x40054024], machine.mem32[0x40054028], time.ticks_ms())
"""
    values, _twin = probe(tmp_path, micropython, body, policy=Policy(boot_cycle=us_to_cycles(boot_us)))
    high, low, ms = (int(v) for v in values)
    assert high == 0 and low < 0 and (low & 0xFFFF_FFFF) >= boot_us  # bit 31 set: a negative int
    assert ms == (boot_us // 1000) % (1 << 30)


def test_a_get_that_waits_past_the_watchdog_resets_the_board(tmp_path: Path, micropython: str) -> None:
    body = "LOOP = 10\n" + LOGGER + """
machine.WDT(timeout=100)
sm.get()
result("unreachable")
"""
    values, twin = probe(tmp_path, micropython, body)
    assert values == [] and twin.boot.ended == "reset"
    assert twin.watchdog_resets == 1
    assert twin.hangs == 1 and twin.boot.blocks[0].end is None


def test_a_gc_pause_stops_python_but_not_the_pio(tmp_path: Path, micropython: str) -> None:
    table = Table.for_board()
    table.edge(3, 0, us_to_cycles(2000))
    body = "LOOP = 10\n" + LOGGER + """
import gc
t0 = time.ticks_us()
gc.collect()
result(time.ticks_diff(time.ticks_us(), t0), sm.rx_fifo())
"""
    values, twin = probe(tmp_path, micropython, body, table=table, policy=Policy(collect_us=5000))
    assert int(values[0]) >= 5000 and values[1] == "1"
    assert twin.gc_pauses == 1


# -- the firmware on the twin ----------------------------------------------------------------------


@pytest.fixture
def twin(micropython: str, tmp_path: Path) -> Iterator[TwinBoard]:
    board = TwinBoard(tmp_path / "ttyTWIN", micropython=micropython)
    board.plug()
    yield board
    board.close()


def test_main_boots_on_the_fakes_and_answers_the_host_link(twin: TwinBoard) -> None:
    link = BoardLink(str(twin.link))
    link.start()
    try:
        info = link.info
        assert info is not None and info.tick_hz == 62_500_000 and info.buttons == 7
        assert link.request("PING", []).verb == "PONG"
    finally:
        link.close()
    boot = twin.boot
    assert sorted(sm for sm, *_ in boot.starts) == list(range(8))  # seven buttons and GO
    assert [pin for sm, pin, *_ in sorted(boot.starts)] == [2, 3, 4, 5, 6, 7, 8, 9]
    assert len(boot.sync_rises()) == 1 and twin.hangs == 0


def test_reset_boots_a_new_process_with_a_new_boot_id_and_close_leaves_nothing(twin: TwinBoard) -> None:
    link = BoardLink(str(twin.link))
    link.start()
    first = link.info.boot if link.info else ""
    link.close()
    old = twin._proc
    twin.reset()
    assert old is not None and old.poll() is not None
    link = BoardLink(str(twin.link))
    link.start()
    try:
        assert link.info is not None and link.info.boot != first
    finally:
        link.close()
    proc = twin._proc
    twin.close()
    assert proc is not None and proc.poll() is not None and len(twin.boots) == 2
    with pytest.raises(queue.Empty):
        while True:
            kind, *_ = twin.events.get_nowait()
            assert kind == "end"


def test_bootsel_held_at_power_up_leaves_the_board_at_the_prompt_untouched(micropython: str, tmp_path: Path) -> None:
    twin = TwinBoard(tmp_path / "ttyTWIN", policy=Policy(bootsel=True), micropython=micropython, reboot_on_reset=False)
    twin.plug()
    try:
        while twin.events.get(timeout=WAIT_S)[0] != "prompt":
            pass
    finally:
        twin.close()
    boot = twin.boot
    assert boot.ended == "returned" and boot.at_prompt and boot.driven == [25]  # only the LED that says "let go"
    assert boot.starts == [] and boot.stats["sms"] == "0" and twin.watchdog_resets == 0


def test_a_seat_button_held_at_power_up_still_boots_the_firmware(micropython: str, tmp_path: Path) -> None:
    """Issue 21: main.py went to safe boot when button 0 (seat 1's, slapped and held in play) was
    down in the first 500 ms, so a reset at that moment left the table at the prompt."""
    held = Table({**{pin: 1 for pin in BUTTON_PINS}, BUTTON_PINS[0]: 0, BUTTON_PINS[6]: 0})  # seat 0 and Caught!
    twin = TwinBoard(tmp_path / "ttyTWIN", micropython=micropython, make_table=lambda _n: held)
    twin.plug()
    link = BoardLink(str(twin.link), time_scale=SCALE)
    try:
        info = link.start(WAIT_S)
        status = link.request("STATUS", [])
        assert info.buttons == 7 and status.get_ints("held") == [0, 6]  # the firmware runs, and sees them held
    finally:
        link.close()
        twin.close()
    assert not twin.boot.at_prompt and len(twin.boot.starts) == 8


def test_the_host_says_a_board_at_the_prompt_is_not_running_the_firmware(micropython: str, tmp_path: Path) -> None:
    """Issue 21: a board at MicroPython's prompt echoed the host's requests and answered none, and
    the host said 'the board did not answer ARM after 5 tries'. Now one sentence says what it is."""
    twin = TwinBoard(tmp_path / "ttyTWIN", policy=Policy(bootsel=True), micropython=micropython)
    twin.plug()
    try:
        while twin.events.get(timeout=WAIT_S)[0] != "prompt":
            pass
        link = BoardLink(str(twin.link), time_scale=SCALE)
        with pytest.raises(BoardAtPrompt, match=r"^the board on '.*' is at the MicroPython prompt instead of running "
                                                r"the buzzer firmware .*: unplug it and plug it in again, or flash it"):
            link.start(WAIT_S)
        assert link.counters.protocol_errors == 1
    finally:
        twin.close()


def test_a_watchdog_reset_boots_the_board_again_like_the_chip(tmp_path: Path, micropython: str) -> None:
    (tmp_path / "probe.py").write_text(PROBE_HEAD.replace("RESULT", "None") + "LOOP = 10\n" + LOGGER
                                       + "machine.WDT(timeout=100)\nsm.get()\n")
    twin = TwinBoard(tmp_path / "ttyPROBE", micropython=micropython, entry="probe", path=tmp_path)
    twin.plug()
    try:
        ends: list[tuple[int, object]] = []
        while len(ends) < 2:
            kind, number, detail = twin.events.get(timeout=WAIT_S)
            if kind == "end":
                ends.append((number, detail))
    finally:
        twin.close()
    assert ends[:2] == [(0, "reset"), (1, "reset")] and twin.watchdog_resets >= 2


def test_with_nobody_reading_the_board_drops_frames_after_500_ms_and_keeps_running(micropython: str,
                                                                                   tmp_path: Path) -> None:
    """USB CDC with no host reading: each write waits 500 ms (timer callbacks run), then the
    data is dropped; the main loop writes no more that step (eight stalled writes in one step,
    answering queued requests, starved the 4 s watchdog before), feeds the watchdog, and a host
    that comes later is answered."""
    twin = TwinBoard(tmp_path / "ttyTWIN", policy=Policy(speed=0), micropython=micropython)  # free-running
    twin.plug()
    try:
        _nobody_reading(twin)
    finally:
        twin.close()


def _nobody_reading(twin: TwinBoard) -> None:
    fd = os.open(str(twin.link), os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    stop = threading.Event()

    def ask() -> None:  # requests whose replies nobody reads: they fill the pty
        seq = 0
        try:
            while not stop.is_set():
                os.write(fd, b"".join(P.encode((seq + k) % P.SEQ_MOD, "PING", []) for k in range(32)))
                seq += 32
        except OSError:
            pass

    writer = threading.Thread(target=ask, daemon=True)
    writer.start()
    dropped = 0
    try:
        while dropped < 20:
            kind, _number, _detail = twin.events.get(timeout=WAIT_S)
            assert kind not in ("reset", "end", "block")
            dropped += kind == "usbdrop"
    finally:
        stop.set()
        os.close(fd)
        writer.join(timeout=WAIT_S)
    drops = twin.boot.usb_drops
    assert all(b - a >= 500 * 125_000 for (a, _), (b, _) in zip(drops, drops[1:]))
    link = BoardLink(str(twin.link))
    link.start()  # reading again: the stale bytes are ignored, HELLO is answered
    try:
        assert link.request("PING", []).verb == "PONG"
    finally:
        link.close()
    assert twin.watchdog_resets == 0 and twin.hangs == 0
