"""The doctor's core: bounce, turns, swaps, lockout and tie-window advice, findings, the report."""

from __future__ import annotations

import json

import pytest

from firmware_host.doctor.core import (
    MS,
    Bounce,
    ButtonCheck,
    ButtonStatus,
    Edge,
    LedCheck,
    Point,
    Severity,
    TimingCheck,
    TimingStatus,
    build_report,
    judge_turn,
    measure_bounce,
    recommend_lockout_ns,
    recommend_resolution_us,
    report_json,
    report_text,
    timing_from_errors,
)
from firmware_host.doctor.sim import BOUNCY_PRESS, parse_faults
from firmware_host.errors import BadSimulation

S0 = Point("seat0", "seat 0", "GPIO 17 (pin 11)")
S1 = Point("seat1", "seat 1", "GPIO 22 (pin 15)")
S2 = Point("seat2", "seat 2", "GPIO 24 (pin 18)")
GUARD = Point("guard", "Caught!", "GPIO 26 (pin 37)")
NONE: frozenset[str] = frozenset()


def press(key: str, t0: int, pattern: tuple[tuple[int, bool], ...] = ((0, True), (100 * MS, False))) -> list[Edge]:
    return [Edge(key, down, t0 + offset) for offset, down in pattern]


def test_a_clean_press_has_two_edges_and_settles_at_once() -> None:
    assert measure_bounce(press("seat0", 5_000)) == Bounce(2, 0, 0)


def test_bounce_is_measured_from_the_first_to_the_last_edge_of_each_burst() -> None:
    b = measure_bounce(press("seat0", 1_000_000_000, BOUNCY_PRESS))
    assert b == Bounce(12, 14 * MS, 1 * MS)
    assert b.settle_ns == 14 * MS


def test_a_tap_shorter_than_the_burst_gap_is_one_burst() -> None:
    assert measure_bounce(press("seat0", 0, ((0, True), (3 * MS, False)))) == Bounce(2, 3 * MS, 0)
    assert measure_bounce([]) == Bounce(0, 0, 0)


def test_turns_tell_ok_stuck_no_release_unwired_and_crossed() -> None:
    assert judge_turn(S0, NONE, press("seat0", 0), NONE).status is ButtonStatus.OK
    assert judge_turn(S0, frozenset({"seat0"}), [], frozenset({"seat0"})).status is ButtonStatus.STUCK
    assert judge_turn(S0, NONE, [Edge("seat0", True, 0)], frozenset({"seat0"})).status is ButtonStatus.NO_RELEASE
    assert judge_turn(S0, NONE, [], NONE).status is ButtonStatus.UNWIRED
    crossed = judge_turn(S0, NONE, press("seat1", 0), NONE)
    assert (crossed.status, crossed.arrived_as) == (ButtonStatus.CROSSED, ("seat1",))
    # a stuck button elsewhere is not "also seen"
    also = judge_turn(S0, frozenset({"seat2"}), press("seat0", 0) + [Edge("seat2", False, 5)], NONE)
    assert also.arrived_as == ()


def test_two_buttons_that_arrive_as_each_other_are_a_swapped_pair() -> None:
    r = build_report("gpio", "m", [], [judge_turn(S0, NONE, press("seat1", 0), NONE),
                                       judge_turn(S1, NONE, press("seat0", 0), NONE),
                                       judge_turn(S2, NONE, press("seat1", 0), NONE)], None, 25 * MS, 100_000)
    assert [(c.status, c.partner) for c in r.buttons] == [
        (ButtonStatus.SWAPPED, "seat1"), (ButtonStatus.SWAPPED, "seat0"), (ButtonStatus.CROSSED, None)]
    texts = [f.text for f in r.findings]
    assert texts == [
        "seat 0 and seat 1 buttons are swapped: swap the wires on GPIO 17 (pin 11) and GPIO 22 (pin 15), "
        "or swap them in the pin map",
        "seat 2 button arrives as seat 1: its wire goes to the wrong pin (should be GPIO 24 (pin 18))",
    ]
    assert r.verdict == "fail" and not r.passed


def test_lockout_advice_covers_the_worst_settle_twice_in_whole_ms() -> None:
    clean = ButtonCheck(S0, ButtonStatus.OK, (), Bounce(2, 0, 0))
    worn = ButtonCheck(S1, ButtonStatus.OK, (), Bounce(12, 14 * MS, 1 * MS))
    assert recommend_lockout_ns([clean]) == 5 * MS
    assert recommend_lockout_ns([clean, worn]) == 28 * MS
    assert recommend_lockout_ns([ButtonCheck(S2, ButtonStatus.UNWIRED)]) is None


@pytest.mark.parametrize(("settle_ns", "severity", "text"), [
    (2 * MS, None, None),
    (14 * MS, Severity.WARN, "seat 0 button bounces for 14.0 ms (9 edges for one press): raise the lockout to 28 ms"),
    (30 * MS, Severity.FAIL, "seat 0 button bounces for 30.0 ms (9 edges for one press), longer than the 25 ms lockout"),
])
def test_bounce_against_the_lockout(settle_ns: int, severity: Severity | None, text: str | None) -> None:
    c = ButtonCheck(S0, ButtonStatus.OK, (), Bounce(9, settle_ns, 0))
    r = build_report("gpio", "m", [], [c], None, 25 * MS, 100_000)
    if severity is None:
        assert r.findings == () and r.verdict == "pass"
    else:
        (f,) = r.findings
        assert f.severity is severity and f.text.startswith(text or "")


def test_timing_summary_and_the_tie_window_advice() -> None:
    t = timing_from_errors("loopback", [5_000, 9_000, 7_000, 60_000], 4, True)
    assert (t.status, t.median_error_ns, t.jitter_ns, t.max_abs_error_ns) == (TimingStatus.OK, 7_000, 55_000, 60_000)
    assert recommend_resolution_us(t) == 110
    r = build_report("gpio", "m", [], [], t, 25 * MS, 100_000)
    (f,) = r.findings
    assert f.severity is Severity.WARN
    assert f.text == ("edge stamps jitter by 55.0 µs, more than half the 100 µs tie window: "
                      "set resolution_us = 110 in the pin map")
    assert r.verdict == "pass with warnings" and r.passed
    missing = timing_from_errors("loopback", [5_000], 4, True)
    assert missing.status is TimingStatus.FAIL
    assert timing_from_errors("loopback", [], 4, True, "no edge").status is TimingStatus.FAIL
    assert timing_from_errors("board pulses", [0, 0], 2, False).status is TimingStatus.FAIL


def test_a_skipped_timing_test_is_a_note_not_a_warning() -> None:
    t = TimingCheck("loopback", TimingStatus.SKIPPED, 0, 0, note="no [loopback]")
    r = build_report("gpio", "m", [], [], t, 25 * MS, 100_000)
    assert [f.severity for f in r.findings] == [Severity.NOTE] and r.verdict == "pass"


def test_report_as_text_and_json() -> None:
    leds = [LedCheck(S0, True), LedCheck(GUARD, False)]
    buttons = [judge_turn(S0, NONE, press("seat0", 0, BOUNCY_PRESS), NONE),
               judge_turn(GUARD, frozenset({"guard"}), [], frozenset({"guard"}))]
    timing = timing_from_errors("loopback", [4_000, 6_000], 2, True, "GPIO 20 (pin 38) -> GPIO 21 (pin 40)")
    r = build_report("gpio", "hardware/pins.toml", leds, buttons, timing, 25 * MS, 100_000)
    text = report_text(r)
    assert text.startswith("cheating-moth doctor: Raspberry Pi GPIO build, hardware/pins.toml\n")
    assert "  FAIL  Caught!    GPIO 26 (pin 37)   did not light\n" in text
    assert "  ok         seat 0   GPIO 17 (pin 11)     12      14.00 ms         1.00 ms\n" in text
    assert "  STUCK      Caught!  GPIO 26 (pin 37)\n" in text
    assert "stamp error: median 4.00 µs, jitter 2.00 µs peak to peak, worst 6.00 µs; in order" in text
    assert "Lockout: 25 ms in use; the buttons need at least 28 ms\n" in text
    assert text.endswith("Verdict: FAIL (2 problems, 1 warning)\n")
    doc = report_json(r)
    assert json.loads(json.dumps(doc)) == doc
    assert doc["verdict"] == "fail" and doc["recommended_lockout_ns"] == 28 * MS
    assert doc["buttons"][0]["edges"] == 12 and doc["buttons"][1]["status"] == "stuck"  # type: ignore[index]
    assert [f["severity"] for f in doc["findings"]] == ["fail", "fail", "warn"]  # type: ignore[union-attr,index]


def test_simulated_faults_parse_and_bad_ones_are_refused() -> None:
    f = parse_faults(["stuck:seat1", "swap:seat0,seat2", "bouncy:seat3", "dark:go", "unwired:guard", "no-loopback"])
    assert f.stuck == {"seat1"} and f.swapped == ("seat0", "seat2") and f.dark == {"go"} and f.no_loopback
    assert f.wire("seat0") == "seat2" and f.wire("seat2") == "seat0" and f.wire("seat1") == "seat1"
    for bad in ("swap:seat0", "melt:seat0", "stuck", "no-loopback:seat1"):
        with pytest.raises(BadSimulation, match=rf"simulated fault {bad!r} is not valid: use stuck:KEY"):
            parse_faults([bad])
