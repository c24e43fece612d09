"""Judging one referee race: a preset's rules over the race judge's evidence.

:func:`judge_race` is a pure function of the race (preset, seats, clock, arming and GO), the
button edges seen so far (``game.inputs.Press`` / ``Release``, in any order) and "now" on the
race's clock. The edge work — one clock, debounce on timestamps, false starts (a press after
arming and before GO, or a button held at GO), each seat's first valid press, presses the
table voided — is ``game.judge.judge`` run as a cockroach race of the racing seats: its
per-seat rules are the referee's (a false starter's later presses never count; a voided seat's
presses never count). What the judge cannot say — last loses, how many places count, restart
or lose on a false start, shared ties, the buzzer lockout — is decided here from its ranking.

A race record (:func:`race_record`) holds the race's edges as a ``cheating-moth judge``
document (``record["judge"]``, the format unchanged) plus the preset's rules, so
:func:`rejudge` gives the same result later, and ``cheating-moth judge`` re-derives the same
ranking, false starts and ignored edges from the ``judge`` part alone.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import BadRace
from ..inputs import Press, Release
from ..judge import (
    DEFAULT_LOCKOUT_NS, DEFAULT_SETTLE_NS, IgnoredEdge, Placing, RaceSpec, Status, TiePolicy, format_gap, format_ms,
    format_seats, judge,
)
from ..judge_file import parse_race
from ..race import RaceKind
from .presets import (
    BadPreset, FalseStartRule, GoSource, Lockout, Outcome, Preset, TieRule, preset_from_mapping, preset_to_mapping,
)

MS = 1_000_000
Edge = Press | Release


def draw_go_delay_ns(preset: Preset, rng: random.Random) -> int:
    """A fore-period for a rig-GO preset, drawn from ``rng`` (the caller's seeded generator)."""
    if preset.go is not GoSource.RIG:
        raise BadRace(f"preset {preset.id!r} has go = {preset.go.value!r}: only go = 'rig' draws a fore-period")
    return rng.randint(preset.go_min_ms * MS, preset.go_max_ms * MS)


@dataclass(frozen=True, slots=True)
class RefereeRace:
    """One race as armed. Constructing it validates it (and builds the judge's spec), so a race
    that exists can be judged.

    ``go_t_ns``: for a rig-GO preset, when GO was given or is due (the scheduled time until the
    input adapter stamps it), on the race clock; for a table-GO preset, None or the arming time
    (the race starts at arming). ``voided``: seats the table voided (a wrong slap); only for a
    preset with ``table-may-void``. ``bounce_ns`` is the judge's debounce lockout, not the
    preset's buzzer lockout.
    """

    preset: Preset
    seats: int
    racers: tuple[int, ...]
    clock: str
    resolution_ns: int
    armed_t_ns: int
    go_t_ns: int | None = None
    seed: int = 0
    voided: tuple[int, ...] = ()
    bounce_ns: int = DEFAULT_LOCKOUT_NS
    settle_ns: int = DEFAULT_SETTLE_NS
    spec: RaceSpec = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        preset = self.preset
        if not isinstance(preset, Preset):
            raise BadRace(f"preset {self.preset!r} is not valid: give a Preset (see load_presets)")
        racers = self.racers
        if not isinstance(racers, tuple) or not preset.min_players <= len(racers) <= preset.max_players:
            raise BadRace(f"racers {racers!r} are not valid for preset {preset.id!r}: name "
                          f"{_count_range(preset)} seats in a tuple")
        if self.voided and not preset.table_may_void:
            raise BadRace(f"voided seats {self.voided!r} are not valid: preset {preset.id!r} does not let the "
                          "table void a press (table-may-void = false)")
        go = self.go_t_ns
        if preset.go is GoSource.TABLE:
            if go is not None and go != self.armed_t_ns:
                raise BadRace(f"go_t_ns {go!r} is not valid for preset {preset.id!r}: with go = 'table' the race "
                              f"starts at arming (armed_t_ns {self.armed_t_ns!r}), give None")
            go = self.armed_t_ns
            object.__setattr__(self, "go_t_ns", go)
        elif type(go) is not int:
            raise BadRace(f"go_t_ns {go!r} is not valid for preset {preset.id!r}: with go = 'rig' give the time "
                          "GO was given or is due, in nanoseconds on the race clock")
        # RaceSpec names any bad seat, time, clock or seed; a referee race is a cockroach race
        # of the racing seats as far as the edges go (see the module).
        spec = RaceSpec(
            kind=RaceKind.COCKROACH, players=self.seats, active=racers[0] if racers else 0, eligible=racers,
            clock=self.clock, resolution_ns=self.resolution_ns, armed_t_ns=self.armed_t_ns, go_t_ns=go,
            timeout_ns=preset.timeout_ms * MS, lockout_ns=self.bounce_ns, settle_ns=self.settle_ns,
            tie_policy=TiePolicy.RANDOM if preset.tie is TieRule.RANDOM else TiePolicy.RERACE,
            seed=self.seed, voided=self.voided,
        )
        object.__setattr__(self, "spec", spec)

    @property
    def deadline_t_ns(self) -> int:
        """The first instant at which a press is too late."""
        return self.spec.deadline_t_ns


def _count_range(preset: Preset) -> str:
    if preset.min_players == preset.max_players:
        return f"exactly {preset.min_players}"
    return f"{preset.min_players} to {preset.max_players}"


# --- the result --------------------------------------------------------------------------------


class Rerun(enum.Enum):
    """Why a decided race is to be run again."""

    TIE = "tie"
    FALSE_START = "false start"
    NO_PRESS = "no press"


@dataclass(frozen=True, slots=True)
class Place:
    """A seat's first valid press. ``place`` is 1 for the first in; tied seats sharing a place
    have the same number. ``reaction_ns`` is the time from GO, None when GO was the table's (the
    time from arming is no reaction). ``gap_ns`` is the distance to the press before (0 first).
    ``counts``: the place is one the preset counts."""

    seat: int
    place: int
    t_ns: int
    reaction_ns: int | None
    gap_ns: int
    counts: bool


@dataclass(frozen=True, slots=True)
class EarlyPress:
    """A false start: a press ``early_ns`` before GO (held at GO: the button was still down)."""

    seat: int
    t_ns: int
    early_ns: int
    held_at_go: bool


@dataclass(frozen=True, slots=True)
class RefereeResult:
    """What the referee decided, or that it is still pending.

    ``places`` are the valid presses in order (the ring-in order, later presses after a lockout
    included); ``winners`` / ``losers`` are the seats at the deciding place (several when a tie
    is shared, or when a false starter loses and everyone else wins); ``ties`` are the tied
    groups among counted places; ``out`` the seats out of this race (voided by the table, or
    false starters under ``void``); ``timeouts`` the racers without a valid press by the
    timeout. ``rerun`` says the race is to be run again, and ``rerun_why`` why.
    """

    status: Status
    preset_id: str
    racers: tuple[int, ...]
    places: tuple[Place, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    ties: tuple[tuple[int, ...], ...]
    false_starts: tuple[EarlyPress, ...]
    out: tuple[int, ...]
    timeouts: tuple[int, ...]
    rerun: bool
    rerun_why: Rerun | None
    reason: str
    ignored: tuple[IgnoredEdge, ...] = ()
    recheck_t_ns: int | None = None

    @property
    def decided(self) -> bool:
        return self.status is Status.DECIDED


# --- judging -----------------------------------------------------------------------------------


def judge_race(race: RefereeRace, edges: Iterable[Edge], now_t_ns: int) -> RefereeResult:
    """Decide ``race`` from the edges seen up to ``now_t_ns`` (any order), or say it is pending.

    Raises :class:`BadRace` as ``game.judge.judge`` does: an edge from another clock, a seat
    outside the table, an edge later than ``now_t_ns``, or ``now_t_ns`` before arming."""
    evidence = judge(race.spec, edges, now_t_ns)
    spec, preset = race.spec, race.preset
    early = tuple(EarlyPress(f.player, f.t_ns, spec.go_t_ns - f.t_ns, f.held_at_go) for f in evidence.false_starts)
    j = _Judging(race, now_t_ns, evidence.ranking, early, evidence.ignored)
    if early and preset.false_start is FalseStartRule.RESTART:
        return j.rerun(Rerun.FALSE_START, f"{_early_words(early, spec.armed_t_ns)}: the race is run again.")
    if early and preset.false_start is FalseStartRule.LOSES:
        return j.false_start_loses()
    return j.race_on()


def _early_words(early: Sequence[EarlyPress], armed_t_ns: int) -> str:
    seats = sorted({e.seat for e in early})
    first = min(early, key=lambda e: e.t_ns)
    # A press from before arming is early only because the button was still down at GO.
    held = first.held_at_go and first.t_ns < armed_t_ns
    how = "was held down at GO" if held else f"pressed {format_ms(first.early_ns)} before GO"
    if len(seats) == 1:
        return f"Seat {seats[0]} {how}"
    return f"{format_seats(seats).capitalize()} started early (the first {format_ms(first.early_ns)} before GO)"


def _groups(ranking: Sequence[Placing], resolution_ns: int) -> list[list[Placing]]:
    """The presses in tie groups: a group is every press closer than the resolution to its first
    (the judge's tie rule, applied at every place)."""
    groups: list[list[Placing]] = []
    for placing in ranking:
        if groups and placing.t_ns - groups[-1][0].t_ns < resolution_ns:
            groups[-1].append(placing)
        else:
            groups.append([placing])
    return groups


@dataclass(slots=True)
class _Judging:
    """The working state of one judgement (internal; the result is frozen)."""

    race: RefereeRace
    now_t_ns: int
    ranking: tuple[Placing, ...]
    early: tuple[EarlyPress, ...]
    ignored: tuple[IgnoredEdge, ...]

    def result(self, status: Status, reason: str, **fields: Any) -> RefereeResult:
        base: dict[str, Any] = dict(
            status=status, preset_id=self.race.preset.id, racers=self.race.racers, places=self._places(()),
            winners=(), losers=(), ties=(), false_starts=self.early, out=self._out(), timeouts=(), rerun=False,
            rerun_why=None, reason=reason, ignored=self.ignored, recheck_t_ns=None,
        )
        return RefereeResult(**(base | fields))

    def rerun(self, why: Rerun, reason: str, **fields: Any) -> RefereeResult:
        return self.result(Status.DECIDED, reason, rerun=True, rerun_why=why, **fields)

    def pending(self, reason: str, recheck_t_ns: int) -> RefereeResult:
        return self.result(Status.PENDING, reason, recheck_t_ns=recheck_t_ns)

    def _out(self) -> tuple[int, ...]:
        void = self.race.preset.false_start is FalseStartRule.VOID
        return tuple(sorted(set(self.race.voided) | ({e.seat for e in self.early} if void else set())))

    def _places(self, counted: Sequence[int], order: Sequence[Placing] | None = None,
                numbers: Mapping[int, int] | None = None) -> tuple[Place, ...]:
        table_go = self.race.preset.go is GoSource.TABLE
        if order is None or numbers is None:
            # Arrival order, tied presses sharing their place number.
            order = self.ranking
            numbers = self._numbers(_groups(order, self.race.spec.resolution_ns))
        made = []
        for p in order:
            place = numbers[p.player]
            made.append(Place(p.player, place, p.t_ns, None if table_go else p.reaction_ns, p.gap_ns,
                              p.player in counted))
        return tuple(made)

    # -- false start loses -----------------------------------------------------------------

    def false_start_loses(self) -> RefereeResult:
        spec = self.race.spec
        # A press before arming is only a false start because it is held at GO: known then.
        known = [(e.t_ns if e.t_ns >= spec.armed_t_ns else spec.go_t_ns, e) for e in self.early]
        first_known = min(t for t, _ in known)
        # Presses stamped a little earlier may still be on their way: jumps within the settle
        # window of the first one known lose together.
        settled = first_known + spec.settle_ns
        if self.now_t_ns < settled:
            words = _early_words(self.early, spec.armed_t_ns)
            return self.pending(f"Pending: {words}; deciding {format_ms(spec.settle_ns)} after.", settled)
        losers = tuple(sorted({e.seat for t, e in known if t <= settled}))
        winners = tuple(s for s in self.race.racers if s not in losers and s not in self.race.voided)
        words = _early_words([e for _, e in known if e.seat in losers], spec.armed_t_ns)
        if not winners:
            return self.rerun(Rerun.FALSE_START, f"{words}, nobody is left: the race is run again.", losers=losers)
        verb = "wins" if len(winners) == 1 else "win"
        return self.result(Status.DECIDED, f"{words} and lost: {format_seats(winners)} {verb}.",
                           winners=winners, losers=losers)

    # -- the race runs on ------------------------------------------------------------------

    def race_on(self) -> RefereeResult:
        race, spec = self.race, self.race.spec
        out = set(self._out())
        in_race = [s for s in race.racers if s not in out]
        if not in_race:
            if self.early:
                words = _early_words(self.early, spec.armed_t_ns)
                return self.rerun(Rerun.FALSE_START, f"{words}, nobody is left: the race is run again.")
            return self.rerun(Rerun.NO_PRESS, f"Every racer was voided ({format_seats(sorted(out))}): the race is "
                              "run again.")
        if self.now_t_ns < spec.go_t_ns:
            return self.pending("Pending: GO has not been given yet.", spec.go_t_ns)
        pressed = {p.player for p in self.ranking}
        waiting = [s for s in in_race if s not in pressed]
        timed_out = self.now_t_ns >= spec.deadline_t_ns
        need = min(race.preset.places, len(in_race))
        if not timed_out and waiting:
            settle = self._settled_t_ns(need)
            if settle is None or self.now_t_ns < settle:
                recheck = spec.deadline_t_ns if settle is None else settle
                return self.pending(f"Pending: waiting for {format_seats(waiting)} (timeout "
                                    f"{format_ms(spec.timeout_ns)} after {self._start_word()}).", recheck)
        timeouts = tuple(waiting) if timed_out else ()
        if not self.ranking:
            return self.rerun(Rerun.NO_PRESS, f"Nobody pressed within the {format_ms(spec.timeout_ns)} timeout: "
                              "the race is run again.", timeouts=timeouts)
        if race.preset.outcome is Outcome.FIRST_WINS:
            return self._first_wins(need, timeouts)
        return self._last_loses(need, timeouts)

    def _start_word(self) -> str:
        return "arming" if self.race.preset.go is GoSource.TABLE else "GO"

    def _settled_t_ns(self, need: int) -> int | None:
        """When the counted places of a first-press lockout are in for good, or None while they
        are not all pressed (or when the race waits for everyone)."""
        preset, spec = self.race.preset, self.race.spec
        if preset.lockout is not Lockout.FIRST_PRESS or preset.outcome is not Outcome.FIRST_WINS:
            return None
        if len(self.ranking) < need:
            return None
        # A press stamped earlier may still arrive (settle), and one within the resolution of
        # the last counted press would tie with it.
        return self.ranking[need - 1].t_ns + max(spec.settle_ns, spec.resolution_ns)

    def _lot(self, groups: list[list[Placing]], tied: Sequence[int]) -> list[list[Placing]]:
        """Each tied group (index in ``tied``) ordered by one seeded draw, the groups in turn."""
        rng = random.Random(self.race.seed)
        drawn: list[list[Placing]] = []
        for index, group in enumerate(groups):
            if index in tied:
                shuffled = sorted(group, key=lambda p: p.player)  # the lot, not the arrival, orders
                rng.shuffle(shuffled)
                drawn.extend([p] for p in shuffled)
            else:
                drawn.append(group)
        return drawn

    def _numbers(self, groups: Sequence[Sequence[Placing]]) -> dict[int, int]:
        numbers: dict[int, int] = {}
        before = 0
        for group in groups:
            for p in group:
                numbers[p.player] = before + 1
            before += len(group)
        return numbers

    def _tie_words(self, group: Sequence[int], spread_ns: int, what: str) -> str:
        return (f"Tie for {what} between {format_seats(sorted(group))} ({format_gap(spread_ns)} apart, under the "
                f"{format_gap(self.race.spec.resolution_ns)} resolution)")

    def _first_wins(self, need: int, timeouts: tuple[int, ...]) -> RefereeResult:
        rule = self.race.preset.tie
        groups = _groups(self.ranking, self.race.spec.resolution_ns)
        counted_groups, seen = [], 0
        for index, group in enumerate(groups):
            if seen >= need:
                break
            counted_groups.append(index)
            seen += len(group)
        tied = [i for i in counted_groups if len(groups[i]) > 1]
        ties = tuple(tuple(sorted(p.player for p in groups[i])) for i in tied)
        counted = [p.player for i in counted_groups for p in groups[i]]
        first = groups[0]
        spread = first[-1].t_ns - first[0].t_ns
        settled = ""
        if tied and rule is TieRule.RERACE:
            what = "first" if 0 in tied else "a counted place"
            group = groups[tied[0]]
            words = self._tie_words([p.player for p in group], group[-1].t_ns - group[0].t_ns, what)
            return self.rerun(Rerun.TIE, f"{words}: re-race.", places=self._places(counted), ties=ties,
                              timeouts=timeouts)
        if tied and rule is TieRule.RANDOM:
            groups = self._lot(groups, tied)
            settled = f": drawn by lot (seed {self.race.seed})"
        order = [p for group in groups for p in group]
        numbers = self._numbers(groups)
        places = self._places(counted, order, numbers)
        winners = tuple(sorted(p.seat for p in places if p.place == 1))
        if len(winners) > 1:
            reason = f"{self._tie_words(winners, spread, 'first')}: they share the win."
        elif 0 in tied:
            reason = f"{self._tie_words(ties[0], spread, 'first')}{settled}: seat {winners[0]} wins."
        else:
            reason = self._winner_words(places[0], places)
        return self.result(Status.DECIDED, reason, places=places, winners=winners, ties=ties, timeouts=timeouts)

    def _after_void(self) -> str:
        voided = self.race.voided
        if not voided:
            return ""
        return f" once {format_seats(list(voided))} {'was' if len(voided) == 1 else 'were'} voided"

    def _when(self, place: Place) -> str:
        if place.reaction_ns is None:
            return "the first press"
        return f"{format_ms(place.reaction_ns)} after GO"

    def _winner_words(self, winner: Place, places: Sequence[Place]) -> str:
        head = f"Seat {winner.seat} won{self._after_void()}: {self._when(winner)}"
        if len(places) == 1:
            return f"{head}, the only valid press."
        return f"{head}, {format_gap(places[1].gap_ns)} ahead of seat {places[1].seat}."

    def _last_loses(self, need: int, timeouts: tuple[int, ...]) -> RefereeResult:
        rule, spec = self.race.preset.tie, self.race.spec
        groups = _groups(self.ranking, spec.resolution_ns)
        # Counted places from the back: the no-press seats (tied with each other) are last.
        tail: list[tuple[int, ...]] = [tuple(p.player for p in g) for g in groups]
        if timeouts:
            tail.append(timeouts)
        counted_idx, seen = [], 0
        for index in range(len(tail) - 1, -1, -1):
            if seen >= need:
                break
            counted_idx.append(index)
            seen += len(tail[index])
        tied = sorted(i for i in counted_idx if len(tail[i]) > 1)
        ties = tuple(tuple(sorted(tail[i])) for i in tied)
        counted = [s for i in counted_idx for s in tail[i]]
        last = tail[-1]
        timeout_words = f"no press within the {format_ms(spec.timeout_ns)} timeout"
        if timeouts and len(last) > 1:
            spread_words = f"Tie for last between {format_seats(sorted(last))} ({timeout_words})"
        elif len(last) > 1:
            g = groups[-1]
            spread_words = self._tie_words(last, g[-1].t_ns - g[0].t_ns, "last")
        else:
            spread_words = ""
        places = self._places(counted)
        if tied and rule is TieRule.RERACE:
            group = tail[tied[-1]]
            what = spread_words if group is last else self._tie_words(
                group, groups[tied[-1]][-1].t_ns - groups[tied[-1]][0].t_ns, "a counted place")
            return self.rerun(Rerun.TIE, f"{what}: re-race.", places=places, ties=ties, timeouts=timeouts)
        if tied and rule is TieRule.RANDOM:
            # The lot orders every tied group of presses, and picks one of several no-press seats.
            drawn = self._lot(groups, [i for i in tied if i < len(groups)])
            places = self._places(counted, [p for g in drawn for p in g], self._numbers(drawn))
            if timeouts:
                loser = random.Random(self.race.seed).choice(sorted(timeouts))
            else:
                loser = places[-1].seat
            lot = f"drawn by lot (seed {self.race.seed})"
            what = spread_words or f"Tie for a counted place between {format_seats(list(ties[-1]))}"
            return self.result(Status.DECIDED, f"{what}: {lot}, seat {loser} loses.",
                               places=places, losers=(loser,), ties=ties, timeouts=timeouts)
        losers = tuple(sorted(last))
        if len(losers) > 1:
            reason = f"{spread_words}: they share the loss."
        elif timeouts:
            reason = f"Seat {losers[0]} lost: {timeout_words}."
        else:
            slowest = places[-1]
            head = f"Seat {slowest.seat} lost: {self._when(slowest).replace('the first press', 'the last press')}"
            reason = (f"{head}, the only racer." if len(places) == 1
                      else f"{head}, {format_gap(slowest.gap_ns)} behind seat {places[-2].seat}.")
        return self.result(Status.DECIDED, reason, places=places, losers=losers, ties=ties, timeouts=timeouts)


# --- records: the raw race, re-judgeable --------------------------------------------------------


def _whole_ms(ns: int, name: str) -> int:
    if ns % MS:
        raise BadRace(f"{name} {ns!r} ns is not a whole number of milliseconds: a judge document holds "
                      "whole milliseconds, use a multiple of 1,000,000")
    return ns // MS


def judge_document(race: RefereeRace, edges: Iterable[Edge], now_t_ns: int) -> dict[str, Any]:
    """The race as a ``cheating-moth judge`` document (the judge's format, unchanged): a
    cockroach race of the racing seats, so the judge re-derives the same ranking, false starts
    and ignored edges (its own winner is the first press; last-loses and the false-start rules
    are the referee's, in :func:`race_record`)."""
    spec = race.spec
    ordered = sorted(edges, key=lambda e: (e.t_ns, e.player, 0 if isinstance(e, Press) else 1))
    return {
        "kind": spec.kind.value, "players": spec.players, "active": spec.active, "eligible": list(spec.eligible),
        "clock": spec.clock, "resolution_ns": spec.resolution_ns, "armed_t_ns": spec.armed_t_ns,
        "go_t_ns": spec.go_t_ns, "timeout_ms": spec.timeout_ns // MS,
        "lockout_ms": _whole_ms(spec.lockout_ns, "bounce_ns"), "settle_ms": _whole_ms(spec.settle_ns, "settle_ns"),
        "voided": list(spec.voided), "tie_policy": spec.tie_policy.value, "seed": spec.seed,
        "now_t_ns": now_t_ns,
        "edges": [{"player": e.player, "edge": "press" if isinstance(e, Press) else "release", "t_ns": e.t_ns}
                  for e in ordered],
    }


def race_record(race: RefereeRace, edges: Iterable[Edge], now_t_ns: int) -> dict[str, Any]:
    """A JSON-ready record of the race: ``{"referee": {"preset", "rules"}, "judge": document}``.
    The rules are the preset's own keys, so the record re-judges the same after the file changes."""
    edges = tuple(edges)
    return {
        "referee": {"preset": race.preset.id, "rules": preset_to_mapping(race.preset)},
        "judge": judge_document(race, edges, now_t_ns),
    }


def read_race_record(doc: object) -> tuple[RefereeRace, tuple[Edge, ...], int]:
    """``(race, edges, now_t_ns)`` from a decoded :func:`race_record`; :class:`BadRace` (or
    :class:`BadPreset` for the rules) names the first bad field."""
    if not isinstance(doc, dict) or set(doc) != {"referee", "judge"}:
        keys = sorted(doc) if isinstance(doc, dict) else type(doc).__name__
        raise BadRace(f"referee record {keys!r} is not valid: use an object with 'referee' and 'judge'")
    referee = doc["referee"]
    if not isinstance(referee, dict) or set(referee) != {"preset", "rules"} or not isinstance(referee["preset"], str):
        raise BadRace(f"referee record field 'referee' {_keys(referee)} is not valid: use "
                      "{\"preset\": id, \"rules\": {...}}")
    rules = referee["rules"]
    if not isinstance(rules, dict):
        raise BadPreset(f"referee record rules {type(rules).__name__} are not valid: use the preset's keys")
    preset = preset_from_mapping(rules, referee["preset"], "referee record rules")
    spec, edges, now_t_ns = parse_race(doc["judge"])
    race = RefereeRace(
        preset=preset, seats=spec.players, racers=spec.eligible, clock=spec.clock, resolution_ns=spec.resolution_ns,
        armed_t_ns=spec.armed_t_ns, go_t_ns=None if preset.go is GoSource.TABLE else spec.go_t_ns, seed=spec.seed,
        voided=spec.voided, bounce_ns=spec.lockout_ns, settle_ns=spec.settle_ns,
    )
    for name in ("kind", "active", "go_t_ns", "timeout_ns", "tie_policy"):
        mine, theirs = getattr(race.spec, name), getattr(spec, name)
        if mine != theirs:
            mine, theirs = getattr(mine, "value", mine), getattr(theirs, "value", theirs)  # enums as written
            raise BadRace(f"referee record judge field {name!r} is {theirs!r}, but the rules give {mine!r}: "
                          "the two parts are of different races")
    return race, edges, now_t_ns


def _keys(value: object) -> str:
    return repr(sorted(value)) if isinstance(value, dict) else type(value).__name__


def rejudge(doc: object) -> RefereeResult:
    """Judge a decoded race record again."""
    race, edges, now_t_ns = read_race_record(doc)
    return judge_race(race, edges, now_t_ns)


def result_to_json(result: RefereeResult) -> dict[str, Any]:
    """A result as plain JSON values (seats, integer nanoseconds, strings, lists)."""
    return {
        "status": result.status.value, "preset": result.preset_id, "racers": list(result.racers),
        "places": [{"seat": p.seat, "place": p.place, "t_ns": p.t_ns, "reaction_ns": p.reaction_ns,
                    "gap_ns": p.gap_ns, "counts": p.counts} for p in result.places],
        "winners": list(result.winners), "losers": list(result.losers), "ties": [list(t) for t in result.ties],
        "false_starts": [{"seat": e.seat, "t_ns": e.t_ns, "early_ns": e.early_ns, "held_at_go": e.held_at_go}
                         for e in result.false_starts],
        "out": list(result.out), "timeouts": list(result.timeouts), "rerun": result.rerun,
        "rerun_why": result.rerun_why.value if result.rerun_why else None, "reason": result.reason,
        "recheck_t_ns": result.recheck_t_ns,
    }
