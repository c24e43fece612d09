"""Render catalog entries: a key and its parameters in one of the five languages.

The controller fills some parameters with English words (a race's kind name, "wins", a card
as ``"mosquito 3"``, what was ignored); :func:`render` puts those into the chosen language.
An engine refusal (``refused``) carries the engine's English sentence as its reason, shown as is.
"""

from __future__ import annotations

import re
from functools import cache

from ..cards import Card, Kind
from ..errors import GameError
from ..messages import Message
from . import LANGUAGES, de, en, es, fr, ko, referee
from .particles import resolve as resolve_particles
from .plural import choose as choose_forms
from .typography import french

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
    filled = choose_forms(lang, template, params).format(**params)
    # Korean particles follow the word filled in: "{number}을(를)" becomes "4를", "Dan을".
    if lang == "ko":
        return resolve_particles(filled)
    # Figures and units are bound at the screen (Painter.text typesets all it draws); a
    # sentence printed in the terminal keeps ordinary spaces.
    return french(filled) if lang == "fr" else filled


def kind_name(lang: str, kind: Kind) -> str:
    return text(lang, f"kind_{kind.value}")


def card_name(lang: str, card: Card) -> str:
    """``"Mücke 3"``; English narration keeps ``str(card)`` ("mosquito 3")."""
    return text(lang, "card", kind=kind_name(lang, card.kind), number=card.number)


def decimal(lang: str, figure: str) -> str:
    """A figure such as ``"183.456 ms"`` with the language's decimal mark."""
    return figure.replace(".", ",") if lang in ("de", "fr", "es") else figure


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
        return value if value == "GO" else text(lang, "what_input")
    return value


def render(message: Message, lang: str = "en") -> str:
    """The controller's ``message`` as a sentence in ``lang``."""
    if lang == "en" and message.key in en.MESSAGES:
        return message.render()
    params = {name: _param(lang, name, value) for name, value in message.params}
    return text(lang, message.key, **params)
