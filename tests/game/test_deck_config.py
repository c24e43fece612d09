"""The deck spread, the variants and the config file (RULES.md "Components", "Variants")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from game.bounded import label
from game.cards import Card, Kind
from game.config import load_rules, rules_from_config, rules_from_toml
from game.deck import DEFAULT_DECK, PRINTED_TOTALS, deck_from_mapping, load_default_deck
from game.errors import BadConfig, BadDeck, GameError
from game.variants import (
    CockroachCard, CockroachRacers, DrawWhenPlayable, GuardNextRound, Rules, TopTie, rules_from_mapping,
)

KINDS = "number, moth, ant, spider, cockroach, mosquito"


def default_spread(**changes: Any) -> dict[str, Any]:
    spread: dict[str, Any] = DEFAULT_DECK.to_dict()
    spread.update(changes)
    return spread


# --- the default deck -------------------------------------------------------------------------


def test_the_default_deck_has_71_cards() -> None:
    assert DEFAULT_DECK.size == 71 == 43 + 8 + 5 * 4
    assert len(DEFAULT_DECK.cards()) == 71


@pytest.mark.parametrize(("kind", "total"), [
    (Kind.NUMBER, 43), (Kind.MOTH, 8), (Kind.ANT, 5), (Kind.SPIDER, 5), (Kind.COCKROACH, 5), (Kind.MOSQUITO, 5),
])
def test_the_default_deck_has_the_printed_kind_totals(kind: Kind, total: int) -> None:
    assert DEFAULT_DECK.total(kind) == total
    assert PRINTED_TOTALS[kind] == total
    assert sum(1 for c in DEFAULT_DECK.cards() if c.kind is kind) == total


def test_the_default_deck_counts_by_class() -> None:
    assert (DEFAULT_DECK.numbers, DEFAULT_DECK.moths, DEFAULT_DECK.actions) == (43, 8, 20)


def test_every_card_carries_a_number_1_to_5() -> None:
    assert {c.number for c in DEFAULT_DECK.cards()} == {1, 2, 3, 4, 5}


def test_every_kind_has_every_number_in_the_default_deck() -> None:
    assert all(DEFAULT_DECK.count(kind, n) >= 1 for kind in Kind for n in range(1, 6))


def test_cards_lists_each_card_as_often_as_the_spread_says() -> None:
    cards = DEFAULT_DECK.cards()
    for kind in Kind:
        for n in range(1, 6):
            assert cards.count(Card(kind, n)) == DEFAULT_DECK.count(kind, n)


def test_the_default_deck_loads_from_the_package_data() -> None:
    assert load_default_deck() == DEFAULT_DECK


def test_a_deck_round_trips_through_its_dict() -> None:
    assert deck_from_mapping(DEFAULT_DECK.to_dict()) == DEFAULT_DECK


def test_a_cafe_deck_with_another_spread_and_the_printed_totals_is_accepted() -> None:
    deck = deck_from_mapping(default_spread(number=[10, 8, 8, 8, 9], moth=[0, 0, 8, 0, 0]))
    assert deck.size == 71
    assert deck.count(Kind.MOTH, 3) == 8
    assert deck.count(Kind.NUMBER, 1) == 10


def test_a_house_deck_with_its_own_totals_is_accepted() -> None:
    deck = deck_from_mapping(default_spread(moth=[2, 2, 2, 2, 2]), {"moth": 10})
    assert deck.size == 73
    assert deck.moths == 10


# --- every BadDeck message --------------------------------------------------------------------


def test_errors_are_game_errors_and_value_errors() -> None:
    assert issubclass(BadDeck, GameError) and issubclass(BadDeck, ValueError)
    assert issubclass(BadConfig, GameError) and issubclass(BadConfig, ValueError)


def test_a_spread_without_a_kind_is_refused() -> None:
    spread = default_spread()
    del spread["mosquito"]
    with pytest.raises(BadDeck, match=r"^deck\.spread has no entry for kind 'mosquito': list its counts for "
                                      r"the numbers 1-5, e\.g\. mosquito = \[1, 1, 1, 1, 1\]$"):
        deck_from_mapping(spread)


@pytest.mark.parametrize("counts", [[1, 1, 1, 1], [1, 1, 1, 1, 1, 0], 5, "1, 1, 1, 1, 1"])
def test_a_kind_without_exactly_five_counts_is_refused(counts: object) -> None:
    with pytest.raises(BadDeck, match=re.escape(f"deck.spread.ant is {counts!r}: "
                                                "give exactly five counts, one for each number 1-5")):
        deck_from_mapping(default_spread(ant=counts))


@pytest.mark.parametrize("count", [-1, 1.5, "2", True, None])
def test_a_count_that_is_not_a_whole_number_0_or_more_is_refused(count: object) -> None:
    with pytest.raises(BadDeck, match=re.escape(
            f"deck.spread.moth number 3 has count {count!r}: use a whole number 0 or more "
            "(the moth cards must add up to 8)")):
        deck_from_mapping(default_spread(moth=[2, 1, count, 1, 2]))


def test_a_kind_that_does_not_add_up_to_its_total_is_refused() -> None:
    with pytest.raises(BadDeck, match=r"^deck\.spread\.moth adds up to 9 cards \(1: 2, 2: 2, 3: 2, 4: 1, 5: 2\) "
                                      r"but 8 moth cards are expected$"):
        deck_from_mapping(default_spread(moth=[2, 2, 2, 1, 2]))


def test_a_card_moved_between_kinds_breaks_the_71_card_total() -> None:
    with pytest.raises(BadDeck, match=r"^deck\.spread\.number adds up to 44 cards .* but 43 number cards are expected$"):
        deck_from_mapping(default_spread(number=[10, 8, 9, 8, 9], moth=[1, 1, 2, 1, 2]))


def test_a_spread_that_does_not_match_its_own_totals_is_refused() -> None:
    with pytest.raises(BadDeck, match=r"^deck\.spread\.moth adds up to 8 cards .* but 10 moth cards are expected$"):
        deck_from_mapping(default_spread(), {"moth": 10})


@pytest.mark.parametrize("value", [-1, "8", 8.0, None])
def test_a_total_that_is_not_a_whole_number_0_or_more_is_refused(value: object) -> None:
    with pytest.raises(BadDeck, match=re.escape(f"deck.totals.moth is {value!r}: "
                                                "use a whole number of cards, 0 or more")):
        deck_from_mapping(default_spread(), {"moth": value})


@pytest.mark.parametrize("table", ["spread", "totals"])
def test_an_unknown_kind_is_refused(table: str) -> None:
    spread = default_spread(beetle=[1, 1, 1, 1, 1]) if table == "spread" else default_spread()
    totals = {"beetle": 5} if table == "totals" else None
    with pytest.raises(BadDeck, match=rf"^deck\.{table} names unknown kind 'beetle': use {KINDS}$"):
        deck_from_mapping(spread, totals)


def test_a_spread_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(BadDeck, match=r"^deck\.spread is \[1, 2\]: it must be a table of kinds$"):
        deck_from_mapping([1, 2])  # type: ignore[arg-type]


def test_totals_that_are_not_a_table_are_refused() -> None:
    with pytest.raises(BadDeck, match=r"^deck\.totals is 71: it must be a table of kinds$"):
        deck_from_mapping(default_spread(), 71)  # type: ignore[arg-type]


def test_deck_messages_name_where_the_deck_came_from() -> None:
    with pytest.raises(BadDeck, match=r"^cafe\.toml deck\.spread\.moth adds up to 9 cards"):
        deck_from_mapping(default_spread(moth=[2, 2, 2, 1, 2]), where="cafe.toml deck")


# --- variants ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), [
    (GuardNextRound, ["rotate-left", "keep"]),
    (CockroachRacers, ["everyone", "others"]),
    (CockroachCard, ["number-only", "chain"]),
    (DrawWhenPlayable, ["only-if-stuck", "allowed"]),
    (TopTie, ["shared-win", "fewest-moths"]),
])
def test_each_variant_has_the_options_of_rules_md_default_first(variant: Any, options: list[str]) -> None:
    assert [m.value for m in variant] == options


def test_the_default_rules_are_the_first_option_of_each_variant_and_the_default_deck() -> None:
    assert Rules().variants() == {
        "guard-next-round": "rotate-left",
        "cockroach-racers": "everyone",
        "cockroach-card": "number-only",
        "draw-when-playable": "only-if-stuck",
        "top-tie": "shared-win",
    }
    assert Rules().deck == DEFAULT_DECK


def test_rules_from_a_mapping_take_defaults_for_missing_keys() -> None:
    rules = rules_from_mapping({"guard-next-round": "keep", "top-tie": "fewest-moths"})
    assert rules == Rules(guard_next_round=GuardNextRound.KEEP, top_tie=TopTie.FEWEST_MOTHS)


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(BadConfig, match=r"^rules has unknown variant 'guard': use guard-next-round, "
                                        r"cockroach-racers, cockroach-card, draw-when-playable, top-tie$"):
        rules_from_mapping({"guard": "keep"})


@pytest.mark.parametrize("raw", ["left", "Keep", 1, None])
def test_an_unknown_option_is_refused(raw: object) -> None:
    with pytest.raises(BadConfig, match=re.escape(
            f"rules.guard-next-round is {raw!r}: use one of 'rotate-left', 'keep'")):
        rules_from_mapping({"guard-next-round": raw})


# --- the config file --------------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rig.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_empty_config_file_gives_the_default_rules(tmp_path: Path) -> None:
    assert load_rules(write(tmp_path, "")) == Rules()


def test_a_config_file_sets_every_variant(tmp_path: Path) -> None:
    path = write(tmp_path, """
[rules]
guard-next-round = "keep"
cockroach-racers = "others"
cockroach-card = "chain"
draw-when-playable = "allowed"
top-tie = "fewest-moths"
""")
    assert load_rules(path) == Rules(GuardNextRound.KEEP, CockroachRacers.OTHERS, CockroachCard.CHAIN,
                                     DrawWhenPlayable.ALLOWED, TopTie.FEWEST_MOTHS)


def test_a_config_file_sets_a_cafe_deck(tmp_path: Path) -> None:
    path = write(tmp_path, """
[deck.spread]
number    = [9, 9, 9, 8, 8]
moth      = [0, 2, 2, 2, 2]
ant       = [1, 1, 1, 1, 1]
spider    = [1, 1, 1, 1, 1]
cockroach = [1, 1, 1, 1, 1]
mosquito  = [1, 1, 1, 1, 1]
""")
    deck = load_rules(path).deck
    assert deck.size == 71
    assert deck.count(Kind.MOTH, 1) == 0
    assert deck.count(Kind.NUMBER, 2) == 9


def test_a_config_file_sets_a_house_deck_with_its_totals(tmp_path: Path) -> None:
    path = write(tmp_path, """
[deck.spread]
number    = [9, 8, 9, 8, 9]
moth      = [2, 2, 2, 2, 2]
ant       = [1, 1, 1, 1, 1]
spider    = [1, 1, 1, 1, 1]
cockroach = [1, 1, 1, 1, 1]
mosquito  = [1, 1, 1, 1, 1]
[deck.totals]
moth = 10
""")
    assert load_rules(path).deck.size == 73


def test_a_config_file_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(BadConfig, match=re.escape(f"cannot read config file {label(missing)}: No such file or directory")):
        load_rules(missing)


def test_a_config_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules\n")
    with pytest.raises(BadConfig, match=rf"^config file {re.escape(label(path))} is not valid TOML \(.*\): fix the syntax$"):
        load_rules(path)


def test_a_config_with_an_unknown_section_is_refused() -> None:
    with pytest.raises(BadConfig, match=r"^config has unknown section \[sound\]: use \[rules\], \[deck\]$"):
        rules_from_toml("[sound]\nvolume = 3\n")


@pytest.mark.parametrize("text", ["[deck.totals]\nmoth = 8\n", "deck = 3\n", "[deck]\n"])
def test_a_deck_section_without_a_spread_is_refused(text: str) -> None:
    with pytest.raises(BadConfig, match=r"^config \[deck\] needs a \[deck\.spread\] table with five counts per kind$"):
        rules_from_toml(text)


def test_a_deck_section_with_an_unknown_key_is_refused() -> None:
    data = {"deck": {"spread": default_spread(), "shuffle": True}}
    with pytest.raises(BadConfig, match=r"^config \[deck\] has unknown key 'shuffle': use spread and totals$"):
        rules_from_config(data)


def test_a_rules_section_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(BadConfig, match=r"^config \[rules\] must be a table of variant = option$"):
        rules_from_toml('rules = "keep"\n')


def test_config_variant_errors_name_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\ntop-tie = "coin-toss"\n')
    with pytest.raises(BadConfig, match=rf"^{re.escape(str(path))} \[rules\]\.top-tie is 'coin-toss': "
                                        r"use one of 'shared-win', 'fewest-moths'$"):
        load_rules(path)


def test_config_unknown_variant_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\nguard = "keep"\n')
    with pytest.raises(BadConfig, match=rf"^{re.escape(str(path))} \[rules\] has unknown variant 'guard'"):
        load_rules(path)


def test_config_deck_errors_name_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, """
[deck.spread]
number    = [9, 8, 9, 8, 9]
moth      = [2, 2, 2, 1, 2]
ant       = [1, 1, 1, 1, 1]
spider    = [1, 1, 1, 1, 1]
cockroach = [1, 1, 1, 1, 1]
mosquito  = [1, 1, 1, 1, 1]
""")
    with pytest.raises(BadDeck, match=rf"^{re.escape(str(path))} deck\.spread\.moth adds up to 9 cards"):
        load_rules(path)


def test_a_config_deck_spread_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(BadDeck, match=r"^config deck\.spread is 3: it must be a table of kinds$"):
        rules_from_toml("[deck]\nspread = 3\n")


# --- bounded reading (issue 12 point 5): every refusal one line naming the file ---------------

@pytest.mark.parametrize(
    ("content", "message"),
    [
        # Before: a UnicodeDecodeError, a RecursionError and a ValueError came out as tracebacks.
        (b"[rules]\n# caf\xe9\n", r"is not UTF-8 text \(byte 0xe9 at offset 13\): save it as UTF-8$"),
        (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", r"nests arrays or tables too deeply \(over 16 levels\)"),
        (b"x = " + b"[" * 17 + b"]" * 17 + b"\n", r"nests arrays or tables too deeply \(over 16 levels at …0\](\[0\]){9}\): the rig's files need 5 at most$"),
        (b"[deck.spread]\nmoth = [" + b"9" * 5000 + b"]\n", r"has a number of more than 4,300 digits: use at most 20"),
        (b"[deck.spread]\nmoth = [1, " + b"9" * 30 + b"]\n", r"has a 30-digit number at deck\.spread\.moth\[1\]: use at most 20"),
        (b"[rules]\ntop-tie = 1\ntop-tie = 2\n", r"is not valid TOML \(Cannot overwrite a value .*\): fix the syntax$"),
        (b"[rules]\n" + b"#" * (256 * 1024), r"is larger than 256 KiB, the most it may hold: check that it is the right file$"),
    ],
)
def test_a_config_file_is_read_within_bounds(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    with pytest.raises(BadConfig, match=rf"^config file {re.escape(label(path))} {message}") as caught:
        load_rules(path)
    assert len(str(caught.value)) <= 200 and "\n" not in str(caught.value)


def test_a_config_file_of_exactly_the_cap_is_read(tmp_path: Path) -> None:
    from game.config import MAX_CONFIG_BYTES

    text = '[rules]\ntop-tie = "fewest-moths"\n'
    path = tmp_path / "config.toml"
    path.write_bytes((text + "#" * (MAX_CONFIG_BYTES - len(text) - 1) + "\n").encode())
    assert path.stat().st_size == MAX_CONFIG_BYTES
    assert load_rules(path).top_tie is TopTie.FEWEST_MOTHS


def test_config_text_too_deep_is_refused_by_name() -> None:
    with pytest.raises(BadConfig, match=r"^config nests arrays or tables too deeply \(over 16 levels\)"):
        rules_from_toml("x = " + "[" * 5000 + "]" * 5000)
