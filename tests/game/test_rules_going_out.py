"""Going out (issue 12 point 8): who can be out of cards, and a last card that was cheated down to.

RULES.md "Cheating": never the last card in your hand; "End of a round": the round ends the
moment one player has no cards left. So a hand empties only through a play, a laid card or a
gift, and when it empties through a play the card's action does not happen, even when earlier
cheating kept the official count above 0 and only the table can say "that was my last card".
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from rules_helpers import above, card, events, play, run, started

from game.codec import dumps, loads, to_dict
from game.engine import (
    Accuse, DecideRace, DeclareOut, DrawCard, GameState, GiveCard, Phase, PlayCard, StartRound,
    Undo, Verdict, apply, legal_commands,
)
from game.engine.events import CardPlayed, RoundEnded
from game.errors import CardDoesNotFit, IllegalCommand

NOT_YET = (r"^seat {seat} cannot be out of cards: they have not played, laid or given a card "
           r"since the deal and the last card can never be cheated away; a player goes out with "
           r"a play, a laid card or a gift$")


def refused_unchanged(state: GameState, command: object, match: str,
                      error: type[IllegalCommand] = IllegalCommand) -> None:
    snapshot = dataclasses.replace(state)
    with pytest.raises(error, match=match):
        apply(state, command)  # type: ignore[arg-type]
    assert state == snapshot and state.previous is snapshot.previous


# --- (a) only a player who played, laid or gave a card can be out ------------------------------


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_player_who_has_done_nothing_since_the_deal_cannot_declare_out(seat: int) -> None:
    refused_unchanged(started(), DeclareOut(seat), NOT_YET.format(seat=seat))


def test_a_player_who_played_a_card_may_declare_out() -> None:
    state = play(play(started(), "number 4"), "number 5")  # seat 1 played (and cheated the rest)
    assert run(state, DeclareOut(1)).out == (1,)
    refused_unchanged(state, DeclareOut(2), NOT_YET.format(seat=2))


def test_a_drawn_card_is_no_way_out() -> None:
    state = run(play(started(), "number 4"), DrawCard(1))
    refused_unchanged(state, DeclareOut(1), NOT_YET.format(seat=1))


def test_a_spiders_giver_may_declare_out_but_not_its_recipient() -> None:
    state = run(play(play(started(), "number 4"), "spider 5"), GiveCard(1, 3))
    assert run(state, DeclareOut(1)).out == (1,)
    refused_unchanged(state, DeclareOut(3), NOT_YET.format(seat=3))


def test_the_cockroach_winner_who_laid_a_card_may_declare_out() -> None:
    state = run(play(started(), "cockroach 4"), DecideRace((2,), winner=2, card=card("number 4")))
    assert run(state, DeclareOut(2)).out == (2,)
    refused_unchanged(state, DeclareOut(3), NOT_YET.format(seat=3))


def test_after_a_slap_the_givers_may_declare_out_but_not_the_slowest() -> None:
    state = run(play(started(), "mosquito 4"), DecideRace((1, 2, 3), loser=3))
    assert run(state, DeclareOut(2)).out == (2,)
    refused_unchanged(state, DeclareOut(3), NOT_YET.format(seat=3))


def test_after_caught_the_old_guard_who_gave_a_card_may_declare_out_but_not_the_new_guard() -> None:
    state = run(started(), Accuse(0, 2), Verdict(True))
    assert run(state, DeclareOut(0)).out == (0,)
    refused_unchanged(state, DeclareOut(2), NOT_YET.format(seat=2))


def test_cards_shed_in_one_round_do_not_count_in_the_next() -> None:
    state = play(play(started(), "number 4"), "number 5")
    state = run(state, DeclareOut(1))
    for seat in (0, 2, 3):
        state = run(state, *[c for c in legal_commands(state) if getattr(c, "player", None) == seat][:1])
    assert state.phase is Phase.ROUND_SETUP
    state = run(state, StartRound(card("number 3")))
    assert state.shed == (False, False, False, False)
    refused_unchanged(state, DeclareOut(0), NOT_YET.format(seat=0))  # played in round 1


def test_undoing_the_only_play_makes_declaring_out_illegal_again() -> None:
    before = play(started(), "number 4")
    after = run(before, PlayCard(1, card("number 5")))
    assert after.shed[1]
    undone = run(after, Undo())
    assert not undone.shed[1]
    refused_unchanged(undone, DeclareOut(1), NOT_YET.format(seat=1))


# --- (b) "that was my last card": the play ends the round, its action does not happen ----------


def cheated_down(kind: str) -> tuple[GameState, PlayCard]:
    """Seat 1 (officially 8 cards, really one: 7 cheated away) to play its last card ``kind``."""
    state = play(started(), "number 4")
    return state, PlayCard(1, card(f"{kind} {above(4)}"), last_card=True)


@pytest.mark.parametrize("kind", ["number", "ant", "spider", "cockroach", "mosquito"])
def test_a_last_card_ends_the_round_at_once_and_its_action_does_not_happen(kind: str) -> None:
    state, last = cheated_down(kind)
    after, evs = apply(state, last)
    assert evs == (CardPlayed(1, last.card), RoundEnded(1, (1,)))
    assert after.phase is Phase.PENALTY_ENTRY and after.out == (1,)
    assert after.race is None and after.gift_from is None
    assert after.hands == (7, 7, 8, 8)            # nobody drew: the ant's draws did not happen
    assert after.draw_pile == state.draw_pile
    assert after.discard_top == last.card


def test_without_the_table_saying_so_the_ant_makes_everyone_else_draw() -> None:
    state, last = cheated_down("ant")
    after = run(state, dataclasses.replace(last, last_card=False))
    assert after.phase is Phase.TURN and after.hands == (8, 7, 9, 9)


def test_a_last_card_must_still_fit_the_discard_pile() -> None:
    state, _ = cheated_down("ant")
    refused_unchanged(state, PlayCard(1, card("ant 1"), last_card=True),
                      r"^cannot play ant 1 on a 4: play a 5 or a 3, or draw$", CardDoesNotFit)


def test_a_last_card_follows_the_moth_rule() -> None:
    state, _ = cheated_down("ant")
    refused_unchanged(state, PlayCard(1, card("moth 5"), last_card=True),
                      r"^seat 1 cannot lay moth 5: only the guard \(seat 0\) may play Cheating Moths")


def test_the_guard_who_held_the_guard_bug_all_round_cannot_call_a_card_their_last() -> None:
    refused_unchanged(started(), PlayCard(0, card("ant 4"), last_card=True),
                      r"^ant 4 cannot be the last card of seat 0: they are the guard, cannot cheat and "
                      r"would still hold 7 cards, so play it as a normal card$")


def test_a_guard_who_received_the_guard_bug_may_play_a_last_card() -> None:
    state = run(started(), Accuse(0, 2), Verdict(True))  # seat 2 is the guard now; seat 0 to play
    state = run(state, PlayCard(0, card("number 4")))
    after = run(state, PlayCard(1, card("number 5")), PlayCard(2, card("ant 4"), last_card=True))
    assert after.out == (2,)


def test_a_last_card_flag_that_is_not_true_or_false_is_refused() -> None:
    state, last = cheated_down("ant")
    refused_unchanged(state, dataclasses.replace(last, last_card="yes"),
                      r"^last_card 'yes' is not valid: say true \(it was the player's last card\) or false$")


def test_a_last_card_at_an_official_count_of_one_ends_the_round_as_before() -> None:
    state = play(started(), "number 4")
    state = dataclasses.replace(state, hands=(7, 1, 8, 8))
    for flag in (False, True):
        after, evs = apply(state, PlayCard(1, card("ant 5"), last_card=flag))
        assert evs == (CardPlayed(1, card("ant 5")), RoundEnded(1, (1,)))


def test_undo_of_a_last_card_resumes_the_turn() -> None:
    state, last = cheated_down("mosquito")
    undone = run(state, last, Undo())
    assert undone == state and undone.phase is Phase.TURN


def test_legal_commands_list_the_last_card_plays_of_a_non_guard() -> None:
    state, last = cheated_down("ant")
    listed = legal_commands(state)
    assert last in listed and dataclasses.replace(last, last_card=False) in listed
    assert all(not c.last_card for c in legal_commands(started()) if isinstance(c, PlayCard))


# --- the table log: the field is new, so old logs must still read --------------------------------


def test_a_play_written_before_last_card_existed_reads_as_a_normal_play() -> None:
    old = '{"type":"PlayCard","player":1,"card":"ant 5"}'
    assert loads(old) == PlayCard(1, card("ant 5"), last_card=False)
    assert dumps(loads(old)) == old  # and writes back byte for byte


def test_a_last_card_play_round_trips_through_the_codec() -> None:
    last = PlayCard(1, card("ant 5"), last_card=True)
    assert json.loads(dumps(last)) == {"type": "PlayCard", "player": 1, "card": "ant 5", "last_card": True}
    assert loads(dumps(last)) == last
    assert "last_card" not in to_dict(PlayCard(1, card("ant 5")))


def test_a_last_card_flag_of_the_wrong_type_in_a_log_is_refused() -> None:
    from game.errors import BadRecord

    with pytest.raises(BadRecord, match=r"^PlayCard.last_card is 1: expected true or false$"):
        loads('{"type":"PlayCard","player":1,"card":"ant 5","last_card":1}')


def test_other_records_still_need_every_field() -> None:
    from game.errors import BadRecord

    with pytest.raises(BadRecord, match=r"^PlayCard is missing field 'card'$"):
        loads('{"type":"PlayCard","player":1}')
    assert events(started(), PlayCard(0, card("number 4")))[0] == CardPlayed(0, card("number 4"))
