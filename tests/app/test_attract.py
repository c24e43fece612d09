"""Attract mode is a full screen of its own: title with a parade, a demo window, the board."""

from __future__ import annotations

import pygame
import pytest

from display_helpers import SIZES, fonts, scenes
from game.app.leaderboard import Row
from game.app.ui.render import draw
from game.app.ui.screens_attract import SLIDE_NS, slide_at
from game.app.ui.state import BoardView
from game.i18n import LANGUAGES
from game.i18n.lookup import text

BOARD = BoardView("week", (Row("Bea", 5, 3, 4, 9.5), Row("Dan", 4, 1, 7, 12.25)))


def test_the_slides_take_turns_and_the_board_only_in_a_cafe() -> None:
    assert [slide_at(n * SLIDE_NS, True).name for n in range(6)] == ["title", "demo", "board"] * 2
    assert [slide_at(n * SLIDE_NS, False).name for n in range(4)] == ["title", "demo"] * 2
    assert slide_at(-5, True).name == "title"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [*SIZES, (1024, 600), (1280, 720)])
def test_every_slide_fits_every_screen(lang: str, size: tuple[int, int]) -> None:
    for n in range(3):
        frame = draw(pygame.Surface(size), fonts(lang), scenes()["play"], lang, attract=True, board=BOARD,
                     attract_ns=n * SLIDE_NS + SLIDE_NS // 2)
        assert frame.screen == "attract" and frame.hotspots == ()
        assert frame.overflows == (), [o.text for o in frame.overflows]
        said = [t for t, _ in frame.texts]
        assert text(lang, "ui_press_any") in said


def test_the_game_is_not_under_a_band_but_in_its_own_window() -> None:
    # Before: a band over the running game, whose own lines were the screen's texts.
    game_line = draw(pygame.Surface((800, 480)), fonts("en"), scenes()["play"], "en")
    frame = draw(pygame.Surface((800, 480)), fonts("en"), scenes()["play"], "en", attract=True, board=None,
                 attract_ns=SLIDE_NS + 1)
    said = {t for t, _ in frame.texts}
    assert said == {text("en", "ui_attract_demo"), text("en", "ui_press_any")}
    assert not said & {t for t, _ in game_line.texts}


def test_the_parade_moves_with_time_and_is_the_same_at_the_same_time() -> None:
    def shot(t_ns: int) -> bytes:
        surface = pygame.Surface((800, 480))
        draw(surface, fonts("en"), scenes()["play"], "en", attract=True, attract_ns=t_ns)
        return pygame.image.tobytes(surface, "RGB")

    assert shot(1_000_000_000) == shot(1_000_000_000)
    assert shot(1_000_000_000) != shot(1_500_000_000)
