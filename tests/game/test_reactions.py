"""Each player's reactions over a game, from the races the controller decided: best, median,
races, false starts; an undone decision is taken back out; a new game starts afresh."""

from __future__ import annotations

import pytest
from table_helpers import MS, Rig

from game.controller import ScheduleGo
from game.controller import inputs as console
from game.controller.reactions import PlayerStats, RaceTimes, stats


@pytest.fixture
def rig() -> Rig:
    """Ali (0), Bea (1), Cem (2); Ali guards and plays first on a 3."""
    r = Rig()
    r.seat(0, 1, 2, oldest=0)
    r.starter("number 3")
    return r


def slap(rig: Rig, bea_ms: int, cem_ms: int, bea_early: bool = False) -> dict[int, int]:
    """Ali lays a mosquito; Bea and Cem slap about ``bea_ms`` and ``cem_ms`` after GO (the
    rig's clock is in ms, GO is where the controller scheduled it); their reactions in ns."""
    rig.play("mosquito 4")
    if bea_early:
        rig.press(1, 100)
        rig.release(1, 50)
    go = rig.go()
    go_ns = [e for e in rig.effects if isinstance(e, ScheduleGo)][-1].t_ns
    reactions = {}
    for after, seat in sorted(((bea_ms, 1), (cem_ms, 2))):
        rig.press(seat, go + after - rig.t)
        reactions[seat] = rig.t * MS - go_ns
    for seat in (1, 2):
        rig.release(seat, 10)
    rig.tick(3_000)
    return reactions


def test_a_decided_slap_records_each_players_reaction(rig: Rig) -> None:
    took = slap(rig, 210, 340)
    assert len(rig.table.race_times) == 1 and 209 * MS < took[1] <= 210 * MS
    ali, bea, cem = stats(rig.table.race_times, 3)
    assert ali == PlayerStats(0, 0, None, None, 0)                   # Ali laid the mosquito
    assert bea == PlayerStats(1, 1, took[1], took[1], 0)
    assert cem == PlayerStats(2, 1, took[2], took[2], 0)


def test_a_false_start_is_counted_and_the_valid_slap_still_times(rig: Rig) -> None:
    took = slap(rig, 400, 300, bea_early=True)
    bea = stats(rig.table.race_times, 3)[1]
    assert bea.false_starts == 1 and bea.races == 1 and bea.best_ns == took[1]


def test_undoing_the_decision_takes_the_race_back_out(rig: Rig) -> None:
    slap(rig, 210, 340)
    rig.tap_console(console.UndoLast)
    assert rig.table.race_times == ()


def test_a_new_game_starts_afresh_but_game_over_keeps_them(rig: Rig) -> None:
    slap(rig, 210, 340)
    rig.tap_console(console.NewGame)
    assert len(rig.table.race_times) == 1          # seating again: last game's still shown
    rig.tap_console(console.StartGame)
    rig.tap(1)                                      # Bea is the oldest: a new game
    assert rig.table.race_times == ()


def test_best_and_median_over_several_races() -> None:
    times = (RaceTimes((0, 1), ((0, 300), (1, 250)), ()),
             RaceTimes((0, 1), ((1, 200),), (0,)),
             RaceTimes((0, 1), ((0, 180), (1, 260)), ()),
             RaceTimes((0, 1, 2), ((0, 500), (1, 210), (2, 999)), ()))
    ali, bea, cem = stats(times, 3)
    assert (ali.races, ali.best_ns, ali.median_ns, ali.false_starts) == (4, 180, 300, 1)   # 180 300 500
    assert (bea.races, bea.best_ns, bea.median_ns) == (4, 200, 230)                       # 200 210 250 260
    assert (cem.races, cem.best_ns, cem.median_ns) == (1, 999, 999)
