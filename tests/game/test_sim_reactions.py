"""The simulated table presses like people: seeded reaction times with nanosecond detail, in human
ranges and right-skewed, in the order the bot game decided (never a tie it did not have), a
near-tie under a millisecond now and then, false starts before GO; the same seed, the same game."""

from __future__ import annotations

import random
import statistics
from functools import cache

import pytest

from game.controller import Step, Table, TableSettings, new_table, step
from game.controller.inputs import Input
from game.engine import DecideRace
from game.inputs import Go, Press
from game.judge import RaceResult
from game.race import RaceKind
from game.sim.presses import T0_NS, game_commands, min_gap_ns, table_script
from game.sim.reactions import (
    CEILING_NS, FLOOR_NS, MEAN_RANGE_NS, Skill, early_ns, hold_ns, new_skill, race_reactions, skills,
)

MS = 1_000_000
US = 1_000
SEEDS = range(12)


class Played:
    """One demo game through the real controller: its inputs and each race it decided."""

    def __init__(self, players: int, seed: int, settings: TableSettings) -> None:
        self.inputs: list[Input] = []
        self.races: list[tuple[DecideRace, RaceResult, RaceKind, int]] = []   # wanted, judged, kind, GO
        script = table_script(players, seed, settings)
        table: Table = new_table(settings, seed, T0_NS)
        go_t = 0
        event: Input | None = next(script)
        wanted = iter(c for c in game_commands(players, seed, settings.rules) if isinstance(c, DecideRace))
        while event is not None:
            self.inputs.append(event)
            made: Step = step(table, event)
            table = made.table
            if isinstance(event, Go):
                go_t = event.t_ns
            if any(isinstance(c, DecideRace) for c in made.commands):
                assert table.last_race is not None and table.last_race_kind is not None
                self.races.append((next(wanted), table.last_race, table.last_race_kind, go_t))
            try:
                event = script.send(made)
            except StopIteration:
                event = None
        assert table.stage.value == "game-over"
        self.table = table

    @property
    def reactions(self) -> list[int]:
        return [p.reaction_ns for _, result, _, _ in self.races for p in result.ranking]


@cache
def played(players: int, seed: int) -> Played:
    return Played(players, seed, TableSettings(seats=players, clock="sim"))


def all_reactions() -> list[int]:
    return [t for seed in SEEDS for t in played(4, seed).reactions]


# -- the times look like people's -------------------------------------------------------------


def test_reactions_are_not_round_figures() -> None:
    times = all_reactions()
    assert len(times) > 300
    assert not any(t % MS == 0 for t in times)                      # never a whole millisecond
    assert sum(1 for t in times if t % US == 0) <= len(times) // 100  # nanosecond detail, nearly always
    assert len(set(times)) > 0.95 * len(times)                        # not a handful of scripted values


def test_reactions_lie_in_human_ranges_and_are_right_skewed() -> None:
    times = all_reactions()
    assert all(FLOOR_NS <= t <= CEILING_NS for t in times)
    typical = sum(1 for t in times if 180 * MS <= t <= 400 * MS) / len(times)
    assert typical > 0.8                                              # most 180–400 ms
    assert any(t > 400 * MS for t in times)                           # a few slow ones
    assert statistics.mean(times) > statistics.median(times)          # the long tail is the slow side
    assert 200 * MS < statistics.median(times) < 320 * MS


def test_each_player_has_a_skill_of_their_own() -> None:
    rng = random.Random(3)
    table = skills(rng, 7)
    assert len(set(table)) == 7
    assert all(MEAN_RANGE_NS[0] - MS <= s.mean_ns <= MEAN_RANGE_NS[1] for s in table)
    quick, slow = min(table, key=lambda s: s.mean_ns), max(table, key=lambda s: s.mean_ns)
    assert statistics.median(quick.draw(rng) for _ in range(400)) < statistics.median(slow.draw(rng) for _ in range(400))


def test_a_skill_never_draws_outside_the_human_range() -> None:
    extreme = Skill(mu_ns=100 * MS, sigma_ns=80 * MS, tau_ns=400 * MS)    # draws that would leave it
    rng = random.Random(1)
    assert all(FLOOR_NS <= extreme.draw(rng) <= CEILING_NS for _ in range(2_000))


# -- the order is the bot game's, never a tie ---------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_the_races_keep_the_bot_games_order_and_never_tie(seed: int) -> None:
    game = played(4, seed)
    assert game.races
    resolution = TableSettings().resolution_ns
    for wanted, result, kind, _ in game.races:
        assert not result.tied, (seed, result.reason)
        assert (result.winner, result.loser) == (wanted.winner, wanted.loser)
        pressed = [p.player for p in result.ranking]
        assert pressed == [p for p in wanted.ranking if p in pressed], (seed, wanted, result)
        times = [p.t_ns for p in result.ranking]
        assert all(b - a >= resolution for a, b in zip(times, times[1:])), (seed, times)


def test_a_near_tie_now_and_then_shows_the_close_up() -> None:
    gaps = []
    for seed in SEEDS:
        for _, result, kind, _ in played(4, seed).races:
            times = [p.t_ns for p in result.ranking]
            if len(times) >= 2:
                gaps.append(times[1] - times[0] if kind is RaceKind.COCKROACH else times[-1] - times[-2])
    close = [g for g in gaps if g < MS]
    assert close and len(close) < 0.25 * len(gaps)                    # sometimes, not often
    assert all(g >= TableSettings().resolution_ns for g in close)     # close, never a tie


def test_race_reactions_keep_the_order_and_the_gap_whatever_the_draws() -> None:
    rng = random.Random(7)
    same = [Skill(mu_ns=200 * MS, sigma_ns=1, tau_ns=1)] * 5          # five identical, near-equal draws
    for deciding_first in (True, False):
        for _ in range(200):
            times = race_reactions(rng, same, deciding_first=deciding_first, min_gap_ns=120_001)
            assert all(b - a >= 120_001 for a, b in zip(times, times[1:])), times


def test_the_scripts_presses_clear_the_tables_resolution() -> None:
    for resolution in (1_000, 100_000, 1_000_000):
        assert min_gap_ns(TableSettings(resolution_ns=resolution)) > resolution


# -- false starts ---------------------------------------------------------------------------------


def test_false_starts_come_before_go_at_unround_times() -> None:
    early = []
    for seed in SEEDS:
        for _, result, _, go_t in played(4, seed).races:
            early += [go_t - f.t_ns for f in result.false_starts]
            assert not any(f.held_at_go for f in result.false_starts)   # let go before GO
    assert len(early) >= 5
    assert all(0 < e < 800 * MS for e in early)
    assert not any(e % MS == 0 for e in early) and len(set(early)) == len(early)


def test_early_and_hold_times_fit_the_room_they_have() -> None:
    rng = random.Random(2)
    for room in (2 * MS, 150 * MS, 790 * MS, 2_500 * MS):
        assert all(0 < early_ns(rng, room) <= room for _ in range(200))
    assert all(0 < hold_ns(rng, 30 * MS) <= 30 * MS for _ in range(200))
    assert all(60 * MS <= hold_ns(rng) <= 160 * MS for _ in range(200))


# -- everything from the seed ----------------------------------------------------------------------


def test_the_same_seed_gives_the_same_presses_bit_for_bit() -> None:
    settings = TableSettings(seats=4, clock="sim")
    again = Played(4, 5, settings)
    assert again.inputs == played(4, 5).inputs
    assert [p.t_ns for p in again.inputs if isinstance(p, Press)] == \
        [p.t_ns for p in played(4, 5).inputs if isinstance(p, Press)]


def test_another_seed_gives_other_times() -> None:
    assert played(4, 5).reactions[:10] != played(4, 6).reactions[:10]
    assert new_skill(random.Random(1)) != new_skill(random.Random(2))
