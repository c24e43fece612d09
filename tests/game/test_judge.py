"""The race judge on synthetic timestamps: every time here is chosen, none is read from a clock."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import BadRace
from game.i18n.lookup import decimal
from game.inputs import Press, Release
from game.judge import (
    Edge,
    FalseStart,
    IgnoredEdge,
    Placing,
    RaceResult,
    RaceSpec,
    Status,
    TiePolicy,
    default_eligible,
    format_gap,
    format_ms,
    format_seats,
    judge,
)
from game.race import RaceKind

MS = 1_000_000
CLOCK = "sim"
ARMED = 1_000 * MS
GO = 3_000 * MS
TIMEOUT = 3_000 * MS
DEADLINE = GO + TIMEOUT
LATE = DEADLINE + 1_000 * MS  # a "now" well after everything


def P(seat: int, t_ns: int) -> Edge:
    return Press(seat, t_ns, CLOCK)


def R(seat: int, t_ns: int) -> Edge:
    return Release(seat, t_ns, CLOCK)


def spec_of(kind: RaceKind = RaceKind.SLAP, players: int = 4, active: int = 0, **changes: Any) -> RaceSpec:
    if "eligible" not in changes:
        changes["eligible"] = default_eligible(kind, players, active)
    base: dict[str, Any] = dict(
        kind=kind,
        players=players,
        active=active,
        clock=CLOCK,
        resolution_ns=1,
        armed_t_ns=ARMED,
        go_t_ns=GO,
        timeout_ns=TIMEOUT,
    )
    base.update(changes)
    return RaceSpec(**base)


def slap(**changes: Any) -> RaceSpec:
    return spec_of(RaceKind.SLAP, **changes)


def roach(**changes: Any) -> RaceSpec:
    return spec_of(RaceKind.COCKROACH, **changes)


def order(result: RaceResult) -> list[int]:
    return [placing.player for placing in result.ranking]


# --- ordering, ties, resolution -----------------------------------------------------------------


def test_slap_presses_one_ns_apart_are_ordered_at_resolution_1() -> None:
    edges = [P(1, GO + 200 * MS), P(2, GO + 300 * MS), P(3, GO + 300 * MS + 1)]
    result = judge(slap(resolution_ns=1), edges, LATE)
    assert result.status is Status.DECIDED
    assert result.loser == 3
    assert result.tied == () and not result.rerace
    assert result.ranking[-1] == Placing(3, GO + 300 * MS + 1, 300 * MS + 1, 1)
    assert result.reason == "Seat 3 was slowest: 300.000 ms after GO, 1 ns behind seat 2."


def test_slap_presses_one_ns_apart_tie_at_resolution_1000() -> None:
    edges = [P(1, GO + 200 * MS), P(2, GO + 300 * MS), P(3, GO + 300 * MS + 1)]
    result = judge(slap(resolution_ns=1000), edges, LATE)
    assert result.status is Status.DECIDED
    assert (result.loser, result.tied, result.rerace) == (None, (2, 3), True)
    assert "tie" in result.reason.lower() and "re-race" in result.reason


def test_resolution_is_strict_presses_exactly_resolution_apart_are_ordered() -> None:
    edges = [P(1, GO + 200 * MS), P(2, GO + 300 * MS), P(3, GO + 300 * MS + 1000)]
    assert judge(slap(resolution_ns=1000), edges, LATE).loser == 3


def test_cockroach_presses_one_ns_apart() -> None:
    edges = [P(1, GO + 200 * MS + 1), P(2, GO + 200 * MS), P(3, GO + 400 * MS)]
    ordered = judge(roach(resolution_ns=1), edges, LATE)
    assert (ordered.winner, ordered.tied, ordered.rerace) == (2, (), False)
    assert ordered.reason == "Seat 2 was fastest: 200.000 ms after GO, 1 ns ahead of seat 1."
    tie = judge(roach(resolution_ns=1000), edges, LATE)
    assert (tie.winner, tie.tied, tie.rerace) == (None, (1, 2), True)
    assert tie.reason == "Tie for fastest between seats 1 and 2 (1 ns apart, under the 1.000 µs resolution): re-race."


@pytest.mark.parametrize("seats", [(1, 3), (3, 1), (2, 3), (3, 2)])
def test_equal_timestamps_tie_with_no_seat_bias(seats: tuple[int, int]) -> None:
    a, b = seats
    others = ({1, 2, 3} - {a, b}).pop()
    t = GO + 250 * MS
    slap_edges = [P(others, GO + 100 * MS), P(a, t), P(b, t)]
    result = judge(slap(), slap_edges, LATE)
    assert (result.loser, result.tied, result.rerace) == (None, tuple(sorted(seats)), True)
    result = judge(slap(), list(reversed(slap_edges)), LATE)
    assert result.tied == tuple(sorted(seats))
    roach_edges = [P(a, t), P(b, t), P(others, GO + 900 * MS)]
    result = judge(roach(), roach_edges, LATE)
    assert (result.winner, result.tied, result.rerace) == (None, tuple(sorted(seats)), True)


def test_equal_timestamps_are_not_always_listed_lower_seat_first() -> None:
    firsts = set()
    for k in range(12):
        t = GO + 250 * MS + k
        result = judge(roach(), [P(1, t), P(2, t), P(3, t)], LATE)
        firsts.add(result.ranking[0].player)
        assert result.tied == (1, 2, 3)
    assert firsts == {1, 2, 3}


def test_edges_in_the_opposite_order_to_their_timestamps() -> None:
    edges = [
        P(1, GO + 150 * MS), R(1, GO + 400 * MS),
        P(2, GO + 250 * MS), R(2, GO + 500 * MS),
        P(3, GO + 350 * MS), R(3, GO + 600 * MS),
    ]
    forwards = judge(slap(), sorted(edges, key=lambda e: e.t_ns), LATE)
    backwards = judge(slap(), sorted(edges, key=lambda e: -e.t_ns), LATE)
    assert forwards == backwards
    assert backwards.loser == 3 and order(backwards) == [1, 2, 3]
    assert [p.gap_ns for p in backwards.ranking] == [0, 100 * MS, 100 * MS]


# --- bounce -----------------------------------------------------------------------------------


def burst(seat: int, t_ns: int, length_ns: int, step_ns: int = MS) -> list[Press | Release]:
    """A press at t_ns, then contacts chattering every step_ns up to length_ns, ending down."""
    edges: list[Press | Release] = [P(seat, t_ns)]
    k = 1
    while k * step_ns <= length_ns:
        edges.append((R if k % 2 else P)(seat, t_ns + k * step_ns))
        k += 1
    if isinstance(edges[-1], Release):
        edges.append(P(seat, t_ns + k * step_ns))
    return edges


@pytest.mark.parametrize("length_ms", [1, 6, 20])
def test_bounce_bursts_count_from_their_first_edge(length_ms: int) -> None:
    edges = burst(1, GO + 180 * MS, length_ms * MS) + burst(2, GO + 190 * MS, length_ms * MS)
    edges += burst(3, GO + 170 * MS, length_ms * MS, step_ns=MS // 3)
    result = judge(slap(), edges, LATE)
    assert order(result) == [3, 1, 2]
    assert [p.t_ns for p in result.ranking] == [GO + 170 * MS, GO + 180 * MS, GO + 190 * MS]
    assert result.loser == 2
    assert len(result.ignored) == len(edges) - 3
    assert {i.why for i in result.ignored} == {"bounce"}


def test_lockout_runs_from_the_accepted_edge_not_from_each_bounce() -> None:
    # Chatter every 10 ms for 60 ms: edges 30 ms and 60 ms after the first fall outside the
    # 25 ms lockouts opened at 0 ms and 30 ms, so they are accepted, not swallowed forever.
    edges = burst(1, GO + 100 * MS, 60 * MS, step_ns=10 * MS)
    result = judge(roach(eligible=(1,)), edges, LATE)
    bounced = [i.edge.t_ns - (GO + 100 * MS) for i in result.ignored if i.why == "bounce"]
    assert bounced == [10 * MS, 20 * MS, 40 * MS, 50 * MS]
    assert [i.why for i in result.ignored if i.why != "bounce"] == ["already pressed"]


def test_bounce_burst_straddling_go_is_a_false_start_not_a_press() -> None:
    edges = burst(1, GO - 3 * MS, 10 * MS) + [P(2, GO + 200 * MS), P(3, GO + 300 * MS)]
    result = judge(roach(eligible=(1, 2, 3)), edges, LATE)
    assert result.false_starts == (FalseStart(1, GO - 3 * MS, held_at_go=True),)
    assert result.winner == 2


# --- false starts -------------------------------------------------------------------------------


def test_held_at_go_in_a_slap_counts_only_after_release_and_a_new_press() -> None:
    held = [P(1, ARMED - 500 * MS), R(1, GO + 100 * MS), P(1, GO + 450 * MS)]
    edges = held + [P(2, GO + 200 * MS), P(3, GO + 300 * MS)]
    result = judge(slap(), edges, LATE)
    assert result.false_starts == (FalseStart(1, ARMED - 500 * MS, held_at_go=True),)
    assert result.loser == 1
    assert result.ranking[-1] == Placing(1, GO + 450 * MS, 450 * MS, 150 * MS)


def test_held_at_go_without_release_is_no_press_in_a_slap() -> None:
    edges = [P(1, ARMED + 100 * MS), P(2, GO + 200 * MS), P(3, GO + 300 * MS)]
    pending = judge(slap(), edges, GO + 500 * MS)
    assert pending.status is Status.PENDING and pending.no_press == (1,)
    result = judge(slap(), edges, DEADLINE)
    assert result.loser == 1 and result.no_press == (1,)
    assert result.false_starts == (FalseStart(1, ARMED + 100 * MS, held_at_go=True),)
    assert result.reason == "Seat 1 was slowest: no slap within the 3000.000 ms timeout."


def test_false_start_released_before_go_then_valid_press_in_a_slap() -> None:
    edges = [P(1, GO - 300 * MS), R(1, GO - 200 * MS), P(1, GO + 180 * MS), P(2, GO + 200 * MS), P(3, GO + 300 * MS)]
    result = judge(slap(), edges, LATE)
    assert result.false_starts == (FalseStart(1, GO - 300 * MS, held_at_go=False),)
    assert order(result) == [1, 2, 3] and result.loser == 3


def test_cockroach_false_starter_is_out_of_the_race() -> None:
    edges = [P(1, GO - 300 * MS), R(1, GO - 200 * MS), P(1, GO + 100 * MS), P(2, GO + 200 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.winner == 2
    assert result.false_starts == (FalseStart(1, GO - 300 * MS, held_at_go=False),)
    assert IgnoredEdge(P(1, GO + 100 * MS), "after false start") in result.ignored
    assert 1 in result.no_press


def test_cockroach_held_at_go_is_out_of_the_race() -> None:
    edges = [P(3, ARMED - 50 * MS), R(3, GO + 50 * MS), P(3, GO + 120 * MS), P(0, GO + 300 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.winner == 0
    assert result.false_starts == (FalseStart(3, ARMED - 50 * MS, held_at_go=True),)


def test_press_before_arming_released_before_go_is_harmless() -> None:
    edges = [P(1, ARMED - 900 * MS), R(1, ARMED - 800 * MS), P(1, GO + 100 * MS), P(2, GO + 200 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.false_starts == ()
    assert result.winner == 1
    assert result.ignored == (IgnoredEdge(P(1, ARMED - 900 * MS), "before arming"),)


def test_short_tap_whose_release_fell_in_the_lockout_is_up_at_go() -> None:
    # Released 10 ms after pressing, inside the 25 ms lockout: the contacts came to rest up.
    edges = [P(1, ARMED - 900 * MS), R(1, ARMED - 890 * MS), P(1, GO + 100 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.false_starts == () and result.winner == 1


def test_release_bouncing_at_go_trusts_the_release() -> None:
    # Released 2 ms before GO; a chatter press 1 ms before GO is still inside the lockout.
    edges = [P(1, ARMED - 900 * MS), R(1, GO - 2 * MS), P(1, GO - 1 * MS), R(1, GO + 3 * MS), P(1, GO + 200 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.false_starts == () and result.winner == 1


def test_quick_repress_swallowed_by_the_lockout_still_holds_at_go() -> None:
    edges = [P(2, ARMED - 900 * MS), R(2, ARMED - 500 * MS), P(2, ARMED - 490 * MS), P(1, GO + 100 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.false_starts == (FalseStart(2, ARMED - 490 * MS, held_at_go=True),)
    assert result.winner == 1


def test_boundaries_of_arming_go_and_timeout() -> None:
    edges = [P(1, ARMED - 1), R(1, ARMED + 100 * MS), P(2, ARMED), P(3, GO), P(0, DEADLINE)]
    result = judge(roach(lockout_ns=0), edges, LATE)
    assert result.ignored == (
        IgnoredEdge(P(1, ARMED - 1), "before arming"),
        IgnoredEdge(P(0, DEADLINE), "after timeout"),
    )
    assert result.false_starts == (FalseStart(2, ARMED, held_at_go=True),)
    assert result.ranking == (Placing(3, GO, 0, 0),)
    last_moment = judge(roach(), [P(0, DEADLINE - 1)], LATE)
    assert last_moment.winner == 0


def test_all_false_start() -> None:
    edges = [P(1, GO - 30 * MS), P(2, GO - 20 * MS), P(3, GO - 10 * MS)]
    result = judge(slap(), edges, DEADLINE)
    assert (result.loser, result.tied, result.rerace) == (None, (1, 2, 3), True)
    assert [f.held_at_go for f in result.false_starts] == [True, True, True]
    cockroach = judge(roach(eligible=(1, 2, 3)), edges + [P(1, GO + 500 * MS)], DEADLINE)
    assert cockroach.status is Status.DECIDED and cockroach.winner is None and cockroach.tied == ()
    assert cockroach.reason == "No match: no valid press within the 3000.000 ms timeout."


def test_cockroach_before_go_is_pending() -> None:
    result = judge(roach(), [], GO - 1)
    assert result.status is Status.PENDING and result.recheck_t_ns == DEADLINE
    assert result.reason == "Pending: GO has not been given yet."


def test_false_starts_before_go_are_reported_while_pending() -> None:
    result = judge(slap(), [P(1, GO - 30 * MS)], GO - 10 * MS)
    assert result.status is Status.PENDING
    assert result.reason == "Pending: GO has not been given yet."
    # Whether the button is still down at GO is not known before GO.
    assert result.false_starts == (FalseStart(1, GO - 30 * MS, held_at_go=False),)


# --- who races ------------------------------------------------------------------------------


def test_default_eligible() -> None:
    assert default_eligible(RaceKind.SLAP, 4, 2) == (0, 1, 3)
    assert default_eligible(RaceKind.COCKROACH, 4, 2) == (0, 1, 2, 3)
    assert default_eligible(RaceKind.COCKROACH, 5, 4, cockroach_everyone=False) == (0, 1, 2, 3)
    assert default_eligible(RaceKind.SLAP, 3, 0, cockroach_everyone=True) == (1, 2)


def test_default_eligible_refuses_bad_tables() -> None:
    # The judge races 2 to 8 seats (referee mode); a Cheating Moth table's 3 to 5 is the engine's check.
    with pytest.raises(BadRace, match=r"players 9 is not valid: a race needs 2 to 8 players"):
        default_eligible(RaceKind.SLAP, 9, 0)
    with pytest.raises(BadRace, match=r"active seat 3 is not a seat at a 3-player table: use 0 to 2"):
        default_eligible(RaceKind.SLAP, 3, 3)


def test_not_eligible_edges_are_ignored() -> None:
    edges = [P(0, GO + 10 * MS), R(0, GO + 90 * MS), P(1, GO + 100 * MS), P(2, GO + 200 * MS), P(3, GO + 300 * MS)]
    result = judge(slap(), edges, LATE)
    assert result.loser == 3
    assert [i.why for i in result.ignored] == ["not eligible", "not eligible"]
    others = judge(roach(eligible=default_eligible(RaceKind.COCKROACH, 4, 0, False)), edges, LATE)
    assert others.winner == 1


def test_second_press_of_a_seat_is_ignored() -> None:
    edges = [P(1, GO + 100 * MS), R(1, GO + 200 * MS), P(1, GO + 300 * MS), P(2, GO + 250 * MS)]
    result = judge(roach(), edges, LATE)
    assert result.ignored == (IgnoredEdge(P(1, GO + 300 * MS), "already pressed"),)
    assert order(result) == [1, 2]


# --- when a slap is decided ---------------------------------------------------------------------


def test_pending_slap_before_timeout() -> None:
    result = judge(slap(), [P(1, GO + 200 * MS), P(3, GO + 250 * MS)], GO + 400 * MS)
    assert result.status is Status.PENDING
    assert (result.loser, result.winner, result.tied, result.rerace) == (None, None, (), False)
    assert result.no_press == (2,)
    assert result.recheck_t_ns == DEADLINE
    assert result.reason == "Pending: waiting for seat 2 to slap (timeout 3000.000 ms after GO)."


def test_slap_is_decided_as_soon_as_everyone_pressed() -> None:
    edges = [P(1, GO + 200 * MS), P(3, GO + 250 * MS), P(2, GO + 412_345_678)]
    result = judge(slap(), edges, GO + 412_345_678)
    assert result.status is Status.DECIDED and result.loser == 2
    assert result.recheck_t_ns is None
    assert result.reason == "Seat 2 was slowest: 412.346 ms after GO, 162.346 ms behind seat 3."


def test_no_press_players_tie_at_timeout() -> None:
    edges = [P(1, GO + 200 * MS)]
    assert judge(slap(), edges, DEADLINE - 1).status is Status.PENDING
    result = judge(slap(), edges, DEADLINE)
    assert (result.status, result.loser, result.tied, result.rerace) == (Status.DECIDED, None, (2, 3), True)
    assert result.no_press == (2, 3)
    assert result.reason == "Tie for slowest between seats 2 and 3 (no slap within the 3000.000 ms timeout): re-race."


def test_nobody_presses() -> None:
    result = judge(slap(players=5, active=2), [], DEADLINE)
    assert result.tied == (0, 1, 3, 4) and result.rerace
    assert result.ranking == () and result.no_press == (0, 1, 3, 4)
    cockroach = judge(roach(), [], DEADLINE)
    assert (cockroach.status, cockroach.winner, cockroach.no_press) == (Status.DECIDED, None, (0, 1, 2, 3))
    assert judge(roach(), [], DEADLINE - 1).status is Status.PENDING


def test_reason_names_every_seat_sharing_the_neighbouring_time() -> None:
    edges = [P(1, GO + 200 * MS), P(3, GO + 200 * MS), P(2, GO + 260 * MS)]
    assert judge(slap(), edges, LATE).reason == (
        "Seat 2 was slowest: 260.000 ms after GO, 60.000 ms behind seats 1 and 3."
    )
    edges = [P(1, GO + 200 * MS), P(3, GO + 260 * MS), P(2, GO + 260 * MS)]
    assert judge(roach(), edges, LATE).reason == (
        "Seat 1 was fastest: 200.000 ms after GO, 60.000 ms ahead of seats 2 and 3."
    )


def test_one_seat_slap() -> None:
    result = judge(slap(eligible=(2,)), [P(2, GO + 300 * MS)], GO + 300 * MS)
    assert result.loser == 2
    assert result.reason == "Seat 2 was slowest: 300.000 ms after GO, the only seat racing."


# --- cockroach: settle window and voiding -------------------------------------------------------


def test_cockroach_pending_until_settle_window_passes() -> None:
    first = GO + 200 * MS
    pending = judge(roach(), [P(2, first)], first + 50 * MS - 1)
    assert pending.status is Status.PENDING and pending.winner is None
    assert pending.recheck_t_ns == first + 50 * MS
    assert pending.reason == "Pending: seat 2 leads; deciding 50.000 ms after the first press."
    decided = judge(roach(), [P(2, first)], first + 50 * MS)
    assert decided.status is Status.DECIDED and decided.winner == 2
    assert decided.reason == "Seat 2 was fastest: 200.000 ms after GO, the only valid press."


def test_cockroach_earlier_press_that_arrives_later_still_wins() -> None:
    late_arrival = P(1, GO + 195 * MS)
    seen_first = [P(2, GO + 200 * MS)]
    assert judge(roach(), seen_first, GO + 230 * MS).status is Status.PENDING
    result = judge(roach(), seen_first + [late_arrival], GO + 250 * MS)
    assert result.winner == 1 and order(result) == [1, 2]


def test_cockroach_void_passes_the_win_to_the_next_in_line() -> None:
    edges = [P(2, GO + 150 * MS), P(0, GO + 200 * MS), P(3, GO + 260 * MS)]
    assert judge(roach(), edges, LATE).winner == 2
    result = judge(roach(voided=(2,)), edges, LATE)
    assert result.winner == 0 and order(result) == [0, 3]
    assert IgnoredEdge(P(2, GO + 150 * MS), "voided") in result.ignored
    assert result.reason == "Seat 0 was fastest once seat 2 was voided: 200.000 ms after GO, 60.000 ms ahead of seat 3."
    assert 2 not in result.no_press
    again = judge(roach(voided=(2, 0)), edges, LATE)
    assert again.winner == 3


def test_cockroach_void_with_nobody_left_is_no_match() -> None:
    edges = [P(2, GO + 150 * MS), P(0, GO + 200 * MS)]
    result = judge(roach(voided=(2, 0)), edges, LATE)
    assert result.status is Status.DECIDED and result.winner is None
    assert result.reason == "No match: no valid press within the 3000.000 ms timeout once seats 2 and 0 were voided."


def test_cockroach_void_before_timeout_waits_for_the_others() -> None:
    result = judge(roach(voided=(2,)), [P(2, GO + 150 * MS)], GO + 900 * MS)
    assert result.status is Status.PENDING and result.recheck_t_ns == DEADLINE


# --- tie policy ---------------------------------------------------------------------------------


def test_random_policy_is_deterministic_per_seed_and_picks_only_tied_seats() -> None:
    t = GO + 250 * MS
    edges = [P(1, GO + 100 * MS), P(2, t), P(3, t), P(4, t + 500)]
    picks = set()
    for seed in range(40):
        spec = slap(players=5, active=0, resolution_ns=1000, tie_policy=TiePolicy.RANDOM, seed=seed)
        result = judge(spec, edges, LATE)
        assert result == judge(spec, list(reversed(edges)), LATE)
        assert result.tied == (2, 3, 4) and not result.rerace
        assert result.loser in result.tied
        assert "tie" in result.reason.lower() and f"seed {seed}" in result.reason
        picks.add(result.loser)
    assert picks == {2, 3, 4}


def test_random_policy_in_a_cockroach_race() -> None:
    t = GO + 250 * MS
    spec = roach(tie_policy=TiePolicy.RANDOM, seed=7)
    result = judge(spec, [P(0, t), P(3, t), P(1, t + 1)], LATE)
    assert result.tied == (0, 3) and result.winner in (0, 3) and not result.rerace
    assert result.reason.endswith(f"seat {result.winner} drawn by lot (seed 7).")


# --- integers all the way -----------------------------------------------------------------------


@pytest.mark.parametrize("base", [2**62 - 10 * 10**9, 2**62, 2**63 + 12345, 2**80 + 1])
def test_timestamps_near_two_to_the_62(base: int) -> None:
    spec = slap(armed_t_ns=base, go_t_ns=base + 2_000 * MS, resolution_ns=1)
    go = base + 2_000 * MS
    edges = [P(1, go + 200 * MS), P(2, go + 300 * MS), P(3, go + 300 * MS + 1)]
    result = judge(spec, edges, go + 300 * MS + 1)
    assert result.loser == 3
    assert result.ranking[-1].t_ns == go + 300 * MS + 1
    assert result.ranking[-1].reaction_ns == 300 * MS + 1 and result.ranking[-1].gap_ns == 1
    tie = judge(dataclasses.replace(spec, resolution_ns=2), edges, go + 300 * MS + 1)
    assert tie.tied == (2, 3)


def test_format_gap_picks_the_largest_unit_the_gap_reaches() -> None:
    assert [format_gap(ns) for ns in (0, 16, 999)] == ["0 ns", "16 ns", "999 ns"]
    assert [format_gap(ns) for ns in (1_000, 40_125, 999_999)] == ["1.000 µs", "40.125 µs", "999.999 µs"]
    assert [format_gap(ns) for ns in (1_000_000, 1_250_000, 38_750_499, 38_750_500)] == [
        "1.000 ms", "1.250 ms", "38.750 ms", "38.751 ms"]
    assert (format_gap(-16), format_gap(-40_125), format_gap(-1_500_000)) == ("-16 ns", "-40.125 µs", "-1.500 ms")


def test_a_16_ns_gap_on_the_board_reads_in_ns_not_0_ms() -> None:
    edges = [P(1, GO + 200 * MS), P(2, GO + 300 * MS), P(3, GO + 300 * MS + 16)]
    assert judge(slap(resolution_ns=16), edges, LATE).reason == (
        "Seat 3 was slowest: 300.000 ms after GO, 16 ns behind seat 2.")
    gpio = judge(slap(resolution_ns=100_000), [*edges[:2], P(3, GO + 300 * MS + 40_125)], LATE)
    assert gpio.reason == (
        "Tie for slowest between seats 2 and 3 (40.125 µs apart, under the 100.000 µs resolution): re-race.")


@pytest.mark.parametrize(("lang", "shown"), [("en", "40.125 µs"), ("ko", "40.125 µs"), ("de", "40,125 µs"),
                                             ("fr", "40,125 µs"), ("es", "40,125 µs")])
def test_gaps_take_each_languages_decimal_mark(lang: str, shown: str) -> None:
    # The catalogs carry reaction times only; a gap shown in a language goes through the same
    # decimal() as they do, and the µs sign reads the same in all five.
    assert decimal(lang, format_gap(40_125)) == shown


def test_format_ms() -> None:
    assert format_ms(412_345_000) == "412.345 ms"
    assert format_ms(412_345_499) == "412.345 ms"
    assert format_ms(412_345_500) == "412.346 ms"
    assert format_ms(0) == "0.000 ms"
    assert format_ms(-1_500_000) == "-1.500 ms"
    assert format_ms(2**62 + 1) == "4611686018427.388 ms"


def test_format_seats() -> None:
    assert format_seats([3]) == "seat 3"
    assert format_seats([1, 3]) == "seats 1 and 3"
    assert format_seats([0, 2, 4]) == "seats 0, 2 and 4"


# --- validation: one sentence naming the bad value and what would be valid ----------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 1, "eligible": (0,)}, r"players 1 is not valid: a race needs 2 to 8 players"),
        ({"players": 9, "eligible": (1,)}, r"players 9 is not valid: a race needs 2 to 8 players"),
        ({"players": True, "eligible": (1,)}, r"players True is not valid"),
        ({"active": 4, "eligible": (1,)}, r"active seat 4 is not a seat at a 4-player table: use 0 to 3"),
        ({"active": -1, "eligible": (1,)}, r"active seat -1 is not a seat"),
        ({"eligible": ()}, r"eligible seats \(\) are empty: name at least one seat from 0 to 3"),
        ({"eligible": (1, 2, 1)}, r"eligible seats \(1, 2, 1\) name seat 1 twice: list each seat once"),
        ({"eligible": (1, 4)}, r"eligible seat 4 is not a seat at a 4-player table: use 0 to 3"),
        ({"eligible": [1, 2]}, r"eligible seats \[1, 2\] are not valid: use a tuple of seats from 0 to 3"),
        ({"eligible": (0, 1, 2)}, r"eligible seats \(0, 1, 2\) include the active seat 0: in a slap everyone but"),
        ({"clock": ""}, r"race clock '' is not valid: name the clock domain"),
        ({"resolution_ns": 0}, r"resolution_ns 0 is not valid: use a whole number of nanoseconds, 1 or more"),
        ({"resolution_ns": 1.0}, r"resolution_ns 1.0 is not valid"),
        ({"timeout_ns": 0}, r"timeout_ns 0 is not valid: use a whole number of nanoseconds, 1 or more"),
        ({"timeout_ns": -5}, r"timeout_ns -5 is not valid"),
        ({"armed_t_ns": -1}, r"armed_t_ns -1 is not valid: use a whole number of nanoseconds, 0 or more"),
        ({"go_t_ns": 3.0e9}, r"go_t_ns 3000000000.0 is not valid"),
        ({"go_t_ns": ARMED - 1}, r"go_t_ns 999999999 is before armed_t_ns 1000000000: GO comes at or after arming"),
        ({"lockout_ns": -1}, r"lockout_ns -1 is not valid: use a whole number of nanoseconds, 0 or more"),
        ({"settle_ns": -1}, r"settle_ns -1 is not valid"),
        ({"tie_policy": "random"}, r"tie policy 'random' is not valid: use TiePolicy.RERACE or TiePolicy.RANDOM"),
        ({"seed": 1.5}, r"seed 1.5 is not valid: use a whole number"),
        ({"voided": (1,)}, r"voided seats \(1,\) are not valid in a slap: only a cockroach winner can be voided"),
    ],
)
def test_bad_slap_specs(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(BadRace, match=message):
        slap(**changes)


def test_bad_race_kind() -> None:
    with pytest.raises(BadRace, match=r"race kind 'slap' is not valid: use RaceKind.SLAP or RaceKind.COCKROACH"):
        spec_of(kind="slap")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"voided": (2, 2)}, r"voided seats \(2, 2\) name seat 2 twice: list each seat once"),
        ({"voided": (7,)}, r"voided seat 7 is not a seat at a 4-player table: use 0 to 3"),
        ({"eligible": (1, 2, 3), "voided": (0,)}, r"voided seat 0 did not race: void only seats from the eligible"),
    ],
)
def test_bad_cockroach_specs(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(BadRace, match=message):
        roach(**changes)


def test_edge_from_another_clock_is_refused() -> None:
    message = r"edge Press\(player=1, .*clock='board'\) is on clock 'board', not the race clock 'sim'"
    with pytest.raises(BadRace, match=message):
        judge(slap(), [Press(1, GO + 1, "board")], LATE)


def test_edge_from_a_seat_outside_the_table_is_refused() -> None:
    message = r"edge Press\(player=4, .*\) names seat 4, outside the 4-player table: use seats 0 to 3"
    with pytest.raises(BadRace, match=message):
        judge(slap(), [P(4, GO + 1)], LATE)


def test_edge_from_the_future_is_refused() -> None:
    with pytest.raises(BadRace, match=r"edge Release\(player=1, t_ns=3000000002, .*\) is after now_t_ns 3000000001"):
        judge(slap(), [P(1, GO + 1), R(1, GO + 2)], GO + 1)


def test_something_that_is_not_an_edge_is_refused() -> None:
    with pytest.raises(BadRace, match=r"edge \(1, 2\) is not valid: give Press or Release records"):
        judge(slap(), [(1, 2)], LATE)  # type: ignore[list-item]


@pytest.mark.parametrize("now", [ARMED - 1, 1.5e9, True])
def test_now_before_arming_or_not_an_int_is_refused(now: Any) -> None:
    with pytest.raises(BadRace, match=rf"now_t_ns {now!r} is not valid: judge at or after arming"):
        judge(slap(), [], now)


# --- properties ---------------------------------------------------------------------------------

SEATS = st.integers(min_value=0, max_value=4)
# Few distinct times, so equal timestamps, bounces and ties come up often.
OFFSETS = st.sampled_from([-2_100, -1_500, -30, -5, 0, 1, 150, 150, 151, 160, 170, 190, 2_999, 3_000, 3_500])


@st.composite
def races(draw: st.DrawFn) -> tuple[RaceSpec, list[Press | Release], int]:
    kind = draw(st.sampled_from(RaceKind))
    players = draw(st.integers(min_value=3, max_value=5))
    active = draw(st.integers(min_value=0, max_value=players - 1))
    everyone = draw(st.booleans())
    eligible = default_eligible(kind, players, active, everyone)
    voided: tuple[int, ...] = ()
    if kind is RaceKind.COCKROACH:
        voided = tuple(draw(st.lists(st.sampled_from(eligible), unique=True, max_size=2)))
    spec = RaceSpec(
        kind=kind,
        players=players,
        active=active,
        eligible=eligible,
        clock=CLOCK,
        resolution_ns=draw(st.sampled_from([1, 1000, 2 * MS])),
        armed_t_ns=ARMED,
        go_t_ns=GO,
        timeout_ns=TIMEOUT,
        lockout_ns=draw(st.sampled_from([0, 25 * MS])),
        settle_ns=draw(st.sampled_from([0, 50 * MS])),
        tie_policy=draw(st.sampled_from(TiePolicy)),
        seed=draw(st.integers(min_value=0, max_value=3)),
        voided=voided,
    )
    edge = st.builds(
        lambda cls, seat, off, jitter: cls(seat % players, GO + off * MS + jitter, CLOCK),
        st.sampled_from([Press, Release]),
        SEATS,
        OFFSETS,
        st.sampled_from([0, 0, 1, 999]),
    )
    edges = draw(st.lists(edge, max_size=14))
    latest = max([ARMED] + [e.t_ns for e in edges])
    now = latest + draw(st.sampled_from([0, 10 * MS, 60 * MS, 4_000 * MS]))
    return spec, edges, now


@settings(max_examples=300, deadline=None)
@given(race=races(), data=st.data())
def test_permuting_the_edges_never_changes_the_result(
    race: tuple[RaceSpec, list[Press | Release], int], data: st.DataObject
) -> None:
    spec, edges, now = race
    shuffled = data.draw(st.permutations(edges))
    assert judge(spec, shuffled, now) == judge(spec, edges, now)


@settings(max_examples=150, deadline=None)
@given(race=races(), shift=st.sampled_from([1, 2**62, 2**63 - GO, 2**64 + 7]))
def test_shifting_every_time_keeps_the_decision(race: tuple[RaceSpec, list[Press | Release], int], shift: int) -> None:
    spec, edges, now = race
    moved = dataclasses.replace(spec, armed_t_ns=spec.armed_t_ns + shift, go_t_ns=spec.go_t_ns + shift)
    moved_edges = [dataclasses.replace(e, t_ns=e.t_ns + shift) for e in edges]
    before, after = judge(spec, edges, now), judge(moved, moved_edges, now + shift)
    assert (after.status, after.winner, after.loser, after.tied, after.rerace) == (
        before.status, before.winner, before.loser, before.tied, before.rerace,
    )
    # Equal timestamps are listed in a rotation taken from the timestamp, so compare as sets.
    assert sorted((p.reaction_ns, p.player) for p in after.ranking) == sorted(
        (p.reaction_ns, p.player) for p in before.ranking
    )
    assert sorted(p.gap_ns for p in after.ranking) == sorted(p.gap_ns for p in before.ranking)
    assert after.reason == before.reason


@settings(max_examples=300, deadline=None)
@given(race=races())
def test_decisions_are_consistent(race: tuple[RaceSpec, list[Press | Release], int]) -> None:
    spec, edges, now = race
    result = judge(spec, edges, now)
    reaction = [p.reaction_ns for p in result.ranking]
    assert reaction == sorted(reaction) and all(0 <= r < TIMEOUT for r in reaction)
    assert {p.player for p in result.ranking} <= set(spec.eligible) - set(spec.voided)
    # Every press is ignored, ranked or a false start; a hold that began with a swallowed
    # re-press is both a bounce and a false start.
    presses = [e for e in edges if isinstance(e, Press)]
    ignored_presses = [i for i in result.ignored if isinstance(i.edge, Press)]
    assert len(ignored_presses) + len(result.ranking) + len(result.false_starts) in (len(presses), len(presses) + 1)
    if result.status is Status.PENDING:
        assert result.winner is result.loser is None and not result.rerace and result.tied == ()
        assert result.recheck_t_ns is not None and result.recheck_t_ns > now
    else:
        assert result.recheck_t_ns is None
        picked = result.loser if spec.kind is RaceKind.SLAP else result.winner
        if result.tied:
            assert "tie" in result.reason.lower() and len(result.tied) > 1
            assert result.rerace == (spec.tie_policy is TiePolicy.RERACE)
            assert picked is None if result.rerace else picked in result.tied
        elif spec.kind is RaceKind.SLAP:
            assert picked is not None


@pytest.mark.parametrize("shift", [0, 1, 3, 2**62])
def test_seats_pressing_at_the_same_instant_lead_together_whatever_the_clock(shift: int) -> None:
    """Regression: the pending reason named one of two seats tied at the first instant, and
    which one depended on the clock's value (found by the shifting property test)."""
    spec = RaceSpec(kind=RaceKind.COCKROACH, players=5, active=0, eligible=(0, 1, 2, 3, 4),
                    clock="monotonic", resolution_ns=1, armed_t_ns=shift, go_t_ns=shift + 10**9,
                    timeout_ns=3 * 10**9, lockout_ns=0)
    t = shift + 10**9 + 200 * 10**6
    result = judge(spec, [Press(4, t, "monotonic"), Press(0, t, "monotonic")], t + 1)
    assert result.reason == "Pending: seats 0 and 4 lead together; deciding 50.000 ms after the first press."
