"""Players' own names, typed at the join screen: what a name may be, and taking one.

A name is 1 to 16 characters once trimmed (NFC, runs of spaces made one): Latin letters with
their accents, Hangul (syllables and the jamo a half-typed syllable leaves), digits, spaces,
hyphens and apostrophes. No control characters, and nothing the rig's fonts would print as a
box: Latin letters up to Latin Extended-A (é, ß, ł, œ…) and Romanian ș ț, the 2,350 Hangul
syllables of KS X 1001 (every name in common use; the vendored Hangul font has exactly these)
and the modern jamo. Names are unique at the table, compared without case ("ANA" is "Ana"), against every
wired seat's name: a seat that joins later keeps its default name, so no typed name may take it.

A typed name is a logged controller input (:class:`~.inputs.Name`), kept in the table's state,
so a resumed game has the names it had. A refused name is a notice naming the bad value; the
table is unchanged.
"""

from __future__ import annotations

import re
import unicodedata

from ..messages import Message
from .context import Ctx
from .state import Stage, Table

MAX_NAME = 16
_SPACES = re.compile(" {2,}")
_PUNCTUATION = frozenset(" -'")
_HANGUL_SYLLABLES = (0xAC00, 0xD7A3)
_HANGUL_JAMO = (0x3131, 0x3163)          # the compatibility jamo the on-screen keyboard types
_LATIN_LAST = 0x017F                     # the end of Latin Extended-A
_ROMANIAN = frozenset("ȘșȚț")


def normalize(text: str) -> str:
    """``text`` as it would be kept: NFC, trimmed, one space between words."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text).strip())


def allowed(char: str) -> bool:
    """Whether ``char`` may be part of a name."""
    if char in _PUNCTUATION or "0" <= char <= "9":
        return True
    code = ord(char)
    if _HANGUL_SYLLABLES[0] <= code <= _HANGUL_SYLLABLES[1]:
        return _in_ks_x_1001(char)
    if _HANGUL_JAMO[0] <= code <= _HANGUL_JAMO[1]:
        return True
    # Latin letters only: a Cyrillic "а" would pass for a Latin "a" on the board.
    latin = code <= _LATIN_LAST or char in _ROMANIAN
    return latin and unicodedata.category(char).startswith("L") and unicodedata.name(char, "").startswith("LATIN ")


def _in_ks_x_1001(syllable: str) -> bool:
    # Python's EUC-KR spells a syllable outside KS X 1001 as eight bytes of jamo (KS X 1001's
    # own escape), one inside it as two.
    return len(syllable.encode("euc-kr")) == 2


def shown(char: str) -> str:
    """A character as a message can show it: itself, or its code point when it prints as
    nothing (a control character, a combining mark on its own, a zero-width space)."""
    if unicodedata.category(char)[0] in "CZM" and char != " ":
        return f"U+{ord(char):04X}"
    return char


def refusal(text: str, taken: dict[str, str], default: str) -> Message | None:
    """Why ``text`` cannot be a name, or None. ``taken``: the other seats' names by their
    casefolded form (the values as shown); ``default``: the seat's own name, offered in the
    message for an empty one."""
    name = normalize(text)
    if not name:
        return Message.of("name_empty", default=default, most=MAX_NAME)
    if len(name) > MAX_NAME:
        return Message.of("name_long", name=name, count=len(name), most=MAX_NAME)
    bad = next((c for c in name if not allowed(c)), None)
    if bad is not None:
        return Message.of("name_char", name=name, char=shown(bad))
    other = taken.get(name.casefold())
    if other is not None:
        return Message.of("name_taken", name=other)
    return None


def check(table: Table, seat: int, text: str) -> Message | None:
    """Why seat ``seat`` cannot take the name ``text`` at this table, or None (the screen asks
    too, to keep its keyboard up until a name is taken)."""
    taken = {table.seat_name(s).casefold(): table.seat_name(s)
             for s in range(table.settings.seats) if s != seat}
    return refusal(text, taken, table.settings.name(seat))


def rename(ctx: Ctx, seat: int, text: str | None) -> None:
    """Seat ``seat`` takes the name ``text`` (None: back to the seat's default name)."""
    t = ctx.table
    if t.stage not in (Stage.JOIN, Stage.OLDEST):
        ctx.say("ignored_input", what="name")
        return
    if type(seat) is not int or seat not in t.seated:
        ctx.say("name_no_seat", seat=seat + 1 if type(seat) is int else str(seat))
        ctx.sound("refused")
        return
    typed = tuple((s, n) for s, n in t.names if s != seat)
    if text is None:
        ctx.update(names=typed)
        return
    problem = check(t, seat, text)
    if problem is not None:
        ctx.say(problem.key, **dict(problem.params))
        ctx.sound("refused")
        return
    name = normalize(text)
    if name != t.settings.name(seat):  # the seat's own default is kept as no typed name at all
        typed = tuple(sorted(typed + ((seat, name),)))
    ctx.update(names=typed)

