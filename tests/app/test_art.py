"""The creatures' drawings: each SVG loads at every size the screens use, is a real drawing, is
told apart from the others by shape and by colour (also as red-green colour-blind eyes see
it), is cached per size, sticks to what pygame-ce's SVG reader draws, ships as package data;
and the screens put them where they belong."""

from __future__ import annotations

import fnmatch
import itertools
import math
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from game.app.ui import art, theme
from game.app.ui.art import NAMES, creature, mirrored
from game.app.ui.art import badges
from game.app.ui.art.card import draw_card
from game.app.ui.paint import Painter
from game.app.ui.render import draw
from game.cards import Card, Kind
from game.i18n import LANGUAGES
from game.i18n.lookup import kind_name

from display_helpers import SIZES, fonts, scenes

ROOT = Path(__file__).resolve().parents[2]
KINDS = tuple(k.value for k in Kind)
SVG = "{http://www.w3.org/2000/svg}"
#: What SDL_image's nanosvg draws; anything else would be dropped without a word.
NANOSVG_TAGS = {"svg", "g", "defs", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
                "linearGradient", "radialGradient", "stop"}


def opaque(surface: pygame.Surface) -> pygame.mask.Mask:
    return pygame.mask.from_surface(surface, 127)


def test_there_is_a_drawing_for_every_kind_and_the_guard_and_no_other() -> None:
    assert NAMES == KINDS + ("guard",)
    on_disk = sorted(p.stem for p in art.HERE.glob("*.svg"))
    assert on_disk == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size_px", (24, 48, 96, 300))
def test_each_drawing_draws_at_each_size(name: str, size_px: int) -> None:
    surface = creature(name, size_px)
    assert surface.get_size() == (size_px, size_px)
    assert surface.get_flags() & pygame.SRCALPHA
    covered = opaque(surface).count() / size_px**2
    # A drawing, not a speck nor a filled square: between a fifth and two thirds of its square.
    assert 0.2 < covered < 0.66, covered
    # The corners are see-through, so the drawing sits on any background.
    for corner in ((0, 0), (size_px - 1, size_px - 1)):
        assert surface.get_at(corner).a == 0
    # More than one colour (outline, body, eyes), whatever the size.
    colours = {tuple(surface.get_at((x, y))) for x in range(0, size_px, max(1, size_px // 24))
               for y in range(0, size_px, max(1, size_px // 24)) if surface.get_at((x, y)).a == 255}
    assert len(colours) >= 4


def test_every_drawing_has_its_own_silhouette() -> None:
    """Shape alone tells any two apart (no help from colour): at 48 px, the grid's size, the
    overlap of two outlines is under 70 % of their union."""
    masks = {name: opaque(creature(name, 48)) for name in NAMES}
    for a, b in itertools.combinations(NAMES, 2):
        both = masks[a].overlap_area(masks[b], (0, 0))
        union = masks[a].count() + masks[b].count() - both
        assert both / union < 0.7, (a, b, both / union)


# Machado, Oliveira & Fernandes (2009), full severity, on linear RGB.
SEEING = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _mean_colour(name: str) -> list[float]:
    surface = creature(name, 48)
    pixels = [surface.get_at((x, y)) for x in range(48) for y in range(48)]
    solid = [c for c in pixels if c.a > 127]
    return [sum(_linear(c[i]) for c in solid) / len(solid) for i in range(3)]


@pytest.mark.parametrize("eyes", SEEING)
def test_the_six_kinds_differ_in_colour_also_to_red_green_colour_blind_eyes(eyes: str) -> None:
    """Each kind's overall colour (mean linear RGB of its drawing) stays apart from every other's
    as the eye sees it. The closest pair today, ant and cockroach to a protanope, is 0.07 apart;
    0.05 catches a recolouring that leaves two kinds the same brown blob."""
    m = SEEING[eyes]
    seen = {name: [sum(m[r][i] * v[i] for i in range(3)) for r in range(3)]
            for name, v in ((n, _mean_colour(n)) for n in KINDS)}
    for a, b in itertools.combinations(KINDS, 2):
        assert math.dist(seen[a], seen[b]) > 0.05, (eyes, a, b)


def test_drawings_are_cached_per_size_and_the_cache_is_bounded() -> None:
    creature.cache_clear()
    first = creature("moth", 48)
    assert creature("moth", 48) is first
    assert creature("moth", 49) is not first
    info = creature.cache_info()
    assert (info.hits, info.misses) == (1, 2)
    for size_px in range(10, 10 + art.CACHE_SIZE + 20):
        creature("ant", size_px)
    assert creature.cache_info().currsize == art.CACHE_SIZE


def test_drawings_are_kept_in_the_byte_order_screens_blit_fast() -> None:
    """SDL_image gives RGBA; a blit from it onto the (ARGB) screen takes SDL's slow path, about
    forty times slower (bench/bench_display.py shows it in the table screen's frame time)."""
    usual = pygame.Surface((1, 1), pygame.SRCALPHA).get_masks()
    for name in NAMES:
        assert creature(name, 48).get_masks() == usual
        assert mirrored(name, 48).get_masks() == usual


def test_a_mirrored_drawing_is_the_drawing_flipped_left_to_right() -> None:
    plain, flipped = creature("cockroach", 64), mirrored("cockroach", 64)
    assert mirrored("cockroach", 64) is flipped
    assert any(plain.get_at((x, 32)) != plain.get_at((63 - x, 32)) for x in range(64))
    for x, y in itertools.product(range(0, 64, 3), range(0, 64, 3)):
        assert flipped.get_at((x, y)) == plain.get_at((63 - x, y))


def test_an_unknown_drawing_or_a_bad_size_is_refused_with_what_would_do() -> None:
    with pytest.raises(ValueError, match=r"no drawing named 'bee': use one of number, moth, .*guard"):
        creature("bee", 48)
    with pytest.raises(ValueError, match=r"drawing size 0 px for 'moth' is not valid: use a whole number"):
        creature("moth", 0)
    with pytest.raises(ValueError, match=r"drawing size 4.5 px for 'moth'"):
        creature("moth", 4.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_each_svg_uses_only_what_pygame_draws(name: str) -> None:
    """nanosvg drops <text>, <use>, <style>, clip paths and filters silently: an edit that
    used them would lose part of a drawing without an error."""
    root = ET.parse(art.path_of(name)).getroot()
    assert root.get("viewBox") == "0 0 100 100"
    tags = {el.tag.removeprefix(SVG) for el in root.iter() if isinstance(el.tag, str)}
    assert tags <= NANOSVG_TAGS, tags - NANOSVG_TAGS
    assert not any("style" in el.attrib for el in root.iter())


def test_the_drawings_ship_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["game"]
    for name in NAMES:
        inside = art.path_of(name).relative_to(ROOT / "game").as_posix()
        assert any(fnmatch.fnmatch(inside, pattern) for pattern in patterns), inside


def _painter(size: tuple[int, int], lang: str = "en") -> Painter:
    return Painter(pygame.Surface(size), fonts(lang), lang)


@pytest.mark.parametrize("kind", list(Kind))
def test_the_big_card_shows_its_creature_and_its_number_largest(kind: Kind) -> None:
    p = _painter((800, 480))
    p.surface.fill(theme.BG)
    box = pygame.Rect(20, 20, 170, 238)
    draw_card(p, box, Card(kind, 3))
    assert p.overflows == []
    sizes = {text: px for text, px in p.texts}
    assert set(sizes) == {"3", kind_name("en", kind)}
    assert sizes["3"] > max(px for text, px in p.texts if text != "3")
    # The creature is in the window: the card's middle holds the drawing's own pixels.
    middle = pygame.Rect(0, 0, box.width // 3, box.height // 5)
    middle.center = box.center
    other = _painter((800, 480))
    other.surface.fill(theme.BG)
    draw_card(other, box, Card(Kind.NUMBER if kind is not Kind.NUMBER else Kind.MOTH, 3))
    assert any(p.surface.get_at((x, y)) != other.surface.get_at((x, y))
               for x in range(middle.left, middle.right) for y in range(middle.top, middle.bottom))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_s_card_fits_the_play_screen_s_card_box(lang: str, size: tuple[int, int],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The play screen shows whichever card is on top: each kind's name fits the box the screen
    gives the card, at every size and in every language."""
    import game.app.ui.screens_table as screens_table

    spy = Spy(draw_card)
    monkeypatch.setattr(screens_table, "draw_card", spy)
    draw(pygame.Surface(size), fonts(lang), scenes()["play"], lang=lang)
    (_, box, _), = spy.calls
    for kind in Kind:
        p = _painter(size, lang)
        draw_card(p, box, Card(kind, 5))  # type: ignore[arg-type]
        assert p.overflows == [], (kind, p.overflows)


def test_an_empty_pile_is_an_outline() -> None:
    p = _painter((800, 480))
    p.surface.fill(theme.BG)
    box = pygame.Rect(20, 20, 170, 238)
    draw_card(p, box, None)
    assert p.texts == []
    assert p.surface.get_at(box.center)[:3] == theme.BG
    assert p.surface.get_at((box.centerx, box.y + 1))[:3] == theme.DIM


class Spy:
    """Records each call and then really draws."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.calls: list[tuple[object, ...]] = []

    def __call__(self, *args: object, **kwargs: object) -> object:
        self.calls.append(args)
        return self.real(*args, **kwargs)  # type: ignore[operator]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", ("deal", "play"))
@pytest.mark.parametrize("lang", ("en", "es", "de"))
def test_the_card_grid_shows_every_kind_with_its_drawing(screen: str, lang: str, size: tuple[int, int],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """On the smallest screen too, in the longest-named languages: every row of the grid has
    its creature, at least 24 px at 800x480 (scaled with the screen)."""
    spy = Spy(badges.token)
    monkeypatch.setattr(badges, "token", spy)
    scene = scenes()[screen]
    frame = draw(pygame.Surface(size), fonts(lang), scene, lang=lang)
    # The names still fit beside the drawings (the whole screen's fit is test_display_screens').
    names = {kind_name(lang, k) for k in Kind}
    assert [o for o in frame.overflows if o.text in names] == []
    drawn = [args[1] for args in spy.calls]
    assert set(drawn) >= {k.value for k in Kind if k is not Kind.MOTH}
    assert len(drawn) == len(set(drawn))
    floor = 24 * theme.scale_of(*size)
    assert all(args[2].height >= floor for args in spy.calls), [args[2] for args in spy.calls]


def test_the_guard_bug_marks_the_guard_in_the_header_and_the_players_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    import game.app.ui.common as common

    spy = Spy(badges.guard_bug)
    monkeypatch.setattr(common, "guard_bug", spy)
    scene = scenes()["play"]
    draw(pygame.Surface((800, 480)), fonts("en"), scene)
    assert len(spy.calls) == 2
    header_box, panel_box = (args[1] for args in spy.calls)
    assert header_box.bottom <= 50 < panel_box.top


@pytest.mark.parametrize(("screen", "creature_name"), (("race-ready", "mosquito"), ("race-live", "mosquito")))
def test_the_race_banner_shows_the_race_s_creature(screen: str, creature_name: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import game.app.ui.screens_race as screens_race

    spy = Spy(badges.flank)
    monkeypatch.setattr(screens_race, "flank", spy)
    draw(pygame.Surface((800, 480)), fonts("en"), scenes()[screen])
    assert [args[1] for args in spy.calls] == [creature_name]


@pytest.mark.parametrize("name", ("cockroach", "mosquito"))
def test_the_banner_s_creatures_face_its_middle(name: str) -> None:
    """The cockroach runs right and the mosquito flies left: each end's one is turned inward."""
    p = _painter((800, 480))
    p.surface.fill(theme.WARN)
    box = pygame.Rect(0, 0, 800, 100)
    inner = badges.flank(p, name, box)
    side = 80
    assert inner.width == 800 - 2 * (side + 2 * (side // 8)) and inner.height == 100
    expected = {"left": mirrored(name, side) if name == "mosquito" else creature(name, side),
                "right": creature(name, side) if name == "mosquito" else mirrored(name, side)}
    for end, x0 in (("left", side // 8), ("right", 800 - side // 8 - side)):
        ground = pygame.Surface((side, side))
        ground.fill(theme.WARN)
        ground.blit(expected[end], (0, 0))
        for x, y in itertools.product(range(0, side, 4), range(0, side, 4)):
            assert p.surface.get_at((x0 + x, 10 + y)) == ground.get_at((x, y)), (end, x, y)
