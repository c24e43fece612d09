"""The race judge, one edge at a time: a step's cost does not grow with the edges already seen.

``judge()`` sorts and re-reads every edge of a race, so a table that re-judged on every edge
paid for the whole race again each time: a chattering button (thousands of edges) stalled it.
:class:`LiveJudge` keeps, per seat, exactly what ``judge()`` derives from that seat's edges —
the debounce lockout, the last edges before GO (a button held at GO), the accepted presses
between arming and GO (false starts) and the seat's first valid press — and folds each new edge
into it. :meth:`LiveJudge.verdict` then decides from at most one press per seat.

The verdict is ``judge()``'s result without the two evidence lists that grow with the edges
(``false_starts`` and ``ignored``; :meth:`LiveJudge.false_start_count` gives the first one's
length). When the verdict is decided, :meth:`LiveJudge.result` runs ``judge()`` once over the
whole log for the full evidence. The tests prove, on random edge streams with bounce, chatter,
releases, false starts and ties, that every verdict equals ``judge()``'s on the same edges.

Edges may arrive in any order across seats. An edge older than its own seat's last edge (which
no adapter sends: each stamps a seat's edges in order) makes that one seat be folded again from
the log: correct, and the only case whose cost grows with the race.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .errors import BadRace
from .inputs import Press, Release
from .judge import (
    Edge, RaceResult, RaceSpec, Status, _decide_cockroach, _decide_slap, _is_int, _order_key, _ranking,
    judge,
)
from .race import RaceKind


class EdgeLog:
    """An append-only log of edges that shares its past: ``log.add(edge)`` is a new log in O(1)
    and the old one still reads as before (a table's earlier states stay valid).

    Iterating yields the edges in the order they were added. Equality, hash and repr walk the
    log without recursion, so a log of a million edges compares and prints safely.
    """

    __slots__ = ("_last", "_before", "_size")

    def __init__(self, last: Edge | None = None, before: EdgeLog | None = None) -> None:
        self._last = last
        self._before = before
        self._size = 0 if last is None else (before._size if before is not None else 0) + 1

    def add(self, edge: Edge) -> EdgeLog:
        return EdgeLog(edge, self)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Edge]:
        backwards: list[Edge] = []
        node: EdgeLog | None = self
        while node is not None and node._last is not None:
            backwards.append(node._last)
            node = node._before
        return reversed(backwards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EdgeLog):
            return NotImplemented
        return self is other or (self._size == other._size and tuple(self) == tuple(other))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EdgeLog({len(self)} edges, last {self._last!r})"

    @staticmethod
    def of(edges: Iterable[Edge]) -> EdgeLog:
        log = EMPTY_LOG
        for edge in edges:
            log = log.add(edge)
        return log


EMPTY_LOG = EdgeLog()


@dataclass(frozen=True, slots=True)
class _Seat:
    """What one seat's edges (in time order) amount to, as ``judge()`` would find it."""

    last_key: tuple[int, int] | None = None  # the order key of the seat's latest edge
    accepted_t_ns: int | None = None         # the last edge the debounce accepted
    pre_accepted: Edge | None = None         # the last accepted edge before GO
    pre_raw: Edge | None = None              # the last edge of any kind before GO
    window_presses: int = 0                  # accepted presses from arming to GO: false starts
    first: Press | None = None               # the seat's valid press


def _seat_key(edge: Edge) -> tuple[int, int]:
    # judge()'s order within one seat: by time, a press before a release at the same instant.
    return (edge.t_ns, 0 if isinstance(edge, Press) else 1)


def _held_at_go(seat: _Seat, spec: RaceSpec) -> Edge | None:
    """judge._held_at_go from the two remembered edges (the seat's edges before GO are final)."""
    last = seat.pre_accepted
    if last is None:
        return None
    resting = last if spec.go_t_ns - last.t_ns < spec.lockout_ns else seat.pre_raw
    if not isinstance(resting, Press):
        return None
    return last if isinstance(last, Press) else resting


def _false_starts(seat: _Seat, spec: RaceSpec, now_t_ns: int) -> int:
    # Before GO nobody can know whether a button will still be down at GO (as in judge()).
    held = _held_at_go(seat, spec) if now_t_ns >= spec.go_t_ns else None
    if held is None:
        return seat.window_presses
    # A held button is one more false start unless it is an accepted press already counted
    # among the window's presses (accepted before arming, it counts once, as the held one).
    counted = held is seat.pre_accepted and held.t_ns >= spec.armed_t_ns
    return seat.window_presses + (0 if counted else 1)


def _fold(seat: _Seat, edge: Edge, spec: RaceSpec) -> _Seat:
    """The seat after one more edge, not earlier than its last one."""
    t = edge.t_ns
    accepted = seat.accepted_t_ns is None or t - seat.accepted_t_ns >= spec.lockout_ns
    key = _seat_key(edge)
    accepted_t_ns = t if accepted else seat.accepted_t_ns
    if t < spec.go_t_ns:
        window = accepted and isinstance(edge, Press) and t >= spec.armed_t_ns
        return _Seat(key, accepted_t_ns, edge if accepted else seat.pre_accepted, edge,
                     seat.window_presses + (1 if window else 0), seat.first)
    first = seat.first
    # judge._why_not_valid for a press at or after GO (this edge's time is at most "now", so
    # the held-at-GO check applies, as it does in judge()).
    if (accepted and first is None and isinstance(edge, Press)
            and not (spec.kind is RaceKind.COCKROACH and _false_starts(seat, spec, t) > 0)
            and edge.player not in spec.voided and t < spec.deadline_t_ns):
        first = edge
    return _Seat(key, accepted_t_ns, seat.pre_accepted, seat.pre_raw, seat.window_presses, first)


@dataclass(frozen=True, slots=True)
class LiveJudge:
    """One race judged edge by edge. ``seats[p]`` is None for a seat that does not race."""

    spec: RaceSpec
    seats: tuple[_Seat | None, ...]
    log: EdgeLog
    latest_t_ns: int

    @staticmethod
    def start(spec: RaceSpec, edges: Iterable[Edge] = ()) -> LiveJudge:
        """A judge for ``spec`` with ``edges`` (any order) already seen."""
        live = LiveJudge(spec, tuple(_Seat() if p in spec.eligible else None for p in range(spec.players)),
                         EMPTY_LOG, spec.armed_t_ns)
        for edge in edges:
            live = live.add(edge)
        return live

    def add(self, edge: Edge) -> LiveJudge:
        """The judge with one more edge; raises :class:`BadRace` for an edge ``judge()`` refuses."""
        spec = self.spec
        if not isinstance(edge, (Press, Release)):
            raise BadRace(f"edge {edge!r} is not valid: give Press or Release records")
        if edge.clock != spec.clock:
            raise BadRace(f"edge {edge!r} is on clock {edge.clock!r}, not the race clock {spec.clock!r}: "
                          "times from different clocks cannot be compared")
        if not _is_int(edge.player) or not 0 <= edge.player < spec.players:
            raise BadRace(f"edge {edge!r} names seat {edge.player}, outside the {spec.players}-player table: "
                          f"use seats 0 to {spec.players - 1}")
        log = self.log.add(edge)
        latest = max(self.latest_t_ns, edge.t_ns)
        seat = self.seats[edge.player]
        if seat is None:
            return LiveJudge(spec, self.seats, log, latest)  # not racing: the edge is only evidence
        if seat.last_key is not None and _seat_key(edge) < seat.last_key:
            seat = self._refold(edge.player, log)
        else:
            seat = _fold(seat, edge, spec)
        seats = self.seats[:edge.player] + (seat,) + self.seats[edge.player + 1:]
        return LiveJudge(spec, seats, log, latest)

    def _refold(self, player: int, log: EdgeLog) -> _Seat:
        """The seat folded again from the log, in judge()'s order (stable: equal keys keep the
        order they arrived in)."""
        seat = _Seat()
        for edge in sorted((e for e in log if e.player == player), key=_seat_key):
            seat = _fold(seat, edge, self.spec)
        return seat

    def _check_now(self, now_t_ns: int) -> None:
        spec = self.spec
        if not _is_int(now_t_ns) or now_t_ns < spec.armed_t_ns:
            raise BadRace(f"now_t_ns {now_t_ns!r} is not valid: judge at or after arming "
                          f"(armed_t_ns {spec.armed_t_ns})")
        if now_t_ns < self.latest_t_ns:
            raise BadRace(f"now_t_ns {now_t_ns} is before the latest edge at {self.latest_t_ns}: "
                          "an edge cannot come from the future")

    def verdict(self, now_t_ns: int) -> RaceResult:
        """``judge(spec, log, now_t_ns)`` without ``false_starts`` and ``ignored`` (left empty)."""
        self._check_now(now_t_ns)
        spec = self.spec
        firsts = sorted((seat.first for seat in self.seats if seat is not None and seat.first is not None),
                        key=lambda press: _order_key(press, spec.players))
        ranking = _ranking(firsts, spec.go_t_ns)
        pressed = {placing.player for placing in ranking}
        no_press = tuple(sorted(s for s in spec.eligible if s not in pressed and s not in spec.voided))
        base = RaceResult(status=Status.PENDING, winner=None, loser=None, tied=(), rerace=False,
                          ranking=ranking, no_press=no_press, false_starts=(), ignored=(), reason="")
        if spec.kind is RaceKind.SLAP:
            return _decide_slap(spec, now_t_ns, base)
        return _decide_cockroach(spec, now_t_ns, base)

    def false_start_count(self, now_t_ns: int) -> int:
        """``len(judge(spec, log, now_t_ns).false_starts)``."""
        self._check_now(now_t_ns)
        return sum(_false_starts(seat, self.spec, now_t_ns) for seat in self.seats if seat is not None)

    def result(self, now_t_ns: int) -> RaceResult:
        """The full result with its evidence: ``judge()`` over the whole log (once per decision)."""
        return judge(self.spec, self.log, now_t_ns)
