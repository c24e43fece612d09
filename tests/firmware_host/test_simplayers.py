"""Simulated players: deterministic per seed, human reaction times, false starts and bounce at
their rates, and edges a real button could produce."""

from __future__ import annotations

from collections import Counter

import pytest

from firmware_host.errors import BadSeat, BadSimulation
from firmware_host.simplayers import (
    MS,
    SIM_CLOCK,
    FalseStartStyle,
    SimPlayers,
    SimRace,
    SimSettings,
)
from game.inputs import Press, Release
from game.judge import RaceSpec, Status, judge
from game.race import RaceKind

ARMED = 5_000 * MS
GO = ARMED + 1_500 * MS


def races(n_seeds: int, seats: int = 5) -> list[SimRace]:
    return [SimPlayers(seats, seed).race(ARMED, GO, range(seats)) for seed in range(n_seeds)]


def by_seat(race: SimRace) -> dict[int, list[Press | Release]]:
    out: dict[int, list[Press | Release]] = {}
    for e in race.edges:
        out.setdefault(e.player, []).append(e)
    return out


def test_same_seed_same_players_and_races() -> None:
    a, b = SimPlayers(4, 99), SimPlayers(4, 99)
    assert a.profiles == b.profiles
    assert [a.race(ARMED, GO, [1, 2, 3]) for _ in range(3)] == [b.race(ARMED, GO, [1, 2, 3]) for _ in range(3)]


def test_different_seeds_differ_and_races_continue_the_sequence() -> None:
    assert SimPlayers(4, 1).race(ARMED, GO, range(4)) != SimPlayers(4, 2).race(ARMED, GO, range(4))
    sp = SimPlayers(4, 1)
    assert sp.race(ARMED, GO, range(4)) != sp.race(ARMED, GO, range(4))


def test_global_random_is_not_used() -> None:
    import random

    random.seed(0)
    state = random.getstate()
    SimPlayers(5, 3).race(ARMED, GO, range(5))
    assert random.getstate() == state


def test_reaction_times_are_human_and_match_the_edges() -> None:
    reactions = []
    for race in races(300):
        seat_edges = by_seat(race)
        for plan in race.plans:
            if plan.reaction_ns is None:
                continue
            assert 150 * MS <= plan.reaction_ns <= 350 * MS
            reactions.append(plan.reaction_ns)
            presses = sorted((e for e in seat_edges[plan.seat] if isinstance(e, Press)), key=lambda e: e.t_ns)
            first_after_go = next(e for e in presses if e.t_ns >= GO)
            assert first_after_go == Press(plan.seat, GO + plan.reaction_ns, SIM_CLOCK)
    median = sorted(reactions)[len(reactions) // 2]
    assert 190 * MS <= median <= 250 * MS
    assert min(reactions) < 170 * MS and max(reactions) > 300 * MS  # a spread, not a constant


def test_edges_alternate_press_release_per_seat_and_stay_in_order_per_seat() -> None:
    for race in races(300):
        assert all(e.clock == SIM_CLOCK for e in race.edges)
        for seat, edges in by_seat(race).items():
            assert edges == sorted(edges, key=lambda e: e.t_ns), "one pin's edges arrive in order"
            assert len({e.t_ns for e in edges}) == len(edges)
            kinds = [type(e) for e in edges]
            assert kinds == [Press, Release] * (len(edges) // 2), (seat, edges)


def test_delivery_is_sometimes_out_of_time_order_across_seats() -> None:
    shuffled = sum(list(r.edges) != sorted(r.edges, key=lambda e: e.t_ns) for r in races(100))
    assert shuffled > 50
    calm = SimPlayers(5, 1, SimSettings(max_delivery_delay_ns=0)).race(ARMED, GO, range(5))
    assert list(calm.edges) == sorted(calm.edges, key=lambda e: e.t_ns)


def test_false_starts_appear_at_their_rate_in_every_style() -> None:
    plans = [p for r in races(1000) for p in r.plans]
    styles = Counter(p.false_start for p in plans)
    rate = 1 - styles[None] / len(plans)
    assert 0.045 <= rate <= 0.075  # 6 %, 5000 seat-races: about 4 standard deviations
    assert all(styles[s] > 20 for s in FalseStartStyle)


def test_false_starts_show_in_the_edges_as_their_style_says() -> None:
    for race in races(400):
        seat_edges = by_seat(race)
        for plan in race.plans:
            edges = seat_edges[plan.seat]
            before_go = [e for e in edges if e.t_ns < GO]
            if plan.false_start is None:
                assert before_go == []
                continue
            assert all(e.t_ns >= ARMED for e in edges)
            down_at_go = isinstance(before_go[-1], Press)
            assert down_at_go == (plan.false_start is not FalseStartStyle.EARLY_TAP)
            assert (plan.reaction_ns is None) == (plan.false_start is FalseStartStyle.HELD)


def test_bounce_bursts_appear_at_their_rate_within_6_ms() -> None:
    bursts = presses = 0
    for race in races(500):
        for edges in by_seat(race).values():
            i = 0
            while i < len(edges):  # each intended press and the bounce edges right after it
                press = edges[i]
                assert isinstance(press, Press)
                j = i + 1
                while j < len(edges) and edges[j].t_ns - press.t_ns <= 6 * MS:
                    assert edges[j].t_ns - press.t_ns >= 1 * MS
                    j += 1
                presses += 1
                bursts += j > i + 1
                assert (j - i - 1) % 2 == 0, "a burst ends pressed"
                i = j + 1  # skip the real release
    assert 0.26 <= bursts / presses <= 0.34  # 30 %, ~2700 presses


def test_release_bursts_appear_at_their_rate_and_end_released() -> None:
    settings = SimSettings(bounce_rate=0.0, release_bounce_rate=0.5, bounce_low_ns=1_000, bounce_high_ns=200_000)
    bursts = releases = 0
    for seed in range(300):
        race = SimPlayers(5, seed, settings).race(ARMED, GO, range(5))
        for edges in by_seat(race).values():
            assert [type(e) for e in edges] == [Press, Release] * (len(edges) // 2)
            for i, edge in enumerate(edges):
                if isinstance(edge, Release) and (i == 0 or edge.t_ns - edges[i - 1].t_ns > 200_000):
                    tail = [e for e in edges[i + 1:] if e.t_ns - edge.t_ns <= 200_000]
                    releases += 1
                    bursts += bool(tail)
                    assert len(tail) % 2 == 0, "a release burst ends released"
    assert 0.45 <= bursts / releases <= 0.55


def test_no_false_start_when_go_comes_too_soon_after_arming() -> None:
    for seed in range(300):
        race = SimPlayers(5, seed, SimSettings(false_start_rate=1.0)).race(ARMED, ARMED + 50 * MS, range(5))
        assert all(p.false_start is None for p in race.plans)


def test_the_judge_agrees_with_the_plan() -> None:
    quiet = SimSettings(false_start_rate=0.0)
    for seed in range(100):
        race = SimPlayers(4, seed, quiet).race(ARMED, GO, range(4))
        spec = RaceSpec(
            kind=RaceKind.COCKROACH, players=4, active=0, eligible=(0, 1, 2, 3), clock=SIM_CLOCK,
            resolution_ns=1, armed_t_ns=ARMED, go_t_ns=GO, timeout_ns=2_000 * MS,
        )
        result = judge(spec, race.edges, now_t_ns=GO + 3_000 * MS)
        assert result.status is Status.DECIDED
        fastest = min(race.plans, key=lambda p: p.reaction_ns or 0)
        assert result.winner == fastest.seat
        assert {p.player: p.reaction_ns for p in result.ranking} == {p.seat: p.reaction_ns for p in race.plans}


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"min_reaction_ns": 400 * MS}, r"min_reaction_ns 400000000 and max_reaction_ns 350000000 are not valid"),
        ({"hold_low_ns": 0}, r"hold_low_ns 0 and hold_high_ns .* 0 < hold_low_ns <= hold_high_ns"),
        ({"median_low_ns": 1.5}, r"median_low_ns 1\.5 "),
        ({"bounce_high_ns": 11 * MS}, r"bounce_high_ns 11000000 is not valid: switch bounce lasts a few ms"),
        ({"hold_low_ns": 10 * MS}, r"hold_low_ns 10000000 is not valid: a press is held at least"),
        ({"false_start_rate": 1.5}, r"false_start_rate 1\.5 is not valid: use a probability"),
        ({"bounce_rate": 1}, r"bounce_rate 1 is not valid"),
        ({"release_bounce_rate": -0.1}, r"release_bounce_rate -0\.1 is not valid: use a probability"),
        ({"spread": float("nan")}, r"spread nan is not valid"),
        ({"max_bounce_pairs": 0}, r"max_bounce_pairs 0 is not valid"),
        ({"max_delivery_delay_ns": -1}, r"max_delivery_delay_ns -1 is not valid"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(BadSimulation, match=match):
        SimSettings(**kwargs)  # type: ignore[arg-type]


def test_bad_tables_and_times_are_refused() -> None:
    with pytest.raises(BadSimulation, match=r"seats 0 is not valid: simulate 1 or more seats"):
        SimPlayers(0, 1)
    with pytest.raises(BadSimulation, match=r"seed '1' is not valid: use a whole number"):
        SimPlayers(3, "1")  # type: ignore[arg-type]
    sp = SimPlayers(3, 1)
    with pytest.raises(BadSimulation, match=r"armed_t_ns 10 and go_t_ns 5 are not valid"):
        sp.race(10, 5, [0])
    with pytest.raises(BadSeat, match=r"seat 3 is not at this simulated table: use seats 0 to 2"):
        sp.race(0, 10, [0, 3])
