"""Race documents for ``cheating-moth judge``: a decoded JSON object in, a JSON-ready dict out.

Pure: the caller reads the file and decodes the JSON; this module checks every field and
names the first bad one, so a recorded race can be judged again offline.

Times are integers only. JSON numbers with a fraction decode as floats, and a float cannot
carry the nanoseconds of a clock that has run for months, so they are refused, as are
``true``/``false`` where a number belongs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from .errors import BadRace
from .inputs import Press, Release
from .judge import RaceResult, RaceSpec, TiePolicy, default_eligible, judge
from .race import RaceKind

NS_PER_MS = 1_000_000

Edge = Press | Release
T = TypeVar("T")

REQUIRED = (
    "kind", "players", "active", "clock", "resolution_ns", "armed_t_ns", "go_t_ns", "timeout_ms",
    "now_t_ns", "edges",
)
OPTIONAL = ("eligible", "lockout_ms", "settle_ms", "voided", "tie_policy", "seed")
EDGE_FIELDS = ("player", "edge", "t_ns")

# What each whole-number field accepts: (unit, minimum). ``*_ms`` fields become nanoseconds.
_WHOLE = {
    "players": ("", 3),
    "active": ("", 0),
    "resolution_ns": ("nanoseconds", 1),
    "armed_t_ns": ("nanoseconds", 0),
    "go_t_ns": ("nanoseconds", 0),
    "now_t_ns": ("nanoseconds", 0),
    "timeout_ms": ("milliseconds", 1),
    "lockout_ms": ("milliseconds", 0),
    "settle_ms": ("milliseconds", 0),
}


def _words(options: tuple[str, ...]) -> str:
    quoted = [repr(option) for option in options]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _whole(doc: Mapping[str, object], name: str) -> int:
    value = doc[name]
    unit, minimum = _WHOLE[name]
    if type(value) is not int or value < minimum:
        what = f"a whole number of {unit}" if unit else "a whole number"
        raise BadRace(f"field {name!r} is {value!r}: use {what}, {minimum} or more")
    return value


def _choice(doc: Mapping[str, object], name: str, parse: Callable[[str], T], options: tuple[str, ...]) -> T:
    value = doc[name]
    if not isinstance(value, str) or value not in options:
        raise BadRace(f"field {name!r} is {value!r}: use {_words(options)}")
    return parse(value)


def _seats(doc: Mapping[str, object], name: str) -> tuple[int, ...]:
    value = doc[name]
    # Whether each seat exists is RaceSpec's check; here only the shape and the types.
    if not isinstance(value, list) or any(type(seat) is not int for seat in value):
        raise BadRace(f"field {name!r} is {value!r}: use a list of seat numbers, e.g. [1, 2, 3]")
    return tuple(value)


def _check_fields(doc: object) -> Mapping[str, object]:
    if not isinstance(doc, dict):
        raise BadRace(f"a race document must be a JSON object, not {type(doc).__name__}: see 'cheating-moth judge -h'")
    for name in doc:
        if name not in REQUIRED and name not in OPTIONAL:
            raise BadRace(f"unknown field {name!r}: use only {', '.join(REQUIRED + OPTIONAL)}")
    for name in REQUIRED:
        if name not in doc:
            raise BadRace(f"missing field {name!r}: a race document needs {', '.join(REQUIRED)}")
    return doc


def parse_spec(doc: object) -> RaceSpec:
    """The race description of a document (everything but ``now_t_ns`` and ``edges``)."""
    fields = _check_fields(doc)
    kind = _choice(fields, "kind", RaceKind, tuple(k.value for k in RaceKind))
    players = _whole(fields, "players")
    active = _whole(fields, "active")
    optional = {
        "lockout_ns": _whole(fields, "lockout_ms") * NS_PER_MS if "lockout_ms" in fields else None,
        "settle_ns": _whole(fields, "settle_ms") * NS_PER_MS if "settle_ms" in fields else None,
        "tie_policy": (
            _choice(fields, "tie_policy", TiePolicy, tuple(p.value for p in TiePolicy)) if "tie_policy" in fields else None
        ),
        "seed": _seed(fields) if "seed" in fields else None,
        "voided": _seats(fields, "voided") if "voided" in fields else None,
    }
    clock = fields["clock"]
    if not isinstance(clock, str) or not clock:
        raise BadRace(f"field 'clock' is {clock!r}: name the clock domain, e.g. 'monotonic'")
    # default_eligible checks players and active itself, before they are used to build seats.
    eligible = _seats(fields, "eligible") if "eligible" in fields else default_eligible(kind, players, active)
    return RaceSpec(
        kind=kind,
        players=players,
        active=active,
        eligible=eligible,
        clock=clock,
        resolution_ns=_whole(fields, "resolution_ns"),
        armed_t_ns=_whole(fields, "armed_t_ns"),
        go_t_ns=_whole(fields, "go_t_ns"),
        timeout_ns=_whole(fields, "timeout_ms") * NS_PER_MS,
        **{name: value for name, value in optional.items() if value is not None},  # type: ignore[arg-type]
    )


def _seed(doc: Mapping[str, object]) -> int:
    seed = doc["seed"]
    if type(seed) is not int:
        raise BadRace(f"field 'seed' is {seed!r}: use a whole number")
    return seed


def parse_edges(doc: Mapping[str, object], spec: RaceSpec) -> tuple[Edge, ...]:
    """The ``edges`` list of a document, on the race's clock."""
    items = doc["edges"]
    if not isinstance(items, list):
        raise BadRace(f"field 'edges' is {items!r}: use a list of {{\"player\", \"edge\", \"t_ns\"}} objects")
    return tuple(_parse_edge(index, item, spec) for index, item in enumerate(items))


def _parse_edge(index: int, item: object, spec: RaceSpec) -> Edge:
    where = f"edges[{index}]"
    if not isinstance(item, dict):
        raise BadRace(f"{where} is {item!r}: use an object with 'player', 'edge' and 't_ns'")
    for name in item:
        if name not in EDGE_FIELDS:
            raise BadRace(f"{where} has unknown field {name!r}: use only 'player', 'edge' and 't_ns'")
    for name in EDGE_FIELDS:
        if name not in item:
            raise BadRace(f"{where} has no {name!r}: each edge needs 'player', 'edge' and 't_ns'")
    player, kind, t_ns = item["player"], item["edge"], item["t_ns"]
    if type(player) is not int or not 0 <= player < spec.players:
        raise BadRace(f"{where}.player is {player!r}: use a seat number from 0 to {spec.players - 1}")
    if kind not in ("press", "release"):
        raise BadRace(f"{where}.edge is {kind!r}: use 'press' or 'release'")
    if type(t_ns) is not int or t_ns < 0:
        raise BadRace(f"{where}.t_ns is {t_ns!r}: use a whole number of nanoseconds, 0 or more")
    return (Press if kind == "press" else Release)(player, t_ns, spec.clock)


def parse_race(doc: object) -> tuple[RaceSpec, tuple[Edge, ...], int]:
    """``(spec, edges, now_t_ns)`` from a decoded race document; BadRace names the first bad field."""
    spec = parse_spec(doc)
    fields = _check_fields(doc)
    return spec, parse_edges(fields, spec), _whole(fields, "now_t_ns")


def judge_document(doc: object) -> RaceResult:
    """Parse a race document and judge it."""
    spec, edges, now_t_ns = parse_race(doc)
    return judge(spec, edges, now_t_ns)


def _edge_json(edge: Edge) -> dict[str, object]:
    return {"player": edge.player, "edge": "press" if isinstance(edge, Press) else "release", "t_ns": edge.t_ns}


def result_to_json(result: RaceResult) -> dict[str, object]:
    """A RaceResult as plain JSON values (seats, integer nanoseconds, strings, lists)."""
    return {
        "status": result.status.value,
        "winner": result.winner,
        "loser": result.loser,
        "tied": list(result.tied),
        "rerace": result.rerace,
        "ranking": [
            {"player": p.player, "reaction_ns": p.reaction_ns, "t_ns": p.t_ns, "gap_ns": p.gap_ns}
            for p in result.ranking
        ],
        "no_press": list(result.no_press),
        "false_starts": [
            {"player": f.player, "t_ns": f.t_ns, "held_at_go": f.held_at_go} for f in result.false_starts
        ],
        "ignored": [_edge_json(i.edge) | {"why": i.why} for i in result.ignored],
        "reason": result.reason,
        "recheck_t_ns": result.recheck_t_ns,
    }
