"""The five catalogs: the same keys and placeholders everywhere; messages and events render in
every language; English narration is unchanged."""

from __future__ import annotations

import re
import string

import pytest

from game.cards import Card, Kind
from game.engine.events import GameOver, RaceDecided, StarterFlipped
from game.i18n import LANGUAGES, LANGUAGE_NAMES
from game.i18n.events import event_text
from game.i18n.lookup import card_name, catalog, decimal, render, text
from game.messages import ENGLISH, Message
from game.narrate import describe
from game.race import RaceKind


def _fields(template: str) -> set[str]:
    # "{moths|moth|moths}" (a word agreeing with a number) uses the field moths.
    plain = re.sub(r"\{(\w+)\|[^{}|]*\|[^{}|]*\}", r"{\1}", template)
    return {f for _, f, _, _ in string.Formatter().parse(plain) if f}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert set(other) == set(english)
    for key, template in english.items():
        assert _fields(other[key]) == _fields(template), (lang, key)
        assert other[key].strip(), (lang, key)


def test_english_messages_are_the_controller_catalog() -> None:
    assert set(ENGLISH) <= set(catalog("en"))
    assert Message.of("undone").render() == "Undone."


def test_unknown_language_is_refused_with_the_valid_codes() -> None:
    with pytest.raises(ValueError, match=r"language 'xx' is not available: use one of en, de, fr, es, ko"):
        catalog("xx")


def test_language_names_cover_every_language() -> None:
    assert set(LANGUAGE_NAMES) == set(LANGUAGES)


def test_english_words_in_controller_params_are_translated() -> None:
    ready = Message.of("race_ready", kind_name="Mosquito")
    assert render(ready, "de").startswith("Mücke!")
    assert render(ready, "en").startswith("Mosquito!")
    over = Message.of("game_over", winners="Ali", verb="wins", points=7)
    assert "gagne" in render(over, "fr") and "7" in render(over, "fr")
    result = Message.of("cockroach_result", winner="Bea", card="ant 3")
    assert "hormiga 3" in render(result, "es")
    slap = Message.of("race_slap_result", loser="Cem", reaction="183.456 ms")
    assert "183,456 ms" in render(slap, "de") and "183.456 ms" in render(slap, "ko")
    assert "3번 자리" in render(Message.of("ignored_input", what="seat 3"), "ko")
    assert "diese Eingabe" in render(Message.of("ignored_input", what="Play"), "de")


def test_event_sentences_in_every_language() -> None:
    starter = StarterFlipped(Card(Kind.SPIDER, 2))
    assert describe(starter) == "The starter is spider 2 (its action does not happen)."
    # A kind inside a French or Spanish sentence is a common noun: lower case (the card face keeps
    # its capital).
    assert event_text(starter, lang="fr") == "Carte de départ\u00a0: araignée 2 (son action n’a pas lieu)."
    over = GameOver(totals=(3, 3, 9), winners=(0, 1))
    assert describe(over) == "Game over: seat 0 and seat 1 share the win."
    assert event_text(over, lambda p: "AB"[p], "de") == "Spielende: A und B gewinnen gemeinsam."
    tie = RaceDecided(RaceKind.SLAP, (0, 1, 2), None, 2, None, (1, 2), ())
    assert describe(tie) == "seat 2 was slowest after a tie between seat 1 and seat 2 and receives one card from every other player."
    for lang in LANGUAGES:
        assert event_text(tie, lang=lang)


def test_card_names_and_decimals() -> None:
    assert card_name("ko", Card(Kind.MOTH, 5)) == "나방 5"
    assert decimal("fr", "0.100 ms") == "0,100 ms" and decimal("en", "0.100 ms") == "0.100 ms"
    assert text("es", "ui_round", round=2, rounds=4) == "Ronda 2 de 4"


def test_every_key_the_core_and_the_app_say_is_in_the_catalogs() -> None:
    """Message keys are strings in code: find each one and check that every language has it."""
    import re
    from pathlib import Path

    from game.i18n import LANGUAGES
    from game.i18n.lookup import catalog

    root = Path(__file__).resolve().parents[2] / "game"
    said = set()
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        said |= set(re.findall(r'(?:\.say|Message\.of)\(\s*"([a-z_]+)"', text))
    assert {"race_rearmed", "verdict_guilty", "ui_resumed"} <= said
    for lang in LANGUAGES:
        missing = sorted(key for key in said if key not in catalog(lang))
        assert not missing, f"{lang} lacks {missing}"
