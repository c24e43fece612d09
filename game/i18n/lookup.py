"""Render catalog entries: a key and its parameters in one of the five languages.

The controller fills some parameters with English words (a race's kind name, "wins", a card
as ``"mosquito 3"``, what was ignored); :func:`render` puts those into the chosen language.
An engine refusal (``refused``) carries the engine's English sentence as its reason, shown as is.

Where a value meets the word before it, the language's rules apply at that boundary (and only
there: the catalog's own words are written right): French elides before a vowel ("Au tour de
{player}" with Ali reads "Au tour d’Ali"), Spanish contracts "de el"/"a el" ("del", "al").
"""

from __future__ import annotations

import re
import string
from functools import cache

from ..cards import Card, Kind
from ..errors import GameError
from ..messages import Message
from . import LANGUAGES, de, en, es, fr, ko, referee
from .particles import resolve as resolve_particles
from .plural import choose as choose_forms
from .typography import french, spanish_conjunctions

_CATALOGS: dict[str, dict[str, str]] = {
    lang: {**table, **referee.TEXT[lang]}
    for lang, table in (("en", en.TEXT), ("de", de.TEXT), ("fr", fr.TEXT), ("es", es.TEXT), ("ko", ko.TEXT))
}
_SEAT = re.compile(r"seat (\d+)")


def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang``; raises ValueError naming the valid codes."""
    try:
        return _CATALOGS[lang]
    except KeyError:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}") from None


def text(lang: str, key: str, **params: str | int) -> str:
    """The catalog entry ``key`` in ``lang`` with ``params`` filled in (English if missing)."""
    template = catalog(lang).get(key) or _CATALOGS["en"][key]
    filled = fill(lang, choose_forms(lang, template, params), params)
    # Korean particles follow the word filled in: "{number}을(를)" becomes "4를", "Dan을".
    if lang == "ko":
        return resolve_particles(filled)
    # Figures and units are bound at the screen (Painter.text typesets all it draws); a
    # sentence printed in the terminal keeps ordinary spaces.
    if lang == "es":
        return spanish_conjunctions(filled)
    return french(filled) if lang == "fr" else filled


_FORMATTER = string.Formatter()

#: French words that drop their vowel before one: "de Ali" -> "d’Ali", "que Ömer" -> "qu’Ömer".
_ELIDED = re.compile(r"(?<![\w’'])(de|que|le|la|ne|se|me|te|je|jusque|lorsque|puisque) $", re.IGNORECASE)
#: Letters that begin a French word with a vowel sound. H is left alone: "de Hugo" and
#: "d’Hugo" are both read, and an aspirated h ("de Hélène" is right for some) cannot be told
#: from the spelling. Y counts when a consonant follows it ("d’Yves", but "de Yann").
_VOWELS = frozenset("aeiouâàäéèêëîïôöûùüœæåøıAEIOUÂÀÄÉÈÊËÎÏÔÖÛÙÜŒÆÅØİ" "áíóúÁÍÓÚãõÃÕāēīōūĀĒĪŌŪ")
_CONSONANT_AFTER_Y = re.compile(r"[yŷÿYŶŸ][^aeiouyâàäéèêëîïôöûùüœæAEIOUYÂÀÄÉÈÊËÎÏÔÖÛÙÜŒÆ\W\d_]")


def vowel_sound(word: str) -> bool:
    """Whether a French word (a name, a filled-in value) begins with a vowel sound."""
    return bool(word) and (word[0] in _VOWELS or bool(_CONSONANT_AFTER_Y.match(word)))


def _join(lang: str, before: str, value: str) -> tuple[str, str]:
    """The literal text ``before`` a filled-in ``value`` and the value, joined as the language
    joins words: French elision ("de" + "Ali" -> "d’" + "Ali"), Spanish contraction
    ("de" + "el puesto 3" -> "del puesto 3")."""
    if lang == "fr" and vowel_sound(value):
        word = _ELIDED.search(before)
        if word:
            return before[: word.start()] + word.group(1)[:-1] + "’", value
    if lang == "es" and value.startswith("el "):
        word = re.search(r"(?<!\w)(de|a|De|A) $", before)
        if word:
            return before[: word.start()] + word.group(1) + "l ", value[3:]
    return before, value


def fill(lang: str, template: str, params: dict[str, str | int]) -> str:
    """``template.format(**params)``, each value joined to the word before it as ``lang`` does."""
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        out.append(literal)
        if field is None:
            continue
        value = _FORMATTER.convert_field(_FORMATTER.get_field(field, (), params)[0], conversion)
        shown = _FORMATTER.format_field(value, spec or "")
        before, shown = _join(lang, "".join(out), shown)
        out = [before, shown]
    return "".join(out)


def kind_name(lang: str, kind: Kind) -> str:
    """The kind as its card face prints it: "Moustique", "Mücke"."""
    return text(lang, f"kind_{kind.value}")


#: Languages that write a kind in lower case inside a sentence (a card face keeps its capital):
#: "Bea pose la carte fourmi 3". German nouns keep theirs; English already says "ant 3".
_LOWER_IN_SENTENCE = ("fr", "es")


def card_name(lang: str, card: Card) -> str:
    """The card as a sentence names it: ``"Mücke 3"``, ``"fourmi 3"``; English narration
    keeps ``str(card)`` ("mosquito 3")."""
    kind = kind_name(lang, card.kind)
    if lang in _LOWER_IN_SENTENCE:
        kind = kind.lower()
    return text(lang, "card", kind=kind, number=card.number)


#: Each language's decimal mark and the mark grouping thousands. French, Spanish and German
#: group with a narrow no-break space (Imprimerie nationale, RAE, DIN 5008; the SI's choice): a
#: figure never breaks at its groups, and a German "10.000" could not be told from the code's
#: "10.000" (ten, to the µs) on a second pass, so the point is not used for groups.
_MARKS: dict[str, tuple[str, str]] = {"de": (",", "\u202f"), "fr": (",", "\u202f"), "es": (",", "\u202f"),
                                      "en": (".", ","), "ko": (".", ",")}
#: A figure as the code writes it: digits, then maybe a point and more digits; not part of a
#: figure already written the language's way ("11.527,601" in German is left alone).
_FIGURE = re.compile(r"(?<![\d.,\u202f])(\d+)(?:\.(\d+))?(?![\d,\u202f]|\.\d)")


def _grouped(whole: str, mark: str) -> str:
    """``whole`` in groups of three from the right, from five digits up: "11527" -> "11 527";
    a four-digit figure stays whole ("1234"), as style guides in all five languages allow."""
    if len(whole) < 5:
        return whole
    head = len(whole) % 3 or 3
    return mark.join([whole[:head]] + [whole[i:i + 3] for i in range(head, len(whole), 3)])


def decimal(lang: str, figure: str) -> str:
    """A figure such as ``"183.456 ms"`` or ``"11527.601 ms"`` the language's way: its decimal
    mark, and thousands grouped from five digits up ("11 527,601 ms" in French). Idempotent."""
    point, thousands = _MARKS.get(lang, _MARKS["en"])

    def local(match: re.Match[str]) -> str:
        whole, fraction = match.group(1), match.group(2)
        return _grouped(whole, thousands) + (point + fraction if fraction is not None else "")

    return _FIGURE.sub(local, figure)


@cache
def _english_words() -> dict[str, str]:
    return {"Mosquito": "kind_mosquito", "Cockroach": "kind_cockroach",
            "wins": "word_wins", "share the win": "word_share"}


def _param(lang: str, name: str, value: str | int) -> str | int:
    if lang == "en" or isinstance(value, int):
        return value
    if name in ("kind_name", "verb"):
        word = _english_words().get(value)
        return text(lang, word) if word else value
    if name == "card":
        try:
            return card_name(lang, Card.parse(value))
        except GameError:
            return value
    if name == "reaction":
        return decimal(lang, value)
    if name == "what":
        seat = _SEAT.fullmatch(value)
        if seat:
            return text(lang, "what_seat", seat=seat.group(1))
        if value == "GO":
            # A GO at the wrong moment, named by the word the language flashes (race_go) and as
            # its style sheet names the signal in a sentence (docs/i18n): a noun with its
            # article in de/fr/es ("le TOP ne sert à rien"), Spanish with its marks ("YA no
            # sirve" would read "no longer works"), Korean as 출발 신호 (출발 alone is a start).
            flash = text(lang, "race_go")
            word = flash.strip("!¡ \u202f\u00a0")
            return {"de": f"das {word}", "fr": f"le {word}", "es": f"el {flash}", "ko": f"{word} 신호"}.get(lang, word)
        return text(lang, "what_input")
    return value


def render(message: Message, lang: str = "en") -> str:
    """The controller's ``message`` as a sentence in ``lang``."""
    if lang == "en" and message.key in en.MESSAGES:
        return message.render()
    params = {name: _param(lang, name, value) for name, value in message.params}
    return text(lang, message.key, **params)
