"""The race judge: who slapped the mosquito last, who laid a card on the cockroach first.

``judge(spec, edges, now_t_ns)`` is a pure function of the race description, the button edges
seen so far (in any order) and the current time on the race's clock. It reads no clock and uses
no global random generator, so the same input always gives the same decision, and a decision
can be replayed from the event log.

Everything is integer nanoseconds in one clock domain: a float of seconds cannot hold
nanoseconds on a clock that has run for months, and two clocks are never comparable.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .errors import BadRace
from .inputs import Press, Release
from .race import RaceKind

#: The judge decides a race of 2 to 8 seats: referee mode (game/referee/) races any group the
#: buttons seat, from a duel to eight. A Cheating Moth table of 3 to 5 players is the engine's
#: and the table controller's own check (game/engine/state.py, game/controller/table.py).
MIN_PLAYERS = 2
MAX_PLAYERS = 8
#: Longer than the worst switch bounce measured on common switches (~6 ms), far shorter than
#: any human release-and-press.
DEFAULT_LOCKOUT_NS = 25_000_000
#: Long enough for a press stamped slightly earlier to arrive through the adapter's queue.
DEFAULT_SETTLE_NS = 50_000_000

Edge = Press | Release


class TiePolicy(enum.Enum):
    """What a tie for the deciding place leads to."""

    #: The race is run again (the default: nobody wins or loses by luck).
    RERACE = "rerace"
    #: A generator seeded with ``RaceSpec.seed`` draws one of the tied seats.
    RANDOM = "random"


class Status(enum.Enum):
    """``PENDING``: more edges or more time could still change the outcome."""

    PENDING = "pending"
    DECIDED = "decided"


def _is_int(value: object) -> bool:
    # bool is an int subclass; True as a seat or a timestamp is always a mistake.
    return type(value) is int


def _seat_range(players: int) -> str:
    return f"0 to {players - 1}"


@dataclass(frozen=True, slots=True)
class RaceSpec:
    """One race as armed by the table: who races, on which clock, and the timing rules.

    Constructing a spec validates it, so a spec that exists can be judged.
    """

    kind: RaceKind
    players: int
    active: int
    eligible: tuple[int, ...]
    clock: str
    resolution_ns: int
    armed_t_ns: int
    go_t_ns: int
    timeout_ns: int
    lockout_ns: int = DEFAULT_LOCKOUT_NS
    settle_ns: int = DEFAULT_SETTLE_NS
    tie_policy: TiePolicy = TiePolicy.RERACE
    seed: int = 0
    voided: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_table(self)
        _check_timing(self)
        _check_seats(self.eligible, "eligible", self.players)
        if not self.eligible:
            raise BadRace(
                f"eligible seats {self.eligible!r} are empty: "
                f"name at least one seat from {_seat_range(self.players)}"
            )
        if self.kind is RaceKind.SLAP and self.active in self.eligible:
            raise BadRace(
                f"eligible seats {self.eligible!r} include the active seat {self.active!r}: "
                "in a slap everyone but the player who laid the mosquito slaps"
            )
        _check_voided(self)

    @property
    def deadline_t_ns(self) -> int:
        """The first instant at which a press is too late (GO plus the timeout)."""
        return self.go_t_ns + self.timeout_ns


def _check_table(spec: RaceSpec) -> None:
    if not isinstance(spec.kind, RaceKind):
        raise BadRace(f"race kind {spec.kind!r} is not valid: use RaceKind.SLAP or RaceKind.COCKROACH")
    if not _is_int(spec.players) or not MIN_PLAYERS <= spec.players <= MAX_PLAYERS:
        raise BadRace(f"players {spec.players!r} is not valid: a race needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not _is_int(spec.active) or not 0 <= spec.active < spec.players:
        raise BadRace(
            f"active seat {spec.active!r} is not a seat at a {spec.players}-player table: "
            f"use {_seat_range(spec.players)}"
        )
    if not isinstance(spec.clock, str) or not spec.clock:
        raise BadRace(f"race clock {spec.clock!r} is not valid: name the clock domain, e.g. 'monotonic'")
    if not isinstance(spec.tie_policy, TiePolicy):
        raise BadRace(f"tie policy {spec.tie_policy!r} is not valid: use TiePolicy.RERACE or TiePolicy.RANDOM")
    if not _is_int(spec.seed):
        raise BadRace(f"seed {spec.seed!r} is not valid: use a whole number")


def _check_timing(spec: RaceSpec) -> None:
    for name, minimum in (
        ("resolution_ns", 1),
        ("armed_t_ns", 0),
        ("go_t_ns", 0),
        ("timeout_ns", 1),
        ("lockout_ns", 0),
        ("settle_ns", 0),
    ):
        value = getattr(spec, name)
        if not _is_int(value) or value < minimum:
            raise BadRace(f"{name} {value!r} is not valid: use a whole number of nanoseconds, {minimum} or more")
    if spec.go_t_ns < spec.armed_t_ns:
        raise BadRace(
            f"go_t_ns {spec.go_t_ns!r} is before armed_t_ns {spec.armed_t_ns!r}: GO comes at or after arming"
        )


def _check_seats(seats: object, name: str, players: int) -> None:
    if not isinstance(seats, tuple):
        raise BadRace(f"{name} seats {seats!r} are not valid: use a tuple of seats from {_seat_range(players)}")
    for seat in seats:
        if not _is_int(seat) or not 0 <= seat < players:
            raise BadRace(
                f"{name} seat {seat!r} is not a seat at a {players}-player table: use {_seat_range(players)}"
            )
        if seats.count(seat) > 1:
            raise BadRace(f"{name} seats {seats!r} name seat {seat!r} twice: list each seat once")


def _check_voided(spec: RaceSpec) -> None:
    _check_seats(spec.voided, "voided", spec.players)
    if spec.voided and spec.kind is RaceKind.SLAP:
        raise BadRace(f"voided seats {spec.voided!r} are not valid in a slap: only a cockroach winner can be voided")
    for seat in spec.voided:
        if seat not in spec.eligible:
            raise BadRace(
                f"voided seat {seat!r} did not race: void only seats from the eligible seats {spec.eligible!r}"
            )


def default_eligible(
    kind: RaceKind, players: int, active: int, cockroach_everyone: bool = True
) -> tuple[int, ...]:
    """The seats that race: a slap is everyone but the active player; a cockroach is everyone
    (variant ``everyone``, the default) or everyone but the active player (``others``)."""
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadRace(f"players {players!r} is not valid: a race needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not _is_int(active) or not 0 <= active < players:
        raise BadRace(f"active seat {active!r} is not a seat at a {players}-player table: use {_seat_range(players)}")
    everyone = kind is RaceKind.COCKROACH and cockroach_everyone
    return tuple(seat for seat in range(players) if everyone or seat != active)


@dataclass(frozen=True, slots=True)
class Placing:
    """A seat's first valid press; ``gap_ns`` is the distance to the placing before (0 for the first)."""

    player: int
    t_ns: int
    reaction_ns: int
    gap_ns: int


@dataclass(frozen=True, slots=True)
class FalseStart:
    """A press that began after arming and before GO, or a button still held down at GO."""

    player: int
    t_ns: int
    held_at_go: bool


@dataclass(frozen=True, slots=True)
class IgnoredEdge:
    """An edge that did not count, and why (``"bounce"``, ``"before arming"``, ...)."""

    edge: Edge
    why: str


@dataclass(frozen=True, slots=True)
class RaceResult:
    """The judge's answer.

    ``no_press`` lists eligible seats without a valid press (false starters included, voided
    seats not: they did press). While ``PENDING`` it is the seats still to press, and
    ``recheck_t_ns`` says when judging again, even without new edges, may decide.
    """

    status: Status
    winner: int | None
    loser: int | None
    tied: tuple[int, ...]
    rerace: bool
    ranking: tuple[Placing, ...]
    no_press: tuple[int, ...]
    false_starts: tuple[FalseStart, ...]
    ignored: tuple[IgnoredEdge, ...]
    reason: str
    recheck_t_ns: int | None = None


# --- formatting (integers only: timestamps near 2**62 lose nanoseconds in a float) ----------


def format_ms(ns: int) -> str:
    """``412_345_499`` -> ``"412.345 ms"``: milliseconds with three decimals, rounded half up."""
    sign = "-" if ns < 0 else ""
    us = (abs(ns) + 500) // 1000
    return f"{sign}{us // 1000}.{us % 1000:03d} ms"


def format_gap(ns: int) -> str:
    """A gap between presses in the largest unit it reaches: ns below 1 µs, µs (three decimals,
    exact) below 1 ms, else ms (three decimals, rounded half up, as :func:`format_ms`).

    ``16`` -> ``"16 ns"``, ``40_125`` -> ``"40.125 µs"``, ``1_250_000`` -> ``"1.250 ms"``: a
    16 ns gap on the buzzer board must not read "0.000 ms behind". Reaction times stay in ms."""
    sign = "-" if ns < 0 else ""
    size = abs(ns)
    if size < 1_000:
        return f"{sign}{size} ns"
    if size < 1_000_000:
        return f"{sign}{size // 1000}.{size % 1000:03d} µs"
    return sign + format_ms(size)


def format_seats(seats: Sequence[int]) -> str:
    """``[1]`` -> ``"seat 1"``, ``[0, 2, 4]`` -> ``"seats 0, 2 and 4"``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    head = ", ".join(str(seat) for seat in seats[:-1])
    return f"seats {head} and {seats[-1]}"


# --- edges: order, validation, debounce --------------------------------------------------------


def _order_key(edge: Edge, players: int) -> tuple[int, int, int]:
    """Sort by time; equal times are ordered by a seat rotation taken from the timestamp itself.

    The rotation only makes the order total (so any permutation of the input sorts the same);
    it never decides anything, because equal times are always a tie. Rotating by the timestamp
    means no seat is systematically listed first, unlike sorting by seat number.
    """
    return (edge.t_ns, (edge.player + edge.t_ns) % players, 0 if isinstance(edge, Press) else 1)


def _checked_edges(spec: RaceSpec, edges: Iterable[Edge], now_t_ns: int) -> list[Edge]:
    checked: list[Edge] = []
    for edge in edges:
        if not isinstance(edge, (Press, Release)):
            raise BadRace(f"edge {edge!r} is not valid: give Press or Release records")
        if edge.clock != spec.clock:
            raise BadRace(
                f"edge {edge!r} is on clock {edge.clock!r}, not the race clock {spec.clock!r}: "
                "times from different clocks cannot be compared"
            )
        if edge.player >= spec.players:
            raise BadRace(
                f"edge {edge!r} names seat {edge.player}, outside the {spec.players}-player table: "
                f"use seats {_seat_range(spec.players)}"
            )
        if edge.t_ns > now_t_ns:
            raise BadRace(f"edge {edge!r} is after now_t_ns {now_t_ns}: an edge cannot come from the future")
        checked.append(edge)
    checked.sort(key=lambda e: _order_key(e, spec.players))
    return checked


def _debounce(edges: Sequence[Edge], lockout_ns: int) -> tuple[list[Edge], list[Edge]]:
    """Split one seat's edges (in time order) into accepted edges and bounces.

    The first edge counts with its own timestamp; the seat is then blind for ``lockout_ns``.
    The lockout runs from the accepted edge only, so a long burst cannot extend it forever.
    """
    accepted: list[Edge] = []
    bounces: list[Edge] = []
    for edge in edges:
        if accepted and edge.t_ns - accepted[-1].t_ns < lockout_ns:
            bounces.append(edge)
        else:
            accepted.append(edge)
    return accepted, bounces


def _held_at_go(raw: Sequence[Edge], accepted: Sequence[Edge], spec: RaceSpec) -> Press | None:
    """The press that still held the seat's button down at GO, or None if it was up.

    Within the lockout after an accepted edge the contacts may still be bouncing, so the
    accepted edge tells the level. Once the lockout is over the contacts have come to rest and
    the last raw edge tells it: a short tap whose release fell inside the lockout is up at GO.
    """
    go = spec.go_t_ns
    before = [edge for edge in accepted if edge.t_ns < go]
    if not before:
        return None
    last = before[-1]
    if go - last.t_ns < spec.lockout_ns:
        resting: Edge = last
    else:
        resting = [edge for edge in raw if edge.t_ns < go][-1]
    if not isinstance(resting, Press):
        return None
    if isinstance(last, Press):
        return last
    # The hold began with a press inside a release's lockout (a release and a quick re-press):
    # that press was not accepted as a new beginning, but it is what held the button at GO.
    return resting


@dataclass(frozen=True, slots=True)
class _SeatVerdict:
    """What one seat's edges amount to."""

    first_press: Press | None
    false_starts: tuple[FalseStart, ...]
    ignored: tuple[IgnoredEdge, ...]


def _judge_seat(seat: int, raw: Sequence[Edge], spec: RaceSpec, now_t_ns: int) -> _SeatVerdict:
    accepted, bounces = _debounce(raw, spec.lockout_ns)
    ignored = [IgnoredEdge(edge, "bounce") for edge in bounces]
    # Before GO nobody can know whether a button will still be down at GO.
    held = _held_at_go(raw, accepted, spec) if now_t_ns >= spec.go_t_ns else None
    false_starts: list[FalseStart] = []
    if held is not None and all(held is not edge for edge in accepted):
        false_starts.append(FalseStart(seat, held.t_ns, held_at_go=True))
    first: Press | None = None
    for edge in accepted:
        if not isinstance(edge, Press):
            continue  # an accepted release only ends a press; it never counts by itself
        why = _why_not_valid(edge, spec, held, bool(false_starts), first is not None)
        if why == "false start":
            false_starts.append(FalseStart(seat, edge.t_ns, held_at_go=edge is held))
        elif why:
            ignored.append(IgnoredEdge(edge, why))
        else:
            first = edge
    return _SeatVerdict(first, tuple(false_starts), tuple(ignored))


def _why_not_valid(press: Press, spec: RaceSpec, held: Press | None, false_started: bool, pressed: bool) -> str:
    """Why an accepted press does not count ("" if it is the seat's valid press)."""
    if press.t_ns < spec.armed_t_ns:
        # Pressing before arming is harmless unless the button is still down at GO.
        return "false start" if press is held else "before arming"
    if press.t_ns < spec.go_t_ns:
        return "false start"
    if spec.kind is RaceKind.COCKROACH and false_started:
        return "after false start"  # a cockroach false starter is out of this race
    if press.player in spec.voided:
        return "voided"
    if pressed:
        return "already pressed"
    if press.t_ns >= spec.deadline_t_ns:
        return "after timeout"
    return ""


# --- the decision ------------------------------------------------------------------------------


def judge(spec: RaceSpec, edges: Iterable[Press | Release], now_t_ns: int) -> RaceResult:
    """Decide the race from the edges seen up to ``now_t_ns`` (in any order), or say it is pending.

    Raises :class:`BadRace` for an edge from another clock, a seat outside the table, an edge
    later than ``now_t_ns``, or a ``now_t_ns`` before arming.
    """
    if not _is_int(now_t_ns) or now_t_ns < spec.armed_t_ns:
        raise BadRace(
            f"now_t_ns {now_t_ns!r} is not valid: judge at or after arming (armed_t_ns {spec.armed_t_ns})"
        )
    ordered = _checked_edges(spec, edges, now_t_ns)
    firsts, false_starts, ignored = _sort_out(spec, ordered, now_t_ns)
    ranking = _ranking(firsts, spec.go_t_ns)
    pressed = {placing.player for placing in ranking}
    no_press = tuple(sorted(s for s in spec.eligible if s not in pressed and s not in spec.voided))
    base = RaceResult(
        status=Status.PENDING,
        winner=None,
        loser=None,
        tied=(),
        rerace=False,
        ranking=ranking,
        no_press=no_press,
        false_starts=false_starts,
        ignored=ignored,
        reason="",
    )
    if spec.kind is RaceKind.SLAP:
        return _decide_slap(spec, now_t_ns, base)
    return _decide_cockroach(spec, now_t_ns, base)


def _sort_out(
    spec: RaceSpec, ordered: Sequence[Edge], now_t_ns: int
) -> tuple[list[Press], tuple[FalseStart, ...], tuple[IgnoredEdge, ...]]:
    """Each seat's first valid press (in time order), then every false start and ignored edge."""
    firsts: list[Press] = []
    false_starts: list[FalseStart] = []
    ignored: list[IgnoredEdge] = []
    for seat in range(spec.players):
        raw = [edge for edge in ordered if edge.player == seat]
        if seat not in spec.eligible:
            ignored.extend(IgnoredEdge(edge, "not eligible") for edge in raw)
            continue
        verdict = _judge_seat(seat, raw, spec, now_t_ns)
        ignored.extend(verdict.ignored)
        false_starts.extend(verdict.false_starts)
        if verdict.first_press is not None:
            firsts.append(verdict.first_press)
    # Seat by seat above; report everything in the one time order the edges were sorted in.
    firsts.sort(key=lambda press: _order_key(press, spec.players))
    false_starts.sort(key=lambda f: _order_key(Press(f.player, f.t_ns, spec.clock), spec.players))
    ignored.sort(key=lambda item: _order_key(item.edge, spec.players))
    return firsts, tuple(false_starts), tuple(ignored)


def _ranking(firsts: Sequence[Press], go_t_ns: int) -> tuple[Placing, ...]:
    placings: list[Placing] = []
    for press in firsts:
        gap = press.t_ns - placings[-1].t_ns if placings else 0
        placings.append(Placing(press.player, press.t_ns, press.t_ns - go_t_ns, gap))
    return tuple(placings)


def _pick(tied: Sequence[int], spec: RaceSpec) -> tuple[int | None, str]:
    """Apply the tie policy to the tied seats: (the seat picked or None, how it was settled)."""
    if spec.tie_policy is TiePolicy.RERACE:
        return None, "re-race"
    # A local generator: the same seed always draws the same seat, and nothing else is disturbed.
    seat = random.Random(spec.seed).choice(sorted(tied))
    return seat, f"seat {seat} drawn by lot (seed {spec.seed})"


def _decide_slap(spec: RaceSpec, now_t_ns: int, base: RaceResult) -> RaceResult:
    ranking = base.ranking
    waiting = base.no_press
    if waiting and now_t_ns < spec.deadline_t_ns:
        reason = (
            "Pending: GO has not been given yet."
            if now_t_ns < spec.go_t_ns
            else f"Pending: waiting for {format_seats(waiting)} to slap "
            f"(timeout {format_ms(spec.timeout_ns)} after GO)."
        )
        return replace(base, reason=reason, recheck_t_ns=spec.deadline_t_ns)
    if waiting:
        # Nobody who missed the timeout can be faster than anyone who pressed.
        tied = waiting
        detail = f"no slap within the {format_ms(spec.timeout_ns)} timeout"
    else:
        slowest = ranking[-1]
        tied = tuple(sorted(p.player for p in ranking if slowest.t_ns - p.t_ns < spec.resolution_ns))
        spread = slowest.t_ns - min(p.t_ns for p in ranking if p.player in tied)
        detail = f"{format_gap(spread)} apart, under the {format_gap(spec.resolution_ns)} resolution"
    decided = replace(base, status=Status.DECIDED)
    if len(tied) == 1:
        return replace(decided, loser=tied[0], reason=_slap_loser_reason(tied[0], ranking, spec))
    loser, settled = _pick(tied, spec)
    return replace(
        decided,
        loser=loser,
        tied=tied,
        rerace=loser is None,
        reason=f"Tie for slowest between {format_seats(tied)} ({detail}): {settled}.",
    )


def _slap_loser_reason(loser: int, ranking: Sequence[Placing], spec: RaceSpec) -> str:
    if not ranking or ranking[-1].player != loser:
        return f"Seat {loser} was slowest: no slap within the {format_ms(spec.timeout_ns)} timeout."
    last = ranking[-1]
    if len(ranking) == 1:
        return f"Seat {loser} was slowest: {format_ms(last.reaction_ns)} after GO, the only seat racing."
    return (
        f"Seat {loser} was slowest: {format_ms(last.reaction_ns)} after GO, "
        f"{format_gap(last.gap_ns)} behind {_seats_at(ranking, ranking[-2].t_ns)}."
    )


def _decide_cockroach(spec: RaceSpec, now_t_ns: int, base: RaceResult) -> RaceResult:
    ranking = base.ranking
    after_void = _after_void(spec.voided)
    if not ranking:
        if now_t_ns < spec.deadline_t_ns:
            reason = (
                "Pending: GO has not been given yet."
                if now_t_ns < spec.go_t_ns
                else f"Pending: waiting for a press (timeout {format_ms(spec.timeout_ns)} after GO)."
            )
            return replace(base, reason=reason, recheck_t_ns=spec.deadline_t_ns)
        reason = f"No match: no valid press within the {format_ms(spec.timeout_ns)} timeout{after_void}."
        return replace(base, status=Status.DECIDED, reason=reason)
    first = ranking[0]
    # A press stamped a little earlier may still be on its way; wait out the settle window.
    settled_t_ns = first.t_ns + spec.settle_ns
    if now_t_ns < settled_t_ns:
        leaders = sorted(p.player for p in ranking if p.t_ns == first.t_ns)
        who = f"seat {leaders[0]} leads" if len(leaders) == 1 else f"{format_seats(leaders)} lead together"
        reason = f"Pending: {who}; deciding {format_ms(spec.settle_ns)} after the first press."
        return replace(base, reason=reason, recheck_t_ns=settled_t_ns)
    decided = replace(base, status=Status.DECIDED)
    tied = tuple(sorted(p.player for p in ranking if p.t_ns - first.t_ns < spec.resolution_ns))
    if len(tied) == 1:
        return replace(decided, winner=first.player, reason=_cockroach_winner_reason(ranking, after_void))
    spread = max(p.t_ns for p in ranking if p.player in tied) - first.t_ns
    winner, settled = _pick(tied, spec)
    detail = f"{format_gap(spread)} apart, under the {format_gap(spec.resolution_ns)} resolution"
    return replace(
        decided,
        winner=winner,
        tied=tied,
        rerace=winner is None,
        reason=f"Tie for fastest between {format_seats(tied)}{after_void} ({detail}): {settled}.",
    )


def _after_void(voided: Sequence[int]) -> str:
    if not voided:
        return ""
    return f" once {format_seats(voided)} {'was' if len(voided) == 1 else 'were'} voided"


def _cockroach_winner_reason(ranking: Sequence[Placing], after_void: str) -> str:
    first = ranking[0]
    head = f"Seat {first.player} was fastest{after_void}: {format_ms(first.reaction_ns)} after GO"
    if len(ranking) == 1:
        return f"{head}, the only valid press."
    return f"{head}, {format_gap(ranking[1].gap_ns)} ahead of {_seats_at(ranking, ranking[1].t_ns)}."


def _seats_at(ranking: Sequence[Placing], t_ns: int) -> str:
    # Seats pressing at the very same instant are named together: their listed order is arbitrary.
    return format_seats(sorted(p.player for p in ranking if p.t_ns == t_ns))
