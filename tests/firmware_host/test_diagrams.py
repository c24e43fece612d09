"""The wiring diagrams are drawn from the pin map: the committed SVGs are what the script draws now."""

from __future__ import annotations

import importlib.util
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from firmware_host.pinmap import load_pinmap, loads_pinmap

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


@pytest.fixture(scope="module")
def diagrams() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hardware_diagrams", HARDWARE / "diagrams.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hardware_diagrams"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_committed_diagrams_are_up_to_date(diagrams: ModuleType) -> None:
    drawn = diagrams.render_all(load_pinmap())
    assert sorted(drawn) == ["wiring-board.svg", "wiring-gpio.svg"]
    for name, text in drawn.items():
        committed = (HARDWARE / name).read_text(encoding="utf-8")
        assert committed == text, f"hardware/{name} is out of date: run python hardware/diagrams.py and commit it"


def test_the_diagrams_are_valid_svg_and_show_every_pin_of_the_map(diagrams: ModuleType) -> None:
    drawn = diagrams.render_all(load_pinmap())
    for text in drawn.values():
        root = ET.fromstring(text)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    gpio, board = drawn["wiring-gpio.svg"], drawn["wiring-board.svg"]
    for label in ("button GPIO17 · pin 11", "LED GPIO27 · pin 13", "button GPIO26 · pin 37", "GO GPIO12 · pin 32",
                  "loopback out", "4.7kΩ to 3V3", "220 Ω or 47 Ω*", "47 Ω for a '5 V' LED button", "1kΩ", "10kΩ", "BC337", "J7"):
        assert label in gpio, label
    for label in ("button GP2 · pin 4", "LED GP16 · pin 21", "GO GP9 · pin 12", "SYNC: leave unconnected",
                  "+5 V (pin 40)", "1N4148"):
        assert label in board, label


def test_a_changed_map_draws_a_changed_diagram(diagrams: ModuleType) -> None:
    text = (HARDWARE / "pins.toml").read_text(encoding="utf-8")
    moved = loads_pinmap(text.replace("button = 17   # physical 11", "button = 19   # physical 35"), "pins.toml")
    drawn = diagrams.render_all(moved)["wiring-gpio.svg"]
    assert "button GPIO19 · pin 35" in drawn and "button GPIO17 · pin 11" not in drawn


def test_the_resistor_values_follow_from_the_led_current_and_supply(diagrams: ModuleType) -> None:
    # (5 V - 2.0 V LED - 0.2 V transistor) / 15 mA = 187 Ω -> next E12 value up: 220 Ω, 12.7 mA
    assert round(diagrams.LED_OHMS_EXACT) == 187 and diagrams.LED_OHMS == 220
    assert round(diagrams.LED_MA_ACTUAL, 1) == 12.7
    assert round(diagrams.BASE_MA, 1) == 2.6
    assert diagrams.e12_at_least(100) == 100 and diagrams.e12_at_least(101) == 120
