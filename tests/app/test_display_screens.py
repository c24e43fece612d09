"""Every key screen drawn from prepared states, in every language and at 800×480, 1920×1080 and
720×1280 portrait: nothing overflows its box, nothing is smaller than the minimum text size,
drawing changes nothing, and every character has a glyph in the font used."""

from __future__ import annotations

import copy

import pygame
import pytest

from game.app.ui import theme
from game.app.ui.demo import KEY_SCREENS, shot_name
from game.app.ui.fonts import HANGUL_PACKAGE, choose, fonts_for, missing_glyphs
from game.app.ui.render import draw
from game.i18n import LANGUAGE_NAMES, LANGUAGES
from game.i18n.lookup import catalog

from display_helpers import SIZES, boards, fonts, scenes, scenes_in, staff_scenes


def test_simulated_games_show_every_key_screen() -> None:
    have = scenes()
    assert sorted(have) == sorted(KEY_SCREENS)
    for name, scene in have.items():
        if name not in ("attract", "settings", "out", "game-over"):
            assert shot_name(scene) == name


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_fits_in_every_language(lang: str, size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    min_px = round(theme.MIN_TEXT * theme.scale_of(*size))
    for name, scene in scenes_in(lang).items():
        surface.fill((255, 0, 255))
        frame = draw(surface, fonts(lang), scene, lang=lang, attract=name == "attract")
        assert frame.screen == ("attract" if name == "attract" else frame.screen)
        assert frame.overflows == (), (name, frame.overflows)
        small = [(text, px) for text, px in frame.texts if px < min_px * 0.9]
        assert not small, (name, small)
        assert frame.texts, name
        # The whole screen is painted (no magenta left from the fill) and it is not blank.
        colours = {surface.get_at((x, y))[:3] for x in range(0, size[0], 37) for y in range(0, size[1], 29)}
        # (GO is two colours on purpose: the whole screen green, the word black.)
        assert (255, 0, 255) not in colours and len(colours) > (1 if name == "race-go" else 3), name


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_kiosk_screens_fit_in_every_language(lang: str, size: tuple[int, int]) -> None:
    """The PIN keypad, the staff menu and its pages, and attract mode's leaderboard."""
    from game.app.ui.state import BoardView

    surface = pygame.Surface(size)
    min_px = round(theme.MIN_TEXT * theme.scale_of(*size))
    screen = surface.get_rect()
    drawn: list[tuple[str, object]] = [(name, scene) for name, scene in staff_scenes().items()]
    drawn += [(f"board-{name}", board) for name, board in boards().items()]
    for name, what in drawn:
        surface.fill((255, 0, 255))
        if isinstance(what, BoardView):
            frame = draw(surface, fonts(lang), scenes()["attract"], lang=lang, attract=True, board=what)
            assert frame.screen == "attract" and frame.hotspots == ()
        else:
            assert isinstance(what, type(scenes()["play"]))
            frame = draw(surface, fonts(lang), what, lang=lang)
            assert frame.screen.startswith(("pin", "staff", "settings")), (name, frame.screen)
            assert frame.hotspots and all(screen.contains(s.rect) for s in frame.hotspots), name
        assert frame.overflows == (), (name, frame.overflows)
        small = [(text, px) for text, px in frame.texts if px < min_px * 0.9]
        assert not small, (name, small)
        colours = {surface.get_at((x, y))[:3] for x in range(0, size[0], 37) for y in range(0, size[1], 29)}
        assert (255, 0, 255) not in colours, name


def test_kiosk_screens_draw_only_characters_the_fonts_have() -> None:
    """What the staff screens draw besides catalog text (the keypad's and steppers' signs)."""
    for lang in LANGUAGES:
        assert missing_glyphs(choose(lang).path, "–+#0123456789.,%") == "", lang


def test_drawing_never_changes_the_table_or_the_screen_state() -> None:
    surface = pygame.Surface((800, 480))
    for name, scene in scenes().items():
        table_before, ui_before = scene.table, copy.deepcopy(scene.ui)
        draw(surface, fonts("en"), scene, attract=name == "attract")
        assert scene.table is table_before and scene.table == table_before
        assert repr(scene.ui) == repr(ui_before), name


def test_hotspots_lie_on_the_screen_and_name_acts() -> None:
    surface = pygame.Surface((800, 480))
    for name, scene in scenes().items():
        frame = draw(surface, fonts("de"), scene, lang="de", attract=name == "attract")
        screen = surface.get_rect()
        for spot in frame.hotspots:
            assert screen.contains(spot.rect), (name, spot)
        if name == "attract":
            assert frame.hotspots == ()
        elif name not in ("race-ready", "race-go", "race-live"):
            assert frame.hotspots, name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_font_has_every_character_of_the_language(lang: str) -> None:
    choice = choose(lang)
    assert choice.lang == lang and choice.warning is None
    text = "".join(catalog(lang).values()) + "0123456789–…·"
    assert missing_glyphs(choice.path, text) == ""


def test_language_names_draw_in_a_font_that_has_them() -> None:
    latin, _ = fonts_for("en")
    assert latin.fallback is not None
    assert missing_glyphs(latin.fallback.path, LANGUAGE_NAMES["ko"]) == ""


def test_without_a_hangul_font_korean_falls_back_to_english_and_names_the_package(tmp_path: object) -> None:
    choice = choose("ko", hangul_candidates=())
    assert choice.lang == "en"
    assert choice.warning is not None and HANGUL_PACKAGE in choice.warning
    fonts_, chosen = fonts_for("ko", hangul_candidates=())
    assert chosen.lang == "en" and fonts_.fallback is None


def test_the_name_keyboard_is_drawn_in_the_tables_language() -> None:
    # Drawn with lang= alone the Korean keyboard showed Latin keys (issue 22): a Korean table's
    # keyboard opens on Hangul, every other language's on Latin.
    for lang in LANGUAGES:
        frame = draw(pygame.Surface((800, 480)), fonts(lang), scenes_in(lang)["keyboard"], lang=lang)
        keys = {text for text, _ in frame.texts}
        assert ("ㅂ" in keys) == (lang == "ko") and ("q" in keys) == (lang != "ko"), (lang, sorted(keys)[:20])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_staff_confirmation_answers_say_what_they_do(lang: str) -> None:
    # A bare Yes / No under a two-sentence question made staff read it again to know which one
    # ends the game (de/ko review): the answer that acts says the act, as the title does.
    from game.app.ui.paint import Painter

    say = Painter(pygame.Surface((8, 8)), fonts(lang), lang).t
    for what, act in (("end", "ui_end_game"), ("reset", "ui_reset_board"), ("shutdown", "ui_shutdown")):
        for size in ((800, 480), (720, 1280)):
            frame = draw(pygame.Surface(size), fonts(lang), staff_scenes()[f"staff-confirm-{what}"], lang=lang)
            assert frame.overflows == (), (what, size, frame.overflows)
            answers = {spot.act.kind: text for spot in frame.hotspots
                       for text, box in ((b.text, b.box) for b in frame.boxes) if spot.rect.contains(box)}
            assert answers.get("staff_yes") == say(act) and answers.get("back") == say("ui_back"), \
                (what, size, answers)


@pytest.mark.parametrize("lang", ("de", "ko"))
def test_a_countdown_that_ran_out_says_no_time_left(lang: str) -> None:
    # "0 s" read as a window still open (de/ko review): the pick's and the vote's countdowns
    # are gone once their time is up, until the table moves on.
    from game.app.ui.common import Scene
    from game.app.ui.paint import Painter

    zero = Painter(pygame.Surface((8, 8)), fonts(lang), lang).t("ui_seconds_left", seconds=0)
    one = Painter(pygame.Surface((8, 8)), fonts(lang), lang).t("ui_seconds_left", seconds=1)
    for name in ("pick", "vote"):
        scene = scenes()[name]
        deadline = scene.table.dispute.deadline_t_ns
        for now, shown in ((deadline - 10**9, one), (deadline, None), (deadline + 10**6, None)):
            frame = draw(pygame.Surface((800, 480)), fonts(lang), Scene(scene.table, scene.ui, now), lang=lang)
            said = [text for text, _ in frame.texts]
            assert zero not in said and (shown is None or shown in said), (name, now - deadline, said)
