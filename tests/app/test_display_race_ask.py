"""The question a mosquito nobody answered twice puts to the table (issue 12 point 8 d): drawn in
every language and size, its two buttons (and the R and X keys) reach the controller as Rearm and
Cancel, and the controller re-runs or calls off the race. Every time here is chosen."""

from __future__ import annotations

import pygame
import pytest
from display_helpers import SIZES, fonts

from game.app.ui import theme
from game.app.ui.common import Scene
from game.app.ui.console import Console
from game.app.ui.render import Frame, draw
from game.app.ui.state import UiState
from game.cards import Card
from game.controller import ScheduleGo, Stage, Table, TableSettings, Tick, new_table, step
from game.controller import inputs as console
from game.i18n import LANGUAGES
from game.i18n.lookup import text
from game.inputs import Go, Press, Release

MS = 1_000_000
CLOCK = "sim"
T0 = 5_000 * MS


def asking_table() -> Table:
    """Three players; Ali plays a mosquito that nobody slaps, twice."""
    table = new_table(TableSettings(seats=5, clock=CLOCK), seed=3, t_ns=T0)
    t = T0
    for seat in (0, 1, 2):
        t += 300 * MS
        table = step(table, Press(seat, t, CLOCK)).table
        t += 100 * MS
        table = step(table, Release(seat, t, CLOCK)).table
    inputs: list[object] = [console.StartGame(t + 500 * MS), Press(0, t + 800 * MS, CLOCK),
                            Release(0, t + 900 * MS, CLOCK), console.Starter(Card.parse("number 3"), t + 1_400 * MS)]
    for event in inputs:
        table = step(table, event).table  # type: ignore[arg-type]
    made = step(table, console.Play(Card.parse("mosquito 4"), t + 2_000 * MS))
    for _ in range(2):
        go = next(e for e in made.effects if isinstance(e, ScheduleGo))
        table = step(made.table, Go(go.t_ns, CLOCK)).table
        made = step(table, Tick(go.t_ns + 3_001 * MS))  # nobody slapped within the timeout
    table = made.table
    assert table.stage is Stage.RACE and table.race is not None and table.race.asking
    return table


@pytest.fixture(scope="module")
def asking() -> Table:
    return asking_table()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_question_fits_in_every_language_and_size(asking: Table, lang: str, size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    frame = draw(surface, fonts(lang), Scene(asking, UiState(lang=lang), asking.now_t_ns), lang=lang)
    assert frame.screen == "race" and frame.overflows == (), frame.overflows
    min_px = round(theme.MIN_TEXT * theme.scale_of(*size))
    assert not [(words, px) for words, px in frame.texts if px < min_px * 0.9]
    assert text(lang, "race_ask") in [words for words, _ in frame.texts]
    acts = sorted(spot.act.kind for spot in frame.hotspots if spot.act.kind in ("rearm", "cancel"))
    assert acts == ["cancel", "rearm"]
    assert all(surface.get_rect().contains(spot.rect) for spot in frame.hotspots)


def _tap(frame: Frame, kind: str) -> pygame.event.Event:
    spot = next(s for s in frame.hotspots if s.act.kind == kind)
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False)


def test_the_buttons_and_keys_re_run_or_call_off_the_race(asking: Table) -> None:
    pygame.display.init()
    surface = pygame.display.set_mode((800, 480))
    now = asking.now_t_ns + 2_000 * MS
    con = Console(UiState(), lambda: now, CLOCK)
    frame = draw(surface, fonts("en"), Scene(asking, con.ui, asking.now_t_ns))
    assert con.handle(_tap(frame, "rearm"), frame, asking) == [console.Rearm(now)]
    assert con.handle(_tap(frame, "cancel"), frame, asking) == [console.Cancel(now, take_back=True)]
    key = Frame(frame.screen, (), (), ())
    assert con.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r), key, asking) == [console.Rearm(now)]
    assert con.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x), key, asking) == [console.Cancel(now, take_back=True)]
    again = step(asking, console.Rearm(now))
    assert again.table.race is not None and not again.table.race.asking
    assert any(isinstance(e, ScheduleGo) for e in again.effects)
    off = step(asking, console.Cancel(now))
    assert off.table.stage is Stage.PLAY and off.table.race is None
