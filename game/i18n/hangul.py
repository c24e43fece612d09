"""Hangul typed jamo by jamo, as a 2-beolsik keyboard does: ㄱ, ㅏ, ㄴ make 간.

The text is the whole state: :func:`type_jamo` composes a jamo into the text's last character
and :func:`backspace` takes the last jamo back off it (간 → 가 → ㄱ → nothing), so the on-screen
keyboard keeps no hidden composition to get out of step with what the player sees. A consonant
after a syllable with a final consonant stays a final if the two make a double final (ㄹ+ㄱ →
ㄺ), and a vowel takes the final (the second half of a double one) as its initial: 갈 + ㄱ + ㅏ
is 갈가, 갉 + ㅏ is 갈가. Unicode's arithmetic: syllable = 0xAC00 + (initial × 21 + vowel) ×
28 + final.
"""

from __future__ import annotations

_BASE, _LAST = 0xAC00, 0xD7A3
INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ",
          "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
#: Two jamo typed one after the other that make one: vowels (ㅗ+ㅏ → ㅘ) and finals (ㄹ+ㄱ → ㄺ).
_VOWEL_PAIRS = {("ㅗ", "ㅏ"): "ㅘ", ("ㅗ", "ㅐ"): "ㅙ", ("ㅗ", "ㅣ"): "ㅚ", ("ㅜ", "ㅓ"): "ㅝ",
                ("ㅜ", "ㅔ"): "ㅞ", ("ㅜ", "ㅣ"): "ㅟ", ("ㅡ", "ㅣ"): "ㅢ"}
_FINAL_PAIRS = {("ㄱ", "ㅅ"): "ㄳ", ("ㄴ", "ㅈ"): "ㄵ", ("ㄴ", "ㅎ"): "ㄶ", ("ㄹ", "ㄱ"): "ㄺ",
                ("ㄹ", "ㅁ"): "ㄻ", ("ㄹ", "ㅂ"): "ㄼ", ("ㄹ", "ㅅ"): "ㄽ", ("ㄹ", "ㅌ"): "ㄾ",
                ("ㄹ", "ㅍ"): "ㄿ", ("ㄹ", "ㅎ"): "ㅀ", ("ㅂ", "ㅅ"): "ㅄ"}
_VOWEL_SPLIT = {v: pair for pair, v in _VOWEL_PAIRS.items()}
_FINAL_SPLIT = {f: pair for pair, f in _FINAL_PAIRS.items()}
#: The 2-beolsik keyboard's keys (the shifted doubles ㄲ ㄸ ㅃ ㅆ ㅉ ㅒ ㅖ as keys of their own).
CONSONANT_KEYS = INITIALS
VOWEL_KEYS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅛㅜㅠㅡㅣ"


def is_jamo(char: str) -> bool:
    return len(char) == 1 and (char in INITIALS or char in VOWELS or char in _FINAL_SPLIT)


def syllable(initial: str, vowel: str, final: str = "") -> str:
    return chr(_BASE + (INITIALS.index(initial) * 21 + VOWELS.index(vowel)) * 28 + FINALS.index(final))


def parts(char: str) -> tuple[str, str, str] | None:
    """(initial, vowel, final) of a Hangul syllable, or None for any other character."""
    code = ord(char) - _BASE if len(char) == 1 else -1
    if not 0 <= code <= _LAST - _BASE:
        return None
    return INITIALS[code // 588], VOWELS[code // 28 % 21], FINALS[code % 28]


def type_jamo(text: str, jamo: str) -> str:
    """``text`` after typing ``jamo`` (a compatibility jamo, as the keys show)."""
    if not is_jamo(jamo):
        raise ValueError(f"{jamo!r} is not a Hangul jamo: type one of {CONSONANT_KEYS}{VOWEL_KEYS}")
    head, last = text[:-1], text[-1:]
    split = parts(last) if last else None
    if jamo in VOWELS:
        if last and last in INITIALS:                     # ㄱ + ㅏ → 가
            return head + syllable(last, jamo)
        if (last, jamo) in _VOWEL_PAIRS:
            return head + _VOWEL_PAIRS[(last, jamo)]      # a lone ㅗ + ㅏ → ㅘ
        if split is not None:
            initial, vowel, final = split
            if not final and (vowel, jamo) in _VOWEL_PAIRS:
                return head + syllable(initial, _VOWEL_PAIRS[(vowel, jamo)])   # 고 + ㅏ → 과
            if final:
                # The final moves on as the next syllable's initial: 간 + ㅏ → 가나; of a
                # double final only its second half does: 갉 + ㅏ → 갈가.
                keep, moved = _FINAL_SPLIT.get(final, ("", final))
                if moved in INITIALS:
                    return head + syllable(initial, vowel, keep) + syllable(moved, jamo)
        return text + jamo
    if split is not None:
        initial, vowel, final = split
        if not final and jamo in FINALS:                  # 가 + ㄴ → 간 (ㄸ ㅃ ㅉ are never finals)
            return head + syllable(initial, vowel, jamo)
        if final and (final, jamo) in _FINAL_PAIRS:       # 갈 + ㄱ → 갉
            return head + syllable(initial, vowel, _FINAL_PAIRS[(final, jamo)])
    return text + jamo


def backspace(text: str) -> str:
    """``text`` with its last jamo taken back (a syllable loses its last part), or its last
    character gone when that is not Hangul."""
    if not text:
        return text
    head, last = text[:-1], text[-1]
    split = parts(last)
    if split is None:
        if last in _VOWEL_SPLIT:
            return head + _VOWEL_SPLIT[last][0]           # ㅘ → ㅗ
        return head
    initial, vowel, final = split
    if final:
        keep = _FINAL_SPLIT.get(final, ("",))[0]          # 갉 → 갈, 간 → 가
        return head + syllable(initial, vowel, keep)
    if vowel in _VOWEL_SPLIT:
        return head + syllable(initial, _VOWEL_SPLIT[vowel][0])   # 과 → 고
    return head + initial                                 # 가 → ㄱ
