"""Issue 13 point 9.6: the first key of a two-key card entry is answered on screen ("4 … now the
kind: N number, M moth, ..."), until the kind key plays the card or Esc drops the number."""

from __future__ import annotations

import copy
import itertools
import re

import pygame
import pytest
from display_helpers import fonts, scenes

from game.app.ui import theme
from game.app.ui.common import Scene
from game.app.ui.console import KIND_KEYS, Console
from game.app.ui.render import Frame, draw
from game.app.ui.screen_name import screen_of
from game.cards import Card, Kind
from game.controller import inputs as console
from game.i18n import LANGUAGES

NOW = 123_456_789
SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))
PROMPT = "4 … now the kind: N number, M moth, A ant, S spider, C cockroach, O mosquito (Esc: cancel)"


@pytest.fixture(autouse=True)
def screen() -> pygame.Surface:
    pygame.display.init()
    return pygame.display.set_mode((800, 480))


def _play() -> Scene:
    base = scenes()["play"]
    ui = copy.deepcopy(base.ui)
    ui.notices.clear()
    return Scene(base.table, ui, base.now_ns)


def _key(con: Console, scene: Scene, key: int) -> list[object]:
    event = pygame.event.Event(pygame.KEYDOWN, key=key)
    return list(con.handle(event, Frame(screen_of(scene), (), (), ()), scene.table))


def _frame(scene: Scene, size: tuple[int, int] = (800, 480), lang: str = "en") -> Frame:
    return draw(pygame.Surface(size), fonts(lang), scene, lang)


def _texts(scene: Scene) -> list[str]:
    return [box.text for box in _frame(scene).boxes]


def test_a_number_key_is_answered_until_the_kind_key_plays_the_card() -> None:
    scene = _play()
    con = Console(scene.ui, lambda: NOW, "sim")
    assert PROMPT not in _texts(scene)
    assert _key(con, scene, pygame.K_4) == []
    assert PROMPT in _texts(scene)
    assert _key(con, scene, pygame.K_a) == [console.Play(Card(Kind.ANT, 4), NOW)]
    assert not any("now the kind" in text for text in _texts(scene))


def test_esc_drops_the_number_and_its_prompt() -> None:
    scene = _play()
    con = Console(scene.ui, lambda: NOW, "sim")
    _key(con, scene, pygame.K_4)
    _key(con, scene, pygame.K_ESCAPE)
    assert scene.ui.pending_number is None and PROMPT not in _texts(scene)
    assert not con.quit


def test_the_prompt_names_the_keys_the_console_reads() -> None:
    said = dict(re.findall(r"\b([A-Z]) (\w+)", PROMPT.split(":", 1)[1]))
    by_letter = {pygame.key.name(key).upper(): kind for key, kind in KIND_KEYS.items()
                 if len(pygame.key.name(key)) == 1}
    assert {letter: Kind(word) for letter, word in said.items()} == by_letter


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_prompt_fits_the_footer(lang: str) -> None:
    scene = _play()
    scene.ui.pending_number = 4
    problems: list[str] = []
    for size in SIZES:
        frame = _frame(scene, size, lang)
        assert any(b.text.startswith("4 …") for b in frame.boxes), (size, lang)
        problems += [f"{size}: {o.text!r} does not fit" for o in frame.overflows]
        floor = int(48 * theme.scale_of(*size))
        problems += [f"{size}: {s.act.kind} {s.rect.size}" for s in frame.hotspots
                     if s.rect.width < floor or s.rect.height < floor]
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        problems += [f"{size}: {a.text!r} overlaps {b.text!r}" for a, b in itertools.combinations(drawn, 2)
                     if a.covered.colliderect(b.covered)]
    assert problems == []
