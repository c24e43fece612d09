"""A referee session's statistics from chosen race results."""

from __future__ import annotations

import json
import statistics

import pytest

from game.inputs import Press
from game.referee.presets import load_presets
from game.referee.race import RefereeRace, RefereeResult, judge_race
from game.referee.stats import iqr_ns, median_ns, quartile_ns, session_stats, stats_to_json

MS = 1_000_000
CLOCK = "sim"
PRESETS = load_presets()


def run(preset: str, racers: tuple[int, ...], presses: dict[int, int], index: int, now_ms: int = 4000,
        voided: tuple[int, ...] = ()) -> RefereeResult:
    """Race ``index`` of a session (each 10 s apart on the clock): ``presses`` seat -> ms after GO
    (negative: before GO)."""
    armed = (index + 1) * 10_000 * MS
    p = PRESETS.get(preset)
    go = armed + 1_000 * MS
    race = RefereeRace(p, seats=max(racers) + 1, racers=racers, clock=CLOCK, resolution_ns=100_000, armed_t_ns=armed,
                       go_t_ns=None if p.go.value == "table" else go, voided=voided)
    start = armed if p.go.value == "table" else go
    return judge_race(race, [Press(s, start + ms * MS, CLOCK) for s, ms in presses.items()], start + now_ms * MS)


def session() -> list[RefereeResult]:
    return [
        run("grab", (0, 1, 2), {0: 200, 1: 250, 2: 300}, 0),               # 0 wins
        run("grab", (0, 1, 2), {0: 220, 1: 180}, 1),                       # 1 wins, 2 locked out
        run("grab", (0, 1, 2), {2: -100, 0: 400, 1: 300}, 2),              # 2 false start (out), 1 wins
        run("last-hand-down", (0, 1, 2), {0: 210, 1: 260, 2: 500}, 3),     # 2 loses
        run("last-hand-down", (0, 1, 2), {1: -50}, 4),                     # 1 false start: re-run
        run("last-hand-down", (0, 1, 2), {0: 300, 1: 200, 2: 300}, 5),     # tie for last 0/2: re-run
        run("bell-slap", (0, 1, 2), {1: 5_000, 2: 5_100}, 6, now_ms=5_200),  # 1 wins; no reaction times
        run("grab", (0, 1, 2), {0: 190}, 7, now_ms=200),                   # pending: not a race yet
    ]


def test_each_player_over_a_session() -> None:
    results = session()
    assert [r.decided for r in results] == [True] * 7 + [False]
    by_seat = {s.seat: s for s in session_stats(results)}
    zero, one, two = by_seat[0], by_seat[1], by_seat[2]
    # Races are decided runs, re-runs included; wins and losses only from runs that stand.
    assert (zero.races, zero.wins, zero.losses, zero.false_starts) == (7, 1, 0, 0)
    assert (one.races, one.wins, one.losses, one.false_starts) == (7, 3, 0, 1)
    assert (two.races, two.wins, two.losses, two.false_starts) == (7, 0, 1, 1)
    # Reaction times: valid presses after the rig's GO, re-runs included, the table's GO not.
    assert zero.reactions_ns == (200 * MS, 220 * MS, 400 * MS, 210 * MS, 300 * MS)
    assert one.reactions_ns == (250 * MS, 180 * MS, 300 * MS, 260 * MS, 200 * MS)
    assert two.reactions_ns == (300 * MS, 500 * MS, 300 * MS)
    assert (zero.best_ns, zero.median_ns, zero.iqr_ns) == (200 * MS, 220 * MS, 90 * MS)
    assert (two.best_ns, two.median_ns, two.iqr_ns) == (300 * MS, 300 * MS, 100 * MS)


def test_seats_without_a_race_are_listed_when_asked() -> None:
    (only,) = [s for s in session_stats([], seats=[4]) if s.seat == 4]
    assert (only.races, only.wins, only.best_ns, only.median_ns, only.iqr_ns) == (0, 0, None, None, None)


def test_a_shared_win_counts_for_each() -> None:
    shared = PRESETS.get("grab")
    assert shared.tie.value == "rerace"  # the shipped grab re-races; a tie there is no win
    tied = run("grab", (0, 1), {0: 200, 1: 200}, 0)
    assert tied.rerun and [s.wins for s in session_stats([tied])] == [0, 0]


def test_a_voided_slap_is_no_win() -> None:
    voided = run("bell-slap", (0, 1), {0: 900, 1: 950}, 0, voided=(0,))
    assert [(s.seat, s.wins) for s in session_stats([voided])] == [(0, 0), (1, 1)]


@pytest.mark.parametrize("values", [[5], [5, 9], [3, 1, 2], [10, 40, 20, 30], [7, 7, 7, 100, 1, 3, 9, 12, 44]])
def test_median_and_quartiles_agree_with_the_statistics_module(values: list[int]) -> None:
    if len(values) % 2:
        assert median_ns(values) == statistics.median(values)
    else:
        assert median_ns(values) == int(statistics.median(values) // 1)
    if len(values) >= 2:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        assert quartile_ns(values, 1) == round(q1) and quartile_ns(values, 3) == round(q3)
        assert iqr_ns(values) == round(q3) - round(q1)
    else:
        assert iqr_ns(values) is None


def test_times_near_the_clock_s_limit_stay_exact() -> None:
    big = 2**62
    assert median_ns([big + 1, big + 2]) == big + 1
    assert quartile_ns([big, big + 4], 1) == big + 1
    assert median_ns([]) is None


def test_statistics_as_json() -> None:
    doc = stats_to_json(session_stats(session()), names=["Ali", "Bea"])
    assert doc["spread"] == "iqr"
    first, second, third = doc["players"]
    assert first == {"seat": 0, "name": "Ali", "races": 7, "wins": 1, "losses": 0, "false_starts": 0, "reactions": 5,
                     "best_ns": 200 * MS, "median_ns": 220 * MS, "iqr_ns": 90 * MS,
                     "reactions_ns": [200 * MS, 220 * MS, 400 * MS, 210 * MS, 300 * MS]}
    assert second["name"] == "Bea" and "name" not in third
    assert json.loads(json.dumps(doc)) == doc
