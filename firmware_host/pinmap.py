"""The pin map: which pin each seat button, seat LED, Caught! button and GO output uses.

One TOML file (``hardware/pins.toml`` is the default) serves both builds: its top level is the
Raspberry Pi GPIO build (BCM numbers, plus the doctor's ``[loopback]`` jumper) and its optional
``[board]`` table is the buzzer board build (Pico GP numbers, see :mod:`.pinmap_board`). It is
validated in full before any pin is touched, so a wiring mistake is a one-line message naming
the pin, not a half-configured header. Seats are numbered from 0, clockwise, like players
everywhere in the project.

Where the default file is: ``hardware/pins.toml`` in a source checkout (or an editable install).
A wheel cannot ship files outside its packages, so ``firmware_host/default_pins.toml`` is a
symlink to it that setuptools packs as package data (a copy, in the wheel); the loader takes the
checkout's file when it exists and the packaged copy otherwise.
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from game.bounded import BadInput, Unreadable, read_file

from .errors import BadPinMap
from .pinmap_board import BoardPins, parse_board, shown

_CHECKOUT_PINMAP = Path(__file__).resolve().parent.parent / "hardware" / "pins.toml"
PACKAGED_PINMAP_PATH = Path(__file__).resolve().parent / "default_pins.toml"
DEFAULT_PINMAP_PATH = _CHECKOUT_PINMAP if _CHECKOUT_PINMAP.is_file() else PACKAGED_PINMAP_PATH

MIN_SEATS = 3
MAX_SEATS = 7
HIGHEST_GPIO = 27
# GPIO 0/1 carry the HAT ID EEPROM bus: the firmware probes them at boot, never wire to them.
RESERVED_PINS: Mapping[int, str] = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)"}
# Usable as plain GPIO, but only when the pin map says so (a display or DAC HAT may need them).
BUS_PINS: Mapping[int, str] = {
    2: "I2C1 SDA",
    3: "I2C1 SCL",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    14: "UART TXD",
    15: "UART RXD",
}
# GPIO 2 and 3 have 1.8 kOhm pull-ups soldered on the board: an input there always reads high
# when open, so only a pull-up (active-low) button works on them.
FIXED_PULL_UP_PINS = frozenset({2, 3})

# 100 us: the kernel stamps each edge in its hard-IRQ handler in ns, but the stamp comes after the
# interrupt latency, and edges pending together are stamped one after another in pin order. Two
# presses closer than a typical worst-case latency cannot be ordered honestly (not measured on
# hardware: measure it and set resolution_us in the pin map).
DEFAULT_RESOLUTION_US = 100
# The floor: edges of one GPIO bank pending together are stamped in pin order over up to ~15 us
# (see firmware_host/gpio.py); a narrower window would let pin order decide a tie.
MIN_RESOLUTION_US = 20
MAX_RESOLUTION_US = 100_000

_TOP_KEYS = (
    "pull", "active_low", "allow_bus_pins", "resolution_us", "seats", "guard", "go", "loopback", "board",
)
_SEAT_KEYS = ("button", "led")
_GUARD_KEYS = ("button", "led")
_GO_KEYS = ("pin", "pulse_ms")
_LOOPBACK_KEYS = ("output", "input")

# BCM GPIO -> physical pin of the Pi's 40-pin header (for the docs and the diagram).
PI_PHYSICAL: Mapping[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}


class Pull(enum.Enum):
    """How a button input rests. ``UP``: internal pull-up, button to GND (active low).
    ``DOWN``: internal pull-down, button to 3V3 (active high). ``NONE``: an external resistor;
    the map must then say ``active_low``."""

    UP = "up"
    DOWN = "down"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class SeatPins:
    """One seat's arcade button and the LED inside it (optional)."""

    button: int
    led: int | None


@dataclass(frozen=True, slots=True)
class Loopback:
    """The doctor's timing jumper: ``output`` is wired straight to ``input`` (BCM numbers)."""

    output: int
    input: int


@dataclass(frozen=True, slots=True)
class PinMap:
    """A validated pin map. ``go_pin`` drives a GO buzzer or lamp; ``go_pulse_ms`` switches it off
    again after that long (a buzzer) or, when None, leaves it on until the next arm (a lamp).
    ``loopback`` is the doctor's jumper (None: no timing self-test); ``board`` is the buzzer
    board build's part (None: the map is for the GPIO build only)."""

    seats: tuple[SeatPins, ...]
    guard_button: int
    guard_led: int | None
    go_pin: int | None
    go_pulse_ms: int | None
    pull: Pull
    active_low: bool
    resolution_ns: int
    source: str
    loopback: Loopback | None = None
    board: BoardPins | None = None

    def input_pins(self) -> tuple[int, ...]:
        return tuple(s.button for s in self.seats) + (self.guard_button,)

    def output_pins(self) -> tuple[int, ...]:
        leds = [s.led for s in self.seats] + [self.guard_led, self.go_pin]
        return tuple(p for p in leds if p is not None)


#: A pin map is a screenful of lines (the shipped one is about 3 KB with its comments): a larger
#: file is not a pin map, and is refused before it is read (``pins = "/dev/zero"`` must not fill
#: the memory).
MAX_PINMAP_BYTES = 64 * 1024


def load_pinmap(path: str | Path = DEFAULT_PINMAP_PATH) -> PinMap:
    """Read and validate a pin map file. Reading is bounded (game/bounded.py): a FIFO, a device
    (a tty, ``/dev/zero``) or a folder is refused by name without waiting on it, a symbolic link
    loop is named, and a file over :data:`MAX_PINMAP_BYTES` is refused before it is read."""
    p = Path(path)
    try:
        raw = read_file(p, MAX_PINMAP_BYTES, f"pin map {str(p)!r}",
                        f"pass a TOML pin map such as {str(DEFAULT_PINMAP_PATH)!r}")
    except Unreadable as e:
        raise BadPinMap(f"pin map {str(p)!r} cannot be read ({e.why}): pass a TOML pin map such as "
                        f"{str(DEFAULT_PINMAP_PATH)!r}") from None
    except BadInput as e:
        raise BadPinMap(str(e)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadPinMap(
            f"pin map {str(p)!r} is not UTF-8 text (byte {raw[e.start]:#04x} at offset {e.start}): "
            f"save it as UTF-8"
        ) from None
    return loads_pinmap(text, source=str(p))


def loads_pinmap(text: str, source: str = "<string>") -> PinMap:
    """Validate a pin map given as TOML text; ``source`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadPinMap(f"pin map {source!r} is not valid TOML ({e}): fix the syntax") from e
    except RecursionError:
        raise BadPinMap(
            f"pin map {source!r} nests arrays or tables too deeply to read: a pin map needs at most "
            f"three levels ([board.seats.N])"
        ) from None
    return parse_pinmap(data, source)


def parse_pinmap(data: Mapping[str, object], source: str = "<string>") -> PinMap:
    """Validate a decoded pin map document."""
    _check_keys(data, _TOP_KEYS, "the top level", source)

    pull_raw = data.get("pull", Pull.UP.value)
    try:
        pull = Pull(pull_raw)
    except ValueError:
        raise BadPinMap(
            f"pull = {pull_raw!r} in {source} is not valid: use one of "
            f"{', '.join(repr(p.value) for p in Pull)}"
        ) from None
    active_low = _active_low(data, pull, source)
    allow_bus = _bool(data, "allow_bus_pins", False, source)
    resolution_us = data.get("resolution_us", DEFAULT_RESOLUTION_US)
    if type(resolution_us) is not int or not MIN_RESOLUTION_US <= resolution_us <= MAX_RESOLUTION_US:
        raise BadPinMap(
            f"resolution_us = {resolution_us!r} in {source} is not valid: use a whole number of "
            f"microseconds from {MIN_RESOLUTION_US} to {MAX_RESOLUTION_US} (presses on one GPIO bank "
            f"are stamped up to ~15 us apart in pin order, so a narrower window is not a fair tie)"
        )

    owner: dict[int, str] = {}  # pin -> the key that claimed it first, to name both on a clash

    def claim(key: str, value: object, is_input: bool) -> int:
        pin = _pin(key, value, source, allow_bus)
        if is_input and pin in FIXED_PULL_UP_PINS and pull is not Pull.UP:
            raise BadPinMap(
                f"{key} = {pin!r} in {source} cannot be a button with pull = {pull.value!r}: GPIO "
                f"{pin} has a fixed pull-up resistor, so use pull = 'up' or another pin"
            )
        if pin in owner:
            raise BadPinMap(
                f"{key} = {pin!r} in {source} is already used by {owner[pin]}: give every button, "
                f"LED, GO output and loopback end its own pin"
            )
        owner[pin] = key
        return pin

    seats_raw = _table(data, "seats", source, required=True)
    seats = _seats(seats_raw, source, claim)

    guard = _table(data, "guard", source, required=True)
    _check_keys(guard, _GUARD_KEYS, "[guard]", source)
    if "button" not in guard:
        raise BadPinMap(f"[guard] in {source} has no 'button': give the Caught! button's GPIO number")
    guard_button = claim("guard.button", guard["button"], True)
    guard_led = claim("guard.led", guard["led"], False) if "led" in guard else None

    go = _table(data, "go", source, required=False)
    go_pin: int | None = None
    go_pulse_ms: int | None = None
    if go:
        _check_keys(go, _GO_KEYS, "[go]", source)
        if "pin" not in go:
            raise BadPinMap(f"[go] in {source} has no 'pin': give the GO buzzer or lamp's GPIO number")
        go_pin = claim("go.pin", go["pin"], False)
        if "pulse_ms" in go:
            pulse = go["pulse_ms"]
            if type(pulse) is not int or not 10 <= pulse <= 5000:
                raise BadPinMap(
                    f"go.pulse_ms = {pulse!r} in {source} is not valid: use a whole number of "
                    f"milliseconds from 10 to 5000, or leave it out to keep a GO lamp on"
                )
            go_pulse_ms = pulse

    loopback: Loopback | None = None
    loop_raw = _table(data, "loopback", source, required=False)
    if loop_raw:
        _check_keys(loop_raw, _LOOPBACK_KEYS, "[loopback]", source)
        for key in _LOOPBACK_KEYS:
            if key not in loop_raw:
                raise BadPinMap(
                    f"[loopback] in {source} has no {key!r}: give both ends of the doctor's jumper "
                    f"(output = N, input = N), or leave out [loopback]"
                )
        loop_in = loop_raw["input"]
        # Only a number can be a fixed pull-up pin (a list or a table is refused by claim()).
        if type(loop_in) is int and loop_in in FIXED_PULL_UP_PINS:
            raise BadPinMap(
                f"loopback.input = {loop_in!r} in {source} has a fixed pull-up resistor, and the "
                f"loopback input rests pulled down: use another pin"
            )
        loopback = Loopback(
            output=claim("loopback.output", loop_raw["output"], False),
            input=claim("loopback.input", loop_in, False),
        )

    board = parse_board(data["board"], len(seats), source) if "board" in data else None

    return PinMap(
        seats=seats,
        guard_button=guard_button,
        guard_led=guard_led,
        go_pin=go_pin,
        go_pulse_ms=go_pulse_ms,
        pull=pull,
        active_low=active_low,
        resolution_ns=resolution_us * 1000,
        source=source,
        loopback=loopback,
        board=board,
    )


def _seats(
    raw: Mapping[str, object], source: str, claim: Callable[[str, object, bool], int]
) -> tuple[SeatPins, ...]:
    numbers: dict[int, Mapping[str, object]] = {}
    for key, value in raw.items():
        if not _is_seat_number(key):
            raise BadPinMap(
                f"seat key {key!r} in [seats] of {source} is not valid: number seats 0, 1, 2, ... "
                f"as [seats.0], [seats.1], ..."
            )
        if not isinstance(value, Mapping):
            raise BadPinMap(
                f"seats.{key} = {shown(value)} in {source} is not a table: write [seats.{key}] with "
                f"button = N and optionally led = N"
            )
        numbers[int(key)] = value
    count = len(numbers)
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise BadPinMap(
            f"[seats] in {source} has {count!r} seats: wire {MIN_SEATS} to {MAX_SEATS} seats"
        )
    for n in range(count):
        if n not in numbers:
            have = ", ".join(str(k) for k in sorted(numbers))
            raise BadPinMap(
                f"seat {n!r} is missing from [seats] in {source} (found {have}): number the seats "
                f"0 to {count - 1} without gaps"
            )
    seats: list[SeatPins] = []
    for n in range(count):
        table = numbers[n]
        where = f"[seats.{n}]"
        _check_keys(table, _SEAT_KEYS, where, source)
        if "button" not in table:
            raise BadPinMap(f"{where} in {source} has no 'button': give the seat button's GPIO number")
        button = claim(f"seats.{n}.button", table["button"], True)
        led = claim(f"seats.{n}.led", table["led"], False) if "led" in table else None
        seats.append(SeatPins(button=button, led=led))
    return tuple(seats)


def _is_seat_number(key: str) -> bool:
    """ASCII digits without a leading zero: ``str.isdigit`` also takes "²" and "١"."""
    return key.isascii() and key.isdigit() and (len(key) == 1 or not key.startswith("0"))


def _pin(key: str, value: object, source: str, allow_bus: bool) -> int:
    # bool is an int subclass: `button = true` must not become GPIO 1.
    if type(value) is not int or not 0 <= value <= HIGHEST_GPIO:
        raise BadPinMap(
            f"{key} = {shown(value)} in {source} is not a header GPIO: use a BCM GPIO number from 0 "
            f"to {HIGHEST_GPIO}"
        )
    if value in RESERVED_PINS:
        raise BadPinMap(
            f"{key} = {value!r} in {source} is reserved for {RESERVED_PINS[value]}: use a BCM GPIO "
            f"number from 4 to {HIGHEST_GPIO}"
        )
    if value in BUS_PINS and not allow_bus:
        raise BadPinMap(
            f"{key} = {value!r} in {source} is {BUS_PINS[value]}: pick a free pin such as 4-6, "
            f"12, 13 or 16-27, or set allow_bus_pins = true if nothing uses that bus"
        )
    return value


def _active_low(data: Mapping[str, object], pull: Pull, source: str) -> bool:
    if "active_low" not in data:
        if pull is Pull.NONE:
            raise BadPinMap(
                f"pull = 'none' in {source} needs active_low: say true if the button connects "
                f"the pin to GND, false if to 3V3"
            )
        return pull is Pull.UP
    value = _bool(data, "active_low", False, source)
    # A pulled-up input reads high when open: active-high would count every seat as pressed.
    if pull is Pull.UP and not value or pull is Pull.DOWN and value:
        want = pull is Pull.UP
        raise BadPinMap(
            f"active_low = {value!r} in {source} contradicts pull = {pull.value!r}: a pulled-"
            f"{pull.value} button is active_low = {str(want).lower()}, so use that or leave it out"
        )
    return value


def _bool(data: Mapping[str, object], key: str, default: bool, source: str) -> bool:
    value = data.get(key, default)
    if type(value) is not bool:
        raise BadPinMap(f"{key} = {shown(value)} in {source} is not valid: use true or false")
    return value


def _table(data: Mapping[str, object], key: str, source: str, required: bool) -> Mapping[str, object]:
    value = data.get(key)
    if value is None:
        if required:
            raise BadPinMap(f"pin map {source} has no [{key}] table: add it (see hardware/pins.toml)")
        return {}
    if not isinstance(value, Mapping):
        raise BadPinMap(f"{key} = {shown(value)} in {source} is not a table: write it as [{key}]")
    return value


def _check_keys(table: Mapping[str, object], allowed: tuple[str, ...], where: str, source: str) -> None:
    for key in table:
        if key not in allowed:
            raise BadPinMap(
                f"unknown key {key!r} in {where} of {source}: use one of {', '.join(allowed)}"
            )
