"""Race documents for ``cheating-moth judge``: a decoded JSON object in, a JSON-ready dict out.

Pure: the caller reads the file and decodes the JSON; this module checks every field and
names the first bad one, so a recorded race can be judged again offline.

Times are integers only. JSON numbers with a fraction decode as floats, and a float cannot
carry the nanoseconds of a clock that has run for months, so they are refused, as are
``true``/``false`` where a number belongs.

Bounds (issue 12): a document is at most :data:`MAX_DOCUMENT_BYTES` (1 MiB) and
:data:`MAX_EDGES` (10,000) edges, far beyond a real race (five seats, a few bounces each);
every number has a range (times fit 64 bits), so no message or result can grow without bound.
``clock`` must be one of the clock domains the rig has (:data:`CLOCKS`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from .bounded import show
from .errors import BadRace
from .inputs import Press, Release
from .judge import (
    DEFAULT_LOCKOUT_NS,
    DEFAULT_SETTLE_NS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RaceResult,
    RaceSpec,
    TiePolicy,
    default_eligible,
    judge,
)
from .race import RaceKind

NS_PER_MS = 1_000_000

Edge = Press | Release

REQUIRED = (
    "kind", "players", "active", "clock", "resolution_ns", "armed_t_ns", "go_t_ns", "timeout_ms",
    "now_t_ns", "edges",
)
OPTIONAL = ("eligible", "lockout_ms", "settle_ms", "voided", "tie_policy", "seed")
EDGE_FIELDS = ("player", "edge", "t_ns")

#: The clock domains the rig stamps edges on: the buzzer board's tick counter
#: (firmware_host/boardlink/rig.py), the Pi's CLOCK_MONOTONIC (GPIO and keyboard input,
#: firmware_host/records.py) and simulated players (firmware_host/simplayers.py).
CLOCKS = ("board", "monotonic", "sim")

MAX_DOCUMENT_BYTES = 1 << 20
MAX_EDGES = 10_000
#: Times are nanoseconds that fit a signed 64-bit integer (292 years of a clock).
MAX_T_NS = 2**63 - 1
MAX_TIMEOUT_MS = 600_000  # ten minutes; the rig's own races time out after at most 30 s
MAX_WINDOW_MS = 60_000  # lockout and settle windows: the rig's are 25 ms and 50 ms
MAX_RESOLUTION_NS = 1_000_000_000  # a tie window of a second already makes every race a tie

# Whole-number fields: (minimum, maximum or None, what would be valid). The seat fields' upper
# bound depends on ``players`` and is RaceSpec's check. ``*_ms`` fields become nanoseconds.
_WHOLE: dict[str, tuple[int, int, str]] = {
    "players": (MIN_PLAYERS, MAX_PLAYERS, f"a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}"),
    # active's upper bound is the table's (RaceSpec names it); this one only keeps it short.
    "active": (0, MAX_T_NS, "the seat number of the player who played the card, 0 or more"),
    "resolution_ns": (1, MAX_RESOLUTION_NS, f"a whole number of nanoseconds from 1 to {MAX_RESOLUTION_NS}"),
    "armed_t_ns": (0, MAX_T_NS, f"a whole number of nanoseconds from 0 to {MAX_T_NS}"),
    "go_t_ns": (0, MAX_T_NS, f"a whole number of nanoseconds from 0 to {MAX_T_NS}"),
    "now_t_ns": (0, MAX_T_NS, f"a whole number of nanoseconds from 0 to {MAX_T_NS}"),
    "timeout_ms": (1, MAX_TIMEOUT_MS, f"a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}"),
    "lockout_ms": (0, MAX_WINDOW_MS, f"a whole number of milliseconds from 0 to {MAX_WINDOW_MS}"),
    "settle_ms": (0, MAX_WINDOW_MS, f"a whole number of milliseconds from 0 to {MAX_WINDOW_MS}"),
    "seed": (-(2**63), 2**63 - 1, "a whole number that fits 64 bits"),
}

_SHOW_CHARS = 40


def _show(value: object) -> str:
    """A value from the document for a one-line message, shortened: a document can be huge."""
    return show(value, _SHOW_CHARS)


def _words(options: tuple[str, ...]) -> str:
    quoted = [repr(option) for option in options]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _whole(doc: Mapping[str, object], name: str, default: int | None = None) -> int:
    if name not in doc and default is not None:
        return default
    value = doc[name]
    minimum, maximum, valid = _WHOLE[name]
    # type() rather than isinstance(): JSON true/false decode as bool, a subclass of int.
    if type(value) is not int or not minimum <= value <= maximum:
        raise BadRace(f"field {_show(name)} is {_show(value)}: use {valid}")
    return value


def _tie_policy(doc: Mapping[str, object]) -> TiePolicy:
    value = doc.get("tie_policy", TiePolicy.RERACE.value)
    options = tuple(policy.value for policy in TiePolicy)
    if not isinstance(value, str) or value not in options:
        raise BadRace(f"field 'tie_policy' is {_show(value)}: use {_words(options)}")
    return TiePolicy(value)


def _seats(doc: Mapping[str, object], name: str) -> tuple[int, ...]:
    value = doc[name]
    # Whether each seat is at the table and named once is RaceSpec's check; here the shape,
    # the types and the length, so that RaceSpec's messages quoting the seats stay short.
    if not isinstance(value, list) or len(value) > MAX_PLAYERS or any(type(seat) is not int for seat in value):
        raise BadRace(f"field {_show(name)} is {_show(value)}: use a list of seat numbers, each once, e.g. [1, 2, 3]")
    return tuple(value)


def _check_fields(doc: object) -> Mapping[str, object]:
    if not isinstance(doc, dict):
        raise BadRace(f"the race document is a JSON {type(doc).__name__}, not an object: use {{\"kind\": ...}}")
    for name in doc:
        if name not in REQUIRED and name not in OPTIONAL:
            raise BadRace(_unknown(name))
    for name in REQUIRED:
        if name not in doc:
            raise BadRace(f"missing field {_show(name)}: a race document needs {', '.join(REQUIRED)}")
    return doc


def _unknown(name: str) -> str:
    """The message for an unknown field: the likely meant one, else the optional ones (a missing
    required field is named by its own message)."""
    close = difflib.get_close_matches(name[:40], REQUIRED + OPTIONAL, n=1)
    if close:
        return f"unknown field {_show(name)}: use {close[0]!r}"
    return (f"unknown field {_show(name)}: besides the {len(REQUIRED)} required fields a race document may have "
            f"only {_words(OPTIONAL)}")


def _parse_spec(fields: Mapping[str, object]) -> RaceSpec:
    kind = fields["kind"]
    if not isinstance(kind, str) or kind not in ("slap", "cockroach"):
        raise BadRace(f"field 'kind' is {_show(kind)}: use 'slap' or 'cockroach'")
    race_kind = RaceKind(kind)
    clock = fields["clock"]
    if not isinstance(clock, str) or clock not in CLOCKS:
        raise BadRace(f"field 'clock' is {_show(clock)}: use the clock the edges were stamped on, {_words(CLOCKS)}")
    players, active = _whole(fields, "players"), _whole(fields, "active")
    # default_eligible refuses an active seat outside the table, naming it.
    eligible = _seats(fields, "eligible") if "eligible" in fields else default_eligible(race_kind, players, active)
    return RaceSpec(
        kind=race_kind,
        players=players,
        active=active,
        eligible=eligible,
        clock=clock,
        resolution_ns=_whole(fields, "resolution_ns"),
        armed_t_ns=_whole(fields, "armed_t_ns"),
        go_t_ns=_whole(fields, "go_t_ns"),
        timeout_ns=_whole(fields, "timeout_ms") * NS_PER_MS,
        lockout_ns=_whole(fields, "lockout_ms", DEFAULT_LOCKOUT_NS // NS_PER_MS) * NS_PER_MS,
        settle_ns=_whole(fields, "settle_ms", DEFAULT_SETTLE_NS // NS_PER_MS) * NS_PER_MS,
        tie_policy=_tie_policy(fields),
        seed=_whole(fields, "seed", 0),
        voided=_seats(fields, "voided") if "voided" in fields else (),
    )


def _parse_edges(doc: Mapping[str, object], spec: RaceSpec) -> tuple[Edge, ...]:
    """The ``edges`` list of a document, on the race's clock."""
    items = doc["edges"]
    if not isinstance(items, list):
        raise BadRace(f"field 'edges' is {_show(items)}: use a list of {{\"player\", \"edge\", \"t_ns\"}} objects")
    if len(items) > MAX_EDGES:
        raise BadRace(f"field 'edges' has {len(items):,} edges: a race document holds at most {MAX_EDGES:,}")
    return tuple(_parse_edge(index, item, spec) for index, item in enumerate(items))


def _parse_edge(index: int, item: object, spec: RaceSpec) -> Edge:
    where = f"edges[{index}]"
    if not isinstance(item, dict):
        raise BadRace(f"{where} is {_show(item)}: use an object with 'player', 'edge' and 't_ns'")
    for name in item:
        if name not in EDGE_FIELDS:
            raise BadRace(f"{where} has unknown field {_show(name)}: use only 'player', 'edge' and 't_ns'")
    for name in EDGE_FIELDS:
        if name not in item:
            raise BadRace(f"{where} has no {_show(name)}: each edge needs 'player', 'edge' and 't_ns'")
    player, kind, t_ns = item["player"], item["edge"], item["t_ns"]
    if type(player) is not int or not 0 <= player < spec.players:
        raise BadRace(f"{where}.player is {_show(player)}: use a seat number from 0 to {spec.players - 1}")
    if kind not in ("press", "release"):
        raise BadRace(f"{where}.edge is {_show(kind)}: use 'press' or 'release'")
    if type(t_ns) is not int or not 0 <= t_ns <= MAX_T_NS:
        raise BadRace(f"{where}.t_ns is {_show(t_ns)}: use a whole number of nanoseconds from 0 to {MAX_T_NS}")
    return (Press if kind == "press" else Release)(player, t_ns, spec.clock)


def parse_race(doc: object) -> tuple[RaceSpec, tuple[Edge, ...], int]:
    """``(spec, edges, now_t_ns)`` from a decoded race document; BadRace names the first bad field."""
    fields = _check_fields(doc)
    spec = _parse_spec(fields)
    return spec, _parse_edges(fields, spec), _whole(fields, "now_t_ns")


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
