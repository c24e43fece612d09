"""Every language reads naturally: one word per concept, no gendered guess about a player."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from game.i18n.lookup import catalog, text


def _concept(english: str) -> str:
    return english.lower().rstrip("s")      # "Cards" and "Card", "GUILTY" and "Guilty" are one


@pytest.mark.parametrize("lang", ["de", "fr", "es", "ko"])
def test_two_concepts_never_share_a_label(lang: str) -> None:
    # German showed "Zurück" for both Undo and Back: a group could not tell the buttons apart.
    english = catalog("en")
    by_label: dict[str, set[str]] = defaultdict(set)
    for key, label in catalog(lang).items():
        if key.startswith("ui_") and "{" not in label:
            by_label[label].add(_concept(english[key]))
    assert {label: concepts for label, concepts in by_label.items() if len(concepts) > 1} == {}


def test_the_guard_bug_has_one_german_name() -> None:
    names = {word for value in catalog("de").values() for word in re.findall(r"\w*(?:käfer|wanze)\w*", value, re.I)}
    assert names == {"Wächterwanze"}


# Spanish adjectives and nouns agree with the player's gender, which the rig cannot know:
# "Bea fue el más lento" is wrong for Bea. Sentences about a player are phrased around a
# neuter-safe noun ("la mano más lenta fue la de Bea") or a gender-free phrase ("de guardia").
_GENDERED = re.compile(r"\b(el|la) más (lent|rápid)[oa]\b|\bes el guardián\b|\bel guardián \(|\bdel acusado\b|\bdel jugador\b")


def test_spanish_never_guesses_a_players_gender() -> None:
    fields = {"loser": "Bea", "winner": "Bea", "player": "Bea", "guard": "Bea", "accused": "Bea"}
    for key, template in catalog("es").items():
        needed = {name: fields.get(name, "3") for name in re.findall(r"{(\w+)", template)}
        sentence = text("es", key, **needed)
        assert not _GENDERED.search(sentence), (key, sentence)


def test_french_punctuation_never_starts_a_line() -> None:
    sentence = text("fr", "ignored_not_guard", guard="Bea")
    assert " :" not in sentence and " »" not in sentence and "« " not in sentence
    assert "\u00a0:" in sentence and "«\u00a0" in sentence


_COUNTED = {"en": r"\b1 (moths|cards|action cards|number cards|points)\b|\b1 penalty points\b",
            "de": r"\b1 (Motten|Karten|Aktionskarten|Zahlenkarten|Strafpunkte|sitzen)\b",
            "fr": r"\b[01] (mites|cartes|points)\b",
            "es": r"\b1 (polillas|cartas|puntos)\b"}


@pytest.mark.parametrize("lang", sorted(_COUNTED))
@pytest.mark.parametrize("n", [0, 1, 2, 21])
def test_words_agree_with_their_number(lang: str, n: int) -> None:
    # "1 moths", "1 action cards": seen at every penalty entry.
    for key, template in catalog(lang).items():
        fields = {name: n for name in re.findall(r"{(\w+)", template)}
        sentence = text(lang, key, **fields)
        assert not re.search(_COUNTED[lang], sentence), (key, sentence)
        assert "|" not in sentence, (key, sentence)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es", "ko"])
def test_the_game_start_names_house_rules_in_words_not_config_keys(lang: str) -> None:
    # Seen on every screen: "(guard-next-round rotate-left, cockroach-racers everyone, …)".
    import dataclasses

    from game.engine.events import GameStarted
    from game.i18n.events import event_text
    from game.variants import GuardNextRound, Rules

    for rules in (Rules(), dataclasses.replace(Rules(), guard_next_round=GuardNextRound.KEEP)):
        sentence = event_text(GameStarted(players=4, oldest=1, rules=rules), lambda seat: "Bea", lang)
        assert sentence is not None
        assert not re.search(r"[a-z]+-[a-z]+", sentence), sentence
    assert text(lang, "ev_rules_standard") in event_text(GameStarted(players=4, oldest=1, rules=Rules()),
                                                         lambda seat: "Bea", lang)
