"""Issue 13 point 9.5: the screen says what the group needs to know when they need it: on the
vote, how many guilty votes win and that silence counts as not guilty; at penalty entry, the
points a card of each class costs; on a cockroach race, what the house rule makes of the card
laid; on every race, its time window (said before GO, counted down after it)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pygame
import pytest
from display_helpers import fonts

from game.app.ui import theme
from game.app.ui.common import Scene
from game.app.ui.observe import observe
from game.app.ui.render import Frame, draw
from game.app.ui.state import UiState
from game.cards import Card
from game.controller import Stage, Table, TableSettings, new_table, step
from game.controller import inputs as console
from game.controller.inputs import Input
from game.engine import Penalty
from game.i18n import LANGUAGES
from game.inputs import CaughtPress, Go, Press, Release
from game.variants import CockroachCard, Rules

MS = 1_000_000
CLOCK = "test"
SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))


class Rig:
    """Ali, Bea, Cem, ... through the real controller and observer at chosen times."""

    def __init__(self, players: int = 4, rules: Rules | None = None) -> None:
        self.t_ns = 1_000 * MS
        self.ui = UiState()
        settings = TableSettings(seats=5, clock=CLOCK, rules=rules or Rules())
        self.table: Table = new_table(settings, 7, self.t_ns)
        for seat in range(players):
            self.tap(seat)
        self.feed(console.StartGame(self.at()))
        self.tap(0)
        self.feed(console.Starter(Card.parse("number 3"), self.at()))

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

    def frame(self, size: tuple[int, int] = (800, 480), lang: str = "en") -> Frame:
        return draw(pygame.Surface(size), fonts(lang), Scene(self.table, self.ui, self.t_ns), lang)

    def texts(self, size: tuple[int, int] = (800, 480), lang: str = "en") -> list[str]:
        return [box.text for box in self.frame(size, lang).boxes]


def _layout_problems(rig: Rig, lang: str) -> list[str]:
    problems: list[str] = []
    for size in SIZES:
        frame = rig.frame(size, lang)
        problems += [f"{size}: {o.text!r} does not fit" for o in frame.overflows]
        floor = int(48 * theme.scale_of(*size))
        problems += [f"{size}: {s.act.kind} {s.rect.size}" for s in frame.hotspots
                     if s.rect.width < floor or s.rect.height < floor]
        drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
        problems += [f"{size}: {a.text!r} overlaps {b.text!r}" for a, b in itertools.combinations(drawn, 2)
                     if a.covered.colliderect(b.covered)]
    return problems


# --- the vote ---------------------------------------------------------------------------------

def _vote(players: int) -> Rig:
    rig = Rig(players)
    rig.feed(CaughtPress(rig.at(), CLOCK))
    rig.feed(Press(1, rig.at(), CLOCK))                       # Ali accuses Bea
    assert rig.table.stage is Stage.VOTE
    return rig


@pytest.mark.parametrize(("players", "needed"), [(3, "1 vote needed"), (4, "2 votes needed"), (5, "2 votes needed")])
def test_the_vote_says_how_many_guilty_votes_win_and_that_silence_is_not_guilty(players: int, needed: str) -> None:
    rig = _vote(players)
    assert f"{needed} for guilty; silence counts as not guilty" in rig.texts()


def test_the_figure_on_screen_is_the_one_the_count_uses() -> None:
    # 5 players: 3 judges; the screen says 2, and 2 presses convict before the window ends.
    rig = _vote(5)
    rig.feed(Press(2, rig.at(), CLOCK))
    assert rig.table.stage is Stage.VOTE
    rig.feed(Press(3, rig.at(), CLOCK))
    assert rig.table.stage is not Stage.VOTE and rig.table.last_verdict is not None
    assert rig.table.last_verdict.guilty


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_vote_lays_out(lang: str) -> None:
    assert _layout_problems(_vote(5), lang) == []


# --- penalty entry ----------------------------------------------------------------------------

def _penalty(players: int = 5) -> Rig:
    rig = Rig(players)
    rig.feed(console.Play(Card.parse("number 4"), rig.at()))
    rig.feed(console.Play(Card.parse("number 5"), rig.at()))
    rig.feed(console.Out(1, rig.at()))
    assert rig.table.stage is Stage.PENALTY
    return rig


def test_penalty_entry_says_the_points_per_card_of_each_class() -> None:
    rig = _penalty()
    costs = (Penalty(1, 0, 0).points, Penalty(0, 1, 0).points, Penalty(0, 0, 1).points)
    assert costs == (10, 5, 1)                                  # RULES.md: 10, 5 and 1
    wide = rig.texts()
    assert {"10 pts each", "5 pts each", "1 pt each"} <= set(wide)
    assert "Points per card: moths 10, actions 5, numbers 1" in rig.texts((720, 1280))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_penalty_entry_lays_out(lang: str) -> None:
    assert _layout_problems(_penalty(5), lang) == []


# --- races ------------------------------------------------------------------------------------

def _race(card: str, rules: Rules | None = None) -> Rig:
    rig = Rig(4, rules)
    rig.feed(console.Play(Card.parse(card), rig.at()))
    assert rig.table.stage is Stage.RACE
    return rig


def _go(rig: Rig) -> int:
    run = rig.table.race
    assert run is not None
    rig.feed(Go(run.go_due_t_ns, CLOCK))
    rig.t_ns = run.go_due_t_ns
    return run.go_due_t_ns


def test_a_race_says_its_time_window_before_go_and_counts_it_down_after() -> None:
    rig = _race("mosquito 4")
    assert "Presses count for 3 s after GO" in rig.texts()
    go = _go(rig)
    rig.feed(Press(1, go + 200 * MS, CLOCK))                 # past the GO flash
    rig.t_ns = go + 1_200 * MS
    texts = rig.texts()
    assert "2 s" in texts and "Presses count for 3 s after GO" not in texts
    rig.t_ns = go + 2_500 * MS
    assert "1 s" in rig.texts()


def test_a_window_of_part_seconds_is_written_as_the_language_writes_it() -> None:
    rig = _race("mosquito 4")
    rig.table = replace(rig.table, settings=replace(rig.table.settings, race_timeout_ns=2_500 * MS))
    assert "Presses count for 2.5 s after GO" in rig.texts()
    assert "Nach LOS bleiben 2,5 s zum Drücken" in rig.texts(lang="de")


def test_a_cockroach_race_says_what_the_house_rule_makes_of_the_card_laid() -> None:
    rig = _race("cockroach 4")
    assert "Only the number counts: no action." in rig.texts()
    chain = _race("cockroach 4", Rules(cockroach_card=CockroachCard.CHAIN))
    assert "The card laid does its action." in chain.texts()
    assert "Only the number counts: no action." not in chain.texts()
    assert "Only the number counts" not in " ".join(_race("mosquito 4").texts())


def test_the_cockroach_card_instruction_carries_the_house_rule() -> None:
    for rules, said in ((Rules(), "Only the number counts: no action."),
                        (Rules(cockroach_card=CockroachCard.CHAIN), "The card laid does its action.")):
        rig = _race("cockroach 4", rules)
        go = _go(rig)
        rig.feed(Press(2, go + 180 * MS, CLOCK))
        rig.feed(console.Tick(go + 3_100 * MS))
        assert rig.table.race is not None and rig.table.race.result is not None
        assert rig.table.message.render().endswith(said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_race_screens_lay_out(lang: str) -> None:
    rig = _race("cockroach 4")
    problems = _layout_problems(rig, lang)
    go = _go(rig)
    rig.feed(Press(1, go + 200 * MS, CLOCK))
    rig.t_ns = go + 1_000 * MS
    problems += _layout_problems(rig, lang)
    assert problems == []
