"""The controller's races, seating, turns, undo and bad input, from chosen presses and times."""

from __future__ import annotations

import pytest
from table_helpers import CLOCK, MS, Rig, card

from game.controller import Arm, Leds, Light, PlaySound, ScheduleGo, Stage, TableSettings, step
from game.controller import inputs as console
from game.engine import DecideRace, DrawCard, PlayCard, Undo
from game.engine.events import CardDrawn, DiscardReshuffled
from game.inputs import Press


@pytest.fixture
def rig() -> Rig:
    """Three players at seats 0, 1, 2 (Ali, Bea, Cem); Ali guards and plays first on a 3."""
    r = Rig()
    r.seat(0, 1, 2, oldest=0)
    r.starter("number 3")
    return r


def sounds(rig: Rig) -> list[str]:
    return [e.name for e in rig.effects if isinstance(e, PlaySound)]


# --- races ---------------------------------------------------------------------------------

def test_go_comes_a_seeded_random_time_after_arming(rig: Rig) -> None:
    armed = rig.t
    rig.play("mosquito 4")
    go = [e for e in rig.effects if isinstance(e, ScheduleGo)][-1]
    assert 800 <= go.t_ns // MS - armed - 500 <= 2_500
    assert [e for e in rig.effects if isinstance(e, Arm)][-1].seats == (1, 2)
    other = Rig(seed=8)
    other.seat(0, 1, 2, oldest=0)
    other.starter("number 3")
    other.play("mosquito 4")
    again = Rig()
    again.seat(0, 1, 2, oldest=0)
    again.starter("number 3")
    again.play("mosquito 4")
    assert [e for e in again.effects if isinstance(e, ScheduleGo)][-1] == go       # same seed
    assert [e for e in other.effects if isinstance(e, ScheduleGo)][-1] != go      # another seed


def test_a_false_start_must_release_and_slap_again(rig: Rig) -> None:
    rig.play("mosquito 4")
    rig.press(1, 100)                    # Bea jumps the gun...
    rig.release(1, 100)
    go = rig.go()
    rig.press(2, go + 250 - rig.t)       # Cem at 250 ms
    rig.press(1, 50)                     # Bea's valid slap at 300 ms: slowest
    decided = [c for c in rig.commands if isinstance(c, DecideRace)][-1]
    assert decided.loser == 1 and decided.false_starts == (1,)
    assert "false_start" in sounds(rig)
    assert rig.table.last_race is not None and rig.table.last_race.loser == 1


def test_a_button_held_at_arming_is_reported_and_judged_a_false_start(rig: Rig) -> None:
    rig.press(2)                          # Cem is leaning on his button
    rig.play("mosquito 4")
    assert "stuck" in rig.notices()
    go = rig.go()
    rig.press(1, go + 200 - rig.t)        # Bea slaps; Cem is still held down from before GO
    rig.tick(3_000)                       # timeout: Cem never made a valid slap
    decided = [c for c in rig.commands if isinstance(c, DecideRace)][-1]
    assert decided.loser == 2 and 2 in decided.false_starts


def test_a_tie_for_slowest_runs_the_race_again(rig: Rig) -> None:
    rig.play("mosquito 4")
    go = rig.go()
    t = (go + 300) * MS
    rig.feed(Press(1, t, CLOCK))
    rig.feed(Press(2, t, CLOCK))          # the very same nanosecond
    assert "race_tie" in rig.notices()
    assert [e.race for e in rig.effects if isinstance(e, ScheduleGo)] == [1, 2]
    assert rig.table.race is not None and rig.table.race.run == 2
    rig.release(1)
    rig.release(2)
    go = rig.go()
    rig.press(2, go + 200 - rig.t)
    rig.press(1, 30)
    assert [c for c in rig.commands if isinstance(c, DecideRace)][-1].loser == 1


def test_a_cockroach_nobody_can_match_times_out(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()                        # GO's time rounded down to the ms
    rig.tick(go + 2_999 - rig.t)
    assert rig.stage is Stage.RACE
    rig.tick(2)                          # past GO + 3 s
    assert rig.commands[-1] == DecideRace(())
    assert rig.table.game.active == 1 and "cockroach_none" in rig.notices()


def test_a_refused_cockroach_card_keeps_the_race_waiting(rig: Rig) -> None:
    rig.play("cockroach 4")
    go = rig.go()
    rig.press(1, go + 200 - rig.t)
    rig.tick(100)
    rig.tap_console(console.Laid, card("number 5"))   # not a 4
    assert rig.notices()[-1] == "refused" and rig.stage is Stage.RACE
    rig.tap_console(console.Laid, card("ant 4"))
    assert rig.stage is Stage.PLAY and rig.table.game.discard[-1] == card("ant 4")


def test_race_leds_arm_then_light_at_go(rig: Rig) -> None:
    rig.play("mosquito 4")
    armed = [e for e in rig.effects if isinstance(e, Leds)][-1]
    assert armed.seats[:3] == (Light.OFF, Light.ARMED, Light.ARMED)
    rig.go()
    lit = [e for e in rig.effects if isinstance(e, Leds)][-1]
    assert lit.seats[:3] == (Light.OFF, Light.ON, Light.ON)


# --- turns, undo, seating ------------------------------------------------------------------

def test_the_turn_leds_show_the_active_player_and_the_guard(rig: Rig) -> None:
    rig.play("number 4")
    leds = [e for e in rig.effects if isinstance(e, Leds)][-1]
    assert leds.seats[:3] == (Light.SLOW, Light.ON, Light.OFF) and leds.caught is Light.ON


def test_only_the_active_players_short_press_draws(rig: Rig) -> None:
    rig.tap(2)                            # not Cem's turn
    assert not [c for c in rig.commands if isinstance(c, DrawCard)]
    rig.tap(0)
    assert rig.commands[-1] == DrawCard(0)


def test_an_unconfirmed_long_press_expires(rig: Rig) -> None:
    rig.play("number 4")                  # Ali
    rig.play("number 5")                  # Bea: she may have played her last card
    rig.hold(1)
    assert rig.table.pending_out is not None
    assert rig.table.message.render() == "Bea: press your button again to confirm you have no cards left."
    rig.tick(rig.settings.confirm_out_ns // MS)
    assert rig.table.pending_out is None and rig.stage is Stage.PLAY


def test_the_draw_pile_reshuffles_when_empty(rig: Rig) -> None:
    for _ in range(rig.table.game.draw_pile):
        rig.draw()
    assert rig.table.game.draw_pile == 0
    rig.play("number 4")
    rig.play("number 5")
    rig.draw()
    assert any(isinstance(e, DiscardReshuffled) for e in rig.events)
    assert rig.table.game.draw_pile == 1 and isinstance(rig.events[-2], CardDrawn)


def test_an_ant_makes_the_others_draw(rig: Rig) -> None:
    rig.play("ant 4")
    assert rig.table.game.hands == (7, 9, 9)


def test_undo_takes_back_the_last_command(rig: Rig) -> None:
    rig.play("number 4")
    rig.tap_console(console.UndoLast)
    assert rig.commands[-1] == Undo() and rig.table.game.active == 0
    assert rig.table.game.hands == (8, 8, 8)


def test_undoing_a_race_decision_runs_the_race_again(rig: Rig) -> None:
    rig.play("mosquito 4")
    go = rig.go()
    rig.press(1, go + 200 - rig.t)
    rig.press(2, 50)
    rig.tap_console(console.UndoLast)
    assert rig.stage is Stage.RACE and rig.table.race is not None and rig.table.race.go_t_ns is None
    assert len([e for e in rig.effects if isinstance(e, ScheduleGo)]) == 2


def test_seating_limits_and_a_long_press_to_start() -> None:
    rig = Rig(settings=TableSettings(seats=7, clock=CLOCK))
    for seat in range(5):
        rig.tap(seat)
    rig.tap(5)
    assert rig.notices()[-1] == "join_full" and rig.table.seated == (0, 1, 2, 3, 4)
    rig.hold(2)
    assert rig.stage is Stage.OLDEST


def test_too_few_players_cannot_start() -> None:
    rig = Rig()
    rig.tap(0)
    rig.tap(3)
    rig.tap_console(console.StartGame)
    assert rig.notices()[-1] == "join_too_few" and rig.stage is Stage.JOIN
    assert [e.name for e in rig.effects if isinstance(e, PlaySound)][:2] == ["seat_0", "seat_3"]


# --- bad input: a notice, state unchanged ---------------------------------------------------

def test_a_card_that_does_not_fit_is_refused_and_changes_nothing(rig: Rig) -> None:
    before = rig.table
    made = rig.play("number 1")
    assert rig.notices()[-1] == "refused"
    assert "cannot play number 1 on a 3: play a 4 or a 2, or draw" in made.effects[0].message.render()
    assert rig.table.game == before.game and not [c for c in rig.commands if isinstance(c, PlayCard)]


def test_input_from_another_clock_is_ignored(rig: Rig) -> None:
    before = rig.table
    made = step(rig.table, Press(0, 5 * 10**12, "board"))
    assert made.table == before and made.effects[0].message.key == "ignored_clock"


def test_a_button_beyond_the_wired_seats_is_ignored(rig: Rig) -> None:
    rig.press(6)
    assert rig.notices()[-1] == "ignored_input"


def test_console_taps_out_of_place_are_ignored(rig: Rig) -> None:
    rig.tap_console(console.Penalty, 0, 0, 0, 1)
    rig.tap_console(console.Laid, card("ant 4"))
    assert rig.notices()[-2:] == ["ignored_input", "ignored_input"]
    assert rig.stage is Stage.PLAY


def test_a_race_can_be_rearmed_and_earlier_presses_are_void(rig: Rig) -> None:
    rig.play("mosquito 4")
    go = rig.go()
    rig.press(1, go + 200 - rig.t)         # Bea slaps, then the input is lost...
    rig.release(1)
    rig.tap_console(console.Rearm)
    assert rig.notices()[-1] == "race_rearmed"
    assert [e.race for e in rig.effects if isinstance(e, ScheduleGo)] == [1, 2]
    assert rig.table.race is not None and rig.table.race.edges == () and rig.table.race.go_t_ns is None
    go = rig.go()
    rig.press(2, go + 150 - rig.t)
    rig.press(1, 40)
    assert [c for c in rig.commands if isinstance(c, DecideRace)][-1].loser == 1


# --- going out (issue 12 point 8) ------------------------------------------------------------

def _last_notice(rig: Rig) -> str:
    from game.controller import Notice

    return [e for e in rig.effects if isinstance(e, Notice)][-1].message.render()


NOT_YET_BEA = ("Bea cannot be out yet: a hand empties only by playing, laying or giving a card "
               "(never by cheating), and Bea has done none of these this round, so play your last "
               "card to go out.")


def test_a_long_press_to_go_out_before_playing_a_card_is_refused_by_name(rig: Rig) -> None:
    rig.play("number 4")                  # Ali; Bea has done nothing yet
    before = rig.table.game
    rig.hold(1)
    assert _last_notice(rig) == NOT_YET_BEA
    assert sounds(rig)[-1] == "refused"
    assert rig.table.pending_out is None and rig.stage is Stage.PLAY
    rig.tap(1)                            # a confirming press now is just Bea's draw
    assert rig.table.game.phase.value == "turn" and rig.table.game.hands[1] == before.hands[1] + 1
    assert not any(type(c).__name__ == "DeclareOut" for c in rig.commands)


def test_the_out_menu_refuses_a_player_who_has_not_played_and_keeps_the_game(rig: Rig) -> None:
    before = rig.table.game
    rig.tap_console(console.Out, 1)
    assert _last_notice(rig) == NOT_YET_BEA
    assert rig.table.game is before and rig.stage is Stage.PLAY


def test_the_out_menu_accepts_a_player_who_played(rig: Rig) -> None:
    rig.play("number 4")
    rig.play("number 5")                  # Bea
    rig.tap_console(console.Out, 1)
    assert rig.stage is Stage.PENALTY and rig.table.game.out == (1,)


def _last_card(rig: Rig, text: str) -> None:
    rig.feed(console.Play(card(text), rig.at(500), last_card=True))


@pytest.mark.parametrize("kind", ["ant", "mosquito", "cockroach", "spider"])
def test_a_last_card_tapped_as_such_ends_the_round_without_its_action(rig: Rig, kind: str) -> None:
    rig.play("number 4")                  # Ali; Bea has cheated down to one real card
    hands = rig.table.game.hands
    _last_card(rig, f"{kind} 5")
    assert rig.commands[-1] == PlayCard(1, card(f"{kind} 5"), last_card=True)
    assert rig.stage is Stage.PENALTY and rig.table.game.out == (1,)
    assert rig.table.game.hands == (hands[0], hands[1] - 1, hands[2])   # nobody drew or got a card
    assert not [e for e in rig.effects if isinstance(e, (Arm, ScheduleGo))]   # no race armed
    assert rig.table.message.render().startswith("Round 1 is over: Bea has no cards left.")


def test_the_guard_all_round_cannot_tap_a_last_card_while_holding_more(rig: Rig) -> None:
    before = rig.table.game
    _last_card(rig, "ant 4")
    assert "ant 4 cannot be the last card of Ali" in _last_notice(rig)   # named, not "seat 0"
    assert rig.table.game is before and rig.stage is Stage.PLAY


def test_a_last_card_and_a_refused_out_resume_from_the_table_log(rig: Rig) -> None:
    from game.codec import from_dict, to_dict
    from game.controller.inputs import INPUT_TYPES
    from game.controller.resume import LoggedStep, resume
    from game.codec import RECORD_TYPES

    inputs = {t.__name__: t for t in INPUT_TYPES}
    fresh = Rig()
    logged: list[LoggedStep] = []
    original = fresh.feed

    def logging_feed(event: object) -> object:
        made = original(event)
        # What the table log does: every record through JSON-ready dicts and back.
        logged.append(LoggedStep(from_dict(to_dict(event), inputs),
                                 tuple(from_dict(to_dict(c), RECORD_TYPES) for c in made.commands),
                                 tuple(from_dict(to_dict(e), RECORD_TYPES) for e in made.events)))
        return made

    fresh.feed = logging_feed  # type: ignore[method-assign]
    fresh.seat(0, 1, 2, oldest=0)
    fresh.starter("number 3")
    fresh.play("number 4")
    fresh.tap_console(console.Out, 2)     # refused: Cem has not played
    _last_card(fresh, "ant 5")            # Bea's last card
    resumed = resume(fresh.settings, fresh.seed, Rig().t * MS, logged)
    assert resumed == fresh.table
    assert resumed.game.out == (1,) and resumed.game.hands == (7, 7, 8)


def test_undo_of_a_last_card_brings_the_turn_back(rig: Rig) -> None:
    rig.play("number 4")
    before = rig.table.game
    _last_card(rig, "ant 5")
    rig.tap_console(console.UndoLast)
    assert rig.table.game == before and rig.stage is Stage.PLAY
