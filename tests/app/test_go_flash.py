"""GO is unmistakable from across the table: the whole screen, header and footer included."""

from __future__ import annotations

import pygame
import pytest
from display_helpers import SIZES, fonts, scenes

from game.app.ui import theme
from game.app.ui.render import draw
from game.i18n.lookup import text


@pytest.mark.parametrize("size", SIZES)
def test_go_fills_the_whole_screen_and_nothing_is_tappable_under_it(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    frame = draw(surface, fonts("en"), scenes()["race-go"], "en")
    w, h = size
    corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 2), (w // 2, h - 3)]
    assert all(tuple(surface.get_at(xy))[:3] == theme.GO_GREEN for xy in corners)
    assert frame.hotspots == ()
    assert [t for t, _ in frame.texts] == [text("en", "ui_go")]
