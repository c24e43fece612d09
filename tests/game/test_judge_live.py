"""The live judge (one edge at a time) against the full judge: after every edge of random races
with bounce, chatter, releases, false starts, held buttons, voids and ties, its verdict is the
full judge's. Every time here is chosen, none is read from a clock."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import BadRace
from game.inputs import Press, Release
from game.judge import Edge, RaceSpec, Status, TiePolicy, default_eligible, judge
from game.judge_live import EMPTY_LOG, EdgeLog, LiveJudge
from game.race import RaceKind

MS = 1_000_000
CLOCK = "sim"
ARMED = 1_000 * MS
GO = 3_000 * MS
TIMEOUT = 3_000 * MS

# Instants (ms from GO) near every boundary the judge knows: before arming, arming, GO, the
# settle window, the deadline; repeated values make equal timestamps and ties common.
OFFSETS_MS = (-2_100, -2_000, -1_500, -30, -26, -25, -5, 0, 0, 1, 150, 150, 151, 160, 170, 190, 2_999, 3_000)


def full(spec: RaceSpec, edges: list[Edge], now: int):  # type: ignore[no-untyped-def]
    return judge(spec, edges, now)


@st.composite
def specs(draw: st.DrawFn) -> RaceSpec:
    kind = draw(st.sampled_from(RaceKind))
    players = draw(st.integers(min_value=3, max_value=5))
    active = draw(st.integers(min_value=0, max_value=players - 1))
    eligible = default_eligible(kind, players, active, draw(st.booleans()))
    voided: tuple[int, ...] = ()
    if kind is RaceKind.COCKROACH:
        voided = tuple(draw(st.lists(st.sampled_from(eligible), unique=True, max_size=2)))
    return RaceSpec(
        kind=kind, players=players, active=active, eligible=eligible, clock=CLOCK,
        resolution_ns=draw(st.sampled_from([1, 1000, 2 * MS])), armed_t_ns=ARMED, go_t_ns=GO,
        timeout_ns=TIMEOUT, lockout_ns=draw(st.sampled_from([0, 1, 25 * MS])),
        settle_ns=draw(st.sampled_from([0, 50 * MS])), tie_policy=draw(st.sampled_from(TiePolicy)),
        seed=draw(st.integers(min_value=0, max_value=3)), voided=voided)


@st.composite
def streams(draw: st.DrawFn) -> tuple[RaceSpec, list[Edge], list[int]]:
    """A race, its edges in arrival order, and the "now" of each arrival."""
    spec = draw(specs())
    edges: list[Edge] = []
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        seat = draw(st.integers(min_value=0, max_value=spec.players - 1))
        t = GO + draw(st.sampled_from(OFFSETS_MS)) * MS + draw(st.sampled_from([0, 0, 1, 999]))
        kind = draw(st.sampled_from([Press, Release]))
        edges.append(kind(seat, t, CLOCK))
        if draw(st.booleans()):
            # Chatter: the contacts bounce, alternating, a few µs to a few ms apart.
            for k in range(draw(st.integers(min_value=1, max_value=12))):
                t += draw(st.sampled_from([0, 16, 3_000, 400_000, 6 * MS, 26 * MS]))
                edges.append((Release if (k % 2 == 0) == (kind is Press) else Press)(seat, t, CLOCK))
    # Adapters deliver in time order, give or take: sort, then let some edges arrive late.
    edges.sort(key=lambda e: e.t_ns)
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        if len(edges) > 1:
            i = draw(st.integers(min_value=0, max_value=len(edges) - 1))
            j = draw(st.integers(min_value=0, max_value=len(edges) - 1))
            edges.insert(j, edges.pop(i))
    nows: list[int] = []
    now = ARMED
    for edge in edges:
        now = max(now, edge.t_ns) + draw(st.sampled_from([0, 0, 1, 10 * MS, 60 * MS]))
        nows.append(now)
    return spec, edges, nows


@settings(max_examples=400, deadline=None)
@given(stream=streams(), tail=st.sampled_from([0, 49 * MS, 50 * MS, 3_000 * MS, 4_000 * MS]))
def test_after_every_edge_the_live_verdict_is_the_full_judges(
    stream: tuple[RaceSpec, list[Edge], list[int]], tail: int
) -> None:
    spec, edges, nows = stream
    live = LiveJudge.start(spec)
    for i, (edge, now) in enumerate(zip(edges, nows)):
        live = live.add(edge)
        whole = full(spec, edges[: i + 1], now)
        assert live.verdict(now) == replace(whole, false_starts=(), ignored=())
        assert live.false_start_count(now) == len(whole.false_starts)
        assert live.result(now) == whole
    later = max([ARMED, *nows]) + tail
    whole = full(spec, edges, later)
    assert live.verdict(later) == replace(whole, false_starts=(), ignored=())
    assert live.false_start_count(later) == len(whole.false_starts)
    # Started from all the edges at once, the live judge is the same judge.
    assert LiveJudge.start(spec, edges).verdict(later) == live.verdict(later)


@settings(max_examples=200, deadline=None)
@given(stream=streams())
def test_judging_before_go_agrees_too(stream: tuple[RaceSpec, list[Edge], list[int]]) -> None:
    spec, edges, _ = stream
    early = [e for e in edges if e.t_ns < GO - 1]
    now = max([ARMED, *(e.t_ns for e in early)])
    live = LiveJudge.start(spec, early)
    whole = full(spec, early, now)
    assert live.verdict(now) == replace(whole, false_starts=(), ignored=())
    assert live.false_start_count(now) == len(whole.false_starts)


def slap() -> RaceSpec:
    return RaceSpec(kind=RaceKind.SLAP, players=4, active=0, eligible=(1, 2, 3), clock=CLOCK,
                    resolution_ns=1, armed_t_ns=ARMED, go_t_ns=GO, timeout_ns=TIMEOUT)


def test_a_chattering_seat_still_loses_the_slap_it_was_slowest_in() -> None:
    live = LiveJudge.start(slap())
    t = GO + 100 * MS
    for k in range(2_000):  # seat 3 chatters for 200 ms, an edge every 100 µs
        live = live.add((Press if k % 2 == 0 else Release)(3, t + k * 100_000, CLOCK))
    live = live.add(Press(1, GO + 400 * MS, CLOCK)).add(Press(2, GO + 450 * MS, CLOCK))
    verdict = live.verdict(GO + 450 * MS)
    assert verdict.status is Status.DECIDED and verdict.loser == 2
    assert [p.player for p in verdict.ranking] == [3, 1, 2]
    assert len(live.log) == 2_002 and len(live.result(GO + 450 * MS).ignored) > 1_900


def test_an_edge_older_than_its_seats_last_one_is_folded_in_order() -> None:
    # Seat 1's press at GO+100 arrives after its own release at GO+300: the seat is re-read.
    live = LiveJudge.start(slap(), [Release(1, GO + 300 * MS, CLOCK), Press(1, GO + 100 * MS, CLOCK),
                                    Press(2, GO + 200 * MS, CLOCK), Press(3, GO + 250 * MS, CLOCK)])
    verdict = live.verdict(GO + 300 * MS)
    assert verdict.loser == 3 and [p.player for p in verdict.ranking] == [1, 2, 3]


@pytest.mark.parametrize(
    ("edge", "message"),
    [
        (Press(1, GO, "board"), r"is on clock 'board', not the race clock 'sim'"),
        (Press(4, GO, CLOCK), r"names seat 4, outside the 4-player table: use seats 0 to 3"),
        ((1, GO), r"edge \(1, 3000000000\) is not valid: give Press or Release records"),
    ],
)
def test_a_bad_edge_is_refused_and_the_judge_is_unchanged(edge: object, message: str) -> None:
    live = LiveJudge.start(slap(), [Press(1, GO + MS, CLOCK)])
    with pytest.raises(BadRace, match=message):
        live.add(edge)  # type: ignore[arg-type]
    assert len(live.log) == 1 and live.verdict(GO + MS).ranking[0].player == 1


def test_now_before_an_edge_or_arming_is_refused() -> None:
    live = LiveJudge.start(slap(), [Press(1, GO + 5 * MS, CLOCK)])
    with pytest.raises(BadRace, match=r"now_t_ns 3004000000 is before the latest edge at 3005000000"):
        live.verdict(GO + 4 * MS)
    with pytest.raises(BadRace, match=r"now_t_ns 999999999 is not valid: judge at or after arming"):
        live.false_start_count(ARMED - 1)


def test_the_edge_log_shares_its_past_and_compares_without_recursion() -> None:
    first = EMPTY_LOG.add(Press(1, 1, CLOCK))
    longer = first.add(Release(1, 2, CLOCK))
    assert list(first) == [Press(1, 1, CLOCK)] and len(longer) == 2
    big = EdgeLog.of(Press(1, t, CLOCK) for t in range(100_000))
    same = EdgeLog.of(Press(1, t, CLOCK) for t in range(100_000))
    assert big == same and hash(big) == hash(same) and big != longer
    assert repr(big) == "EdgeLog(100000 edges, last Press(player=1, t_ns=99999, clock='sim'))"
