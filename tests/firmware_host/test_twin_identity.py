"""The board's identity on the twin: HELLO names the chip and board from MicroPython's machine
name, and on hardware the firmware does not support (an RP2350, a Pico W) it touches no pin,
state machine or register, answers ``ERR code=board`` to every other request and is refused by
the host with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.board import protocol as P  # noqa: E402
from firmware_host.boardlink.errors import BoardUnsupported  # noqa: E402
from firmware_host.boardlink.link import BoardLink  # noqa: E402
from firmware_host.twin.board import Policy, TwinBoard  # noqa: E402
from twin_races import RawHost  # noqa: E402

WAIT_S = 20.0


def ask(host: RawHost, verb: str, fields: list[tuple[str, object]]) -> tuple[str, dict[str, str]]:
    seq = host.send(verb, fields)
    while True:
        item = host.queue.get(timeout=WAIT_S)
        assert item is not None, "the twin hung up"
        if item[1].get("re") == str(seq):
            return item


@pytest.mark.parametrize(("machine", "chip", "board"), [
    ("Raspberry Pi Pico W with RP2040", "RP2040", "pico_w"),
    ("Raspberry Pi Pico2 with RP2350", "RP2350", "pico2"),
    ("Raspberry Pi Pico 2 W with RP2350", "RP2350", "pico2_w"),
    ("Raspberry Pi Pico2 with RP2350-RISCV", "RP2350-RISCV", "pico2"),
])
def test_unsupported_hardware_answers_hello_and_refuses_everything_else_untouched(
        tmp_path: Path, micropython: str, machine: str, chip: str, board: str) -> None:
    twin = TwinBoard(tmp_path / "tty", policy=Policy(machine=machine), micropython=micropython)
    twin.plug()
    host = RawHost(twin.link)
    try:
        verb, hello = ask(host, "HELLO", [("proto", P.PROTO)])
        assert verb == "HELLO" and (hello["chip"], hello["board"]) == (chip, board)
        for request, fields in (("PING", []), ("STATUS", []),
                                ("ARM", [("race", 1), ("btns", [0]), ("lockout_us", 1000), ("timeout_ms", 10)])):
            assert ask(host, request, fields) == ("ERR", {"re": str(host.seq - 1), "code": P.ERR_BOARD})
        while "registers" not in twin.boot.stats:  # the counters come with the bus traffic
            ask(host, "PING", [])
    finally:
        host.close()
        twin.close()
    boot = twin.boot
    assert boot.stats["registers"] == "0" and boot.stats["sms"] == "0"
    assert boot.driven == [] and boot.starts == [] and boot.outputs == []  # not even GP25's LED


def test_the_host_refuses_a_pico_w_by_its_hello(tmp_path: Path, micropython: str) -> None:
    twin = TwinBoard(tmp_path / "tty", policy=Policy(machine="Raspberry Pi Pico W with RP2040"), micropython=micropython)
    twin.plug()
    link = BoardLink(str(twin.link))
    try:
        with pytest.raises(BoardUnsupported, match="Pico W"):
            link.start()
    finally:
        link.close()
        twin.close()


@pytest.mark.parametrize(("machine", "board", "led"), [
    ("Raspberry Pi Pico with RP2040", "pico", True),
    ("Adafruit Feather RP2040 with RP2040", "other", False),
])
def test_an_rp2040_runs_the_firmware_and_names_itself(tmp_path: Path, micropython: str, machine: str, board: str,
                                                       led: bool) -> None:
    twin = TwinBoard(tmp_path / "tty", policy=Policy(machine=machine), micropython=micropython)
    twin.plug()
    host = RawHost(twin.link)
    try:
        verb, hello = ask(host, "HELLO", [("proto", P.PROTO)])
        assert (hello["chip"], hello["board"]) == ("RP2040", board)
        assert ask(host, "PING", [])[0] == "PONG"
    finally:
        host.close()
        twin.close()
    assert len(twin.boot.starts) == 8
    assert (25 in twin.boot.driven) is led  # the safe-boot LED only where GP25 is known to be one
