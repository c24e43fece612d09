"""Every command and event survives one JSON line and back, exactly; bad lines say what is wrong."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cards import Card, Kind
from game.codec import dumps, from_dict, loads, to_dict
from game.deck import deck_from_mapping
from game.engine import COMMAND_TYPES, EVENT_TYPES, PlayCard, Undo
from game.engine.events import Undone
from game.errors import BadConfig, BadDeck, BadRecord
from game.sim import simulate_game
from game.variants import CockroachCard, GuardNextRound, Rules, TopTie

cards = st.builds(Card, st.sampled_from(Kind), st.integers(1, 5))
st.register_type_strategy(Card, cards)
st.register_type_strategy(Rules, st.builds(
    Rules, guard_next_round=st.sampled_from(GuardNextRound), top_tie=st.sampled_from(TopTie),
    cockroach_card=st.sampled_from(CockroachCard)))


@pytest.mark.parametrize("cls", COMMAND_TYPES + EVENT_TYPES, ids=lambda c: c.__name__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_record_type_round_trips(cls: type, data: st.DataObject) -> None:
    record = data.draw(st.from_type(cls))
    line = dumps(record)
    assert "\n" not in line
    assert loads(line) == record
    assert json.loads(line)["type"] == cls.__name__


def test_records_of_simulated_games_round_trip() -> None:
    for seed in range(10):
        for record in simulate_game(5, seed, keep_log=True).log:
            assert loads(dumps(record)) == record


def test_a_house_deck_round_trips_inside_new_game() -> None:
    spread = {"number": [10, 8, 9, 8, 9], "moth": [2, 1, 2, 1, 1], "ant": [1] * 5,
              "spider": [1] * 5, "cockroach": [1] * 5, "mosquito": [1] * 5}
    totals = {"number": 44, "moth": 7}
    rules = Rules(deck=deck_from_mapping(spread, totals))
    from game.engine import NewGame

    assert loads(dumps(NewGame(4, 2, rules))) == NewGame(4, 2, rules)


def test_cards_are_written_as_kind_and_number() -> None:
    assert to_dict(PlayCard(2, Card(Kind.MOSQUITO, 3))) == {"type": "PlayCard", "player": 2, "card": "mosquito 3"}
    assert to_dict(Undone(Undo())) == {"type": "Undone", "command": {"type": "Undo"}}


@pytest.mark.parametrize(("line", "match"), [
    ("{not json", r"not valid JSON"),
    ("[1, 2]", r"record \[1, 2\] is not a JSON object"),
    ('{"type": "Teleport"}', r"record type 'Teleport' is unknown"),
    ('{"player": 1}', r"record type None is unknown"),
    ('{"type": "DrawCard"}', r"DrawCard is missing field 'player'"),
    ('{"type": "DrawCard", "player": 1, "cards": 2}', r"DrawCard has unknown field 'cards'"),
    ('{"type": "DrawCard", "player": "1"}', r"DrawCard.player is '1': expected a whole number"),
    ('{"type": "DrawCard", "player": true}', r"DrawCard.player is True: expected a whole number"),
    ('{"type": "DrawCard", "player": 1.0}', r"DrawCard.player is 1.0: expected a whole number"),
    ('{"type": "Verdict", "guilty": 1}', r"Verdict.guilty is 1: expected true or false"),
    ('{"type": "PlayCard", "player": 1, "card": "beetle 3"}', r"unknown card kind 'beetle'"),
    ('{"type": "PlayCard", "player": 1, "card": "ant 7"}', r"card number 7 is not valid"),
    ('{"type": "PlayCard", "player": 1, "card": 13}', r"PlayCard.card is 13: expected a card"),
    ('{"type": "DecideRace", "ranking": 3, "winner": null, "loser": 1, "card": null, "tied": [],'
     ' "false_starts": []}', r"DecideRace.ranking is 3: expected a list"),
    ('{"type": "RaceArmed", "kind": "sprint", "actor": 0, "eligible": [1], "number": 2}',
     r"RaceArmed.kind is 'sprint': expected one of 'slap', 'cockroach'"),
    ('{"type": "Undone", "command": {"type": "CardDrawn", "player": 1}}',
     r"Undone.command is .*: expected a command record"),
    ('{"type": "NewGame", "players": 4, "oldest": 0, "rules": {"variants": {}}}',
     r"NewGame.rules is .*: expected an object with 'variants' and 'deck'"),
])
def test_bad_lines_are_refused_with_the_reason(line: str, match: str) -> None:
    with pytest.raises(BadRecord, match=match):
        loads(line)


def test_a_bad_variant_or_deck_in_a_logged_game_is_refused() -> None:
    good = to_dict(__import__("game.engine", fromlist=["NewGame"]).NewGame(3, 0))
    bad_variant = json.loads(json.dumps(good))
    bad_variant["rules"]["variants"]["top-tie"] = "coin-flip"
    with pytest.raises(BadConfig, match=r"top-tie is 'coin-flip': use one of 'shared-win', 'fewest-moths'"):
        from_dict(bad_variant)
    bad_deck = json.loads(json.dumps(good))
    bad_deck["rules"]["deck"]["moth"] = [2, 2, 2, 2]
    with pytest.raises(BadDeck, match=r"spread.moth is \[2, 2, 2, 2\]: give exactly five counts"):
        from_dict(bad_deck)
