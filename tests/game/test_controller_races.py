"""Races at the table under stress (issue 12): a chattering button, a cockroach winner voided
after the next player pressed, a mosquito nobody answers. Every time here is chosen."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import pytest
from table_helpers import CLOCK, MS, Rig, card

from game.controller import Leds, Light, Notice, ScheduleGo, Show, Stage, Tick, step
from game.controller import inputs as console
from game.engine import DecideRace, Phase
from game.inputs import Press, Release


@pytest.fixture
def rig() -> Rig:
    """Three players at seats 0, 1, 2 (Ali, Bea, Cem); Ali guards and plays first on a 3."""
    r = Rig()
    r.seat(0, 1, 2, oldest=0)
    r.starter("number 3")
    return r


def decided(rig: Rig) -> list[DecideRace]:
    return [c for c in rig.commands if isinstance(c, DecideRace)]


def gos(rig: Rig) -> list[int]:
    return [e.race for e in rig.effects if isinstance(e, ScheduleGo)]


# --- a chattering button (point 6) ------------------------------------------------------------

def python_calls(run: Callable[[], object]) -> int:
    """How many Python functions ``run`` calls: a count, not a timing, so the same on any machine."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    # A garbage collection inside ``run`` would count the finalizers of earlier tests' garbage
    # (an unfinished generator's close is a call): collect first, none during the count.
    gc.collect()
    gc.disable()
    sys.setprofile(count)
    try:
        run()
    finally:
        sys.setprofile(None)
        gc.enable()
    return calls


def test_a_steps_work_does_not_grow_with_the_edges_already_in_the_race(rig: Rig) -> None:
    rig.play("mosquito 4")
    go = rig.go() * MS
    # Bea's button chatters (an edge every 100 µs) and Cem never slaps: the race stays open.
    chatter = [(Press if k % 2 == 0 else Release)(1, go + 50 * MS + k * 100_000, CLOCK) for k in range(4_001)]
    table = rig.table
    work: dict[int, int] = {}
    for k, edge in enumerate(chatter):
        if k in (1_000, 4_000):
            work[k] = python_calls(lambda: step(table, edge))
        table = step(table, edge).table
    assert table.stage is Stage.RACE and table.race is not None and len(table.race.edges) == 4_001
    assert work[4_000] == work[1_000], f"one step costs {work[1_000]} calls at 1,000 edges, {work[4_000]} at 4,000"
    # The chatter was judged, not dropped: Bea's first press is her slap, Cem is the slowest.
    made = step(table, Tick(go + 3_001 * MS))  # GO is rounded down to the ms here
    assert made.commands == (DecideRace((1,), loser=2),)
    assert made.table.last_race is not None and len(made.table.last_race.ignored) > 3_900


# --- a cockroach winner voided (point 8 c) --------------------------------------------------

def test_a_void_passes_to_a_press_made_after_the_race_was_decided(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()
    rig.press(1, go + 100 - rig.t)          # Bea first...
    rig.tick(60)                            # ...decided once the settle window has passed
    assert rig.table.race is not None and rig.table.race.result is not None
    assert rig.table.race.result.winner == 1
    rig.press(2, go + 270 - rig.t)          # Cem presses 170 ms after Bea, after the decision
    rig.tap_console(console.Void, after=300)  # Bea has no 4
    run = rig.table.race
    assert run is not None and run.result is not None and run.result.winner == 2
    assert [p.player for p in run.result.ranking] == [2] and run.voided == (1,)
    rig.tap_console(console.Laid, card("number 4"))
    assert decided(rig)[-1] == DecideRace((2,), winner=2, card=card("number 4"), voided=(1,))
    assert rig.stage is Stage.PLAY and "cockroach_none" not in rig.notices()


def test_the_photo_finish_shows_the_presses_made_while_the_winner_laid_the_card(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()
    rig.press(1, go + 100 - rig.t)
    rig.tick(60)
    rig.press(2, go + 270 - rig.t)
    rig.tap_console(console.Laid, card("number 4"), after=200)
    photo = rig.table.last_race
    assert photo is not None and photo.winner == 1
    assert [p.player for p in photo.ranking] == [1, 2] and photo.no_press == (0,)
    assert decided(rig)[-1] == DecideRace((1, 2), winner=1, card=card("number 4"))


def test_a_press_stamped_before_the_winners_but_arriving_late_does_not_change_the_card_laid(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()
    rig.press(1, go + 100 - rig.t)
    rig.tick(60)                            # Bea shown as the winner
    rig.feed(Press(2, (go + 90) * MS, CLOCK))  # Cem's press, stamped earlier, comes in late
    rig.tap_console(console.Laid, card("number 4"))
    # The table was shown Bea and Bea laid the card: that decision stands, as it was judged.
    assert decided(rig)[-1] == DecideRace((1,), winner=1, card=card("number 4"))
    assert rig.table.last_race is not None and rig.table.last_race.winner == 1


def test_a_void_with_nobody_else_pressed_waits_for_the_timeout(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()
    rig.press(1, go + 100 - rig.t)
    rig.tick(60)
    rig.tap_console(console.Void, after=300)
    assert rig.table.race is not None and rig.table.race.result is None and rig.stage is Stage.RACE
    rig.press(0, go + 900 - rig.t)          # Ali finds a 4 before the timeout
    rig.tick(60)
    assert rig.table.race is not None and rig.table.race.result is not None
    assert rig.table.race.result.winner == 0


def test_a_void_after_the_timeout_with_nobody_else_is_no_match(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()
    rig.press(1, go + 100 - rig.t)
    rig.tick(60)
    rig.press(2, go + 3_100 - rig.t)        # Cem too late: after the 3 s timeout
    rig.tap_console(console.Void, after=300)
    assert decided(rig)[-1] == DecideRace((), voided=(1,))
    assert "cockroach_none" in rig.notices() and rig.stage is Stage.PLAY


# --- a mosquito nobody answers (point 8 d) ---------------------------------------------------

def nobody_slaps(rig: Rig) -> None:
    go = rig.go()
    rig.tick(go + 3_001 - rig.t)


def test_a_mosquito_nobody_answers_twice_asks_the_table_instead_of_looping(rig: Rig) -> None:
    rig.play("mosquito 4")
    nobody_slaps(rig)                        # first time: nobody pressed, run again
    assert "race_idle" in rig.notices() and gos(rig) == [1, 2]   # said as nobody pressing, not a tie
    nobody_slaps(rig)                        # again: ask, do not arm a third run
    assert gos(rig) == [1, 2] and rig.stage is Stage.RACE
    run = rig.table.race
    assert run is not None and run.asking and rig.table.message.key == "race_ask"
    leds = [e for e in rig.effects if isinstance(e, Leds)][-1]
    assert leds.seats == (Light.OFF,) * 5    # no button is live while the table decides
    assert any(isinstance(e, Show) and e.message.key == "race_ask" for e in rig.effects)
    rig.tick(10_000)                         # time passes: still asking, nothing re-armed
    rig.press(1)                             # a press is not an answer to the question
    rig.release(1)
    assert gos(rig) == [1, 2] and rig.table.race is not None and rig.table.race.asking
    rig.tap_console(console.Cancel)          # call it off
    assert rig.stage is Stage.PLAY and rig.table.game.phase is Phase.TURN
    assert rig.table.race is None and rig.table.game.active == 1


def test_the_table_can_run_it_again_and_a_silent_rerun_asks_again_at_once(rig: Rig) -> None:
    rig.play("mosquito 4")
    nobody_slaps(rig)
    nobody_slaps(rig)
    rig.tap_console(console.Rearm)           # "run again"
    assert gos(rig) == [1, 2, 3] and rig.table.race is not None and not rig.table.race.asking
    nobody_slaps(rig)                        # still nobody: ask again straight away
    assert gos(rig) == [1, 2, 3] and rig.table.race is not None and rig.table.race.asking
    rig.tap_console(console.Rearm)
    go = rig.go()
    rig.press(1, go + 200 - rig.t)
    rig.press(2, 50)                         # Cem slowest
    assert decided(rig)[-1].loser == 2 and rig.stage is Stage.PLAY


def test_a_tie_between_presses_after_a_silent_run_still_runs_again(rig: Rig) -> None:
    rig.play("mosquito 4")
    nobody_slaps(rig)
    go = rig.go()
    t = (go + 300) * MS
    rig.feed(Press(1, t, CLOCK))
    rig.feed(Press(2, t, CLOCK))             # a real tie: the race simply runs again
    assert gos(rig) == [1, 2, 3] and rig.table.race is not None and not rig.table.race.asking
    assert not any(isinstance(e, Notice) and e.message.key == "race_ask" for e in rig.effects)
