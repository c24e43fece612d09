"""Commands and events as one JSON line each, and back, exactly.

A record is a JSON object with ``"type"`` (the class name) and one key per field. Cards are
written as ``"mosquito 3"``, enums by their value, tuples as lists, rules as their variants and
deck spread. Decoding is strict: an unknown type, a missing or extra field, or a value of the
wrong type raises :class:`~game.errors.BadRecord` naming it. Nothing is guessed or coerced.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from typing import Any, NoReturn, Union

from .cards import Card
from .deck import deck_from_mapping
from .engine.commands import COMMAND_TYPES, Command
from .engine.events import EVENT_TYPES, Event
from .errors import BadRecord, GameError
from .variants import Rules, rules_from_mapping

Record = Command | Event

#: Type name -> class, for the records of a game log (engine commands and events).
RECORD_TYPES: dict[str, type[Any]] = {t.__name__: t for t in (*COMMAND_TYPES, *EVENT_TYPES)}


def is_command(record: object) -> bool:
    return isinstance(record, COMMAND_TYPES)


def to_dict(record: Any) -> dict[str, Any]:
    """The JSON-ready dict of a record (any frozen dataclass the decoder knows how to read)."""
    out: dict[str, Any] = {"type": type(record).__name__}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if f.metadata.get("omit_if_default") and value == f.default:
            continue  # a field added later: left out at its default, as older logs wrote it
        out[f.name] = _encode(value)
    return out


def dumps(record: Any) -> str:
    """One JSON line (no newline) for a record."""
    return json.dumps(to_dict(record), ensure_ascii=False, separators=(",", ":"))


def loads(line: str, types: dict[str, type[Any]] | None = None) -> Any:
    """Decode one JSON line; raises :class:`BadRecord` saying what is wrong.

    ``types`` is the registry of record classes by name (default: engine commands and events).
    """
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"not valid JSON ({exc.msg} at column {exc.colno}): each line must be one JSON object") from None
    return from_dict(data, types)


def from_dict(data: object, types: dict[str, type[Any]] | None = None) -> Any:
    """Decode a record dict (see :func:`loads`)."""
    registry = RECORD_TYPES if types is None else types
    if not isinstance(data, dict):
        raise BadRecord(f"record {data!r} is not a JSON object: each line must be an object with a 'type'")
    name = data.get("type")
    cls = registry.get(name) if isinstance(name, str) else None
    if cls is None:
        example = next(iter(registry))
        raise BadRecord(f"record type {name!r} is unknown: use a name such as {example!r}")
    hints = _hints(cls)
    extra = sorted(set(data) - set(hints) - {"type"})
    if extra:
        raise BadRecord(f"{name} has unknown field {extra[0]!r}: its fields are {', '.join(hints) or 'none'}")
    values: dict[str, Any] = {}
    optional = _OPTIONAL.get(cls)
    if optional is None:
        optional = _OPTIONAL[cls] = frozenset(
            f.name for f in dataclasses.fields(cls) if f.metadata.get("omit_if_default"))
    for field_name, hint in hints.items():
        if field_name not in data:
            if field_name in optional:
                continue  # written before the field existed, or at its default: the default
            raise BadRecord(f"{name} is missing field {field_name!r}")
        values[field_name] = _decode(data[field_name], hint, f"{name}.{field_name}")
    try:
        return cls(**values)
    except GameError as exc:
        raise BadRecord(f"{name}: {exc}") from None


_HINTS: dict[type[Any], dict[str, Any]] = {}
#: Fields marked ``metadata={"omit_if_default": True}``: added after logs were written, so
#: left out at their default when encoding and defaulted when a record lacks them.
_OPTIONAL: dict[type[Any], frozenset[str]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """Field name -> resolved type of a record class (resolved once; annotations are strings)."""
    hints = _HINTS.get(cls)
    if hints is None:
        resolved = typing.get_type_hints(cls)
        hints = _HINTS[cls] = {f.name: resolved[f.name] for f in dataclasses.fields(cls)}
    return hints


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Rules):
        return {"variants": value.variants(), "deck": value.deck.to_dict()}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_dict(value)  # a nested record (Undone.command)
    return value


def _decode(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        rest = [o for o in options if o is not type(None)]
        if len(rest) == 1:
            return _decode(value, rest[0], where)
        # The only wider union in a record is Command (Undone.command): a nested record.
        return _nested(value, rest, where)
    if origin is tuple:
        if not isinstance(value, list):
            return _bad(value, where, "a list")
        item = typing.get_args(hint)[0]
        return tuple(_decode(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if hint is bool:
        return value if type(value) is bool else _bad(value, where, "true or false")
    if hint is int:
        return value if type(value) is int else _bad(value, where, "a whole number")
    if hint is str:
        return value if isinstance(value, str) else _bad(value, where, "a string")
    if hint is Card:
        if not isinstance(value, str):
            return _bad(value, where, "a card such as 'ant 3'")
        return Card.parse(value)
    if hint is float:
        return value if type(value) in (int, float) else _bad(value, where, "a number")
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            return _bad(value, where, "one of " + ", ".join(repr(m.value) for m in hint))
    if hint is Rules:
        return _decode_rules(value, where)
    raise AssertionError(f"no decoder for {hint!r} at {where}")


def _nested(value: Any, options: list[Any], where: str) -> Any:
    record = from_dict(value)
    if not isinstance(record, tuple(options)):
        _bad(value, where, "a command record")
    return record


def _decode_rules(value: Any, where: str) -> Rules:
    if not isinstance(value, dict) or set(value) != {"variants", "deck"}:
        return _bad(value, where, "an object with 'variants' and 'deck'")
    spread = value["deck"]
    if not isinstance(spread, dict):
        return _bad(spread, f"{where}.deck", "an object of kind: [five counts]")
    # A logged deck was valid when written; its totals are its own sums.
    totals = {k: sum(v) for k, v in spread.items() if isinstance(v, list) and all(type(n) is int for n in v)}
    deck = deck_from_mapping(spread, totals, where=f"{where}.deck")
    variants = value["variants"]
    if not isinstance(variants, dict):
        return _bad(variants, f"{where}.variants", "an object of variant: option")
    return rules_from_mapping(variants, deck, where=f"{where}.variants")


def _bad(value: Any, where: str, expected: str) -> NoReturn:
    raise BadRecord(f"{where} is {value!r}: expected {expected}")
