"""The renderer draws words as the font's designer spaced them, in every language."""

from __future__ import annotations

import pygame
import pytest

from display_helpers import fonts
from game.i18n.lookup import LANGUAGES, catalog


@pytest.mark.parametrize("px", [14, 24, 48, 96])
@pytest.mark.parametrize("word", ["after", "button", "letter", "Zurück", "attente", "botón"])
def test_no_letter_pair_is_pushed_apart(word: str, px: int) -> None:
    # pygame.font (HarfBuzz + FreeSans Bold's kerning table) drew "af ter" and "but ton": at
    # 60 px "tt" measured 46 px against two 20 px t's. A word is as wide as its letters' advances.
    f = fonts("en")
    assert f.size(word, px)[0] == sum(f.size(ch, px)[0] for ch in word)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_character_of_every_language_has_a_glyph(lang: str) -> None:
    f = fonts(lang)
    text = "".join(catalog(lang).values()) + "0123456789–−…·+"
    drawable = {ch for ch in text if f.has_glyph(ch) or (f.fallback is not None and f.fallback.has_glyph(ch))}
    assert set(text) - drawable == set()


def test_korean_text_borrows_the_latin_minus_sign() -> None:
    f = fonts("ko")
    pieces = f.runs("벌점 −5")
    assert f.fallback is not None
    assert ("−" in "".join(piece for owner, piece in pieces if owner is f.fallback))
    assert "".join(piece for _, piece in pieces) == "벌점 −5"


def test_a_rendered_line_is_as_wide_as_its_measure_and_has_room_for_its_ink() -> None:
    f = fonts("en")
    for text in ("after button", "한국어 (Korean)", "1st  +40.000 ms", "ÉÖÑÅ gyp"):
        surface, (x, y) = f.render(text, 30, (255, 255, 255))
        line = pygame.Rect(x, y, *f.size(text, 30))
        assert surface.get_rect().contains(line)
        ink = surface.get_bounding_rect()
        assert surface.get_rect().inflate(-2, -2).contains(ink), text   # a pixel to spare all round
        assert f.ink(text, 30, (255, 255, 255)).width == f.size(text, 30)[0]


def test_no_break_spaces_are_spaces_and_a_narrow_one_is_narrower() -> None:
    f = fonts("fr")
    space = f.size("Pris !", 24)[0] - f.size("Pris!", 24)[0]
    assert f.size("Pris\u00a0!", 24)[0] == f.size("Pris !", 24)[0]
    narrow = f.size("Pris\u202f!", 24)[0] - f.size("Pris!", 24)[0]
    assert 0 < narrow < space
    # Drawn as a gap, never as the font's "missing" box.
    white = (255, 255, 255)
    for text in ("Pris\u00a0!", "Pris\u202f!"):
        ink = f.ink(text, 24, white)
        bare = f.ink("Pris!", 24, white)
        assert ink.surface is not None and bare.surface is not None
        assert ink.surface.get_width() == bare.surface.get_width() + (f.size(text, 24)[0] - f.size("Pris!", 24)[0])
