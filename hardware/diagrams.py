"""Draw the wiring diagrams of both builds from the pin map: ``python hardware/diagrams.py``.

Writes ``hardware/wiring-gpio.svg`` (Raspberry Pi 40-pin header) and ``hardware/wiring-board.svg``
(Raspberry Pi Pico) from ``hardware/pins.toml`` (or ``--pins FILE``; ``--out DIR``). Each shows the
header with every used pin, then one row per seat, the Caught! button and GO: the button with its
pull-up, the LED driver transistor with its resistors, ground, +5 V and the seat's connector.
``tests/firmware_host/test_diagrams.py`` regenerates them and fails if the committed files differ.
The component values are computed here (and quoted in BOM.md): change a constant, rerun, commit.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from firmware_host.pinmap import DEFAULT_PINMAP_PATH, PI_PHYSICAL, PinMap, load_pinmap  # noqa: E402
from firmware_host.pinmap_board import PICO_PHYSICAL  # noqa: E402

# -- component values (see BOM.md for the reasoning) ---------------------------------------------
SUPPLY_V = 5.0  # the button LEDs and the GO buzzer run from 5 V (Pi pin 2/4, Pico VBUS pin 40)
LED_VF_V = 2.0  # red, yellow, green LED (blue/white ~3.0 V: see BOM.md)
LED_MA = 15.0  # target LED current
VCE_SAT_V = 0.2  # NPN saturated
LOGIC_V = 3.3  # GPIO high level, Pi and Pico
VBE_V = 0.7
E12 = (1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)
BASE_OHMS = 1000  # 2.6 mA base current: saturates a BC337 well past 30 mA (forced beta ~11)
BASE_PULLDOWN_OHMS = 10_000  # keeps the transistor off while the pin floats at boot
PULLUP_OHMS = 4_700  # optional external pull-up for cables over 1 m
TRANSISTOR = "BC337"
SHORT_LIMIT_OHMS = 47  # for a "5 V" LED button (resistor inside): limits a plug-in short to ~100 mA
FLYBACK_NOTE = ("GO: the 1N4148 is only needed across a magnetic buzzer or a relay coil; a piezo buzzer "
                "or an LED lamp needs none.")


def e12_at_least(ohms: float) -> int:
    """The smallest E12 value not below ``ohms`` (so the LED current stays at or under target)."""
    decade = 10 ** math.floor(math.log10(ohms))
    for step in E12 + (10.0,):
        if step * decade >= ohms - 1e-9:
            return int(round(step * decade))
    raise AssertionError(ohms)


LED_OHMS_EXACT = (SUPPLY_V - LED_VF_V - VCE_SAT_V) / (LED_MA / 1000)
LED_OHMS = e12_at_least(LED_OHMS_EXACT)
LED_MA_ACTUAL = (SUPPLY_V - LED_VF_V - VCE_SAT_V) / LED_OHMS * 1000
BASE_MA = (LOGIC_V - VBE_V) / BASE_OHMS * 1000
LED_NOTE = (f"* LED resistor: {LED_OHMS} Ω for a bare LED ({LED_MA_ACTUAL:.1f} mA); {SHORT_LIMIT_OHMS} Ω for a "
            f"'5 V' LED button (resistor inside): it only limits a short while plugging in. See BOM.md.")


def ohms(value: int) -> str:
    return f"{value // 1000}.{value % 1000 // 100}k".replace(".0k", "k") + "Ω" if value >= 1000 else f"{value} Ω"


# -- the headers ----------------------------------------------------------------------------------

PI_POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 20: "GND", 25: "GND",
            30: "GND", 34: "GND", 39: "GND"}
PICO_POWER = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "GND", 38: "GND",
              30: "RUN", 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 39: "VSYS", 40: "VBUS 5V"}
COLOURS = {"button": "#1f5fbf", "led": "#d9822b", "go": "#1e8449", "caught": "#8e1b1b", "gnd": "#222222",
           "5v": "#c0392b", "3v3": "#b05fa0", "loop": "#6a3d9a", "sync": "#7f8c8d", "free": "#bbbbbb"}


@dataclass(frozen=True, slots=True)
class Channel:
    """One row of the diagram: a seat, the Caught! button or GO."""

    title: str
    button: str | None  # "GPIO17 · pin 11"
    led: str | None
    connector: str
    kind: str  # "seat", "caught", "go"


@dataclass(frozen=True, slots=True)
class Build:
    name: str
    file: str
    board: str
    pin_names: dict[int, str]  # physical pin -> name printed next to it
    roles: dict[int, tuple[str, str]]  # physical pin -> (role text, colour key)
    channels: tuple[Channel, ...]
    supply: str
    notes: tuple[str, ...]
    layout: str  # "pi" (odd pins left, even right) or "pico" (1-20 down the left, 21-40 up the right)


def _button_channels(seats: list[tuple[int, int | None]], guard: tuple[int, int | None],
                     physical: Mapping[int, int], pin: Callable[[int], str],
                     roles: dict[int, tuple[str, str]]) -> list[Channel]:
    """The seats' and the Caught! button's channels (both builds), marking their header pins."""
    channels: list[Channel] = []
    for n, (button, led) in enumerate([*seats, guard]):
        caught = n == len(seats)
        who = "Caught!" if caught else f"seat {n}"
        roles[physical[button]] = (f"{who} button", "caught" if caught else "button")
        if led is not None:
            roles[physical[led]] = (f"{who} LED", "led")
        channels.append(Channel("Caught!" if caught else f"Seat {n}", pin(button),
                                pin(led) if led is not None else None, f"J{n + 1}",
                                "caught" if caught else "seat"))
    return channels


def pi_build(pm: PinMap) -> Build:
    names = {phys: f"GPIO{gpio}" for gpio, phys in PI_PHYSICAL.items()}
    names.update(PI_POWER)
    roles: dict[int, tuple[str, str]] = {p: ("GND", "gnd") for p, n in PI_POWER.items() if n == "GND"}
    roles.update({2: ("+5 V to LEDs", "5v"), 1: ("3V3 (pull-ups)", "3v3")})
    channels: list[Channel] = []

    def pin(gpio: int) -> str:
        return f"GPIO{gpio} · pin {PI_PHYSICAL[gpio]}"

    channels += _button_channels([(s.button, s.led) for s in pm.seats], (pm.guard_button, pm.guard_led),
                                 PI_PHYSICAL, pin, roles)
    if pm.go_pin is not None:
        roles[PI_PHYSICAL[pm.go_pin]] = ("GO buzzer/lamp", "go")
        channels.append(Channel("GO", None, pin(pm.go_pin), f"J{len(pm.seats) + 2}", "go"))
    notes = [
        f"Pin map: hardware/{Path(pm.source).name}. BCM GPIO numbers; 'pin' is the physical header pin.",
        "Buttons: internal pull-up (~50 kΩ) in the Pi; add the dashed 4.7 kΩ to 3V3 (pin 1) for cables over 1 m.",
    ]
    if pm.loopback is not None:
        lo, li = PI_PHYSICAL[pm.loopback.output], PI_PHYSICAL[pm.loopback.input]
        roles[lo] = ("loopback out", "loop")
        roles[li] = ("loopback in", "loop")
        notes.append(f"Doctor's timing jumper: a jumper cap from GPIO{pm.loopback.output} (pin {lo}) to "
                     f"GPIO{pm.loopback.input} (pin {li}); the game never reads it.")
    notes.append("Never connect 5 V to a GPIO. All grounds are common: Pi GND, LED ground, button ground.")
    notes.append(LED_NOTE)
    notes.append(FLYBACK_NOTE)
    return Build("Raspberry Pi GPIO build", "wiring-gpio.svg", "Raspberry Pi 40-pin header (pin 1 at the SD-card end)",
                 names, roles, tuple(channels), "+5 V (pin 2)", tuple(notes), "pi")


def pico_build(pm: PinMap) -> Build:
    b = pm.board
    if b is None:
        raise SystemExit(f"pin map {pm.source} has no [board] part: nothing to draw for the board build")
    names = {phys: f"GP{gp}" for gp, phys in PICO_PHYSICAL.items()}
    names.update(PICO_POWER)
    roles: dict[int, tuple[str, str]] = {p: ("GND", "gnd") for p, n in PICO_POWER.items() if n == "GND"}
    roles.update({40: ("+5 V to LEDs", "5v"), 36: ("3V3 (pull-ups)", "3v3")})
    channels: list[Channel] = []

    def pin(gp: int) -> str:
        return f"GP{gp} · pin {PICO_PHYSICAL[gp]}"

    channels += _button_channels([(s.button, s.led) for s in b.seats], (b.guard_button, b.guard_led),
                                 PICO_PHYSICAL, pin, roles)
    roles[PICO_PHYSICAL[b.go]] = ("GO buzzer/lamp", "go")
    channels.append(Channel("GO", None, pin(b.go), f"J{len(b.seats) + 2}", "go"))
    roles[PICO_PHYSICAL[b.sync]] = ("SYNC: leave unconnected", "sync")
    notes = (
        f"Pin map: hardware/{Path(pm.source).name} [board]. GP numbers as printed on the Pico; 'pin' is the physical pin.",
        "Buttons: internal pull-up in the Pico; add the dashed 4.7 kΩ to 3V3(OUT) (pin 36) for cables over 1 m.",
        f"SYNC (GP{b.sync}) starts all edge loggers in the same cycle: wire nothing to it.",
        "The Pico is powered and talks over USB; LEDs and GO take 5 V from VBUS (pin 40). All grounds common.",
        LED_NOTE,
        FLYBACK_NOTE,
    )
    return Build("Buzzer board build (Raspberry Pi Pico)", "wiring-board.svg",
                 "Raspberry Pi Pico, top view (USB at the top)", names, roles, tuple(channels), "+5 V (pin 40)",
                 notes, "pico")


# -- SVG drawing ----------------------------------------------------------------------------------


class Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#222", width: float = 1.6,
             dash: bool = False) -> None:
        d = ' stroke-dasharray="5 3"' if dash else ""
        self.add(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" '
                 f'stroke-width="{width:g}"{d}/>')

    def poly(self, points: Sequence[tuple[float, float]], colour: str = "#222", fill: str = "none",
             width: float = 1.6) -> None:
        pts = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.add(f'<polyline points="{pts}" stroke="{colour}" fill="{fill}" stroke-width="{width:g}"/>')

    def rect(self, x: float, y: float, w: float, h: float, colour: str = "#222", fill: str = "none",
             width: float = 1.6, rx: float = 0, dash: bool = False) -> None:
        d = ' stroke-dasharray="5 3"' if dash else ""
        self.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" stroke="{colour}" '
                 f'fill="{fill}" stroke-width="{width:g}"{d}/>')

    def circle(self, x: float, y: float, r: float, colour: str = "#222", fill: str = "none", width: float = 1.6) -> None:
        self.add(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" stroke="{colour}" fill="{fill}" stroke-width="{width:g}"/>')

    def text(self, x: float, y: float, s: str, size: int = 12, anchor: str = "start", colour: str = "#222",
             bold: bool = False) -> None:
        esc = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        weight = ' font-weight="bold"' if bold else ""
        self.add(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{colour}"{weight}>'
                 f"{esc}</text>")

    # -- symbols ------------------------------------------------------------------------------

    def resistor(self, x: float, y: float, label: str, vertical: bool = False, dash: bool = False) -> None:
        """A resistor (IEC box) centred on (x, y), 36 long, leads to +-24."""
        if vertical:
            self.line(x, y - 24, x, y - 16, dash=dash)
            self.rect(x - 6, y - 16, 12, 32, dash=dash, fill="#fff")
            self.line(x, y + 16, x, y + 24, dash=dash)
            self.text(x + 10, y + 4, label, 11)
        else:
            self.line(x - 24, y, x - 16, y)
            self.rect(x - 16, y - 6, 32, 12, fill="#fff")
            self.line(x + 16, y, x + 24, y)
            self.text(x, y - 10, label, 11, "middle")

    def ground(self, x: float, y: float) -> None:
        self.line(x, y, x, y + 6)
        for i, half in enumerate((9, 6, 3)):
            self.line(x - half, y + 6 + 3 * i, x + half, y + 6 + 3 * i)

    def npn(self, x: float, y: float) -> None:
        """NPN centred on (x, y): base lead from x-24, collector up to y-24, emitter down to y+24."""
        self.circle(x, y, 14)
        self.line(x - 24, y, x - 5, y)
        self.line(x - 5, y - 9, x - 5, y + 9, width=2.4)
        self.line(x - 5, y - 4, x + 6, y - 12)
        self.line(x + 6, y - 12, x + 6, y - 24)
        self.line(x - 5, y + 4, x + 6, y + 12)
        self.line(x + 6, y + 12, x + 6, y + 24)
        self.poly([(x + 1, y + 12), (x + 6, y + 12), (x + 3, y + 7)], fill="#222")

    def led(self, x: float, y: float) -> None:
        """An LED pointing down (anode at y-16, cathode at y+16), centred on x."""
        self.poly([(x - 8, y - 6), (x + 8, y - 6), (x, y + 6), (x - 8, y - 6)], fill="#fff")
        self.line(x - 8, y + 6, x + 8, y + 6)
        self.line(x, y - 16, x, y - 6)
        self.line(x, y + 6, x, y + 16)
        for dy in (-4, 2):
            self.line(x + 11, y + dy, x + 18, y + dy - 5, width=1.1)
            self.poly([(x + 18, y + dy - 5), (x + 14, y + dy - 4), (x + 17, y + dy - 1)], width=1.1)

    def diode(self, x: float, y: float) -> None:
        """A diode pointing up (cathode at the top), centred on (x, y)."""
        self.poly([(x - 7, y + 6), (x + 7, y + 6), (x, y - 6), (x - 7, y + 6)], fill="#fff")
        self.line(x - 7, y - 6, x + 7, y - 6)

    def switch(self, x: float, y: float) -> None:
        """A push button between (x-20, y) and (x+20, y)."""
        self.circle(x - 14, y, 3)
        self.circle(x + 14, y, 3)
        self.line(x - 20, y, x - 17, y)
        self.line(x + 17, y, x + 20, y)
        self.line(x - 16, y - 8, x + 16, y - 8)
        self.line(x, y - 8, x, y - 16)
        self.line(x - 6, y - 16, x + 6, y - 16)


# -- layout -----------------------------------------------------------------------------------------

WIDTH = 1540
HEADER_X = 40
ROWS_X = 560
ROW_H = 222
GO_H = 150
JX = ROWS_X + 710  # the connectors
QX = ROWS_X + 490  # the driver transistors


def draw(build: Build) -> str:
    svg = Svg()
    rows_top = 150
    rows_h = sum(GO_H if c.kind == "go" else ROW_H for c in build.channels)
    notes_top = max(rows_top + rows_h + 30, 150 + 20 * 22 + 40)
    height = notes_top + 24 * len(build.notes) + 40
    svg.text(40, 40, f"Cheating Moth rig: {build.name} wiring", 22, bold=True)
    svg.text(40, 64, "Generated by hardware/diagrams.py from the pin map: do not edit, rerun the script.", 12,
             colour="#555")
    _legend(svg, 40, 92)
    _header(svg, build, HEADER_X, 150)
    y = rows_top
    for ch in build.channels:
        if ch.kind == "go":
            _go_row(svg, ch, build, y)
            y += GO_H
        else:
            _seat_row(svg, ch, build, y)
            y += ROW_H
    for i, note in enumerate(build.notes):
        svg.text(40, notes_top + 24 * i, "• " + note, 13)
    body = "\n".join(svg.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">\n'
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>\n{body}\n</svg>\n'
    )


def _legend(svg: Svg, x: float, y: float) -> None:
    items = [("button", "button input"), ("caught", "Caught! input"), ("led", "LED output"), ("go", "GO output"),
             ("gnd", "ground"), ("5v", "+5 V"), ("3v3", "3.3 V"), ("loop", "doctor's jumper"), ("sync", "leave free")]
    for i, (key, label) in enumerate(items):
        cx = x + i * 150
        svg.circle(cx + 6, y - 4, 6, COLOURS[key], COLOURS[key])
        svg.text(cx + 18, y, label, 12)


def _header(svg: Svg, build: Build, x0: float, y0: float) -> None:
    """The 40 pins in two columns with names and roles (Pi: odd left; Pico: 1-20 left, 40-21 right)."""
    pitch = 22
    col_l, col_r = x0 + 150, x0 + 190
    svg.text(x0 + 170, y0 - 26, build.board, 12, "middle", bold=True)
    svg.rect(col_l - 9, y0 - 2, col_r - col_l + 18, 20 * pitch + 4, "#2e7d32", "#e8f5e9", rx=4)
    for row in range(20):
        if build.layout == "pi":
            left, right = 2 * row + 1, 2 * row + 2
        else:
            left, right = row + 1, 40 - row
        cy = y0 + 10 + row * pitch
        for phys, cx, side in ((left, col_l, -1), (right, col_r, 1)):
            role = build.roles.get(phys)
            colour = COLOURS[role[1]] if role else COLOURS["free"]
            svg.circle(cx, cy, 7, colour, colour if role else "#ffffff")
            svg.text(cx, cy + 4, str(phys), 8, "middle", "#ffffff" if role else "#555555")
            name = build.pin_names.get(phys, "")
            if side < 0:
                svg.text(cx - 12, cy + 4, name, 10, "end", "#555555")
                if role:
                    svg.text(cx - 70, cy + 4, role[0], 11, "end", colour, bold=True)
            else:
                svg.text(cx + 12, cy + 4, name, 10, "start", "#555555")
                if role:
                    svg.text(cx + 70, cy + 4, role[0], 11, "start", colour, bold=True)
    if build.layout == "pico":
        svg.rect(col_l + 2, y0 - 16, col_r - col_l - 4, 14, "#555555", "#cccccc", rx=2)
        svg.text((col_l + col_r) / 2, y0 - 5, "USB", 8, "middle")


def _connector(svg: Svg, x: float, y: float, pins: int, name: str) -> list[float]:
    """A locking connector at x (rig side left, seat side right); returns each pin's y."""
    pitch = 22
    h = pitch * pins
    svg.rect(x - 10, y, 20, h, "#444444", "#f2f2f2", rx=3)
    svg.text(x, y - 6, name, 11, "middle", bold=True)
    ys = [y + pitch / 2 + i * pitch for i in range(pins)]
    for i, py in enumerate(ys):
        svg.circle(x, py, 4, "#444444", "#ffffff")
        svg.text(x + 8, py - 6, str(i + 1), 8, "start", "#444444")
    return ys


def _driver(svg: Svg, label: str, colour: str, ly: float, collector_to: float, jx: float) -> None:
    """GPIO -> 1k -> NPN base (10k base pull-down), emitter to GND, collector up to y=collector_to."""
    svg.text(ROWS_X, ly + 4, label, 12, colour=colour)
    svg.line(ROWS_X + 170, ly, ROWS_X + 376, ly, colour)
    svg.resistor(ROWS_X + 400, ly, ohms(BASE_OHMS))
    node = ROWS_X + 436
    svg.line(ROWS_X + 424, ly, QX - 24, ly)
    svg.circle(node, ly, 2.5, fill="#222")
    svg.line(node, ly, node, ly + 6)
    svg.rect(node - 5, ly + 6, 10, 22, fill="#fff")
    svg.line(node, ly + 28, node, ly + 32)
    svg.text(node - 9, ly + 22, ohms(BASE_PULLDOWN_OHMS), 10, "end")
    svg.ground(node, ly + 32)
    svg.npn(QX, ly)
    svg.text(QX + 16, ly + 24, TRANSISTOR, 11)
    svg.ground(QX + 6, ly + 24)
    svg.poly([(QX + 6, ly - 24), (QX + 6, collector_to), (jx - 4, collector_to)])


def _seat_row(svg: Svg, ch: Channel, build: Build, y: float) -> None:
    colour = COLOURS["caught"] if ch.kind == "caught" else COLOURS["button"]
    svg.rect(ROWS_X - 10, y + 4, WIDTH - ROWS_X - 30, ROW_H - 10, "#dddddd", rx=6)
    svg.text(ROWS_X, y + 26, ch.title, 15, bold=True, colour=colour)
    jx = JX
    sig, gnd, led_plus, led_minus = _connector(svg, jx, y + 69, 4, ch.connector)
    # button: GPIO -> (optional pull-up to 3V3) -> J.1; J.2 -> GND
    svg.text(ROWS_X, sig + 4, f"button {ch.button}", 12, colour=colour)
    svg.line(ROWS_X + 170, sig, jx - 4, sig, colour)
    node = ROWS_X + 270
    svg.circle(node, sig, 2.5, colour, colour)
    svg.resistor(node, sig - 32, "", vertical=True, dash=True)
    svg.text(node + 12, sig - 28, f"{ohms(PULLUP_OHMS)} to 3V3: optional, cables over 1 m", 10, colour="#555555")
    svg.text(node, sig - 60, "3V3", 10, "middle", COLOURS["3v3"])
    svg.line(ROWS_X + 340, gnd, jx - 4, gnd)
    svg.circle(ROWS_X + 340, gnd, 2.5, fill="#222")
    svg.ground(ROWS_X + 340, gnd)
    svg.text(ROWS_X + 356, gnd + 16, "GND", 10)
    if ch.led is not None:
        svg.text(ROWS_X + 530, led_plus - 6, build.supply, 10, colour=COLOURS["5v"])
        svg.line(ROWS_X + 530, led_plus, ROWS_X + 626, led_plus, COLOURS["5v"])
        svg.resistor(ROWS_X + 650, led_plus, f"{LED_OHMS} Ω or {SHORT_LIMIT_OHMS} Ω*")
        svg.line(ROWS_X + 674, led_plus, jx - 4, led_plus)
        _driver(svg, f"LED {ch.led}", COLOURS["led"], led_minus + 24, led_minus, jx)
        svg.text(QX + 12, led_minus - 4, "LED −", 10)
    # the seat's button box: switch across 1-2, LED from 3 (anode) to 4 (cathode)
    bx0 = jx + 60
    svg.rect(bx0 - 20, y + 40, 190, 132, "#888888", "#fafafa", rx=8, dash=True)
    svg.text(bx0 + 75, y + 164, "30 mm LED arcade button" if ch.kind == "seat" else "big red Caught! button",
             10, "middle", "#555555")
    svg.line(jx + 4, sig, bx0 + 30, sig)
    svg.switch(bx0 + 50, sig)
    svg.poly([(bx0 + 70, sig), (bx0 + 100, sig), (bx0 + 100, gnd), (jx + 4, gnd)])
    svg.text(bx0 + 108, sig + 4, "switch", 10, colour="#555555")
    if ch.led is not None:
        lx = bx0 + 150
        svg.poly([(jx + 4, led_plus), (lx, led_plus), (lx, led_plus + 5)])
        svg.poly([(lx - 7, led_plus + 5), (lx + 7, led_plus + 5), (lx, led_plus + 16), (lx - 7, led_plus + 5)],
                 fill="#fff")
        svg.line(lx - 7, led_plus + 16, lx + 7, led_plus + 16)
        svg.poly([(lx, led_plus + 16), (lx, led_minus), (jx + 4, led_minus)])
        svg.text(lx - 12, led_plus + 15, "LED", 10, "end", "#555555")


def _go_row(svg: Svg, ch: Channel, build: Build, y: float) -> None:
    svg.rect(ROWS_X - 10, y + 4, WIDTH - ROWS_X - 30, GO_H - 10, "#dddddd", rx=6)
    svg.text(ROWS_X, y + 26, "GO buzzer / lamp", 15, bold=True, colour=COLOURS["go"])
    jx = JX
    plus, minus = _connector(svg, jx, y + 40, 2, ch.connector)
    svg.text(ROWS_X + 530, plus - 6, build.supply, 10, colour=COLOURS["5v"])
    svg.line(ROWS_X + 530, plus, jx - 4, plus, COLOURS["5v"])
    _driver(svg, f"GO {ch.led}", COLOURS["go"], minus + 24, minus, jx)
    dx = jx - 50  # flyback diode across the load, cathode to +5 V
    svg.circle(dx, plus, 2.5, fill="#222")
    svg.circle(dx, minus, 2.5, fill="#222")
    svg.line(dx, plus, dx, plus + 5)
    svg.poly([(dx - 6, minus - 5), (dx + 6, minus - 5), (dx, plus + 5), (dx - 6, minus - 5)], fill="#fff")
    svg.line(dx - 6, plus + 5, dx + 6, plus + 5)
    svg.text(dx - 10, (plus + minus) / 2 + 4, "1N4148", 10, "end")
    bx0 = jx + 60
    svg.rect(bx0 - 20, y + 24, 190, 84, "#888888", "#fafafa", rx=8, dash=True)
    svg.line(jx + 4, plus, bx0 + 60, plus)
    svg.line(jx + 4, minus, bx0 + 60, minus)
    svg.rect(bx0 + 60, plus - 6, 44, minus - plus + 12, fill="#fff")
    svg.text(bx0 + 82, (plus + minus) / 2 + 4, "5 V", 10, "middle")
    svg.text(bx0 + 75, y + 100, "active buzzer or lamp, ≤ 100 mA", 10, "middle", "#555555")


def render_all(pm: PinMap) -> dict[str, str]:
    """File name -> SVG text for both builds."""
    out = {}
    for build in (pi_build(pm), pico_build(pm)):
        out[build.file] = draw(build)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pins", default=str(DEFAULT_PINMAP_PATH), help="pin map (default hardware/pins.toml)")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent), help="folder for the SVGs")
    args = parser.parse_args(argv)
    pm = load_pinmap(args.pins)
    for name, text in render_all(pm).items():
        path = Path(args.out) / name
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
