"""Simulated players: the button edges a table of people would produce in one race.

Each seat has its own typical reaction time (a log-normal spread around a per-player median,
clipped to a human range), now and then starts early, and its button contacts sometimes bounce.
Everything comes from one ``random.Random(seed)``: the same seed gives the same players and the
same races. Times are integer ns on the ``"sim"`` clock. Used by ``cheating-moth race --input
sim``, demo mode and tests of the judge and the controller.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

from game.inputs import Press, Release

from .errors import BadSeat, BadSimulation

SIM_CLOCK = "sim"
MS = 1_000_000


class FalseStartStyle(enum.Enum):
    """How a player jumps the gun."""

    #: Pressed and released before GO, then pressed again after GO.
    EARLY_TAP = "early tap"
    #: Pressed before GO and still down at GO; released later, no second press.
    HELD = "held at GO"
    #: Down at GO, released after GO, then pressed again.
    HELD_THEN_REPRESS = "held at GO, then pressed again"


# How often each style is picked when a player false-starts (weights, same order as the enum).
_STYLE_WEIGHTS = (0.5, 0.2, 0.3)


@dataclass(frozen=True, slots=True)
class SimSettings:
    """The table's behaviour. Defaults follow FACTS.md: simple reaction to light ~180–200 ms,
    switch bounce up to ~6 ms."""

    min_reaction_ns: int = 150 * MS
    max_reaction_ns: int = 350 * MS
    #: Each player's median reaction is drawn once from this range.
    median_low_ns: int = 185 * MS
    median_high_ns: int = 260 * MS
    #: Sigma of the log-normal around the median (0.15: ~±15 % for most presses).
    spread: float = 0.15
    #: Chance per player per race of a false start.
    false_start_rate: float = 0.06
    #: Chance per press of a bounce burst, and the most extra release/press pairs in one.
    bounce_rate: float = 0.3
    max_bounce_pairs: int = 3
    #: Chance per release of a bounce burst (extra press/release pairs after it, in the same
    #: range as a press's). 0.0, the default, draws nothing, so seeded races stay as they were.
    release_bounce_rate: float = 0.0
    #: Bounce edges fall this long after the press (or release) that starts them.
    bounce_low_ns: int = 1 * MS
    bounce_high_ns: int = 6 * MS
    #: How long a press is held down.
    hold_low_ns: int = 80 * MS
    hold_high_ns: int = 250 * MS
    #: Each seat's edges reach the host up to this late (per seat per race), which reorders
    #: delivery across seats but never within one seat; 0 delivers in time order.
    max_delivery_delay_ns: int = 20 * MS

    def __post_init__(self) -> None:
        for low, high in (
            ("min_reaction_ns", "max_reaction_ns"),
            ("median_low_ns", "median_high_ns"),
            ("bounce_low_ns", "bounce_high_ns"),
            ("hold_low_ns", "hold_high_ns"),
        ):
            lo, hi = getattr(self, low), getattr(self, high)
            if type(lo) is not int or type(hi) is not int or not 0 < lo <= hi:
                raise BadSimulation(
                    f"{low} {lo!r} and {high} {hi!r} are not valid: use whole ns with 0 < {low} <= {high}"
                )
        # A bounce burst must end before the button is released (the shortest hold is an early
        # tap's 20 ms), or the edges would not alternate press/release.
        if self.bounce_high_ns > 10 * MS:
            raise BadSimulation(
                f"bounce_high_ns {self.bounce_high_ns!r} is not valid: switch bounce lasts a few ms, "
                f"use at most {10 * MS}"
            )
        if self.hold_low_ns < 20 * MS:
            raise BadSimulation(
                f"hold_low_ns {self.hold_low_ns!r} is not valid: a press is held at least {20 * MS} ns"
            )
        for name in ("false_start_rate", "bounce_rate", "release_bounce_rate"):
            rate = getattr(self, name)
            if not isinstance(rate, float) or not 0.0 <= rate <= 1.0:
                raise BadSimulation(f"{name} {rate!r} is not valid: use a probability from 0.0 to 1.0")
        if not isinstance(self.spread, float) or not 0.0 <= self.spread <= 1.0 or math.isnan(self.spread):
            raise BadSimulation(f"spread {self.spread!r} is not valid: use a log-normal sigma from 0.0 to 1.0")
        if type(self.max_bounce_pairs) is not int or self.max_bounce_pairs < 1:
            raise BadSimulation(f"max_bounce_pairs {self.max_bounce_pairs!r} is not valid: use 1 or more")
        if type(self.max_delivery_delay_ns) is not int or self.max_delivery_delay_ns < 0:
            raise BadSimulation(
                f"max_delivery_delay_ns {self.max_delivery_delay_ns!r} is not valid: use whole ns, 0 or more"
            )


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    """One simulated player: their median reaction time (ns)."""

    seat: int
    median_reaction_ns: int


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """What one seat did in a simulated race (for tests and statistics; the judge never sees it).

    ``reaction_ns`` is the press after GO that should count, or None if the seat never pressed
    after GO (a ``HELD`` false start). ``bounce_pairs`` counts the extra release/press pairs."""

    seat: int
    reaction_ns: int | None
    false_start: FalseStartStyle | None
    bounce_pairs: int


@dataclass(frozen=True, slots=True)
class SimRace:
    """The edges of one race in delivery order, and the plan each seat followed."""

    edges: tuple[Press | Release, ...]
    plans: tuple[SeatPlan, ...]


class SimPlayers:
    """A table of simulated players. Each :meth:`race` call continues the seeded sequence, so a
    fresh ``SimPlayers(seats, seed)`` replays the same evening of races."""

    def __init__(self, seats: int, seed: int, settings: SimSettings | None = None) -> None:
        if type(seats) is not int or seats < 1:
            raise BadSimulation(f"seats {seats!r} is not valid: simulate 1 or more seats")
        if type(seed) is not int:
            raise BadSimulation(f"seed {seed!r} is not valid: use a whole number")
        self.settings = SimSettings() if settings is None else settings
        self._rng = random.Random(seed)
        s = self.settings
        self.profiles = tuple(
            PlayerProfile(seat, self._rng.randint(s.median_low_ns, s.median_high_ns)) for seat in range(seats)
        )

    def race(self, armed_t_ns: int, go_t_ns: int, eligible: Iterable[int]) -> SimRace:
        """Simulate the eligible seats racing to a GO at ``go_t_ns`` after arming at ``armed_t_ns``."""
        if type(armed_t_ns) is not int or type(go_t_ns) is not int or not 0 <= armed_t_ns <= go_t_ns:
            raise BadSimulation(
                f"armed_t_ns {armed_t_ns!r} and go_t_ns {go_t_ns!r} are not valid: use whole ns "
                f"with 0 <= armed_t_ns <= go_t_ns"
            )
        seats = sorted(set(eligible))
        for seat in seats:
            if type(seat) is not int or not 0 <= seat < len(self.profiles):
                raise BadSeat(
                    f"seat {seat!r} is not at this simulated table: use seats 0 to {len(self.profiles) - 1}"
                )
        rng = self._rng
        edges: list[tuple[int, Press | Release]] = []  # (delivery time, edge)
        plans: list[SeatPlan] = []
        for seat in seats:
            seat_edges, plan = self._seat(seat, armed_t_ns, go_t_ns)
            delay = rng.randint(0, self.settings.max_delivery_delay_ns)
            edges.extend((e.t_ns + delay, e) for e in seat_edges)
            plans.append(plan)
        # Stable sort on delivery time: one seat's edges keep their order (one pin's events
        # arrive in order), while a slow seat's early press may arrive after a later one.
        edges.sort(key=lambda pair: pair[0])
        return SimRace(edges=tuple(e for _, e in edges), plans=tuple(plans))

    # -- one seat ---------------------------------------------------------------------------

    def _seat(self, seat: int, armed_t_ns: int, go_t_ns: int) -> tuple[list[Press | Release], SeatPlan]:
        rng = self._rng
        reaction = self._reaction(seat)
        style = self._false_start_style(go_t_ns - armed_t_ns)
        downs: list[tuple[int, int]] = []  # (press t_ns, release t_ns) in time order
        valid: int | None = reaction
        if style is None:
            downs.append((go_t_ns + reaction, go_t_ns + reaction + self._hold()))
        else:
            # Jump the gun 30–400 ms before GO, never before arming (checked in _false_start_style).
            early = rng.randint(30 * MS, min(400 * MS, go_t_ns - armed_t_ns))
            press = go_t_ns - early
            if style is FalseStartStyle.EARLY_TAP:
                downs.append((press, press + rng.randint(20 * MS, early - 10 * MS)))
                downs.append((go_t_ns + reaction, go_t_ns + reaction + self._hold()))
            elif style is FalseStartStyle.HELD:
                downs.append((press, go_t_ns + rng.randint(50 * MS, 300 * MS)))
                valid = None
            else:
                # Let go 20–120 ms after GO, press again at the usual reaction time but at least
                # 30 ms after letting go.
                up = rng.randint(20 * MS, 120 * MS)
                valid = max(reaction, up + 30 * MS)
                downs.append((press, go_t_ns + up))
                downs.append((go_t_ns + valid, go_t_ns + valid + self._hold()))
        edges: list[Press | Release] = []
        pairs = 0
        for down_t, up_t in downs:
            edges.append(Press(seat, down_t, SIM_CLOCK))
            for bounce_t, is_press in self._bounce(down_t):
                edges.append((Press if is_press else Release)(seat, bounce_t, SIM_CLOCK))
                pairs += is_press
            edges.append(Release(seat, up_t, SIM_CLOCK))
            if self.settings.release_bounce_rate > 0.0:
                for bounce_t, is_press in self._bounce(up_t, self.settings.release_bounce_rate):
                    # The same burst shape with the directions swapped: press, release, ... ending released.
                    edges.append((Release if is_press else Press)(seat, bounce_t, SIM_CLOCK))
        return edges, SeatPlan(seat, valid, style, pairs)

    def _reaction(self, seat: int) -> int:
        s = self.settings
        median = self.profiles[seat].median_reaction_ns
        drawn = self._rng.lognormvariate(math.log(median), s.spread)
        return min(s.max_reaction_ns, max(s.min_reaction_ns, round(drawn)))

    def _hold(self) -> int:
        return self._rng.randint(self.settings.hold_low_ns, self.settings.hold_high_ns)

    def _false_start_style(self, fore_period_ns: int) -> FalseStartStyle | None:
        # Draw first, always, so the random sequence does not depend on the fore-period; a GO
        # under 60 ms after arming leaves no room to jump the gun and the draw is dropped.
        jumps = self._rng.random() < self.settings.false_start_rate
        style = self._rng.choices(list(FalseStartStyle), weights=_STYLE_WEIGHTS)[0]
        return style if jumps and fore_period_ns >= 60 * MS else None

    def _bounce(self, press_t_ns: int, rate: float | None = None) -> list[tuple[int, bool]]:
        """Extra (t_ns, is_press) edges after a press: release, press, ... ending pressed.

        ``rate`` overrides ``bounce_rate`` (a release's burst: the caller swaps the directions)."""
        s, rng = self.settings, self._rng
        if rng.random() >= (s.bounce_rate if rate is None else rate):
            return []
        pairs = rng.randint(1, s.max_bounce_pairs)
        offsets = sorted(rng.sample(range(s.bounce_low_ns, s.bounce_high_ns + 1), 2 * pairs))
        return [(press_t_ns + off, i % 2 == 1) for i, off in enumerate(offsets)]
