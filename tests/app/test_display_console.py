"""The console: a touch tap reaches the controller (FINGERDOWN → the right input), the mouse
event SDL synthesises from that touch is ignored, a real mouse click counts, keyboard seats press
and release like buttons, and the shortcuts cover the console's taps."""

from __future__ import annotations

import pygame
import pytest
from display_helpers import fonts, scenes

from game.app.ui.common import Scene
from game.app.ui.console import Console, next_rules
from game.app.ui.render import Frame, draw
from game.app.ui.screen_name import screen_of
from game.app.ui.state import UiState
from game.cards import Card, Kind
from game.controller import Stage, Table
from game.controller import inputs as console
from game.inputs import CaughtPress, CaughtRelease, Press, Release
from game.variants import GuardNextRound, Rules

NOW = 123_456_789


@pytest.fixture(autouse=True)
def screen() -> pygame.Surface:
    pygame.display.init()
    return pygame.display.set_mode((800, 480))


def _surface() -> pygame.Surface:
    surface = pygame.display.get_surface()
    assert surface is not None
    return surface


def _setup(name: str) -> tuple[Console, Frame, Table]:
    scene = scenes()[name]
    ui = UiState()
    frame = draw(_surface(), fonts("en"), type(scene)(scene.table, ui, scene.now_ns))
    return Console(ui, lambda: NOW, "sim"), frame, scene.table


def _finger(kind: int, pos: tuple[int, int], finger: int = 1) -> pygame.event.Event:
    return pygame.event.Event(kind, touch_id=1, finger_id=finger, x=pos[0] / 800, y=pos[1] / 480,
                              dx=0.0, dy=0.0, pressure=1.0)


def _spot(frame: Frame, kind: str, value: object = None) -> tuple[int, int]:
    for spot in frame.hotspots:
        if spot.act.kind == kind and (value is None or spot.act.value == value):
            return spot.rect.center
    raise AssertionError(f"no {kind} {value} on {frame.screen}")


def test_a_touch_tap_reaches_the_console_and_the_synthesised_mouse_event_is_ignored() -> None:
    con, frame, table = _setup("join")
    start = _spot(frame, "start")
    assert con.handle(_finger(pygame.FINGERDOWN, start), frame, table) == [console.StartGame(NOW)]
    synthesised = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=True)
    assert con.handle(synthesised, frame, table) == []
    assert con.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=start, button=1, touch=True), frame, table) == []
    mouse = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=False)
    assert con.handle(mouse, frame, table) == [console.StartGame(NOW)]


def test_touching_a_seat_tile_presses_and_lifting_the_finger_releases_it() -> None:
    con, frame, table = _setup("join")
    tile = _spot(frame, "seat", 4)
    assert con.handle(_finger(pygame.FINGERDOWN, tile, finger=7), frame, table) == [Press(4, NOW, "sim")]
    assert con.handle(_finger(pygame.FINGERUP, tile, finger=7), frame, table) == [Release(4, NOW, "sim")]
    assert con.handle(_finger(pygame.FINGERUP, tile, finger=7), frame, table) == []


def test_tapping_a_card_plays_it_and_tapping_nothing_does_nothing() -> None:
    con, frame, table = _setup("play")
    play = next(s for s in frame.hotspots if s.act.kind == "play")
    assert isinstance(play.act.value, Card)
    assert con.handle(_finger(pygame.FINGERDOWN, play.rect.center), frame, table) == [console.Play(play.act.value, NOW)]
    assert con.handle(_finger(pygame.FINGERDOWN, (2, 470)), frame, table) == []
    assert con.handle(_finger(pygame.FINGERDOWN, _spot(frame, "caught")), frame, table) == [
        console.CallCaught(table.game.guard, NOW)]


def _key(con: Console, table: Table, key: int, up: bool = False) -> list[object]:
    # The key is pressed at the screen the table and the console's state show.
    frame = Frame(screen_of(Scene(table, con.ui, NOW)), (), (), ())
    return list(con.handle(pygame.event.Event(pygame.KEYUP if up else pygame.KEYDOWN, key=key), frame, table))


def test_keyboard_seats_press_and_release_like_buttons() -> None:
    con, _, table = _setup("join")
    assert con.ui.seat_keys == ("Q", "T", "P", "Z", "B")
    for seat, key in enumerate((pygame.K_q, pygame.K_t, pygame.K_p, pygame.K_z, pygame.K_b)):
        assert _key(con, table, key) == [Press(seat, NOW, "sim")]
        assert _key(con, table, key, up=True) == [Release(seat, NOW, "sim")]
    assert _key(con, table, pygame.K_SPACE) == [CaughtPress(NOW, "sim")]
    assert _key(con, table, pygame.K_SPACE, up=True) == [CaughtRelease(NOW, "sim")]
    assert _key(con, table, pygame.K_RETURN) == [console.StartGame(NOW)]


def test_keys_name_cards_per_stage() -> None:
    con, _, play = _setup("play")
    assert _key(con, play, pygame.K_3) == [] and con.ui.pending_number == 3
    assert _key(con, play, pygame.K_a) == [console.Play(Card(Kind.ANT, 3), NOW)]
    assert _key(con, play, pygame.K_a) == []  # no number pending
    _key(con, play, pygame.K_4)
    assert _key(con, play, pygame.K_RETURN) == [console.Play(Card(Kind.NUMBER, 4), NOW)]
    assert _key(con, play, pygame.K_d) == [console.Draw(NOW)]
    assert _key(con, play, pygame.K_u) == [console.UndoLast(NOW)]
    assert _key(con, play, pygame.K_e) == []
    assert _key(con, play, pygame.K_2) == [] and con.ui.out_confirm == 1   # asked first
    assert _key(con, play, pygame.K_RETURN) == [console.Out(1, NOW)]
    con, _, deal = _setup("deal")
    _key(con, deal, pygame.K_5)
    assert _key(con, deal, pygame.K_m) == [console.Starter(Card(Kind.MOTH, 5), NOW)]
    con, _, race = _setup("race-card")
    _key(con, race, pygame.K_2)
    assert _key(con, race, pygame.K_o) == [console.Laid(Card(Kind.MOSQUITO, 2), NOW)]
    assert _key(con, race, pygame.K_v) == [console.Void(NOW)]
    assert _key(con, race, pygame.K_x) == [console.Cancel(NOW, take_back=True)]


def test_keys_for_disputes_spider_and_game_over() -> None:
    con, _, pick = _setup("pick")
    assert _key(con, pick, pygame.K_2) == [console.Accuse(1, NOW)]
    con, _, vote = _setup("vote")
    assert _key(con, vote, pygame.K_g) == [console.Rule(True, NOW)]
    assert _key(con, vote, pygame.K_i) == [console.Rule(False, NOW)]
    con, _, spider = _setup("spider")
    assert _key(con, spider, pygame.K_0) == [console.GiveTo(None, NOW)]
    assert _key(con, spider, pygame.K_3) == [console.GiveTo(2, NOW)]
    con, _, over = _setup("game-over")
    assert _key(con, over, pygame.K_RETURN) == [console.NewGame(NOW)]


def test_penalty_entry_by_keys_and_by_touch() -> None:
    con, frame, table = _setup("penalty")
    assert table.stage is Stage.PENALTY
    row = next(q for q, e in enumerate(table.game.entries) if e is None)
    con.ui.penalty_row = row
    _key(con, table, pygame.K_RIGHT)            # actions
    _key(con, table, pygame.K_PLUS)
    _key(con, table, pygame.K_RIGHT)            # numbers
    _key(con, table, pygame.K_2)
    assert _key(con, table, pygame.K_RETURN) == [console.Penalty(row, 0, 1, 2, NOW)]
    con, frame, table = _setup("penalty")
    plus = _spot(frame, "penalty_add", (row, 0, 1))
    assert con.handle(_finger(pygame.FINGERDOWN, plus), frame, table) == []
    assert con.ui.form(row) == [1, 0, 0]
    ok = _spot(frame, "penalty_ok", row)
    assert con.handle(_finger(pygame.FINGERDOWN, ok), frame, table) == [console.Penalty(row, 1, 0, 0, NOW)]


def test_settings_language_and_house_rules() -> None:
    con, frame, table = _setup("join")
    _key(con, table, pygame.K_F1)
    assert con.ui.settings_open
    _key(con, table, pygame.K_l)
    assert con.ui.lang == "de"
    frame = draw(_surface(), fonts("de"), type(scenes()["join"])(table, con.ui, NOW))
    assert frame.screen == "settings"
    made = con.handle(_finger(pygame.FINGERDOWN, _spot(frame, "variant", "guard_next_round")), frame, table)
    assert made == [console.Configure(Rules(guard_next_round=GuardNextRound.KEEP), NOW)]
    con.handle(_finger(pygame.FINGERDOWN, _spot(frame, "lang", "ko")), frame, table)
    assert con.ui.lang == "ko"
    _key(con, table, pygame.K_ESCAPE)
    assert not con.ui.settings_open and not con.quit
    _key(con, table, pygame.K_ESCAPE)               # a game is being played: asked first
    assert con.ui.quit_ask and not con.quit
    _key(con, table, pygame.K_RETURN)               # "Leave"
    assert con.quit


def test_next_rules_refuses_an_unknown_variant() -> None:
    with pytest.raises(ValueError, match=r"variant 'deck' is not a house rule: use one of guard_next_round"):
        next_rules(Rules(), "deck")
