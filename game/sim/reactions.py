"""How fast the simulated players press: seeded, human-like reaction times for the table script.

The bot game (play.py) decides who wins and who is slowest; the table script (presses.py) then
has to press in that order, and a demo on a rig sold on microsecond judging should look like
people pressed. So each player gets a skill, and each race draws one time per racer from their
skill, sorts the draws and hands them out in the bot game's order: the order is the script's,
the spread is human.

Simple reaction times are right-skewed: most land near a person's typical time, a few are slow,
none arbitrarily fast. The usual model is the ex-Gaussian — a normal part plus an exponential
tail — which is what :class:`Skill` draws from. Times are integer nanoseconds with all their
digits (a real stamp is never a whole millisecond).

Everything comes from the ``random.Random`` passed in, so a game is a function of its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

MS = 1_000_000
US = 1_000

#: A typical simple reaction to a visual GO: the players' own means lie in this range.
MEAN_RANGE_NS = (210 * MS, 320 * MS)
#: The exponential tail's share of a player's mean (the slow presses), and the normal part's spread.
TAIL_SHARE_RANGE = (0.15, 0.30)
SIGMA_RANGE_NS = (12 * MS, 30 * MS)
#: No one reacts faster than this to a GO they did not anticipate; a draw below it is drawn again,
#: as is one slower than the ceiling (someone looking away, far inside the race's 3 s timeout).
FLOOR_NS = 140 * MS
CEILING_NS = 900 * MS
#: How often a race's deciding pair comes in a near-tie, and how close: above the judge's
#: resolution (never a tie), below the photo finish's 1 ms close-up threshold.
NEAR_TIE_P = 0.08
NEAR_TIE_MAX_NS = 800 * US
#: A false start: this long before GO (anticipation, not a slow reaction to the last race) ...
EARLY_RANGE_NS = (120 * MS, 700 * MS)
#: ... and a press is held this long before the hand comes off.
HOLD_RANGE_NS = (60 * MS, 160 * MS)


@dataclass(frozen=True, slots=True)
class Skill:
    """One player's reaction times: ex-Gaussian, a normal part (``mu_ns``, ``sigma_ns``) plus an
    exponential tail of mean ``tau_ns``; the mean reaction is ``mu_ns + tau_ns``."""

    mu_ns: int
    sigma_ns: int
    tau_ns: int

    @property
    def mean_ns(self) -> int:
        return self.mu_ns + self.tau_ns

    def draw(self, rng: random.Random) -> int:
        """One reaction time, GO to press, in ns (between FLOOR_NS and CEILING_NS)."""
        while True:
            t = rng.gauss(self.mu_ns, self.sigma_ns) + rng.expovariate(1 / self.tau_ns)
            if FLOOR_NS <= t <= CEILING_NS:
                return int(t)


def new_skill(rng: random.Random) -> Skill:
    """A player at the table: some quick, some slow, each with their own spread."""
    mean = rng.uniform(*MEAN_RANGE_NS)
    tau = mean * rng.uniform(*TAIL_SHARE_RANGE)
    return Skill(mu_ns=int(mean - tau), sigma_ns=int(rng.uniform(*SIGMA_RANGE_NS)), tau_ns=int(tau))


def skills(rng: random.Random, players: int) -> tuple[Skill, ...]:
    return tuple(new_skill(rng) for _ in range(players))


def race_reactions(rng: random.Random, skills_of: Sequence[Skill], *, deciding_first: bool,
                   min_gap_ns: int) -> tuple[int, ...]:
    """Reaction times (ns) for racers in their finishing order, strictly increasing.

    ``skills_of``: the racers' skills, fastest place first. Each draws from their own skill;
    the draws are sorted and given out by place. Neighbours are at least ``min_gap_ns`` apart
    (more than the judge's resolution, so the script's order is never judged a tie). Now and
    then the deciding pair — the first two (``deciding_first``, a cockroach) or the last two
    (a slap) — is a near-tie under a millisecond, as a close race at a real table is.
    """
    times = sorted(skill.draw(rng) for skill in skills_of)
    for i in range(1, len(times)):
        times[i] = max(times[i], times[i - 1] + min_gap_ns)
    if len(times) >= 2 and rng.random() < NEAR_TIE_P:
        near = int(rng.uniform(min_gap_ns, max(min_gap_ns, NEAR_TIE_MAX_NS)))
        # Only ever pulling the second closer to the first (or the last to the one before)
        # keeps every other gap as it was or wider: the order and the minimum gap still hold.
        if deciding_first:
            times[1] = times[0] + min(near, times[1] - times[0])
        else:
            times[-1] = times[-2] + min(near, times[-1] - times[-2])
    return tuple(times)


def early_ns(rng: random.Random, room_ns: int) -> int:
    """How long before GO a false start comes, at most ``room_ns`` (GO minus arming)."""
    low, high = EARLY_RANGE_NS
    return int(rng.uniform(min(low, room_ns // 2), min(high, room_ns)))


def hold_ns(rng: random.Random, at_most_ns: int | None = None) -> int:
    """How long a press is held, at most ``at_most_ns`` when the hand must be off by then."""
    low, high = HOLD_RANGE_NS
    if at_most_ns is not None:
        high = max(min(high, at_most_ns), 1)
        low = min(low, high // 2)
    return int(rng.uniform(low, high))
