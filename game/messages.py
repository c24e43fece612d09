"""What the rig says: a message is a key and its parameters, rendered per language.

The controller and the engine's narration produce :class:`Message` records, never finished
sentences, so the display can say the same thing in every language it supports.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import plural
from .i18n.en import MESSAGES


@dataclass(frozen=True, slots=True)
class Message:
    """``key`` names a template; ``params`` fills it (names, numbers, card names)."""

    key: str
    params: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, key: str, **params: str | int) -> Message:
        return cls(key, tuple(sorted(params.items())))

    def render(self, catalog: dict[str, str] | None = None) -> str:
        """The sentence in ``catalog``'s language (English when none is given)."""
        template = (catalog or ENGLISH).get(self.key) or ENGLISH[self.key]
        params = dict(self.params)
        # "{moths|moth|moths}": the word agreeing with the number (English rule: only 1 is singular).
        return plural.choose("en", template, params).format(**params)


#: English templates (the catalogs of every language live in :mod:`game.i18n`).
ENGLISH: dict[str, str] = MESSAGES
