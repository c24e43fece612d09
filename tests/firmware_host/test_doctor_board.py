"""The doctor on the buzzer board build: the real firmware main loop under MicroPython on the
fake hardware behind a pty. Presses and test pulses are scripted to the tick, so bounce, settle
times and the two-input offsets are exact; waits are on queues with timeouts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.boardlink.rig import BoardRig
from firmware_host.boardlink.sim import SimBoard
from firmware_host.doctor.core import MS, ButtonStatus, Report, Severity, TimingStatus
from firmware_host.doctor.board import DOCTOR_LOCKOUT_NS, GO_DELAY_NS, BoardDoctorRig, Pulser, go_check
from firmware_host.doctor.run import DoctorSettings, run_doctor
from firmware_host.doctor.sim import SimBoardPeople, SimFaults, SimPulser, parse_faults
from firmware_host.pinmap import PinMap, load_pinmap
from game.judge import DEFAULT_LOCKOUT_NS

FAST = DoctorSettings(press_timeout_s=0.5, quiet_s=0.03)


@pytest.fixture
def pinmap() -> PinMap:
    return load_pinmap()


@pytest.fixture
def sim(micropython: str, tmp_path: Path) -> Iterator[SimBoard]:
    with SimBoard(tmp_path / "ttyBOARD", interpreter="micropython", micropython=micropython) as board:
        yield board


def doctor(sim: SimBoard, pinmap: PinMap, faults: SimFaults, settings: DoctorSettings = FAST,
           pulser: Pulser | None = None, use_pulser: bool = True) -> Report:
    assert pinmap.board is not None
    people = SimBoardPeople(sim, pinmap.board, faults)
    people.break_rig()
    rig = BoardRig(str(sim.link), seat_buttons=tuple(range(len(pinmap.board.seats))), lockout_ns=DOCTOR_LOCKOUT_NS)
    drig = BoardDoctorRig(rig, pinmap.board, source="sim", lockout_ns=DEFAULT_LOCKOUT_NS,
                          pulser=(pulser or SimPulser(sim)) if use_pulser else None)
    people.rig = drig
    try:
        return run_doctor(drig, people, settings)
    finally:
        drig.close()


def test_a_healthy_board_passes_with_exact_two_input_pulses(sim: SimBoard, pinmap: PinMap) -> None:
    report = doctor(sim, pinmap, SimFaults())
    assert report.verdict == "pass", report.findings
    assert [led.point.pin for led in report.leds] == [
        "GP10 (pin 14)", "GP11 (pin 15)", "GP12 (pin 16)", "GP13 (pin 17)", "GP14 (pin 19)", "GP16 (pin 21)",
        "GP9 (pin 12)"]
    assert [(c.point.pin, c.status) for c in report.buttons] == [
        ("GP2 (pin 4)", ButtonStatus.OK), ("GP3 (pin 5)", ButtonStatus.OK), ("GP4 (pin 6)", ButtonStatus.OK),
        ("GP5 (pin 7)", ButtonStatus.OK), ("GP6 (pin 9)", ButtonStatus.OK), ("GP8 (pin 11)", ButtonStatus.OK)]
    t = report.timing
    assert t is not None and t.method == "board pulses" and t.status is TimingStatus.OK
    # every stamp exactly where it was put, to the 16 ns tick, including 0 and 1 tick apart
    assert (t.samples, t.median_error_ns, t.jitter_ns, t.max_abs_error_ns, t.ordered) == (16, 0, 0, 0, True)


def test_a_stuck_pin_a_swapped_pair_and_a_bouncy_button(sim: SimBoard, pinmap: PinMap) -> None:
    faults = parse_faults(["stuck:seat3", "swap:seat0,seat1", "bouncy:seat2"])
    report = doctor(sim, pinmap, faults, DoctorSettings(press_timeout_s=0.5, quiet_s=0.03, leds=False, timing=False))
    by_key = {c.point.key: c for c in report.buttons}
    assert (by_key["seat0"].status, by_key["seat0"].partner) == (ButtonStatus.SWAPPED, "seat1")
    assert (by_key["seat1"].status, by_key["seat1"].partner) == (ButtonStatus.SWAPPED, "seat0")
    assert by_key["seat3"].status is ButtonStatus.STUCK
    bounce = by_key["seat2"].bounce
    assert bounce is not None and (bounce.edges, bounce.press_settle_ns, bounce.release_settle_ns) == (12, 14 * MS, MS)
    assert [f.text.split(":")[0] for f in report.findings] == [
        "seat 0 and seat 1 buttons are swapped", "seat 3 button on GP5 (pin 7) reads pressed while nobody touches it",
        "seat 2 button bounces for 14.0 ms (12 edges for one press)"]
    assert report.recommended_lockout_ns == 28 * MS and report.verdict == "fail"


def test_an_unwired_caught_button(sim: SimBoard, pinmap: PinMap) -> None:
    report = doctor(sim, pinmap, parse_faults(["unwired:guard"]),
                    DoctorSettings(press_timeout_s=0.3, quiet_s=0.03, leds=False, timing=False))
    assert [(f.severity, f.text.split(":")[0]) for f in report.findings] == [
        (Severity.FAIL, "Caught! button on GP8 (pin 11) gave no edge when pressed")]


class CrossedPulser:
    """A pulse source wired to the wrong inputs: what it sends to seat 0 reaches Caught! and back."""

    def __init__(self, sim: SimBoard) -> None:
        self.inner = SimPulser(sim)

    def at_go(self, slot: int, level: int, offset_ns: int) -> None:
        self.inner.at_go({0: 6, 6: 0}[slot], level, offset_ns)


def test_the_two_input_test_catches_inverted_order(sim: SimBoard, pinmap: PinMap) -> None:
    report = doctor(sim, pinmap, SimFaults(), DoctorSettings(leds=False, buttons=False), pulser=CrossedPulser(sim))
    t = report.timing
    assert t is not None and t.status is TimingStatus.FAIL and t.ordered is False
    assert report.verdict == "fail"


def test_without_a_pulse_source_the_board_checks_its_go(sim: SimBoard, pinmap: PinMap) -> None:
    report = doctor(sim, pinmap, SimFaults(), DoctorSettings(leds=False, buttons=False), use_pulser=False)
    t = report.timing
    # How late the simulated board's loop raises GO follows the PC's load (its clock is the
    # PC's), so only what holds on any load is asserted here: five trials, GO never early.
    # The limits are go_check's, tested below with chosen errors.
    assert t is not None and t.method == "board GO" and t.samples == 5, t
    assert t.median_error_ns is not None and t.median_error_ns >= 0
    assert t.status is TimingStatus.OK or "ms after its 50 ms delay" in t.note, t


@pytest.mark.parametrize(("errors_ms", "ok"), [
    ((0.0, 0.8, 1.0, 1.2, 4.9), True),
    ((0.5, 0.5, 0.5, 0.5, 5.2), False),  # one GO later than the 5 ms the main loop may take
    ((-0.001, 1.0, 1.0, 1.0, 1.0), False),  # GO before its delay: never
])
def test_the_go_check_allows_a_late_loop_but_never_an_early_go(errors_ms: tuple[float, ...], ok: bool) -> None:
    t = go_check([round(e * MS) for e in errors_ms], 9)
    assert t.method == "board GO" and t.samples == 5
    assert (t.status is TimingStatus.OK) is ok, t
    if ok:
        assert f"GO asked for {GO_DELAY_NS // MS} ms after arming" in t.note
    else:
        assert "check the GO pin (GP9 (pin 12)) and the firmware" in t.note
