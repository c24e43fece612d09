"""Issue 20, played: a robot group of 3 to 5 people plays card games through the App's real
event loop (SDL's dummy driver, the rig's clock moved by the test), aiming each gesture at the
screen it saw when it began to read, and an oracle checks every loop turn against the frame
that was on the glass (robot_group.py says what it checks and how)."""

from __future__ import annotations

import pytest
from robot_group import Robot, Tally
from sizes import size

#: Short games per table: 50 in the soak (tests/sizes.py), 20 in every run.
SEEDS = range(size(20, 50))
#: (players, how often they err, gestures per game)
TABLES = {"three": (3, 0.10, 15), "four": (4, 0.12, 15), "five": (5, 0.10, 15), "clumsy four": (4, 0.35, 15)}


def play(seed: int, players: int, mistakes: float, gestures: int, tally: Tally) -> None:
    robot = Robot(seed, players, mistakes=mistakes, max_gestures=gestures, tally=tally)
    robot.play_game()


@pytest.mark.soak
@pytest.mark.parametrize("table", sorted(TABLES))
def test_a_robot_group_plays_through_the_glass(table: str) -> None:
    players, mistakes, gestures = TABLES[table]
    tally = Tally()
    for seed in SEEDS:
        play(seed, players, mistakes, gestures, tally)
    assert tally.games == len(SEEDS)
    # It tested something: games got going, screens changed under pointers, presses came late.
    assert tally.must >= tally.games * 5, tally
    assert tally.races >= tally.games // 3, tally
    assert tally.settling + tally.after_act + tally.late_or_gone >= len(SEEDS) // 10, tally
    assert {"join", "oldest", "deal", "play", "race", "photo"} <= tally.screens, tally.screens


def test_the_robot_group_catches_a_glass_without_settle_time() -> None:
    """The oracle can fail: an App whose screens take taps the moment they come up (settle 0)
    lets a tap aimed at the screen before land on the new one, and the robot says so."""
    failed = 0
    for seed in range(4):
        try:
            Robot(seed, 5, max_gestures=15, settle_ns=0).play_game()
        except AssertionError:
            failed += 1
    assert failed, "a glass without settle time went unnoticed"


#: Whole games, to the final standings: (players, seeds); 11 games in the soak, 3 in every run.
WHOLE = {3: range(100, 100 + size(1, 4)), 4: range(200, 200 + size(1, 3)), 5: range(300, 300 + size(1, 4))}


@pytest.mark.soak
@pytest.mark.parametrize("players", sorted(WHOLE))
def test_a_robot_group_plays_whole_games_to_the_final_standings(players: int) -> None:
    tally = Tally()
    for seed in WHOLE[players]:
        robot = Robot(seed, players, mistakes=0.12, max_gestures=3_000, max_rounds=99, tally=tally)
        robot.play_game()
        assert robot.app.table.stage.value == "game-over", (seed, robot.gestures, robot.app.table.stage)
    assert tally.rounds >= len(WHOLE[players]) * players
    assert {"penalty", "summary", "photo", "race"} <= tally.screens, tally.screens
