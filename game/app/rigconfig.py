"""The café's config file (``/etc/cheating-moth/config.toml``): house rules and deck (see
``game/config.py``), display, table timings, input, the staff PIN, data limits and the game the
kiosk's table runs (``[kiosk] game``: Cheating Moth or a referee race preset). Every key is
optional; an unknown section or key, or a value out of range, is refused with one sentence
naming it and what would be valid."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from ..bounded import BadInput, MissingFile, label, read_toml_file
from ..config import rules_from_config
from ..controller import TableSettings
from ..errors import BadConfig
from ..i18n import LANGUAGES
from ..variants import Rules

MS = 1_000_000
#: ``[kiosk] game``: the card game itself; any other value names a referee race preset.
CHEATING_MOTH = "cheating-moth"
#: A race preset's id as ``game/referee/presets.py`` takes it (its file name): the config file
#: checks only the shape, since which presets exist is known once the kiosk reads its folders.
GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
#: ``[kiosk] players``: how many players race in a preset (0: as many as the preset and the seats allow).
MAX_GAME_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class RigConfig:
    rules: Rules = field(default_factory=Rules)
    # [display]
    lang: str = "en"
    volume: int = 80                    # percent
    fullscreen: bool = True
    attract_after_s: int = 60
    settle_ms: int = 300                # a screen just shown ignores taps and keys this long (glass.py)
    # [input]
    input: str = "auto"                 # auto | board | gpio | keyboard
    port: str = ""                      # the board's serial port ("" = find it by USB id)
    pins: str = ""                      # the GPIO pin map ("" = the default)
    board_patience_s: int = 10          # how long a buzzer board that is gone has to come back (board seconds)
    # [table]
    long_press_ms: int = 800
    fore_period_min_ms: int = 800
    fore_period_max_ms: int = 2_500
    race_timeout_ms: int = 3_000
    pick_window_ms: int = 10_000
    vote_window_ms: int = 10_000
    # [staff]
    # An old release's PIN lines, still read so that such a config is not refused, but ignored:
    # the PIN is now in staff-pin.toml, readable by root and the kiosk only (game/app/pinfile.py).
    pin_hash: str = ""
    pin_salt: str = ""                  # hex
    combo_hold_ms: int = 5_000
    # The Caught! + seat 1 combination: with a PIN set it opens the PIN keypad (typed with the
    # seat buttons), without one the menu. false: it does nothing, and the menu opens only by
    # the PIN keypad, from the touchscreen's Settings button or F1/Tab on a keyboard plugged
    # into the Pi; with neither, stop the kiosk (sudo systemctl stop cheating-moth) to change things.
    staff_combo: bool = True
    # [data]
    max_games: int = 5_000              # leaderboard rows kept
    keep_game_logs: int = 50            # finished game logs kept in the data folder
    # [kiosk]
    game: str = CHEATING_MOTH           # what the table runs: Cheating Moth or a race preset's id
    game_players: int = 0               # players of a race preset (0: as many as it and the seats allow)

    def table_settings(self, seats: int, clock: str, resolution_ns: int) -> TableSettings:
        return TableSettings(
            seats=seats, clock=clock, resolution_ns=resolution_ns, rules=self.rules,
            long_press_ns=self.long_press_ms * MS, fore_period_min_ns=self.fore_period_min_ms * MS,
            fore_period_max_ns=self.fore_period_max_ms * MS, race_timeout_ns=self.race_timeout_ms * MS,
            pick_window_ns=self.pick_window_ms * MS, vote_window_ns=self.vote_window_ms * MS)


# section -> key -> (field, allowed range or choices)
_KEYS: dict[str, dict[str, tuple[str, Any]]] = {
    "display": {"lang": ("lang", LANGUAGES), "volume": ("volume", (0, 100)),
                "fullscreen": ("fullscreen", bool), "attract-after-s": ("attract_after_s", (5, 3600)),
                "settle-ms": ("settle_ms", (0, 2_000))},
    "input": {"backend": ("input", ("auto", "board", "gpio", "keyboard")), "port": ("port", str),
              "pins": ("pins", str), "board-patience-s": ("board_patience_s", (1, 600))},
    "table": {"long-press-ms": ("long_press_ms", (200, 5_000)),
              "fore-period-min-ms": ("fore_period_min_ms", (300, 10_000)),
              "fore-period-max-ms": ("fore_period_max_ms", (300, 10_000)),
              "race-timeout-ms": ("race_timeout_ms", (500, 30_000)),
              "pick-window-ms": ("pick_window_ms", (2_000, 60_000)),
              "vote-window-ms": ("vote_window_ms", (2_000, 60_000))},
    "staff": {"pin-hash": ("pin_hash", str), "pin-salt": ("pin_salt", str),
              "combo-hold-ms": ("combo_hold_ms", (1_000, 30_000)), "combo": ("staff_combo", bool)},
    "data": {"max-games": ("max_games", (10, 1_000_000)), "keep-game-logs": ("keep_game_logs", (1, 10_000))},
    "kiosk": {"game": ("game", GAME_ID), "players": ("game_players", (0, MAX_GAME_PLAYERS))},
}


#: Old releases' pin salts were random bytes in hex (16); the hash PBKDF2-SHA256's 32.
PIN_SALT_HEX = (16, 128)
PIN_HASH_HEX = 64


class MissingConfig(BadConfig):
    """The file does not exist (the rig runs on its defaults); any other refusal, a symbolic
    link loop or a dangling link among them, is a plain :class:`BadConfig` that names it."""


def load_rig_config(path: str | Path) -> RigConfig:
    """Read and check a config file; every problem is a :class:`BadConfig` naming it."""
    return rig_config_from(read_toml(path, "config file"), str(path))


#: The most a config or staff settings file may hold: a full config with a house deck is
#: about 2 KB, so a larger file is the wrong file, and is refused before it is read whole.
MAX_CONFIG_BYTES = 256 * 1024


def read_toml(path: str | Path, what: str, hint: str | None = None) -> dict[str, Any]:
    """A TOML file's document, read within the bounds of game/bounded.py: a file that cannot be
    read, is not a regular file (a FIFO, a device, a folder: refused without waiting on it, with
    ``hint`` saying what to give instead), is a symbolic link loop, is over MAX_CONFIG_BYTES, is
    not UTF-8 or not TOML, nests too deeply or holds a number of more than 20 digits is a
    :class:`BadConfig` naming ``what`` and the file (:class:`MissingConfig`: there is none)."""
    try:
        return read_toml_file(path, MAX_CONFIG_BYTES, f"{what} {label(path)}", hint)
    except MissingFile as exc:
        # A dangling symbolic link is a file someone meant to be there: named, not "no file".
        raise (BadConfig if os.path.islink(path) else MissingConfig)(str(exc)) from None
    except BadInput as exc:
        raise BadConfig(str(exc)) from None


def rig_config_from(data: dict[str, Any], where: str = "config") -> RigConfig:
    known = ("rules", "deck", *_KEYS)
    for section in data:
        if section not in known:
            raise BadConfig(f"{where} has unknown section [{section}]: use {', '.join(f'[{s}]' for s in known)}")
    if not isinstance(data, dict):
        raise BadConfig(f"{where} is not a TOML document of sections")
    rules = rules_from_config({k: v for k, v in data.items() if k in ("rules", "deck")}, where)
    values: dict[str, Any] = {"rules": rules}
    for section, keys in _KEYS.items():
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise BadConfig(f"{where} [{section}] must be a table of key = value")
        for key, value in table.items():
            if key not in keys:
                raise BadConfig(f"{where} [{section}] has unknown key {key!r}: use {', '.join(keys)}")
            name, allowed = keys[key]
            values[name] = _check(value, allowed, f"{where} [{section}] {key}")
    config = RigConfig(**values)
    if config.fore_period_min_ms > config.fore_period_max_ms:
        raise BadConfig(f"{where} [table] fore-period-min-ms {config.fore_period_min_ms} is more than "
                        f"fore-period-max-ms {config.fore_period_max_ms}: the minimum must not exceed the maximum")
    _check_hex(config.pin_salt, PIN_SALT_HEX, f"{where} [staff] pin-salt")
    _check_hex(config.pin_hash, (PIN_HASH_HEX, PIN_HASH_HEX), f"{where} [staff] pin-hash")
    if bool(config.pin_hash) != bool(config.pin_salt):
        raise BadConfig(f"{where} [staff] has only one of pin-hash and pin-salt, an old release's PIN "
                        "lines: delete them and set the PIN with 'sudo cheating-moth staff-pin'")
    return config


def _check_hex(value: str, length: tuple[int, int], where: str) -> None:
    low, high = length
    if value and not (low <= len(value) <= high and len(value) % 2 == 0 and value.isascii()
                      and all(c in "0123456789abcdefABCDEF" for c in value)):
        size = f"{low}" if low == high else f"{low} to {high}"
        raise BadConfig(f"{where} is {value[:80]!r}: use {size} hex digits, or rather delete the old "
                        "pin-hash and pin-salt lines and set the PIN with 'sudo cheating-moth staff-pin'")


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for a message about a bad value (a value
    from a hostile file can be huge or nested too deeply to print)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a {type(value).__name__} nested too deeply>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _check(value: Any, allowed: Any, where: str) -> Any:
    if allowed is GAME_ID:
        if not isinstance(value, str) or not GAME_ID.fullmatch(value):
            raise BadConfig(f"{where} is {shown(value)}: use {CHEATING_MOTH!r} or a race preset's id "
                            "(its file name: lower-case letters, digits and dashes, e.g. 'bell-slap')")
        return value
    if allowed is bool:
        if type(value) is not bool:
            raise BadConfig(f"{where} is {shown(value)}: use true or false")
        return value
    if allowed is str:
        if not isinstance(value, str):
            raise BadConfig(f"{where} is {shown(value)}: use a string in quotes")
        return value
    if isinstance(allowed, tuple) and allowed and isinstance(allowed[0], str):
        if value not in allowed:
            raise BadConfig(f"{where} is {shown(value)}: use one of {', '.join(map(repr, allowed))}")
        return value
    low, high = allowed
    if type(value) is not int or not low <= value <= high:
        raise BadConfig(f"{where} is {shown(value)}: use a whole number from {low} to {high}")
    return value


def with_changes(config: RigConfig, **changes: Any) -> RigConfig:
    """A copy with some fields changed (the staff menu)."""
    names = {f.name for f in fields(RigConfig)}
    unknown = set(changes) - names
    if unknown:
        raise BadConfig(f"unknown setting {sorted(unknown)[0]!r}")
    return replace(config, **changes)
