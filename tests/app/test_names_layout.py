"""Typed names on every screen: names of 16 letters (the longest a name may be), Latin with
accents and Hangul, keep every screen in its boxes in every language at every size; a name too
long for its place is cut with "…", never drawn over its neighbour."""

from __future__ import annotations

import dataclasses
import itertools

import pygame
import pytest
from display_helpers import fonts, name_scenes, scenes
from test_layout import LAYOUT_SIZES

from game.app.ui.common import Scene
from game.app.ui.render import draw
from game.controller.names import MAX_NAME, refusal
from game.i18n import LANGUAGES

LONG = ("Maximiliane-Anna", "Jean-Christophe", "Bartholomäus Kün", "하늘빛 별님이 사랑해", "Wolfgang Amadeus")


def named(scene: Scene) -> Scene:
    """``scene`` with every player's name the longest kind there is."""
    t = scene.table
    names = tuple((seat, LONG[i]) for i, seat in enumerate(t.seated))
    return Scene(dataclasses.replace(t, names=names), scene.ui, scene.now_ns)


def test_the_long_names_are_names() -> None:
    assert all(refusal(name, {}, "Ali") is None and len(name) >= MAX_NAME - 6 for name in LONG)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_lays_out_with_the_longest_names(lang: str, size: tuple[int, int]) -> None:
    problems: list[str] = []
    for name, scene in {**scenes(), **name_scenes()}.items():
        frame = draw(pygame.Surface(size), fonts(lang), named(scene), lang, attract=name == "attract")
        problems += [f"{name}: {o.text!r} does not fit {o.box}" for o in frame.overflows]
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        for a, b in itertools.combinations(drawn, 2):
            if a.covered.colliderect(b.covered):
                problems.append(f"{name}: {a.text!r} overlaps {b.text!r}")
        problems += [f"{name}: {b.text!r} leaves its box" for b in drawn if not b.box.contains(b.covered)]
    assert problems == []


def test_a_name_too_long_for_its_place_is_cut_with_an_ellipsis() -> None:
    from game.app.ui.paint import Painter

    box = pygame.Rect(10, 10, 90, 30)
    uncut = Painter(pygame.Surface((800, 480)), fonts("en"), "en")
    uncut.text(LONG[0], box, 26)
    assert [o.text for o in uncut.overflows] == [LONG[0]]
    p = Painter(pygame.Surface((800, 480)), fonts("en"), "en")
    covered = p.text(LONG[0], box, 26, cut=True)
    assert p.overflows == [] and box.contains(covered) and covered.width > box.width // 2
    lines, size, _ = p.layout_text(LONG[0], box, p.px(26))
    shown, fits = p._cut(LONG[0], box, size)
    assert fits and len(shown) == 1 and shown[0].endswith("…") and LONG[0].startswith(shown[0][:-1])
