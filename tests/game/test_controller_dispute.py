"""Caught!: only the guard's call counts, the pick, the vote, the plea, overrides and cancels."""

from __future__ import annotations

import pytest
from table_helpers import Rig

from game.controller import Leds, Light, Stage
from game.controller import inputs as console
from game.engine import Accuse, CancelDispute, Phase, Verdict


@pytest.fixture
def rig() -> Rig:
    """Four players at seats 0-3 (Ali, Bea, Cem, Dan); Ali guards and is to play."""
    r = Rig()
    r.seat(0, 1, 2, 3, oldest=0)
    r.starter("number 3")
    return r


def accuse(rig: Rig, seat: int) -> None:
    rig.caught()
    assert rig.stage is Stage.PICK
    rig.tap(seat)


def test_the_table_freezes_and_says_so(rig: Rig) -> None:
    rig.caught()
    assert rig.stage is Stage.PICK
    assert "No cheating now!" in rig.table.message.render()
    leds = [e for e in rig.effects if isinstance(e, Leds)][-1]
    assert leds.caught is Light.VOTING and leds.seats[0] is Light.SLOW
    rig.play("number 4")  # nothing can be played while the accusation is open
    assert rig.notices()[-1] == "ignored_input" and rig.table.game.phase is Phase.TURN


def test_guilty_by_majority(rig: Rig) -> None:
    accuse(rig, 2)                       # Cem
    assert rig.commands[-1] == Accuse(0, 2)
    rig.tap(1)                           # Bea votes guilty: 1 of 2 judges, not yet a majority
    assert rig.stage is Stage.VOTE
    rig.tap(3)                           # Dan too: 2 of 2
    assert rig.commands[-1] == Verdict(True)
    assert rig.table.game.guard == 2 and rig.table.game.hands == (7, 8, 9, 8)
    assert rig.notices()[-1] == "verdict_guilty"
    text = [e for e in rig.effects if getattr(e, "message", None) is not None][-2].message.render()
    assert text == "Guilty: Cem takes the card back and one card from Ali; Cem is the guard."


def test_a_tied_vote_favours_the_accused(rig: Rig) -> None:
    accuse(rig, 2)
    rig.tap(1)                           # one of two judges
    rig.tick(rig.settings.vote_window_ns // 1_000_000)
    assert rig.commands[-1] == Verdict(False)
    assert rig.table.game.guard == 0 and rig.table.game.hands == (9, 8, 8, 8)  # Ali drew
    assert rig.notices()[-1] == "verdict_not_guilty"


def test_nobody_votes_in_time_means_not_guilty(rig: Rig) -> None:
    accuse(rig, 3)                       # the window opened with the press, 100 ms before the release
    rig.tick(rig.settings.vote_window_ns // 1_000_000 - 101)
    assert rig.stage is Stage.VOTE      # 1 ms left
    rig.tick(1)
    assert rig.commands[-1] == Verdict(False)


def test_the_accused_may_plead_guilty(rig: Rig) -> None:
    accuse(rig, 1)
    rig.tap(1)                           # Bea presses her own button
    assert rig.commands[-1] == Verdict(True) and rig.table.game.guard == 1


def test_a_judge_votes_once_and_the_guard_does_not_vote(rig: Rig) -> None:
    accuse(rig, 2)
    rig.tap(1)
    rig.tap(1)                           # a second press by the same judge changes nothing
    rig.tap(0)                           # the guard is not a judge
    assert rig.notices()[-1] == "ignored_not_judge"
    assert rig.table.dispute is not None and rig.table.dispute.votes == (1,)
    assert rig.stage is Stage.VOTE


def test_caught_from_a_player_who_is_not_the_guard_is_ignored(rig: Rig) -> None:
    rig.tap_console(console.CallCaught, 2)
    assert rig.notices()[-1] == "ignored_not_guard"
    assert rig.stage is Stage.PLAY and not [c for c in rig.commands if isinstance(c, Accuse)]
    rig.tap_console(console.CallCaught, 0)   # the guard's call counts
    assert rig.stage is Stage.PICK


def test_the_guard_cannot_accuse_themselves(rig: Rig) -> None:
    rig.caught()
    rig.tap(0)
    assert rig.notices()[-1] == "ignored_self_accuse" and rig.stage is Stage.PICK


def test_no_pick_in_time_drops_the_accusation(rig: Rig) -> None:
    rig.caught()
    rig.tick(rig.settings.pick_window_ns // 1_000_000)
    assert rig.stage is Stage.PLAY and rig.notices()[-1] == "dispute_dropped"
    assert not [c for c in rig.commands if isinstance(c, Accuse)]


def test_the_console_picks_overrides_and_cancels(rig: Rig) -> None:
    rig.caught()
    rig.tap_console(console.Accuse, 3)
    rig.tap_console(console.Rule, False)
    assert rig.commands[-2:] == [Accuse(0, 3), Verdict(False)]
    rig.caught()
    rig.tap_console(console.Accuse, 3)
    rig.tap_console(console.Cancel)
    assert rig.commands[-1] == CancelDispute() and rig.stage is Stage.PLAY
    assert rig.notices()[-1] == "dispute_dropped"


def test_caught_is_refused_during_a_race(rig: Rig) -> None:
    rig.play("mosquito 4")
    rig.caught()
    assert rig.notices()[-1] == "ignored_caught_now" and rig.stage is Stage.RACE


def test_caught_during_a_spider_gift_returns_to_the_gift(rig: Rig) -> None:
    rig.play("spider 4")
    accuse(rig, 1)
    rig.tap(2)
    rig.tap(3)
    assert rig.stage is Stage.SPIDER and rig.table.game.gift_from == 0
