"""The start signal has one word per language, and every sentence that names it uses that word.

Referee mode once told players to wait for "GO" and then flashed "LOS!" (German), "시작!"
(Korean): a player waiting for the word they were told missed the one shown. Project decision:
each language uses its own word for the signal, the same in the flash and in every instruction,
in the card game and in referee mode. This test reads the catalogs only, so it holds whichever
word a language's translator chooses.
"""

from __future__ import annotations

import re

import pytest

from game.i18n import LANGUAGES
from game.i18n.lookup import catalog, render
from game.messages import Message
from game.referee.presets import load_presets

#: What is flashed when the signal comes: the card game's controller message, the card game's
#: screen, the referee's race screen.
FLASH_KEYS = ("race_go", "ui_go", "ref_go")

# An English entry names the signal when it says GO in capitals ("until GO", "ms after GO");
# "Go when the table's signal comes" is the verb, not the signal.
_NAMES_THE_SIGNAL = re.compile(r"\bGO\b")


def _word(flash: str) -> str:
    """"LOS!" -> "LOS", "¡YA!" -> "YA", "출발!" -> "출발", "TOP !" -> "TOP"."""
    return flash.strip(" \u00a0\u202f!¡.")


def _signal_keys() -> list[str]:
    english = catalog("en")
    return sorted(key for key, entry in english.items()
                  if key not in FLASH_KEYS and _NAMES_THE_SIGNAL.search(entry))


def _names(entry: str, word: str) -> bool:
    # Hangul takes its particle without a space ("출발에"), so a Korean word is found as a
    # substring; a Latin word must stand alone ("LOS", not "lose"), in any case ("au top").
    if not word.isascii():
        return word.casefold() in entry.casefold()
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", entry, re.IGNORECASE) is not None


def test_the_english_catalog_names_the_signal_where_expected() -> None:
    # If this list shrank to nothing the test below would pass without checking anything.
    keys = _signal_keys()
    assert {"race_ready", "ui_hands_off", "ui_axis", "race_ready_slap", "ui_reactions",
            "ref_race_go_failed"} <= set(keys)
    assert "ref_table_go" not in keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_flash_shows_one_word(lang: str) -> None:
    table = catalog(lang)
    flashes = {key: table[key] for key in FLASH_KEYS}
    assert len({_word(flash) for flash in flashes.values()}) == 1, flashes
    assert _word(flashes["ui_go"]), flashes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_instruction_names_the_signal_by_the_flashed_word(lang: str) -> None:
    table = catalog(lang)
    word = _word(table["ui_go"])
    missing = {key: table[key] for key in _signal_keys() if not _names(table[key], word)}
    assert missing == {}, f"{lang}: these name the signal without {word!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_leftover_english_go_where_the_word_is_another(lang: str) -> None:
    table = catalog(lang)
    word = _word(table["ui_go"])
    if word.casefold() == "go":
        pytest.skip(f"{lang} shows GO itself")
    stray = {key: entry for key, entry in table.items() if _NAMES_THE_SIGNAL.search(entry)}
    assert stray == {}, f"{lang} flashes {word!r} but these still say GO"


# --- the shipped referee presets ---------------------------------------------------------------
# A preset's sentence comes from its TOML file, not the catalog, and is shown on the race screen
# right above the flash: "Drück bei GO" above "LOS!" was the bug this file was written for.


def _preset_signal_lines() -> list[tuple[str, dict[str, str]]]:
    """(preset id, its screen line by language) for each shipped preset whose English line
    names the signal."""
    shipped = load_presets()
    assert shipped.notices == ()
    return [(p.id, dict(p.screens)) for p in shipped.presets if _NAMES_THE_SIGNAL.search(p.screen("en"))]


def test_the_shipped_presets_name_the_signal_where_expected() -> None:
    # The bell slap's signal is the table's (a match shows): its line names no flash.
    assert {preset for preset, _ in _preset_signal_lines()} == {"duel", "grab", "last-hand-down"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_preset_line_names_the_signal_by_the_flashed_word(lang: str) -> None:
    word = _word(catalog(lang)["ref_go"])
    # A line missing in a language would fall back to English's "GO": it counts as missing.
    lines = {preset: screens.get(lang, "") for preset, screens in _preset_signal_lines()}
    missing = {preset: line for preset, line in lines.items() if not _names(line, word)}
    assert missing == {}, f"{lang}: these presets name the signal without {word!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_shipped_preset_says_go_where_the_word_is_another(lang: str) -> None:
    word = _word(catalog(lang)["ref_go"])
    if word.casefold() == "go":
        pytest.skip(f"{lang} shows GO itself")
    stray = {p.id: text for p in load_presets().presets for texts in (p.names, p.screens)
             for language, text in texts if language == lang and _NAMES_THE_SIGNAL.search(text)}
    assert stray == {}, f"{lang} flashes {word!r} but these presets still say GO"


# --- a GO that comes at the wrong moment --------------------------------------------------------
# The controller says ignored_input with what="GO" (game/controller/races.py); the sentence
# names the signal, so it names it as the screen flashes it.


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_ignored_go_is_named_by_the_flashed_word(lang: str) -> None:
    word = _word(catalog(lang)["ui_go"])
    said = render(Message.of("ignored_input", what="GO"), lang)
    assert _names(said, word), said
    if word.casefold() != "go":
        assert not _NAMES_THE_SIGNAL.search(said), said
    # As the style sheets name the signal in a sentence (a noun; Spanish keeps its marks: a
    # bare "YA no sirve" reads "no longer works").
    expected = {"en": "Ignored: GO is not used", "de": "Ignoriert: das LOS wird", "fr": "Ignoré : le TOP ne sert",
                "es": "Ignorado: el ¡YA! no sirve", "ko": "지금은 출발 신호를 쓸 수"}[lang]
    assert expected in said.replace("\u00a0", " ").replace("\u202f", " "), said
