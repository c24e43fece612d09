"""Issue 13 point 9.4: a penalty row counting more cards than the official count (the group forgot
to tell the rig about a draw) is no longer refused forever: ``CorrectHand`` raises the count,
taking the cards off the draw pile as the forgotten draws did; undo takes it back; the log
round-trips it. The controller names the player in every penalty refusal and offers the fix."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from rules_helpers import card, given, may_go_out, run, started
from table_helpers import Rig

from game.codec import dumps, loads
from game.controller import Notice, Stage, Step, new_table, step
from game.controller import inputs as console
from game.controller.context import named
from game.engine import CorrectHand, DeclareOut, EnterPenalty, GameState, Phase, Undo, apply
from game.engine.events import DiscardReshuffled, HandCorrected, Undone
from game.errors import IllegalCommand
from game.i18n import LANGUAGES
from game.i18n.events import event_text
from game.i18n.lookup import render


def _round_over() -> GameState:
    """4 players, seat 1 declared out (having cheated), every count 8; seat 0 guards all round."""
    return run(may_go_out(started(), 1), DeclareOut(1))


def test_a_correction_raises_the_count_and_takes_the_cards_off_the_draw_pile() -> None:
    state = _round_over()
    after, events = apply(state, CorrectHand(2, 10))
    assert after.hands == (8, 8, 10, 8) and after.draw_pile == state.draw_pile - 2
    assert events == (HandCorrected(2, 8, 10),)
    assert after.phase is Phase.PENALTY_ENTRY
    # The row the count refused is accepted now.
    with pytest.raises(IllegalCommand, match=r"seat 2 cannot hold 10 cards: officially they hold 8"):
        apply(state, EnterPenalty(2, 0, 1, 9))
    apply(after, EnterPenalty(2, 0, 1, 9))


def test_forgotten_draws_past_an_empty_draw_pile_went_through_a_reshuffle() -> None:
    pile = tuple(card(t) for t in ("number 3", "number 4", "number 5", "number 1"))
    state = given(_round_over(), draw_pile=1, discard=pile)
    after, events = apply(state, CorrectHand(3, 11))
    # 1 from the draw pile, then the discard pile but its top (3 cards) became the draw pile.
    assert events == (DiscardReshuffled(3), HandCorrected(3, 8, 11))
    assert after.draw_pile == 1 and after.discard == (card("number 1"),)
    assert sum(after.hands) + after.draw_pile + len(after.discard) == sum(state.hands) + 1 + 4


@pytest.mark.parametrize(("command", "message"), [
    (CorrectHand(2, 8), r"cannot correct seat 2's count to 8: a correction adds draws the rig was not "
                        r"told about, so enter 9 to \d+ \(officially they hold 8; fewer cards are "
                        r"explained by cheating\)"),
    (CorrectHand(2, 3), r"count to 3: .* enter 9 to"),
    (CorrectHand(2, 99), r"cannot correct seat 2's count to 99: .* enter 9 to \d+"),
    (CorrectHand(2, "9"), r"cannot correct seat 2's count to '9'"),
    (CorrectHand(1, 9), r"seat 1 went out this round: an empty hand has no count to correct"),
    (CorrectHand(7, 9), r"player 7 is not a seat at this table: use 0 to 3"),
])
def test_a_correction_that_cannot_be_true_is_refused_and_changes_nothing(command: CorrectHand, message: str) -> None:
    state = _round_over()
    snapshot = dataclasses.replace(state)
    with pytest.raises(IllegalCommand, match=message):
        apply(state, command)
    assert state == snapshot


def test_a_correction_after_the_row_is_entered_asks_for_undo_first() -> None:
    state = run(_round_over(), EnterPenalty(2, 0, 0, 5))
    with pytest.raises(IllegalCommand, match=r"seat 2's penalty row is already entered: undo it before"):
        apply(state, CorrectHand(2, 9))


def test_the_most_a_count_can_grow_is_the_draw_pile_and_the_reshuffle() -> None:
    state = given(_round_over(), draw_pile=2, discard=(card("number 3"), card("number 4")))
    apply(state, CorrectHand(2, 11))                      # 2 + (2 - 1)
    with pytest.raises(IllegalCommand, match=r"enter 9 to 11 "):
        apply(state, CorrectHand(2, 12))


def test_a_correction_is_only_for_round_end() -> None:
    with pytest.raises(IllegalCommand, match=r"CorrectHand is not allowed in phase 'turn'"):
        apply(started(), CorrectHand(1, 9))


def test_undo_takes_a_correction_back() -> None:
    state = _round_over()
    after = run(state, CorrectHand(2, 9))
    back, events = apply(after, Undo())
    assert back == state and events == (Undone(CorrectHand(2, 9)),)


def test_the_command_and_its_event_round_trip_through_the_codec() -> None:
    for record in (CorrectHand(2, 10), HandCorrected(2, 8, 10), Undone(CorrectHand(2, 10))):
        assert loads(dumps(record)) == record
    assert dumps(CorrectHand(2, 10)) == '{"type":"CorrectHand","player":2,"cards":10}'


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_correction_is_told_in_every_language(lang: str) -> None:
    names = ("Ali", "Bea", "Cem", "Dan")
    said = event_text(HandCorrected(2, 8, 10), lambda p: names[p], lang)
    assert said and "Cem" in said and "8" in said and "10" in said and "{" not in said
    undone = event_text(Undone(CorrectHand(2, 10)), lambda p: names[p], lang)
    assert undone and "Cem" in undone and "CorrectHand" not in undone


# --- the controller: named refusals and the offer -----------------------------------------------

def _rig_at_round_end() -> Rig:
    """Ali (guard all round), Bea, Cem; Bea went out; Ali and Cem hold 7 and 8 officially."""
    rig = Rig()
    rig.seat(0, 1, 2, oldest=0)
    rig.starter("number 3")
    rig.play("number 4")                                     # Ali
    rig.play("number 5")                                     # Bea
    rig.tap_console(console.Out, 1)
    assert rig.table.stage is Stage.PENALTY and rig.table.game.hands == (7, 7, 8)
    return rig


def _said(rig: Rig, *event: object) -> list[str]:
    """Feed one input; the notices it made, in English."""
    made = rig.tap_console(*event)  # type: ignore[arg-type]
    return [e.message.render() for e in made.effects if isinstance(e, Notice)]


def test_a_row_over_the_count_names_the_player_and_offers_the_correction() -> None:
    rig = _rig_at_round_end()
    said = _said(rig, console.Penalty, 2, 0, 1, 8)           # Cem: 9 cards, officially 8
    assert rig.table.game.entries[2] is None
    assert said == ["Cem officially holds 8 cards, not 9: if Cem drew a card the rig was not "
                    "told about, correct the count; otherwise check the row."]
    assert rig.table.correction == (2, 9)
    assert _said(rig, console.CorrectCount, 2, 9) == ["Cem's count is now 9 cards: 1 draw the rig was not told about."]
    assert rig.table.game.hands[2] == 9 and rig.table.correction is None
    assert rig.commands[-1] == CorrectHand(2, 9)
    rig.tap_console(console.Penalty, 2, 0, 1, 8)
    assert rig.table.game.entries[2] is not None


def test_the_offer_lasts_only_until_the_next_console_input() -> None:
    rig = _rig_at_round_end()
    rig.tap_console(console.Penalty, 2, 0, 1, 8)
    rig.tick(100)                                            # time passing keeps it
    assert rig.table.correction == (2, 9)
    rig.tap_console(console.Penalty, 2, 0, 1, 7)             # the row fixed instead
    assert rig.table.correction is None and rig.table.game.entries[2] is not None


def test_a_row_no_correction_can_make_true_is_refused_by_name() -> None:
    rig = _rig_at_round_end()
    rig.tap_console(console.Penalty, 2, 0, 0, 8)             # Cem: 8 number cards
    # Ali: 9 moths, more than the deck's 8, so no correction of his count can make the row true.
    assert _said(rig, console.Penalty, 0, 9, 0, 0) == [
        "Ali cannot hold 9 cards: officially Ali holds 7, and cheating only makes a hand smaller. "
        "Check the row."]
    assert rig.table.correction is None
    rig.tap_console(console.UndoLast)                        # Cem's row again: 8 moths
    rig.tap_console(console.Penalty, 2, 8, 0, 0)
    assert _said(rig, console.Penalty, 0, 1, 0, 6) == [
        "Ali cannot hold 1 moth: the deck has 8, 0 on the discard pile and 8 entered for other "
        "players, so 0 at most."]


def test_the_guard_all_round_is_named_when_the_row_is_short() -> None:
    rig = _rig_at_round_end()
    said = _said(rig, console.Penalty, 0, 0, 0, 5)
    assert said == ["Ali held the Guard Bug all round and cannot have cheated: enter exactly "
                    "7 cards, not 5."]


def test_every_refusal_the_engine_words_names_players_not_seats() -> None:
    rig = _rig_at_round_end()
    t = rig.table
    assert named("seat 2 cannot give the spider's card: seat 0 played the spider", t) == (
        "Cem cannot give the spider's card: Ali played the spider")
    assert named("give it to one of seats 0, 1 or 2", t) == "give it to one of Ali, Bea or Cem"
    assert named("seat 7 is not at this table", t) == "seat 7 is not at this table"
    assert named("use 0 to 2", t) == "use 0 to 2"
    said = _said(rig, console.Out, 2)                        # not at round end: ignored, no seat
    assert said and not any("seat 2" in s for s in said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_penalty_notices_render_in_every_language(lang: str) -> None:
    rig = _rig_at_round_end()
    made = rig.tap_console(console.Penalty, 2, 0, 1, 8)
    said = render(next(e.message for e in made.effects if isinstance(e, Notice)), lang)
    assert "Cem" in said and "9" in said and "8" in said and "{" not in said and "seat" not in said


def test_the_correction_is_a_logged_input_the_table_log_replays(tmp_path: Path) -> None:
    from game.app.tablelog import TableLog
    from game.controller.resume import resume

    inputs: list[object] = []

    class Recorded(Rig):
        def feed(self, event: object) -> Step:
            inputs.append(event)
            return super().feed(event)

    rig = Recorded()
    t0 = rig.table.now_t_ns
    rig.seat(0, 1, 2, oldest=0)
    rig.starter("number 3")
    rig.play("number 4")
    rig.play("number 5")
    rig.tap_console(console.Out, 1)
    rig.tap_console(console.Penalty, 2, 0, 1, 8)
    rig.tap_console(console.CorrectCount, 2, 9)
    # The same inputs through the SQLite table log, as the app writes it, then a resume.
    log = TableLog.open(tmp_path / "table.db", rig.settings, rig.seed, t0)
    table = new_table(rig.settings, rig.seed, t0)
    for event in inputs:
        made = step(table, event)  # type: ignore[arg-type]
        log.append(event, made)  # type: ignore[arg-type]
        table = made.table
    log.close()
    again = TableLog.open(tmp_path / "table.db", rig.settings, rig.seed, t0)
    assert [s.input for s in again.steps] == inputs
    resumed = resume(again.settings, again.seed, again.t0_ns, again.steps)
    again.close()
    assert resumed.game.hands == (7, 7, 9) and resumed.game == rig.table.game
