"""Drawing primitives shared by the screens: text that fits its box (wrapped, shrunk down to
the minimum size, and reported if it still does not fit), buttons that register hotspots,
cards, seat chips. A Painter draws one frame; it never changes the table."""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass

import pygame

from ...cards import Card
from ...i18n.lookup import kind_name, text
from ...i18n.typography import typeset
from . import theme
from .actions import Act, Hotspot
from .fonts import Fonts
from .theme import RGB


#: typeset, remembered: a frame draws the same few dozen texts as the frame before, and the
#: typography's regular expressions cost more than looking a text up.
_typeset = functools.lru_cache(maxsize=8192)(typeset)


@dataclass(frozen=True, slots=True)
class Overflow:
    """Text that did not fit its box even at the smallest size."""

    text: str
    box: tuple[int, int, int, int]
    px: int


@dataclass(frozen=True, slots=True)
class TextBox:
    """A text as drawn: ``box`` is the room it was given, ``covered`` the lines it drew and
    their ink (inside ``box`` when the text fits)."""

    text: str
    box: pygame.Rect
    covered: pygame.Rect


def solid_fill(surface: pygame.Surface, colour: RGB, rect: pygame.Rect) -> None:
    """``surface.fill(colour, rect)``, pixel for pixel (within the clip), and much cheaper for a
    rect narrower than the surface: SDL fills with streaming SIMD stores that cost about 0.7 µs
    a row on the benchmark machine (a 700×300 panel 320 µs, the same through pygame's polygon
    filler 60 µs). Whole rows stay with SDL, which fills them as one run."""
    if rect.width <= 0 or rect.height <= 0:
        return
    if rect.x <= 0 and rect.right >= surface.get_width():
        surface.fill(colour, rect)
        return
    right, bottom = rect.right - 1, rect.bottom - 1
    pygame.draw.polygon(surface, colour, ((rect.x, rect.y), (right, rect.y), (right, bottom), (rect.x, bottom)))


def dim(surface: pygame.Surface, rects: list[pygame.Rect]) -> None:
    """Shade the buttons of a screen that does not take taps yet (glass.py's settle time), so
    they look pressed-in rather than live. The body-wide "tap anywhere" areas are left bright:
    the result they cover is what the group must read now."""
    area = surface.get_width() * surface.get_height()
    for rect in rects:
        if rect.width * rect.height * 6 > area:
            continue
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, rect)


_KEYS = ((255, 0, 255), (0, 255, 0))
_STAMP_PIXELS = 3_000_000           # all stamps together (12 MB at 32 bits a pixel)
_stamps: OrderedDict[tuple[RGB, int, int, int], pygame.Surface] = OrderedDict()
_stamp_pixels = [0]
_seen: dict[tuple[RGB, int, int, int], int] = {}   # shape -> when it was last drawn
_clock = [0]                        # rounded fills so far
_RECENT = 96                        # "soon": within this many rounded fills (a few frames)


def rounded_fill(surface: pygame.Surface, colour: RGB, rect: pygame.Rect, radius: int) -> None:
    """``pygame.draw.rect(surface, colour, rect, border_radius=radius)``, pixel for pixel: a
    shape drawn again a frame or two later is kept as a stamp (drawn the same way on a colour-keyed,
    run-length encoded surface) and blitted from then on, 2-5 times cheaper than drawing it (a
    1920×1080 table frame has 16 rounded buttons; pygame fills one row of them at a time)."""
    key = (tuple(colour), rect.width, rect.height, radius)
    stamp = _stamps.get(key)  # type: ignore[arg-type]
    if stamp is not None:
        _stamps.move_to_end(key)  # type: ignore[arg-type]
        surface.blit(stamp, rect.topleft)
        return
    area = rect.width * rect.height
    if area <= 0 or area > _STAMP_PIXELS // 4 or surface.get_flags() & pygame.SRCALPHA or len(colour) != 3:
        pygame.draw.rect(surface, colour, rect, border_radius=radius)
        return
    # A stamp pays off for a shape drawn again soon (the same screen's next frame), not for one
    # that changes every frame or comes back only after many others (screens taking turns).
    _clock[0] += 1
    last = _seen.get(key)  # type: ignore[arg-type]
    _seen[key] = _clock[0]  # type: ignore[index]
    if len(_seen) > 4096:
        _seen.clear()
    if last is None or _clock[0] - last > _RECENT:
        pygame.draw.rect(surface, colour, rect, border_radius=radius)
        return
    keyed = _KEYS[0] if tuple(colour) != _KEYS[0] else _KEYS[1]
    stamp = pygame.Surface(rect.size)
    stamp.fill(keyed)
    pygame.draw.rect(stamp, colour, stamp.get_rect(), border_radius=radius)
    stamp.set_colorkey(keyed, pygame.RLEACCEL)
    _stamps[key] = stamp  # type: ignore[index]
    _stamp_pixels[0] += area
    while _stamp_pixels[0] > _STAMP_PIXELS:
        _, old = _stamps.popitem(last=False)
        _stamp_pixels[0] -= old.get_width() * old.get_height()
    surface.blit(stamp, rect.topleft)


class Painter:
    def __init__(self, surface: pygame.Surface, fonts: Fonts, lang: str) -> None:
        self.surface = surface
        self.fonts = fonts
        self.lang = lang
        self.width, self.height = surface.get_size()
        self.scale = theme.scale_of(self.width, self.height)
        self.portrait = self.height > self.width
        self.min_px = self.px(theme.MIN_TEXT)
        self.hotspots: list[Hotspot] = []
        self.overflows: list[Overflow] = []
        self.texts: list[tuple[str, int]] = []      # (text, px) of everything drawn
        # Where each text landed, the box it was given and what its ink covers: the layout
        # test checks that no two overlap and none leaves its box.
        self.boxes: list[TextBox] = []

    # -- units and words -----------------------------------------------------------------

    def px(self, n: float) -> int:
        return max(1, round(n * self.scale))

    def t(self, key: str, **params: str | int) -> str:
        return text(self.lang, key, **params)

    def typeset(self, content: str) -> str:
        """``content`` as ``text`` draws it (game.i18n.typography: French spacing, figures bound
        to their units): measure this, not ``content``, to size a box for a text."""
        return _typeset(self.lang, content)

    # -- text ----------------------------------------------------------------------------

    def _wrap(self, words: list[str], width: int, px: int) -> list[str] | None:
        lines: list[str] = []
        line = ""
        for word in words:
            trial = f"{line} {word}" if line else word
            if self.fonts.size(trial, px)[0] <= width:
                line = trial
                continue
            if not line or self.fonts.size(word, px)[0] > width:
                return None
            lines.append(line)
            line = word
        lines.append(line)
        return lines

    def layout_text(self, content: str, box: pygame.Rect, px: int, min_px: int | None = None,
                    wrap: bool = True) -> tuple[list[str], int, bool]:
        """Lines and size for ``content`` (typeset in the painter's language, as ``text``
        draws it) in ``box``: the largest size from ``px`` down to ``min_px`` at which it
        fits; (lines at min_px, min_px, False) if none does."""
        content = _typeset(self.lang, content)
        floor = min(px, self.min_px if min_px is None else min_px)
        # The same text in the same box comes out the same (fonts and wrapping are pure), and a
        # frame lays out what the frame before did: the search below runs once per text and box.
        key = (content, box.width, box.height, px, floor, wrap)
        known = self.fonts.layouts.get(key)
        if known is not None:
            lines, size, fits = known  # type: ignore[misc]
            return list(lines), size, fits
        lines, size, fits = self._fit(content, box, px, floor, wrap)
        self.fonts.layouts.put(key, (tuple(lines), size, fits))
        return lines, size, fits

    def _fit(self, content: str, box: pygame.Rect, px: int, floor: int,
             wrap: bool) -> tuple[list[str], int, bool]:
        size = px
        paragraphs = content.split("\n")
        while True:
            lines: list[str] = []
            fitted = True
            for para in paragraphs:
                got = self._wrap(para.split(" ") if wrap else [para], box.width, size)
                if got is None:
                    fitted = False
                    break
                lines.extend(got)
            if (fitted and len(lines) * self.fonts.line_height(size) <= box.height
                    and self._ink_fits(lines, size, box)):
                return lines, size, True
            if size <= floor:
                return (lines if fitted else paragraphs), size, False
            size = max(floor, size - max(1, size // 12))

    def _reach(self, lines: list[str], size: int) -> pygame.Rect:
        """Where the ink of ``lines`` (stacked a line pitch apart, left-aligned) reaches,
        relative to the first line box's top-left."""
        line_h = self.fonts.line_height(size)
        reach = pygame.Rect(0, 0, 0, 0)
        for i, line in enumerate(lines):
            ink = self.fonts.reach(line, size)
            if ink.width and ink.height:
                ink.y += i * line_h
                reach = ink if not (reach.width and reach.height) else reach.union(ink)
        return reach

    def _ink_fits(self, lines: list[str], size: int, box: pygame.Rect) -> bool:
        """The ink's span fits ``box`` (an accent above a capital, a descender below: a text
        whose line pitch fits may still reach beyond the box's edges, and is moved inside by
        ``text``); a line's ink fits its width, overhangs included."""
        reach = self._reach(lines, size)
        if reach.height > box.height:
            return False
        return all(self.fonts.reach(line, size).width <= box.width for line in lines)

    def text(self, content: str, box: pygame.Rect, px: float, colour: RGB = theme.TEXT, *,
             min_px: float | None = None, align: str = "center", valign: str = "center",
             wrap: bool = True, cut: bool = False) -> pygame.Rect:
        """Draw ``content`` fitted into ``box``, typeset in the painter's language (figures
        bound to their units, French spacing: game.i18n.typography); returns the rectangle
        actually covered (the line boxes and the ink). ``cut``: what does not fit even at the
        smallest size is one line cut with "…" (a player's name, up to 16 letters, where a
        column has room for fewer). ``p.texts`` and ``p.boxes`` keep ``content`` as given."""
        if not content:
            return pygame.Rect(box.x, box.y, 0, 0)
        lines, size, fits = self.layout_text(content, box, self.px(px),
                                             None if min_px is None else self.px(min_px), wrap)
        if not fits and cut:
            lines, fits = self._cut(_typeset(self.lang, content), box, size)
        if not fits:
            self.overflows.append(Overflow(content, (box.x, box.y, box.w, box.h), size))
        self.texts.append((content, size))
        line_h = self.fonts.line_height(size)
        total = line_h * len(lines)
        if valign == "top":
            y = box.y
        elif valign == "bottom":
            y = box.bottom - total
        else:
            y = box.y + (box.height - total) // 2
        if fits:
            # Placed by its lines, then moved as little as needed to bring the ink inside the
            # box (the accent of a capital stands above its line; a box as tall as the lines
            # would cut it). Text whose ink stays within its lines is not moved.
            reach = self._reach(lines, size)
            if reach.width and reach.height:
                y += max(0, box.y - (y + reach.top)) - max(0, y + reach.bottom - box.bottom)
        top = y
        covered: pygame.Rect | None = None
        clip = self.surface.get_clip()
        self.surface.set_clip(box.clip(clip) if clip else box)
        for line in lines:
            ink = self.fonts.ink(line, size, colour)
            if align == "left":
                x = box.x
            elif align == "right":
                x = box.right - ink.width
            else:
                x = box.x + (box.width - ink.width) // 2
            drawn = ink.rect(x, y)
            if fits and ink.surface is not None:
                # A glyph overhanging the line's start or end stays inside too.
                x += max(0, box.x - drawn.left) - max(0, drawn.right - box.right)
                drawn = ink.rect(x, y)
            line_box = pygame.Rect(x, y, ink.width, line_h)
            if ink.surface is not None:
                self.surface.blit(ink.surface, drawn.topleft)
                line_box.union_ip(drawn)
            covered = line_box if covered is None else covered.union(line_box)
            y += line_h
        self.surface.set_clip(clip)
        if covered is None:
            covered = pygame.Rect(box.x, top, 0, 0)
        self.boxes.append(TextBox(content, pygame.Rect(box), covered.clip(box) if fits else covered))
        return covered

    def _cut(self, content: str, box: pygame.Rect, size: int) -> tuple[list[str], bool]:
        """``content`` as one line at ``size`` cut with "…" to ``box``'s width; whether it fits."""
        shown = content.replace("\n", " ")
        high_enough = self.fonts.line_height(size) <= box.height
        if self.fonts.size(shown, size)[0] <= box.width:
            return [shown], high_enough and self._ink_fits([shown], size, box)
        while shown and self.fonts.size(shown + "…", size)[0] > box.width:
            shown = shown[:-1]
        line = shown.rstrip() + "…"
        return [line], bool(shown) and high_enough and self._ink_fits([line], size, box)

    def line(self, content: str, box: pygame.Rect, px: float, colour: RGB = theme.TEXT) -> None:
        """One line, shrunk to the minimum size and then cut with "…" if still too long."""
        size = self.px(px)
        typeset = _typeset(self.lang, content)
        while size > self.min_px and self.fonts.size(typeset, size)[0] > box.width:
            size -= 1
        shown = content
        if self.fonts.size(typeset, size)[0] > box.width:
            shown = typeset
            while shown and self.fonts.size(shown + "…", size)[0] > box.width:
                shown = shown[:-1]
            shown = shown.rstrip() + "…"
        self.text(shown, box, size / self.scale, colour, wrap=False, align="left")

    # -- shapes --------------------------------------------------------------------------

    def fill(self, colour: RGB, box: pygame.Rect | None = None, radius: float = 0) -> None:
        if radius:
            rounded_fill(self.surface, colour, box or self.surface.get_rect(), self.px(radius))
        else:
            solid_fill(self.surface, colour, box or self.surface.get_rect())

    def frame(self, colour: RGB, box: pygame.Rect, width: float = 2, radius: float = 0) -> None:
        pygame.draw.rect(self.surface, colour, box, max(1, self.px(width)),
                         border_radius=self.px(radius) if radius else 0)

    def button(self, box: pygame.Rect, label: str, act: Act | None, *, colour: RGB = theme.BUTTON,
               ink: RGB = theme.BUTTON_TEXT, px: float = 24, enabled: bool = True) -> None:
        """A button; tapping it (if enabled) performs ``act``."""
        inner = box.inflate(-self.px(4), -self.px(4))
        self.fill(colour if enabled else theme.PANEL, inner, radius=8)
        self.text(label, inner.inflate(-self.px(8), -self.px(4)), px, ink if enabled else theme.DIM)
        if enabled and act is not None:
            # The whole cell is tappable, margin included: a finger aims at the middle of what
            # it sees, and the gap between two buttons still belongs to one of them.
            self.hotspots.append(Hotspot(pygame.Rect(box), act))

    def chip(self, box: pygame.Rect, seat: int, label: str, *, px: float = 24, lit: bool = True,
             act: Act | None = None, hit: pygame.Rect | None = None) -> None:
        """A seat's name on its colour (dimmed when not lit); ``hit``: the tappable area when it
        is larger than the chip (its whole row, margins included)."""
        colour = theme.seat_colour(seat) if lit else theme.PANEL_HI
        self.fill(colour, box, radius=8)
        self.text(label, box.inflate(-self.px(8), -self.px(4)), px, theme.BLACK if lit else theme.DIM, cut=True)
        if act is not None:
            self.hotspots.append(Hotspot(pygame.Rect(hit or box), act))

    def card(self, box: pygame.Rect, card: Card | None) -> None:
        """A playing card: the big corner number and the kind's name on the kind's colour."""
        if card is None:
            self.frame(theme.DIM, box, 3, radius=14)
            return
        face, ink = theme.KIND_COLOURS[card.kind]
        self.fill(face, box, radius=14)
        self.frame(theme.BLACK, box, 3, radius=14)
        number_box = pygame.Rect(box.x, box.y + box.height // 12, box.width, box.height * 2 // 3)
        self.text(str(card.number), number_box, number_box.height * 0.9 / self.scale, ink)
        name_box = pygame.Rect(box.x + box.width // 12, box.bottom - box.height // 4,
                               box.width * 10 // 12, box.height // 5)
        self.text(kind_name(self.lang, card.kind), name_box, 30, ink, min_px=theme.MIN_TEXT)

    def guard_mark(self, centre: tuple[int, int], radius: int) -> None:
        """The Guard Bug: a red beetle (a body, a head and the split between the wings)."""
        x, y = centre
        pygame.draw.circle(self.surface, theme.CAUGHT, (x, y + radius // 6), radius)
        pygame.draw.circle(self.surface, theme.BLACK, (x, y - radius * 5 // 6), max(2, radius // 2))
        pygame.draw.line(self.surface, theme.BLACK, (x, y - radius * 2 // 3), (x, y + radius), max(1, radius // 5))
        for dx, dy in ((-radius // 2, 0), (radius // 2, radius // 3)):
            pygame.draw.circle(self.surface, theme.BLACK, (x + dx, y + dy), max(1, radius // 5))

    def crown(self, box: pygame.Rect) -> None:
        """The winner's crown."""
        x, y, w, h = box.x, box.y, box.width, box.height
        points = [(x, y + h), (x, y + h // 3), (x + w // 4, y + h * 2 // 3), (x + w // 2, y),
                  (x + w * 3 // 4, y + h * 2 // 3), (x + w, y + h // 3), (x + w, y + h)]
        pygame.draw.polygon(self.surface, theme.WARN, points)
        pygame.draw.polygon(self.surface, theme.BLACK, points, max(1, self.px(2)))

    def banner(self, box: pygame.Rect, label: str, colour: RGB, ink: RGB = theme.TEXT, px: float = 36) -> None:
        self.fill(colour, box)
        self.text(label, box.inflate(-self.px(12), -self.px(4)), px, ink)
