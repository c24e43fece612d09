"""Ink, not boxes (issue 22): every letter is drawn whole. The renderer drew each line on a
surface one line tall with the baseline at FreeSans Bold's ascender, which is the capitals'
height, so the accent of É Á Ö Ñ Å was cut off at most sizes ("Omer" for Ömer).

Each text is compared with the same glyphs drawn by FreeType directly onto a big surface with
a margin of an em all round: the ink must be identical, pixel for pixel, and where the reference
puts it. The sizes are the ones the screens use: collected from real frames (every gallery
screen in the five languages at the three sizes) plus each screen size's minimum text size."""

from __future__ import annotations

import dataclasses
import functools
import string

import pygame
import pytest
from display_helpers import SIZES, fonts, name_scenes, scenes
from sizes import SOAK

from game.app.ui import gallery, theme
from game.app.ui.common import Scene
from game.app.ui.fonts import NBSP, NNBSP, Fonts
from game.app.ui.paint import Painter
from game.app.ui.render import draw
from game.i18n import LANGUAGES
from game.i18n.lookup import catalog, text
from game.i18n.typography import typeset

HARD_NAMES = ("Ömer", "Ángel", "Ñuria", "Çelik", "Ÿvonne", "Łukasz", "Ærøskøbing", "김민준", "이가을")
WHITE = (255, 255, 255)
#: Every parameter a catalog entry names a person by; the others get a number.
_PEOPLE = {"accused", "actor", "giver", "guard", "loser", "name", "player", "recipient", "winner",
           "oldest", "names", "winners", "players", "others", "most", "house"}


@functools.cache
def screen_sizes(lang: str) -> tuple[int, ...]:
    """The text sizes (px) the screens draw in ``lang``: every gallery screen drawn as the app
    draws it, at the three sizes, and each size's minimum text size."""
    got: set[int] = set()
    for size in SIZES:
        got.add(max(1, round(theme.MIN_TEXT * theme.scale_of(*size))))
        for shot in gallery.shots(scenes()):  # type: ignore[arg-type]
            frame = draw(pygame.Surface(size), fonts(lang), shot.scene, lang=lang,  # type: ignore[arg-type]
                         attract=shot.attract_ns is not None,
                         board=shot.board if shot.name == "attract-board" else None,  # type: ignore[arg-type]
                         attract_ns=shot.attract_ns or 0)
            got.update(px for _, px in frame.texts)
    return tuple(sorted(got))


def every_size() -> tuple[int, ...]:
    return tuple(sorted(set().union(*(screen_sizes(lang) for lang in LANGUAGES))))


#: Above this, a size is a display size: a card's big number, the race's "GO!", a winner's
#: name; the texts drawn at those sizes are checked as drawn (the screens' texts test), the
#: catalog's sentences at the text sizes below it.
DISPLAY_PX = 100


def text_sizes(lang: str) -> tuple[int, ...]:
    return tuple(px for px in screen_sizes(lang) if px <= DISPLAY_PX)


def filled(lang: str) -> list[str]:
    """Every catalog entry of ``lang`` as the screens show it: filled in (a person's name by one
    of the hard names, in turn; any other value by a number) and typeset."""
    out = []
    for i, (key, template) in enumerate(sorted(catalog(lang).items())):
        fields = {f.split("|")[0] for _, f, _, _ in string.Formatter().parse(template) if f}
        params: dict[str, str | int] = {f: HARD_NAMES[i % len(HARD_NAMES)] if f in _PEOPLE else 12 for f in fields}
        out.append(typeset(lang, text(lang, key, **params)))
    return out


def reference(f: Fonts, line: str, px: int) -> tuple[pygame.Surface | None, tuple[int, int]]:
    """``line`` drawn by FreeType straight onto a surface with a margin of an em all round,
    each run by the font that has its glyphs (Fonts.runs), the pen moved by each run's
    measured width; cut to its ink, with the ink's place relative to the line's top-left."""
    margin = px
    width = f.size(line, px)[0]
    big = pygame.Surface((width + 2 * margin, f.line_height(px) + 2 * margin), pygame.SRCALPHA)
    baseline = f.get(px).get_sized_ascender()
    x = 0
    for i, segment in enumerate(line.replace(NBSP, " ").split(NNBSP)):
        if i:
            x += f.size(NNBSP, px)[0]
        for owner, piece in f.runs(segment):
            if piece.strip():
                owner.get(px).render_to(big, (margin + x, margin + baseline), piece, WHITE)
            x += owner.size(piece, px)[0]
    box = big.get_bounding_rect()
    assert big.get_rect().inflate(-2, -2).contains(box), (line, px)   # the margin was enough
    if not (box.width and box.height):
        return None, (0, 0)
    return big.subsurface(box).copy(), (box.x - margin, box.y - margin)


def pixels(surface: pygame.Surface | None) -> bytes:
    return b"" if surface is None else pygame.image.tobytes(surface, "RGBA")


def whole(f: Fonts, line: str, px: int) -> str | None:
    """None if ``line``'s ink at ``px`` is the reference's, else what differs."""
    want, (x, y) = reference(f, line, px)
    ink = f.ink(line, px, WHITE)
    if pixels(ink.surface) != pixels(want):
        return f"{line!r} at {px} px: ink differs from FreeType's unclipped drawing"
    if want is not None and (ink.x, ink.y) != (x, y):
        return f"{line!r} at {px} px: ink at {(ink.x, ink.y)}, FreeType puts it at {(x, y)}"
    if want is not None and not f.reach(line, px).contains(ink.rect(0, 0)):
        return f"{line!r} at {px} px: ink reaches beyond what the metrics say"
    return None


def lines_of(texts: list[str]) -> list[str]:
    return list(dict.fromkeys(line for t in texts for line in t.split("\n") if line.strip()))


# -- every catalog string, every name, every size --------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_string_is_drawn_whole(lang: str) -> None:
    # Every entry, at the text sizes its language's screens use: all of them in the soak run;
    # in the everyday run each entry at one of them in turn (every size is still used, by
    # many entries), and every character of the catalog at every size (the test below).
    f = fonts(lang)
    sizes = text_sizes(lang)
    texts = lines_of(filled(lang))
    problems = []
    for i, line in enumerate(texts):
        for px in (sizes if SOAK else (sizes[i % len(sizes)],)):
            problems.append(whole(f, line, px))
    assert [p for p in problems if p] == []


@pytest.mark.parametrize("setup", ("latin", "ko"))
def test_every_character_of_the_catalog_is_drawn_whole_at_every_size(setup: str) -> None:
    # The four Latin languages draw with the same fonts (FreeSans, Hangul borrowed): their
    # characters together at all their sizes. Korean's Hangul syllables (a few hundred, all of
    # one height) each at one size in turn in the everyday run, at every size in the soak.
    langs = ("ko",) if setup == "ko" else ("en", "de", "fr", "es")
    f = fonts(langs[0])
    sizes = sorted({px for lang in langs for px in text_sizes(lang)})
    chars = sorted({ch for lang in langs for t in filled(lang) for ch in t if not ch.isspace()})
    problems = []
    for i, ch in enumerate(chars):
        syllable = "\uac00" <= ch <= "\ud7a3"
        for px in (sizes if SOAK or not syllable else (sizes[i % len(sizes)],)):
            problems.append(whole(f, ch, px))
    assert [p for p in problems if p] == []


def test_the_texts_the_screens_draw_are_drawn_whole() -> None:
    # What the frames drew, at the size they drew it (the big "GO!" included).
    problems = []
    for lang in ("de", "ko"):
        f = fonts(lang)
        for size in SIZES:
            for name, scene in scenes().items():
                frame = draw(pygame.Surface(size), f, scene, lang, attract=name == "attract")
                for content, px in dict.fromkeys(frame.texts):
                    for line in lines_of([typeset(lang, content)]):
                        if f.size(line, px)[0] <= 4 * 1920:
                            problems.append(whole(f, line, px))
    assert [p for p in problems if p] == []


@pytest.mark.parametrize("lang", ("en", "ko"))
def test_every_hard_name_is_drawn_whole_at_every_size(lang: str) -> None:
    # "en" stands for the four Latin languages (one font setup: FreeSans, Hangul borrowed);
    # Korean draws Latin names with the Hangul font.
    f = fonts(lang)
    problems = [whole(f, name, px) for px in every_size() for name in HARD_NAMES + ("ÉÖÑÅ gyp", "Pris\u202f!")]
    assert [p for p in problems if p] == []


@pytest.mark.parametrize("lang", ("en", "ko"))
def test_an_accented_capital_is_not_its_bare_letter_at_any_size(lang: str) -> None:
    f = fonts(lang)
    for px in every_size():
        for accented, bare in (("É", "E"), ("Ö", "O"), ("Ñ", "N"), ("Á", "A"), ("Å", "A")):
            a, b = f.ink(accented, px, WHITE), f.ink(bare, px, WHITE)
            assert pixels(a.surface) != pixels(b.surface), (accented, px)
            assert a.surface is not None and b.surface is not None
            assert a.y < b.y, (accented, px)      # the accent stands above the capital


# -- the Painter keeps the ink inside the box ----------------------------------------------

def drawn_ink(surface: pygame.Surface) -> tuple[pygame.Rect, bytes]:
    """Where anything but the black background is on ``surface``, and those pixels."""
    surface.set_colorkey((0, 0, 0))
    mask = pygame.mask.from_surface(surface)
    surface.set_colorkey(None)
    rects = mask.get_bounding_rects()
    if not rects:
        return pygame.Rect(0, 0, 0, 0), b""
    box = rects[0].unionall(rects[1:])
    return box, pygame.image.tobytes(surface.subsurface(box), "RGB")


@pytest.mark.parametrize("lang", ("en", "ko"))
def test_the_painter_puts_a_name_whole_inside_a_box_one_line_tall(lang: str) -> None:
    # The tightest box a screen gives a name: as tall as one line of its size. The Painter fits
    # it (smaller if the ink needs it) and places it so that its ink is inside, identical to
    # FreeType's drawing of it.
    f = fonts(lang)
    for px in every_size():
        if px > 200:
            continue
        for name in HARD_NAMES:
            surface = pygame.Surface((f.size(name, px)[0] + 40, 3 * f.line_height(px)))
            box = pygame.Rect(20, f.line_height(px), f.size(name, px)[0], f.line_height(px))
            p = Painter(surface, f, lang)
            p.scale = 1.0
            p.min_px = 1
            p.text(name, box, px, WHITE)
            assert p.overflows == [], (name, px)
            (_, size), = p.texts
            want, _ = reference(f, name, size)
            expect = pygame.Surface(want.get_size()) if want is not None else None
            if expect is not None and want is not None:
                expect.blit(want, (0, 0))
            got, got_pixels = drawn_ink(surface)
            assert box.contains(got), (name, px, size, box, got)
            assert got_pixels == (b"" if expect is None else pygame.image.tobytes(expect, "RGB")), (name, px, size)
            assert p.boxes[0].covered.contains(got) and box.contains(p.boxes[0].covered)


def test_text_without_accents_is_laid_out_as_before() -> None:
    # A plain word in a box one line tall keeps its size and its line's place.
    f = fonts("en")
    for px in (20, 24, 27, 45):
        surface = pygame.Surface((800, 200))
        box = pygame.Rect(10, 50, 700, f.line_height(px))
        p = Painter(surface, f, "en")
        p.scale = 1.0
        assert p.layout_text("Ready to start", box, px) == (["Ready to start"], px, True)
        covered = p.text("Ready to start", box, px, valign="top")
        assert covered.top == box.top


def test_the_painter_draws_typeset_text_and_records_it_as_given() -> None:
    f = fonts("fr")
    surface = pygame.Surface((800, 100))
    p = Painter(surface, f, "fr")
    box = pygame.Rect(0, 0, 800, 100)
    p.text("Gardien: Bea", box, 30)
    assert p.texts == [("Gardien: Bea", p.px(30))] and p.boxes[0].text == "Gardien: Bea"
    shown = typeset("fr", "Gardien: Bea")
    assert shown != "Gardien: Bea" and p.layout_text("Gardien: Bea", box, p.px(30))[0] == [shown]
    # "201,650 ms" never splits from its unit, however narrow the box.
    narrow = pygame.Rect(0, 0, f.size("201,650", 24)[0] + 2, 100)
    lines, _, _ = p.layout_text("Temps 201,650 ms", narrow, 24, 24)
    assert "ms" not in lines


# -- end to end: the name on the screen -----------------------------------------------------

def test_the_keyboard_shows_the_umlaut_of_a_typed_name() -> None:
    base = name_scenes()["keyboard-full"]
    shots = {}
    for name in ("Ömer", "Omer"):
        ui = dataclasses.replace(base.ui, keyboard_text=name)
        surface = pygame.Surface((800, 480))
        frame = draw(surface, fonts("de"), Scene(base.table, ui, base.now_ns), "de")
        box = next(b for b in frame.boxes if b.text == name)
        shots[name] = (box.covered, surface)
    (ö_box, ö), (o_box, o) = shots["Ömer"], shots["Omer"]
    area = ö_box.union(o_box)
    assert pygame.image.tobytes(ö.subsurface(area), "RGB") != pygame.image.tobytes(o.subsurface(area), "RGB")
    # The dots stand above the O: rows above the bare name's ink are inked for Ömer.
    o_ink, _ = drawn_ink(o.subsurface(o_box).copy())
    above = pygame.Rect(ö_box.x, ö_box.y, ö_box.width, o_box.y + o_ink.y - ö_box.y)
    assert above.height > 0 and drawn_ink(ö.subsurface(above).copy())[1] != b""


def _inked_height(surface: pygame.Surface, area: pygame.Rect) -> int:
    """How many rows of ``area`` hold anything but its background (its commonest colour)."""
    cut = surface.subsurface(area)
    colours: dict[tuple[int, ...], int] = {}
    for y in range(area.height):
        for x in range(area.width):
            c = tuple(cut.get_at((x, y)))
            colours[c] = colours.get(c, 0) + 1
    background = max(colours, key=colours.__getitem__)
    rows = [y for y in range(area.height) if any(tuple(cut.get_at((x, y))) != background for x in range(area.width))]
    return rows[-1] - rows[0] + 1 if rows else 0


def test_the_photo_finish_shows_the_accents_of_the_names() -> None:
    # The racers' names on the timing board at 800×480: each accented name's ink is as tall as
    # FreeType draws it (the accent whole), and differs from the bare name's.
    photo = scenes()["photo"]
    t = photo.table
    accented, bare = ("Ömer", "Ñuria", "Ángel", "Çelik"), ("Omer", "Nuria", "Angel", "Celik")
    got = {}
    for names in (accented, bare):
        named = tuple((seat, names[i]) for i, seat in enumerate(t.seated))
        surface = pygame.Surface((800, 480))
        frame = draw(surface, fonts("es"), Scene(dataclasses.replace(t, names=named), photo.ui, photo.now_ns), "es")
        got[names] = ({b.text: b.covered for b in frame.boxes}, dict(frame.texts), surface)
    (a_boxes, a_px, a), (b_boxes, _, b) = got[accented], got[bare]
    shown = [(x, y) for x, y in zip(accented, bare) if x in a_boxes and y in b_boxes]
    assert len(shown) >= 2, a_boxes.keys()     # the racers of the photo finish, by name
    for x, y in shown:
        area = a_boxes[x].union(b_boxes[y])
        assert pygame.image.tobytes(a.subsurface(area), "RGB") != pygame.image.tobytes(b.subsurface(area), "RGB"), x
        want, _ = reference(fonts("es"), x, a_px[x])
        assert want is not None and _inked_height(a, a_boxes[x]) == want.get_height(), x
