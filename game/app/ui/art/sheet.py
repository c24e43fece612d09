"""The contact sheet: every drawing at 300, 96 and 48 px on the table's dark background and on
a card-light one, to check them side by side (docs/art/creatures.png is made by it):
``python -m game.app.ui.art.sheet docs/art/creatures.png``."""

from __future__ import annotations

import os
import sys

import pygame

from .. import theme
from . import NAMES, creature

SIZES_PX = (300, 96, 48)
BACKGROUNDS = (theme.BG, (246, 241, 226))
PAD = 16
LABEL_H = 34


def contact_sheet() -> pygame.Surface:
    """One column per drawing; per background, the 300 px drawing above the 96 and 48 px ones."""
    big, mid, small = SIZES_PX
    cell_w = big + 2 * PAD
    band_h = LABEL_H + big + PAD + mid + 2 * PAD
    sheet = pygame.Surface((cell_w * len(NAMES), band_h * len(BACKGROUNDS)))
    pygame.font.init()
    font = pygame.font.Font(None, 30)
    for b, background in enumerate(BACKGROUNDS):
        top = b * band_h
        sheet.fill(background, pygame.Rect(0, top, sheet.get_width(), band_h))
        ink = theme.TEXT if background == theme.BG else theme.BLACK
        for i, name in enumerate(NAMES):
            x = i * cell_w + PAD
            label = font.render(name, True, ink)
            sheet.blit(label, (x, top + (LABEL_H - label.get_height()) // 2 + 4))
            sheet.blit(creature(name, big), (x, top + LABEL_H))
            row = top + LABEL_H + big + PAD
            sheet.blit(creature(name, mid), (x + PAD, row))
            sheet.blit(creature(name, small), (x + PAD + mid + 2 * PAD, row + (mid - small) // 2))
    return sheet


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m game.app.ui.art.sheet OUT.png", file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.image.save(contact_sheet(), argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
