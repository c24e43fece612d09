"""The pin map: the shipped default loads, and every kind of bad file is one clear sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.errors import BadPinMap
from firmware_host.pinmap import DEFAULT_PINMAP_PATH, Pull, load_pinmap, loads_pinmap
from game.errors import GameError

SEATS = """
[seats.0]
button = 17
led = 27
[seats.1]
button = 22
led = 23
[seats.2]
button = 24
"""
GUARD = """
[guard]
button = 26
"""


def doc(top: str = "", seats: str = SEATS, guard: str = GUARD, extra: str = "") -> str:
    return top + "\n" + seats + guard + extra


def test_default_file_loads_and_uses_no_bus_or_reserved_pins() -> None:
    pm = load_pinmap()
    assert len(pm.seats) == 5
    assert pm.pull is Pull.UP and pm.active_low is True
    assert pm.go_pin == 12 and pm.go_pulse_ms == 300
    assert pm.resolution_ns == 100_000
    pins = pm.input_pins() + pm.output_pins()
    assert len(pins) == len(set(pins)) == 13
    assert not set(pins) & {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15, 18, 19, 20, 21}
    assert pm.source == str(DEFAULT_PINMAP_PATH)


def test_minimal_map_has_defaults() -> None:
    pm = loads_pinmap(doc())
    assert [s.button for s in pm.seats] == [17, 22, 24]
    assert pm.seats[2].led is None
    assert pm.guard_led is None and pm.go_pin is None and pm.go_pulse_ms is None
    assert pm.active_low is True


def test_pull_down_is_active_high_and_pull_none_takes_active_low() -> None:
    assert loads_pinmap(doc('pull = "down"')).active_low is False
    assert loads_pinmap(doc('pull = "none"\nactive_low = false')).active_low is False


def test_bus_pins_allowed_when_the_map_says_so() -> None:
    pm = loads_pinmap(doc("allow_bus_pins = true", extra="[go]\npin = 14\n"))
    assert pm.go_pin == 14


def test_errors_are_game_errors_and_value_errors() -> None:
    with pytest.raises(GameError):
        loads_pinmap("")
    with pytest.raises(ValueError):
        loads_pinmap("")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("seats = [", r"pin map '<string>' is not valid TOML .*fix the syntax"),
        (doc(seats=SEATS.replace("button = 24", "button = 17")),
         r"seats\.2\.button = 17 .* already used by seats\.0\.button"),
        (doc(guard="[guard]\nbutton = 27\n"), r"guard\.button = 27 .* already used by seats\.0\.led"),
        (doc(seats=SEATS.replace("button = 24", "button = 28")),
         r"seats\.2\.button = 28 .* not a header GPIO: use a BCM GPIO number from 0 to 27"),
        (doc(seats=SEATS.replace("button = 24", "button = -1")), r"seats\.2\.button = -1 "),
        (doc(seats=SEATS.replace("button = 24", 'button = "24"')), r"seats\.2\.button = '24' "),
        (doc(seats=SEATS.replace("button = 24", "button = true")), r"seats\.2\.button = True "),
        (doc(seats=SEATS.replace("led = 27", "led = 0")),
         r"seats\.0\.led = 0 .* reserved for the HAT ID EEPROM \(ID_SD\)"),
        (doc(guard="[guard]\nbutton = 1\n"), r"guard\.button = 1 .* reserved"),
        (doc(seats=SEATS.replace("button = 24", "button = 10")),
         r"seats\.2\.button = 10 .* SPI0 MOSI: pick a free pin .* allow_bus_pins = true"),
        (doc(extra="[go]\npin = 15\n"), r"go\.pin = 15 .* UART RXD"),
        (doc('pull = "down"\nallow_bus_pins = true', seats=SEATS.replace("button = 24", "button = 3")),
         r"seats\.2\.button = 3 .* fixed pull-up resistor, so use pull = 'up'"),
        (doc(seats=SEATS.replace("[seats.2]\nbutton = 24\n", "")), r"\[seats\] .* has 2 seats: wire 3 to 7"),
        (doc(seats=SEATS + "".join(f"[seats.{n}]\nbutton = {n + 1}\n" for n in range(3, 8))),
         r"has 8 seats: wire 3 to 7"),
        (doc(seats=SEATS.replace("[seats.2]", "[seats.3]")),
         r"seat 2 is missing from \[seats\] .* \(found 0, 1, 3\): number the seats 0 to 2 without gaps"),
        (doc(seats=SEATS.replace("[seats.2]", "[seats.two]")), r"seat key 'two' .* number seats 0, 1, 2"),
        (doc(seats=SEATS.replace("[seats.2]", "[seats.02]")), r"seat key '02' "),
        (doc(seats=SEATS.replace("[seats.2]\nbutton = 24", "[seats]\n2 = 24")),
         r"seats\.2 = 24 .* not a table: write \[seats\.2\]"),
        (doc(seats=SEATS.replace("button = 24", "buton = 24")),
         r"unknown key 'buton' in \[seats\.2\] .* use one of button, led"),
        (doc(seats=SEATS.replace("button = 24", "led = 5")),
         r"\[seats\.2\] .* has no 'button': give the seat button's GPIO number"),
        (doc(seats=""), r"has no \[seats\] table"),
        (doc('seats = 3', seats=""), r"seats = 3 .* is not a table"),
        (doc(guard=""), r"has no \[guard\] table"),
        (doc(guard="[guard]\nled = 5\n"), r"\[guard\] .* has no 'button': give the Caught! button"),
        (doc(guard="[guard]\nbutton = 26\ncolour = 'red'\n"), r"unknown key 'colour' in \[guard\]"),
        (doc(extra="[go]\npulse_ms = 100\n"), r"\[go\] .* has no 'pin'"),
        (doc(extra="[go]\npin = 12\npulse_ms = 5\n"), r"go\.pulse_ms = 5 .* from 10 to 5000"),
        (doc(extra="[go]\npin = 12\nbeep = 1\n"), r"unknown key 'beep' in \[go\]"),
        (doc('pull = "sideways"'), r"pull = 'sideways' .* use one of 'up', 'down', 'none'"),
        (doc('pull = "none"'), r"pull = 'none' .* needs active_low: say true if the button connects"),
        (doc('active_low = false'), r"active_low = False .* contradicts pull = 'up'.* active_low = true"),
        (doc('pull = "down"\nactive_low = true'), r"contradicts pull = 'down'.* active_low = false"),
        (doc('active_low = "yes"'), r"active_low = 'yes' .* use true or false"),
        (doc('allow_bus_pins = 1'), r"allow_bus_pins = 1 .* use true or false"),
        (doc('resolution_us = 0'), r"resolution_us = 0 .* from 20 to 100000"),
        (doc('resolution_us = 19'), r"resolution_us = 19 .* from 20 to 100000 \(presses on one GPIO bank"),
        (doc('resolution_us = 2.5'), r"resolution_us = 2\.5 "),
        (doc('sets = 1'), r"unknown key 'sets' in the top level .* use one of pull, active_low"),
    ],
)
def test_bad_maps_name_the_key_the_value_and_the_fix(text: str, match: str) -> None:
    with pytest.raises(BadPinMap, match=match):
        loads_pinmap(text)


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(BadPinMap, match=r"pin map '.*nope\.toml' cannot be read .*pass a TOML pin map"):
        load_pinmap(missing)


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    f = tmp_path / "table.toml"
    f.write_text(doc(guard="[guard]\nbutton = 99\n"), encoding="utf-8")
    with pytest.raises(BadPinMap, match=r"guard\.button = 99 in .*table\.toml is not a header GPIO"):
        load_pinmap(f)
