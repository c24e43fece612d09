"""French typography: a no-break space before « : ; ! ? » and inside « ».

French sets a space before two-part punctuation and inside guillemets, and that space must
never break: a line that starts with ":" or "!" reads as a mistake. The catalog is written with
ordinary spaces (easy to type and review); :func:`french` makes them no-break after the catalog
entry is filled in, so player names and figures get the same treatment. The screen's wrapper
breaks lines only at ordinary spaces, and the font draws the no-break space as a space.
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
_BEFORE = re.compile(r" +([:;!?»])")
_AFTER = re.compile(r"(«) +")


def french(text: str) -> str:
    """``text`` with the spaces before ``: ; ! ? »`` and after ``«`` made no-break."""
    return _AFTER.sub(r"\1" + NBSP, _BEFORE.sub(NBSP + r"\1", text))
