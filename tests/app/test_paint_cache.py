"""What the drawing remembers between frames, and the cheaper fill, change nothing that is drawn:
remembered widths and layouts equal fresh ones, solid_fill is surface.fill pixel for pixel, a
text's ink blitted alone is the whole rendering, and fonts survive pygame quitting."""

from __future__ import annotations

import random

import pygame
from display_helpers import fonts, scenes

from game.app.ui.fonts import fonts_for
from game.app.ui.paint import Painter, rounded_fill, solid_fill
from game.app.ui.render import draw


def test_solid_fill_is_surface_fill_pixel_for_pixel() -> None:
    rng = random.Random(7)
    for _ in range(200):
        size = rng.choice(((800, 480), (720, 1280), (64, 40)))
        rect = pygame.Rect(rng.randrange(-50, size[0]), rng.randrange(-50, size[1]),
                           rng.randrange(-2, size[0] + 60), rng.randrange(-2, size[1] + 60))
        clip = rng.choice((None, pygame.Rect(rng.randrange(size[0]), rng.randrange(size[1]), 300, 200)))
        a, b = pygame.Surface(size), pygame.Surface(size)
        for s in (a, b):
            s.fill((20, 30, 40))
            s.set_clip(clip)
        a.fill((200, 100, 50), rect)
        solid_fill(b, (200, 100, 50), rect)
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), (size, rect, clip)


def test_rounded_fill_is_draw_rect_pixel_for_pixel_drawn_or_stamped() -> None:
    rng = random.Random(11)
    for _ in range(120):
        size = rng.choice(((800, 480), (1920, 1080)))
        rect = pygame.Rect(rng.randrange(-40, size[0]), rng.randrange(-40, size[1]),
                           rng.randrange(0, 500), rng.randrange(0, 300))
        radius = rng.choice((1, 8, 18, 40))
        colour = rng.choice(((255, 0, 255), (0, 255, 0), (60, 70, 80)))
        clip = rng.choice((None, pygame.Rect(rng.randrange(size[0]), rng.randrange(size[1]), 400, 200)))
        want = pygame.Surface(size)
        want.fill((20, 30, 40))
        want.set_clip(clip)
        pygame.draw.rect(want, colour, rect, border_radius=radius)
        for _ in range(3):  # drawn, then kept as a stamp, then blitted from it
            got = pygame.Surface(size)
            got.fill((20, 30, 40))
            got.set_clip(clip)
            rounded_fill(got, colour, rect, radius)
            assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(want, "RGB"), (size, rect, radius, clip)


def test_remembered_widths_and_layouts_equal_fresh_ones() -> None:
    warm = fonts("fr")
    for name, scene in scenes().items():  # twice: the second frame is drawn from memory
        for _ in range(2):
            draw(pygame.Surface((800, 480)), warm, scene, "fr", attract=name == "attract")
    fresh, _ = fonts_for("fr")
    surface = pygame.Surface((800, 480))
    for text in ("Pris\u00a0!", "Manche 2/4", "한국어", "Bea −3", "Wächterwanze"):
        for px in (20, 33, 60):
            assert warm.size(text, px) == fresh.size(text, px)
            box = pygame.Rect(0, 0, 140, 70)
            assert Painter(surface, warm, "fr").layout_text(text, box, px) == \
                Painter(surface, fresh, "fr").layout_text(text, box, px)


def test_text_blitted_from_its_ink_is_the_whole_rendering() -> None:
    f = fonts("ko")
    for text, px, colour in (("라운드 2 − Bea", 44, (240, 240, 240)), ("Wächterwanze", 20, (10, 10, 10)),
                             ("« Pris ! »", 90, (255, 80, 80)), ("   ", 30, (1, 2, 3))):
        whole = pygame.Surface((900, 120))
        whole.fill((30, 40, 50))
        inked = whole.copy()
        rendering, (x, y) = f.render(text, px, colour)
        whole.blit(rendering, (5 - x, 7 - y))       # the line box's top-left at (5, 7)
        ink = f.ink(text, px, colour)
        assert ink.width == f.size(text, px)[0]
        if ink.surface is not None:
            inked.blit(ink.surface, (5 + ink.x, 7 + ink.y))
        assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(inked, "RGB"), text


def test_fonts_work_again_after_pygame_quits() -> None:
    f, _ = fonts_for("ko")
    before = f.size("라운드 2", 30), f.render("라운드 2", 30, (255, 255, 255))[0].get_size()
    pygame.quit()
    pygame.font.init()
    assert f.size("라운드 2", 30) == before[0]
    assert f.render("새 글자", 31, (255, 255, 255))[0].get_width() > 0  # a font made again
    assert f.size("다른 글자", 30)[0] > 0
