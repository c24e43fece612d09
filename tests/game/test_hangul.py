"""Hangul composed jamo by jamo as a 2-beolsik keyboard does, and taken back jamo by jamo."""

from __future__ import annotations

import pytest

from game.i18n.hangul import CONSONANT_KEYS, VOWEL_KEYS, backspace, parts, syllable, type_jamo


def typed(keys: str, text: str = "") -> str:
    for key in keys:
        text = type_jamo(text, key)
    return text


@pytest.mark.parametrize("keys, text", [
    ("ㄱㅏㄴ", "간"),
    ("ㅎㅏㄴㄱㅡㄹ", "한글"),
    ("ㅁㅣㄴㅈㅜㄴ", "민준"),
    ("ㄱㅏㄴㅏ", "가나"),            # the final moves on to a vowel typed after it
    ("ㄱㅗㅏ", "과"),                # two vowels make one
    ("ㄷㅗㅐㅈㅣ", "돼지"),
    ("ㅇㅡㅣㅅㅏ", "의사"),
    ("ㄷㅏㄹㄱ", "닭"),              # two finals make a double final
    ("ㄷㅏㄹㄱㅏ", "달가"),          # ...whose second half moves on to a vowel
    ("ㅇㅓㅂㅅ", "없"),
    ("ㄸㅏㄸ", "따ㄸ"),              # ㄸ is never a final: it starts the next syllable
    ("ㄱㄱ", "ㄱㄱ"),
    ("ㅏ", "ㅏ"),
    ("ㅗㅏ", "ㅘ"),
])
def test_jamo_compose_into_syllables(keys: str, text: str) -> None:
    assert typed(keys) == text


def test_composing_stops_at_a_space_or_a_latin_letter() -> None:
    assert typed("ㅏ", "가 ") == "가 ㅏ"
    assert type_jamo("Kim", "ㅏ") == "Kimㅏ"
    assert type_jamo("간", "ㄱ") == "간ㄱ"       # ㄴ+ㄱ is no double final


def test_backspace_takes_back_one_jamo_at_a_time() -> None:
    steps = ["닭", "달", "다", "ㄷ", ""]
    text = "닭"
    for expected in steps[1:]:
        text = backspace(text)
        assert text == expected
    assert backspace("과") == "고" and backspace("ㅘ") == "ㅗ"
    assert backspace("Zoë") == "Zo" and backspace("") == ""


def test_typing_then_backspacing_every_key_returns_to_the_start() -> None:
    for consonant in CONSONANT_KEYS:
        for vowel in VOWEL_KEYS:
            text = typed(consonant + vowel + "ㄴ", "이름 ")
            assert text[-1] == syllable(consonant, vowel, "ㄴ")
            for _ in range(3):
                text = backspace(text)
            assert text == "이름 "


def test_parts_of_a_syllable() -> None:
    assert parts("간") == ("ㄱ", "ㅏ", "ㄴ") and parts("a") is None and parts("ㄱ") is None


def test_a_key_that_is_no_jamo_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match=r"'a' is not a Hangul jamo: type one of ㄱ"):
        type_jamo("", "a")
