"""The name keyboard of the join screen: its keys, what they type (Latin capitalised by word,
Hangul composed), OK sending the name as a controller input and staying up when the table will
refuse it, Skip, a physical keyboard typing instead of pressing seats, and the join screen's
count said once and its hold-to-start bar."""

from __future__ import annotations

import copy
import dataclasses

import pygame
import pytest
from display_helpers import fonts, name_scenes, scenes

from game.app.ui import keyboard
from game.app.ui.actions import Act
from game.app.ui.common import Scene
from game.app.ui.console import Console
from game.app.ui.fonts import VENDORED_HANGUL, latin_font, missing_glyphs
from game.app.ui.observe import observe
from game.app.ui.render import Frame, draw
from game.controller import Stage, step
from game.controller import inputs as console
from game.controller.names import MAX_NAME, allowed
from game.i18n import LANGUAGES
from game.i18n.lookup import render, text
from game.messages import Message

NOW = 123_456_789


@pytest.fixture(autouse=True)
def screen() -> pygame.Surface:
    pygame.display.init()
    return pygame.display.set_mode((800, 480))


def _draw(scene: Scene, lang: str = "en", size: tuple[int, int] = (800, 480)) -> Frame:
    return draw(pygame.Surface(size), fonts(lang), scene, lang)


def _tap(con: Console, scene: Scene, kind: str, value: object = None) -> list[object]:
    """Tap the hotspot of act ``kind`` (and ``value``) on the screen ``scene`` shows now."""
    frame = _draw(scene)
    for spot in frame.hotspots:
        if spot.act.kind == kind and (value is None or spot.act.value == value):
            return con.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1),
                              frame, scene.table)
    raise AssertionError(f"no {kind} {value!r} on {frame.screen}")


@pytest.fixture
def join() -> tuple[Console, Scene]:
    base = scenes()["join"]
    ui = copy.deepcopy(base.ui)
    ui.notices.clear()
    return Console(ui, lambda: NOW, "sim"), Scene(base.table, ui, base.now_ns)


# --- the keys ---------------------------------------------------------------------------------

def test_rows_fit_a_finger_in_landscape_and_portrait() -> None:
    for layout in keyboard.LAYOUTS:
        assert max(len(row) for row in keyboard.rows(layout, portrait=False)) <= 14
        assert max(len(row) for row in keyboard.rows(layout, portrait=True)) <= 10
        keys = "".join(keyboard.rows(layout, False))
        assert sorted(keys) == sorted("".join(keyboard.rows(layout, True)))   # the same keys
        assert all(allowed(k) for k in keys)
    latin = "".join(keyboard.rows("latin", False))
    assert set("ABCDEFGHIJKLMNOPQRSTUVWXYZéèêàâäöüßçñíóú0123456789-'") == set(latin)
    with pytest.raises(ValueError, match=r"keyboard layout 'dvorak' is unknown: use one of latin, hangul"):
        keyboard.rows("dvorak", False)


def test_letters_are_capitals_at_a_words_start_and_the_case_key_flips_the_next() -> None:
    typed = ""
    for key in "JEAN-LUC":
        typed = keyboard.press(typed, key, shift=False)
    assert typed == "Jean-Luc"
    assert keyboard.press("Mc", "K", shift=True) == "McK"
    assert keyboard.press("", "é", shift=True) == "é"        # shifted at a word's start: small
    assert keyboard.press("", "ß", shift=False) == "ß"       # no one-letter capital
    assert keyboard.shown("A", "Zo", False) == "a" and keyboard.shown("A", "Zo ", False) == "A"


def test_a_full_name_takes_no_more_letters_but_a_syllable_still_composes() -> None:
    full = "x" * (MAX_NAME - 1) + "가"
    assert keyboard.press(full, "Q", False) == full
    assert keyboard.press(full, "ㄴ", False) == "x" * (MAX_NAME - 1) + "간"
    assert keyboard.typed("Anna", "-Maria Magdalena") == "Anna-Maria Magda"


def test_every_key_and_every_letter_a_name_may_have_is_in_the_fonts() -> None:
    pygame.font.init()
    keys = "".join("".join(keyboard.rows(layout, False)) for layout in keyboard.LAYOUTS)
    latin = "".join(chr(c) for c in range(0x20, 0x250) if allowed(chr(c)))
    hangul = "".join(chr(c) for c in range(0x3131, 0xD7A4) if allowed(chr(c)))
    both = keys + latin + hangul
    # Each character is drawn by the language's font or the other one (fonts.fonts_for).
    assert set(missing_glyphs(latin_font(), both)) & set(missing_glyphs(VENDORED_HANGUL, both)) == set()
    assert len(hangul) == 2_350 + 51


# --- the console ----------------------------------------------------------------------------

def test_typing_a_name_on_screen_sends_it_and_the_table_takes_it(join: tuple[Console, Scene]) -> None:
    con, scene = join
    seat = scene.table.seated[1]
    assert _tap(con, scene, "keyboard", seat) == []
    assert _draw(scene).screen == "keyboard" and con.ui.keyboard_layout == "latin"
    for key in ("Z", "O", "é"):
        assert _tap(con, scene, "key", key) == []
    assert con.ui.keyboard_text == "Zoé"
    _tap(con, scene, "key_delete")
    _tap(con, scene, "key", "E")
    sent = _tap(con, scene, "key_ok")
    assert sent == [console.Name(seat, "Zoe", NOW)] and con.ui.keyboard_seat is None
    made = step(scene.table, sent[0])  # type: ignore[arg-type]
    assert made.table.seat_name(seat) == "Zoe"
    assert any(t.startswith("Zoe") for t, _ in _draw(Scene(made.table, con.ui, scene.now_ns)).texts)


def test_hangul_is_typed_jamo_by_jamo(join: tuple[Console, Scene]) -> None:
    con, scene = join
    con.ui.lang = "ko"
    seat = scene.table.seated[0]
    _tap(con, scene, "keyboard", seat)
    assert con.ui.keyboard_layout == "hangul"
    for jamo in "ㅎㅏㄴㄱㅡㄹ":
        _tap(con, scene, "key", jamo)
    assert con.ui.keyboard_text == "한글"
    _tap(con, scene, "key_delete")
    assert con.ui.keyboard_text == "한그"
    _tap(con, scene, "key_layout")
    assert con.ui.keyboard_layout == "latin" and "key" in {s.act.kind for s in _draw(scene).hotspots}


def test_a_name_the_table_will_refuse_keeps_the_keyboard_up(join: tuple[Console, Scene]) -> None:
    con, scene = join
    seat = scene.table.seated[1]
    _tap(con, scene, "keyboard", seat)
    other = scene.table.seat_name(scene.table.seated[0])
    con.ui.keyboard_text = other.upper()
    assert _tap(con, scene, "key_ok") == [console.Name(seat, other.upper(), NOW)]
    assert con.ui.keyboard_seat == seat                  # still typing, the text kept to mend
    made = step(scene.table, console.Name(seat, other.upper(), NOW))
    assert made.table.names == scene.table.names


def test_skip_keeps_the_seats_name_and_takes_back_a_typed_one(join: tuple[Console, Scene]) -> None:
    con, scene = join
    seat = scene.table.seated[2]
    _tap(con, scene, "keyboard", seat)
    assert _tap(con, scene, "key_skip") == [] and con.ui.keyboard_seat is None
    named = Scene(dataclasses.replace(scene.table, names=((seat, "Kim"),)), con.ui, scene.now_ns)
    _tap(con, named, "keyboard", seat)
    assert con.ui.keyboard_text == "Kim"                  # the typed name, to mend
    assert _tap(con, named, "key_skip") == [console.Name(seat, None, NOW)]


def test_a_physical_keyboard_types_instead_of_pressing_seats(join: tuple[Console, Scene]) -> None:
    con, scene = join
    seat = scene.table.seated[0]
    _tap(con, scene, "keyboard", seat)
    frame = _draw(scene)
    q = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0, unicode="q")
    assert con.handle(q, frame, scene.table) == []       # Q is seat 1's key: not a press now
    con.handle(pygame.event.Event(pygame.TEXTINPUT, text="Mé"), frame, scene.table)
    con.handle(pygame.event.Event(pygame.TEXTINPUT, text="lanie"), frame, scene.table)
    back = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="")
    con.handle(back, frame, scene.table)
    assert con.ui.keyboard_text == "Mélani"
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
    assert con.handle(enter, frame, scene.table) == [console.Name(seat, "Mélani", NOW)]
    # Closed: Q presses seat 1 again, and text typed goes nowhere.
    assert con.handle(pygame.event.Event(pygame.TEXTINPUT, text="x"), frame, scene.table) == []
    assert con.ui.keyboard_text == "Mélani"
    assert [type(i).__name__ for i in con.handle(q, frame, scene.table)] == ["Press"]


def test_escape_closes_the_keyboard_without_a_name(join: tuple[Console, Scene]) -> None:
    con, scene = join
    _tap(con, scene, "keyboard", scene.table.seated[0])
    con.ui.keyboard_text = "Abc"
    esc = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")
    assert con.handle(esc, _draw(scene), scene.table) == []
    assert con.ui.keyboard_seat is None and not con.quit and _draw(scene).screen == "join"


def test_the_keyboard_closes_when_the_game_starts(join: tuple[Console, Scene]) -> None:
    con, scene = join
    _tap(con, scene, "keyboard", scene.table.seated[0])
    table = scene.table
    for event in (console.StartGame(NOW), ):
        made = step(table, event)
        observe(con.ui, table, made, NOW)
        table = made.table
    assert table.stage is Stage.OLDEST and con.ui.keyboard_seat is not None   # names until the oldest
    made = step(table, console.Name(table.seated[1], None, NOW))
    from game.inputs import Press, Release

    for event in (Press(table.seated[0], NOW + 1, "sim"), Release(table.seated[0], NOW + 2, "sim")):
        made = step(table, event)
        observe(con.ui, table, made, NOW)
        table = made.table
    assert table.stage is Stage.DEAL and con.ui.keyboard_seat is None


# --- the join screen ---------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_join_screen_says_how_many_sit_once(lang: str) -> None:
    scene = scenes()["join"]
    count = text(lang, "ui_seated", count=scene.table.players)
    assert [t for t, _ in _draw(scene, lang).texts].count(count) == 1
    # The footer's instruction no longer counts too ("(4 seated)" said it a second time).
    assert render(Message.of("join", count=0), lang) == render(Message.of("join", count=4), lang)


def test_a_held_seat_button_fills_a_bar_towards_the_start() -> None:
    held = name_scenes()["join-held"]
    texts = [t for t, _ in _draw(held).texts]
    assert "Hold to start…" in texts and f"{held.table.players} seated" not in texts
    t = held.table
    seat, _ = t.held[0]
    tap = dataclasses.replace(t, held=((seat, held.now_ns - 100_000_000),))    # a tap, not a hold
    assert "Hold to start…" not in [x for x, _ in _draw(Scene(tap, held.ui, held.now_ns)).texts]
    used = dataclasses.replace(t, consumed=(seat,))                            # the game started
    assert "Hold to start…" not in [x for x, _ in _draw(Scene(used, held.ui, held.now_ns)).texts]
    # The bar's green grows with the hold: more of the bar's row is green at 700 ms than at 300.
    greens = []
    for ms in (300, 700):
        surface = pygame.Surface((800, 480))
        scene = Scene(dataclasses.replace(t, held=((seat, held.now_ns - ms * 1_000_000),)), held.ui, held.now_ns)
        draw(surface, fonts("en"), scene, "en")
        greens.append(sum(1 for x in range(0, 400) for y in range(300, 400)
                          if surface.get_at((x, y))[:3] == (70, 200, 110)))
    assert 0 < greens[0] < greens[1]


def _press(con: Console, scene: Scene, key: int, lang: str) -> list[object]:
    frame = draw(pygame.Surface((800, 480)), fonts(lang), scene, lang)
    return con.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""), frame, scene.table)


def test_the_keyboard_opens_on_hangul_when_the_table_speaks_korean(join: tuple[Console, Scene]) -> None:
    # Issue 22: the name keyboard opened on the Latin layout in Korean. The language chosen
    # with L on the join screen, then the seat's name button tapped on the Korean screen.
    con, scene = join
    while con.ui.lang != "ko":
        _press(con, scene, pygame.K_l, con.ui.lang)
    seat = scene.table.seated[0]
    frame = draw(pygame.Surface((800, 480)), fonts("ko"), scene, "ko")
    spot = next(s for s in frame.hotspots if s.act.kind == "keyboard" and s.act.value == seat)
    con.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1), frame, scene.table)
    assert con.ui.keyboard_seat == seat and con.ui.keyboard_layout == "hangul"
    shown = draw(pygame.Surface((800, 480)), fonts("ko"), scene, "ko")
    keys = {s.act.value for s in shown.hotspots if s.act.kind == "key"}
    assert "ㅎ" in keys and "A" not in keys and "a" not in keys
    # And back in another language, it opens on Latin again.
    _press(con, scene, pygame.K_ESCAPE, "ko")
    assert con.ui.keyboard_seat is None
    while con.ui.lang != "en":
        _press(con, scene, pygame.K_l, con.ui.lang)
    _tap(con, scene, "keyboard", seat)
    assert con.ui.keyboard_layout == "latin"


def test_the_keyboard_turns_to_the_new_languages_layout_when_the_language_changes(join: tuple[Console, Scene]) -> None:
    con, scene = join
    seat = scene.table.seated[0]
    _tap(con, scene, "keyboard", seat)
    assert con.ui.keyboard_layout == "latin"
    # The settings' language button (the settings can open over the keyboard) performs this.
    con.perform(Act("lang", "ko"), scene.table)
    assert con.ui.keyboard_layout == "hangul" and con.ui.keyboard_seat == seat
    _tap(con, scene, "key_layout")                     # the player's own choice stands...
    assert con.ui.keyboard_layout == "latin"
    con.perform(Act("lang", "ko"), scene.table)
    assert con.ui.keyboard_layout == "latin"           # ...until the language really changes
