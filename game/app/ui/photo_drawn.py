"""What the photo finish drew, where (the rectangles the Painter covered, which the tests
read), and the one-line text it draws with: a box as wide as the text, so the rectangle is the
text's own."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from ...i18n.lookup import decimal
from .paint import Painter
from .theme import RGB

Rect4 = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Drawn:
    """Where the photo finish put things, as the Painter covered them (tests read these)."""

    texts: tuple[tuple[str, str, Rect4], ...] = ()      # (role, text, rect)
    badges: tuple[tuple[int, str, Rect4], ...] = ()     # (player, catalog key, pill)
    axis_labels: tuple[tuple[str, Rect4], ...] = ()     # the main axis
    inset_labels: tuple[tuple[str, Rect4], ...] = ()    # the close-up's axis
    inset: Rect4 | None = None                          # the close-up
    framed: tuple[int, ...] = ()                        # the deciding pair's players
    rows: tuple[tuple[int, Rect4], ...] = ()            # (player, row on the board)
    lanes: tuple[tuple[int, Rect4], ...] = ()           # (player, lane in the photo)
    marks: tuple[tuple[int, str, Rect4], ...] = ()      # (player, what, where): dots, crosses
    photo: Rect4 | None = None                          # lanes and axis (None: left out)


@dataclass(slots=True)
class Sheet:
    """:class:`Drawn` being filled in while one photo finish is drawn."""

    texts: list[tuple[str, str, Rect4]] = field(default_factory=list)
    badges: list[tuple[int, str, Rect4]] = field(default_factory=list)
    axis_labels: list[tuple[str, Rect4]] = field(default_factory=list)
    inset_labels: list[tuple[str, Rect4]] = field(default_factory=list)
    inset: Rect4 | None = None
    framed: tuple[int, ...] = ()
    rows: list[tuple[int, Rect4]] = field(default_factory=list)
    lanes: list[tuple[int, Rect4]] = field(default_factory=list)
    marks: list[tuple[int, str, Rect4]] = field(default_factory=list)
    photo: Rect4 | None = None

    def done(self) -> Drawn:
        return Drawn(tuple(self.texts), tuple(self.badges), tuple(self.axis_labels),
                     tuple(self.inset_labels), self.inset, self.framed, tuple(self.rows),
                     tuple(self.lanes), tuple(self.marks), self.photo)


def r4(r: pygame.Rect) -> Rect4:
    return (r.x, r.y, r.width, r.height)


def localized(p: Painter, figure: str) -> str:
    """A figure with the language's decimal mark, never broken across lines."""
    return decimal(p.lang, figure).replace(" ", "\u00a0")


def text_w(p: Painter, content: str, px: int) -> int:
    """How wide ``content`` is drawn at ``px``: typeset first, as ``Painter.text`` draws it
    (French spacing before ``: ! ?`` makes a text wider than its catalog entry)."""
    return p.fonts.size(p.typeset(content), px)[0]


def put(p: Painter, drawn: Sheet, role: str, content: str, box: pygame.Rect, px: float,
        colour: RGB, align: str, *, cut: bool = False, valign: str = "center") -> pygame.Rect:
    """One line of text; ``cut``: too long even at the smallest size, it ends in "…" (a name)."""
    shown = content
    if cut:
        size = p.px(px)
        while size > p.min_px and text_w(p, shown, size) > box.width:
            size -= 1
        if text_w(p, shown, size) > box.width:
            while shown and text_w(p, shown + "…", size) > box.width:
                shown = shown[:-1]
            shown = shown.rstrip() + "…"
        px = size / p.scale
    # Drawn into a box as wide as the text, so the rectangle the Painter reports is the text's
    # own (it reports from the box's left edge, which for right-aligned text is far too wide).
    _, size, fits = p.layout_text(shown, box, p.px(px), wrap=False)
    if fits:
        w = min(box.width, text_w(p, shown, size))
        x = box.x if align == "left" else box.right - w if align == "right" else box.centerx - w // 2
        box = pygame.Rect(x, box.y, w, box.height)
        px = size / p.scale
    covered = p.text(shown, box, px, colour, align=align, valign=valign, wrap=False)
    if fits:
        # The Painter moves ink that reaches past its line (µ's tail in the Korean font) into
        # the box and reports the line's rectangle with it; what fits covers its box at most.
        covered = covered.clip(box)
    drawn.texts.append((role, shown, r4(covered)))
    return covered
