"""Colours and sizes. Sizes scale with the screen's short side (480 px is the unit), so the
same layout works from 800×480 to 1920×1080 and in portrait 720×1280."""

from __future__ import annotations

from ...cards import Kind

RGB = tuple[int, int, int]

BG: RGB = (18, 22, 30)
PANEL: RGB = (32, 38, 50)
PANEL_HI: RGB = (48, 56, 72)
TEXT: RGB = (240, 240, 235)
DIM: RGB = (150, 158, 170)
GOOD: RGB = (70, 200, 110)
BAD: RGB = (230, 70, 60)
WARN: RGB = (245, 190, 60)
GO_GREEN: RGB = (30, 210, 90)
BUTTON: RGB = (60, 72, 96)
BUTTON_TEXT: RGB = (250, 250, 250)
CAUGHT: RGB = (200, 40, 40)
BLACK: RGB = (0, 0, 0)

#: One colour per physical seat (up to 8: referee mode), far apart in hue and all light enough
#: for black text.
SEATS: tuple[RGB, ...] = (
    (245, 166, 35),   # amber
    (74, 163, 240),   # sky blue
    (92, 194, 107),   # green
    (212, 95, 208),   # magenta
    (240, 100, 60),   # coral
    (60, 200, 192),   # teal
    (232, 216, 74),   # yellow
    (176, 150, 240),  # lavender
)

#: Card faces by kind: (face, ink).
KIND_COLOURS: dict[Kind, tuple[RGB, RGB]] = {
    Kind.NUMBER: ((246, 241, 226), (30, 30, 30)),
    Kind.MOTH: ((120, 100, 150), (255, 255, 255)),
    Kind.ANT: ((190, 70, 50), (255, 255, 255)),
    Kind.SPIDER: ((60, 50, 90), (255, 255, 255)),
    Kind.COCKROACH: ((120, 75, 40), (255, 255, 255)),
    Kind.MOSQUITO: ((40, 120, 130), (255, 255, 255)),
}

#: The smallest text anywhere, in px at a 480 px short side: 20 px on a 7" 800×480 panel has
#: letters ~2.7 mm tall, about 6 arcmin at 1.5 m (a 20/20 eye reads 5 arcmin).
MIN_TEXT = 20


def seat_colour(seat: int) -> RGB:
    return SEATS[seat % len(SEATS)]


def scale_of(width: int, height: int) -> float:
    """1.0 at 800×480. Portrait screens use their width (720 px gives 1.35: a 7" 720×1280 panel
    has finer pixels than a 7" 800×480 one, so text stays about as large in mm)."""
    if height > width:
        return min(width / 533, height / 948)
    return min(width / 800, height / 480)
