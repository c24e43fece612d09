"""A scripted table for controller tests: chosen timestamps, presses, holds, taps and ticks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.cards import Card
from game.controller import Effect, ScheduleGo, Stage, Step, Table, TableSettings, Tick, new_table, step
from game.controller import inputs as console
from game.engine import Command, Event
from game.inputs import CaughtPress, Go, Press, Release

MS = 1_000_000
CLOCK = "test"


def card(text: str) -> Card:
    return Card.parse(text)


@dataclass
class Rig:
    """Drives a controller with inputs whose times the test chooses (``t`` in ms)."""

    settings: TableSettings = field(default_factory=lambda: TableSettings(seats=5, clock=CLOCK))
    seed: int = 7
    t: int = 1_000
    table: Table = field(init=False)
    commands: list[Command] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    last: Step | None = None

    def __post_init__(self) -> None:
        self.table = new_table(self.settings, self.seed, self.t * MS)

    # --- raw inputs ----------------------------------------------------------------------
    def feed(self, event: Any) -> Step:
        made = step(self.table, event)
        self.table = made.table
        self.commands += made.commands
        self.events += made.events
        self.effects += made.effects
        self.last = made
        return made

    def at(self, ms: int) -> int:
        """Move the clock ``ms`` forward; the new time in ns."""
        self.t += ms
        return self.t * MS

    def press(self, seat: int, after: int = 300) -> Step:
        return self.feed(Press(seat, self.at(after), CLOCK))

    def release(self, seat: int, after: int = 100) -> Step:
        return self.feed(Release(seat, self.at(after), CLOCK))

    def tap(self, seat: int, after: int = 300) -> Step:
        self.press(seat, after)
        return self.release(seat)

    def hold(self, seat: int, ms: int = 1_000) -> Step:
        """A long press: press, a tick past the threshold, release."""
        self.press(seat)
        self.tick(ms)
        return self.release(seat, 50)

    def tick(self, after: int = 100) -> Step:
        return self.feed(Tick(self.at(after)))

    def caught(self) -> Step:
        return self.feed(CaughtPress(self.at(300), CLOCK))

    def tap_console(self, kind: type, *args: Any, after: int = 500) -> Step:
        return self.feed(kind(*args, self.at(after)))

    # --- the table's usual moves ---------------------------------------------------------
    def seat(self, *seats: int, oldest: int) -> None:
        for s in seats:
            self.tap(s)
        self.tap_console(console.StartGame)
        self.tap(oldest)

    def starter(self, text: str) -> Step:
        return self.tap_console(console.Starter, card(text))

    def play(self, text: str) -> Step:
        return self.tap_console(console.Play, card(text))

    def draw(self) -> Step:
        """The active player presses their own button."""
        return self.tap(self.table.seated[self.table.game.active])

    def go(self) -> int:
        """Raise GO when the controller scheduled it; returns GO's time in ms."""
        go = [e for e in self.effects if isinstance(e, ScheduleGo)][-1]
        self.t = max(self.t, go.t_ns // MS)
        self.feed(Go(go.t_ns, CLOCK))
        return go.t_ns // MS

    def out(self, seat: int) -> None:
        """Declare out with a long press and a confirming press."""
        self.hold(seat)
        self.tap(seat)

    def penalties(self, *entries: tuple[int, int, int, int]) -> None:
        for player, moths, actions, numbers in entries:
            self.tap_console(console.Penalty, player, moths, actions, numbers)

    @property
    def stage(self) -> Stage:
        return self.table.stage

    def notices(self) -> list[str]:
        from game.controller import Notice

        return [e.message.key for e in self.effects if isinstance(e, Notice)]
