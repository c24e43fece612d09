"""Fonts: pygame-ce's bundled FreeSans Bold for the Latin languages (it ships in the wheel, so
it renders the same everywhere) and, for Korean, the vendored Moth Gothic (a subset of
NanumGothic Bold, SIL OFL) or a system Hangul font. With no Hangul font, Korean falls back to
English with a message saying which package to install."""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pygame

HERE = Path(__file__).resolve().parent
VENDORED_HANGUL = HERE / "fonts" / "MothGothic-Bold.ttf"
SYSTEM_HANGUL = (
    Path("/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
)
HANGUL_PACKAGE = "fonts-nanum"


def latin_font() -> Path:
    """FreeSans Bold from the pygame-ce wheel (Latin incl. ä ö ü ß é è ç ñ ¿ ¡ « » µ)."""
    return Path(os.path.dirname(pygame.__file__)) / pygame.font.get_default_font()


@dataclass(frozen=True, slots=True)
class FontChoice:
    """The font for a language; ``lang`` is the language actually shown (English when Korean
    was asked for and no Hangul font exists), ``warning`` says what to install."""

    path: Path
    lang: str
    warning: str | None = None


def choose(lang: str, hangul_candidates: tuple[Path, ...] | None = None) -> FontChoice:
    if lang != "ko":
        return FontChoice(latin_font(), lang)
    candidates = (VENDORED_HANGUL, *SYSTEM_HANGUL) if hangul_candidates is None else hangul_candidates
    for path in candidates:
        if path.is_file():
            return FontChoice(path, "ko")
    return FontChoice(latin_font(), "en",
                      f"no Korean font found (looked for {', '.join(str(p) for p in candidates)}): "
                      f"install the {HANGUL_PACKAGE} package (apt install {HANGUL_PACKAGE}); "
                      "showing English meanwhile")


class Fonts:
    """pygame Font objects by pixel size, and rendered text surfaces (an LRU cache: a table
    screen shows the same few dozen strings frame after frame)."""

    def __init__(self, path: Path, cache_size: int = 1024, hangul: Fonts | None = None) -> None:
        self.path = path
        self.hangul = hangul   # draws any text with Hangul in it (a language's own name, say)
        self._fonts: dict[int, pygame.font.Font] = {}
        self._surfaces: OrderedDict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = OrderedDict()
        self._cache_size = cache_size

    def _for(self, text: str) -> Fonts:
        if self.hangul is not None and any("\uac00" <= ch <= "\ud7a3" or "\u3131" <= ch <= "\u318e" for ch in text):
            return self.hangul
        return self

    def get(self, px: int) -> pygame.font.Font:
        font = self._fonts.get(px)
        if font is None:
            font = pygame.font.Font(str(self.path), px)
            self._fonts[px] = font
        return font

    def size(self, text: str, px: int) -> tuple[int, int]:
        return self._for(text).get(px).size(text)

    def line_height(self, px: int) -> int:
        return self.get(px).get_linesize()

    def render(self, text: str, px: int, color: tuple[int, int, int]) -> pygame.Surface:
        owner = self._for(text)
        if owner is not self:
            return owner.render(text, px, color)
        key = (text, px, color)
        surface = self._surfaces.get(key)
        if surface is not None:
            self._surfaces.move_to_end(key)
            return surface
        surface = self.get(px).render(text, True, color)
        self._surfaces[key] = surface
        if len(self._surfaces) > self._cache_size:
            self._surfaces.popitem(last=False)
        return surface


def fonts_for(lang: str, hangul_candidates: tuple[Path, ...] | None = None) -> tuple[Fonts, FontChoice]:
    """The fonts to draw ``lang`` with (Hangul text anywhere, such as "한국어" on the settings
    screen, falls back to the Hangul font when one exists) and what was chosen."""
    choice = choose(lang, hangul_candidates)
    korean = choose("ko", hangul_candidates)
    hangul = Fonts(korean.path) if korean.lang == "ko" else None
    if choice.lang == "ko":
        return Fonts(choice.path), choice
    return Fonts(choice.path, hangul=hangul), choice


def missing_glyphs(path: Path, text: str) -> str:
    """The characters of ``text`` the font at ``path`` draws as its "missing" box."""
    font = pygame.font.Font(str(path), 24)
    absent = "\ue000"  # a private-use code point: no font here has it

    def look(ch: str) -> tuple[object, bytes]:
        surface = font.render(ch, True, (255, 255, 255), (0, 0, 0))
        return font.metrics(ch), pygame.image.tobytes(surface, "RGB")

    box = look(absent)
    return "".join(sorted({ch for ch in text if not ch.isspace() and look(ch) == box}))
