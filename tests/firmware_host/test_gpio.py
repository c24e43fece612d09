"""The GPIO adapter on gpiozero's MockFactory, with edge timestamps chosen by the test.

``StampedMockPin`` (firmware_host.mockpins) delivers each edge's ticks the way the lgpio factory
does (the kernel's integer ns divided by 1e9), so these tests check the conversion path that runs
on a Pi.
"""

from __future__ import annotations

import gc
import importlib.util
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import LED, Device, GPIOPinInUse  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.errors import BadPinFactory, BadSeat, BadTicks
from firmware_host.gpio import MIN_RESOLUTION_NS, GpioRig, open_pin_factory, timestamp_source
from firmware_host.records import MONOTONIC_CLOCK, SeatLight, ticks_to_ns
from game.inputs import CaughtPress, CaughtRelease
from firmware_host.mockpins import ClockedMockFactory, StampedMockPin
from firmware_host.pinmap import PinMap, load_pinmap, loads_pinmap
from game.errors import BadConfig, BadInputEvent
from game.inputs import Go, Press, Release

WAIT_S = 5.0  # upper bound for waits on background threads; tests normally finish far sooner


@pytest.fixture
def factory() -> Iterator[ClockedMockFactory]:
    before = Device.pin_factory
    f = ClockedMockFactory()
    yield f
    f.reset()
    assert Device.pin_factory is before, "the adapter must never set gpiozero's global factory"


@pytest.fixture
def pinmap() -> PinMap:
    return load_pinmap()


@pytest.fixture
def rig(factory: ClockedMockFactory, pinmap: PinMap) -> Iterator[GpioRig]:
    r = GpioRig(pinmap, pin_factory=factory)
    yield r
    r.close()


def pin(factory: ClockedMockFactory, gpio: int) -> StampedMockPin:
    return factory.stamped_pin(gpio)


def seat_pin(factory: ClockedMockFactory, pinmap: PinMap, seat: int) -> StampedMockPin:
    return pin(factory, pinmap.seats[seat].button)


# -- ticks ----------------------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=2**23 * 10**9 - 1))
def test_lgpio_stamps_come_back_exactly_below_2_23_seconds_of_uptime(t_ns: int) -> None:
    assert ticks_to_ns(t_ns / 1_000_000_000) == t_ns  # gpiozero's lgpio pin: ticks / 1000000000


@given(st.integers(min_value=2**23 * 10**9, max_value=2**24 * 10**9 - 1))
def test_lgpio_stamps_within_1_ns_up_to_194_days(t_ns: int) -> None:
    assert abs(ticks_to_ns(t_ns / 1_000_000_000) - t_ns) <= 1


@given(st.integers(min_value=2**25 * 10**9, max_value=2**26 * 10**9 - 1))
def test_lgpio_stamps_within_4_ns_up_to_2_years(t_ns: int) -> None:
    assert abs(ticks_to_ns(t_ns / 1_000_000_000) - t_ns) <= 4


def test_int_ticks_are_seconds() -> None:
    assert ticks_to_ns(3) == 3_000_000_000
    assert ticks_to_ns(0.0) == 0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -0.5, -1, "1.0", None, True])
def test_bad_ticks_are_refused(bad: object) -> None:
    with pytest.raises(BadTicks, match=r"ticks .* from the pin factory are not valid: expected a finite"):
        ticks_to_ns(bad)


# -- factories ------------------------------------------------------------------------------


def fake_factory(module: str, name: str) -> object:
    return type(name, (), {"__module__": module})()


def test_lgpio_and_mock_factories_are_accepted(factory: ClockedMockFactory) -> None:
    assert timestamp_source(fake_factory("gpiozero.pins.lgpio", "LGPIOFactory")) == "kernel"
    assert timestamp_source(factory) == "mock"


@pytest.mark.parametrize(
    ("module", "name", "match"),
    [
        ("gpiozero.pins.rpigpio", "RPiGPIOFactory", r"'RPiGPIOFactory' stamps edges when Python runs"),
        ("gpiozero.pins.native", "NativeFactory", r"'NativeFactory' stamps edges when Python runs"),
        ("gpiozero.pins.pigpio", "PiGPIOFactory", r"'PiGPIOFactory' counts 32-bit microsecond ticks"),
    ],
)
def test_factories_that_stamp_late_or_elsewhere_are_refused(module: str, name: str, match: str) -> None:
    with pytest.raises(BadPinFactory, match=match + r".*use the lgpio factory"):
        timestamp_source(fake_factory(module, name))


def test_open_pin_factory_follows_the_environment_and_refuses_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    f = open_pin_factory()
    assert isinstance(f, MockFactory)
    f.close()
    with pytest.raises(BadPinFactory, match=r"pin factory 'rpigpio' cannot referee races: use one of"):
        open_pin_factory("RPiGPIO")


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed here")
def test_open_lgpio_without_lgpio_says_how_to_fix_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # lgpio, if it loaded at all, drops a FIFO file in the cwd
    with pytest.raises(BadPinFactory, match=r"pin factory 'lgpio' cannot start .*install lgpio"):
        open_pin_factory("lgpio")


# -- edges ----------------------------------------------------------------------------------


def test_presses_become_records_with_exactly_the_kernel_ns(
    rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    seat_pin(factory, pinmap, 3).press(5_000_123_456_789)
    seat_pin(factory, pinmap, 3).release(5_000_223_456_790)
    seat_pin(factory, pinmap, 0).press(5_000_123_456_790)
    assert rig.drain() == [
        Press(3, 5_000_123_456_789, MONOTONIC_CLOCK),
        Release(3, 5_000_223_456_790, MONOTONIC_CLOCK),
        Press(0, 5_000_123_456_790, MONOTONIC_CLOCK),
    ]
    assert rig.bad_edge_count == 0


def test_caught_button_edges_are_their_own_records(
    rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    guard = pin(factory, pinmap.guard_button)
    guard.press(7_000_000_000)
    assert rig.guard_held()
    guard.release(7_150_000_000)
    assert not rig.guard_held()
    assert rig.drain() == [CaughtPress(7_000_000_000, MONOTONIC_CLOCK), CaughtRelease(7_150_000_000, MONOTONIC_CLOCK)]


def test_caught_records_validate_their_fields() -> None:
    with pytest.raises(BadInputEvent, match=r"Caught! press t_ns -1 is not valid"):
        CaughtPress(-1, MONOTONIC_CLOCK)
    with pytest.raises(BadInputEvent, match=r"Caught! release clock '' is not valid"):
        CaughtRelease(1, "")


def test_pull_down_wiring_presses_on_a_rising_edge(factory: ClockedMockFactory) -> None:
    text = load_pinmap().source
    pm = loads_pinmap(Path(text).read_text(encoding="utf-8").replace('pull = "up"', 'pull = "down"'))
    with GpioRig(pm, pin_factory=factory) as rig:
        p = pin(factory, pm.seats[1].button)
        assert rig.held_seats() == ()
        p.press(10, active_low=False)  # drive high: the button connects the pin to 3V3
        assert rig.held_seats() == (1,)
        p.release(20, active_low=False)
        assert rig.drain() == [Press(1, 10, MONOTONIC_CLOCK), Release(1, 20, MONOTONIC_CLOCK)]


def test_edges_from_another_thread_arrive_through_the_queue(
    rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    def press_all() -> None:  # stands in for lgpio's callback thread
        for seat in range(5):
            seat_pin(factory, pinmap, seat).press(1_000 + seat)

    t = threading.Thread(target=press_all)
    t.start()
    got = [rig.events.get(timeout=WAIT_S) for _ in range(5)]
    t.join(timeout=WAIT_S)
    assert got == [Press(s, 1_000 + s, MONOTONIC_CLOCK) for s in range(5)]


def test_the_kernels_level_does_not_decide_press_or_release(
    rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    # What lgpio hands over during bounce: the press's stamp with the level of the bounce after
    # it (high = up, for a pulled-up button), then the bounce's own edge with the pressed level.
    callback = seat_pin(factory, pinmap, 1).when_changed
    callback(5.000_001, 1)
    callback(5.000_050, 0)
    callback(5.200_000, 1)
    assert rig.drain() == [Press(1, 5_000_001_000, MONOTONIC_CLOCK), Release(1, 5_000_050_000, MONOTONIC_CLOCK),
                           Release(1, 5_200_000_000, MONOTONIC_CLOCK)]
    assert rig.direction_resyncs == 1  # quiet before the last edge, and the level said down: one lost


def test_arming_counts_edges_from_the_level_the_pins_read(
    rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    callback = seat_pin(factory, pinmap, 0).when_changed
    callback(1.0, 0)  # a press whose release the kernel lost: the pin itself still reads up
    assert rig.drain() == [Press(0, 1_000_000_000, MONOTONIC_CLOCK)]
    factory.now_s = 2.0
    rig.arm(range(5))
    assert rig.direction_resyncs == 1
    seat_pin(factory, pinmap, 0).press(3_000_000_000)
    assert rig.drain() == [Press(0, 3_000_000_000, MONOTONIC_CLOCK)]


def test_lgpio_is_installed_on_64_and_32_bit_raspberry_pi_os() -> None:
    import tomllib

    from packaging.requirements import Requirement

    text = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    (lgpio,) = [Requirement(r) for r in tomllib.loads(text)["project"]["dependencies"] if r.startswith("lgpio")]
    assert lgpio.marker is not None
    machines = {m: lgpio.marker.evaluate({"platform_machine": m, "sys_platform": "linux"})
                for m in ("aarch64", "armv7l", "x86_64")}
    assert machines == {"aarch64": True, "armv7l": True, "x86_64": False}


def test_unreadable_edges_are_counted_never_raised(rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap) -> None:
    p = seat_pin(factory, pinmap, 2)
    p.edge(level=False, ticks=float("nan"))
    p.edge(level=True, ticks=-1.0)
    p.press(42)
    assert rig.drain() == [Press(2, 42, MONOTONIC_CLOCK)]
    assert rig.bad_edge_count == 2
    assert [(b.gpio, b.ticks, b.state) for b in rig.bad_edges()] == [(24, "nan", "False"), (24, "-1.0", "True")]


def test_callback_survives_garbage_collection(rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap) -> None:
    gc.collect()
    seat_pin(factory, pinmap, 4).press(99)
    assert rig.drain() == [Press(4, 99, MONOTONIC_CLOCK)]


def test_why_the_adapter_keeps_references_an_inline_lambda_never_fires(factory: ClockedMockFactory) -> None:
    hits: list[object] = []
    p = pin(factory, 20)
    p.function = "input"
    p.when_changed = lambda ticks, state: hits.append(ticks)
    gc.collect()
    p.press(1)
    assert hits == []  # gpiozero held it weakly; the lambda is gone


# -- arming, GO, LEDs -----------------------------------------------------------------------


def test_go_is_stamped_on_the_factory_clock(rig: GpioRig, factory: ClockedMockFactory) -> None:
    factory.now_s = 12_345.678_901_234
    armed = rig.arm(range(4))
    assert armed.t_ns == ticks_to_ns(12_345.678_901_234) == 12_345_678_901_234
    assert armed.clock == MONOTONIC_CLOCK
    factory.now_s = 12_347.5
    assert rig.go(range(4)) == Go(12_347_500_000_000, MONOTONIC_CLOCK)
    assert rig.now_ns() == 12_347_500_000_000


def test_a_button_held_when_armed_is_reported(rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap) -> None:
    seat_pin(factory, pinmap, 2).press(5)
    seat_pin(factory, pinmap, 4).press(6)  # seat 4 is not in this race: not reported
    assert rig.held_seats() == (2, 4)
    assert rig.arm(range(4)).held == (2,)
    seat_pin(factory, pinmap, 2).release(7)
    assert rig.arm(range(4)).held == ()


def test_seats_outside_the_table_are_refused(rig: GpioRig) -> None:
    with pytest.raises(BadSeat, match=r"seat 5 is not on this table: the pin map .* wires seats 0 to 4"):
        rig.arm([0, 5])
    with pytest.raises(BadSeat, match=r"seat -1 is not on this table"):
        rig.show({-1: SeatLight.GO})


def test_bad_resolution_is_refused(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    with pytest.raises(BadConfig, match=r"resolution_ns 0 is not valid on the GPIO build: .* 20000 or more"):
        GpioRig(pinmap, pin_factory=factory, resolution_ns=0)


def test_a_tie_window_narrower_than_the_kernels_pin_order_spread_is_refused(
    factory: ClockedMockFactory, pinmap: PinMap
) -> None:
    with pytest.raises(BadConfig, match=r"resolution_ns 19999 is not valid on the GPIO build: the kernel "
                                        r"stamps pins of one bank in pin order µs apart"):
        GpioRig(pinmap, pin_factory=factory, resolution_ns=MIN_RESOLUTION_NS - 1)


def test_a_failed_start_releases_what_it_opened(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    taken = LED(pinmap.seats[3].led, pin_factory=factory)  # something else holds seat 3's LED pin
    with pytest.raises(GPIOPinInUse):
        GpioRig(pinmap, pin_factory=factory)
    assert pin(factory, pinmap.seats[0].button).when_changed is None
    taken.close()
    with GpioRig(pinmap, pin_factory=factory) as rig:  # every input opened before is free again
        seat_pin(factory, pinmap, 0).press(1)
        assert rig.drain() == [Press(0, 1, MONOTONIC_CLOCK)]


def test_resolution_comes_from_the_pin_map(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    with GpioRig(pinmap, pin_factory=factory) as rig:
        assert rig.resolution_ns == 100_000
    with GpioRig(pinmap, pin_factory=factory, resolution_ns=25_000) as rig:
        assert rig.resolution_ns == 25_000


def test_leds_follow_arm_go_and_result(
    rig: GpioRig, factory: ClockedMockFactory, pinmap: PinMap, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ARMED_FLASH_S", "WINNER_BLINK_S", "LOSER_BLINK_S"):  # same patterns, faster
        monkeypatch.setattr(f"firmware_host.gpio.{name}", 0.01)
    led = {seat: pin(factory, s.led) for seat, s in enumerate(pinmap.seats) if s.led is not None}
    go_pin = pin(factory, 12)

    rig.arm([0, 1, 2])
    assert led[0].wait_changes(2)  # the ARMED cue: one flash, on then off
    assert not led[0].state and led[3].changes == 0 and not go_pin.state

    rig.go([0, 1, 2])
    assert [led[s].state for s in range(5)] == [True, True, True, False, False]
    assert go_pin.state
    assert rig.lights() == {0: SeatLight.GO, 1: SeatLight.GO, 2: SeatLight.GO, 3: SeatLight.OFF, 4: SeatLight.OFF}

    before = {s: led[s].changes for s in range(3)}
    rig.show({0: SeatLight.WINNER, 1: SeatLight.LOSER, 2: SeatLight.OFF})
    assert led[0].wait_changes(before[0] + 3)  # blinking: off, on, off ...
    assert led[1].wait_changes(before[1] + 3)
    assert not led[2].state
    rig.go_off()
    assert not go_pin.state


def test_go_pulse_switches_a_buzzer_off_again(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    text = Path(pinmap.source).read_text(encoding="utf-8").replace("pulse_ms = 300", "pulse_ms = 10")
    with GpioRig(loads_pinmap(text), pin_factory=factory) as rig:
        go_pin = pin(factory, 12)
        rig.arm([0, 1, 2])
        before = go_pin.changes
        rig.go([0, 1, 2])
        # On and off again (two changes from off), whenever the 10 ms timer runs: reading the
        # pin right after go() raced the timer on a loaded machine.
        assert go_pin.wait_changes(before + 2)
        assert not go_pin.state


def test_guard_led(rig: GpioRig, factory: ClockedMockFactory) -> None:
    rig.show_guard(True)
    assert pin(factory, 16).state
    rig.show_guard(False)
    assert not pin(factory, 16).state


def test_close_releases_every_pin(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    rig = GpioRig(pinmap, pin_factory=factory)
    rig.go([0, 1, 2])
    rig.close()
    rig.close()  # twice is fine
    for gpio in pinmap.input_pins():
        assert pin(factory, gpio).when_changed is None
    assert not any(pin(factory, gpio).state for gpio in pinmap.output_pins())
    seat_pin(factory, pinmap, 0).press(1)
    assert rig.drain() == []
    LED(pinmap.seats[0].button, pin_factory=factory).close()  # the pins are free again
    with GpioRig(pinmap, pin_factory=factory) as again:
        assert again.held_seats() == ()  # the pull-up is back on the reopened input
        seat_pin(factory, pinmap, 0).press(2)
        assert again.drain() == [Press(0, 2, MONOTONIC_CLOCK)]


def test_a_shared_queue_can_be_passed_in(factory: ClockedMockFactory, pinmap: PinMap) -> None:
    q: queue.Queue[object] = queue.Queue()
    with GpioRig(pinmap, pin_factory=factory, events=q) as rig:  # type: ignore[arg-type]
        assert rig.events is q
        seat_pin(factory, pinmap, 1).press(3)
        assert q.get(timeout=WAIT_S) == Press(1, 3, MONOTONIC_CLOCK)
