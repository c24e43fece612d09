"""Defect 2 of issue 11: a board that restarts or is replugged during a live race.

The real firmware main loop runs under MicroPython (unix port) on the fake hardware layer behind
a pty (SimBoard). In each of 100 seeded trials (40 outside the soak) a race is armed, then the board is unplugged and
plugged in again, or reset under the open port (a new process on the same pty: a new boot id and
a clock from zero), at a chosen moment: after arming, after GO, or after the first press. The
voided race is run again on the new board with chosen press offsets, and its verdict must follow
from those offsets to the tick, on a clock that never ran backwards.

Before the fix the adapter kept the old board's clock (``max()``): the new board's presses were
"before arming" and every re-run was decided as a tie for slowest at the timeout.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.boardlink.link import BoardLink
from firmware_host.boardlink.rig import BOARD_CLOCK, BoardEvent, BoardRig, RaceVoided
from firmware_host.boardlink.sim import SimBoard
from game.app.cmd_race import BoardInput, RaceRun, RaceSettings, run_race
from game.inputs import Press, Release
from game.judge import Status
from game.race import RaceKind
from sizes import size

MS = 1_000_000
# Waits that only catch a hang: the simulated board is a process of its own that a loaded machine
# (load 15 on 2 cores) may leave unscheduled for seconds, so every wait on the board is board
# time times a generous time scale and no limit measures the machine's speed (issue 21).
SCALE = 24.0
WAIT_S = 10.0 * SCALE
TRIALS = size(40, 100)   # 100 in the soak (tests/sizes.py)
SEATS = (0, 1, 2)  # a slap at a 4-seat table, seat 3 laid the card
# Shorter than the old board's age at each fault, as in a real game (a board up for minutes): the
# old code's clock was then past the re-run's deadline at once, and it decided with no presses.
TIMEOUT_NS = 120 * MS
FAULTS = ("armed", "go", "pressed")
HOLD_NS = 40 * MS  # each press is let go this long after (past the 25 ms lockout)


@pytest.fixture
def sim(micropython: str, tmp_path: Path) -> Iterator[SimBoard]:
    board = SimBoard(tmp_path / "ttyBOARD", interpreter="micropython", micropython=micropython)
    board.plug()
    yield board
    board.close()


@pytest.fixture
def rig(sim: SimBoard) -> Iterator[BoardRig]:
    link = BoardLink(str(sim.link), reconnect_wait_s=0.005, time_scale=SCALE)
    r = BoardRig(link=link, timeout_ns=TIMEOUT_NS)
    yield r
    r.close()


def next_event(rig: BoardRig) -> BoardEvent:
    try:
        return rig.events.get(timeout=WAIT_S)
    except queue.Empty:
        raise AssertionError(f"no event from the board within {WAIT_S} s (counters {rig.counters})") from None


def schedule(sim: SimBoard, offsets_ns: dict[int, int]) -> None:
    """Each seat presses at its offset after the next GO and lets go HOLD_NS later."""
    for seat, offset in offsets_ns.items():
        sim.control(f"edge {seat} 0 go {offset}")
        sim.control(f"edge {seat} 1 go {offset + HOLD_NS}")


def fault(sim: SimBoard, how: str) -> None:
    if how == "unplug":
        sim.unplug()
        sim.plug()
    else:
        sim.reboot()


def rerun(rig: BoardRig, sim: SimBoard, rng: random.Random) -> tuple[dict[int, int], RaceRun]:
    """The race again on the new board, run as ``cheating-moth race --input board`` runs it (its
    fore-period and its judging wait on the rig's clock): chosen offsets in 16 ns ticks."""
    ticks = rng.sample(range(5 * MS // 16, 45 * MS // 16, 200), len(SEATS))
    offsets = {seat: t * 16 for seat, t in zip(SEATS, ticks)}
    schedule(sim, offsets)
    race = RaceSettings(kind=RaceKind.SLAP, players=4, active=3, seed=0, fore_period_ns=5 * MS, timeout_ns=TIMEOUT_NS)
    return offsets, run_race(BoardInput(rig, 4, 0.0), race, lambda message: None)


@pytest.mark.soak
def test_unplugs_and_resets_during_live_races_rerun_on_the_new_clock(rig: BoardRig, sim: SimBoard) -> None:
    rng = random.Random(20261201)
    kinds = ["unplug", "reboot"] * (TRIALS // 2)
    rng.shuffle(kinds)
    verdicts = 0
    seen: dict[tuple[str, str], int] = {}
    for trial, how in enumerate(kinds):
        when = FAULTS[rng.randrange(len(FAULTS))]
        seen[how, when] = seen.get((how, when), 0) + 1
        boot_before = rig.info.boot if rig.info else ""
        arm = rig.arm(SEATS)
        if when != "armed":
            schedule(sim, {s: rng.randrange(2 * MS, 20 * MS) // 16 * 16 for s in SEATS})
            rig.go(SEATS)
            if when == "pressed":
                assert isinstance(next_event(rig), Press)
        before_ns = rig.now_ns()
        fault(sim, how)
        while not isinstance(event := next_event(rig), RaceVoided):
            assert isinstance(event, (Press, Release)) and event.t_ns <= before_ns + 100 * MS
        expected = "the board was disconnected" if how == "unplug" else "the board restarted (boot "
        assert event.why.startswith(expected), (trial, how, when, event)
        rearmed = event.rearmed
        assert rearmed is not None, (trial, how, when)
        assert rig.info is not None and rig.info.boot != boot_before
        # the clock went on: the new board's arming is after everything the old board reported
        assert rearmed.t_ns > before_ns >= arm.t_ns and rig.now_ns() >= rearmed.t_ns
        rig.drain()
        offsets, done = rerun(rig, sim, rng)
        spec, result = done.spec, done.result
        assert spec.clock == BOARD_CLOCK and spec.armed_t_ns > before_ns and spec.go_t_ns >= spec.armed_t_ns + 5 * MS
        assert sorted(e.t_ns - spec.go_t_ns for e in done.edges if isinstance(e, Press)) == sorted(offsets.values()), (trial, how, when, result.reason, done.edges, rig.counters)
        slowest = max(offsets, key=lambda s: offsets[s])
        assert result.status is Status.DECIDED and result.loser == slowest, (trial, how, when, result.reason)
        assert [(p.player, p.reaction_ns) for p in result.ranking] == sorted(offsets.items(), key=lambda kv: kv[1])
        verdicts += 1
        for _ in range(len(SEATS) - sum(isinstance(e, Release) for e in done.edges)):  # the re-run's releases
            assert isinstance(next_event(rig), Release)
    c = rig.counters
    assert verdicts == TRIALS
    assert len(seen) == 6 and min(seen.values()) >= size(2, 10)  # every kind of fault at every moment
    assert c.board_restarts == TRIALS and c.disconnects == TRIALS // 2
    assert c.stamp_faults == 0 and c.protocol_errors == 0
