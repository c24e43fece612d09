"""Small drawings beside words: a creature on a light disc at the left of a label (the kind
rows of the card-naming grid), a creature at both ends of the race banner, and the Guard Bug
beside the guard's name.
The disc gives every drawing the same light ground on every kind's colour, dark or light."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from ..paint import Painter
from . import FACES_LEFT, blit_centred
from .card import WINDOW


def token(p: Painter, name: str, box: pygame.Rect) -> pygame.Rect:
    """The drawing ``name`` on a light disc filling the square ``box``; returns the disc's box."""
    side = min(box.width, box.height)
    disc = pygame.Rect(0, 0, side, side)
    disc.center = box.center
    pygame.draw.circle(p.surface, WINDOW, disc.center, side // 2)
    # The drawings reach their square's edges; inset them so legs stay on the disc.
    blit_centred(p.surface, name, disc.inflate(-side // 7, -side // 7))
    return disc


def token_side(p: Painter, names: Sequence[str], box_w: int, box_h: int, pad: int) -> int:
    """The side of the tokens in a column of labels ``box_w`` by ``box_h`` px: as tall as a label
    allows, but leaving room for the longest of ``names`` at the smallest text size (the words
    come first); 0, no tokens, when that leaves less than half a label's height."""
    need = max(p.fonts.size(name, p.min_px)[0] for name in names) + p.px(12) + 3 * pad
    side = min(box_h - 2 * pad, box_w - need)
    return side if side >= box_h // 2 else 0


def token_left(p: Painter, name: str, box: pygame.Rect, side: int, pad: int) -> pygame.Rect:
    """A token of ``side`` px at the left end of ``box``; returns what is left of ``box`` to
    its right (all of ``box`` when ``side`` is 0)."""
    if side <= 0:
        return box
    token(p, name, pygame.Rect(box.x + pad, box.centery - side // 2, side, side))
    return pygame.Rect(box.x + side + 2 * pad, box.y, box.width - side - 2 * pad, box.height)


def guard_bug(p: Painter, box: pygame.Rect) -> pygame.Rect:
    """The Guard Bug as large as fits in ``box``, centred (no disc: it marks a name)."""
    return blit_centred(p.surface, "guard", box)


def flank(p: Painter, name: str, box: pygame.Rect) -> pygame.Rect:
    """The drawing ``name`` at both ends of the banner ``box``, the right one mirrored so both
    face its middle; returns the part of ``box`` between them for the words."""
    side = min(box.height * 4 // 5, box.width // 5)
    if side < 8:
        return box
    top = box.y + (box.height - side) // 2
    pad = side // 8
    left = name in FACES_LEFT
    blit_centred(p.surface, name, pygame.Rect(box.x + pad, top, side, side), flip=left)
    blit_centred(p.surface, name, pygame.Rect(box.right - pad - side, top, side, side), flip=not left)
    return pygame.Rect(box.x + side + 2 * pad, box.y, box.width - 2 * (side + 2 * pad), box.height)
