"""Referee race presets: how a reaction game at the table is judged, read from TOML files.

The rig ships presets in ``game/data/referee/*.toml``; a café adds its own in a folder of its
own (e.g. ``<data>/referee/``), where a file with a shipped preset's id replaces it. A preset's
id is its file name without ``.toml``. Every key of a file::

    min-players = 2            # how many seats race: 2 to 8 (every seat the app names races)
    max-players = 8
    outcome = "first-wins"     # or "last-loses"
    places = 1                 # how many places count (from the front; for last-loses from the back)
    false-start = "void"       # "void": that seat is out of the race; "restart": the race is run
                               # again; "loses": the false starter loses and the race is over
    lockout = "first-press"    # the first press locks the others out (their times are still kept
                               # for next-in-line), or "none": the race waits for everyone's time
    table-may-void = true      # the table may void a press (a wrong slap): the next in line wins
    timeout-ms = 3000          # presses count this long after GO (after arming for go = "table")
    tie = "rerace"             # a tie among counted places: "rerace", "random" (a seeded lot) or "shared"
    go = "rig"                 # "rig": GO after a random fore-period; "table": the race starts at
                               # arming (a card flipped) and no press after arming is a false start
    go-min-ms = 800            # the fore-period, only with go = "rig"
    go-max-ms = 2500

    [name]                     # en is required; de, fr, es, ko fall back to English
    en = "Reaction duel"
    [screen]                   # one line the race screen shows
    en = "Press when the light comes on."

Reading is bounded (game/bounded.py) and strict: an unknown key, a value of the wrong type or
out of range is refused with one line naming the file, the key, the value and what is valid.
A bad file never stops the others loading: :func:`load_presets` returns its message as a notice.
"""

from __future__ import annotations

import difflib
import enum
import errno
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..bounded import BadInput, label, load_toml, one_line, read_toml_file, show
from ..errors import BadConfig
from ..i18n import LANGUAGES
from ..judge import MAX_PLAYERS, MIN_PLAYERS
from ..judge_file import MAX_TIMEOUT_MS

#: The most a preset file may hold: a preset is a screenful of keys.
MAX_PRESET_BYTES = 16 * 1024
#: Preset files read from one folder; more are named in a notice and left out (a folder of
#: thousands of files must not stall the kiosk's start).
MAX_PRESET_FILES = 64
#: The longest name and screen line, in characters: a name is a menu entry, a screen line
#: one line of the race screen.
MAX_NAME_CHARS = 32
MAX_SCREEN_CHARS = 120
#: A fore-period bound: a minute of waiting for GO is already no race.
MAX_GO_MS = 60_000
#: An id is a file name the CLI takes as an argument: lower case, digits and dashes.
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
#: ``cheating-moth referee quiz`` is the quiz-show lockout, not a race preset.
RESERVED_IDS = ("quiz",)


class BadPreset(BadConfig):
    """A preset file or value that cannot be used; the message is one line naming it."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class Outcome(enum.Enum):
    """Who the race is about: the fastest (``FIRST_WINS``) or the slowest (``LAST_LOSES``)."""

    FIRST_WINS = "first-wins"
    LAST_LOSES = "last-loses"


class FalseStartRule(enum.Enum):
    """What a press after arming and before GO (or a button held at GO) does."""

    #: The false starter is out of this race; the others race on.
    VOID = "void"
    #: The race is run again.
    RESTART = "restart"
    #: The false starter loses; everyone else who raced wins, and the race is over.
    LOSES = "loses"


class Lockout(enum.Enum):
    """``FIRST_PRESS``: the counted places decide the race as soon as they are in, and the
    other seats are locked out (their later presses are still kept, for next in line).
    ``NONE``: the race waits for every racer's time (or the timeout)."""

    FIRST_PRESS = "first-press"
    NONE = "none"


class TieRule(enum.Enum):
    """What presses closer than the input's resolution, at a counted place, lead to."""

    RERACE = "rerace"
    #: A generator seeded with the race's seed orders the tied seats.
    RANDOM = "random"
    #: The tied seats share the place (two winners, or two losers).
    SHARED = "shared"


class GoSource(enum.Enum):
    """``RIG``: the rig gives GO after a random fore-period. ``TABLE``: the table's own event (a
    card flipped) is GO; the race starts at arming and no press after arming is early."""

    RIG = "rig"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Preset:
    """One kind of referee race. Constructing one validates it, so a preset that exists works."""

    id: str
    names: tuple[tuple[str, str], ...]     # (language, name), English first
    screens: tuple[tuple[str, str], ...]   # (language, one line for the race screen)
    min_players: int
    max_players: int
    outcome: Outcome
    places: int
    false_start: FalseStartRule
    lockout: Lockout
    table_may_void: bool
    timeout_ms: int
    tie: TieRule
    go: GoSource
    go_min_ms: int = 0
    go_max_ms: int = 0
    #: Where the preset came from, for messages: the file, or "shipped".
    source: str = ""

    def __post_init__(self) -> None:
        _check_preset(self)

    def name(self, lang: str) -> str:
        """The preset's name in ``lang`` (English where the file gives none)."""
        return _in(self.names, lang)

    def screen(self, lang: str) -> str:
        """The race screen's line in ``lang`` (English where the file gives none)."""
        return _in(self.screens, lang)


def _in(texts: tuple[tuple[str, str], ...], lang: str) -> str:
    if lang not in LANGUAGES:
        raise BadPreset(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    return dict(texts).get(lang) or dict(texts)["en"]


def _check_preset(p: Preset) -> None:
    where = f"preset {p.id!r}"
    if not isinstance(p.id, str) or not _ID.fullmatch(p.id):
        raise BadPreset(f"preset id {show(p.id)} is not valid: use 1 to 32 lower-case letters, digits "
                        "and dashes, starting with a letter or digit (it is the file name)")
    if p.id in RESERVED_IDS:
        raise BadPreset(f"preset id {p.id!r} is taken by 'cheating-moth referee {p.id}': name the file otherwise")
    for field, lo, hi in (("min_players", MIN_PLAYERS, MAX_PLAYERS), ("max_players", MIN_PLAYERS, MAX_PLAYERS),
                          ("places", 1, MAX_PLAYERS), ("timeout_ms", 1, MAX_TIMEOUT_MS),
                          ("go_min_ms", 0, MAX_GO_MS), ("go_max_ms", 0, MAX_GO_MS)):
        value = getattr(p, field)
        if type(value) is not int or not lo <= value <= hi:
            raise BadPreset(f"{where}: {_key(field)} {show(value)} is not valid: use a whole number from {lo} to {hi}")
    for field, kind in (("outcome", Outcome), ("false_start", FalseStartRule), ("lockout", Lockout),
                        ("tie", TieRule), ("go", GoSource)):
        if not isinstance(getattr(p, field), kind):
            raise BadPreset(f"{where}: {_key(field)} {show(getattr(p, field))} is not valid: use {_options(kind)}")
    if type(p.table_may_void) is not bool:
        raise BadPreset(f"{where}: table-may-void {show(p.table_may_void)} is not valid: use true or false")
    _check_relations(p, where)
    _check_texts(p.names, "name", MAX_NAME_CHARS, where)
    _check_texts(p.screens, "screen", MAX_SCREEN_CHARS, where)


def _check_relations(p: Preset, where: str) -> None:
    if p.min_players > p.max_players:
        raise BadPreset(f"{where}: min-players {p.min_players} is more than max-players {p.max_players}: "
                        "use a min-players no larger than max-players")
    # Every table size the preset allows must be able to fill its places; a last-loses race
    # that counts every place would make everyone lose.
    most = p.min_players - (1 if p.outcome is Outcome.LAST_LOSES else 0)
    if p.places > most:
        raise BadPreset(f"{where}: places {p.places} is not valid with min-players {p.min_players} and "
                        f"outcome {p.outcome.value!r}: use 1 to {most}")
    if p.outcome is Outcome.LAST_LOSES and p.lockout is Lockout.FIRST_PRESS:
        raise BadPreset(f"{where}: lockout 'first-press' is not valid with outcome 'last-loses': the slowest "
                        "is only known from everyone's time, use lockout = 'none'")
    if p.go is GoSource.RIG:
        if p.go_min_ms > p.go_max_ms:
            raise BadPreset(f"{where}: go-min-ms {p.go_min_ms} is more than go-max-ms {p.go_max_ms}: "
                            "use a go-min-ms no larger than go-max-ms")
        if p.go_max_ms == 0:
            raise BadPreset(f"{where}: go-max-ms 0 is not valid with go = 'rig': a random GO needs a "
                            f"fore-period, use 1 to {MAX_GO_MS}")
    elif p.go_min_ms or p.go_max_ms:
        raise BadPreset(f"{where}: go-min-ms/go-max-ms {p.go_min_ms}/{p.go_max_ms} are only for go = 'rig': "
                        "drop them for go = 'table' (the table's event is GO)")


def _check_texts(texts: object, what: str, limit: int, where: str) -> None:
    if not isinstance(texts, tuple) or not all(isinstance(t, tuple) and len(t) == 2 for t in texts):
        raise BadPreset(f"{where}: {what} texts {show(texts)} are not valid: use (language, text) pairs")
    langs = [lang for lang, _ in texts]
    if "en" not in langs:
        raise BadPreset(f"{where}: [{what}] has no 'en': give the English {what}, and de, fr, es, ko if you have them")
    for lang, text in texts:
        if lang not in LANGUAGES or langs.count(lang) > 1:
            raise BadPreset(f"{where}: [{what}] language {show(lang)} is not valid: use each of "
                            f"{', '.join(LANGUAGES)} at most once")
        if not isinstance(text, str) or not text.strip() or len(text) > limit or one_line(text, limit) != text:
            raise BadPreset(f"{where}: [{what}] {lang} {show(text)} is not valid: use one line of 1 to {limit} "
                            "characters")


def _key(field: str) -> str:
    return field.replace("_", "-")


def _options(kind: type[enum.Enum]) -> str:
    quoted = [repr(member.value) for member in kind]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


# --- TOML <-> Preset ---------------------------------------------------------------------------

_ENUM_KEYS: dict[str, type[enum.Enum]] = {
    "outcome": Outcome, "false-start": FalseStartRule, "lockout": Lockout, "tie": TieRule, "go": GoSource,
}
_INT_KEYS = ("min-players", "max-players", "places", "timeout-ms", "go-min-ms", "go-max-ms")
_BOOL_KEYS = ("table-may-void",)
_TEXT_KEYS = ("name", "screen")
_REQUIRED = ("min-players", "max-players", "outcome", "places", "false-start", "lockout", "timeout-ms", "tie",
             "go", "name", "screen")
KEYS = _REQUIRED + ("table-may-void", "go-min-ms", "go-max-ms")


def _hint(key: str) -> str:
    """What a missing key takes, for its message."""
    if key in _ENUM_KEYS:
        return _options(_ENUM_KEYS[key])
    if key in _TEXT_KEYS:
        return f"a [{key}] table with at least en = \"...\""
    if key == "timeout-ms":
        return f"a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}"
    return f"a whole number from {1 if key == 'places' else MIN_PLAYERS} to {MAX_PLAYERS}"


def preset_from_mapping(data: Mapping[str, Any], preset_id: str, where: str) -> Preset:
    """A preset from a decoded TOML document; :class:`BadPreset` names ``where``, the key, the
    value and what is valid."""
    for key in data:
        if key not in KEYS:
            # The likely meant key first: the full list of 14 would not fit one line after a path.
            close = difflib.get_close_matches(str(key)[:40], KEYS, n=1)
            valid = f"use {close[0]!r}" if close else f"a preset's keys are {', '.join(KEYS)}"
            raise BadPreset(f"{where} has unknown key {show(key, 40)}: {valid}")
    for key in _REQUIRED:
        if key not in data:
            raise BadPreset(f"{where} has no {key!r}: add {key} = {_hint(key)}")
    values: dict[str, Any] = {}
    for key, kind in _ENUM_KEYS.items():
        raw = data[key]
        try:
            values[key.replace("-", "_")] = kind(raw)
        except (ValueError, TypeError):
            raise BadPreset(f"{where}: {key} {show(raw)} is not valid: use {_options(kind)}") from None
    for key in _INT_KEYS:
        values[key.replace("-", "_")] = data.get(key, 0)
    for key in _BOOL_KEYS:
        values[key.replace("-", "_")] = data.get(key, False)
    for key in _TEXT_KEYS:
        table = data[key]
        if not isinstance(table, dict):
            raise BadPreset(f"{where}: {key} {show(table)} is not valid: use a [{key}] table of language = text")
        # English first: the fallback, and the order a record lists them in.
        values[key + "s"] = tuple(sorted(table.items(), key=lambda item: (item[0] != "en", item[0])))
    try:
        return Preset(id=preset_id, source=where, **values)
    except BadPreset as exc:
        # Preset names itself ("preset 'x'"); the file's name tells a café which file to fix.
        raise BadPreset(str(exc).replace(f"preset {preset_id!r}", where, 1)) from None


def preset_to_mapping(preset: Preset) -> dict[str, Any]:
    """The preset as the keys of its TOML file (also how a race record carries its rules)."""
    data: dict[str, Any] = {
        "min-players": preset.min_players, "max-players": preset.max_players,
        "outcome": preset.outcome.value, "places": preset.places, "false-start": preset.false_start.value,
        "lockout": preset.lockout.value, "table-may-void": preset.table_may_void,
        "timeout-ms": preset.timeout_ms, "tie": preset.tie.value, "go": preset.go.value,
    }
    if preset.go is GoSource.RIG:
        data |= {"go-min-ms": preset.go_min_ms, "go-max-ms": preset.go_max_ms}
    data["name"] = dict(preset.names)
    data["screen"] = dict(preset.screens)
    return data


def preset_from_toml(text: str, preset_id: str, where: str = "preset") -> Preset:
    """A preset from TOML text (bounded as any file the rig reads)."""
    try:
        data = load_toml(text, where)
    except BadInput as exc:
        raise BadPreset(str(exc)) from None
    return preset_from_mapping(data, preset_id, where)


def read_preset(path: str | Path) -> Preset:
    """The preset in a ``*.toml`` file; its id is the file's name without ``.toml``."""
    where = f"referee preset {label(path)}"
    preset_id = Path(path).stem
    if not _ID.fullmatch(preset_id):
        raise BadPreset(f"{where}: id {preset_id!r} is not valid: name the file with 1 to 32 lower-case letters, "
                        "digits and dashes, e.g. 'speed-cups.toml'")
    try:
        data = read_toml_file(path, MAX_PRESET_BYTES, where)
    except BadInput as exc:
        raise BadPreset(str(exc)) from None
    return preset_from_mapping(data, preset_id, where)


# --- loading the shipped presets and a café's ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Presets:
    """The presets that loaded, by id in name order, and one line for each file that did not."""

    presets: tuple[Preset, ...]
    notices: tuple[str, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.presets)

    def get(self, preset_id: str) -> Preset:
        """The preset ``preset_id``; :class:`BadPreset` names the ids there are."""
        for preset in self.presets:
            if preset.id == preset_id:
                return preset
        raise BadPreset(f"referee preset {show(preset_id, 40)} does not exist: use {', '.join(self.ids) or 'none'}"
                        " (or 'quiz')")


def shipped_dir() -> Path:
    """The folder of the presets the rig ships (``game/data/referee``)."""
    return Path(str(resources.files("game.data").joinpath("referee")))


def load_presets(extra_dirs: Iterable[str | Path] = ()) -> Presets:
    """The shipped presets, then each folder of ``extra_dirs`` in turn (a file with an id seen
    before replaces that preset). A missing folder adds nothing (a café without presets of its
    own); a bad file is left out with a one-line notice, and the others load."""
    found: dict[str, Preset] = {}
    notices: list[str] = []
    for folder in (shipped_dir(), *extra_dirs):
        for path in _preset_files(Path(folder), notices):
            try:
                preset = read_preset(path)
            except BadPreset as exc:
                notices.append(str(exc))
                continue
            found[preset.id] = preset
    ordered = sorted(found.values(), key=lambda p: (p.name("en").casefold(), p.id))
    return Presets(tuple(ordered), tuple(notices))


def _preset_files(folder: Path, notices: list[str]) -> list[Path]:
    """The ``*.toml`` files of one folder; a folder that is not there adds nothing, one that
    cannot be read (no permission on it or on the way to it: an unreadable ``$HOME``) is one
    notice, and the other folders are still read (``Path.exists`` raises on EACCES)."""
    try:
        is_dir = stat.S_ISDIR(folder.stat().st_mode)
        if is_dir:
            paths = sorted(path for path in folder.iterdir() if path.suffix == ".toml")
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):      # no such folder (or a file on the way)
            return []
        why = ("it is a symbolic link loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc))
        notices.append(one_line(f"cannot read referee presets {label(folder)} ({why}): the presets of the "
                                "other folders are offered; make it readable or remove it"))
        return []
    if not is_dir:
        notices.append(one_line(f"referee presets {label(folder)} is not a folder: give the folder that holds "
                                "the *.toml presets"))
        return []
    if len(paths) > MAX_PRESET_FILES:
        notices.append(one_line(f"referee presets {label(folder)} holds {len(paths)} files: the first "
                                f"{MAX_PRESET_FILES} by name are read, keep at most {MAX_PRESET_FILES}"))
    return paths[:MAX_PRESET_FILES]
