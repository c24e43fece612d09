"""The app's loop survives its input failing mid-race: a buzzer board unplugged while a race is
armed (LinkDown from arm, a show that cannot reach the LEDs) or voided at GO (RaceVoidedError)
is said on screen, and the race runs again from arming once the board answers again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pygame
from display_helpers import fonts

from firmware_host.boardlink.errors import LinkDown, RaceVoidedError
from firmware_host.records import SeatLight
from game.app.rigconfig import RigConfig
from game.app.ui.adapters import Detected
from game.app.ui.loop import RETRY_NS, App
from game.app.ui.sound import Sounds
from game.app.ui.state import UiState
from game.controller import Arm, Stage
from game.inputs import Go
from game.sim.presses import T0_NS, table_script


class FlakyBoard:
    """A board adapter whose calls fail on demand, like a board pulled out at the wrong moment."""

    clock = "board"
    resolution_ns = 10_000

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.t_ns = T0_NS
        self.up = True
        self.fail_arm = 0
        self.fail_go = 0
        self.arms = 0
        self.gos = 0

    def now_ns(self) -> int:
        return self.t_ns

    def drain(self) -> list[object]:
        return []

    def arm(self, seats: Iterable[int]) -> object:
        self.arms += 1
        if self.fail_arm or not self.up:
            self.fail_arm = max(0, self.fail_arm - 1)
            raise LinkDown("the link to the board is down (unplugged)")
        return None

    def go(self, seats: Iterable[int]) -> Go:
        if self.fail_go or not self.up:
            self.fail_go = max(0, self.fail_go - 1)
            raise RaceVoidedError("race 1 was voided before GO (the link to the board is down)")
        self.gos += 1
        return Go(self.t_ns, self.clock)

    def show(self, lights: Mapping[int, SeatLight]) -> None:
        if not self.up:
            raise LinkDown("the link to the board is down (unplugged)")

    def wait_connected(self, timeout_s: float) -> bool:
        return self.up

    def close(self) -> None:
        return None


def armed_app(board: FlakyBoard, seed: int = 2) -> App:
    """An app whose table has just armed its first race (simulated players up to there)."""
    pygame.init()
    settings = RigConfig().table_settings(4, board.clock, board.resolution_ns)
    app = App(detected=Detected(board, "board"), settings=settings, seed=seed, ui=UiState(), fonts=fonts("en"),
              surface=pygame.Surface((800, 480)), sounds=Sounds(), attract_after_ns=None)
    script = table_script(4, seed, settings)
    event = next(script)
    for _ in range(5_000):
        board.t_ns = max(board.t_ns, event.t_ns)
        made = app.feed(event)
        if any(isinstance(effect, Arm) for effect in made.effects):
            return app
        event = script.send(made)
    raise AssertionError(f"seed {seed} armed no race")


def notices(app: App) -> list[str]:
    return [dict(m.params).get("reason", m.key) for m, _ in app.ui.notices]  # type: ignore[misc]


def test_a_go_voided_by_an_unplug_is_said_and_the_race_runs_again_when_the_board_is_back() -> None:
    board = FlakyBoard(4)
    app = armed_app(board)
    assert app.go is not None and board.arms == 1
    board.up = False                         # pulled out during the fore-period
    board.t_ns = app.go.t_ns
    app.poll()                               # GO: RaceVoidedError, used to end the kiosk
    assert app.go is None and app.table.race is not None and app.table.race.go_t_ns is None
    assert any("voided before GO" in n and "runs again" in n for n in notices(app)), notices(app)
    board.t_ns += RETRY_NS
    app.poll()                               # still out: nothing armed, looked at again later
    assert board.arms == 1 and app.rerun_due_ns == board.t_ns + RETRY_NS
    board.up = True
    board.t_ns += RETRY_NS
    app.poll()                               # back: the race is armed again
    assert board.arms == 2 and app.go is not None
    board.t_ns = app.go.t_ns
    app.poll()
    assert board.gos == 1 and app.table.stage is Stage.RACE
    assert app.table.race is not None and app.table.race.go_t_ns == board.t_ns
    app.draw()


def test_an_arm_that_cannot_reach_the_board_is_armed_again_once_it_answers() -> None:
    board = FlakyBoard(4)
    board.fail_arm = 1
    app = armed_app(board)                   # the arming step's Arm raised LinkDown inside feed()
    assert app.go is None and app.rerun_due_ns is not None
    assert any("link to the board is down" in n for n in notices(app)), notices(app)
    board.t_ns = app.rerun_due_ns
    app.poll()
    assert board.arms == 2 and app.go is not None
    board.t_ns = app.go.t_ns
    app.poll()
    assert board.gos == 1 and app.table.race is not None and app.table.race.go_t_ns is not None
