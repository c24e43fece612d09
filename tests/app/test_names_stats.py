"""Game over shows each player's reactions (races, best, median, false starts) in turns with the
standings and the points chart; figures in whole milliseconds; the game's fastest in gold."""

from __future__ import annotations

import dataclasses

import pygame
from display_helpers import fonts, name_scenes, scenes

from game.app.ui import theme
from game.app.ui.common import Scene
from game.app.ui.render import draw
from game.app.ui.screens_reactions import PANEL_NS, shows_reactions, whole_ms
from game.controller.reactions import RaceTimes, stats

MS = 1_000_000


def texts(scene: Scene, lang: str = "en", size: tuple[int, int] = (800, 480)) -> list[str]:
    frame = draw(pygame.Surface(size), fonts(lang), scene, lang)
    assert frame.screen == "game-over" and frame.overflows == ()
    return [t for t, _ in frame.texts]


def test_reactions_take_turns_with_the_standings_and_the_chart() -> None:
    over = scenes()["game-over"]
    assert over.now_ns == over.ui.game_over_at_ns and not shows_reactions(over)   # standings first
    start = over.ui.game_over_at_ns
    first = Scene(over.table, over.ui, start + 2 * PANEL_NS + 5)
    then = Scene(over.table, over.ui, start + 2 * PANEL_NS - 1)
    assert not shows_reactions(first) and shows_reactions(then)
    assert "Total after each round" in texts(first) and "Reactions to GO" not in texts(first)
    said = texts(then)
    assert "Reactions to GO" in said and "Total after each round" not in said
    assert "New game" in said                                   # the way on stays in both


def test_each_players_figures_are_shown_in_standings_order() -> None:
    over = scenes()["game-over"]
    times = (RaceTimes((0, 1, 2, 3), ((1, 183_456_789), (2, 250 * MS), (3, 301 * MS)), (0,)),
             RaceTimes((0, 1, 2, 3), ((0, 420 * MS), (1, 199_500_000), (2, 260 * MS)), ()),
             RaceTimes((1, 2, 3), ((1, 230 * MS), (3, 280 * MS)), (2,)))
    table = dataclasses.replace(over.table, race_times=times)
    scene = Scene(table, over.ui, over.ui.game_over_at_ns + PANEL_NS)
    said = texts(scene)
    order = [st.player for st in table.game.standings()]
    i = said.index("Reactions to GO")
    rows = said[i + 7:]                       # past the title and the six column heads
    for n, player in enumerate(order):
        st = stats(times, table.players)[player]
        row = rows[n * 6:(n + 1) * 6]
        assert row == [table.name(player), str(table.game.totals[player]), str(st.races), whole_ms(st.best_ns),
                       whole_ms(st.median_ns), str(st.false_starts)]
    assert stats(times, 4)[1].best_ns == 183_456_789 and "183 ms" in rows


def test_the_fastest_slap_of_the_game_is_gold() -> None:
    over = scenes()["game-over"]
    times = (RaceTimes((0, 1), ((0, 300 * MS), (1, 150 * MS)), ()),)
    scene = Scene(dataclasses.replace(over.table, race_times=times), over.ui, over.ui.game_over_at_ns + PANEL_NS)
    surface = pygame.Surface((800, 480))
    frame = draw(surface, fonts("en"), scene, "en")
    box = next(b for b in frame.boxes if b.text == "150 ms")
    colours = {surface.get_at((x, y))[:3] for x in range(box.covered.left, box.covered.right)
               for y in range(box.covered.top, box.covered.bottom)}
    assert theme.WARN in colours
    other = next(b for b in frame.boxes if b.text == "300 ms")
    assert theme.WARN not in {surface.get_at((x, y))[:3] for x in range(other.covered.left, other.covered.right)
                              for y in range(other.covered.top, other.covered.bottom)}


def test_a_game_without_a_decided_race_keeps_the_chart() -> None:
    over = scenes()["game-over"]
    scene = Scene(dataclasses.replace(over.table, race_times=()), over.ui, over.ui.game_over_at_ns + PANEL_NS)
    assert not shows_reactions(scene) and "Reactions to GO" not in texts(scene)


def test_whole_milliseconds_round_half_up() -> None:
    assert whole_ms(183_499_999) == "183 ms" and whole_ms(183_500_000) == "184 ms" and whole_ms(None) == "–"


def test_the_reactions_turn_lays_out_in_portrait_by_column() -> None:
    scene = name_scenes()["game-over-reactions"]
    said = texts(scene, "de", (720, 1280))
    assert "Reaktion auf LOS" in said and "Fehlstarts" in said
