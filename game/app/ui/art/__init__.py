"""The creatures' drawings: the six card kinds (the number card's flower, moth, ant, spider,
cockroach, mosquito) and the Guard Bug, each an SVG file beside this module, drawn by the
project. pygame-ce rasterises an SVG at the exact size asked for (SDL_image's nanosvg), so
a drawing is as sharp in a 48 px grid row as on a 300 px card; each (drawing, size) is
rasterised once and kept, so a frame only blits.

Edit a drawing in any SVG editor, but keep to what nanosvg reads: shapes, paths, groups with
transforms, linear and radial gradients, opacity. No text, <use>, <style>, clip paths or
filters (they are silently dropped)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

from ....cards import Kind

HERE = Path(__file__).resolve().parent

#: Every drawing, by file name (without ".svg"): the six kinds by their Kind value, then the guard.
NAMES: tuple[str, ...] = tuple(k.value for k in Kind) + ("guard",)

#: Drawings of a creature in profile looking left (the others look right or at you): the race
#: banner turns each end's creature to face the middle.
FACES_LEFT = frozenset({"mosquito"})

#: Enough for every size the screens use at one resolution (a few per drawing) with room for
#: a resolution change; a kiosk runs for weeks, so the cache must not grow without bound.
CACHE_SIZE = 96


def path_of(name: str) -> Path:
    if name not in NAMES:
        raise ValueError(f"no drawing named {name!r}: use one of {', '.join(NAMES)}")
    return HERE / f"{name}.svg"


@lru_cache(maxsize=CACHE_SIZE)
def creature(name: str, size_px: int) -> pygame.Surface:
    """The drawing ``name`` as a ``size_px`` square with alpha. Shared between callers (it is
    cached): blit it, never draw on it."""
    path = path_of(name)
    if type(size_px) is not int or size_px < 1:
        raise ValueError(f"drawing size {size_px!r} px for {name!r} is not valid: use a whole number of 1 or more")
    loaded = pygame.image.load_sized_svg(str(path), (size_px, size_px))
    # SDL_image hands back RGBA byte order; every surface it is drawn on is ARGB. Blitting
    # across the two orders takes SDL's slow path (7 ms for a 300 px drawing, 0.15 ms after
    # this one-off conversion to the usual ARGB-with-alpha format; same pixels).
    return loaded.convert(_ARGB)


_ARGB = pygame.Surface((1, 1), pygame.SRCALPHA)


@lru_cache(maxsize=CACHE_SIZE // 4)
def mirrored(name: str, size_px: int) -> pygame.Surface:
    """The drawing flipped left to right (a creature facing the other way), cached likewise."""
    return pygame.transform.flip(creature(name, size_px), True, False)


def kind_art(kind: Kind, size_px: int) -> pygame.Surface:
    """The drawing for a card kind."""
    return creature(kind.value, size_px)


def blit_centred(surface: pygame.Surface, name: str, box: pygame.Rect, flip: bool = False) -> pygame.Rect:
    """Draw ``name`` (``flip``: facing the other way) as large as fits, centred in ``box``;
    returns where it went (an empty rect when the box is too small to draw in)."""
    side = min(box.width, box.height)
    if side < 1:
        return pygame.Rect(box.center, (0, 0))
    art = mirrored(name, side) if flip else creature(name, side)
    return surface.blit(art, art.get_rect(center=box.center))
