"""Issue 13 point 9.3: an undo leads back to a screen the group can go on from. A verdict taken
back opens the vote again (it used to leave the vote with no accusation behind it, and the next
Guilty tap or judge's press stopped the controller); the new game taken back on the first deal
asks again who is the oldest (it used to stay on the deal with no game)."""

from __future__ import annotations

from table_helpers import Rig

from game.controller import Stage, WakeAt
from game.controller import inputs as console
from game.engine import Phase


def _accused(rig: Rig) -> None:
    rig.seat(0, 1, 2, 3, oldest=0)
    rig.starter("number 3")
    rig.caught()
    rig.press(1)                                         # Ali accuses Bea
    assert rig.stage is Stage.VOTE


def test_an_undone_verdict_opens_the_vote_again() -> None:
    rig = Rig()
    _accused(rig)
    rig.press(2)                                         # Cem votes guilty
    rig.tap_console(console.Rule, False)                 # a slip: Not guilty tapped
    assert rig.stage is Stage.PLAY
    made = rig.tap_console(console.UndoLast)
    d = rig.table.dispute
    assert rig.stage is Stage.VOTE and rig.table.game.phase is Phase.DISPUTE
    assert d is not None and (d.guard, d.accused, d.votes) == (0, 1, ())   # the judges vote afresh
    assert d.deadline_t_ns == rig.table.now_t_ns + rig.table.settings.vote_window_ns
    assert WakeAt(d.deadline_t_ns) in made.effects
    assert rig.table.message.render().startswith("Caught! Ali accuses Bea.")
    rig.tap_console(console.Rule, True)                  # the intended verdict
    assert rig.stage is Stage.PLAY and rig.table.game.guard == 1


def test_a_judges_press_after_an_undone_verdict_is_a_vote() -> None:
    rig = Rig()
    _accused(rig)
    rig.tap_console(console.Rule, True)
    rig.tap_console(console.UndoLast)
    rig.press(2)
    rig.press(3)                                         # Cem and Dan: 2 of 2 judges
    assert rig.stage is Stage.PLAY and rig.table.last_verdict is not None
    assert rig.table.last_verdict.guilty and rig.table.last_verdict.votes == 2


def test_the_undone_vote_runs_out_like_any_vote() -> None:
    rig = Rig()
    _accused(rig)
    rig.tap_console(console.Rule, True)
    rig.tap_console(console.UndoLast)
    rig.tick(rig.table.settings.vote_window_ns // 1_000_000)
    assert rig.stage is Stage.PLAY and rig.table.last_verdict is not None
    assert not rig.table.last_verdict.guilty               # silence counts as not guilty


def test_taking_back_the_new_game_asks_again_who_is_the_oldest() -> None:
    rig = Rig()
    rig.seat(0, 1, 2, oldest=2)                          # Cem pressed by mistake
    assert rig.stage is Stage.DEAL and rig.table.game.guard == 2
    rig.tap_console(console.UndoLast)
    assert rig.stage is Stage.OLDEST and rig.table.game.phase is Phase.IDLE
    rig.tap(0)                                           # Ali is the oldest
    assert rig.stage is Stage.DEAL and rig.table.game.guard == 0
