"""Korean particles chosen by the sound they follow.

A Korean particle has two forms, picked by whether the word before it ends in a consonant
(a final consonant, 받침): 을/를, 이/가, 은/는, 과/와, 으로/로. The catalog writes both, as
Korean software traditionally does when it cannot know the word (``{number}을(를)``), and
:func:`resolve` keeps the one that fits the word actually filled in, so the table reads "4를"
and "Dan을", never "4을(를)".

The word before a particle may be Hangul (its last syllable says), a number (read in
Sino-Korean: 일, 이, 삼, … and 십/백/천/만 for trailing zeros) or a Latin player name, read
the way Korean speakers say English names: a final m, n, l or ng sounds as a final consonant
(Dan 댄, Cem 젬, Paul 폴), a final b/k/p/t as well when it closes the name (Bob 밥); a vowel or
anything else does not (Bea 베아, Ali 알리, Mike 마이크).
"""

from __future__ import annotations

import re

# (with a final consonant, without); 으로/로 also takes 로 after ㄹ.
_PAIRS = {"을(를)": ("을", "를"), "이(가)": ("이", "가"), "은(는)": ("은", "는"),
          "과(와)": ("과", "와"), "으로(로)": ("으로", "로")}
_MARKER = re.compile("|".join(re.escape(marker) for marker in _PAIRS))
_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8                                  # ㄹ's index among the final consonants
# Sino-Korean digit names: 영 일 이 삼 사 오 육 칠 팔 구 → which end in a consonant, and ㄹ.
_DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ",
                "8": "ㄹ", "9": ""}
_SKIPPED = " )]}\"'’”»."                  # closing marks: the particle follows the word inside


def final_of(word: str) -> str:
    """The final consonant heard at the end of ``word``: "" (none), "ㄹ" or "other"."""
    word = word.rstrip(_SKIPPED)
    if not word:
        return ""
    last = word[-1]
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        index = (code - _HANGUL_FIRST) % 28
        return "" if index == 0 else "ㄹ" if index == _RIEUL else "other"
    if last.isdigit():
        digits = re.search(r"\d+$", word)
        number = digits.group(0) if digits else last
        stripped = number.rstrip("0")
        if stripped != number:              # 십, 백, 천, 만: each ends in a consonant
            return "other"
        final = _DIGIT_FINAL.get(last, "")
        return "ㄹ" if final == "ㄹ" else "other" if final else ""
    lower = word.lower()
    if lower.endswith("l"):
        return "ㄹ"
    if lower.endswith(("m", "n", "ng", "b", "k", "p", "t")):
        return "other"
    return ""


def resolve(text: str) -> str:
    """``text`` with every two-form particle reduced to the form its word takes."""
    if "(" not in text:
        return text
    out: list[str] = []
    last = 0
    for match in _MARKER.finditer(text):
        before = text[last:match.start()]
        out.append(before)
        final = final_of("".join(out))
        with_final, without = _PAIRS[match.group(0)]
        if match.group(0) == "으로(로)":
            out.append(with_final if final == "other" else without)
        else:
            out.append(with_final if final else without)
        last = match.end()
    out.append(text[last:])
    return "".join(out)
