"""Korean particles follow the word before them; no rendered sentence shows both forms."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.i18n.lookup import catalog, text
from game.i18n.particles import final_of, resolve


@pytest.mark.parametrize(("word", "final"), [
    ("감시자", ""), ("모기", ""), ("바퀴벌레", ""), ("나방", "other"), ("거미줄", "ㄹ"),
    ("1", "ㄹ"), ("2", ""), ("3", "other"), ("4", ""), ("5", ""), ("6", "other"), ("7", "ㄹ"),
    ("8", "ㄹ"), ("9", ""), ("10", "other"), ("100", "other"), ("12", ""), ("0", "other"),
    ("Dan", "other"), ("Cem", "other"), ("Bea", ""), ("Ali", ""), ("Paul", "ㄹ"), ("Bob", "other"),
    ("감시자(Dan)", "other"), ("'잡았다!'", ""),
])
def test_the_final_sound_of_a_word(word: str, final: str) -> None:
    assert final_of(word) == final


@pytest.mark.parametrize(("before", "after"), [
    ("4을(를) 내세요", "4를 내세요"), ("3을(를) 내세요", "3을 내세요"), ("Dan은(는)", "Dan은"),
    ("Bea은(는)", "Bea는"), ("모기이(가)", "모기가"), ("나방이(가)", "나방이"), ("Ali과(와) Dan", "Ali와 Dan"),
    ("거미줄으로(로)", "거미줄로"), ("나방으로(로)", "나방으로"), ("Bea으로(로)", "Bea로"),
    ("감시자(Dan)을(를)", "감시자(Dan)을"), ("no particle (here)", "no particle (here)"),
])
def test_resolve_keeps_the_form_the_word_takes(before: str, after: str) -> None:
    assert resolve(before) == after


_BOTH = re.compile(r"을\(를\)|이\(가\)|은\(는\)|과\(와\)|으로\(로\)")
_NAMES = st.text(alphabet=string.ascii_letters + "가나다라마바사아자차카타파하각난닫랄맘", min_size=1, max_size=8)


@given(name=_NAMES, number=st.integers(min_value=0, max_value=99))
def test_no_korean_sentence_shows_both_forms(name: str, number: int) -> None:
    for key, template in catalog("ko").items():
        fields = {field: (number if field in ("number", "count", "round") else name)
                  for field in re.findall(r"{(\w+)", template)}
        assert not _BOTH.search(text("ko", key, **fields)), key
