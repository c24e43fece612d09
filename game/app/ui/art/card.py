"""The big card on the table screen: the kind's colour as a frame round a light window with the
creature in it, the number in a badge in two corners (as printed cards have it, and the one
thing every player must read from across the table), the kind's name along the bottom."""

from __future__ import annotations

import pygame

from ....cards import Card
from ....i18n.lookup import kind_name
from .. import theme
from ..paint import Painter
from . import blit_centred

#: The window behind the creature and the number badges: every drawing is made to sit on it.
WINDOW: theme.RGB = (251, 246, 234)
RATIO = 1.4  # height / width of a playing card


def draw_card(p: Painter, box: pygame.Rect, card: Card | None) -> None:
    """Draw ``card`` filling ``box`` (an outline where the pile is empty)."""
    radius = max(4, box.width // 12)
    if card is None:
        pygame.draw.rect(p.surface, theme.DIM, box, max(1, p.px(3)), border_radius=radius)
        return
    face, ink = theme.KIND_COLOURS[card.kind]
    pygame.draw.rect(p.surface, face, box, border_radius=radius)
    pygame.draw.rect(p.surface, theme.BLACK, box, max(1, p.px(3)), border_radius=radius)
    w, h = box.width, box.height
    margin = max(3, w // 14)
    name_h = h // 7
    window = pygame.Rect(box.x + margin, box.y + margin, w - 2 * margin, h - 2 * margin - name_h)
    pygame.draw.rect(p.surface, WINDOW, window, border_radius=max(3, radius - margin // 2))
    # The creature keeps clear of the badges: it fills the window's middle band.
    badge = max(8, int(w * 0.44))
    art_box = window.inflate(-margin, -badge)
    blit_centred(p.surface, card.kind.value, art_box)
    _badge(p, pygame.Rect(window.x - margin // 2, window.y - margin // 2, badge, badge), card.number)
    # The lower badge stays inside the window: below it the name is written (in Korean or German
    # a long name fills its strip, and the badge's digit sat on its first letters).
    _badge(p, pygame.Rect(window.right - badge + margin // 2, window.bottom - badge, badge, badge), card.number)
    name_box = pygame.Rect(box.x + margin, window.bottom, w - 2 * margin, box.bottom - margin // 2 - window.bottom)
    # The name may go a tenth under the screens' minimum (as printed cards set it small): the
    # creature already says the kind, and the longest names ("Cockroach", "Moustique") would
    # otherwise need a card wider than the play screen's column gives at 800x480.
    p.text(kind_name(p.lang, card.kind), name_box, 30, ink, min_px=theme.MIN_TEXT * 0.9)


def _badge(p: Painter, box: pygame.Rect, number: int) -> None:
    """The number on a round white badge ringed in black: readable on every kind's colour."""
    r = box.width // 2
    pygame.draw.circle(p.surface, WINDOW, box.center, r)
    pygame.draw.circle(p.surface, theme.BLACK, box.center, r, max(1, p.px(3)))
    # The digit as large as the badge holds: the font's line box (1.09 x its size) nearly fills
    # the badge, a little low, since a digit stands on the baseline above the descender.
    line = box.inflate(-box.width // 8, -box.height // 8).move(0, box.height // 18)
    p.text(str(number), line, line.height / 1.1 / p.scale, theme.BLACK, wrap=False)
