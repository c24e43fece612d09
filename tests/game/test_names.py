"""Players' own names: what a name may be, a name typed at the join screen as a controller
input, refusals that name the bad value and change nothing, and a resumed table keeping them."""

from __future__ import annotations

import pytest
from table_helpers import Rig

from game.codec import dumps, loads
from game.controller import Notice, PlaySound, Stage, TableSettings
from game.controller import inputs as console
from game.controller.inputs import INPUT_TYPES
from game.controller.names import MAX_NAME, normalize, refusal
from game.controller.resume import LoggedStep, resume
from game.i18n.lookup import render
from game.inputs import Press, Release

INPUTS = {t.__name__: t for t in INPUT_TYPES}


def sounds(rig: Rig) -> list[str]:
    return [e.name for e in rig.effects if isinstance(e, PlaySound)]


def said(rig: Rig) -> list[str]:
    """The last step's notices, in English."""
    assert rig.last is not None
    return [e.message.render() for e in rig.last.effects if isinstance(e, Notice)]


def test_a_name_is_trimmed_composed_and_its_spaces_made_one() -> None:
    assert normalize("  Ana   María \t") == "Ana María"
    assert normalize("Rene\u0301") == "René"          # e + combining acute: one letter, é
    assert normalize("ㄱ") == "ㄱ"


@pytest.mark.parametrize("name", ["Zoë", "Łukasz", "Jean-Luc", "O'Brien", "민준", "Anna 2", "Straße", "ŒUF",
                                  "ㅋㅋ", "Ștefan", "x" * MAX_NAME])
def test_latin_with_accents_hangul_digits_space_hyphen_and_apostrophe_are_names(name: str) -> None:
    assert refusal(name, {}, "Ali") is None


@pytest.mark.parametrize("text, sentence", [
    ("", "The name is empty: type 1 to 16 characters, or tap Skip to stay Ali."),
    ("   ", "The name is empty: type 1 to 16 characters, or tap Skip to stay Ali."),
    ("Maximiliane Friederike", "“Maximiliane Friederike” has 22 characters: a name has 16 at most."),
    ("Bob\x07", "“Bob\x07” contains U+0007: a name has only letters, digits, spaces, hyphens and apostrophes."),
    ("Иван", "“Иван” contains И: a name has only letters, digits, spaces, hyphens and apostrophes."),
    ("a_b", "“a_b” contains _: a name has only letters, digits, spaces, hyphens and apostrophes."),
    ("Zoe\u200b", "“Zoe\u200b” contains U+200B: a name has only letters, digits, spaces, hyphens and apostrophes."),
    ("😀", "“😀” contains 😀: a name has only letters, digits, spaces, hyphens and apostrophes."),
    ("Ɓello", "“Ɓello” contains Ɓ: a name has only letters, digits, spaces, hyphens and apostrophes."),
    ("김똠", "“김똠” contains 똠: a name has only letters, digits, spaces, hyphens and apostrophes."),
])
def test_a_bad_name_is_refused_in_one_sentence_naming_it(text: str, sentence: str) -> None:
    problem = refusal(text, {}, "Ali")
    assert problem is not None and problem.render() == sentence


def test_a_name_taken_at_the_table_is_refused_without_regard_to_case() -> None:
    problem = refusal("  mARIA ", {"maria": "Maria"}, "Ali")
    assert problem is not None
    assert problem.render() == "Maria is already a name at this table: choose another one."


@pytest.mark.parametrize("lang", ["de", "fr", "es", "ko"])
def test_every_refusal_reads_in_every_language(lang: str) -> None:
    for text in ("", "x" * 20, "a_b"):
        problem = refusal(text, {}, "Dan")
        assert problem is not None
        sentence = render(problem, lang)
        assert "{" not in sentence and sentence != problem.render()
    assert "Dan으로" in render(refusal("", {}, "Dan"), "ko")  # type: ignore[arg-type]


# --- at the table ----------------------------------------------------------------------------

@pytest.fixture
def rig() -> Rig:
    r = Rig()
    for seat in (0, 1, 2):
        r.tap(seat)
    return r


def test_a_seated_player_types_a_name_used_everywhere_the_table_names_them(rig: Rig) -> None:
    rig.tap_console(console.Name, 1, "  Zoë ")
    assert rig.table.seat_name(1) == "Zoë" and rig.table.name(1) == "Zoë"
    rig.tap_console(console.StartGame)
    rig.tap(1)                                          # Zoë is the oldest: she guards round 1
    rig.starter("number 3")
    assert rig.table.game.guard == 1
    assert "Zoë" in rig.table.message.render()          # "Zoë's turn" or "Round 1: Zoë deals"


def test_a_name_can_be_typed_until_the_oldest_has_pressed(rig: Rig) -> None:
    rig.tap_console(console.StartGame)
    assert rig.stage is Stage.OLDEST
    rig.tap_console(console.Name, 2, "민준")
    assert rig.table.name(2) == "민준"
    rig.tap(0)
    rig.tap_console(console.Name, 0, "Lea")
    assert rig.table.name(0) == "Ali" and said(rig) == ["Ignored: name is not used now."]


def test_a_duplicate_is_refused_and_the_table_is_unchanged(rig: Rig) -> None:
    rig.tap_console(console.Name, 0, "Maria")
    before = rig.table
    rig.tap_console(console.Name, 1, "MARIA")
    assert said(rig) == ["Maria is already a name at this table: choose another one."]
    assert rig.table.names == before.names and rig.table.name(1) == "Bea"


def test_another_seats_default_name_is_taken_even_before_it_sits(rig: Rig) -> None:
    rig.tap_console(console.Name, 0, "eva")              # seat 4's default name
    assert said(rig) == ["Eva is already a name at this table: choose another one."]
    assert rig.table.name(0) == "Ali"


def test_a_bad_name_is_refused_with_a_sound_and_nothing_changes(rig: Rig) -> None:
    before = rig.table.names
    rig.tap_console(console.Name, 0, "x" * 17)
    assert said(rig) == ["“xxxxxxxxxxxxxxxxx” has 17 characters: a name has 16 at most."]
    assert rig.table.names == before and sounds(rig)[-1:] == ["refused"]


def test_an_empty_seat_cannot_take_a_name(rig: Rig) -> None:
    rig.tap_console(console.Name, 3, "Lea")
    assert said(rig) == ["Seat 4 is empty: take the seat before typing a name."]
    assert rig.table.names == ()


def test_skip_goes_back_to_the_seats_name_and_a_player_may_rename(rig: Rig) -> None:
    rig.tap_console(console.Name, 0, "Lea")
    rig.tap_console(console.Name, 0, "Leandra")
    assert rig.table.name(0) == "Leandra" and rig.table.names == ((0, "Leandra"),)
    rig.tap_console(console.Name, 0, None)
    assert rig.table.name(0) == "Ali" and rig.table.names == ()
    rig.tap_console(console.Name, 1, "bea")               # the seat's own name in other letters
    assert rig.table.name(1) == "bea"
    rig.tap_console(console.Name, 1, "Bea")               # the default again: nothing typed kept
    assert rig.table.names == ()


def test_names_stay_for_the_next_game(rig: Rig) -> None:
    rig.tap_console(console.Name, 2, "Kim")
    rig.tap_console(console.StartGame)
    rig.tap_console(console.NewGame)
    assert rig.stage is Stage.JOIN and rig.table.name(2) == "Kim"


def test_a_name_round_trips_through_the_codec_and_resumes() -> None:
    ms = 1_000_000
    inputs: list[object] = []
    for n, seat in enumerate((0, 1, 2)):
        inputs += [Press(seat, (2_000 + 500 * n) * ms, "test"), Release(seat, (2_100 + 500 * n) * ms, "test")]
    for n, (seat, text) in enumerate(((1, "Jean-Loïc O'Neil"), (2, "하늘"), (0, "하늘"), (0, None))):
        inputs.append(console.Name(seat, text, (4_000 + 500 * n) * ms))
    rig = Rig()
    for event in inputs:
        again = loads(dumps(event), INPUTS)          # as the table log writes and reads it
        assert again == event
        rig.feed(again)
    assert [rig.table.name(p) for p in range(3)] == ["Ali", "Jean-Loïc O'Neil", "하늘"]
    steps = [LoggedStep(e, (), ()) for e in inputs]  # type: ignore[arg-type]
    resumed = resume(TableSettings(seats=5, clock="test"), 7, 1_000 * ms, steps)
    assert resumed.names == rig.table.names == ((1, "Jean-Loïc O'Neil"), (2, "하늘"))
