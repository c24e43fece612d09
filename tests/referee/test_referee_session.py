"""A referee session through its pure step: every shipped preset with chosen timestamps.

The session draws each rig GO from its seed and asks the shell for it (``ScheduleGo``); these
tests read that due time and give the GO stamp the adapter would, chosen relative to it, then
presses at chosen offsets. Nothing reads a clock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from game.controller.effects import Arm, Leds, Light, Notice, PlaySound, ScheduleGo, WakeAt
from game.controller.inputs import Tick
from game.errors import BadInputEvent, BadRace, WrongPhase
from game.inputs import Go, Press, Release
from game.referee.presets import load_presets
from game.referee.race import Rerun, rejudge, result_to_json
from game.referee.session import Phase, Session, Start, Void, check, new_session, step

MS = 1_000_000
CLOCK = "sim"
T0 = 10_000 * MS
PRESETS = load_presets()


def session(preset: str, seats: int = 3, seed: int = 7, **kw: Any) -> Session:
    return new_session(PRESETS.get(preset), seats, clock=CLOCK, resolution_ns=100_000, seed=seed, t_ns=T0, **kw)


def feed(s: Session, *inputs: Any) -> tuple[Session, list[Any]]:
    effects: list[Any] = []
    for event in inputs:
        s, fx = step(s, event)
        effects.extend(fx)
    return s, effects


def start(s: Session) -> tuple[Session, int | None]:
    """Start a race at the session's now; the GO due time the session asked of the shell."""
    s, fx = feed(s, Start(s.now_t_ns))
    due = [e.t_ns for e in fx if isinstance(e, ScheduleGo)]
    return s, (due[0] if due else None)


def P(seat: int, t: int) -> Press:
    return Press(seat, t, CLOCK)


def R(seat: int, t: int) -> Release:
    return Release(seat, t, CLOCK)


@dataclass(frozen=True)
class Case:
    """One race: presses at ms offsets from GO (negative: before it), GO stamped ``go_late_ms``
    after due, ``tick_ms`` after GO a Tick; what the referee must say."""

    name: str
    preset: str
    presses: tuple[tuple[int, int], ...]
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    rerun: Rerun | None = None
    false_starts: tuple[int, ...] = ()
    phase: Phase = Phase.DECIDED
    seats: int = 3
    go_late_ms: int = 0
    tick_ms: int | None = None
    presses_before_go_stamp: bool = False      # the board's batch: presses reach the host before GO's stamp


CASES = [
    Case("duel clean", "duel", ((1, 180), (0, 221)), winners=(1,), seats=2),
    Case("duel false start loses", "duel", ((0, -300), (1, 200)), winners=(1,), losers=(0,), false_starts=(0,),
         seats=2),
    Case("duel tie reraces", "duel", ((0, 200), (1, 200)), rerun=Rerun.TIE, phase=Phase.READY, seats=2),
    Case("duel nobody presses", "duel", (), rerun=Rerun.NO_PRESS, phase=Phase.READY, seats=2, tick_ms=3_001),
    Case("duel late GO stamp", "duel", ((0, 150), (1, 151)), winners=(0,), seats=2, go_late_ms=4),
    Case("duel presses before GO's stamp arrives", "duel", ((1, 190), (0, 240)), winners=(1,), seats=2,
         go_late_ms=3, presses_before_go_stamp=True, tick_ms=400),
    Case("grab clean", "grab", ((2, 240), (0, 199), (1, 300)), winners=(0,)),
    Case("grab false start voids one", "grab", ((0, -50), (2, 260), (1, 270)), winners=(2,), false_starts=(0,)),
    Case("grab everyone early reruns", "grab", ((0, -50), (1, -20), (2, -10)), rerun=Rerun.FALSE_START,
         phase=Phase.READY, false_starts=(0, 1, 2)),
    Case("grab timeout reruns", "grab", (), rerun=Rerun.NO_PRESS, phase=Phase.READY, tick_ms=3_001),
    Case("last hand down", "last-hand-down", ((0, 200), (1, 260), (2, 410)), losers=(2,)),
    Case("last hand down restart", "last-hand-down", ((1, -100),), rerun=Rerun.FALSE_START, phase=Phase.READY,
         false_starts=(1,)),
    Case("last hand down tie for last", "last-hand-down", ((0, 200), (1, 400), (2, 400)), rerun=Rerun.TIE,
         phase=Phase.READY),
    Case("last hand down timeout loses", "last-hand-down", ((0, 200), (1, 260)), losers=(2,), tick_ms=3_001),
    Case("bell slap first wins", "bell-slap", ((2, 5_000), (0, 5_150), (1, 5_400)), winners=(2,)),
    Case("bell slap four seats", "bell-slap", ((3, 900), (1, 880)), winners=(1,), seats=4, tick_ms=1_000),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_preset_judged_through_the_session(case: Case) -> None:
    s, due = start(session(case.preset, case.seats))
    table_go = due is None
    go_t = s.race.armed_t_ns if table_go else due + case.go_late_ms * MS
    assert s.phase is (Phase.RUNNING if table_go else Phase.ARMED)
    before = [p for p in case.presses if p[1] < 0]
    after = [p for p in case.presses if p[1] >= 0]
    s, _ = feed(s, *(P(seat, go_t + ms * MS) for seat, ms in before))
    if case.presses_before_go_stamp:
        s, _ = feed(s, *(P(seat, go_t + ms * MS) for seat, ms in after))
        after = []
    if not table_go:
        s, _ = feed(s, Go(go_t, CLOCK))
    s, _ = feed(s, *(P(seat, go_t + ms * MS) for seat, ms in after))
    if case.tick_ms is not None:
        s, _ = feed(s, Tick(go_t + case.tick_ms * MS))
    assert s.phase is case.phase, s.result.reason if s.result else None
    result = s.results[-1]
    assert result.winners == case.winners, result.reason
    assert result.losers == case.losers, result.reason
    assert result.rerun_why is case.rerun if case.rerun else not result.rerun, result.reason
    assert tuple(sorted(f.seat for f in result.false_starts)) == case.false_starts
    # The record kept re-judges to the same result.
    assert result_to_json(rejudge(s.records[-1])) == result_to_json(result)


def test_reaction_is_measured_from_the_go_stamp_not_the_due_time() -> None:
    s, due = start(session("duel", 2))
    s, _ = feed(s, Go(due + 5 * MS, CLOCK), P(0, due + 205 * MS), P(1, due + 305 * MS))
    first = s.result.places[0]
    assert (first.seat, first.reaction_ns) == (0, 200 * MS)


def test_the_fore_period_replays_from_the_seed_and_race_number() -> None:
    dues = []
    for _ in range(2):
        s, due = start(session("grab", seed=42))
        dues.append(due - s.race.armed_t_ns)
    assert dues[0] == dues[1]
    assert 800 * MS <= dues[0] <= 2_500 * MS
    other = [start(session("grab", seed=seed))[1] for seed in range(6)]
    assert len(set(other)) > 1


def test_a_restart_calls_off_the_pending_go() -> None:
    """last-hand-down: a hand down early runs the race again; the GO the shell gives late for
    the called-off race changes nothing, and the next race is a fresh one."""
    s, due = start(session("last-hand-down"))
    s, fx = feed(s, P(1, due - 100 * MS), R(1, due - 20 * MS))
    assert s.phase is Phase.READY and s.results[-1].rerun_why is Rerun.FALSE_START
    assert PlaySound("false_start") in fx
    after, fx = feed(s, Go(due, CLOCK))
    assert (after.phase, after.race, after.results, fx) == (s.phase, s.race, s.results, [])
    s, due2 = start(s)
    assert s.number == 2 and s.phase is Phase.ARMED and s.edges == ()
    s, _ = feed(s, Go(due2, CLOCK), P(0, due2 + 200 * MS), P(1, due2 + 210 * MS), P(2, due2 + 500 * MS))
    assert s.results[-1].losers == (2,)
    assert len(s.results) == 2 and len(s.decided) == 1


def test_start_lights_and_schedules_go_for_the_racers_only() -> None:
    s = session("duel", seats=4, racers=(1, 3))
    s, fx = feed(s, Start(T0))
    assert fx[0] == Arm(1, (1, 3))
    assert PlaySound("ready") in fx
    assert Leds((Light.OFF, Light.ARMED, Light.OFF, Light.ARMED), Light.OFF) in fx
    (go,) = [e for e in fx if isinstance(e, ScheduleGo)]
    assert go.race == 1 and go.seats == (1, 3)
    s, fx = feed(s, Go(go.t_ns, CLOCK))
    assert PlaySound("go") in fx and Leds((Light.OFF, Light.ON, Light.OFF, Light.ON), Light.OFF) in fx
    assert any(isinstance(e, WakeAt) for e in fx)
    s, fx = feed(s, P(3, go.t_ns + 190 * MS), P(0, go.t_ns + 100 * MS),   # seat 0 does not race
                 Tick(go.t_ns + 400 * MS))
    assert s.result.winners == (3,)
    assert Leds((Light.OFF, Light.OFF, Light.OFF, Light.WINNER), Light.ON) in fx


def test_a_press_outside_a_race_is_evidence_of_nothing() -> None:
    s = session("grab")
    after, fx = feed(s, P(0, T0 + MS), R(0, T0 + 2 * MS), Tick(T0 + 3 * MS))
    assert after.edges == () and after.results == () and fx == []


def test_bell_slap_the_table_voids_the_winner_and_the_next_in_line_takes_it() -> None:
    s, due = start(session("bell-slap", 4))
    assert due is None and s.phase is Phase.RUNNING
    armed = s.race.armed_t_ns
    s, _ = feed(s, P(2, armed + 4_000 * MS), P(0, armed + 4_150 * MS), P(3, armed + 4_400 * MS))
    assert s.result.winners == (2,)
    assert [p.seat for p in s.result.places] == [2, 0, 3]     # hands after the winner's are kept
    s, fx = feed(s, Void(2, armed + 6_000 * MS))
    assert s.phase is Phase.DECIDED and s.result.winners == (0,) and PlaySound("guilty") in fx
    s, _ = feed(s, Void(0, armed + 7_000 * MS))
    assert s.result.winners == (3,)
    # The corrected result replaces the one it corrects: the tally counts the race once.
    assert len(s.results) == 1 and len(s.records) == 1 and s.wins(3) == 1 and s.wins(2) == 0
    assert result_to_json(rejudge(s.records[-1])) == result_to_json(s.result)


def test_bell_slap_voiding_the_only_hand_waits_for_the_next() -> None:
    s, _ = start(session("bell-slap", 3))
    armed = s.race.armed_t_ns
    s, _ = feed(s, P(1, armed + 2_000 * MS), Tick(armed + 2_100 * MS), Void(1, armed + 3_000 * MS))
    assert s.phase is Phase.RUNNING and not s.result.decided
    s, _ = feed(s, P(0, armed + 9_000 * MS), Tick(armed + 9_100 * MS))
    assert s.phase is Phase.DECIDED and s.result.winners == (0,)


def test_bell_slap_a_button_held_at_arming_is_a_false_start() -> None:
    s = session("bell-slap", 3)
    # The adapter reports a button already down at arming with its own (earlier) stamp.
    s, _ = feed(s, Start(T0), P(1, T0 - 5 * MS), P(0, T0 + 500 * MS), Tick(T0 + 900 * MS))
    assert s.result.winners == (0,)
    assert [f.seat for f in s.result.false_starts] == [1]


def test_tally_counts_decided_races_only() -> None:
    s = session("duel", 2)
    for first in (0, 1, 0):
        s, due = start(s)
        s, _ = feed(s, Go(due, CLOCK), P(first, due + 200 * MS), P(1 - first, due + 250 * MS),
                    R(first, due + 300 * MS), R(1 - first, due + 350 * MS))
    s, due = start(s)
    s, _ = feed(s, Go(due, CLOCK), P(0, due + 200 * MS), P(1, due + 200 * MS))   # a tie: run again
    assert (s.wins(0), s.wins(1), s.losses(0), s.losses(1)) == (2, 1, 0, 0)
    assert len(s.results) == 4 and len(s.decided) == 3 and s.number == 4


@pytest.mark.parametrize("bad, error", [
    (lambda s: Start(s.now_t_ns), WrongPhase),                       # a race is running
    (lambda s: Void(0, s.now_t_ns), WrongPhase),                     # duel: results stand
    (lambda s: P(5, s.now_t_ns), BadInputEvent),                     # no such seat
    (lambda s: Press(0, s.now_t_ns, "gpio"), BadInputEvent),         # another clock
    (lambda s: Go(0, CLOCK), BadInputEvent),                         # GO before arming
    (lambda s: "press", BadInputEvent),
])
def test_refused_inputs_leave_the_session_unchanged(bad: Any, error: type[Exception]) -> None:
    s, _ = start(session("duel", 2))
    event = bad(s)
    after, fx = step(s, event)
    assert after is s
    (notice, *rest) = fx
    assert isinstance(notice, Notice) and notice.message.key == "refused"
    with pytest.raises(error):
        check(s, event)


def test_void_refusals_name_the_seat_and_the_winner() -> None:
    s, _ = start(session("bell-slap", 3))
    armed = s.race.armed_t_ns
    with pytest.raises(WrongPhase, match="only the winner"):
        check(s, Void(0, armed + MS))                                  # nothing decided yet
    s, _ = feed(s, P(2, armed + MS), P(1, armed + 2 * MS), Tick(armed + 500 * MS))
    with pytest.raises(BadRace, match=r"seat 1 did not win this race: only its winner \(seat 2\)"):
        check(s, Void(1, armed + 3 * MS))
    after, fx = step(s, Void(1, armed + 3 * MS))
    assert after is s and PlaySound("refused") in fx


@pytest.mark.parametrize("kw, match", [
    (dict(preset="duel", seats=3), "3 players cannot play 'duel'"),
    (dict(preset="grab", seats=9), "seats 9 is not valid"),
    (dict(preset="grab", seats=3, racers=(0,)), "1 players cannot play"),
    (dict(preset="grab", seats=3, racers=(0, 4)), "4"),
])
def test_a_session_that_does_not_fit_its_preset_is_refused(kw: dict[str, Any], match: str) -> None:
    preset = kw.pop("preset")
    seats = kw.pop("seats")
    with pytest.raises(BadRace, match=match):
        new_session(PRESETS.get(preset), seats, clock=CLOCK, resolution_ns=100_000, **kw)


def test_a_button_held_down_through_arming_is_a_false_start() -> None:
    """grab: Cal's hand rests on the button from before the start to after GO: held at GO, a
    false start (out of this race); Ann's tap before the start was released and is nothing."""
    s = session("grab")
    s, _ = feed(s, P(2, T0 - 900 * MS), P(0, T0 - 500 * MS), R(0, T0 - 400 * MS))
    s, due = start(s)
    assert [(e.player, e.t_ns) for e in s.edges] == [(2, T0 - 900 * MS)]
    s, _ = feed(s, Go(due, CLOCK), P(1, due + 230 * MS), P(0, due + 260 * MS), Tick(due + 600 * MS))
    assert s.result.winners == (1,)
    assert [(f.seat, f.held_at_go) for f in s.result.false_starts] == [(2, True)]


def test_a_hand_resting_through_arming_that_lifts_before_go_is_no_false_start() -> None:
    """A press before arming is only a false start if it is still down at GO (the judge's rule):
    a hand resting on the button while the host starts, lifted before GO, races clean."""
    s = session("last-hand-down")
    s, _ = feed(s, P(1, T0 - 100 * MS))
    s, due = start(s)
    s, _ = feed(s, R(1, due - 300 * MS), Go(due, CLOCK), P(0, due + 200 * MS), P(1, due + 250 * MS),
                P(2, due + 330 * MS))
    assert s.phase is Phase.DECIDED and s.result.losers == (2,) and s.result.false_starts == ()


def test_a_button_held_through_a_restart_restarts_it_again() -> None:
    """last-hand-down: a hand kept down after its false start is still down at the next GO."""
    s, due = start(session("last-hand-down"))
    s, _ = feed(s, P(1, due - 100 * MS))
    assert s.phase is Phase.READY
    s, _ = feed(s, Tick(due + 3_000 * MS))          # the host starts it again 3 s later
    s, due2 = start(s)
    assert s.phase is Phase.ARMED                   # down since before arming: known at GO
    s, _ = feed(s, Go(due2, CLOCK))
    assert s.phase is Phase.READY and s.number == 2
    assert [(f.seat, f.held_at_go) for f in s.results[-1].false_starts] == [(1, True)]


def test_a_race_called_off_counts_nothing_and_the_next_starts_fresh() -> None:
    from game.referee.session import CallOff

    s, due = start(session("grab"))
    s, _ = feed(s, P(0, due - 50 * MS), R(0, due - 5 * MS))   # an early hand, then GO cannot be given
    s, fx = feed(s, CallOff(due + 10 * MS))
    assert s.phase is Phase.READY and s.race is None and s.results == () and s.records == ()
    assert PlaySound("refused") in fx
    with pytest.raises(WrongPhase, match="no race is armed or running"):
        check(s, CallOff(due + 20 * MS))
    s, due2 = start(s)
    s, _ = feed(s, Go(due2, CLOCK), P(1, due2 + 210 * MS), Tick(due2 + 500 * MS))
    assert s.number == 2 and s.result.winners == (1,) and s.result.false_starts == ()


@pytest.mark.parametrize("preset, seats", [("bell-slap", 4), ("last-hand-down", 4)])
def test_a_chattering_button_keeps_the_evidence_small_and_the_verdict_the_same(preset: str, seats: int) -> None:
    """Seat 1's contacts chatter every 100 µs for 0.4 s after its counted press, while the
    others press: the session keeps only what can change a verdict, and that verdict is the
    one the judge gives on every edge."""
    from game.referee.race import judge_race

    s, due = start(session(preset, seats))
    go = s.race.armed_t_ns + 2_000 * MS if due is None else due
    if due is not None:
        s, _ = feed(s, Go(go, CLOCK))
    edges = [P(1, go + 150 * MS)]
    edges += [(R if i % 2 == 0 else P)(1, go + 150 * MS + (i + 1) * 100_000) for i in range(4_000)]
    edges += [P(0, go + 170 * MS), P(2, go + 180 * MS), P(3, go + 240 * MS)]
    edges.sort(key=lambda e: e.t_ns)
    for edge in edges:
        s, _ = step(s, edge)
    s, _ = feed(s, Tick(go + 4_000 * MS))
    assert len(s.records[-1]["judge"]["edges"]) < 600
    race = s.race
    assert race is not None
    everything = judge_race(race, edges, go + 4_000 * MS)
    assert (s.result.winners, s.result.losers) == (everything.winners, everything.losers)
    assert [p.seat for p in s.result.places] == [p.seat for p in everything.places]


def test_a_false_starters_chatter_before_go_is_bounded() -> None:
    """grab: Ann's early hand chatters every 100 µs until GO: a few dozen of her edges are kept
    (the level at GO of a chattering contact is anyone's guess), the race stays quick to judge
    and is decided as on every edge: she is out, Bea wins."""
    from game.referee.session import MAX_EARLY_EDGES

    s, due = start(session("grab"))
    early = [(P if i % 2 == 0 else R)(0, due - 1_000 * MS + i * 100_000) for i in range(5_000)]
    s, _ = feed(s, *early)
    s, _ = feed(s, Go(due, CLOCK), P(1, due + 200 * MS), P(2, due + 260 * MS), Tick(due + 600 * MS))
    assert sum(e.player == 0 for e in s.edges) == MAX_EARLY_EDGES
    assert s.result.winners == (1,) and [f.seat for f in s.result.false_starts][:1] == [0]


def test_the_lights_the_session_shows_whole() -> None:
    from game.referee.session import leds

    s = session("grab", seats=4, racers=(0, 1, 3))
    assert leds(s) == Leds((Light.OFF,) * 4, Light.ON)
    s, due = start(s)
    assert leds(s) == Leds((Light.ARMED, Light.ARMED, Light.OFF, Light.ARMED), Light.OFF)
    s, _ = feed(s, Go(due, CLOCK))
    assert leds(s) == Leds((Light.ON, Light.ON, Light.OFF, Light.ON), Light.OFF)
    s, _ = feed(s, P(3, due + 200 * MS), Tick(due + 600 * MS))
    assert leds(s) == Leds((Light.OFF, Light.OFF, Light.OFF, Light.WINNER), Light.ON)
