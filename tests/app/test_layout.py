"""Layout checked by a test, not by luck: every screen in every language at five sizes keeps
its text in its boxes, no two texts overlap, and everything tappable is big enough for a
finger (48 px at 800×480, about 9 mm on a 7" panel, and as much more as the screen scales)."""

from __future__ import annotations

import itertools

import pygame
import pytest
from display_helpers import ask_scenes, fonts, name_scenes, scenes_in, staff_scenes

from game.app.ui import theme
from game.app.ui.render import draw
from game.i18n import LANGUAGES

LAYOUT_SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))
FINGER_PX = 48


def _all_scenes(lang: str) -> dict[str, object]:
    return {**scenes_in(lang), **{f"staff:{name}": scene for name, scene in staff_scenes().items()},
            **{f"names:{name}": scene for name, scene in name_scenes().items()},
            **{f"ask:{name}": scene for name, scene in ask_scenes().items()}}


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_lays_out(lang: str, size: tuple[int, int]) -> None:
    floor = int(FINGER_PX * theme.scale_of(*size))
    problems: list[str] = []
    for name, scene in _all_scenes(lang).items():
        frame = draw(pygame.Surface(size), fonts(lang), scene, lang)  # type: ignore[arg-type]
        problems += [f"{name}: {o.text!r} does not fit {o.box}" for o in frame.overflows]
        for spot in frame.hotspots:
            if spot.rect.width < floor or spot.rect.height < floor:
                problems.append(f"{name}: {spot.act.kind} is {spot.rect.width}x{spot.rect.height} px, "
                                f"under {floor} px")
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        for a, b in itertools.combinations(drawn, 2):
            if a.covered.colliderect(b.covered):
                problems.append(f"{name}: {a.text!r} overlaps {b.text!r}")
        for b in drawn:
            if not b.box.contains(b.covered):
                problems.append(f"{name}: {b.text!r} leaves its box")
    assert problems == []
