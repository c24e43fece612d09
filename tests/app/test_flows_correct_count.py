"""Issue 13 point 9.4 on screen: after a row counting more cards than the official count, the
round-end screen offers "Correct Cem's count to 9" (a draw the rig was not told about); its tap
sends the correction and the row again, and the screen lays out in every language and size."""

from __future__ import annotations

import itertools

import pygame
import pytest
from display_helpers import fonts

from game.app.ui import theme
from game.app.ui.actions import Act
from game.app.ui.common import Scene
from game.app.ui.console import Console
from game.app.ui.observe import observe
from game.app.ui.render import Frame, draw
from game.app.ui.state import UiState
from game.cards import Card
from game.controller import Stage, Table, TableSettings, new_table, step
from game.controller import inputs as console
from game.controller.inputs import Input
from game.i18n import LANGUAGES
from game.inputs import Press, Release

MS = 1_000_000
CLOCK = "test"
SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))


class Rig:
    """Ali, Bea, Cem (and Dan, Eva) through the real controller and observer; Bea went out."""

    def __init__(self, players: int = 3) -> None:
        self.t_ns = 1_000 * MS
        self.ui = UiState()
        self.table: Table = new_table(TableSettings(seats=5, clock=CLOCK), 7, self.t_ns)
        for seat in range(players):
            self.feed(Press(seat, self.at(), CLOCK))
            self.feed(Release(seat, self.at(100), CLOCK))
        self.feed(console.StartGame(self.at()))
        self.feed(Press(0, self.at(), CLOCK))
        self.feed(Release(0, self.at(100), CLOCK))
        self.feed(console.Starter(Card.parse("number 3"), self.at()))
        self.feed(console.Play(Card.parse("number 4"), self.at()))
        self.feed(console.Play(Card.parse("number 5"), self.at()))
        self.feed(console.Out(1, self.at()))
        assert self.table.stage is Stage.PENALTY

    def at(self, ms: int = 400) -> int:
        self.t_ns += ms * MS
        return self.t_ns

    def feed(self, event: Input) -> None:
        made = step(self.table, event)
        observe(self.ui, self.table, made, made.table.now_t_ns)
        self.table = made.table

    def tap(self, act: Act) -> list[Input]:
        return Console(self.ui, lambda: self.at(), CLOCK).perform(act, self.table)

    def over_count(self) -> None:
        """Cem's row: 1 action card and 8 number cards, 9 cards where the rig counts 8."""
        self.ui.penalty_form[2] = [0, 1, 8]
        for made in self.tap(Act("penalty_ok", 2)):
            self.feed(made)

    def frame(self, size: tuple[int, int] = (800, 480), lang: str = "en") -> Frame:
        return draw(pygame.Surface(size), fonts(lang), Scene(self.table, self.ui, self.t_ns), lang)


def _fix(frame: Frame) -> list[object]:
    return [spot.act.value for spot in frame.hotspots if spot.act.kind == "correct_count"]


def test_the_screen_offers_the_correction_after_a_row_over_the_count() -> None:
    rig = Rig()
    assert _fix(rig.frame()) == []
    rig.over_count()
    frame = rig.frame()
    assert _fix(frame) == [(2, 9)]
    assert "Correct Cem's count to 9" in [box.text for box in frame.boxes]
    assert rig.ui.notice(rig.t_ns) is not None and "Cem officially holds 8" in rig.ui.notice(rig.t_ns).render()


def test_its_tap_corrects_the_count_and_enters_the_row() -> None:
    rig = Rig()
    rig.over_count()
    sent = rig.tap(Act("correct_count", (2, 9)))
    assert [type(i) for i in sent] == [console.CorrectCount, console.Penalty]
    for made in sent:
        rig.feed(made)
    g = rig.table.game
    assert g.hands[2] == 9 and g.entries[2] is not None and g.entries[2].cards == 9
    assert _fix(rig.frame()) == []


def test_the_offer_goes_when_the_form_no_longer_holds_that_row() -> None:
    rig = Rig()
    rig.over_count()
    rig.ui.penalty_form[2] = [0, 1, 7]            # the group counted again: 8 cards after all
    assert _fix(rig.frame()) == []
    assert rig.tap(Act("correct_count", (1, 9))) == []   # not what the table offered


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_offer_lays_out_in_every_size(lang: str) -> None:
    rig = Rig(5)
    rig.over_count()
    problems: list[str] = []
    for size in SIZES:
        frame = rig.frame(size, lang)
        assert _fix(frame), size
        problems += [f"{size}: {o.text!r} does not fit" for o in frame.overflows]
        floor = int(48 * theme.scale_of(*size))
        problems += [f"{size}: {s.act.kind} {s.rect.size}" for s in frame.hotspots
                     if s.rect.width < floor or s.rect.height < floor]
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        problems += [f"{size}: {a.text!r} overlaps {b.text!r}" for a, b in itertools.combinations(drawn, 2)
                     if a.covered.colliderect(b.covered)]
    assert problems == []
