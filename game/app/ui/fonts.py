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
#: How much FreeType emboldens a font's strokes (its ``strength``, a fraction of the size),
#: by file name. NanumGothic Bold's strokes are about 0.087 em wide against FreeSans Bold's
#: 0.113: Korean read visibly lighter than the Latin text beside it. 1/30 em brings them to
#: 0.112-0.122 em from 24 to 96 px (tests/app/test_korean_weight.py).
EMBOLDEN = {"MothGothic-Bold.ttf": 1 / 30, "NanumGothicBold.ttf": 1 / 30}


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


NBSP = "\u00a0"
NNBSP = "\u202f"    # narrow no-break space: French sets it before ; ! ? (game.i18n.typography)


def _spaces(text: str) -> str:
    """No-break spaces drawn as spaces: neither font has a glyph for U+00A0 (FreeSans would
    draw its "missing" box), and the no-break part matters only to the line wrapper, which
    never breaks at one ("Pioche\u00a0: 29"). Narrow ones are cut at (see Fonts._place)."""
    return text.replace(NBSP, " ")


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
        self._ascenders: dict[int, int] = {}
        # (text, px) -> where its ink reaches around its line box (see reach).
        self._reaches: dict[tuple[str, int], pygame.Rect] = {}
        self._has: dict[str, bool] = {}
        self._surfaces: OrderedDict[tuple[object, ...], Ink] = OrderedDict()
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
            strength = EMBOLDEN.get(self.path.name)
            if strength is not None:
                # Emboldened in every measure too (advances, ink boxes), not only when drawn.
                font.strength = strength
                font.style = pygame.freetype.STYLE_STRONG
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

    def _place(self, text: str, px: int) -> tuple[list[tuple[Fonts, str, int]], int]:
        """``text`` cut into runs, each with the font that draws it and the pen's x where it
        starts, and the pen's whole travel. A narrow no-break space moves the pen by half a
        space (about 1/7 em in FreeSans Bold, a French "espace fine"): no font here has a
        glyph for it, and a whole space before "!" reads as a gap."""
        placed: list[tuple[Fonts, str, int]] = []
        x = 0
        for i, segment in enumerate(_spaces(text).split(NNBSP)):
            if i:
                x += max(1, self._advance(" ", px) // 2)
            for owner, piece in self.runs(segment):
                placed.append((owner, piece, x))
                x += owner._advance(piece, px)
        return placed, x

    def size(self, text: str, px: int) -> tuple[int, int]:
        key = (text, px)
        width = self._widths.get(key)
        if width is None:
            width = self._place(text, px)[1]
            if len(self._widths) >= 16 * self._cache_size:
                del self._widths[next(iter(self._widths))]
            self._widths[key] = width
        return width, self.line_height(px)

    def line_height(self, px: int) -> int:
        height = self._heights.get(px)
        if height is None:
            height = self._heights[px] = self.get(px).get_sized_height()
        return height

    def _baseline(self, px: int) -> int:
        """The baseline's distance from the top of a line (this font's ascender: for FreeSans
        Bold the height of a capital, so an accent on a capital stands above the line)."""
        baseline = self._ascenders.get(px)
        if baseline is None:
            baseline = self._ascenders[px] = self.get(px).get_sized_ascender()
        return baseline

    def _glyph_box(self, text: str, px: int) -> pygame.Rect:
        """The ink of ``text`` in this font alone, from FreeType's glyph metrics, relative to
        the pen's start on the baseline (y down: an accent's top is negative)."""
        font = self.get(px)
        font.pad = False    # without the line box: the glyphs' own extent
        try:
            box = font.get_rect(text)
        finally:
            font.pad = True
        return pygame.Rect(box.x, -box.y, box.width, box.height)

    def reach(self, text: str, px: int) -> pygame.Rect:
        """Where ``text``'s ink reaches, per the fonts' metrics, relative to its line box's
        top-left (the pen's start, the top of the line): above the line (y < 0) for an accent
        on a capital, left of it (x < 0) for a glyph that overhangs its start, below it for a
        low descender. It contains the drawn ink (tests/app/test_ink.py); an empty rect at
        (0, 0) for blank text. Painter fits and places text by it."""
        key = (text, px)
        box = self._reaches.get(key)
        if box is None:
            box = self._reach(self._place(text, px)[0], px)
            if len(self._reaches) >= 16 * self._cache_size:
                del self._reaches[next(iter(self._reaches))]
            self._reaches[key] = box
        return pygame.Rect(box)

    def _reach(self, placed: list[tuple[Fonts, str, int]], px: int) -> pygame.Rect:
        baseline = self._baseline(px)
        box: pygame.Rect | None = None
        for owner, piece, x in placed:
            if piece.strip():
                glyphs = owner._glyph_box(piece, px).move(x, baseline)
                box = glyphs if box is None else box.union(glyphs)
        return pygame.Rect(0, 0, 0, 0) if box is None else box

    def render(self, text: str, px: int, color: tuple[int, int, int]) -> tuple[pygame.Surface, tuple[int, int]]:
        """``text`` drawn in ``color`` on a transparent surface with room for all its ink
        (the line box and whatever reaches beyond it), and where the line box's top-left lies
        on that surface."""
        return self._draw(text, px, color)

    def ink(self, text: str, px: int, color: tuple[int, int, int]) -> Ink:
        """``text`` drawn and cut to its ink, with where the ink sits relative to the line box:
        blitting the ink alone costs about 60 % of blitting a line (a line of text is mostly
        transparent, and SDL blends every pixel it is given)."""
        key = (text, px, color, "ink")
        got = self._surfaces.get(key)
        if got is not None:
            self._surfaces.move_to_end(key)
            return got
        full, (x, y) = self._draw(text, px, color)
        box = full.get_bounding_rect()
        made = Ink(full.subsurface(box).copy() if box.width and box.height else None,
                   box.x - x, box.y - y, self.size(text, px)[0])
        self._surfaces[key] = made
        if len(self._surfaces) > self._cache_size:
            self._surfaces.popitem(last=False)
        return made

    def _draw(self, text: str, px: int, color: tuple[int, int, int]) -> tuple[pygame.Surface, tuple[int, int]]:
        # The surface is the line box grown to the glyphs' reach, with a pixel to spare all
        # round. It used to be the line box alone, with the baseline at the ascender: FreeSans
        # Bold's ascender is the capitals' height, so É Ö Ñ Å lost their accents (and Hangul,
        # drawn by the other font, could lose its top) at most sizes.
        placed, width = self._place(text, px)
        reach = self._reaches.get((text, px)) or self._reach(placed, px)
        room = pygame.Rect(0, 0, max(1, width), self.line_height(px)).union(reach).inflate(2, 2)
        surface = pygame.Surface(room.size, pygame.SRCALPHA)
        baseline = self._baseline(px)
        for owner, piece, x in placed:
            if piece.strip():
                owner.get(px).render_to(surface, (x - room.x, baseline - room.y), piece, color)
        return surface, (-room.x, -room.y)


@dataclass(frozen=True, slots=True)
class Ink:
    """A rendered text's inked part (None for blank text), where it sits relative to the line
    box's top-left (negative above or left of it), and the line box's width (the pen's travel)."""

    surface: pygame.Surface | None
    x: int
    y: int
    width: int

    def rect(self, x: int, y: int) -> pygame.Rect:
        """The ink's rectangle for a line box whose top-left is at (x, y) (empty for blank text)."""
        if self.surface is None:
            return pygame.Rect(x, y, 0, 0)
        return pygame.Rect(x + self.x, y + self.y, self.surface.get_width(), self.surface.get_height())


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
    if not pygame.font.get_init():
        pygame.font.init()      # asked before any screen was drawn (a check at start, a test)
    font = pygame.font.Font(str(path), 24)
    absent = "\ue000"  # a private-use code point: no font here has it

    def look(ch: str) -> tuple[object, bytes]:
        surface = font.render(ch, True, (255, 255, 255), (0, 0, 0))
        return font.metrics(ch), pygame.image.tobytes(surface, "RGB")

    box = look(absent)
    return "".join(sorted({ch for ch in text if not ch.isspace() and look(ch) == box}))
