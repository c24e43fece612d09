"""Every word the rig shows or says, in English, German, French, Spanish and Korean.

One catalog per language (``en``, ``de``, ``fr``, ``es``, ``ko``), all with the same keys and
the same ``{placeholders}``: the controller's messages, one sentence per engine event, card
kinds and the screen's labels. :mod:`game.i18n.lookup` renders them. Standard library only.
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "ko")

#: Each language in its own words (the settings screen shows these).
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "ko": "한국어",
}
