"""The rig's config file (TOML): house rules and the deck, validated with clear messages.

```toml
[rules]                 # any subset; defaults as in RULES.md
guard-next-round = "keep"
top-tie = "fewest-moths"

[deck.spread]           # a café's printed deck: counts for the numbers 1-5 per kind
number = [9, 8, 9, 8, 9]
# ... every kind ...
[deck.totals]           # only for a house deck that is not 71 cards
```
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .bounded import BadInput, label, load_toml, read_toml_file
from .deck import DEFAULT_DECK, deck_from_mapping
from .engine.state import HAND_SIZE, MAX_PLAYERS
from .errors import BadConfig
from .variants import Rules, rules_from_mapping

_SECTIONS = ("rules", "deck")


#: The most a config file may hold (the same cap as the café's config, game/app/rigconfig.py).
MAX_CONFIG_BYTES = 256 * 1024


def load_rules(path: str | Path) -> Rules:
    """Read a config file; raise :class:`BadConfig` / ``BadDeck`` naming the bad key or value.
    Reading is bounded (game/bounded.py): size, UTF-8, nesting and number length."""
    try:
        data = read_toml_file(path, MAX_CONFIG_BYTES, f"config file {label(path)}")
    except BadInput as exc:
        raise BadConfig(str(exc)) from None
    return rules_from_config(data, where=str(path))


def rules_from_toml(text: str, where: str = "config") -> Rules:
    try:
        data = load_toml(text, where)
    except BadInput as exc:
        raise BadConfig(str(exc)) from None
    return rules_from_config(data, where)


def rules_from_config(data: dict[str, Any], where: str = "config") -> Rules:
    for key in data:
        if key not in _SECTIONS:
            raise BadConfig(f"{where} has unknown section [{key}]: use {', '.join(f'[{s}]' for s in _SECTIONS)}")
    deck = DEFAULT_DECK
    deck_table = data.get("deck")
    if deck_table is not None:
        if not isinstance(deck_table, dict) or "spread" not in deck_table:
            raise BadConfig(f"{where} [deck] needs a [deck.spread] table with five counts per kind")
        extra = set(deck_table) - {"spread", "totals"}
        if extra:
            raise BadConfig(f"{where} [deck] has unknown key {sorted(extra)[0]!r}: use spread and totals")
        deck = deck_from_mapping(deck_table["spread"], deck_table.get("totals"), where=f"{where} deck")
        needed = HAND_SIZE * MAX_PLAYERS + 1
        if deck.size < needed:
            raise BadConfig(f"{where} deck has {deck.size} cards: a table of up to {MAX_PLAYERS} players "
                            f"needs at least {needed} ({HAND_SIZE} each and a starter)")
    rules_table = data.get("rules", {})
    if not isinstance(rules_table, dict):
        raise BadConfig(f"{where} [rules] must be a table of variant = option")
    return rules_from_mapping(rules_table, deck, where=f"{where} [rules]")
