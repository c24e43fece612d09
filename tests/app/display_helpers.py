"""Shared for the display tests: pygame on SDL's dummy drivers, key scenes from simulated games."""

from __future__ import annotations

import os
from functools import cache

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.app.ui.common import Scene  # noqa: E402
from game.app.ui.demo import collect  # noqa: E402
from game.app.ui.fonts import Fonts, fonts_for  # noqa: E402
from game.controller import TableSettings  # noqa: E402

SIZES = ((800, 480), (1920, 1080), (720, 1280))


@cache
def scenes() -> dict[str, Scene]:
    """One example of every key screen, from simulated 4-player games."""
    return collect(4, list(range(1, 40)), TableSettings(seats=5, clock="sim"))


_FONTS: dict[str, Fonts] = {}


def fonts(lang: str) -> Fonts:
    """The fonts for ``lang``, made again if a test (the CLI) quit pygame since."""
    pygame.font.init()
    made = _FONTS.get(lang)
    if made is not None:
        try:
            made.get(20).size("x")
            if made.hangul is not None:
                made.hangul.get(20).size("x")
            return made
        except pygame.error:
            pass
    _FONTS[lang] = fonts_for(lang)[0]
    return _FONTS[lang]
