"""Words that agree with a number: ``{moths|moth|moths}`` in a catalog entry.

The entry names the number's parameter and the singular and plural forms; :func:`choose`
keeps the one the number takes in the language before the entry is filled in. French counts
0 and 1 as singular ("0 carte", "1 carte"), English, German and Spanish only 1; Korean has no
plural form to choose (a counter word follows the number), so its entries do not use this.
"""

from __future__ import annotations

import re

_FORMS = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def singular(lang: str, n: int) -> bool:
    return n in (0, 1) if lang == "fr" else n == 1


def choose(lang: str, template: str, params: dict[str, str | int]) -> str:
    """``template`` with each ``{name|one|many}`` replaced by the form ``params[name]`` takes."""
    if "|" not in template:
        return template

    def form(match: re.Match[str]) -> str:
        value = params.get(match.group(1))
        one, many = match.group(2), match.group(3)
        if isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)
        chosen = one if isinstance(value, int) and singular(lang, value) else many
        # Braces in a form would be read as fields by str.format; the forms are plain words.
        return chosen.replace("{", "{{").replace("}", "}}")

    return _FORMS.sub(form, template)
