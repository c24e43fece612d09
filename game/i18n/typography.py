"""Typography: the last step every shown string takes, catalog entries and strings built in code
alike (``Painter.text`` calls :func:`typeset` on whatever it draws; :func:`game.i18n.lookup.text`
on every catalog entry it fills in). Idempotent: typesetting typeset text changes nothing.

- **No figure split from its unit or its label.** "201,650 ms", "+400.125 µs", "3 s" and
  "Pioche : 29" keep a no-break space between the number and its unit, and between a label's
  colon and the figure after it; the screen's wrapper breaks lines only at ordinary spaces.
- **French** sets a narrow no-break space before ``; ! ?`` and a no-break space before ``:``,
  after ``«``, before ``»`` and after "n°" (Imprimerie nationale usage): a line that starts with ":" or "!"
  reads as a mistake. The catalog is written with ordinary spaces (easy to type and review), and
  a space the writer forgot is added ("Gardien: Bea" -> "Gardien : Bea").

- **No short piece left alone at a line's end or start.** A key hint's key stays with what it
  does ("Esc: salir", "S : statistiques"), a " · " separator with the item before it (a line ends on the dot, never starts with one), the start
  signal with its article ("avant le TOP", "hasta el ¡YA!"), and French "à" with the word after
  it ("à la microseconde").
- **Spanish** opens an exclamation or a question built in code: "Cucaracha 3!" -> "¡Cucaracha 3!",
  and says "Bea e Ignacio", "Ana u Óscar" where a list built in code meets its names.

The font draws a no-break space as a space and a narrow one as half a space (see fonts.py).
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
NNBSP = "\u202f"      # narrow no-break space

#: Units a figure is never separated from.
UNITS = ("ms", "µs", "ns", "s", "min", "h", "%", "px", "MB", "GB", "kB", "Hz", "°C")
_FIGURE_UNIT = re.compile(r"(\d) (" + "|".join(re.escape(u) for u in UNITS) + r")(?![\w])")
_LABEL_FIGURE = re.compile(r"(:) ([+\-−±]?\d)")
#: A key hint: a key of one short word, its colon, what it does ("Esc: salir", "Échap : quitter").
_KEY_HINT = re.compile(r"(?:(?<=^)|(?<=[\s\u00a0]))([^\W\d_]{1,5}(?:/\w{1,7})?[ \u00a0\u202f]?:) (?=\w)")
_SEPARATOR = re.compile(r" · ")
_FR_A = re.compile(r"(?<![\w’'])(à) ")
#: The start signal with the article before it: French "le TOP", Spanish "el ¡YA!".
_SIGNAL = {"fr": re.compile(r"(?<![\w’'])(le|au|du) (TOP)\b"),
           "es": re.compile(r"(?<![\w’'])(el|del|al) (¡YA!)")}

_FR_TIGHT = re.compile(r"(?<=[^\s\u00a0\u202f(\[«])([;!?])")   # "Pris!" -> "Pris !"
_FR_TIGHT_COLON = re.compile(r"(?<=[^\s\u00a0\u202f(\[«\d])(:)(?=\s|$)")  # "Gardien: Bea"
_FR_BEFORE_NARROW = re.compile(r"[ \u00a0]+([;!?])")
_FR_BEFORE_COLON = re.compile(r"[ \u202f]+(:)")
_FR_BEFORE_CLOSE = re.compile(r"[ \u202f]+(»)")
_FR_AFTER_OPEN = re.compile(r"(«)[ \u202f]+")
_FR_TIGHT_OPEN = re.compile(r"«(?=[^\s\u00a0\u202f])")     # "«Ali»", a name quoted in code
_FR_TIGHT_CLOSE = re.compile(r"(?<=[^\s\u00a0\u202f])»")
_FR_NUMERO = re.compile(r"(?<!\w)([nN][°º]) ?(?=\d)")          # "n° 3", "n°3"


def keep_figures(text: str) -> str:
    """``text`` with no-break spaces between a figure and its unit, and after a label's colon
    before a figure."""
    return _LABEL_FIGURE.sub(r"\1" + NBSP + r"\2", _FIGURE_UNIT.sub(r"\1" + NBSP + r"\2", text))


def french(text: str) -> str:
    """``text`` set in French: narrow no-break space before ``; ! ?``, no-break space before
    ``:`` and inside « », a missing space added. "?!" and "!!" stay together; a URL's or a
    time's colon ("https://", "12:30") is left alone."""
    text = _FR_TIGHT.sub(NNBSP + r"\1", text)
    text = _FR_TIGHT_COLON.sub(NBSP + r"\1", text)
    text = _FR_BEFORE_NARROW.sub(NNBSP + r"\1", text)
    text = _FR_BEFORE_COLON.sub(NBSP + r"\1", text)
    text = _FR_BEFORE_CLOSE.sub(NBSP + r"\1", text)
    text = _FR_AFTER_OPEN.sub(r"\1" + NBSP, text)
    text = _FR_TIGHT_OPEN.sub("«" + NBSP, text)
    text = _FR_TIGHT_CLOSE.sub(NBSP + "»", text)
    text = _FR_NUMERO.sub(r"\1" + NBSP, text)
    # Two marks in a row ("?!", "! ?") belong together: no space between them.
    return re.sub(r"([;!?])\u202f(?=[!?])", r"\1", text)


def keep_together(lang: str, text: str) -> str:
    """``text`` with no-break spaces where a line must not break: after a key hint's key, before
    a " · " separator, between the start signal and its article, after French "à"."""
    text = _KEY_HINT.sub(r"\1" + NBSP, text)
    text = _SEPARATOR.sub(NBSP + "· ", text)
    signal = _SIGNAL.get(lang)
    if signal is not None:
        text = signal.sub(r"\1" + NBSP + r"\2", text)
    if lang == "fr":
        text = _FR_A.sub(r"\1" + NBSP, text)
    return text


_ES_OPEN = {"!": "¡", "?": "¿"}
_ES_ONE_CLAUSE = re.compile(r"[^.!?¡¿:;]+[!?]")


#: "y" before an i sound is "e" ("Bea e Ignacio", "Ana e Hilda"; not "y hielo", "y Yolanda"),
#: "o" before an o sound is "u" ("Ana u Óscar"). A list joined in code meets its names here.
_ES_Y = re.compile(r"(?<![\w’'])([yY])([ \u00a0])(?=[hH]?[iIíÍ](?![aeouáéóúAEOUÁÉÓÚ]))")
_ES_O = re.compile(r"(?<![\w’'])([oO])([ \u00a0])(?=[hH]?[oOóÓ])")


def spanish_conjunctions(text: str) -> str:
    """``text`` with "y"/"o" turned to "e"/"u" where the next word asks for it."""
    text = _ES_Y.sub(lambda m: ("e" if m.group(1) == "y" else "E") + m.group(2), text)
    return _ES_O.sub(lambda m: ("u" if m.group(1) == "o" else "U") + m.group(2), text)


def spanish(text: str) -> str:
    """``text`` set in Spanish: "e"/"u" for "y"/"o" before an i/o sound, and the opening mark a
    one-clause exclamation or question built in code left out ("Cucaracha 3!" -> "¡Cucaracha
    3!"); the catalog writes its own."""
    text = spanish_conjunctions(text)
    stripped = text.strip()
    if _ES_ONE_CLAUSE.fullmatch(stripped):
        start = len(text) - len(text.lstrip())
        return text[:start] + _ES_OPEN[stripped[-1]] + text[start:]
    return text


def typeset(lang: str, text: str) -> str:
    """``text`` as it is shown in ``lang``."""
    text = keep_together(lang, keep_figures(text))
    if lang == "es":
        return spanish(text)
    return french(text) if lang == "fr" else text
