"""Fonts: pygame-ce's bundled FreeSans Bold for the Latin languages (it ships in the wheel, so
it renders the same everywhere) and, for Korean, the vendored Moth Gothic (a subset of
NanumGothic Bold, SIL OFL) or a system Hangul font. With no Hangul font, Korean falls back to
English with a message saying which package to install."""

from __future__ import annotations

import functools
import io
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pygame
import pygame.freetype

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


def _plain_spaces(text: str) -> str:
    """No-break spaces drawn as spaces: FreeSans has no glyph for them, and they matter only
    to the line wrapper, which never breaks at one (French "Pris\u00a0!")."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


#: How many times pygame has quit (each quit invalidates every freetype font made before it;
#: widths, heights and rendered surfaces stay true, they depend only on the font file).
_QUITS = [0]
_WATCHING = [False]


def _on_quit() -> None:
    _QUITS[0] += 1
    _WATCHING[0] = False  # pygame forgets its quit functions once it has called them


def _watch_quit() -> None:
    if not _WATCHING[0]:
        pygame.register_quit(_on_quit)
        _WATCHING[0] = True


@functools.lru_cache(maxsize=8)
def _font_bytes(path: Path) -> bytes:
    return path.read_bytes()


class Fonts:
    """Fonts by pixel size, and rendered text surfaces (an LRU cache: a table screen shows the
    same few dozen strings frame after frame), with the widths of measured texts and the lines
    of laid-out texts remembered beside them (a frame fits the same texts into the same boxes
    as the frame before; measuring them again cost more than drawing the whole frame).

    Text is drawn with ``pygame.freetype`` with kerning off, not with ``pygame.font``: pygame-ce's
    ``pygame.font`` shapes text with HarfBuzz, which applies FreeSans Bold's kerning table, and
    that table pushes some pairs apart by a visible gap ("af ter", "but ton", "let ter" at every
    size; see tests/app/test_fonts.py). freetype without kerning places each glyph at its own
    advance, as the font's designer spaced it. Nothing the rig shows needs shaping (no Arabic or
    Indic scripts; Hangul syllables are precomposed)."""

    def __init__(self, path: Path, cache_size: int = 1024, fallback: Fonts | None = None) -> None:
        self.path = path
        # The other script's font: Hangul for the Latin languages (a language's own name on the
        # settings screen), Latin for Korean (the vendored Hangul subset has no "−" or "…").
        # Each character is drawn by the first of the two that has a glyph for it.
        self.fallback = fallback
        self._fonts: dict[int, pygame.freetype.Font] = {}
        self._made = _QUITS[0]
        # px -> line height. Asked of FreeType it costs a size switch (~25 µs once a screen uses
        # several sizes), and a frame asks it dozens of times.
        self._heights: dict[int, int] = {}
        self._has: dict[str, bool] = {}
        self._surfaces: OrderedDict[tuple[object, ...], pygame.Surface | Ink] = OrderedDict()
        self._cache_size = cache_size
        # (text, px) -> pen travel. Bounded: the oldest entries go first (an attract demo
        # measures the ticker's ever-new sentences).
        self._widths: dict[tuple[str, int], int] = {}
        #: What Painter.layout_text made of a text in a box, kept for the next frame (see there).
        self.layouts = Memo(4 * cache_size)

    def get(self, px: int) -> pygame.freetype.Font:
        if self._made != _QUITS[0]:  # pygame quit since: its fonts are dead, make them again
            self._fonts.clear()
            self._made = _QUITS[0]
        font = self._fonts.get(px)
        if font is None:
            if not pygame.freetype.get_init():
                pygame.freetype.init()
            _watch_quit()
            # From the file's bytes, not its path: a font opened by path keeps the file open,
            # one descriptor per size, and a rig that has fitted text at a few hundred sizes in
            # five languages ran past 1,024 descriptors, where select() (pyserial's, on the
            # board's port) fails. The bytes are read once per file and shared.
            try:
                font = pygame.freetype.Font(io.BytesIO(_font_bytes(self.path)), px)
            except SystemError as exc:
                # Ctrl-C (or SIGTERM turned into it) while FreeType reads the bytes surfaces as a
                # SystemError around the KeyboardInterrupt: it is the interrupt, said as one.
                if isinstance(exc.__cause__, KeyboardInterrupt) or isinstance(exc.__context__, KeyboardInterrupt):
                    raise KeyboardInterrupt from None
                raise
            font.kerning = False
            font.pad = True         # line-box metrics: every line of a size is equally tall
            font.origin = True      # render_to's position is the pen's start on the baseline
            self._fonts[px] = font
        return font

    def has_glyph(self, ch: str) -> bool:
        known = self._has.get(ch)
        if known is None:
            known = self._has[ch] = ch.isspace() or self.get(24).get_metrics(ch)[0] is not None
        return known

    def runs(self, text: str) -> list[tuple[Fonts, str]]:
        """``text`` cut into pieces, each with the font that draws it."""
        other = self.fallback
        if other is None:
            return [(self, text)]
        pieces: list[tuple[Fonts, str]] = []
        for ch in text:
            owner = self if self.has_glyph(ch) or not other.has_glyph(ch) else other
            if pieces and pieces[-1][0] is owner:
                pieces[-1] = (owner, pieces[-1][1] + ch)
            else:
                pieces.append((owner, ch))
        return pieces

    def _advance(self, text: str, px: int) -> int:
        """The pen's travel over ``text`` in this font (wider than the ink where a glyph overhangs)."""
        font = self.get(px)
        metrics = font.get_metrics(text)
        advance = round(sum(m[4] for m in metrics if m is not None))
        return max(advance, font.get_rect(text).right)

    def size(self, text: str, px: int) -> tuple[int, int]:
        key = (text, px)
        width = self._widths.get(key)
        if width is None:
            width = sum(owner._advance(piece, px) for owner, piece in self.runs(_plain_spaces(text)))
            if len(self._widths) >= 16 * self._cache_size:
                del self._widths[next(iter(self._widths))]
            self._widths[key] = width
        return width, self.line_height(px)

    def line_height(self, px: int) -> int:
        height = self._heights.get(px)
        if height is None:
            height = self._heights[px] = self.get(px).get_sized_height()
        return height

    def render(self, text: str, px: int, color: tuple[int, int, int]) -> pygame.Surface:
        """``text`` drawn in ``color`` on a transparent surface as wide as the pen's travel and
        as tall as a line."""
        key = (text, px, color)
        surface = self._surfaces.get(key)
        if surface is not None:
            self._surfaces.move_to_end(key)
            return surface  # type: ignore[return-value]
        surface = self._draw(text, px, color)
        self._keep(key, surface)
        return surface

    def ink(self, text: str, px: int, color: tuple[int, int, int]) -> Ink:
        """``render``'s picture cut to its ink, with where the ink sits in it: blitting the ink
        alone is the same picture for about 60 % of the cost (a line of text is mostly
        transparent, and SDL blends every pixel it is given)."""
        key = (text, px, color, "ink")
        got = self._surfaces.get(key)
        if got is not None:
            self._surfaces.move_to_end(key)
            return got  # type: ignore[return-value]
        full = self._draw(text, px, color)
        box = full.get_bounding_rect()
        made = Ink(full.subsurface(box).copy() if box.width and box.height else None, box.x, box.y,
                   full.get_width())
        self._keep(key, made)
        return made

    def _keep(self, key: tuple[object, ...], made: object) -> None:
        self._surfaces[key] = made
        if len(self._surfaces) > self._cache_size:
            self._surfaces.popitem(last=False)

    def _draw(self, text: str, px: int, color: tuple[int, int, int]) -> pygame.Surface:
        pieces = self.runs(_plain_spaces(text))
        widths = [owner._advance(piece, px) for owner, piece in pieces]
        surface = pygame.Surface((max(1, sum(widths)), self.line_height(px)), pygame.SRCALPHA)
        baseline = self.get(px).get_sized_ascender()
        x = 0
        for (owner, piece), width in zip(pieces, widths):
            if piece.strip():
                owner.get(px).render_to(surface, (x, baseline), piece, color)
            x += width
        return surface
        pieces = self.runs(_plain_spaces(text))
        widths = [owner._advance(piece, px) for owner, piece in pieces]
        surface = pygame.Surface((max(1, sum(widths)), self.line_height(px)), pygame.SRCALPHA)
        baseline = self.get(px).get_sized_ascender()
        x = 0
        for (owner, piece), width in zip(pieces, widths):
            if piece.strip():
                owner.get(px).render_to(surface, (x, baseline), piece, color)
            x += width
        if premultiplied:
            surface = surface.premul_alpha()
        self._surfaces[key] = surface
        if len(self._surfaces) > self._cache_size:
            self._surfaces.popitem(last=False)
        return surface


@dataclass(frozen=True, slots=True)
class Ink:
    """A rendered text's inked part (None for blank text), its place in the full rendering, and
    the full rendering's width."""

    surface: pygame.Surface | None
    x: int
    y: int
    width: int


class Memo:
    """A bounded memo (oldest entry out first) for pure results that depend only on their key."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._kept: dict[object, object] = {}

    def get(self, key: object) -> object | None:
        return self._kept.get(key)

    def put(self, key: object, value: object) -> None:
        if len(self._kept) >= self._limit:
            del self._kept[next(iter(self._kept))]
        self._kept[key] = value

    def __len__(self) -> int:
        return len(self._kept)


def fonts_for(lang: str, hangul_candidates: tuple[Path, ...] | None = None) -> tuple[Fonts, FontChoice]:
    """The fonts to draw ``lang`` with (Hangul text anywhere, such as "한국어" on the settings
    screen, falls back to the Hangul font when one exists) and what was chosen."""
    choice = choose(lang, hangul_candidates)
    korean = choose("ko", hangul_candidates)
    hangul = Fonts(korean.path) if korean.lang == "ko" else None
    if choice.lang == "ko":
        return Fonts(choice.path, fallback=Fonts(latin_font())), choice
    return Fonts(choice.path, fallback=hangul), choice


def missing_glyphs(path: Path, text: str) -> str:
    """The characters of ``text`` the font at ``path`` draws as its "missing" box."""
    font = pygame.font.Font(str(path), 24)
    absent = "\ue000"  # a private-use code point: no font here has it

    def look(ch: str) -> tuple[object, bytes]:
        surface = font.render(ch, True, (255, 255, 255), (0, 0, 0))
        return font.metrics(ch), pygame.image.tobytes(surface, "RGB")

    box = look(absent)
    return "".join(sorted({ch for ch in text if not ch.isspace() and look(ch) == box}))
