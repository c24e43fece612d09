"""Referee presets as data: the shipped ones, a café's folder, and every malformed file named."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.i18n import LANGUAGES
from game.referee.presets import (
    MAX_PRESET_FILES, BadPreset, FalseStartRule, GoSource, Lockout, Outcome, Preset, TieRule, load_presets,
    preset_from_mapping, preset_from_toml, preset_to_mapping, read_preset,
)

GOOD = """\
min-players = 2
max-players = 6
outcome = "first-wins"
places = 1
false-start = "void"
lockout = "first-press"
timeout-ms = 2000
tie = "shared"
go = "rig"
go-min-ms = 500
go-max-ms = 1500

[name]
en = "Speed cups"

[screen]
en = "Stack the cups, then press."
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def good(**changes: str) -> str:
    """GOOD with ``key = value`` lines replaced (value as TOML text), dropped (value ""), or
    added at the top (a key GOOD lacks)."""
    lines = []
    present = set()
    for line in GOOD.splitlines():
        key = line.split(" = ")[0]
        present.add(key)
        if key in changes:
            if changes[key]:
                lines.append(f"{key} = {changes[key]}")
        else:
            lines.append(line)
    added = [f"{key} = {value}" for key, value in changes.items() if key not in present]
    return "\n".join(added + lines) + "\n"


# --- the shipped presets ------------------------------------------------------------------------


SHIPPED = {
    # id: (min, max, outcome, places, false start, lockout, table may void, go, tie)
    "bell-slap": (2, 8, Outcome.FIRST_WINS, 1, FalseStartRule.VOID, Lockout.FIRST_PRESS, True, GoSource.TABLE,
                  TieRule.RERACE),
    "grab": (2, 8, Outcome.FIRST_WINS, 1, FalseStartRule.VOID, Lockout.FIRST_PRESS, False, GoSource.RIG,
             TieRule.RERACE),
    "last-hand-down": (2, 8, Outcome.LAST_LOSES, 1, FalseStartRule.RESTART, Lockout.NONE, False, GoSource.RIG,
                       TieRule.RERACE),
    "duel": (2, 2, Outcome.FIRST_WINS, 1, FalseStartRule.LOSES, Lockout.FIRST_PRESS, False, GoSource.RIG,
             TieRule.RERACE),
}


def test_the_shipped_presets_load_without_notices() -> None:
    presets = load_presets()
    assert presets.notices == ()
    assert set(presets.ids) == set(SHIPPED)


@pytest.mark.parametrize("preset_id", sorted(SHIPPED))
def test_each_shipped_preset_says_what_it_is(preset_id: str) -> None:
    p = load_presets().get(preset_id)
    assert (p.min_players, p.max_players, p.outcome, p.places, p.false_start, p.lockout, p.table_may_void, p.go,
            p.tie) == SHIPPED[preset_id]
    # Every shipped preset speaks all five languages, each its own words.
    assert [lang for lang, _ in p.names] == ["en", *sorted(set(LANGUAGES) - {"en"})]
    assert len({p.name(lang) for lang in LANGUAGES}) == 5
    assert len({p.screen(lang) for lang in LANGUAGES}) == 5
    if p.go is GoSource.RIG:
        assert 0 < p.go_min_ms <= p.go_max_ms
    else:
        assert p.go_min_ms == p.go_max_ms == 0


def test_a_preset_round_trips_through_its_keys() -> None:
    for p in load_presets().presets:
        again = preset_from_mapping(preset_to_mapping(p), p.id, "again")
        assert again == Preset(**{**{f: getattr(p, f) for f in Preset.__slots__}, "source": "again"})


def test_a_language_the_file_lacks_falls_back_to_english() -> None:
    p = preset_from_toml(GOOD, "speed-cups")
    assert p.name("ko") == "Speed cups" and p.screen("de") == "Stack the cups, then press."
    with pytest.raises(BadPreset, match=r"language 'xx' is not available: use one of en, de, fr, es, ko"):
        p.name("xx")


def test_get_names_the_presets_there_are() -> None:
    with pytest.raises(BadPreset, match=r"referee preset 'nope' does not exist: use bell-slap, grab, last-hand-down, "
                                        r"duel \(or 'quiz'\)"):
        load_presets().get("nope")


# --- a café's presets ---------------------------------------------------------------------------


def test_a_cafe_preset_appears_without_code(tmp_path: Path) -> None:
    write(tmp_path / "referee", "speed-cups.toml", GOOD)
    presets = load_presets([tmp_path / "referee"])
    assert presets.notices == ()
    p = presets.get("speed-cups")
    assert p.name("en") == "Speed cups" and p.tie is TieRule.SHARED and p.max_players == 6
    assert p.source.endswith("speed-cups.toml'")
    assert set(presets.ids) == set(SHIPPED) | {"speed-cups"}


def test_a_cafe_file_with_a_shipped_id_replaces_it(tmp_path: Path) -> None:
    write(tmp_path, "duel.toml", good(**{"max-players": "2", "timeout-ms": "5000"}))
    presets = load_presets([tmp_path])
    assert presets.get("duel").timeout_ms == 5000 and presets.get("duel").name("en") == "Speed cups"
    assert presets.ids.count("duel") == 1


def test_a_later_folder_wins(tmp_path: Path) -> None:
    write(tmp_path / "a", "cups.toml", GOOD)
    write(tmp_path / "b", "cups.toml", good(**{"timeout-ms": "2500"}))
    assert load_presets([tmp_path / "a", tmp_path / "b"]).get("cups").timeout_ms == 2500


def test_a_missing_folder_adds_nothing_and_says_nothing(tmp_path: Path) -> None:
    presets = load_presets([tmp_path / "none"])
    assert presets.notices == () and set(presets.ids) == set(SHIPPED)


def test_a_file_given_as_the_folder_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, "cups.toml", GOOD)
    (notice,) = load_presets([path]).notices
    assert "cups.toml' is not a folder: give the folder that holds the *.toml presets" in notice


def test_other_files_in_the_folder_are_not_presets(tmp_path: Path) -> None:
    write(tmp_path, "README.txt", "not a preset")
    write(tmp_path, "cups.toml.bak", "garbage")
    assert load_presets([tmp_path]).notices == ()


def test_too_many_files_are_cut_and_named(tmp_path: Path) -> None:
    for n in range(MAX_PRESET_FILES + 2):
        write(tmp_path, f"p{n:03d}.toml", GOOD)
    presets = load_presets([tmp_path])
    assert len(presets.presets) == len(SHIPPED) + MAX_PRESET_FILES
    (notice,) = presets.notices
    assert f"holds {MAX_PRESET_FILES + 2} files: the first {MAX_PRESET_FILES} by name are read" in notice


# --- malformed café files: one line naming the file, key, value and what is valid ---------------


MALFORMED = [
    (good(outcome='"fastest"'), r"outcome 'fastest' is not valid: use 'first-wins' or 'last-loses'"),
    (good(**{"false-start": '"ignore"'}), r"false-start 'ignore' is not valid: use 'void', 'restart' or 'loses'"),
    (good(lockout='"all"'), r"lockout 'all' is not valid: use 'first-press' or 'none'"),
    (good(tie='"coin"'), r"tie 'coin' is not valid: use 'rerace', 'random' or 'shared'"),
    (good(go='"host"'), r"go 'host' is not valid: use 'rig' or 'table'"),
    (good(outcome="1"), r"outcome 1 is not valid: use 'first-wins' or 'last-loses'"),
    (good(**{"min-players": "1"}), r"min-players 1 is not valid: use a whole number from 2 to 8"),
    (good(**{"max-players": "9"}), r"max-players 9 is not valid: use a whole number from 2 to 8"),
    (good(**{"max-players": '"6"'}), r"max-players '6' is not valid: use a whole number from 2 to 8"),
    (good(**{"max-players": "6.0"}), r"max-players 6.0 is not valid: use a whole number from 2 to 8"),
    (good(**{"max-players": "true"}), r"max-players True is not valid: use a whole number from 2 to 8"),
    (good(**{"timeout-ms": "0"}), r"timeout-ms 0 is not valid: use a whole number from 1 to 600000"),
    (good(**{"timeout-ms": "600001"}), r"timeout-ms 600001 is not valid: use a whole number from 1 to 600000"),
    (good(places="0"), r"places 0 is not valid: use a whole number from 1 to 8"),
    (good(places="3"), r"places 3 is not valid with min-players 2 and outcome 'first-wins': use 1 to 2"),
    (good(outcome='"last-loses"', lockout='"none"', places="2"),
     r"places 2 is not valid with min-players 2 and outcome 'last-loses': use 1 to 1"),
    (good(**{"min-players": "5", "max-players": "4"}),
     r"min-players 5 is more than max-players 4: use a min-players no larger than max-players"),
    (good(outcome='"last-loses"'),
     r"lockout 'first-press' is not valid with outcome 'last-loses': the slowest is only known from everyone's time"),
    (good(**{"go-min-ms": "2000"}), r"go-min-ms 2000 is more than go-max-ms 1500"),
    (good(**{"go-min-ms": "", "go-max-ms": ""}), r"go-max-ms 0 is not valid with go = 'rig': a random GO needs a "
                                                 r"fore-period, use 1 to 60000"),
    (good(**{"go-max-ms": "60001"}), r"go-max-ms 60001 is not valid: use a whole number from 0 to 60000"),
    (good(go='"table"'), r"go-min-ms/go-max-ms 500/1500 are only for go = 'rig': drop them for go = 'table'"),
    (good(**{"table-may-void": '"yes"'}), r"table-may-void 'yes' is not valid: use true or false"),
    (good(timeout="3000"), r"has unknown key 'timeout': use 'timeout-ms'"),
    (good(colour='"red"'), r"has unknown key 'colour': a preset's keys are min-players, max-players, outcome"),
    (good(tie=""), r"has no 'tie': add tie = 'rerace', 'random' or 'shared'"),
    (good(places=""), r"has no 'places': add places = a whole number from 1 to 8"),
    (good(**{"timeout-ms": ""}), r"has no 'timeout-ms': add timeout-ms = a whole number of milliseconds from 1 to"),
    (good(name='"Cups"').replace("[name]\nen = \"Speed cups\"\n", ""),
     r"name 'Cups' is not valid: use a \[name\] table of language = text"),
    (GOOD.replace("[name]\nen = \"Speed cups\"\n", ""), r"has no 'name': add name = a \[name\] table with at least"),
    (GOOD.replace('en = "Speed cups"', 'de = "Becher"'), r"\[name\] has no 'en': give the English name"),
    (GOOD.replace('en = "Speed cups"', 'en = "Speed cups"\nxx = "?"'),
     r"\[name\] language 'xx' is not valid: use each of en, de, fr, es, ko at most once"),
    (GOOD.replace('en = "Speed cups"', 'en = "' + "S" * 33 + '"'),
     r"\[name\] en 'SSSS.*' is not valid: use one line of 1 to 32 characters"),
    (GOOD.replace('en = "Speed cups"', 'en = "Speed\\ncups"'),
     r"\[name\] en 'Speed\\ncups' is not valid: use one line of 1 to 32 characters"),
    (GOOD.replace('en = "Speed cups"', 'en = "  "'), r"\[name\] en '  ' is not valid: use one line"),
    (GOOD.replace('en = "Stack the cups, then press."', "en = 3"), r"\[screen\] en 3 is not valid: use one line of 1 to "
                                                                    r"120 characters"),
    (GOOD + "[extra]\n", r"has unknown key 'extra'"),
    ("min-players = \n", r"is not valid TOML \(.*\): fix the syntax"),
    ("min-players = 2\nmin-players = 3\n", r"is not valid TOML"),
    ("min-players = " + "9" * 30 + "\n", r"has a 30-digit number at min-players: use at most 20 digits"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_a_malformed_cafe_preset_is_named_and_the_others_load(tmp_path: Path, text: str, message: str) -> None:
    write(tmp_path, "broken.toml", text)
    write(tmp_path, "cups.toml", GOOD)
    presets = load_presets([tmp_path])
    assert "cups" in presets.ids and "broken" not in presets.ids and set(SHIPPED) <= set(presets.ids)
    (notice,) = presets.notices
    assert notice.startswith("referee preset '") and "broken.toml'" in notice
    assert "\n" not in notice and len(notice) <= 200
    with pytest.raises(BadPreset, match=message):
        read_preset(tmp_path / "broken.toml")


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(GOOD.replace("Speed cups", "Caf\xe9").encode("latin-1"))
    with pytest.raises(BadPreset, match=r"latin.toml' is not UTF-8 text \(byte 0xe9 at offset \d+\): save it as UTF-8"):
        read_preset(path)


def test_a_file_too_large_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, "huge.toml", GOOD + "#" * (16 * 1024))
    with pytest.raises(BadPreset, match=r"huge.toml' is larger than 16 KiB, the most it may hold"):
        read_preset(path)


@pytest.mark.parametrize(("name", "message"), [
    ("Speed Cups.toml", r"id 'Speed Cups' is not valid: name the file with 1 to 32 lower-case letters"),
    ("-cups.toml", r"id '-cups' is not valid"),
    ("quiz.toml", r"preset id 'quiz' is taken by 'cheating-moth referee quiz': name the file otherwise"),
])
def test_a_file_name_that_cannot_be_an_id_is_named(tmp_path: Path, name: str, message: str) -> None:
    write(tmp_path, name, GOOD)
    with pytest.raises(BadPreset, match=message):
        read_preset(tmp_path / name)
    assert len(load_presets([tmp_path]).notices) == 1


def test_a_preset_built_in_code_is_checked_too() -> None:
    p = load_presets().get("grab")
    fields = {f: getattr(p, f) for f in Preset.__slots__}
    with pytest.raises(BadPreset, match=r"preset 'grab': outcome 'first-wins' is not valid: use 'first-wins' or"):
        Preset(**{**fields, "outcome": "first-wins"})
    with pytest.raises(BadPreset, match=r"preset 'grab': name texts \{'en': 'Grab'\} are not valid: use \(language, "
                                        r"text\) pairs"):
        Preset(**{**fields, "names": {"en": "Grab"}})
