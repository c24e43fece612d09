"""Issue 13 point 9.3 and 9.6: the round-end screen has Undo; an undone penalty row comes back
with its figures (not zeros) and the focus on it; each round's entry starts on its first open
row; a decided race's photo finish has Undo; a race's Cancel takes its card back."""

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


class Table5:
    """A table driven through the real controller and the screen's observer, at chosen times."""

    def __init__(self, players: int = 5) -> None:
        self.t_ns = 1_000 * MS
        self.ui = UiState()
        self.table: Table = new_table(TableSettings(seats=5, clock=CLOCK), 7, self.t_ns)
        for seat in range(players):
            self.tap(seat)
        self.feed(console.StartGame(self.at()))
        self.tap(0)                                    # Ali is the oldest: he guards round 1

    def at(self, ms: int = 400) -> int:
        self.t_ns += ms * MS
        return self.t_ns

    def feed(self, event: Input) -> None:
        made = step(self.table, event)
        observe(self.ui, self.table, made, made.table.now_t_ns)
        self.table = made.table

    def tap(self, seat: int) -> None:
        self.feed(Press(seat, self.at(), CLOCK))
        self.feed(Release(seat, self.at(100), CLOCK))

    def play(self, text: str) -> None:
        self.feed(console.Play(Card.parse(text), self.at()))

    def to_penalty(self) -> None:
        self.feed(console.Starter(Card.parse("number 3"), self.at()))
        self.play("number 4")                          # Ali
        self.play("number 5")                          # Bea: she may go out now
        self.feed(console.Out(1, self.at()))
        assert self.table.stage is Stage.PENALTY

    def scene(self) -> Scene:
        return Scene(self.table, self.ui, self.t_ns)


def _frame(scene: Scene, size: tuple[int, int] = (800, 480), lang: str = "en") -> Frame:
    return draw(pygame.Surface(size), fonts(lang), scene, lang)


def _acts(frame: Frame) -> set[str]:
    return {spot.act.kind for spot in frame.hotspots}


def test_an_undone_penalty_row_comes_back_with_its_figures_and_the_focus() -> None:
    rig = Table5(3)
    rig.to_penalty()
    assert rig.ui.penalty_row == 0
    rig.feed(console.Penalty(2, 1, 2, 3, rig.at()))    # Cem's row
    assert 2 not in rig.ui.penalty_form
    rig.feed(console.UndoLast(rig.at()))
    assert rig.table.game.entries[2] is None
    assert rig.ui.penalty_form[2] == [1, 2, 3] and rig.ui.penalty_row == 2


def test_undoing_the_row_that_scored_the_round_brings_its_figures_back() -> None:
    rig = Table5(3)
    rig.to_penalty()
    rig.feed(console.Penalty(0, 0, 0, 7, rig.at()))    # Ali, the guard all round: exactly 7
    rig.feed(console.Penalty(2, 0, 1, 5, rig.at()))    # the last row: the round is scored
    assert rig.table.stage is Stage.DEAL and rig.ui.penalty_form == {}
    rig.feed(console.UndoLast(rig.at()))
    assert rig.table.stage is Stage.PENALTY
    assert rig.ui.penalty_form[2] == [0, 1, 5] and rig.ui.penalty_row == 2


def test_each_rounds_entry_starts_on_its_first_open_row() -> None:
    rig = Table5(3)
    rig.to_penalty()
    rig.ui.penalty_row, rig.ui.penalty_col = 2, 2          # the cursor left on Cem's last field
    rig.feed(console.Penalty(0, 0, 0, 7, rig.at()))
    rig.feed(console.Penalty(2, 0, 1, 5, rig.at()))
    # Round 2: Bea guards; Cem goes out, so Ali (row 0) is the first open row again.
    rig.feed(console.Starter(Card.parse("number 3"), rig.at()))
    rig.play("number 4")                               # Bea
    rig.play("number 5")                               # Cem
    rig.ui.penalty_row, rig.ui.penalty_col = 1, 2
    rig.feed(console.Out(2, rig.at()))
    assert rig.table.stage is Stage.PENALTY
    assert (rig.ui.penalty_row, rig.ui.penalty_col) == (0, 0)


def test_the_round_end_screen_has_undo_and_it_takes_back_the_out() -> None:
    rig = Table5(3)
    rig.to_penalty()
    frame = _frame(rig.scene())
    assert "undo" in _acts(frame)
    inputs = Console(rig.ui, lambda: rig.at(), CLOCK).perform(Act("undo"), rig.table)
    assert len(inputs) == 1
    rig.feed(inputs[0])
    assert rig.table.stage is Stage.PLAY and rig.table.game.active == 2


def test_a_races_cancel_takes_the_card_back() -> None:
    rig = Table5(3)
    rig.feed(console.Starter(Card.parse("number 3"), rig.at()))
    rig.play("mosquito 4")                             # Ali
    assert rig.table.stage is Stage.RACE
    inputs = Console(rig.ui, lambda: rig.at(), CLOCK).perform(Act("cancel"), rig.table)
    assert inputs == [console.Cancel(rig.t_ns, take_back=True)]
    rig.feed(inputs[0])
    g = rig.table.game
    assert rig.table.stage is Stage.PLAY and g.active == 0 and g.hands == (8, 8, 8)
    assert g.discard == (Card.parse("number 3"),)
    assert rig.ui.notices[-1][0].render() == "Undone: Ali's mosquito 4."


def test_a_cancel_without_take_back_still_calls_the_race_off() -> None:
    # Older table logs and the simulated table: the card stays and the turn passes on.
    rig = Table5(3)
    rig.feed(console.Starter(Card.parse("number 3"), rig.at()))
    rig.play("mosquito 4")
    rig.feed(console.Cancel(rig.at()))
    assert rig.table.stage is Stage.PLAY and rig.table.game.active == 1
    assert rig.table.game.discard[-1] == Card.parse("mosquito 4")


def test_a_decided_races_photo_finish_has_undo() -> None:
    rig = Table5(3)
    rig.feed(console.Starter(Card.parse("number 3"), rig.at()))
    rig.play("mosquito 4")
    from game.controller import ScheduleGo

    run = rig.table.race
    assert run is not None
    go = step(rig.table, console.Tick(run.go_due_t_ns))
    schedule = [e for e in go.effects if isinstance(e, ScheduleGo)]
    go_t = run.go_due_t_ns
    from game.inputs import Go

    rig.feed(Go(go_t, CLOCK))
    rig.feed(Press(1, go_t + 200 * MS, CLOCK))
    rig.feed(Press(2, go_t + 300 * MS, CLOCK))
    rig.t_ns = go_t + 400 * MS
    assert rig.ui.overlay(rig.table, rig.t_ns) == "photo" and not schedule
    frame = _frame(rig.scene())
    assert "undo" in _acts(frame) and "dismiss" in _acts(frame)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round_end_with_five_players_and_undo_lays_out(lang: str) -> None:
    rig = Table5(5)
    rig.to_penalty()
    rig.feed(console.Penalty(2, 1, 2, 3, rig.at()))
    problems: list[str] = []
    for size in ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280)):
        frame = _frame(rig.scene(), size, lang)
        problems += [f"{size}: {o.text!r} does not fit" for o in frame.overflows]
        floor = int(48 * theme.scale_of(*size))
        problems += [f"{size}: {s.act.kind} {s.rect.size}" for s in frame.hotspots
                     if s.rect.width < floor or s.rect.height < floor]
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        problems += [f"{size}: {a.text!r} overlaps {b.text!r}" for a, b in itertools.combinations(drawn, 2)
                     if a.covered.colliderect(b.covered)]
    assert problems == []
