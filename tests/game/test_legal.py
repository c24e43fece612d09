"""``legal_commands`` against ``apply``: what it lists is accepted, what it leaves out is refused,
and a refused command leaves the state as it was (RULES.md for what is legal; phases.ALLOWED)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import pytest
from rules_helpers import card, may_go_out, new_game, play, play_round, run, started

from game.cards import Card, Kind
from game.engine import (
    ALLOWED, COMMAND_TYPES, Accuse, CancelDispute, CancelRace, CorrectHand, DecideRace, DeclareOut, DrawCard,
    EnterPenalty, GameState, GiveCard, NewGame, Phase, PlayCard, StartRound, Undo, Verdict, apply,
    can_apply, check, legal_commands,
)
from game.errors import IllegalCommand, WrongPhase
from game.race import RaceKind
from game.variants import CockroachRacers, Rules


def _game_over() -> GameState:
    state = play_round(new_game(3), out=1, penalties={0: (0, 0, 8), 2: (0, 0, 1)})
    state = play_round(state, out=2, penalties={0: (0, 0, 1), 1: (0, 0, 8)})
    return play_round(state, out=0, penalties={1: (0, 0, 1), 2: (0, 0, 8)})


#: One or more chosen states per phase (seat 0 is the guard unless caught).
SAMPLES: dict[str, GameState] = {
    "idle": GameState(),
    "round-setup": new_game(),
    "turn-guard": started(),
    "turn-other": play(started(), "number 4"),
    "turn-after-caught": run(started(), Accuse(0, 2), Verdict(True)),
    "spider-gift": play(started(), "spider 4"),
    "race-slap": play(started(), "mosquito 4"),
    "race-cockroach": play(started(), "cockroach 4"),
    "race-cockroach-others": play(started(rules=Rules(cockroach_racers=CockroachRacers.OTHERS)), "cockroach 4"),
    "dispute": run(started(), Accuse(0, 2)),
    "dispute-in-gift": run(play(started(), "spider 4"), Accuse(0, 2)),
    "penalty-entry": run(may_go_out(started(), 1), DeclareOut(1)),
    "penalty-entry-partial": run(may_go_out(started(), 1), DeclareOut(1), EnterPenalty(2, 3, 0, 0)),
    "game-over": _game_over(),
}

#: One command of every type, for the phases that do not allow that type.
ONE_OF_EACH: dict[type[Any], Any] = {
    NewGame: NewGame(4, 0),
    StartRound: StartRound(card("number 3")),
    PlayCard: PlayCard(0, card("number 4")),
    DrawCard: DrawCard(0),
    GiveCard: GiveCard(0, 1),
    DecideRace: DecideRace((1, 2, 3), loser=3),
    CancelRace: CancelRace(),
    Accuse: Accuse(0, 1),
    Verdict: Verdict(True),
    CancelDispute: CancelDispute(),
    DeclareOut: DeclareOut(1),
    EnterPenalty: EnterPenalty(2, 0, 0, 1),
    CorrectHand: CorrectHand(2, 9),
    Undo: Undo(),
}


def assert_refused_and_unchanged(state: GameState, command: Any) -> IllegalCommand:
    snapshot = dataclasses.replace(state)
    assert command not in legal_commands(state)
    assert can_apply(state, command) is False
    with pytest.raises(IllegalCommand) as caught:
        apply(state, command)
    assert state == snapshot
    assert state.previous is snapshot.previous and state.command == snapshot.command
    return caught.value


def test_every_command_type_has_a_sample() -> None:
    assert set(ONE_OF_EACH) == set(COMMAND_TYPES)


def test_every_phase_has_a_sample() -> None:
    assert {s.phase for s in SAMPLES.values()} == set(Phase)


@pytest.mark.parametrize("name", SAMPLES)
def test_every_listed_command_is_accepted(name: str) -> None:
    state = SAMPLES[name]
    listed = legal_commands(state)
    assert listed
    for command in listed:
        assert can_apply(state, command), command
        check(state, command)  # raises if refused
        apply(state, command)


@pytest.mark.parametrize("name", SAMPLES)
def test_every_command_type_the_phase_does_not_allow_is_refused(name: str) -> None:
    state = SAMPLES[name]
    for kind, command in ONE_OF_EACH.items():
        if kind in ALLOWED[state.phase]:
            continue
        error = assert_refused_and_unchanged(state, command)
        assert isinstance(error, WrongPhase)
        assert f"{kind.__name__} is not allowed in phase {state.phase.value!r}" in str(error)


@pytest.mark.parametrize("name", SAMPLES)
def test_every_listed_command_is_of_a_type_the_phase_allows(name: str) -> None:
    state = SAMPLES[name]
    assert {type(c) for c in legal_commands(state)} <= set(ALLOWED[state.phase])


@pytest.mark.parametrize("name", SAMPLES)
def test_undo_is_listed_exactly_when_there_is_a_command_to_take_back(name: str) -> None:
    state = SAMPLES[name]
    assert (Undo() in legal_commands(state)) is (state.previous is not None)


def test_undo_is_refused_with_no_history() -> None:
    assert_refused_and_unchanged(GameState(), Undo())


# --- what each phase lists, derived from RULES.md ---------------------------------------------


def test_a_new_game_is_listed_for_3_to_5_players_and_each_oldest() -> None:
    assert set(legal_commands(GameState())) == {NewGame(n, o) for n in (3, 4, 5) for o in range(n)}


def test_round_setup_lists_every_card_of_the_deck_as_a_starter() -> None:
    expected = {StartRound(Card(kind, n)) for kind in Kind for n in range(1, 6)}
    assert set(legal_commands(new_game())) == expected | {Undo()}


def _plays(seat: int, numbers: tuple[int, ...], kinds: Sequence[Kind],
           last: tuple[bool, ...] = (False, True)) -> set[Any]:
    return {PlayCard(seat, Card(kind, n), lc) for kind in kinds for n in numbers for lc in last}


_NOT_MOTHS = [k for k in Kind if k is not Kind.MOTH]


def test_a_turn_lists_fitting_plays_also_as_a_last_card_a_draw_and_caught_for_a_non_guard() -> None:
    state = SAMPLES["turn-other"]  # seat 1 to play on a 4; seat 0 is the guard
    # Nobody is listed as out: only seat 0 has played, and it is the guard holding 7 cards.
    expected = (_plays(1, (3, 5), _NOT_MOTHS) | {DrawCard(1)} | {Accuse(0, p) for p in (1, 2, 3)}
                | {Undo()})
    assert set(legal_commands(state)) == expected


def test_a_guards_turn_lists_moths_too_but_no_last_card_and_nobody_out() -> None:
    state = SAMPLES["turn-guard"]  # seat 0, the guard, to play on a 3; nobody has played yet
    expected = (_plays(0, (2, 4), list(Kind), last=(False,)) | {DrawCard(0)}
                | {Accuse(0, p) for p in (1, 2, 3)} | {Undo()})
    assert set(legal_commands(state)) == expected


def test_after_caught_the_old_guard_who_gave_a_card_may_declare_out() -> None:
    state = SAMPLES["turn-after-caught"]  # seat 0 gave seat 2 a card; nobody else shed one
    assert {c for c in legal_commands(state) if isinstance(c, DeclareOut)} == {DeclareOut(0)}


def test_a_player_who_played_a_card_is_listed_as_possibly_out() -> None:
    state = play(play(started(), "number 4"), "number 5")  # seats 0 (the guard) and 1 played
    assert {c for c in legal_commands(state) if isinstance(c, DeclareOut)} == {DeclareOut(1)}


def test_a_turn_does_not_list_a_card_whose_copies_are_all_on_the_pile() -> None:
    state = play(started(starter="ant 3"), "number 4")  # seat 1 on a 4; the only ant 3 is down
    assert PlayCard(1, card("ant 3")) not in legal_commands(state)
    assert PlayCard(1, card("ant 5")) in legal_commands(state)


def test_a_spider_gift_lists_a_card_to_each_other_seat_or_none() -> None:
    state = SAMPLES["spider-gift"]
    expected = ({GiveCard(0, p) for p in (1, 2, 3)} | {GiveCard(0, None)} | {Accuse(0, p) for p in (1, 2, 3)}
                | {Undo()})
    assert set(legal_commands(state)) == expected


def test_a_dispute_lists_the_two_verdicts_and_a_cancel() -> None:
    assert set(legal_commands(SAMPLES["dispute"])) == {Verdict(True), Verdict(False), CancelDispute(), Undo()}


def test_a_slap_lists_one_decision_per_possible_loser() -> None:
    listed = legal_commands(SAMPLES["race-slap"])
    assert sorted(c.loser for c in listed if isinstance(c, DecideRace) and c.loser is not None) == [1, 2, 3]
    assert {type(c) for c in listed} == {DecideRace, CancelRace, Undo}


def test_a_cockroach_race_lists_no_match_and_each_racer_with_each_card_left() -> None:
    listed = legal_commands(SAMPLES["race-cockroach"])  # cockroach 4 is down; seat 0 is the guard
    laid = {(c.winner, c.card) for c in listed if isinstance(c, DecideRace) and c.winner is not None}
    kinds = [Kind.NUMBER, Kind.ANT, Kind.SPIDER, Kind.MOSQUITO]
    expected = {(w, Card(k, 4)) for w in range(4) for k in kinds} | {(0, Card(Kind.MOTH, 4))}
    assert laid == expected
    assert any(isinstance(c, DecideRace) and c.winner is None and c.card is None for c in listed)


def test_under_others_the_cockroach_player_is_not_listed_as_a_winner() -> None:
    listed = legal_commands(SAMPLES["race-cockroach-others"])
    assert {c.winner for c in listed if isinstance(c, DecideRace)} == {None, 1, 2, 3}


def test_penalty_entry_lists_only_entries_the_counts_and_deck_allow() -> None:
    state = SAMPLES["penalty-entry-partial"]  # seat 2 entered 3 moths; seat 0 is the guard all round
    listed = [c for c in legal_commands(state) if isinstance(c, EnterPenalty)]
    assert {c.player for c in listed} == {0, 2, 3}
    assert all(c.moths + c.actions + c.numbers == 8 for c in listed if c.player == 0)
    assert all(c.moths + c.actions + c.numbers <= 8 for c in listed)
    assert max(c.moths for c in listed if c.player == 3) == 5  # 8 moths, 3 entered for seat 2
    assert EnterPenalty(2, 8, 0, 0) in listed  # a correction of seat 2's own entry


def test_a_new_game_is_listed_after_game_over() -> None:
    state = SAMPLES["game-over"]
    assert set(legal_commands(state)) == {NewGame(n, o) for n in (3, 4, 5) for o in range(n)} | {Undo()}


# --- a sample of refused commands within allowed types ----------------------------------------

REFUSED: list[tuple[str, Any]] = [
    ("idle", NewGame(2, 0)),
    ("idle", NewGame(4, 4)),
    ("round-setup", StartRound("number 3")),  # type: ignore[arg-type]
    ("turn-guard", PlayCard(1, card("number 4"))),
    ("turn-guard", PlayCard(0, card("number 3"))),
    ("turn-guard", PlayCard(0, card("number 1"))),
    ("turn-other", PlayCard(1, card("moth 5"))),
    ("turn-guard", DrawCard(2)),
    ("turn-guard", Accuse(1, 2)),
    ("turn-guard", Accuse(0, 0)),
    ("turn-guard", DeclareOut(0)),
    ("turn-guard", DeclareOut(4)),
    ("turn-guard", PlayCard(0, card("number 4"), last_card=True)),
    ("turn-other", DeclareOut(2)),
    ("spider-gift", DeclareOut(1)),
    ("spider-gift", GiveCard(1, 2)),
    ("spider-gift", GiveCard(0, 0)),
    ("spider-gift", GiveCard(0, 4)),
    ("race-slap", DecideRace((1, 2, 3), loser=2)),
    ("race-slap", DecideRace((1, 2, 3), loser=0)),
    ("race-slap", DecideRace((1, 2, 3))),
    ("race-cockroach", DecideRace((1,), winner=1, card=card("number 5"))),
    ("race-cockroach", DecideRace((1,), winner=1, card=card("moth 4"))),
    ("race-cockroach", DecideRace((1,), winner=2, card=card("number 4"))),
    ("race-cockroach-others", DecideRace((0,), winner=0, card=card("number 4"))),
    ("dispute", Verdict("guilty")),  # type: ignore[arg-type]
    ("penalty-entry", EnterPenalty(1, 0, 0, 0)),
    ("penalty-entry", EnterPenalty(2, 0, 0, 9)),
    ("penalty-entry", EnterPenalty(0, 0, 0, 7)),
    ("penalty-entry", EnterPenalty(2, -1, 0, 0)),
    ("penalty-entry-partial", EnterPenalty(3, 6, 0, 0)),
    ("game-over", NewGame(6, 0)),
]


@pytest.mark.parametrize(("name", "command"), REFUSED, ids=[f"{n}-{type(c).__name__}" for n, c in REFUSED])
def test_an_unlisted_command_is_refused_and_leaves_the_state_unchanged(name: str, command: Any) -> None:
    assert_refused_and_unchanged(SAMPLES[name], command)


@pytest.mark.parametrize(("name", "command"), REFUSED, ids=[f"{n}-{type(c).__name__}" for n, c in REFUSED])
def test_check_raises_what_apply_raises(name: str, command: Any) -> None:
    state = SAMPLES[name]
    with pytest.raises(IllegalCommand) as from_apply:
        apply(state, command)
    with pytest.raises(type(from_apply.value), match=f"^{re.escape(str(from_apply.value))}$"):
        check(state, command)


def test_the_race_kinds_of_the_samples_are_as_named() -> None:
    assert SAMPLES["race-slap"].race is not None and SAMPLES["race-slap"].race.kind is RaceKind.SLAP
    race = SAMPLES["race-cockroach"].race
    assert race is not None and race.kind is RaceKind.COCKROACH
