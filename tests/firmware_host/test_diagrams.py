"""The wiring diagrams and the parts list are drawn from the pin map: the committed SVGs and the
generated part of BOM.md are what the script draws now, and what it draws keeps the kit's
electrical rules (1 kΩ at the rig end of every switch line, an ESD array at every socket, 5 V never
next to or unprotected on a socket with a 3.3 V input, a 1N4148 on every transistor output)."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from firmware_host.pinmap import PinMap, load_pinmap, loads_pinmap

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def diagrams() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hardware_diagrams", HARDWARE / "diagrams.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hardware_diagrams"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _map(edit: dict[str, str] | None = None) -> PinMap:
    text = (HARDWARE / "pins.toml").read_text(encoding="utf-8")
    for old, new in (edit or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    return loads_pinmap(text, "pins.toml")


def _parts(svg_text: str, what: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg_text).iter(f"{SVG}g") if g.get("data-part") == what]


def _socket_pins(g: ET.Element) -> dict[int, str]:
    return {int(n): kind for n, kind in (item.split(":") for item in g.get("data-pins", "").split(","))}


def _ring_neighbours(number: int, count: int) -> set[int]:
    return {(number - 2) % count + 1, number % count + 1} - {number}


# -- up to date -----------------------------------------------------------------------------------


def test_the_committed_diagrams_are_up_to_date(diagrams: ModuleType) -> None:
    drawn = diagrams.render_all(load_pinmap())
    assert sorted(drawn) == ["wiring-board.svg", "wiring-gpio.svg"]
    for name, text in drawn.items():
        committed = (HARDWARE / name).read_text(encoding="utf-8")
        assert committed == text, f"hardware/{name} is out of date: run python hardware/diagrams.py and commit it"


def test_the_committed_bom_is_up_to_date(diagrams: ModuleType) -> None:
    committed = (HARDWARE / "BOM.md").read_text(encoding="utf-8")
    assert diagrams.render_bom(load_pinmap(), committed) == committed, (
        "hardware/BOM.md is out of date: run python hardware/diagrams.py and commit it")


def test_the_diagrams_are_valid_svg_and_show_every_pin_of_the_map(diagrams: ModuleType) -> None:
    drawn = diagrams.render_all(load_pinmap())
    for text in drawn.values():
        root = ET.fromstring(text)
        assert root.tag == f"{SVG}svg"
    gpio, board = drawn["wiring-gpio.svg"], drawn["wiring-board.svg"]
    for label in ("button GPIO17 · pin 11", "LED GPIO27 · pin 13", "button GPIO26 · pin 37", "GO GPIO12 · pin 32",
                  "loopback out", "4.7kΩ to 3V3", "220 Ω or 47 Ω*", "47 Ω 1 W for a '5 V' LED button", "1kΩ series",
                  "10kΩ", "BC337", "J7 GX12-2", "out GPIO20 · pin 38", "in GPIO21 · pin 40", "jumper cap"):
        assert label in gpio, label
    for label in ("button GP2 · pin 4", "LED GP16 · pin 21", "GO GP9 · pin 12", "SYNC: leave unconnected",
                  "+5 V (pin 40)", "1N4148", "PTC 0.2 A", "J6 GX16-4"):
        assert label in board, label
    assert "jumper cap" not in board  # the loopback is the GPIO build's self-test only
    assert "RULE BROKEN" not in gpio + board


def test_a_changed_map_draws_a_changed_diagram(diagrams: ModuleType) -> None:
    moved = _map({"button = 17   # physical 11": "button = 19   # physical 35"})
    drawn = diagrams.render_all(moved)["wiring-gpio.svg"]
    assert "button GPIO19 · pin 35" in drawn and "button GPIO17 · pin 11" not in drawn


# -- computed values ------------------------------------------------------------------------------


def test_the_resistor_values_follow_from_the_led_current_and_supply(diagrams: ModuleType) -> None:
    # (5 V - 2.0 V LED - 0.2 V transistor) / 15 mA = 187 Ω -> next E12 value up: 220 Ω, 12.7 mA
    assert round(diagrams.LED_OHMS_EXACT) == 187 and diagrams.LED_OHMS == 220
    assert round(diagrams.LED_MA_ACTUAL, 1) == 12.7
    assert round(diagrams.BASE_MA, 1) == 2.6
    assert diagrams.e12_at_least(100) == 100 and diagrams.e12_at_least(101) == 120


def test_the_series_resistor_keeps_a_clean_low_and_limits_a_5v_fault(diagrams: ModuleType) -> None:
    d = diagrams
    # 3.3 V x 1 kΩ / (1 kΩ + 50 kΩ) = 65 mV: far below the 0.8 V still read as low
    assert d.SERIES_OHMS == 1000 and round(d.PRESSED_LOW_MV) == 65
    assert d.PRESSED_LOW_MV / 1000 < d.V_IL_MAX / 10
    # the 4.7 kΩ on the GPIO side would lift the low to 0.62 V: that is why it goes on the socket side
    assert round(d.PRESSED_LOW_PULLUP_AT_PIN_V, 2) == 0.62
    # 5 V through 47 Ω + 1 kΩ into a clamp at 3.3 V: 1.6 mA, under the limit
    assert round(d.FAULT_MA, 1) == 1.6 and d.FAULT_MA <= d.MAX_FAULT_MA
    # the 1 kΩ with 10 pF delays a press by 14 ns: under one 16 ns sampling step of the board
    assert round(d.PRESS_DELAY_NS) == 14 and d.PRESS_DELAY_NS < d.PIO_STEP_NS
    # an 8 kV contact discharge through the 1 kΩ alone is several times a 2 kV HBM pulse: the array is needed
    assert round(d.ESD_PEAK_NO_ARRAY_A) == 6 and d.ESD_PEAK_NO_ARRAY_A > 3 * d.HBM_PEAK_A
    assert d.ESD_PEAK_WITH_ARRAY_MA < 20
    # a lasting short of LED + to GND: 0.53 W in the 47 Ω (a 1 W part), 0.11 W in the 220 Ω (¼ W)
    assert round(d.SHORT_LIMIT_SHORT_W, 2) == 0.53 and d.SHORT_LIMIT_SHORT_W <= d.SHORT_LIMIT_WATTS
    assert d.LED_SHORT_W <= 0.25


# -- the electrical rules, read from the drawing ------------------------------------------------------


@pytest.mark.parametrize("name", ["wiring-gpio.svg", "wiring-board.svg"])
def test_every_switch_line_has_1k_in_series_at_the_rig_end(diagrams: ModuleType, name: str) -> None:
    text = diagrams.render_all(load_pinmap())[name]
    sockets = {g.get("data-name"): g for g in _parts(text, "socket")}
    resistors = _parts(text, "series-resistor")
    esd = {g.get("data-connector"): g for g in _parts(text, "esd-array")}
    switch_sockets = [n for n, g in sockets.items() if "input" in _socket_pins(g).values()]
    assert len(switch_sockets) == 6  # five seats and Caught!
    for socket_name in switch_sockets:
        socket = sockets[socket_name]
        ours = [r for r in resistors if r.get("data-connector") == socket_name]
        assert len(ours) == 1, socket_name
        r = ours[0]
        assert r.get("data-ohms") == "1000" and r.get("data-pin") == "1"
        # drawn on the switch line: the resistor's body is centred on the socket's pin 1
        body = next(r.iter(f"{SVG}rect"))
        pin1 = list(socket.iter(f"{SVG}circle"))[0]
        assert float(body.get("y", 0)) + float(body.get("height", 0)) / 2 == float(pin1.get("cy", -1))
        # at the rig end: in the rig box next to the socket, with only the pull-up tap and the
        # ESD array between it and the socket (the array on the cable side of the resistor)
        rx, ex, sx = float(r.get("data-x", 0)), float(esd[socket_name].get("data-x", 0)), float(socket.get("data-x", 0))
        assert rx < ex < sx and sx - rx <= 300
        assert "1kΩ series" in "".join(t.text or "" for t in r.iter(f"{SVG}text"))


@pytest.mark.parametrize("name", ["wiring-gpio.svg", "wiring-board.svg"])
def test_every_socket_has_an_esd_array_on_all_its_live_pins(diagrams: ModuleType, name: str) -> None:
    text = diagrams.render_all(load_pinmap())[name]
    esd = {g.get("data-connector"): g for g in _parts(text, "esd-array")}
    sockets = _parts(text, "socket")
    assert len(sockets) == 7 and set(esd) == {g.get("data-name") for g in sockets}
    for g in sockets:
        live = {n for n, kind in _socket_pins(g).items() if kind in ("input", "5v", "return")}
        clamped = {int(n) for n in esd[g.get("data-name")].get("data-lines", "").split(",")}
        assert live <= clamped, g.get("data-name")


@pytest.mark.parametrize("name", ["wiring-gpio.svg", "wiring-board.svg"])
def test_no_socket_carries_5v_next_to_or_unprotected_with_a_3v3_input(diagrams: ModuleType, name: str) -> None:
    text = diagrams.render_all(load_pinmap())[name]
    series = {(g.get("data-connector"), int(g.get("data-pin", 0))): int(g.get("data-ohms", 0))
              for g in _parts(text, "series-resistor")}
    both = 0
    for g in _parts(text, "socket"):
        pins = _socket_pins(g)
        inputs = [n for n, k in pins.items() if k == "input"]
        supplies = [n for n, k in pins.items() if k == "5v"]
        assert g.get("data-ring") == "1"  # circular connectors: first and last pins are neighbours
        for i in inputs:
            for s in supplies:
                both += 1
                assert s not in _ring_neighbours(i, len(pins)), (g.get("data-name"), i, s)
                assert series.get((g.get("data-name"), i), 0) >= 1000
                between = _ring_neighbours(i, len(pins))
                assert "gnd" in {pins[n] for n in between}  # GND beside the input, between it and 5 V
        if not inputs:  # the GO socket: a different size (GX12), so no seat plug fits it
            assert g.get("data-model") == "GX12-2"
        else:
            assert g.get("data-model") == "GX16-4"
    assert both == 6


@pytest.mark.parametrize("name", ["wiring-gpio.svg", "wiring-board.svg"])
def test_every_transistor_output_has_its_1n4148(diagrams: ModuleType, name: str) -> None:
    text = diagrams.render_all(load_pinmap())[name]
    flyback = {g.get("data-channel") for g in _parts(text, "flyback") if g.get("data-model") == "1N4148"}
    outputs = {g.get("data-name") for g in _parts(text, "socket") if "return" in _socket_pins(g).values()}
    assert len(outputs) == 7 and flyback == outputs


def test_the_rules_catch_a_socket_that_breaks_them(diagrams: ModuleType) -> None:
    d = diagrams
    build = d.pi_build(load_pinmap())
    assert d.safety_problems(build) == [] and d.safety_problems(d.pico_build(load_pinmap())) == []
    bad = d.Socket("J1", "GX16-4", (
        d.SocketPin(1, "switch", "input", 0, esd=False),  # no series resistor, no ESD
        d.SocketPin(2, "LED +", "5v", 0, esd=True),  # raw 5 V right next to the input
        d.SocketPin(3, "GND", "gnd"),
        d.SocketPin(4, "LED −", "return", esd=True),
    ))
    broken = d.Build(**{**{f: getattr(build, f) for f in build.__dataclass_fields__},
                        "channels": (d.Channel("Seat 0", "x", "y", "J1", "seat", bad),)})
    problems = "\n".join(d.safety_problems(broken))
    assert "no ESD protection" in problems
    assert "0 Ω in series" in problems
    assert "sits next to the input" in problems
    assert "pushes inf mA" in problems


def test_a_button_next_to_a_5v_header_pin_is_refused(diagrams: ModuleType, tmp_path: Path) -> None:
    # GPIO3 is physical pin 5, diagonally next to the Pi's 5 V on pin 4
    text = (HARDWARE / "pins.toml").read_text(encoding="utf-8")
    text = text.replace('pull = "up"', 'pull = "up"\nallow_bus_pins = true').replace(
        "button = 17   # physical 11", "button = 3   # physical 5")
    pins = tmp_path / "pins.toml"
    pins.write_text(text, encoding="utf-8")
    pm = load_pinmap(pins)
    problems = diagrams.safety_problems(diagrams.pi_build(pm))
    assert problems == ["button input on header pin 5 sits next to 5 V on pin 4"]
    assert "RULE BROKEN: button input on header pin 5" in diagrams.render_all(pm)["wiring-gpio.svg"]
    assert diagrams.main(["--pins", str(pins), "--out", str(tmp_path)]) == 1
    assert diagrams.header_neighbours("pico", 40) == {39}  # the Pico's two edges are 17.8 mm apart
    assert diagrams.header_neighbours("pi", 2) == {1, 3, 4}


# -- the parts list -------------------------------------------------------------------------------


def _bom_rows(bom: str) -> list[tuple[str, str]]:
    """(qty, part) of every table row in the generated part of BOM.md."""
    start, end = bom.index("<!-- BEGIN generated"), bom.index("<!-- END generated")
    rows = []
    for line in bom[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0] not in ("qty", "---"):
            rows.append((cells[0], cells[1]))
    return rows


def _qty(rows: list[tuple[str, str]], pattern: str) -> str:
    found = [q for q, part in rows if re.search(pattern, part)]
    assert len(found) == 1, (pattern, found)
    return found[0]


def _expected(pm: PinMap) -> dict[str, str]:
    """Counted here from the map, independently of diagrams.py."""
    switch_lines = len(pm.seats) + 1
    leds = sum(s.led is not None for s in pm.seats) + (pm.guard_led is not None)
    go = int(pm.go_pin is not None)
    return {
        r"in series": str(switch_lines),
        r"ESD array": str(switch_lines + go),
        r"BC337": str(leds + go),
        r"1N4148": str(leds + go),
        r"base to GND": str(leds + go),
        r"4-pin locking": f"{switch_lines} pairs",
        r"GX12-2": f"{go} pair",
        r"optional pull-up": str(switch_lines),
        r"\*\*220 Ω\*\*": str(leds),
        r"\*\*47 Ω\*\*": str(leds),
        r"PTC": str(go),
    }


def test_the_bom_quantities_match_the_pin_map() -> None:
    rows = _bom_rows((HARDWARE / "BOM.md").read_text(encoding="utf-8"))
    for pattern, qty in _expected(load_pinmap()).items():
        assert _qty(rows, pattern) == qty, pattern
    assert _qty(rows, r"jumper cap") == "1 (GPIO) / 0 (board)"


def test_a_smaller_table_gets_a_smaller_bom(diagrams: ModuleType) -> None:
    # three seats, a Caught! button without a light, on both builds
    text = (HARDWARE / "pins.toml").read_text(encoding="utf-8")
    for n in (3, 4):
        text = re.sub(rf"\[seats\.{n}\][^\[]*", "", text)
        text = re.sub(rf"\[board\.seats\.{n}\][^\[]*", "", text)
    text = text.replace("led = 16      # physical 36\n", "").replace("led = 16      # physical 21\n", "")
    pm = loads_pinmap(text, "pins.toml")
    assert len(pm.seats) == 3 and pm.guard_led is None
    bom = diagrams.render_bom(pm, (HARDWARE / "BOM.md").read_text(encoding="utf-8"))
    rows = _bom_rows(bom)
    for pattern, qty in _expected(pm).items():
        assert _qty(rows, pattern) == qty, pattern
    assert _qty(rows, r"in series") == "4" and _qty(rows, r"BC337") == "4"


def test_the_bom_says_when_the_two_builds_differ(diagrams: ModuleType) -> None:
    # no GO lamp on the GPIO build; the board always has one
    pm = _map({"[go]\npin = 12      # physical 32\npulse_ms = 300\n": ""})
    rows = _bom_rows(diagrams.render_bom(pm, (HARDWARE / "BOM.md").read_text(encoding="utf-8")))
    assert _qty(rows, r"ESD array") == "6 (GPIO) / 7 (board)"
    assert _qty(rows, r"1N4148") == "6 (GPIO) / 7 (board)"


def test_assembly_says_where_the_loopback_jumper_goes_under_a_ribbon_cable() -> None:
    pm = load_pinmap()
    assert pm.loopback is not None
    text = (HARDWARE / "ASSEMBLY.md").read_text(encoding="utf-8")
    step = text[text.index("## 4a."):text.index("## 4b.")]
    assert "ribbon" in step and "breakout" in step
    for gpio in (pm.loopback.output, pm.loopback.input):
        assert f"GPIO{gpio}" in step
    assert "pins 38 and 40" in step
