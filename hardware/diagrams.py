"""Draw the wiring diagrams and the parts list of both builds from the pin map: ``python hardware/diagrams.py``.

Writes ``hardware/wiring-gpio.svg`` (Raspberry Pi 40-pin header) and ``hardware/wiring-board.svg``
(Raspberry Pi Pico) from ``hardware/pins.toml`` (or ``--pins FILE``; ``--out DIR``), and the
generated part of ``hardware/BOM.md`` (sockets, protection and driver board, with quantities
counted from the map). Each diagram shows the header with every used pin, then one row per seat,
the Caught! button and GO: the button with its 1 kΩ series resistor at the rig end and its
optional pull-up, the socket's ESD array, the LED driver transistor with its resistors and its
1N4148, ground, +5 V and the seat's socket; the GPIO build also shows the doctor's loopback jumper.
``tests/firmware_host/test_diagrams.py`` regenerates them and fails if the committed files differ.
The component values are computed here (and quoted in BOM.md): change a constant, rerun, commit.

Electrical rules the drawings follow (and :func:`safety_problems` checks):

- every switch line has a 1 kΩ in series at the rig end, next to its socket, and the socket's ESD
  array on the cable side of it;
- a socket that carries 5 V (the LED supply) and a 3.3 V input puts GND between them, and the
  5 V reaches the input only through both series resistors (fault current computed below);
- every transistor output has a 1N4148 from its collector to +5 V, always fitted;
- no button input sits next to a 5 V pin of the Pi's or the Pico's header.
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

HARDWARE = Path(__file__).resolve().parent

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
PULLUP_OHMS = 4_700  # optional external pull-up for cables over 1 m, on the cable side of SERIES_OHMS
TRANSISTOR = "BC337"
SHORT_LIMIT_OHMS = 47  # for a "5 V" LED button (resistor inside): limits a plug-in short to ~100 mA
SHORT_LIMIT_WATTS = 1.0  # the 47 Ω survives a lasting short of LED + to GND (see SHORT_LIMIT_SHORT_W)
FLYBACK = "1N4148"

# -- protection of the inputs (datasheet figures; the rest is reasoned, not measured) ------------
SERIES_OHMS = 1000  # in every switch line, at the rig end (next to the socket)
INTERNAL_PULLUP_MIN_OHMS = 50_000  # RP2040: 50-80 kΩ; Raspberry Pi: 50-65 kΩ (the smallest is the worst case)
V_IL_MAX = 0.8  # highest voltage read as low: RP2040 0.8 V at 3.3 V (the Pi's documentation: 0.8-0.9 V)
V_IH_MIN = 2.0  # lowest voltage read as high (RP2040 at 3.3 V)
PIN_CAPACITANCE_PF = 10.0  # a GPIO pad plus its trace: an assumed upper bound, not a datasheet figure
PIO_STEP_NS = 16.0  # the board samples each input every 2 system cycles at 125 MHz
MAX_FAULT_MA = 2.0  # our limit for current pushed into a GPIO's clamp diode by a 5 V fault (neither SoC publishes one)
ESD_KV = 8.0  # IEC 61000-4-2 level 4, contact discharge (150 pF, 330 Ω)
ESD_NETWORK_OHMS = 330
HBM_KV, HBM_OHMS = 2.0, 1500  # the human-body-model pulse a chip pin is commonly rated for (typical, not these chips')
ESD_CLAMP_V = 20.0  # what a 5 V TVS array holds its line to during the pulse (order of the datasheets' figures)
CABLE_PF_PER_M = 100.0  # unshielded multi-core cable, core to core (typical)
CABLE_MAX_M = 3.0
TVS_PART = "Bourns CDSOT236-0504C"  # 4 lines + VDD, SOT-23-6, 5.0 V working, 6.0 V breakdown, ±8 kV contact
TVS_ALTERNATIVES = "ST USBLC6-4SC6, Infineon ESD5V3U4RRS"
GO_FUSE = "PTC resettable fuse 0.2 A hold (e.g. Bourns MF-R020)"


def e12_at_least(ohms: float) -> int:
    """The smallest E12 value not below ``ohms`` (so the LED current stays at or under target)."""
    decade = 10 ** math.floor(math.log10(ohms))
    for step in E12 + (10.0,):
        if step * decade >= ohms - 1e-9:
            return int(round(step * decade))
    raise AssertionError(ohms)


def parallel(a: float, b: float) -> float:
    return a * b / (a + b)


LED_OHMS_EXACT = (SUPPLY_V - LED_VF_V - VCE_SAT_V) / (LED_MA / 1000)
LED_OHMS = e12_at_least(LED_OHMS_EXACT)
LED_MA_ACTUAL = (SUPPLY_V - LED_VF_V - VCE_SAT_V) / LED_OHMS * 1000
BASE_MA = (LOGIC_V - VBE_V) / BASE_OHMS * 1000
# A pressed button pulls the cable end to 0 V; the pin sits above it by the pull-up current times 1 kΩ.
PRESSED_LOW_MV = LOGIC_V * SERIES_OHMS / (SERIES_OHMS + INTERNAL_PULLUP_MIN_OHMS) * 1000
# ... and would sit here if the 4.7 kΩ pull-up were fitted on the GPIO side of the 1 kΩ (so it is not).
PRESSED_LOW_PULLUP_AT_PIN_V = LOGIC_V * SERIES_OHMS / (SERIES_OHMS + parallel(PULLUP_OHMS, INTERNAL_PULLUP_MIN_OHMS))
# The 1 kΩ and the pin's capacitance delay a press by the time the pin takes to fall to V_IL.
PRESS_DELAY_NS = SERIES_OHMS * PIN_CAPACITANCE_PF * 1e-12 * math.log(LOGIC_V / V_IL_MAX) * 1e9
PRESS_DELAY_SPREAD_NS = PRESS_DELAY_NS * 0.02  # two 1 % resistors at opposite ends of their tolerance
# A release rises through the internal pull-up charging the whole cable (the 1 kΩ adds 2 % to that).
RELEASE_RISE_US = ((INTERNAL_PULLUP_MIN_OHMS + SERIES_OHMS) * CABLE_PF_PER_M * CABLE_MAX_M * 1e-12
                   * math.log(LOGIC_V / (LOGIC_V - V_IH_MIN)) * 1e6)
RELEASE_RISE_PULLUP_US = ((parallel(PULLUP_OHMS, INTERNAL_PULLUP_MIN_OHMS)) * CABLE_PF_PER_M * CABLE_MAX_M * 1e-12
                          * math.log(LOGIC_V / (LOGIC_V - V_IH_MIN)) * 1e6)
# A crushed cable or a pin touching its neighbour puts the LED's 5 V on the switch line: the current
# into the pin's clamp diode (taken as conducting from 3.3 V: the worst case) through both resistors.
FAULT_MA = (SUPPLY_V - LOGIC_V) / (SERIES_OHMS + SHORT_LIMIT_OHMS) * 1000
# An ESD contact discharge on a switch pin: into the GPIO through the 1 kΩ alone, and with the array.
ESD_PEAK_NO_ARRAY_A = ESD_KV * 1000 / (ESD_NETWORK_OHMS + SERIES_OHMS)
HBM_PEAK_A = HBM_KV * 1000 / HBM_OHMS
ESD_PEAK_WITH_ARRAY_MA = (ESD_CLAMP_V - LOGIC_V) / SERIES_OHMS * 1000
# LED + shorted to GND for good (a crushed cable): what the rig-side resistor must dissipate.
SHORT_LIMIT_SHORT_MA = SUPPLY_V / SHORT_LIMIT_OHMS * 1000
SHORT_LIMIT_SHORT_W = SUPPLY_V ** 2 / SHORT_LIMIT_OHMS
LED_SHORT_W = SUPPLY_V ** 2 / LED_OHMS

LED_NOTE = (f"* LED resistor: {LED_OHMS} Ω for a bare LED ({LED_MA_ACTUAL:.1f} mA); {SHORT_LIMIT_OHMS} Ω "
            f"{SHORT_LIMIT_WATTS:g} W for a '5 V' LED button (resistor inside): it only limits a short. See BOM.md.")
SERIES_NOTE = (f"Every switch line: {SERIES_OHMS // 1000} kΩ in series at the rig end, next to its socket "
               f"(pressed: {PRESSED_LOW_MV:.0f} mV at the pin; 5 V on the cable pushes at most "
               f"{FAULT_MA:.1f} mA into the pin). The optional {PULLUP_OHMS / 1000:g} kΩ goes on the cable side of it.")
ESD_NOTE = (f"ESD array ({TVS_PART} or similar, 5 V working) at every socket: its lines to the socket pins, "
            f"GND, VDD to +5 V. Socket pins: 1 switch, 2 GND, 3 LED + (5 V), 4 LED −; GND lies between 5 V and the switch.")
FLYBACK_NOTE = (f"A {FLYBACK} from every transistor's collector to +5 V, always fitted (stripe to +5 V): "
                f"the rig cannot know what gets plugged in; on a plain LED it never conducts.")


def ohms(value: int) -> str:
    """A value as the drawings print it: 1kΩ, 4.7kΩ, 220 Ω."""
    return f"{value // 1000}.{value % 1000 // 100}k".replace(".0k", "k") + "Ω" if value >= 1000 else f"{value} Ω"


def prose_ohms(value: int) -> str:
    """A value as BOM.md's text writes it: 1 kΩ, 4.7 kΩ, 220 Ω."""
    return ohms(value).replace("kΩ", " kΩ")


# -- sockets: what each pin carries ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SocketPin:
    """One pin of a socket on the rig box. ``kind``: "input" (a 3.3 V switch line to a GPIO),
    "5v" (carries the 5 V supply), "gnd", "return" (an LED or load's minus, to a collector) or "nc".
    ``series_ohms``: the resistance on the rig side between the pin and its GPIO (input) or the 5 V
    rail (5v); 0 means wired straight through. ``esd``: the socket's ESD array clamps this pin."""

    number: int
    label: str
    kind: str
    series_ohms: int = 0
    esd: bool = False


@dataclass(frozen=True, slots=True)
class Socket:
    """A locking socket on the rig box. On a circular connector (``ring``) the pins sit round a
    circle, so the first and the last pin are neighbours too."""

    name: str
    part: str
    pins: tuple[SocketPin, ...]
    ring: bool = True

    def neighbours(self, number: int) -> set[int]:
        n = len(self.pins)
        around = {number - 1, number + 1}
        if self.ring and n > 2:
            around |= {(number - 2) % n + 1, number % n + 1}
        return {p for p in around if 1 <= p <= n and p != number}

    def pin(self, number: int) -> SocketPin:
        return self.pins[number - 1]


def seat_socket(name: str, has_led: bool) -> Socket:
    led_kind = ("5v", "return") if has_led else ("nc", "nc")
    return Socket(name, "GX16-4", (
        SocketPin(1, "switch", "input", SERIES_OHMS, esd=True),
        SocketPin(2, "GND", "gnd"),
        SocketPin(3, "LED +", led_kind[0], SHORT_LIMIT_OHMS if has_led else 0, esd=has_led),
        SocketPin(4, "LED −", led_kind[1], esd=has_led),
    ))


def go_socket(name: str) -> Socket:
    # GX12, not GX16: a seat's plug cannot go into the GO socket, nor the buzzer's into a seat's.
    return Socket(name, "GX12-2", (SocketPin(1, "+5 V", "5v", 0, esd=True), SocketPin(2, "GO −", "return", esd=True)))


# -- the headers ----------------------------------------------------------------------------------

PI_POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 20: "GND", 25: "GND",
            30: "GND", 34: "GND", 39: "GND"}
PICO_POWER = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "GND", 38: "GND",
              30: "RUN", 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 39: "VSYS", 40: "VBUS 5V"}
PI_5V_PINS = frozenset({2, 4})
PICO_5V_PINS = frozenset({39, 40})  # VBUS and VSYS (VBUS through a Schottky diode)
COLOURS = {"button": "#1f5fbf", "led": "#d9822b", "go": "#1e8449", "caught": "#8e1b1b", "gnd": "#222222",
           "5v": "#c0392b", "3v3": "#b05fa0", "loop": "#6a3d9a", "sync": "#7f8c8d", "free": "#bbbbbb",
           "esd": "#b7950b"}


def header_neighbours(layout: str, phys: int) -> set[int]:
    """Physical pins one pitch away (also diagonally) on the 2 x 20 header: where a solder bridge,
    a stray strand or a Dupont wire one pin off lands."""
    def place(p: int) -> tuple[int, int]:
        if layout == "pi":  # odd pins in one column, even in the other, pin 1 and 2 in row 0
            return (p - 1) // 2, (p - 1) % 2
        return (p - 1, 0) if p <= 20 else (40 - p, 1)  # Pico: 1-20 down one edge, 21-40 up the other

    row, col = place(phys)
    out = set()
    for other in range(1, 41):
        r, c = place(other)
        if other != phys and abs(r - row) <= 1 and (c == col or layout == "pi"):
            out.add(other)
    return out


@dataclass(frozen=True, slots=True)
class Channel:
    """One row of the diagram: a seat, the Caught! button, GO or the doctor's loopback jumper."""

    title: str
    button: str | None  # "GPIO17 · pin 11"
    led: str | None
    connector: str
    kind: str  # "seat", "caught", "go", "loop"
    socket: Socket | None = None


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
    five_volt_pins: frozenset[int] = frozenset()
    input_pins: tuple[int, ...] = ()  # physical pins of the button inputs

    def sockets(self) -> tuple[Socket, ...]:
        return tuple(c.socket for c in self.channels if c.socket is not None)


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
        name = f"J{n + 1}"
        channels.append(Channel("Caught!" if caught else f"Seat {n}", pin(button),
                                pin(led) if led is not None else None, name,
                                "caught" if caught else "seat", seat_socket(name, led is not None)))
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
        name = f"J{len(pm.seats) + 2}"
        channels.append(Channel("GO", None, pin(pm.go_pin), name, "go", go_socket(name)))
    notes = [
        f"Pin map: hardware/{Path(pm.source).name}. BCM GPIO numbers; 'pin' is the physical header pin.",
        "Buttons: internal pull-up (~50 kΩ) in the Pi; add the dashed 4.7 kΩ to 3V3 (pin 1) for cables over 1 m.",
        SERIES_NOTE,
        ESD_NOTE,
    ]
    if pm.loopback is not None:
        lo, li = PI_PHYSICAL[pm.loopback.output], PI_PHYSICAL[pm.loopback.input]
        roles[lo] = ("loopback out", "loop")
        roles[li] = ("loopback in", "loop")
        channels.append(Channel("Doctor's timing jumper", pin(pm.loopback.input), pin(pm.loopback.output),
                                f"J{len(channels) + 1}", "loop"))
        notes.append(f"Doctor's timing jumper: GPIO{pm.loopback.output} (pin {lo}) to GPIO{pm.loopback.input} "
                     f"(pin {li}): a cap on the header, or under a ribbon cable on the breakout's terminals "
                     f"{pm.loopback.output} and {pm.loopback.input} (see ASSEMBLY.md); the game never reads it.")
    notes.append("Never connect 5 V to a GPIO. All grounds are common: Pi GND, LED ground, button ground.")
    notes.append(LED_NOTE)
    notes.append(FLYBACK_NOTE)
    inputs = tuple(PI_PHYSICAL[p] for p in pm.input_pins())
    return Build("Raspberry Pi GPIO build", "wiring-gpio.svg", "Raspberry Pi 40-pin header (pin 1 at the SD-card end)",
                 names, roles, tuple(channels), "+5 V (pin 2)", tuple(notes), "pi", PI_5V_PINS, inputs)


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
    name = f"J{len(b.seats) + 2}"
    channels.append(Channel("GO", None, pin(b.go), name, "go", go_socket(name)))
    roles[PICO_PHYSICAL[b.sync]] = ("SYNC: leave unconnected", "sync")
    notes = (
        f"Pin map: hardware/{Path(pm.source).name} [board]. GP numbers as printed on the Pico; 'pin' is the physical pin.",
        "Buttons: internal pull-up in the Pico; add the dashed 4.7 kΩ to 3V3(OUT) (pin 36) for cables over 1 m.",
        SERIES_NOTE,
        ESD_NOTE,
        f"SYNC (GP{b.sync}) starts all edge loggers in the same cycle: wire nothing to it.",
        "The Pico is powered and talks over USB; LEDs and GO take 5 V from VBUS (pin 40). All grounds common.",
        LED_NOTE,
        FLYBACK_NOTE,
    )
    inputs = tuple(PICO_PHYSICAL[p] for p in b.button_slots() if p is not None)
    return Build("Buzzer board build (Raspberry Pi Pico)", "wiring-board.svg",
                 "Raspberry Pi Pico, top view (USB at the top)", names, roles, tuple(channels), "+5 V (pin 40)",
                 notes, "pico", PICO_5V_PINS, inputs)


# -- the electrical rules ---------------------------------------------------------------------------


def fault_ma(input_pin: SocketPin, supply_pin: SocketPin) -> float:
    """Current a short between ``supply_pin`` (5 V) and ``input_pin`` pushes into the GPIO's clamp."""
    ohms_total = input_pin.series_ohms + supply_pin.series_ohms
    return math.inf if ohms_total == 0 else (SUPPLY_V - LOGIC_V) / ohms_total * 1000


def safety_problems(build: Build) -> list[str]:
    """Every way the build breaks the electrical rules in the module docstring (empty: none)."""
    problems: list[str] = []
    for socket in build.sockets():
        inputs = [p for p in socket.pins if p.kind == "input"]
        supplies = [p for p in socket.pins if p.kind == "5v"]
        for p in socket.pins:
            if p.kind in ("input", "5v", "return") and not p.esd:
                problems.append(f"{socket.name} pin {p.number} ({p.label}) has no ESD protection")
        for i in inputs:
            if i.series_ohms < SERIES_OHMS:
                problems.append(f"{socket.name} pin {i.number} ({i.label}) has {i.series_ohms} Ω in series, "
                                f"not {SERIES_OHMS} Ω at the rig end")
            for s in supplies:
                if s.number in socket.neighbours(i.number):
                    problems.append(f"{socket.name}: 5 V on pin {s.number} sits next to the input on pin {i.number}")
                if fault_ma(i, s) > MAX_FAULT_MA:
                    problems.append(f"{socket.name}: 5 V on pin {s.number} shorted to the input on pin {i.number} "
                                    f"pushes {fault_ma(i, s):.1f} mA into the GPIO (limit {MAX_FAULT_MA} mA)")
    for phys in build.input_pins:
        near = header_neighbours(build.layout, phys) & build.five_volt_pins
        if near:
            problems.append(f"button input on header pin {phys} sits next to 5 V on pin {min(near)}")
    return problems


# -- SVG drawing ----------------------------------------------------------------------------------


class Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def open(self, what: str, **data: object) -> None:
        """Start a group marked with what it is (``data-part``) and its facts (``data-*``), so a test
        can find the parts in the drawing."""
        attrs = "".join(f' data-{k}="{v}"' for k, v in data.items())
        self.add(f'<g data-part="{what}"{attrs}>')

    def close(self) -> None:
        self.add("</g>")

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

HEADER_X = 40
ROWS_X = 560
ROW_H = 222
GO_H = 150
LOOP_H = 124
JX = ROWS_X + 880  # the sockets
WIDTH = JX + 270
QX = ROWS_X + 490  # the driver transistors
SERIES_X = JX - 230  # the switch line's series resistor and the LED resistor
PULLUP_X = JX - 160  # the optional pull-up, on the cable side of the series resistor
ESD_X = JX - 80  # the socket's ESD array
FLYBACK_X = JX - 320  # the 1N4148 from the collector to +5 V
SUPPLY_X = JX - 370  # where +5 V comes in


def draw(build: Build) -> str:
    svg = Svg()
    rows_top = 150
    heights = {"go": GO_H, "loop": LOOP_H}
    rows_h = sum(heights.get(c.kind, ROW_H) for c in build.channels)
    notes_top = max(rows_top + rows_h + 30, 150 + 20 * 22 + 40)
    problems = safety_problems(build)
    lines = [*build.notes, *(f"RULE BROKEN: {p}" for p in problems)]
    height = notes_top + 24 * len(lines) + 40
    svg.text(40, 40, f"Cheating Moth rig: {build.name} wiring", 22, bold=True)
    svg.text(40, 64, "Generated by hardware/diagrams.py from the pin map: do not edit, rerun the script.", 12,
             colour="#555")
    _legend(svg, 40, 92)
    _header(svg, build, HEADER_X, 150)
    y = rows_top
    for ch in build.channels:
        if ch.kind == "go":
            _go_row(svg, ch, build, y)
        elif ch.kind == "loop":
            _loop_row(svg, ch, y)
        else:
            _seat_row(svg, ch, build, y)
        y += heights.get(ch.kind, ROW_H)
    for i, note in enumerate(lines):
        svg.text(40, notes_top + 24 * i, "• " + note, 13, colour=COLOURS["caught"] if note.startswith("RULE") else "#222")
    body = "\n".join(svg.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">\n'
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>\n{body}\n</svg>\n'
    )


def _legend(svg: Svg, x: float, y: float) -> None:
    items = [("button", "button input"), ("caught", "Caught! input"), ("led", "LED output"), ("go", "GO output"),
             ("gnd", "ground"), ("5v", "+5 V"), ("3v3", "3.3 V"), ("loop", "doctor's jumper"), ("sync", "leave free"),
             ("esd", "ESD array")]
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


def _socket(svg: Svg, socket: Socket, x: float, y: float) -> list[float]:
    """A locking socket at x (rig side left, cable side right), its pins' jobs on the rig side;
    returns each pin's y."""
    pitch = 22
    kinds = ",".join(f"{p.number}:{p.kind}" for p in socket.pins)
    svg.open("socket", name=socket.name, model=socket.part, pins=kinds, ring=int(socket.ring), x=f"{x:g}")
    svg.rect(x - 10, y, 20, pitch * len(socket.pins), "#444444", "#f2f2f2", rx=3)
    svg.text(x, y - 6, f"{socket.name} {socket.part}", 11, "middle", bold=True)
    ys = [y + pitch / 2 + i * pitch for i in range(len(socket.pins))]
    for pin, py in zip(socket.pins, ys):
        svg.circle(x, py, 4, "#444444", "#ffffff")
        svg.text(x + 8, py - 6, str(pin.number), 8, "start", "#444444")
        colour = {"5v": COLOURS["5v"], "input": "#444444"}.get(pin.kind, "#666666")
        svg.text(x - 14, py - 3, pin.label if pin.kind != "nc" else "n.c.", 8, "end", colour)
    svg.close()
    return ys


def _esd_array(svg: Svg, socket: Socket, ys: Sequence[float], gnd_y: float) -> None:
    """The socket's TVS array: a flow-through box over the socket's lines, a dot on each line it
    clamps and on GND, VDD up to +5 V."""
    top, bottom = ys[0] - 12, ys[-1] + 12
    lines = ",".join(str(p.number) for p in socket.pins if p.esd)
    svg.open("esd-array", connector=socket.name, lines=lines, x=f"{ESD_X:g}")
    svg.line(ESD_X, top - 16, ESD_X, top, COLOURS["5v"])
    svg.text(ESD_X, top - 20, "+5 V", 9, "middle", COLOURS["5v"])
    svg.rect(ESD_X - 14, top, 28, bottom - top, COLOURS["esd"], "#fdf3c4", rx=3)
    svg.add(f'<rect x="{ESD_X - 14:g}" y="{top:g}" width="28" height="{bottom - top:g}" fill="#fdf3c4" '
            f'fill-opacity="0.6" stroke="none"/>')
    for pin, py in zip(socket.pins, ys):
        if pin.esd or py == gnd_y:
            svg.circle(ESD_X, py, 2.5, COLOURS["esd"], COLOURS["esd"])
    svg.text(ESD_X, bottom + 12, "ESD", 9, "middle", COLOURS["esd"], bold=True)
    svg.close()


def _flyback(svg: Svg, x: float, plus: float, minus: float, channel: str) -> None:
    """A 1N4148 from the collector (minus, anode) up to +5 V (plus, cathode)."""
    svg.open("flyback", channel=channel, model=FLYBACK)
    svg.circle(x, plus, 2.5, fill="#222")
    svg.circle(x, minus, 2.5, fill="#222")
    svg.line(x, plus, x, plus + 5)
    svg.poly([(x - 6, minus - 5), (x + 6, minus - 5), (x, plus + 5), (x - 6, minus - 5)], fill="#fff")
    svg.line(x - 6, plus + 5, x + 6, plus + 5)
    svg.text(x + 10, (plus + minus) / 2 + 4, FLYBACK, 9)
    svg.close()


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
    assert ch.socket is not None
    colour = COLOURS["caught"] if ch.kind == "caught" else COLOURS["button"]
    svg.rect(ROWS_X - 10, y + 4, WIDTH - ROWS_X - 30, ROW_H - 10, "#dddddd", rx=6)
    svg.text(ROWS_X, y + 26, ch.title, 15, bold=True, colour=colour)
    jx = JX
    ys = _socket(svg, ch.socket, jx, y + 69)
    sig, gnd, led_plus, led_minus = ys
    # button: GPIO -> 1 kΩ (rig end) -> (optional pull-up to 3V3) -> ESD -> J.1; J.2 -> GND
    svg.text(ROWS_X, sig + 4, f"button {ch.button}", 12, colour=colour)
    svg.line(ROWS_X + 170, sig, SERIES_X - 24, sig, colour)
    svg.open("series-resistor", connector=ch.connector, pin=1, ohms=SERIES_OHMS, x=f"{SERIES_X:g}")
    svg.resistor(SERIES_X, sig, f"{ohms(SERIES_OHMS)} series")
    svg.close()
    svg.line(SERIES_X + 24, sig, jx - 4, sig, colour)
    svg.circle(PULLUP_X, sig, 2.5, colour, colour)
    svg.resistor(PULLUP_X, sig - 32, "", vertical=True, dash=True)
    svg.line(PULLUP_X, sig - 8, PULLUP_X, sig, dash=True)
    svg.text(PULLUP_X + 10, sig - 60, f"{ohms(PULLUP_OHMS)} to 3V3: optional, cables over 1 m", 10, colour="#555555")
    svg.text(PULLUP_X, sig - 60, "3V3", 10, "end", COLOURS["3v3"])
    svg.line(ROWS_X + 340, gnd, jx - 4, gnd)
    svg.circle(ROWS_X + 340, gnd, 2.5, fill="#222")
    svg.ground(ROWS_X + 340, gnd)
    svg.text(ROWS_X + 356, gnd + 16, "GND", 10)
    if ch.led is not None:
        svg.text(SUPPLY_X, led_plus - 6, build.supply, 10, colour=COLOURS["5v"])
        svg.line(SUPPLY_X, led_plus, SERIES_X - 24, led_plus, COLOURS["5v"])
        svg.resistor(SERIES_X, led_plus, "")
        svg.text(SERIES_X + 20, led_plus + 16, f"{LED_OHMS} Ω or {SHORT_LIMIT_OHMS} Ω*", 10)
        svg.line(SERIES_X + 24, led_plus, jx - 4, led_plus)
        _driver(svg, f"LED {ch.led}", COLOURS["led"], led_minus + 24, led_minus, jx)
        svg.text(QX + 12, led_minus - 4, "LED −", 10)
        _flyback(svg, FLYBACK_X, led_plus, led_minus, ch.connector)
    _esd_array(svg, ch.socket, ys, gnd)
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
    assert ch.socket is not None
    svg.rect(ROWS_X - 10, y + 4, WIDTH - ROWS_X - 30, GO_H - 10, "#dddddd", rx=6)
    svg.text(ROWS_X, y + 26, "GO buzzer / lamp", 15, bold=True, colour=COLOURS["go"])
    jx = JX
    ys = _socket(svg, ch.socket, jx, y + 40)
    plus, minus = ys
    svg.text(SUPPLY_X, plus - 6, build.supply, 10, colour=COLOURS["5v"])
    svg.line(SUPPLY_X, plus, SERIES_X - 24, plus, COLOURS["5v"])
    svg.open("fuse", connector=ch.connector, pin=1)
    svg.resistor(SERIES_X, plus, "PTC 0.2 A")
    svg.close()
    svg.line(SERIES_X + 24, plus, jx - 4, plus, COLOURS["5v"])
    _driver(svg, f"GO {ch.led}", COLOURS["go"], minus + 24, minus, jx)
    _flyback(svg, PULLUP_X, plus, minus, ch.connector)  # across the load, after the fuse
    _esd_array(svg, ch.socket, ys, math.nan)
    bx0 = jx + 60
    svg.rect(bx0 - 20, y + 24, 190, 84, "#888888", "#fafafa", rx=8, dash=True)
    svg.line(jx + 4, plus, bx0 + 60, plus)
    svg.line(jx + 4, minus, bx0 + 60, minus)
    svg.rect(bx0 + 60, plus - 6, 44, minus - plus + 12, fill="#fff")
    svg.text(bx0 + 82, (plus + minus) / 2 + 4, "5 V", 10, "middle")
    svg.text(bx0 + 75, y + 100, "active buzzer or lamp, ≤ 100 mA", 10, "middle", "#555555")


def _loop_row(svg: Svg, ch: Channel, y: float) -> None:
    """The doctor's loopback: output to input through a jumper cap (2-pin header on the breakout
    or the driver board when a ribbon covers the Pi's pins)."""
    colour = COLOURS["loop"]
    svg.rect(ROWS_X - 10, y + 4, WIDTH - ROWS_X - 30, LOOP_H - 10, "#dddddd", rx=6)
    svg.text(ROWS_X, y + 26, ch.title, 15, bold=True, colour=colour)
    out_y, in_y = y + 52, y + 74
    hx = ROWS_X + 400
    svg.open("loopback", output=ch.led or "", input=ch.button or "", x=f"{hx:g}")
    svg.text(ROWS_X, out_y + 4, f"out {ch.led}", 12, colour=colour)
    svg.text(ROWS_X, in_y + 4, f"in {ch.button}", 12, colour=colour)
    svg.line(ROWS_X + 170, out_y, hx - 5, out_y, colour)
    svg.line(ROWS_X + 170, in_y, hx - 5, in_y, colour)
    for py in (out_y, in_y):
        svg.circle(hx, py, 4, "#444444", "#ffffff")
    svg.rect(hx - 9, out_y - 9, 18, in_y - out_y + 18, colour, "none", width=2.2, rx=5)
    svg.text(hx, out_y - 14, "jumper cap", 10, "middle", colour)
    svg.close()
    notes = ("On the Pi's header pins when nothing covers them.",
             "Under a ribbon cable: on the breakout's terminals for these two GPIOs",
             "(or a 2-pin header on the driver board wired to them). No resistor, no ESD: it never leaves the box.")
    for i, note in enumerate(notes):
        svg.text(hx + 40, out_y - 4 + 16 * i, note, 10, colour="#555555")


# -- the parts list -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counts:
    """What one build needs, counted from its channels."""

    seats: int
    switch_lines: int  # seats + Caught!
    led_channels: int  # seats' and Caught!'s LEDs
    go: int
    seat_sockets: int  # GX16-4: seats + Caught!
    loopback: int

    @property
    def drivers(self) -> int:  # a transistor channel per LED and GO
        return self.led_channels + self.go

    @property
    def sockets(self) -> int:
        return self.seat_sockets + self.go

    @property
    def esd_arrays(self) -> int:  # one per socket
        return self.sockets


def counts(build: Build) -> Counts:
    chans = build.channels
    return Counts(
        seats=sum(c.kind == "seat" for c in chans),
        switch_lines=sum(c.kind in ("seat", "caught") for c in chans),
        led_channels=sum(c.kind in ("seat", "caught") and c.led is not None for c in chans),
        go=sum(c.kind == "go" for c in chans),
        seat_sockets=sum(c.socket is not None and c.kind != "go" for c in chans),
        loopback=sum(c.kind == "loop" for c in chans),
    )


BOM_BEGIN = "<!-- BEGIN generated by hardware/diagrams.py from the pin map: edit the script, not this part -->"
BOM_END = "<!-- END generated -->"


def bom_section(pm: PinMap) -> str:
    """The generated part of BOM.md: sockets and cables, protection, driver board, loopback."""
    gpio, board = counts(pi_build(pm)), counts(pico_build(pm))

    def qty(field: Callable[[Counts], int], unit: str = "") -> str:
        a, b = field(gpio), field(board)
        return f"{a}{unit}" if a == b else f"{a}{unit} (GPIO) / {b}{unit} (board)"

    cable_m = math.ceil(gpio.seats * 1.5 + 2.5 + 1.0 + 1.0)  # seats, Caught!, GO, spare
    rows: list[str] = []
    add = rows.append
    add("## Sockets and cables (both builds)")
    add("")
    add("Quantities are counted from [`pins.toml`](pins.toml) by `hardware/diagrams.py` "
        "(where the two builds differ, both are given).")
    add("")
    add("| qty | part | why this one |")
    add("| --- | --- | --- |")
    add(f"| {qty(lambda c: c.seat_sockets)} pairs | **4-pin locking circular connector**, panel socket + cable "
        "plug: GX16-4 (\"aviation\" connector). Alternatives: 4-pin mini-XLR, or JST VH 3.96 mm latching housings "
        "inside a strain-relieved box | One per seat and one for Caught!. Seats are plugged and unplugged every "
        "evening: a screw ring (GX16) or a latch (XLR, JST VH) cannot work loose when someone pulls the cable under "
        "the table, and the key stops a plug going in turned. The plug goes on the cable, the socket on the rig box. "
        "Pinout on every one: **1 switch, 2 GND, 3 LED + (5 V), 4 LED −**. The pins sit round a circle, so pin 1 "
        "(the 3.3 V input) has GND and LED − beside it and the 5 V pin opposite: GND lies between 5 V and the "
        "input either way round. |")
    add(f"| {qty(lambda c: c.go)} pair | 2-pin locking connector, **GX12-2** (the smaller size) | GO buzzer or lamp "
        "(1 +5 V through the fuse, 2 GO −). A smaller shell than the seats' GX16: a seat's plug cannot go into the "
        "GO socket nor the buzzer's into a seat's, so the GO socket's fused 5 V never meets a seat's input pin. |")
    add(f"| {cable_m} m | 4-core flexible cable, 0.14–0.25 mm² per core (e.g. LiYY 4 × 0.25), unshielded | A café "
        "table is about 120 × 80 cm. With the rig box at one short end, the farthest seat needs about 1.5 m along "
        f"the table edge: cut {gpio.seats} × 1.5 m for the seats, 2.5 m for Caught! (the guard changes, so the button "
        "travels round the table) and 1 m for GO, plus spare. Keep each run under 3 m. 0.25 mm² carries the 13 mA "
        "LED current with no measurable drop. |")
    add("| 1 | heat-shrink assortment, cable ties, self-adhesive cable clips for the table's underside | |")
    add("")
    add("## Protection (both builds): every socket, every switch line")
    add("")
    add("The seat cables are 1.5–3 m long, lie where people walk, sit and pull, and end at an input of a "
        "3.3 V chip that is **not 5 V tolerant**, in a socket that also carries the LED's 5 V. What each part "
        "is for, with the numbers (figures from the RP2040 datasheet and the Raspberry Pi documentation; "
        "everything else here is reasoned, **not measured**):")
    add("")
    add("| qty | part | value and why |")
    add("| --- | --- | --- |")
    add(f"| {qty(lambda c: c.switch_lines)} | **{prose_ohms(SERIES_OHMS)} resistor**, ¼ W, 1 % metal film, in series "
        "with each switch line **at the rig end**, between the socket's pin 1 and the GPIO (one per switch line: "
        "seats and Caught!) | Limits what reaches the pin when something goes wrong on the cable. "
        f"*Still a clean low*: pressed, the cable end is at 0 V and the pin sits above it by the internal pull-up's "
        f"current: 3.3 V × {prose_ohms(SERIES_OHMS)} / ({prose_ohms(SERIES_OHMS)} + {INTERNAL_PULLUP_MIN_OHMS // 1000} kΩ) = "
        f"**{PRESSED_LOW_MV:.0f} mV**, far below the {V_IL_MAX} V the chips still read as low. "
        f"*A 5 V fault is harmless*: LED + (5 V through the {SHORT_LIMIT_OHMS} Ω) shorted onto the switch core "
        f"pushes at most (5 − 3.3) V / ({SERIES_OHMS} + {SHORT_LIMIT_OHMS}) Ω = **{FAULT_MA:.1f} mA** into the "
        f"pin's clamp diode (our own limit is {MAX_FAULT_MA:g} mA: we found no injection-current figure for either "
        "chip), and the running chip "
        "draws far more from its 3.3 V rail than that, so the rail cannot be pushed up. "
        f"*No timing cost*: with ≤ {PIN_CAPACITANCE_PF:g} pF at the pin (assumed) a press reaches the pin "
        f"{PRESS_DELAY_NS:.0f} ns later, under one {PIO_STEP_NS:g} ns sampling step of the board, and the same for "
        f"every seat within {PRESS_DELAY_SPREAD_NS:.1f} ns (1 % parts). |")
    add(f"| {qty(lambda c: c.esd_arrays)} | **ESD array**, 4 lines + VDD, 5 V working voltage, ≤ 5 pF: "
        f"{TVS_PART} (SOT-23-6; alternatives {TVS_ALTERNATIVES}), on a SOT-23-6-to-DIP adapter for stripboard. "
        "One per socket, right at the socket: its lines to the socket's switch, LED + and LED − (GO: +5 V and "
        "GO −), GND to the socket's GND, VDD to +5 V | A charged person touching a plug or a button's metal "
        f"sends an IEC 61000-4-2 contact discharge ({ESD_KV:g} kV through {ESD_NETWORK_OHMS} Ω) down the line. "
        f"Through the {prose_ohms(SERIES_OHMS)} alone the pin would see up to {ESD_PEAK_NO_ARRAY_A:.0f} A, several times "
        f"the {HBM_PEAK_A:.1f} A of the {HBM_KV:g} kV human-body-model pulse chip pins are commonly rated for: "
        f"the resistor alone is not enough. With the array holding the line near {ESD_CLAMP_V:g} V, the "
        f"{prose_ohms(SERIES_OHMS)} lets through about **{ESD_PEAK_WITH_ARRAY_MA:.0f} mA** for the ~100 ns of the "
        "pulse. A **5 V** working voltage, not 3.3 V: the same array guards the LED lines (5 V), and it must not "
        "conduct when the 5 V reaches the switch line in a fault (the 1 kΩ handles that). ≤ 5 pF adds nothing "
        "to the cable's own ~100 pF/m. |")
    add(f"| {qty(lambda c: c.switch_lines)} | {prose_ohms(PULLUP_OHMS)} resistor, ¼ W (optional pull-up, from the "
        "**socket side** of the 1 kΩ to 3V3) | The internal pull-ups are 50–80 kΩ: fine for short cables. A "
        "cable over 1 m near mains wiring, chairs and people picks up enough to make a false edge; 4.7 kΩ makes "
        f"the line ten times stiffer (0.7 mA when pressed) and shortens a release's rise over 3 m of cable from "
        f"~{RELEASE_RISE_US:.0f} µs to ~{RELEASE_RISE_PULLUP_US:.1f} µs. On the socket side the pressed level "
        f"stays {PRESSED_LOW_MV:.0f} mV; on the GPIO side it would rise to "
        f"{PRESSED_LOW_PULLUP_AT_PIN_V:.2f} V, too close to {V_IL_MAX} V. Fit them if the doctor shows extra edges "
        "or a button changing \"while another was pressed\". **No capacitors**: an RC debounce delays each edge "
        "by an amount that depends on each part's tolerance, so seats would get unequal delays. The judge "
        "debounces on timestamps instead. |")
    add(f"| {qty(lambda c: c.go)} | {GO_FUSE}, in the GO socket's +5 V | The GO socket is the only one with the "
        "5 V rail on a pin without a resistor (the buzzer needs its current). A crushed GO cable would short the "
        "Pi's or the USB port's 5 V; the fuse trips instead and resets when the short is gone. Drops < 0.1 V at "
        "30 mA. |")
    add("")
    add("## Driver board (both builds)")
    add("")
    add(f"One channel per LED output and GO ({qty(lambda c: c.drivers)}). Values from `hardware/diagrams.py`:")
    add("")
    add("| qty | part | value and why |")
    add("| --- | --- | --- |")
    add(f"| {qty(lambda c: c.drivers)} | **BC337-25 NPN transistor**, TO-92 (or PN2222A / 2N2222A: mind the "
        "different pinout) | A GPIO gives 3.3 V and at most ~16 mA: it must not drive a 5 V LED directly. The BC337 "
        "switches up to 800 mA at 45 V, with a current gain of 160–400 (-25 grade); cheap and everywhere. Low-side "
        "switch: emitter to GND, collector to the LED's minus. |")
    add(f"| {qty(lambda c: c.drivers)} | {prose_ohms(BASE_OHMS)} resistor, ¼ W (base) | Base current (3.3 V − 0.7 V) / "
        f"{prose_ohms(BASE_OHMS)} = **{BASE_MA:.1f} mA**. That saturates the transistor hard for the "
        f"{LED_MA_ACTUAL:.1f} mA LED (forced gain 5) and a 30 mA buzzer (forced gain 12), and all outputs together "
        "draw under 20 mA from the GPIOs, well inside the Pi's and the Pico's budget. The same value as the "
        f"series resistors: buy {qty(lambda c: c.drivers + c.switch_lines)} of {prose_ohms(BASE_OHMS)} in all. |")
    add(f"| {qty(lambda c: c.drivers)} | {prose_ohms(BASE_PULLDOWN_OHMS)} resistor, ¼ W (base to GND) | Keeps each "
        "transistor off while its pin floats (during boot, before the app runs), so no LED glows or flickers. "
        "Costs 0.07 mA. |")
    add(f"| {qty(lambda c: c.drivers)} | **{FLYBACK} diode**, from each collector (anode) to +5 V (cathode, the "
        "stripe): **always fitted**, on every channel | A transistor output does not know its load. Tomorrow's "
        "seat box may hold a relay-switched lamp, the GO \"active buzzer\" may be a magnetic one with a coil, and "
        "1.5–3 m of cable is itself a little inductance: switched off in ~100 ns, a coil's current makes a spike "
        "far past the BC337's 45 V. The diode carries it back into the 5 V rail. On a plain LED it never "
        "conducts (its cathode is at 5 V, its anode never above), it costs less than the time to decide whether a "
        "load needs it, and it also clamps an ESD spike on the collector to the rail. |")
    add(f"| {qty(lambda c: c.led_channels)} | **{LED_OHMS} Ω** resistor, ¼ W (LED +, only for a bare LED) | "
        f"(5 V − 2.0 V LED − 0.2 V transistor) / 15 mA = {LED_OHMS_EXACT:.0f} Ω → next E12 value up, "
        f"**{LED_OHMS} Ω → {LED_MA_ACTUAL:.1f} mA**. For a blue or white LED (about 3.0 V): "
        f"(5 − 3.0 − 0.2) / 15 mA = **120 Ω**. A lasting short of LED + to GND costs it {LED_SHORT_W:.2f} W: "
        "within ¼ W. |")
    add(f"| {qty(lambda c: c.led_channels)} | **{SHORT_LIMIT_OHMS} Ω** resistor, **{SHORT_LIMIT_WATTS:g} W** "
        f"(LED +, for \"5 V\" LED buttons instead of {LED_OHMS} Ω) | The LED's own resistor sets its current; the "
        f"{SHORT_LIMIT_OHMS} Ω limits a short of pin 3 to GND or to the switch core to "
        f"{SHORT_LIMIT_SHORT_MA:.0f} mA, so the 5 V rail does not dip and reset the Pi, and it is the second "
        f"resistor in the 5 V fault path above. A crushed cable can hold that short: "
        f"5² / {SHORT_LIMIT_OHMS} = {SHORT_LIMIT_SHORT_W:.2f} W, hence the {SHORT_LIMIT_WATTS:g} W part. It dims "
        "the LED by a few per cent. |")
    add(f"| {qty(lambda c: c.go)} | **5 V active buzzer** (piezo, ≤ 30 mA), or a 5 V LED lamp | The GO signal "
        "everyone hears or sees together. An *active* buzzer beeps with plain DC, so the pin just switches it. |")
    add("| 1 | stripboard about 100 × 100 mm, 2.54 mm pin headers, hook-up wire | The driver board sits in the rig "
        "box next to the Pi or Pico, with the series resistors and ESD arrays along the edge that faces the "
        "sockets. |")
    if gpio.loopback or board.loopback:
        add(f"| {qty(lambda c: c.loopback)} | 2.54 mm jumper cap, and a 2-pin header on the driver board | The "
            "doctor's timing loopback (GPIO build): on the Pi's pins when nothing covers them; under a ribbon "
            "cable on the breakout's terminals or this header (ASSEMBLY.md, step 4a). |")
    add("")
    add(f"Power: {gpio.led_channels} LEDs × {LED_MA_ACTUAL:.1f} mA + buzzer 30 mA ≈ "
        f"{gpio.led_channels * LED_MA_ACTUAL + 30:.0f} mA from 5 V: the Pi's 5 V pin (fed by its supply) or the "
        "Pico's VBUS (from the USB port's 500 mA) carry that with room to spare.")
    return "\n".join(rows) + "\n"


def render_bom(pm: PinMap, current: str) -> str:
    """BOM.md with its generated part replaced by :func:`bom_section`."""
    try:
        head, rest = current.split(BOM_BEGIN + "\n", 1)
        _, tail = rest.split(BOM_END, 1)
    except ValueError:
        raise SystemExit(f"BOM.md has no generated part: put {BOM_BEGIN!r} and {BOM_END!r} around it") from None
    return f"{head}{BOM_BEGIN}\n{bom_section(pm)}{BOM_END}{tail}"


def render_all(pm: PinMap) -> dict[str, str]:
    """File name -> SVG text for both builds."""
    out = {}
    for build in (pi_build(pm), pico_build(pm)):
        out[build.file] = draw(build)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pins", default=str(DEFAULT_PINMAP_PATH), help="pin map (default hardware/pins.toml)")
    parser.add_argument("--out", default=str(HARDWARE), help="folder for the SVGs and BOM.md")
    args = parser.parse_args(argv)
    pm = load_pinmap(args.pins)
    for name, text in render_all(pm).items():
        path = Path(args.out) / name
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    bom = Path(args.out) / "BOM.md"
    template = bom if bom.is_file() else HARDWARE / "BOM.md"
    bom.write_text(render_bom(pm, template.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {bom}")
    problems = [f"{b.name}: {p}" for b in (pi_build(pm), pico_build(pm)) for p in safety_problems(b)]
    for p in problems:
        print(f"electrical rule broken: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
