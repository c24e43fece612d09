"""The doctor on the GPIO build, on gpiozero's MockFactory: lights looked at on the pins, presses
with chosen kernel stamps (StampedMockPin), the loopback through MockConnectedPin and through
a jumper whose delays the test chooses. No test sleeps: the doctor waits on queues."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockConnectedPin, MockFactory, MockPin

from firmware_host.doctor.core import MS, ButtonStatus, Report, Severity, TimingStatus
from firmware_host.doctor.gpio import GpioDoctorRig
from firmware_host.doctor.run import ConsoleOperator, DoctorSettings, run_doctor
from firmware_host.doctor.sim import SimFaults, SimGpioPeople, parse_faults, sim_gpio_factory
from firmware_host.mockpins import ClockedMockFactory, StampedMockPin
from firmware_host.pinmap import PinMap, load_pinmap
from firmware_host.records import ticks_to_ns

FAST = DoctorSettings(press_timeout_s=0.3, quiet_s=0.01)


@pytest.fixture
def pinmap() -> PinMap:
    return load_pinmap()


def doctor(pinmap: PinMap, factory: object, faults: SimFaults, settings: DoctorSettings = FAST,
           **rig_kwargs: object) -> tuple[Report, SimGpioPeople]:
    rig = GpioDoctorRig(pinmap, pin_factory=factory, spacing_s=0.0, **rig_kwargs)  # type: ignore[arg-type]
    people = SimGpioPeople(factory, pinmap, faults)
    try:
        people.break_rig()
        return run_doctor(rig, people, settings), people
    finally:
        rig.close()


def test_a_healthy_rig_passes(pinmap: PinMap) -> None:
    factory = sim_gpio_factory(pinmap, SimFaults())
    report, people = doctor(pinmap, factory, SimFaults())
    assert report.verdict in ("pass", "pass with warnings")
    assert not [f for f in report.findings if f.severity is Severity.FAIL]
    assert [led.point.key for led in report.leds] == ["seat0", "seat1", "seat2", "seat3", "seat4", "guard", "go"]
    assert all(led.lit for led in report.leds)  # the simulated person read the pins: that LED high, all others low
    assert [(c.point.key, c.status, c.bounce.edges if c.bounce else 0) for c in report.buttons] == [
        (f"seat{n}", ButtonStatus.OK, 2) for n in range(5)] + [("guard", ButtonStatus.OK, 2)]
    t = report.timing
    assert t is not None and t.method == "loopback" and t.status is TimingStatus.OK
    assert t.samples == t.expected_samples == 40 and t.ordered
    # MockConnectedPin changes the input inside the write: stamped between the clock reads
    assert t.median_error_ns is not None and 0 <= t.median_error_ns < 50 * MS
    assert report.recommended_lockout_ns == 5 * MS
    # every output is dark again and every pin released
    assert not any(factory.pin(p).state for p in pinmap.output_pins())  # type: ignore[attr-defined]
    assert people.said[0].startswith("Lights")


def test_a_stuck_pin_a_swapped_pair_and_a_bouncy_button_with_chosen_stamps(pinmap: PinMap) -> None:
    factory = ClockedMockFactory(now_s=1000.0)
    faults = parse_faults(["stuck:seat3", "swap:seat0,seat1", "bouncy:seat2"])
    report, _ = doctor(pinmap, factory, faults, DoctorSettings(press_timeout_s=0.3, quiet_s=0.01, timing=False))
    by_key = {c.point.key: c for c in report.buttons}
    assert by_key["seat0"].status is ButtonStatus.SWAPPED and by_key["seat0"].partner == "seat1"
    assert by_key["seat1"].status is ButtonStatus.SWAPPED and by_key["seat1"].partner == "seat0"
    assert by_key["seat3"].status is ButtonStatus.STUCK
    bounce = by_key["seat2"].bounce
    assert by_key["seat2"].status is ButtonStatus.OK and bounce is not None
    # the stamps are the chosen ones, to the ns: 12 edges, settled 14 ms down and 1 ms up
    assert (bounce.edges, bounce.press_settle_ns, bounce.release_settle_ns) == (12, 14 * MS, 1 * MS)
    assert report.recommended_lockout_ns == 28 * MS
    texts = [(f.severity, f.text) for f in report.findings]
    assert texts == [
        (Severity.FAIL, "seat 0 and seat 1 buttons are swapped: swap the wires on GPIO 17 (pin 11) and "
                        "GPIO 22 (pin 15), or swap them in the pin map"),
        (Severity.FAIL, "seat 3 button on GPIO 5 (pin 29) reads pressed while nobody touches it: a jammed "
                        "button or its signal wire shorted to GND"),
        (Severity.WARN, "seat 2 button bounces for 14.0 ms (12 edges for one press): raise the lockout to 28 ms "
                        "or replace the button"),
    ]
    assert report.verdict == "fail"


def test_an_unwired_button_and_a_dark_led(pinmap: PinMap) -> None:
    factory = ClockedMockFactory()
    faults = parse_faults(["unwired:guard", "dark:seat4"])
    report, _ = doctor(pinmap, factory, faults, DoctorSettings(press_timeout_s=0.2, quiet_s=0.01, timing=False))
    assert {c.point.key: c.status for c in report.buttons}["guard"] is ButtonStatus.UNWIRED
    assert [led.point.key for led in report.leds if not led.lit] == ["seat4"]
    assert [f.text.split(":")[0] for f in report.findings] == [
        "seat 4 light on GPIO 4 (pin 7) did not come on",
        "Caught! button on GPIO 26 (pin 37) gave no edge when pressed",
    ]


def test_a_person_sees_a_swapped_led_as_not_lit(pinmap: PinMap) -> None:
    """The simulated person checks the pins: if seat 0's LED pin stays dark, the answer is no."""
    factory = ClockedMockFactory()
    rig = GpioDoctorRig(pinmap, pin_factory=factory)
    people = SimGpioPeople(factory, pinmap)
    try:
        (seat0,) = [p for p in rig.outputs() if p.key == "seat0"]
        rig.light("seat1", True)  # the wrong one lights
        assert people.check_light(seat0) is False
        rig.light("seat1", False)
        rig.light("seat0", True)
        assert people.check_light(seat0) is True
    finally:
        rig.close()


class LaggingJumper(MockPin):  # type: ignore[misc]
    """The loopback output: each write reaches the input ``lags`` ns later (chosen per write),
    and every write moves the factory clock on by 1 ms."""

    def __init__(self, factory: ClockedMockFactory, info: object, input_pin: StampedMockPin,
                 lags: list[int]) -> None:
        super().__init__(factory, info)
        self.clock = factory
        self.input_pin = input_pin
        self.lags = lags

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.lags:
            now = ticks_to_ns(self.clock.ticks())
            self.input_pin.edge(level=value, t_ns=now + self.lags.pop(0))
            self.clock.set_now_ns(now + MS)
        return changed


def jumpered(pinmap: PinMap, lags: list[int]) -> ClockedMockFactory:
    factory = ClockedMockFactory(now_s=2000.0)
    assert pinmap.loopback is not None
    factory.pin(pinmap.loopback.output, pin_class=LaggingJumper, input_pin=factory.pin(pinmap.loopback.input),
                lags=lags)
    return factory


LOOP_ONLY = DoctorSettings(leds=False, buttons=False)


def test_loopback_error_and_jitter_are_the_chosen_delays(pinmap: PinMap) -> None:
    lags = [5_000, 9_000, 7_000, 6_000, 8_000, 7_500]
    report, _ = doctor(pinmap, jumpered(pinmap, list(lags)), SimFaults(), LOOP_ONLY, pulses=len(lags))
    t = report.timing
    assert t is not None and t.status is TimingStatus.OK and t.samples == 6
    assert (t.median_error_ns, t.jitter_ns, t.max_abs_error_ns, t.ordered) == (7_000, 4_000, 9_000, True)
    assert t.note == "GPIO 20 (pin 38) -> GPIO 21 (pin 40)"
    assert report.verdict == "pass"


def test_loopback_jitter_wider_than_the_tie_window_asks_for_a_wider_one(pinmap: PinMap) -> None:
    lags = [5_000, 85_000, 7_000, 6_000]
    report, _ = doctor(pinmap, jumpered(pinmap, lags), SimFaults(), LOOP_ONLY, pulses=4)
    (f,) = report.findings
    assert f.severity is Severity.WARN and f.text.endswith("set resolution_us = 160 in the pin map")


def test_an_edge_stamped_before_its_write_fails_the_self_test(pinmap: PinMap) -> None:
    report, _ = doctor(pinmap, jumpered(pinmap, [5_000, -3_000, 5_000, 5_000]), SimFaults(), LOOP_ONLY, pulses=4)
    t = report.timing
    assert t is not None and t.status is TimingStatus.FAIL and not t.ordered
    (f,) = report.findings
    assert f.text == ("timing self-test (loopback) failed: an edge was stamped 3.0 µs before its write: the pin "
                      "factory's stamps are not on the doctor's clock")


def test_a_missing_jumper_fails_the_self_test_and_names_the_pins(pinmap: PinMap) -> None:
    factory = sim_gpio_factory(pinmap, parse_faults(["no-loopback"]))
    rig = GpioDoctorRig(pinmap, pin_factory=factory, spacing_s=0.0)
    try:
        import firmware_host.doctor.gpio as dg

        old, dg.LOOPBACK_WAIT_S = dg.LOOPBACK_WAIT_S, 0.05
        try:
            t = rig.timing_test()
        finally:
            dg.LOOPBACK_WAIT_S = old
    finally:
        rig.close()
    assert t.status is TimingStatus.FAIL and t.samples == 0
    assert t.note == "no edge came back on GPIO 21 (pin 40): fit the jumper from GPIO 20 (pin 38) (or skip the self-test)"


def test_no_loopback_in_the_map_skips_the_self_test(pinmap: PinMap) -> None:
    from dataclasses import replace

    plain = replace(pinmap, loopback=None)
    rig = GpioDoctorRig(plain, pin_factory=MockFactory(pin_class=StampedMockPin))
    try:
        t = rig.timing_test()
    finally:
        rig.close()
    assert t.status is TimingStatus.SKIPPED and "no [loopback]" in t.note


def test_the_console_operator_asks_and_takes_scripted_answers(pinmap: PinMap) -> None:
    factory = MockFactory(pin_class=StampedMockPin)
    rig = GpioDoctorRig(pinmap, pin_factory=factory)
    said: list[str] = []
    typed: Iterator[str] = iter(["maybe", "n"])
    try:
        go = [p for p in rig.outputs() if p.key == "go"][0]
        console = ConsoleOperator(read=lambda prompt: (said.append(prompt), next(typed))[1], write=said.append)
        assert console.check_light(go) is False
        assert said == ["GO (GPIO 12 (pin 32)): did the GO lamp light or the buzzer sound, and no other? [y/n] ",
                        "  answer y or n",
                        "GO (GPIO 12 (pin 32)): did the GO lamp light or the buzzer sound, and no other? [y/n] "]
        scripted = ConsoleOperator(write=said.append, answers=iter([True]))
        assert scripted.check_light(go) is True and scripted.check_light(go) is False  # out of answers: no
        scripted.press(rig.buttons()[0])
        assert said[-1] == "seat 0 (GPIO 17 (pin 11)): press the button once and let go"
    finally:
        rig.close()


def test_mock_connected_pin_is_what_the_simulated_jumper_is(pinmap: PinMap) -> None:
    factory = sim_gpio_factory(pinmap, SimFaults())
    assert pinmap.loopback is not None
    assert isinstance(factory.pin(pinmap.loopback.output), MockConnectedPin)  # type: ignore[attr-defined]
