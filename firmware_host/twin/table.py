"""The physical table for the firmware twin: every GPIO's level over time, in system cycles.

Cycle 0 is power-up; the chip runs at ``SYS_HZ`` (125 MHz, what MicroPython sets at boot), so a
cycle is 8 ns. Inputs are scheduled by the test (absolute edges, bounce bursts, seeded players);
outputs arrive from the firmware through :meth:`Table.on_output`, and a rise of an output fires
the scripts waiting on it (a press some cycles after GO, a button held at arming). The table is
a pure timeline: the chip reads it, it never reads the chip. Every random choice comes from a
``random.Random`` the caller seeds, so the same seeds give the same :attr:`Table.records`.

A GPIO nobody scheduled reads low (the RP2040's pads reset with their pull-down enabled); the
buttons of the default map idle high (pull-ups) and read low while pressed.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from firmware_host.errors import AdapterError

SYS_HZ = 125_000_000
GPIO_COUNT = 30  # GPIO0..GPIO29 on the RP2040
DEFAULT_BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8)
DEFAULT_GO_PIN = 9
DEFAULT_SYNC_PIN = 22

# Contact bounce (FACTS.md: mean ~1.6 ms, max ~6 ms on common switches).
BOUNCE_MIN_CYCLES = 6_250  # 0.05 ms
BOUNCE_MEAN_CYCLES = 200_000  # 1.6 ms
BOUNCE_MAX_CYCLES = 750_000  # 6 ms
BOUNCE_MAX_TOGGLES = 4  # away-and-back pairs in one burst

# Simulated players (FACTS.md: simple reaction to light ~180-200 ms).
REACTION_CYCLES = (18_750_000, 37_500_000)  # 150-300 ms
HOLD_CYCLES = (10_000_000, 31_250_000)  # 80-250 ms


class TableError(AdapterError, ValueError):
    """A pin, level, cycle or setting the physical table cannot schedule."""


def us_to_cycles(us: int) -> int:
    """System cycles in ``us`` microseconds (exact at 125 MHz)."""
    return us * (SYS_HZ // 1_000_000)


@dataclass(frozen=True, slots=True)
class Edge:
    """One scheduled level change: what drove ``pin`` to ``level`` at ``cycle`` and why."""

    pin: int
    level: int
    cycle: int
    cause: str


def _check_pin(pin: int) -> None:
    if not 0 <= pin < GPIO_COUNT:
        raise TableError(f"GPIO {pin!r} does not exist: the RP2040 has GPIO 0 to {GPIO_COUNT - 1}")


def _check_level(level: int) -> None:
    if level not in (0, 1):
        raise TableError(f"level {level!r} is not a logic level: use 0 or 1")


def _check_range(name: str, span: tuple[int, int]) -> None:
    lo, hi = span
    if not 0 <= lo <= hi:
        raise TableError(f"{name} {span!r} is not a range of cycles: use (low, high) with 0 <= low <= high")


@dataclass(frozen=True, slots=True)
class Player:
    """A seeded player on ``pin``: after every GO rise presses (drives low) after a random
    reaction and releases after a random hold, each edge a bounce burst if ``bouncy``."""

    pin: int
    rng: random.Random
    reaction_cycles: tuple[int, int] = REACTION_CYCLES
    hold_cycles: tuple[int, int] = HOLD_CYCLES
    bouncy: bool = True

    def on_go(self, table: Table, go_cycle: int) -> None:
        press = go_cycle + self.rng.randint(*self.reaction_cycles)
        release = press + self.rng.randint(*self.hold_cycles)
        for level, cycle in ((0, press), (1, release)):
            if self.bouncy:
                table.bounce(self.pin, level, cycle, self.rng, cause=f"player on GPIO {self.pin}")
            else:
                table.edge(self.pin, level, cycle, cause=f"player on GPIO {self.pin}")


class Table:
    """The pin schedule. ``levels`` gives the level of each GPIO at power-up (others read 0)."""

    def __init__(self, levels: Mapping[int, int] | None = None, *, go_pin: int = DEFAULT_GO_PIN,
                 sync_pin: int = DEFAULT_SYNC_PIN) -> None:
        for pin in (go_pin, sync_pin):
            _check_pin(pin)
        self.go_pin = go_pin
        self.sync_pin = sync_pin
        self._initial = [0] * GPIO_COUNT
        for pin, level in (levels or {}).items():
            _check_pin(pin)
            _check_level(level)
            self._initial[pin] = level
        # Per pin: scheduled events (cycle, order, level) and, derived from them, the cycles at
        # which the level really changes and the level from each such cycle on.
        self._events: list[list[tuple[int, int, int]]] = [[] for _ in range(GPIO_COUNT)]
        self._change_cycles: list[list[int]] = [[] for _ in range(GPIO_COUNT)]
        self._change_levels: list[list[int]] = [[] for _ in range(GPIO_COUNT)]
        self._records: list[Edge] = []
        self._log: list[tuple[int, int]] = []  # (pin, cycle) of every edge, for the chip
        self._on_rise: dict[int, list[tuple[Callable[[int], None], bool]]] = {}

    @classmethod
    def for_board(cls, button_pins: Iterable[int] = DEFAULT_BUTTON_PINS, *, go_pin: int = DEFAULT_GO_PIN,
                  sync_pin: int = DEFAULT_SYNC_PIN) -> Table:
        """The board's table: buttons idle high (pull-ups), GO and SYNC low until driven."""
        return cls({pin: 1 for pin in button_pins}, go_pin=go_pin, sync_pin=sync_pin)

    # -- scheduling ----------------------------------------------------------------------------

    @property
    def records(self) -> tuple[Edge, ...]:
        """Every edge scheduled so far, in the order it was scheduled."""
        return tuple(self._records)

    def edge(self, pin: int, level: int, cycle: int, *, cause: str = "edge") -> Edge:
        """Drive ``pin`` to ``level`` from ``cycle`` on (until its next scheduled edge)."""
        _check_pin(pin)
        _check_level(level)
        if cycle < 0:
            raise TableError(f"cycle {cycle!r} for GPIO {pin} is before power-up: use a cycle >= 0")
        events = self._events[pin]
        event = (cycle, len(self._log), level)
        cycles, levels = self._change_cycles[pin], self._change_levels[pin]
        if not events or cycle > events[-1][0]:  # the usual case: scheduled in time order
            events.append(event)
            if level != (levels[-1] if levels else self._initial[pin]):
                cycles.append(cycle)
                levels.append(level)
        else:
            bisect.insort(events, event)
            self._rebuild(pin)
        record = Edge(pin, level, cycle, cause)
        self._records.append(record)
        self._log.append((pin, cycle))
        return record

    def _rebuild(self, pin: int) -> None:
        cycles, levels = self._change_cycles[pin], self._change_levels[pin]
        cycles.clear()
        levels.clear()
        current = self._initial[pin]
        for at, _order, lv in self._events[pin]:
            if cycles and cycles[-1] == at:  # a later event in the same cycle wins
                cycles.pop()
                levels.pop()
                current = levels[-1] if levels else self._initial[pin]
            if lv != current:
                cycles.append(at)
                levels.append(lv)
                current = lv

    def bounce(self, pin: int, level: int, cycle: int, rng: random.Random, *,
               min_cycles: int = BOUNCE_MIN_CYCLES, mean_cycles: int = BOUNCE_MEAN_CYCLES,
               max_cycles: int = BOUNCE_MAX_CYCLES, max_toggles: int = BOUNCE_MAX_TOGGLES,
               cause: str = "bounce") -> list[Edge]:
        """A contact closing or opening at ``cycle``: the first touch drives ``pin`` to ``level``,
        then 1..``max_toggles`` random away-and-back toggles, the last one back to ``level`` when
        the burst settles, ``min_cycles``..``max_cycles`` after the first (exponential, mean
        ``mean_cycles``). Returns the burst's edges, first touch first."""
        if max_toggles < 1:
            raise TableError(f"max_toggles {max_toggles!r} allows no bounce: use 1 or more")
        if not 2 * max_toggles <= min_cycles <= mean_cycles <= max_cycles:
            raise TableError(f"bounce lengths {(min_cycles, mean_cycles, max_cycles)!r} are not "
                             "ordered: use 2 * max_toggles <= min_cycles <= mean_cycles <= max_cycles")
        settle = min(max_cycles, max(min_cycles, round(rng.expovariate(1 / mean_cycles))))
        toggles = rng.randint(1, max_toggles)
        inner = sorted(rng.sample(range(cycle + 1, cycle + settle), 2 * toggles - 1)) + [cycle + settle]
        edges = [self.edge(pin, level, cycle, cause=cause)]
        for i, at in enumerate(inner):
            edges.append(self.edge(pin, level if i % 2 else 1 - level, at, cause=cause))
        return edges

    def after_rise(self, trigger_pin: int, pin: int, level: int, offset_cycles: int) -> None:
        """When ``trigger_pin`` next rises (an output the firmware drives), drive ``pin`` to
        ``level`` ``offset_cycles`` later."""
        _check_pin(trigger_pin)
        _check_pin(pin)
        _check_level(level)
        if offset_cycles < 0:
            raise TableError(f"offset {offset_cycles!r} cycles would schedule an edge before the "
                             f"rise of GPIO {trigger_pin} that causes it: use an offset >= 0")

        def fire(rise_cycle: int) -> None:
            self.edge(pin, level, rise_cycle + offset_cycles, cause=f"after rise of GPIO {trigger_pin}")

        self._on_rise.setdefault(trigger_pin, []).append((fire, False))

    def on_rise(self, pin: int, fn: Callable[[int], None], *, keep: bool = False) -> None:
        """Call ``fn(cycle)`` when output ``pin`` next rises (at every rise with ``keep``): a test
        learns when the firmware armed (SYNC) or gave GO, in the chip server's thread."""
        _check_pin(pin)
        self._on_rise.setdefault(pin, []).append((fn, keep))

    def after_go(self, pin: int, level: int, offset_cycles: int) -> None:
        """``pin`` to ``level`` ``offset_cycles`` after the next rise of the GO pin."""
        self.after_rise(self.go_pin, pin, level, offset_cycles)

    def after_sync(self, pin: int, level: int, offset_cycles: int) -> None:
        """``pin`` to ``level`` ``offset_cycles`` after the next rise of SYNC (the next arming)."""
        self.after_rise(self.sync_pin, pin, level, offset_cycles)

    def add_player(self, pin: int, rng: random.Random, *, reaction_cycles: tuple[int, int] = REACTION_CYCLES,
                   hold_cycles: tuple[int, int] = HOLD_CYCLES, bouncy: bool = True) -> Player:
        """A simulated player on ``pin`` who reacts to every GO rise from now on."""
        _check_pin(pin)
        _check_range("reaction_cycles", reaction_cycles)
        _check_range("hold_cycles", hold_cycles)
        if hold_cycles[0] <= BOUNCE_MAX_CYCLES and bouncy:
            raise TableError(f"hold_cycles {hold_cycles!r} is shorter than a bounce burst can last: "
                             f"hold at least {BOUNCE_MAX_CYCLES + 1} cycles with bounce")
        player = Player(pin, rng, reaction_cycles, hold_cycles, bouncy)
        self._on_rise.setdefault(self.go_pin, []).append((lambda go: player.on_go(self, go), True))
        return player

    def on_output(self, pin: int, level: int, cycle: int) -> None:
        """The firmware drove output ``pin`` to ``level`` at ``cycle``: record it and, on a rise,
        fire what waits on it (one-shot scripts once, players every time) in the order added."""
        _check_pin(pin)
        _check_level(level)
        rose = level == 1 and self.level_at(pin, cycle - 1) == 0
        self.edge(pin, level, cycle, cause="output")
        if rose and pin in self._on_rise:
            waiting = self._on_rise[pin]
            self._on_rise[pin] = [(f, keep) for f, keep in waiting if keep]
            for fire, _keep in waiting:
                fire(cycle)

    # -- reading -------------------------------------------------------------------------------

    def level_at(self, pin: int, cycle: int) -> int:
        """The level of ``pin`` during ``cycle`` (before power-up: the power-up level)."""
        cycles = self._change_cycles[pin]
        i = bisect.bisect_right(cycles, cycle)
        return self._change_levels[pin][i - 1] if i else self._initial[pin]

    def next_change_after(self, pin: int, cycle: int) -> int | None:
        """The first cycle after ``cycle`` at which ``pin``'s level differs from its level during
        ``cycle``, or None if it stays as it is (as far as is scheduled now)."""
        cycles = self._change_cycles[pin]
        i = bisect.bisect_right(cycles, cycle)
        return cycles[i] if i < len(cycles) else None

    @property
    def edit_count(self) -> int:
        """How many edges have been scheduled (a mark for :meth:`edits_since`)."""
        return len(self._log)

    def edits_since(self, mark: int) -> list[tuple[int, int]]:
        """(pin, cycle) of every edge scheduled after ``mark`` (an earlier :attr:`edit_count`)."""
        return self._log[mark:]
