"""The buzzer board's part of the pin map (``[board]``): Raspberry Pi Pico GP numbers.

The firmware has seven button inputs, each timed by its own PIO state machine: slots 0-5 are
seats 0-5 and slot 6 is the guard's Caught! button (what :class:`firmware_host.boardlink.rig.BoardRig`
expects by default); an eighth state machine watches the GO output. A seat the table does not
have leaves its slot empty (``None``). :func:`firmware_pins_source` renders the part as the small
``board_pins.py`` module that ``cheating-moth board flash`` copies onto the Pico and
``hw_rp2.py`` imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .errors import BadPinMap

BOARD_BUTTON_SLOTS = 7
BOARD_GUARD_SLOT = 6
BOARD_MAX_SEATS = BOARD_GUARD_SLOT
PICO_HIGHEST_GP = 28
# Wired inside the Pico, not on its header (GP29 is above PICO_HIGHEST_GP anyway).
PICO_RESERVED: Mapping[int, str] = {
    23: "the Pico's power-supply mode pin (SMPS PS)",
    24: "the Pico's VBUS sense input",
    25: "the Pico's on-board LED",
}
# GP number -> physical pin of the Pico's 40-pin edge (for the docs and the diagram).
PICO_PHYSICAL: Mapping[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}

_BOARD_KEYS = ("go", "sync", "seats", "guard")
_SEAT_KEYS = ("button", "led")


@dataclass(frozen=True, slots=True)
class BoardSeat:
    """One seat's button and LED on the Pico (GP numbers)."""

    button: int
    led: int | None


@dataclass(frozen=True, slots=True)
class BoardPins:
    """A validated ``[board]`` part: seats, the Caught! button, GO and the loggers' sync pin."""

    seats: tuple[BoardSeat, ...]
    guard_button: int
    guard_led: int | None
    go: int
    sync: int

    def button_slots(self) -> tuple[int | None, ...]:
        """The firmware's seven button inputs: seats 0-5, then the Caught! button."""
        seats: list[int | None] = [s.button for s in self.seats]
        seats += [None] * (BOARD_MAX_SEATS - len(seats))
        return tuple(seats) + (self.guard_button,)

    def led_slots(self) -> tuple[int | None, ...]:
        """The LED of each button slot (None: no LED there)."""
        leds: list[int | None] = [s.led for s in self.seats]
        leds += [None] * (BOARD_MAX_SEATS - len(leds))
        return tuple(leds) + (self.guard_led,)


def parse_board(raw: object, seat_count: int, source: str) -> BoardPins:
    """Validate ``[board]``; ``seat_count`` is the table's seats (from ``[seats]``)."""
    if not isinstance(raw, Mapping):
        raise BadPinMap(f"board = {shown(raw)} in {source} is not a table: write it as [board]")
    _keys(raw, _BOARD_KEYS, "[board]", source)
    if seat_count > BOARD_MAX_SEATS:
        raise BadPinMap(
            f"[seats] in {source} has {seat_count!r} seats but the buzzer board has button inputs "
            f"for {BOARD_MAX_SEATS} seats and the Caught! button: wire at most {BOARD_MAX_SEATS} "
            f"seats, or leave out [board]"
        )
    owner: dict[int, str] = {}

    def claim(key: str, value: object) -> int:
        pin = _gp(key, value, source)
        if pin in owner:
            why = (
                "the sync pin must be a pin of its own with nothing wired to it"
                if "board.sync" in (key, owner[pin])
                else "give every button, LED and GO output its own pin"
            )
            raise BadPinMap(f"{key} = GP{pin} in {source} is already used by {owner[pin]}: {why}")
        owner[pin] = key
        return pin

    for key in ("go", "sync"):
        if key not in raw:
            what = "the GO lamp/buzzer output" if key == "go" else "the loggers' sync pin (wired to nothing)"
            raise BadPinMap(f"[board] in {source} has no {key!r}: give {what} as a Pico GP number")
    go = claim("board.go", raw["go"])
    sync = claim("board.sync", raw["sync"])

    seats_raw = raw.get("seats")
    if not isinstance(seats_raw, Mapping):
        raise BadPinMap(
            f"[board] in {source} has no [board.seats] table: give each seat's button as "
            f"[board.seats.N] button = GP number"
        )
    for key in seats_raw:
        ascii_number = key.isascii() and key.isdigit() and (len(key) == 1 or not key.startswith("0"))
        if not ascii_number or int(key) >= seat_count:
            raise BadPinMap(
                f"seat key {key!r} in [board.seats] of {source} is not a seat of [seats]: number "
                f"them 0 to {seat_count - 1}, like [seats]"
            )
    seats: list[BoardSeat] = []
    for n in range(seat_count):
        table = seats_raw.get(str(n))
        where = f"[board.seats.{n}]"
        if not isinstance(table, Mapping):
            raise BadPinMap(
                f"{where} is missing from {source}: the table has {seat_count} seats in [seats], "
                f"so give each a Pico pin in [board.seats.0] to [board.seats.{seat_count - 1}]"
            )
        seats.append(_seat(table, where, f"board.seats.{n}", source, claim))

    guard = raw.get("guard")
    if not isinstance(guard, Mapping):
        raise BadPinMap(f"[board] in {source} has no [board.guard] table: give the Caught! button's GP number")
    guard_seat = _seat(guard, "[board.guard]", "board.guard", source, claim)
    return BoardPins(
        seats=tuple(seats), guard_button=guard_seat.button, guard_led=guard_seat.led, go=go, sync=sync
    )


def _seat(
    table: Mapping[str, object], where: str, key: str, source: str, claim: Callable[[str, object], int]
) -> BoardSeat:
    _keys(table, _SEAT_KEYS, where, source)
    if "button" not in table:
        raise BadPinMap(f"{where} in {source} has no 'button': give the button's Pico GP number")
    button = claim(f"{key}.button", table["button"])
    led = claim(f"{key}.led", table["led"]) if "led" in table else None
    return BoardSeat(button=button, led=led)


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters (a hostile file's value can be huge)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a {type(value).__name__} nested too deeply>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _gp(key: str, value: object, source: str) -> int:
    if type(value) is not int or not 0 <= value <= PICO_HIGHEST_GP:
        raise BadPinMap(
            f"{key} = {shown(value)} in {source} is not a Pico pin: use a GP number from 0 to "
            f"{PICO_HIGHEST_GP} (the GPx label, not the physical pin)"
        )
    if value in PICO_RESERVED:
        raise BadPinMap(
            f"{key} = GP{value} in {source} is {PICO_RESERVED[value]}, not on the header: use GP0 "
            f"to GP22 or GP26 to GP28"
        )
    return value


def _keys(table: Mapping[str, object], allowed: tuple[str, ...], where: str, source: str) -> None:
    for key in table:
        if key not in allowed:
            raise BadPinMap(f"unknown key {key!r} in {where} of {source}: use one of {', '.join(allowed)}")


def firmware_pins_source(board: BoardPins, source: str) -> str:
    """``board_pins.py`` for the Pico: the numbers ``hw_rp2.py`` reads (MicroPython syntax)."""

    def tup(values: tuple[int | None, ...]) -> str:
        return "(" + ", ".join("None" if v is None else str(v) for v in values) + ")"

    return (
        f"# Generated by 'cheating-moth board flash' from {source}: edit the pin map, not this file.\n"
        "# Button slots 0-5 are seats 0-5, slot 6 is the Caught! button; None: nothing wired.\n"
        f"BUTTON_PINS = {tup(board.button_slots())}\n"
        f"LED_PINS = {tup(board.led_slots())}\n"
        f"GO_PIN = {board.go}\n"
        f"SYNC_PIN = {board.sync}\n"
    )
