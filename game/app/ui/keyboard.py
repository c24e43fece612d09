"""The on-screen keyboard's keys and what a key does to the name being typed (no drawing here).

Two layouts: Latin (A–Z, the accented letters names at a café table use most, digits, hyphen,
apostrophe) and Hangul (2-beolsik jamo, composed into syllables by game/i18n/hangul.py). Letters
come out capitalised at the start of a word and small after (names are written "Jean-Luc",
"Ana María"); the case key flips that for the next letter ("McKay", "DJ"). The text never
grows past the longest name, so a full field takes no more letters; the controller checks the
rest when the name is sent (controller/names.py).
"""

from __future__ import annotations

from ...controller.names import MAX_NAME
from ...i18n.hangul import is_jamo, type_jamo

LAYOUTS = ("latin", "hangul")
#: What the layout switch shows: each script by its own name, the same in every language (as
#: the settings show "한국어"), so no catalog holds a character its language's font lacks.
LAYOUT_NAMES = {"latin": "ABC", "hangul": "한글"}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTS = "éèêàâäöüßçñíóú"
_DIGITS = "1234567890"
_MARKS = "-'"
_HANGUL = ("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ", "ㅋㅌㅊㅍㅠㅜㅡ", "ㅃㅉㄸㄲㅆㅒㅖ")


def rows(layout: str, portrait: bool) -> tuple[str, ...]:
    """The character keys, row by row: at most 14 a row in landscape (55 px each at 800 px)
    and 10 in portrait (a finger's 64 px at 720 px)."""
    if layout not in LAYOUTS:
        raise ValueError(f"keyboard layout {layout!r} is unknown: use one of {', '.join(LAYOUTS)}")
    if layout == "latin":
        if portrait:
            return (_LETTERS[:10], _LETTERS[10:20], _LETTERS[20:] + _MARKS, _ACCENTS[:7], _ACCENTS[7:], _DIGITS)
        return (_LETTERS[:13], _LETTERS[13:], _ACCENTS, _DIGITS + _MARKS)
    if portrait:
        return (_HANGUL[0], _HANGUL[1], _HANGUL[2] + _MARKS, _HANGUL[3], _DIGITS)
    return (_HANGUL[0], _HANGUL[1], _HANGUL[2] + _HANGUL[3], _DIGITS + _MARKS)


def capital(text: str, shift: bool) -> bool:
    """Whether the next Latin letter is a capital: at the start of a word, unless shifted (and
    shifted, inside a word)."""
    word_start = not text or text[-1] in " -"
    return word_start != shift


def shown(key: str, text: str, shift: bool) -> str:
    """What a key's cap shows: the letter it would type now."""
    if key.isalpha() and not is_jamo(key):
        big = key.upper()
        return big if capital(text, shift) and len(big) == 1 else key.lower()
    return key


def press(text: str, key: str, shift: bool) -> str:
    """``text`` after tapping character ``key``; unchanged if it would make the name too long."""
    if is_jamo(key):
        after = type_jamo(text, key)
    else:
        after = text + shown(key, text, shift)
    return after if len(after) <= MAX_NAME else text


def typed(text: str, more: str) -> str:
    """``text`` after a physical keyboard typed ``more`` (as the system's input method composed
    it), cut at the longest name."""
    return (text + more)[:MAX_NAME]
