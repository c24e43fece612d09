"""Issue 13 point 9.3: going out ends the round for everyone, so the out picker asks first
("Bea is out: end round 2? Yes / No"); only Yes sends the controller's Out."""

from __future__ import annotations

import copy

import pygame
import pytest
from display_helpers import fonts, scenes

from game.app.ui.common import Scene
from game.app.ui.console import Console
from game.app.ui.actions import Act
from game.app.ui.observe import observe
from game.app.ui.render import Frame, draw
from game.controller import inputs as console
from game.controller import step
from game.i18n import LANGUAGES

NOW = 123_456_789


@pytest.fixture(autouse=True)
def screen() -> pygame.Surface:
    pygame.display.init()
    return pygame.display.set_mode((800, 480))


def _scene() -> Scene:
    base = scenes()["out"]
    return Scene(base.table, copy.deepcopy(base.ui), base.now_ns)


def _frame(scene: Scene, lang: str = "en") -> Frame:
    surface = pygame.display.get_surface()
    assert surface is not None
    return draw(surface, fonts(lang), scene, lang)


def _texts(frame: Frame) -> list[str]:
    return [b.text for b in frame.boxes]


def test_tapping_a_name_asks_before_the_round_ends() -> None:
    scene = _scene()
    con = Console(scene.ui, lambda: NOW, "sim")
    t = scene.table
    assert con.perform(Act("out", 1), t) == []          # nothing reaches the controller yet
    frame = _frame(scene)
    question = f"{t.name(1)} is out: end round {t.game.round}?"
    assert question in _texts(frame)
    acts = {spot.act.kind for spot in frame.hotspots}
    assert {"out_yes", "out_no"} <= acts and "out" not in acts
    assert con.perform(Act("out_no"), t) == []           # No: back to the names
    assert scene.ui.out_menu and scene.ui.out_confirm is None
    assert "out" in {spot.act.kind for spot in _frame(scene).hotspots}
    con.perform(Act("out", 1), t)
    assert con.perform(Act("out_yes"), t) == [console.Out(1, NOW)]
    assert not scene.ui.out_menu and scene.ui.out_confirm is None


def test_a_name_not_at_the_table_is_not_asked_about() -> None:
    scene = _scene()
    con = Console(scene.ui, lambda: NOW, "sim")
    assert con.perform(Act("out", scene.table.players), scene.table) == []
    assert scene.ui.out_confirm is None
    assert con.perform(Act("out_yes"), scene.table) == []


def test_back_and_a_new_stage_forget_the_question() -> None:
    scene = _scene()
    con = Console(scene.ui, lambda: NOW, "sim")
    con.perform(Act("out", 0), scene.table)
    con.perform(Act("back"), scene.table)
    assert scene.ui.out_confirm is None and not scene.ui.out_menu
    con.perform(Act("out", 0), scene.table)
    caught = step(scene.table, console.CallCaught(scene.table.game.guard, scene.table.now_t_ns + 1))
    observe(scene.ui, scene.table, caught, scene.now_ns)
    assert caught.table.stage is not scene.table.stage and scene.ui.out_confirm is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_question_lays_out_in_every_language(lang: str) -> None:
    from game.app.ui import theme

    for size in ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280)):
        scene = _scene()
        scene.ui.out_confirm = 1
        frame = draw(pygame.Surface(size), fonts(lang), scene, lang)
        assert not frame.overflows, [o.text for o in frame.overflows]
        floor = int(48 * theme.scale_of(*size))
        assert all(s.rect.width >= floor and s.rect.height >= floor for s in frame.hotspots)
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        assert not any(a.covered.colliderect(b.covered) for i, a in enumerate(drawn) for b in drawn[i + 1:])
