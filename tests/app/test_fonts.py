"""The renderer draws words as the font's designer spaced them, in every language."""

from __future__ import annotations

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


def test_a_rendered_line_is_as_wide_and_tall_as_its_measure() -> None:
    f = fonts("en")
    for text in ("after button", "한국어 (Korean)", "1st  +40.000 ms"):
        surface = f.render(text, 30, (255, 255, 255))
        assert surface.get_size() == f.size(text, 30)
