"""Attract mode: what an idle rig shows to a room, full screen, until someone presses a button.

Three slides take turns (each ``SLIDE_NS`` long): the title with the creatures parading
across it, a simulated game playing in a framed window ("how it looks"), and — in a café —
the leaderboard. Every slide keeps the invitation to press a button along the bottom,
pulsing so it catches the eye across a room.

Everything moves by the time given, never by frame count, so a screenshot at a chosen time is
reproducible and a slow frame does not slow the parade.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from . import art, theme
from .paint import Painter
from .screens_staff import draw_board
from .state import BoardView

S = 1_000_000_000
SLIDE_NS = 8 * S

#: The parade: who walks across the title slide, in order (the guard keeps an eye on them).
PARADE = ("moth", "ant", "spider", "cockroach", "mosquito", "number", "guard")
PARADE_NS = 14 * S          # one creature's walk from the left edge to the right


@dataclass(frozen=True, slots=True)
class Slide:
    name: str               # "title", "demo" or "board"
    index: int              # which turn of the cycle (for tests and screenshots)


def slides(has_board: bool) -> tuple[str, ...]:
    return ("title", "demo", "board") if has_board else ("title", "demo")


def slide_at(elapsed_ns: int, has_board: bool) -> Slide:
    """The slide shown ``elapsed_ns`` after attract mode began."""
    order = slides(has_board)
    turn = max(0, elapsed_ns) // SLIDE_NS
    return Slide(order[turn % len(order)], turn)


def draw_attract(p: Painter, elapsed_ns: int, draw_demo: Callable[[pygame.Surface], None],
                 board: BoardView | None) -> Slide:
    """Draw attract mode ``elapsed_ns`` after it began; ``draw_demo`` draws the simulated
    game on the surface it is given (any size: the screens lay out to their surface)."""
    slide = slide_at(elapsed_ns, board is not None)
    p.fill(theme.BG)
    invite_h = p.px(96 if p.portrait else 76)
    stage = pygame.Rect(0, 0, p.width, p.height - invite_h)
    if slide.name == "title":
        _title(p, stage, elapsed_ns)
    elif slide.name == "demo":
        _demo(p, stage, draw_demo)
    else:
        assert board is not None
        _board(p, stage, board, elapsed_ns)
    _invite(p, pygame.Rect(0, stage.bottom, p.width, invite_h), elapsed_ns)
    return slide


def _title(p: Painter, box: pygame.Rect, t_ns: int) -> None:
    pad = p.px(16)
    title_h = p.px(120 if p.portrait else 96)
    hero = min(box.width // 2 if p.portrait else box.width // 3, box.height - title_h - p.px(140))
    hero_box = pygame.Rect(0, 0, hero, hero)
    # The moth hovers: a slow bob, so the title slide is alive even between parade walkers.
    bob = round(math.sin(t_ns / S * 2.2) * p.px(6))
    hero_box.midtop = (box.centerx, box.y + pad + bob)
    art.blit_centred(p.surface, "moth", hero_box)
    title = pygame.Rect(box.x + pad, hero_box.bottom + p.px(4) - bob, box.width - 2 * pad, title_h)
    p.text(p.t("ui_title"), title, 88, theme.WARN)
    line = pygame.Rect(box.x + pad, title.bottom, box.width - 2 * pad, p.px(84 if p.portrait else 40))
    p.text(p.t("ui_attract_line"), line, 26, theme.TEXT)
    lane = pygame.Rect(box.x, line.bottom + p.px(6), box.width, max(p.px(48), box.bottom - line.bottom - p.px(12)))
    _parade(p, lane, t_ns)


def _parade(p: Painter, lane: pygame.Rect, t_ns: int) -> None:
    """Creatures walking left to right along ``lane``, evenly spaced in time, each bobbing."""
    size = min(lane.height, p.px(96))
    if size < p.px(24):
        return
    span = lane.width + size
    gap_ns = PARADE_NS // len(PARADE)
    for n, name in enumerate(PARADE):
        progress = ((t_ns + n * gap_ns) % PARADE_NS) / PARADE_NS
        x = lane.x - size + round(progress * span)
        hop = abs(math.sin(progress * math.pi * 12)) * size * 0.12
        y = lane.y + (lane.height - size) // 2 - round(hop)
        face_left = name in art.FACES_LEFT
        # Everyone walks right: a drawing that looks left is turned round.
        art.blit_centred(p.surface, name, pygame.Rect(x, y, size, size), flip=face_left)


def _demo(p: Painter, box: pygame.Rect, draw_demo: Callable[[pygame.Surface], None]) -> None:
    pad = p.px(14)
    label_h = p.px(44)
    p.text(p.t("ui_attract_demo"), pygame.Rect(box.x + pad, box.y + p.px(6), box.width - 2 * pad, label_h), 30,
           theme.WARN)
    room = pygame.Rect(box.x + pad, box.y + label_h + p.px(10), box.width - 2 * pad,
                       box.height - label_h - p.px(10) - pad)
    # The window keeps the screen's shape, so the game inside lays out as it would full size.
    scale = min(room.width / p.width, room.height / p.height)
    window = pygame.Rect(0, 0, max(1, int(p.width * scale)), max(1, int(p.height * scale)))
    window.center = room.center
    frame = window.inflate(p.px(8), p.px(8))
    p.fill(theme.WARN, frame, radius=10)
    draw_demo(p.surface.subsurface(window))


def _board(p: Painter, box: pygame.Rect, board: BoardView, t_ns: int) -> None:
    pad = p.px(12)
    side = p.px(72)
    crest = pygame.Rect(box.x + pad, box.y + pad, side, side)
    art.blit_centred(p.surface, "cockroach", crest)
    art.blit_centred(p.surface, "mosquito", crest.move(box.width - 2 * pad - side, 0))  # faces the middle
    p.text(p.t("ui_title"), pygame.Rect(crest.right, box.y + pad, box.width - 2 * (side + pad), side), 48,
           theme.WARN)
    draw_board(p, board, pygame.Rect(box.x + pad, crest.bottom + pad, box.width - 2 * pad,
                                     box.bottom - crest.bottom - 2 * pad))


def _invite(p: Painter, box: pygame.Rect, t_ns: int) -> None:
    # A slow pulse between the warm yellow and white: seen from across a café, not flashing.
    phase = (math.sin(t_ns / S * math.pi) + 1) / 2
    colour = tuple(round(a + (b - a) * phase) for a, b in zip(theme.WARN, theme.TEXT))
    p.fill(theme.PANEL, box)
    p.text(p.t("ui_press_any"), box.inflate(-p.px(20), -p.px(8)), 44, colour)  # type: ignore[arg-type]
