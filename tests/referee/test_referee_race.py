"""Judging referee races: every shipped preset with chosen timestamps, plus the rules a café
preset can choose (shared and drawn ties, counted places, waiting for everyone)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from game.errors import BadRace
from game.inputs import Press, Release
from game.judge import Status
from game.judge_file import judge_document as judge_file_document
from game.referee.presets import BadPreset, Preset, load_presets, preset_from_toml
from game.referee.race import (
    RefereeRace, RefereeResult, Rerun, draw_go_delay_ns, judge_document, judge_race, race_record, read_race_record,
    rejudge, result_to_json,
)

MS = 1_000_000
US = 1_000
ARMED = 5_000 * MS
GO = ARMED + 1_500 * MS
CLOCK = "sim"
RESOLUTION_NS = 100 * US
PRESETS = load_presets()


def P(seat: int, t_ns: int) -> Press:
    return Press(seat, t_ns, CLOCK)


def R(seat: int, t_ns: int) -> Release:
    return Release(seat, t_ns, CLOCK)


def custom(**keys: Any) -> Preset:
    """A café preset from TOML: first-wins, void, first-press lockout, rig GO, unless changed."""
    base: dict[str, Any] = {
        "min-players": 2, "max-players": 8, "outcome": "first-wins", "places": 1, "false-start": "void",
        "lockout": "first-press", "timeout-ms": 3000, "tie": "rerace", "go": "rig", "go-min-ms": 800,
        "go-max-ms": 2500,
    } | keys
    lines = [f"{k} = {json.dumps(v)}" for k, v in base.items() if v is not None]
    return preset_from_toml("\n".join(lines) + '\n[name]\nen = "Custom"\n[screen]\nen = "Go."\n', "custom")


def make(preset: Preset | str, racers: tuple[int, ...], seats: int | None = None, **kw: Any) -> RefereeRace:
    preset = PRESETS.get(preset) if isinstance(preset, str) else preset
    go = None if preset.go.value == "table" else GO
    return RefereeRace(preset, seats=seats or max(racers) + 1, racers=racers, clock=CLOCK,
                       resolution_ns=RESOLUTION_NS, armed_t_ns=ARMED, go_t_ns=kw.pop("go_t_ns", go), **kw)


@dataclass(frozen=True)
class Case:
    """One race with chosen timestamps and what the referee must say."""

    name: str
    preset: Preset | str
    racers: tuple[int, ...]
    edges: tuple[Press | Release, ...]
    now: int
    status: Status = Status.DECIDED
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    rerun: Rerun | None = None
    ties: tuple[tuple[int, ...], ...] = ()
    out: tuple[int, ...] = ()
    timeouts: tuple[int, ...] = ()
    early: tuple[tuple[int, int], ...] = ()     # (seat, early_ns)
    places: tuple[tuple[int, int, int | None, bool], ...] | None = None  # (seat, place, reaction_ns, counts)
    reason: str = ""
    recheck: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # RefereeRace keywords (voided, seed)


CASES = [
    # --- duel: GO after a random wait, the first press wins, a press before GO loses ------------
    Case("duel: the first press wins", "duel", (0, 1), (P(0, GO + 180 * MS), P(1, GO + 230 * MS)), GO + 300 * MS,
         winners=(0,), places=((0, 1, 180 * MS, True), (1, 2, 230 * MS, False)),
         reason="Seat 0 won: 180.000 ms after GO, 50.000 ms ahead of seat 1."),
    Case("duel: pending inside the settle window", "duel", (0, 1), (P(0, GO + 180 * MS),), GO + 200 * MS,
         status=Status.PENDING, recheck=GO + 230 * MS, reason="Pending: waiting for seat 1 (timeout 3000.000 ms "
         "after GO)."),
    Case("duel: the lockout decides without the other press", "duel", (0, 1), (P(0, GO + 180 * MS),),
         GO + 230 * MS, winners=(0,), reason="Seat 0 won: 180.000 ms after GO, the only valid press."),
    Case("duel: a press before GO loses", "duel", (0, 1), (P(1, GO - 300 * MS),), GO - 250 * MS, winners=(0,),
         losers=(1,), early=((1, 300 * MS),), reason="Seat 1 pressed 300.000 ms before GO and lost: seat 0 wins."),
    Case("duel: a false start waits out the settle window", "duel", (0, 1), (P(1, GO - 300 * MS),),
         GO - 290 * MS, status=Status.PENDING, early=((1, 300 * MS),), recheck=GO - 250 * MS),
    Case("duel: both jump together: run again", "duel", (0, 1), (P(1, GO - 300 * MS), P(0, GO - 280 * MS)),
         GO - 200 * MS, losers=(0, 1), rerun=Rerun.FALSE_START, early=((1, 300 * MS), (0, 280 * MS)),
         reason="Seats 0 and 1 started early (the first 300.000 ms before GO), nobody is left: the race is run "
         "again."),
    Case("duel: a button held since before arming loses at GO", "duel", (0, 1), (P(0, ARMED - 100 * MS),),
         GO + 60 * MS, winners=(1,), losers=(0,), early=((0, 1_600 * MS),),
         reason="Seat 0 was held down at GO and lost: seat 1 wins."),
    Case("duel: a tap before arming, let go, is harmless", "duel", (0, 1),
         (P(0, ARMED - 100 * MS), R(0, ARMED - 50 * MS), P(0, GO + 200 * MS), P(1, GO + 300 * MS)), GO + 300 * MS,
         winners=(0,)),
    Case("duel: closer than the resolution is a tie, re-raced", "duel", (0, 1),
         (P(0, GO + 200 * MS), P(1, GO + 200 * MS + 40 * US)), GO + 300 * MS, rerun=Rerun.TIE, ties=((0, 1),),
         places=((0, 1, 200 * MS, True), (1, 1, 200 * MS + 40 * US, True)),
         reason="Tie for first between seats 0 and 1 (40.000 µs apart, under the 100.000 µs resolution): re-race."),
    Case("duel: nobody presses: run again", "duel", (0, 1), (), GO + 3000 * MS, rerun=Rerun.NO_PRESS,
         timeouts=(0, 1), reason="Nobody pressed within the 3000.000 ms timeout: the race is run again."),
    Case("duel: contact bounce is one press", "duel", (0, 1),
         (P(0, GO + 200 * MS), R(0, GO + 201 * MS), P(0, GO + 203 * MS), P(1, GO + 215 * MS)), GO + 300 * MS,
         winners=(0,), places=((0, 1, 200 * MS, True), (1, 2, 215 * MS, False))),
    # --- grab: rig GO, first wins, a false starter is out and the others race on ----------------
    Case("grab: a false starter is out, the others race on", "grab", (0, 1, 2, 3),
         (P(2, GO - 100 * MS), R(2, GO - 50 * MS), P(2, GO + 150 * MS), P(1, GO + 200 * MS)), GO + 260 * MS,
         winners=(1,), out=(2,), early=((2, 100 * MS),), places=((1, 1, 200 * MS, True),)),
    Case("grab: still pending before GO", "grab", (0, 1, 2, 3), (P(2, GO - 100 * MS),), GO - 10 * MS,
         status=Status.PENDING, out=(2,), early=((2, 100 * MS),), recheck=GO,
         reason="Pending: GO has not been given yet."),
    Case("grab: everyone jumps: run again", "grab", (0, 1, 2),
         (P(0, GO - 100 * MS), P(1, GO - 90 * MS), P(2, GO - 80 * MS)), GO - 50 * MS, rerun=Rerun.FALSE_START,
         out=(0, 1, 2), early=((0, 100 * MS), (1, 90 * MS), (2, 80 * MS))),
    Case("grab: a press at the timeout is too late", "grab", (0, 1, 2, 3), (P(0, GO + 3000 * MS),),
         GO + 3000 * MS, rerun=Rerun.NO_PRESS, timeouts=(0, 1, 2, 3)),
    Case("grab: a tie for first is re-raced", "grab", (0, 1, 2, 3), (P(3, GO + 200 * MS), P(0, GO + 200 * MS)),
         GO + 300 * MS, rerun=Rerun.TIE, ties=((0, 3),)),
    Case("grab: eight seats", "grab", tuple(range(8)), tuple(P(s, GO + (300 - 10 * s) * MS) for s in range(8)),
         GO + 300 * MS, winners=(7,), reason="Seat 7 won: 230.000 ms after GO, 10.000 ms ahead of seat 6."),
    # --- last hand down: rig GO, the slowest loses, a press before GO runs it again -------------
    Case("last hand down: the slowest loses", "last-hand-down", (0, 1, 2),
         (P(0, GO + 200 * MS), P(1, GO + 250 * MS), P(2, GO + 400 * MS)), GO + 400 * MS, losers=(2,),
         places=((0, 1, 200 * MS, False), (1, 2, 250 * MS, False), (2, 3, 400 * MS, True)),
         reason="Seat 2 lost: 400.000 ms after GO, 150.000 ms behind seat 1."),
    Case("last hand down: waits for every hand", "last-hand-down", (0, 1, 2),
         (P(0, GO + 200 * MS), P(1, GO + 250 * MS)), GO + 500 * MS, status=Status.PENDING, recheck=GO + 3000 * MS),
    Case("last hand down: no hand by the timeout loses", "last-hand-down", (0, 1, 2),
         (P(0, GO + 200 * MS), P(1, GO + 250 * MS)), GO + 3000 * MS, losers=(2,), timeouts=(2,),
         reason="Seat 2 lost: no press within the 3000.000 ms timeout."),
    Case("last hand down: two without a hand tie, re-raced", "last-hand-down", (0, 1, 2), (P(0, GO + 200 * MS),),
         GO + 3000 * MS, rerun=Rerun.TIE, ties=((1, 2),), timeouts=(1, 2),
         reason="Tie for last between seats 1 and 2 (no press within the 3000.000 ms timeout): re-race."),
    Case("last hand down: a hand before GO runs it again", "last-hand-down", (0, 1, 2), (P(1, GO - 50 * MS),),
         GO - 50 * MS, rerun=Rerun.FALSE_START, early=((1, 50 * MS),),
         reason="Seat 1 pressed 50.000 ms before GO: the race is run again."),
    Case("last hand down: a tie for last is re-raced", "last-hand-down", (0, 1, 2),
         (P(0, GO + 200 * MS), P(1, GO + 400 * MS), P(2, GO + 400 * MS + 10 * US)), GO + 500 * MS, rerun=Rerun.TIE,
         ties=((1, 2),), reason="Tie for last between seats 1 and 2 (10.000 µs apart, under the 100.000 µs "
         "resolution): re-race."),
    Case("last hand down: a tie elsewhere does not count", "last-hand-down", (0, 1, 2),
         (P(0, GO + 200 * MS), P(1, GO + 200 * MS + 10 * US), P(2, GO + 400 * MS)), GO + 500 * MS, losers=(2,),
         places=((0, 1, 200 * MS, False), (1, 1, 200 * MS + 10 * US, False), (2, 3, 400 * MS, True))),
    Case("last hand down: nobody: run again", "last-hand-down", (0, 1, 2), (), GO + 3000 * MS,
         rerun=Rerun.NO_PRESS, timeouts=(0, 1, 2)),
    # --- bell slap: the table's GO (the race runs from arming), the table may void a slap -------
    Case("bell slap: the first slap wins; no reaction time from arming", "bell-slap", (0, 1, 2),
         (P(1, ARMED + 20_000 * MS), P(0, ARMED + 20_100 * MS)), ARMED + 20_200 * MS, winners=(1,),
         places=((1, 1, None, True), (0, 2, None, False)),
         reason="Seat 1 won: the first press, 100.000 ms ahead of seat 0."),
    Case("bell slap: a wrong slap voided, the next in line wins", "bell-slap", (0, 1, 2),
         (P(1, ARMED + 20_000 * MS), P(0, ARMED + 20_100 * MS)), ARMED + 20_200 * MS, winners=(0,), out=(1,),
         places=((0, 1, None, True),), extra={"voided": (1,)},
         reason="Seat 0 won once seat 1 was voided: the first press, the only valid press."),
    Case("bell slap: a slap right after arming is no false start", "bell-slap", (0, 1, 2),
         (P(2, ARMED + 10 * MS),), ARMED + 60 * MS, winners=(2,)),
    Case("bell slap: a hand held on the bell at arming is out", "bell-slap", (0, 1, 2),
         (P(0, ARMED - 500 * MS), P(1, ARMED + 5_000 * MS)), ARMED + 5_100 * MS, winners=(1,), out=(0,),
         early=((0, 500 * MS),)),
    Case("bell slap: every slap voided: wait for the rest", "bell-slap", (0, 1, 2),
         (P(1, ARMED + 20_000 * MS), P(0, ARMED + 20_100 * MS)), ARMED + 20_200 * MS, status=Status.PENDING,
         out=(0, 1), recheck=ARMED + 300_000 * MS, extra={"voided": (0, 1)},
         reason="Pending: waiting for seat 2 (timeout 300000.000 ms after arming)."),
    Case("bell slap: every slap voided and the time is up: run again", "bell-slap", (0, 1, 2),
         (P(1, ARMED + 20_000 * MS),), ARMED + 300_000 * MS, rerun=Rerun.NO_PRESS, out=(1,), timeouts=(0, 2),
         extra={"voided": (1,)}),
    # --- what a café preset can choose ----------------------------------------------------------
    Case("shared tie: both win", custom(tie="shared"), (0, 1, 2, 3), (P(3, GO + 200 * MS), P(0, GO + 200 * MS)),
         GO + 300 * MS, winners=(0, 3), ties=((0, 3),),
         reason="Tie for first between seats 0 and 3 (0 ns apart, under the 100.000 µs resolution): they share "
         "the win."),
    Case("two places count", custom(places=2), (0, 1, 2),
         (P(2, GO + 200 * MS), P(0, GO + 250 * MS)), GO + 300 * MS, winners=(2,),
         places=((2, 1, 200 * MS, True), (0, 2, 250 * MS, True))),
    Case("two places count: pending until both are in", custom(places=2), (0, 1, 2), (P(2, GO + 200 * MS),),
         GO + 300 * MS, status=Status.PENDING, recheck=GO + 3000 * MS),
    Case("no lockout: waits for everyone's time", custom(lockout="none"), (0, 1, 2),
         (P(2, GO + 200 * MS), P(0, GO + 250 * MS)), GO + 600 * MS, status=Status.PENDING, recheck=GO + 3000 * MS),
    Case("no lockout: decided when all are in", custom(lockout="none"), (0, 1, 2),
         (P(2, GO + 200 * MS), P(0, GO + 250 * MS), P(1, GO + 700 * MS)), GO + 700 * MS, winners=(2,)),
    Case("false start loses at a bigger table: the others win", custom(**{"false-start": "loses"}), (0, 1, 2, 3),
         (P(2, GO - 100 * MS),), GO, winners=(0, 1, 3), losers=(2,), early=((2, 100 * MS),),
         reason="Seat 2 pressed 100.000 ms before GO and lost: seats 0, 1 and 3 win."),
    Case("last loses, two places count, shared", custom(outcome="last-loses", lockout="none", places=2, **{"min-players": 3},
                                                        tie="shared"), (0, 1, 2, 3),
         (P(0, GO + 200 * MS), P(1, GO + 300 * MS), P(2, GO + 350 * MS), P(3, GO + 350 * MS)), GO + 400 * MS,
         losers=(2, 3), ties=((2, 3),), reason="Tie for last between seats 2 and 3 (0 ns apart, under the "
         "100.000 µs resolution): they share the loss."),
    Case("last loses with the table's GO", custom(outcome="last-loses", lockout="none", go="table",
                                                  **{"go-min-ms": None, "go-max-ms": None}), (0, 1),
         (P(0, ARMED + 900 * MS), P(1, ARMED + 950 * MS)), ARMED + 950 * MS, losers=(1,),
         reason="Seat 1 lost: the last press, 50.000 ms behind seat 0."),
]


def result_of(case: Case, edges: tuple[Press | Release, ...] | None = None) -> RefereeResult:
    return judge_race(make(case.preset, case.racers, **case.extra), case.edges if edges is None else edges, case.now)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_preset_with_chosen_timestamps(case: Case) -> None:
    result = result_of(case)
    assert result.status is case.status, result.reason
    assert (result.winners, result.losers, result.rerun_why, result.rerun) == (
        case.winners, case.losers, case.rerun, case.rerun is not None), result.reason
    assert result.ties == case.ties and result.out == case.out and result.timeouts == case.timeouts
    assert tuple((e.seat, e.early_ns) for e in result.false_starts) == case.early
    if case.places is not None:
        assert tuple((p.seat, p.place, p.reaction_ns, p.counts) for p in result.places) == case.places
    if case.reason:
        assert result.reason == case.reason
    if case.status is Status.PENDING:
        assert result.recheck_t_ns == case.recheck
    assert result.preset_id == (case.preset if isinstance(case.preset, str) else case.preset.id)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_order_edges_arrive_in_does_not_matter(case: Case) -> None:
    shuffled = list(case.edges)
    random.Random(7).shuffle(shuffled)
    assert result_of(case, tuple(reversed(case.edges))) == result_of(case) == result_of(case, tuple(shuffled))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_race_record_judges_the_same_again(case: Case) -> None:
    race = make(case.preset, case.racers, **case.extra)
    record = json.loads(json.dumps(race_record(race, case.edges, case.now)))
    assert rejudge(record) == judge_race(race, case.edges, case.now)
    # 'cheating-moth judge' reads the judge part as it is and finds the same evidence.
    by_judge = judge_file_document(record["judge"])
    result = judge_race(race, case.edges, case.now)
    assert [(p.player, p.t_ns) for p in by_judge.ranking] == [(p.seat, p.t_ns) for p in sorted(
        result.places, key=lambda p: (p.t_ns, p.seat))] or result.ties
    assert [(f.player, f.t_ns) for f in by_judge.false_starts] == [(e.seat, e.t_ns) for e in result.false_starts]
    assert json.dumps(result_to_json(result))


def test_a_tie_drawn_by_lot_is_the_seed_s() -> None:
    preset = custom(tie="random")
    edges = (P(3, GO + 200 * MS), P(0, GO + 200 * MS + 5 * US), P(1, GO + 300 * MS))
    winners = set()
    for seed in range(20):
        result = judge_race(make(preset, (0, 1, 2, 3), seed=seed), edges, GO + 300 * MS)
        assert result.ties == ((0, 3),) and len(result.winners) == 1 and not result.rerun
        assert result.winners == judge_race(make(preset, (0, 1, 2, 3), seed=seed), edges, GO + 300 * MS).winners
        assert [p.place for p in result.places] == [1, 2, 3]
        assert result.reason.endswith(f"drawn by lot (seed {seed}): seat {result.winners[0]} wins.")
        winners |= set(result.winners)
    assert winners == {0, 3}  # the lot, not the arrival order or the seat number, decides


def test_a_tie_for_last_drawn_by_lot() -> None:
    preset = custom(outcome="last-loses", lockout="none", tie="random")
    losers = set()
    for seed in range(20):
        result = judge_race(make(preset, (0, 1, 2), seed=seed), (P(0, GO + 200 * MS),), GO + 3000 * MS)
        assert result.ties == ((1, 2),) and result.timeouts == (1, 2) and len(result.losers) == 1
        losers |= set(result.losers)
    assert losers == {1, 2}


# --- arming a race: what is refused ---------------------------------------------------------------


@pytest.mark.parametrize(("preset", "racers", "kw", "message"), [
    ("duel", (0, 1, 2), {}, r"racers \(0, 1, 2\) are not valid for preset 'duel': name exactly 2 seats in a tuple"),
    ("grab", (0,), {}, r"racers \(0,\) are not valid for preset 'grab': name 2 to 8 seats in a tuple"),
    ("grab", [0, 1], {}, r"racers \[0, 1\] are not valid for preset 'grab'"),
    ("grab", (0, 1), {"go_t_ns": None}, r"go_t_ns None is not valid for preset 'grab': with go = 'rig' give the time "
                                        r"GO was given or is due"),
    ("bell-slap", (0, 1), {"go_t_ns": GO}, rf"go_t_ns {GO} is not valid for preset 'bell-slap': with go = 'table' the "
                                           rf"race starts at arming \(armed_t_ns {ARMED}\), give None"),
    ("grab", (0, 1), {"voided": (1,)}, r"voided seats \(1,\) are not valid: preset 'grab' does not let the table void"),
    ("bell-slap", (0, 1), {"voided": (2,), "seats": 3}, r"voided seat 2 did not race"),
    ("grab", (0, 9), {"seats": 3}, r"eligible seat 9 is not a seat at a 3-player table: use 0 to 2"),
    ("grab", (0, 0), {}, r"eligible seats \(0, 0\) name seat 0 twice"),
    ("grab", (0, 1), {"clock": ""}, r"race clock '' is not valid"),
    ("grab", (0, 1), {"seats": 9}, r"players 9 is not valid: a race needs 2 to 8 players"),
])
def test_a_race_that_cannot_be_judged_is_refused(preset: str, racers: Any, kw: dict[str, Any], message: str) -> None:
    p = PRESETS.get(preset)
    args: dict[str, Any] = {"seats": 2, "clock": CLOCK, "go_t_ns": None if p.go.value == "table" else GO} | kw
    with pytest.raises(BadRace, match=message):
        RefereeRace(p, racers=racers, resolution_ns=RESOLUTION_NS, armed_t_ns=ARMED, **args)


def test_a_preset_must_be_a_preset() -> None:
    with pytest.raises(BadRace, match=r"preset 'grab' is not valid: give a Preset \(see load_presets\)"):
        RefereeRace("grab", seats=2, racers=(0, 1), clock=CLOCK, resolution_ns=1, armed_t_ns=0)  # type: ignore[arg-type]


def test_edges_are_checked_as_the_judge_checks_them() -> None:
    race = make("grab", (0, 1))
    with pytest.raises(BadRace, match=r"is on clock 'board', not the race clock 'sim'"):
        judge_race(race, [Press(0, GO + MS, "board")], GO + 2 * MS)
    with pytest.raises(BadRace, match=r"is after now_t_ns"):
        judge_race(race, [P(0, GO + 5 * MS)], GO)
    with pytest.raises(BadRace, match=rf"now_t_ns {ARMED - 1} is not valid: judge at or after arming"):
        judge_race(race, [], ARMED - 1)


def test_the_fore_period_comes_from_the_callers_generator() -> None:
    grab = PRESETS.get("grab")
    delays = [draw_go_delay_ns(grab, random.Random(seed)) for seed in range(50)]
    assert all(800 * MS <= d <= 2500 * MS for d in delays) and len(set(delays)) > 40
    assert draw_go_delay_ns(grab, random.Random(3)) == draw_go_delay_ns(grab, random.Random(3))
    with pytest.raises(BadRace, match=r"preset 'bell-slap' has go = 'table': only go = 'rig' draws a fore-period"):
        draw_go_delay_ns(PRESETS.get("bell-slap"), random.Random(1))


# --- records ----------------------------------------------------------------------------------


def test_a_record_s_judge_part_is_a_judge_document() -> None:
    race = make("last-hand-down", (0, 1, 2), seed=4)
    doc = judge_document(race, (P(2, GO + 5 * MS), R(2, GO + 90 * MS), P(0, GO + MS)), GO + 100 * MS)
    assert doc == {
        "kind": "cockroach", "players": 3, "active": 0, "eligible": [0, 1, 2], "clock": CLOCK,
        "resolution_ns": RESOLUTION_NS, "armed_t_ns": ARMED, "go_t_ns": GO, "timeout_ms": 3000, "lockout_ms": 25,
        "settle_ms": 50, "voided": [], "tie_policy": "rerace", "seed": 4, "now_t_ns": GO + 100 * MS,
        "edges": [{"player": 0, "edge": "press", "t_ns": GO + MS}, {"player": 2, "edge": "press", "t_ns": GO + 5 * MS},
                  {"player": 2, "edge": "release", "t_ns": GO + 90 * MS}],
    }


def test_a_debounce_of_part_milliseconds_cannot_be_recorded() -> None:
    race = make("grab", (0, 1), bounce_ns=25 * MS + 1)
    with pytest.raises(BadRace, match=r"bounce_ns 25000001 ns is not a whole number of milliseconds: a judge document "
                                      r"holds whole milliseconds"):
        race_record(race, (), GO)


def _record() -> dict[str, Any]:
    race = make("duel", (0, 1))
    record: dict[str, Any] = json.loads(json.dumps(race_record(race, (P(0, GO + 200 * MS),), GO + 300 * MS)))
    return record


@pytest.mark.parametrize(("change", "error", "message"), [
    (lambda r: [r], BadRace, r"referee record 'list' is not valid: use an object with 'referee' and 'judge'"),
    (lambda r: {"judge": r["judge"]}, BadRace, r"referee record \['judge'\] is not valid"),
    (lambda r: r | {"referee": {"preset": "duel"}}, BadRace, r"referee record field 'referee' \['preset'\] is not valid"),
    (lambda r: r | {"referee": {"preset": "duel", "rules": []}}, BadPreset, r"referee record rules list are not valid"),
    (lambda r: r | {"referee": {"preset": "duel", "rules": r["referee"]["rules"] | {"tie": "coin"}}}, BadPreset,
     r"referee record rules: tie 'coin' is not valid: use 'rerace', 'random' or 'shared'"),
    (lambda r: r | {"judge": r["judge"] | {"timeout_ms": 4000}}, BadRace,
     r"referee record judge field 'timeout_ns' is 4000000000, but the rules give 3000000000"),
    (lambda r: r | {"judge": r["judge"] | {"tie_policy": "random"}}, BadRace,
     r"referee record judge field 'tie_policy' is 'random', but the rules give 'rerace': the two parts are of "
     r"different races"),
    (lambda r: r | {"judge": r["judge"] | {"edges": "x"}}, BadRace, r"field 'edges' is 'x'"),
])
def test_a_damaged_record_is_named(change: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        read_race_record(change(_record()))
