"""Referee mode's words (the quiz-show lockout and the race presets' screens), one table per
language, kept in each language's own module (``REFEREE``) beside its card-game words so one
reviewer owns one language. A preset's own name and sentence come from its TOML file."""

from __future__ import annotations

from . import de, en, es, fr, ko

TEXT: dict[str, dict[str, str]] = {"en": en.REFEREE, "de": de.REFEREE, "fr": fr.REFEREE,
                                   "es": es.REFEREE, "ko": ko.REFEREE}
