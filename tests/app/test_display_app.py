"""The app loop executes the controller's effects on an input adapter: LEDs, Arm, GO at its
time on the adapter's clock (the stamped Go fed back), ticks at WakeAt; keyboard seats and the
console play a game up to a judged race; attract mode starts when the table is idle."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pygame
import pytest
from display_helpers import fonts

from firmware_host.records import RigEvent, SeatLight
from game.app.ui.adapters import Detected, KeyboardSeats, detect
from game.app.ui.glass import SETTLE_NS
from game.app.ui.loop import App
from game.app.ui.sound import Sounds, pre_init
from game.app.ui.state import UiState
from game.cards import Card, Kind
from game.controller import Stage, TableSettings
from game.inputs import Go, Press, Release
from game.messages import Message

MS = 1_000_000


class FakeRig:
    """GpioRig's shape on a clock the test moves; records what the app asks of it."""

    clock = "fake"
    resolution_ns = 100_000
    seats = 5

    def __init__(self) -> None:
        self.t_ns = 1_000 * MS
        self.events: list[RigEvent] = []
        self.calls: list[tuple[str, object]] = []

    def now_ns(self) -> int:
        return self.t_ns

    def drain(self) -> list[RigEvent]:
        taken, self.events = self.events, []
        return taken

    def arm(self, seats: Iterable[int]) -> object:
        self.calls.append(("arm", tuple(seats)))
        return None

    def go(self, seats: Iterable[int]) -> Go:
        self.calls.append(("go", tuple(seats)))
        return Go(self.t_ns, self.clock)

    def show(self, lights: Mapping[int, SeatLight]) -> None:
        self.calls.append(("show", dict(lights)))

    def show_guard(self, on: bool) -> None:
        self.calls.append(("guard", on))

    def close(self) -> None:
        self.calls.append(("close", None))

    def tap(self, seat: int, hold_ms: int = 100) -> None:
        self.t_ns += 300 * MS
        self.events.append(Press(seat, self.t_ns, self.clock))
        self.t_ns += hold_ms * MS
        self.events.append(Release(seat, self.t_ns, self.clock))


@pytest.fixture()
def app() -> App:
    pre_init()
    pygame.init()
    rig = FakeRig()
    surface = pygame.Surface((800, 480))
    settings = TableSettings(seats=5, clock=rig.clock, resolution_ns=rig.resolution_ns)
    return App(detected=Detected(rig, "gpio"), settings=settings, seed=7, ui=UiState(), fonts=fonts("en"),
               surface=surface, sounds=Sounds(), attract_after_ns=None)


def _stage(app: App) -> Stage:
    """The table's stage now (a call, so a type checker does not carry an earlier check over)."""
    return app.table.stage


def _key(app: App, key: int) -> None:
    """A key pressed once the screen on the glass has settled (a person reads it first)."""
    app.draw()
    rig = app.adapter
    assert isinstance(rig, FakeRig)
    rig.t_ns += SETTLE_NS
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=key))


def test_effects_reach_the_adapter_and_go_comes_from_its_clock(app: App) -> None:
    rig = app.adapter
    assert isinstance(rig, FakeRig)
    for seat in (0, 1, 2):
        rig.tap(seat)
    app.poll()
    assert app.table.seated == (0, 1, 2)
    # Only the seats whose light changes are sent: the third player lights only their own LED.
    assert ("show", {2: SeatLight.GO}) in rig.calls
    assert app.lights == {0: SeatLight.GO, 1: SeatLight.GO, 2: SeatLight.GO, 3: SeatLight.OFF, 4: SeatLight.OFF}
    _key(app, pygame.K_RETURN)                      # start
    rig.tap(1)                                      # Bea is the oldest
    app.poll()
    assert app.table.stage is Stage.DEAL
    _key(app, pygame.K_2)
    _key(app, pygame.K_n)                           # the starter: number 2
    assert _stage(app) is Stage.PLAY
    _key(app, pygame.K_3)
    _key(app, pygame.K_o)                           # the guard plays a mosquito 3
    assert _stage(app) is Stage.RACE
    race = app.table.race
    assert race is not None and race.go_t_ns is None
    assert ("arm", (0, 2)) in rig.calls
    assert app.go is not None and app.go.t_ns == race.go_due_t_ns
    rig.t_ns = race.go_due_t_ns - 1
    app.poll()
    assert app.table.race is not None and app.table.race.go_t_ns is None   # not yet
    rig.t_ns = race.go_due_t_ns + 250_000
    app.poll()
    assert ("go", (0, 2)) in rig.calls
    assert app.table.race is not None and app.table.race.go_t_ns == race.go_due_t_ns + 250_000
    assert app.draw().screen == "race"
    go = race.go_due_t_ns + 250_000
    rig.events += [Press(0, go + 180 * MS, "fake"), Press(2, go + 230 * MS, "fake")]
    rig.t_ns = go + 400 * MS
    app.poll()
    app.poll()
    assert app.table.stage is Stage.PLAY and app.table.last_race is not None
    assert app.table.last_race.loser == 2
    assert app.draw().screen == "photo"
    _key(app, pygame.K_RETURN)                      # go on
    assert app.draw().screen == "play"


def _seat_three_and_play(app: App, kind_key: int) -> FakeRig:
    """Seats 0-2 sit down, Ali is the oldest, the starter is a number 1, Ali keys a 2 of a kind."""
    rig = app.adapter
    assert isinstance(rig, FakeRig)
    for seat in (0, 1, 2):
        rig.tap(seat)
    app.poll()
    _key(app, pygame.K_RETURN)
    rig.tap(0)
    app.poll()
    _key(app, pygame.K_1)
    _key(app, pygame.K_n)
    _key(app, pygame.K_2)
    _key(app, kind_key)
    return rig


def test_a_cancelled_race_never_raises_go(app: App) -> None:
    rig = _seat_three_and_play(app, pygame.K_c)      # a cockroach 2
    assert app.table.stage is Stage.RACE and app.go is not None
    _key(app, pygame.K_x)                           # called off
    assert app.table.stage.value == "play"
    rig.t_ns += 10_000 * MS
    app.poll()
    assert not any(call[0] == "go" for call in rig.calls)


def test_attract_mode_plays_a_demo_when_idle_and_a_key_ends_it() -> None:
    pre_init()
    pygame.init()
    rig = FakeRig()
    settings = TableSettings(seats=5, clock=rig.clock)
    app = App(detected=Detected(rig, "gpio"), settings=settings, seed=3, ui=UiState(), fonts=fonts("en"),
              surface=pygame.Surface((800, 480)), sounds=Sounds(), attract_after_ns=5_000 * MS)
    app.attract(rig.t_ns)
    assert app.demo is None
    rig.t_ns += 5_000 * MS
    app.attract(rig.t_ns)
    assert app.demo is not None
    rig.t_ns += 60_000 * MS
    app.attract(rig.t_ns)
    assert app.demo.steps > 10
    assert app.draw().screen == "attract"
    rig.t_ns += SETTLE_NS
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q))
    assert app.demo is None and app.table.seated == (0,)


def test_keyboard_seats_are_the_fallback_without_hardware() -> None:
    found = detect("auto")
    assert found.name == "keyboard" and isinstance(found.adapter, KeyboardSeats)
    go = found.adapter.go((0, 1))
    assert go.clock == "monotonic" and go.t_ns <= found.adapter.now_ns()


def test_every_card_kind_can_be_tapped_as_the_starter() -> None:
    from display_helpers import scenes

    from game.app.ui.render import draw

    frame = draw(pygame.Surface((800, 480)), fonts("en"), scenes()["deal"])
    cards = {s.act.value for s in frame.hotspots if s.act.kind == "starter"}
    assert cards == {Card(k, n) for k in Kind for n in range(1, 6)}


def test_a_race_the_board_voids_after_go_runs_again(app: App) -> None:
    rig = _seat_three_and_play(app, pygame.K_o)      # a mosquito 2
    race = app.table.race
    assert race is not None
    rig.t_ns = race.go_due_t_ns
    app.poll()
    rig.events.append(object())  # type: ignore[arg-type]   # the board's RaceVoided record (any non-edge)
    app.poll()
    assert _stage(app) is Stage.RACE and rig.calls[-2:][0][0] == "arm"   # armed afresh
    again = app.table.race
    assert again is not None and again.run == 2 and again.go_t_ns is None
    assert app.ui.notice(rig.t_ns) is not None


def test_a_restarted_app_resumes_the_game_on_a_clock_that_started_again(tmp_path: Path) -> None:
    """A pulled plug mid-race: the new process resumes from the log, shifts the adapter's clock
    (it began again at zero), says so, and runs the interrupted race again."""
    from game.app.tablelog import TableLog

    pre_init()
    pygame.init()
    db = tmp_path / "table.db"

    def start(rig: FakeRig) -> App:
        settings = TableSettings(seats=5, clock=rig.clock, resolution_ns=rig.resolution_ns)
        log = TableLog.open(db, settings, 7, rig.now_ns())
        return App(detected=Detected(rig, "gpio"), settings=settings, seed=7, ui=UiState(),
                   fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=Sounds(), log=log,
                   attract_after_ns=None)

    rig = FakeRig()
    first = start(rig)
    for seat in (0, 1, 2):
        rig.tap(seat)
    first.poll()
    _key(first, pygame.K_RETURN)
    rig.tap(0)
    first.poll()
    _key(first, pygame.K_1)
    _key(first, pygame.K_n)
    _key(first, pygame.K_2)
    _key(first, pygame.K_o)                          # a mosquito 2: armed, GO pending
    assert _stage(first) is Stage.RACE
    hands = first.table.game.hands
    assert first.log is not None
    first.log.close()                                # the plug is pulled here

    rebooted = FakeRig()
    rebooted.t_ns = 5 * MS                           # CLOCK_MONOTONIC starts again near zero
    second = start(rebooted)
    assert second.resumed and second.table.game.hands == hands
    assert second.adapter.now_ns() > first.table.now_t_ns     # the table's time goes on
    assert Message.of("ui_resumed") in [m for m, _ in second.ui.notices]
    race = second.table.race
    assert race is not None and race.run == 2 and ("arm", (1, 2)) in rebooted.calls
    rebooted.t_ns = race.go_due_t_ns - second.adapter.shift_ns    # type: ignore[attr-defined]
    second.poll()
    assert ("go", (1, 2)) in rebooted.calls and second.table.race is not None
    assert second.table.race.go_t_ns == race.go_due_t_ns
