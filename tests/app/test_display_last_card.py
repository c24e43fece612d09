"""The play screen's "That was my last card" toggle (issue 12 point 8): it fits in every language
and size, is a touch target of at least 48 px at 800×480, makes the next card tapped a last-card
play (then turns itself off), has a key (K), and is greyed out for a guard who cannot have
cheated and absent during a spider's gift."""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from display_helpers import SIZES, fonts, scenes

from game.app.ui import theme
from game.app.ui.actions import Act
from game.app.ui.common import Scene
from game.app.ui.console import Console
from game.app.ui.observe import observe
from game.app.ui.render import Frame, draw
from game.app.ui.screen_name import screen_of
from game.app.ui.state import UiState
from game.cards import Card, Kind
from game.controller import Stage, Step, Table
from game.controller import inputs as console
from game.i18n import LANGUAGES

NOW = 987_654_321


@pytest.fixture(autouse=True)
def screen() -> pygame.Surface:
    pygame.display.init()
    return pygame.display.set_mode((800, 480))


def _draw(table: Table, ui: UiState, size: tuple[int, int] = (800, 480), lang: str = "en") -> Frame:
    scene = scenes()["play"]
    return draw(pygame.Surface(size), fonts(lang), Scene(table, ui, scene.now_ns), lang=lang)


def _toggles(frame: Frame) -> list[pygame.Rect]:
    return [s.rect for s in frame.hotspots if s.act.kind == "last_card"]


def _tap(con: Console, frame: Frame, table: Table, kind: str, value: object = None) -> list[object]:
    spot = next(s for s in frame.hotspots if s.act.kind == kind and (value is None or s.act.value == value))
    x, y = spot.rect.center
    down = pygame.event.Event(pygame.FINGERDOWN, touch_id=1, finger_id=1, x=x / 800, y=y / 480,
                              dx=0.0, dy=0.0, pressure=1.0)
    return list(con.handle(down, frame, table))


def _play_table() -> Table:
    table = scenes()["play"].table
    g = table.game
    assert table.stage is Stage.PLAY and g.active != g.guard  # a player who may have cheated
    return table


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_toggle_and_its_hint_fit_in_every_language(lang: str, size: tuple[int, int]) -> None:
    min_px = round(theme.MIN_TEXT * theme.scale_of(*size))
    for on in (False, True):
        frame = _draw(_play_table(), UiState(lang=lang, last_card=on), size, lang)
        assert frame.overflows == (), (on, frame.overflows)
        assert not [(t, px) for t, px in frame.texts if px < min_px * 0.9]
        assert len(_toggles(frame)) == 1
        assert any(text.startswith(("Now tap", "Tipp jetzt", "Touchez maintenant", "Toca ahora", "이제"))
                   for text, _ in frame.texts) is on


def test_the_toggle_is_a_touch_target_of_at_least_48_px_at_800x480() -> None:
    (rect,) = _toggles(_draw(_play_table(), UiState()))
    assert rect.width >= 48 and rect.height >= 48
    assert pygame.Rect(0, 0, 800, 480).contains(rect)


def test_toggle_then_card_is_a_last_card_play_and_the_toggle_turns_itself_off() -> None:
    table = _play_table()
    ui = UiState()
    con = Console(ui, lambda: NOW, "sim")
    frame = _draw(table, ui)
    assert _tap(con, frame, table, "last_card") == [] and ui.last_card
    frame = _draw(table, ui)
    (spot,) = [s for s in frame.hotspots if s.act.kind == "play"][:1]
    played = _tap(con, frame, table, "play", spot.act.value)
    assert played == [console.Play(spot.act.value, NOW, last_card=True)]
    assert not ui.last_card
    assert _tap(con, _draw(table, ui), table, "play", spot.act.value) == [console.Play(spot.act.value, NOW)]


def test_tapping_the_toggle_twice_turns_it_off() -> None:
    table = _play_table()
    ui = UiState()
    con = Console(ui, lambda: NOW, "sim")
    _tap(con, _draw(table, ui), table, "last_card")
    _tap(con, _draw(table, ui), table, "last_card")
    assert not ui.last_card


def test_k_then_a_card_by_keys_is_a_last_card_play() -> None:
    table = _play_table()
    ui = UiState()
    con = Console(ui, lambda: NOW, "sim")
    def key(k: int) -> list[object]:
        at = Frame(screen_of(Scene(table, ui, NOW)), (), (), ())   # the screen on the glass
        return list(con.handle(pygame.event.Event(pygame.KEYDOWN, key=k), at, table))

    assert key(pygame.K_k) == [] and ui.last_card
    key(pygame.K_3)
    assert key(pygame.K_a) == [console.Play(Card(Kind.ANT, 3), NOW, last_card=True)]
    assert not ui.last_card


def test_a_draw_turns_the_toggle_off_too() -> None:
    table = _play_table()
    ui = UiState(last_card=True)
    con = Console(ui, lambda: NOW, "sim")
    assert _tap(con, _draw(table, ui), table, "draw") == [console.Draw(NOW)]
    assert not ui.last_card


def test_the_toggle_is_off_when_the_turn_passes_by_a_button_press() -> None:
    table = _play_table()
    ui = UiState(last_card=True)
    next_turn = dataclasses.replace(table, game=dataclasses.replace(table.game, active=(table.game.active + 1) % 4))
    observe(ui, table, Step(next_turn, (), (), ()), NOW)
    assert not ui.last_card


def test_a_guard_who_held_the_guard_bug_all_round_gets_no_toggle() -> None:
    table = _play_table()
    guard_turn = dataclasses.replace(
        table, game=dataclasses.replace(table.game, guard=table.game.active, guard_changed=False))
    ui = UiState(last_card=True)
    frame = _draw(guard_turn, ui)
    assert _toggles(frame) == []
    assert "That was my last card" in [t for t, _ in frame.texts]  # shown greyed, not hidden
    caught_guard = dataclasses.replace(guard_turn, game=dataclasses.replace(guard_turn.game, guard_changed=True))
    assert len(_toggles(_draw(caught_guard, UiState()))) == 1
    con = Console(UiState(), lambda: NOW, "sim")
    con.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k), Frame("play", (), (), ()), guard_turn)
    assert not con.ui.last_card  # nor by the keyboard
    con.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k), Frame("play", (), (), ()), caught_guard)
    assert con.ui.last_card


def test_no_toggle_during_a_spiders_gift() -> None:
    scene = scenes()["spider"]
    frame = draw(pygame.Surface((800, 480)), fonts("en"), Scene(scene.table, UiState(), scene.now_ns))
    assert _toggles(frame) == [] and "That was my last card" not in [t for t, _ in frame.texts]
    con = Console(UiState(), lambda: NOW, "sim")
    con.perform(Act("last_card"), scene.table)
    assert not con.ui.last_card
