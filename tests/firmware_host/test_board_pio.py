"""The firmware's PIO edge logger, assembled from ``firmware_host/board/pio_programs.py`` under
CPython and run cycle by cycle in rp2040-pio-emulator.

The emulator runs one state machine; two loggers are two runs on the same pin timeline (they
share nothing but the sync pin, exactly as on the chip). Lockouts are scaled down to a few ticks
(the emulator runs ~80k cycles/s), and every run asserts that the emulated clock reached its
horizon, because the emulator ends silently on an instruction it does not support.
"""

from __future__ import annotations

import bisect
from collections import deque
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pytest

from firmware_host.board.ticks import LOCKOUT_FIXED_TICKS, make_word, word_count, word_level

from firmware_host.twin.pioasm import edge_logger

pioemu = pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")
from pioemu import State, emulate  # noqa: E402

SYNC_PIN = 22
BTN_PIN = 2
GO_PIN = 9
SYNC_AT = 20  # cycle at which the sync pin rises in most runs
FULL = 0xFFFF_FFFF


PROGRAM = edge_logger(SYNC_PIN)
# Every ``jmp pin`` (condition 6) is a sample of the watched pin.
SAMPLE_PCS = frozenset(i for i, op in enumerate(PROGRAM.opcodes) if op & 0xE0E0 == 0x00C0)
WAIT_PC = next(i for i, op in enumerate(PROGRAM.opcodes) if op & 0xE000 == 0x2000)


@dataclass
class Run:
    """What one emulated logger did."""

    words: list[tuple[int, int]] = field(default_factory=list)  # (cycle pushed, word)
    samples: list[tuple[int, int, int]] = field(default_factory=list)  # (cycle, pc, X before)
    decrements: list[int] = field(default_factory=list)  # cycles of X decrements after sync
    c0: int | None = None  # first cycle after the sync wait
    final_clock: int = 0

    def stamps(self) -> list[tuple[int, int]]:
        """(level, tick) of each word."""
        return [(word_level(w), word_count(w)) for _, w in self.words]


def run_logger(
    changes: Sequence[tuple[int, int]],
    *,
    initial_level: int = 1,
    lockout_loop: int = 3,
    horizon: int = 400,
    sync_at: int = SYNC_AT,
    pin: int = BTN_PIN,
    start_clock: int = 0,
    initial: State | None = None,
) -> Run:
    """Run one logger watching ``pin`` whose level changes at the given cycles."""
    cycles = [c for c, _ in changes]
    levels = [lv for _, lv in changes]

    def pins(state: State) -> int:
        c = state.clock
        i = bisect.bisect_right(cycles, c)
        level = levels[i - 1] if i else initial_level
        return (1 << SYNC_PIN if c >= sync_at else 0) | (level << pin)

    pins.__annotations__["state"] = State  # the emulator dispatches on the real class, not a string

    state = initial or State(clock=start_clock, transmit_fifo=deque([lockout_loop]))
    run = Run()
    for before, after in emulate(
        list(PROGRAM.opcodes),
        stop_when=lambda _op, s: s.clock >= horizon,
        initial_state=state,
        input_source=pins,
        jmp_pin=pin,
        shift_isr_right=PROGRAM.in_shift_right,
        wrap_target=PROGRAM.wrap_target,
        wrap_top=PROGRAM.wrap_top,
    ):
        pc = before.program_counter
        if run.c0 is None and pc == WAIT_PC + 1 and initial is None:
            run.c0 = before.clock
        if pc in SAMPLE_PCS:
            run.samples.append((before.clock, pc, before.x_register))
        if PROGRAM.opcodes[pc] & 0xE0E0 == 0x0040:  # jmp x--
            run.decrements.append(before.clock)
        while after.receive_fifo:
            run.words.append((before.clock, after.receive_fifo.popleft()))
        run.final_clock = after.clock
    assert run.final_clock >= horizon, f"the emulator stopped at cycle {run.final_clock}, before {horizon}"
    return run


def expected_tick(edge_cycle: int, c0: int) -> int:
    """The documented stamp: an edge first visible at cycle e is stamped floor((e - c0) / 2) + 1."""
    return (edge_cycle - c0) // 2 + 1


def c0_of(run: Run) -> int:
    assert run.c0 is not None
    return run.c0


def assert_accounting(run: Run, c0: int) -> None:
    """At every sample X has been decremented exactly once per two cycles since cycle c0, and
    samples fall on odd cycles."""
    assert run.samples
    for cycle, _pc, x in run.samples:
        d = cycle - c0
        assert d % 2 == 1, f"sample at cycle {cycle} is on an even cycle after c0 {c0}"
        assert x == (FULL - (d + 1) // 2) & FULL, f"X off at cycle {cycle}: {FULL - x} decrements, want {(d + 1) // 2}"


# -- the program ------------------------------------------------------------------------------


def test_program_fits_a_pio_block_and_uses_the_documented_settings() -> None:
    assert len(PROGRAM.opcodes) <= 32
    assert not PROGRAM.in_shift_right  # in x, 31 shifts left: bit 31 is the level bit
    assert PROGRAM.opcodes[WAIT_PC] == 0x2000 | 1 << 7 | SYNC_PIN  # wait 1 gpio SYNC
    assert PROGRAM.wrap_top == len(PROGRAM.opcodes) - 1
    assert len(SAMPLE_PCS) == 3  # the start dispatch and the two watch loops


def test_nothing_counts_before_sync_and_the_first_cycle_after_it_is_c0() -> None:
    run = run_logger([], horizon=120, sync_at=60)
    assert run.c0 == 61  # the wait passes in the cycle the pin is seen high
    assert run.decrements[0] == run.c0
    assert run.words == []
    assert_accounting(run, 61)


# -- cycle accounting on every path ----------------------------------------------------------


@pytest.mark.parametrize("lockout_loop", [0, 1, 4])
@pytest.mark.parametrize("initial_level", [0, 1])
def test_every_path_decrements_x_once_per_two_cycles(lockout_loop: int, initial_level: int) -> None:
    rng = random.Random(lockout_loop * 10 + initial_level)
    changes: list[tuple[int, int]] = []
    level, cycle = initial_level, SYNC_AT + 3
    while cycle < 560:  # edges at every spacing: inside lockouts, at their end, long after
        cycle += rng.choice([1, 2, 3, 5, 2 * (lockout_loop + LOCKOUT_FIXED_TICKS), 40])
        level ^= 1
        changes.append((cycle, level))
    run = run_logger(changes, initial_level=initial_level, lockout_loop=lockout_loop, horizon=640)
    c0 = c0_of(run)
    assert_accounting(run, c0)
    assert len(run.words) >= 6
    levels = [lv for lv, _ in run.stamps()]
    assert all(a != b for a, b in zip(levels, levels[1:])), "press and release words must alternate"
    assert levels[0] == 1 - initial_level


def test_accounting_holds_across_the_counter_wrap() -> None:
    """X reaches 0 once every 2**32 ticks: the low loop's decrement then falls through and wraps."""
    # Start inside the low loop (button held) with X two ticks from zero, on a sample cycle.
    low_s = max(SAMPLE_PCS)
    c0 = 1_000
    start = c0 + 2 * (FULL - 2) - 1  # the sample cycle at which X == 2 (X = FULL - (d + 1) // 2)
    state = State(clock=start, program_counter=low_s, x_register=2, y_register=FULL,
                  transmit_fifo=deque(), output_shift_register=pioemu.ShiftRegister(3, 0))
    release_at = start + 21
    run = run_logger([(release_at, 1)], initial_level=0, horizon=start + 80, initial=state, sync_at=0)
    # past the wrap X counts on from 0xFFFFFFFF: tick counts continue modulo 2**32
    for cycle, _pc, x in run.samples:
        assert x == (FULL - (cycle - c0 + 1) // 2) & FULL
    [(level, count)] = run.stamps()
    assert level == 1
    assert count == expected_tick(release_at, c0) % 2**31


# -- stamps -----------------------------------------------------------------------------------


@pytest.mark.parametrize("offset", range(2, 26))
def test_a_press_is_stamped_floor_half_the_cycles_after_sync_plus_one(offset: int) -> None:
    c0 = SYNC_AT + 1
    run = run_logger([(c0 + offset, 0)], horizon=c0 + offset + 20)
    assert run.stamps() == [(0, expected_tick(c0 + offset, c0))]
    assert run.words[0][1] == make_word(0, expected_tick(c0 + offset, c0))


def _press_tick(edge_cycle: int) -> int:
    run = run_logger([(edge_cycle, 0)], horizon=edge_cycle + 12)
    [(level, tick)] = run.stamps()
    assert level == 0
    return tick


def test_presses_one_cycle_apart_are_never_inverted_and_same_cycle_ties() -> None:
    c0 = SYNC_AT + 1
    ticks = {e: _press_tick(e) for e in range(c0 + 2, c0 + 42)}
    for e in range(c0 + 2, c0 + 41):
        assert ticks[e] <= ticks[e + 1] <= ticks[e] + 1, f"cycles {e} and {e + 1} inverted or too far apart"
    for e in range(c0 + 2, c0 + 40):
        assert ticks[e + 2] > ticks[e], "presses two cycles apart must be ordered"
    # two buttons pressed in the same cycle: two loggers, identical stamps
    for e in (c0 + 7, c0 + 8):
        assert _press_tick(e) == ticks[e]


def test_bounce_inside_the_lockout_is_ignored_and_time_keeps_counting() -> None:
    lockout_loop = 3
    lockout_ticks = lockout_loop + LOCKOUT_FIXED_TICKS
    c0 = SYNC_AT + 1
    press = c0 + 11
    press_tick = expected_tick(press, c0)
    blind_until = c0 + 2 * (press_tick + lockout_ticks) - 1  # the next sample's cycle
    bounces = [(press + 1, 1), (press + 2, 0), (press + 5, 1), (blind_until - 1, 0)]
    release = blind_until + 9
    run = run_logger([(press, 0), *bounces, (release, 1)], lockout_loop=lockout_loop, horizon=release + 30)
    assert run.stamps() == [(0, press_tick), (1, expected_tick(release, c0))]
    assert_accounting(run, c0)


def test_a_release_inside_the_lockout_is_stamped_when_the_lockout_ends() -> None:
    lockout_loop = 2
    lockout_ticks = lockout_loop + LOCKOUT_FIXED_TICKS
    c0 = SYNC_AT + 1
    press = c0 + 6
    run = run_logger([(press, 0), (press + 3, 1)], lockout_loop=lockout_loop, horizon=press + 80)
    press_tick = expected_tick(press, c0)
    assert run.stamps() == [(0, press_tick), (1, press_tick + lockout_ticks)]
    # and the rise's lockout is as long: a press right after it is seen at its end
    run = run_logger([(press, 0), (press + 3, 1), (press + 4 + 2 * lockout_ticks, 0)],
                     lockout_loop=lockout_loop, horizon=press + 120)
    assert run.stamps()[2] == (0, press_tick + 2 * lockout_ticks)


def test_an_edge_at_the_first_cycle_after_the_lockout_is_caught() -> None:
    lockout_loop = 1
    c0 = SYNC_AT + 1
    press = c0 + 4
    press_tick = expected_tick(press, c0)
    next_sample = c0 + 2 * (press_tick + lockout_loop + LOCKOUT_FIXED_TICKS) - 1
    run = run_logger([(press, 0), (next_sample, 1)], lockout_loop=lockout_loop, horizon=next_sample + 20)
    assert run.stamps()[1] == (1, expected_tick(next_sample, c0))


def test_a_button_held_at_sync_gives_no_press_then_its_release() -> None:
    c0 = SYNC_AT + 1
    run = run_logger([(c0 + 30, 1)], initial_level=0, horizon=c0 + 60)
    assert run.stamps() == [(1, expected_tick(c0 + 30, c0))]
    assert_accounting(run, c0)


def test_go_to_press_reaction_is_exact_in_ticks() -> None:
    c0 = SYNC_AT + 1
    for go_cycle, press_cycle in [(c0 + 10, c0 + 61), (c0 + 11, c0 + 61), (c0 + 10, c0 + 62), (c0 + 13, c0 + 14)]:
        go = run_logger([(go_cycle, 1)], initial_level=0, pin=GO_PIN, horizon=go_cycle + 10)
        btn = run_logger([(press_cycle, 0)], horizon=press_cycle + 10)
        [(go_level, go_tick)] = go.stamps()
        [(press_level, press_tick)] = btn.stamps()
        assert (go_level, press_level) == (1, 0)
        assert press_tick - go_tick == (press_cycle - c0) // 2 - (go_cycle - c0) // 2


def test_sync_releases_loggers_enabled_at_different_times_in_the_same_cycle() -> None:
    press = SYNC_AT + 30
    early = run_logger([(press, 0)], start_clock=0, horizon=press + 10)
    late = run_logger([(press, 0)], start_clock=SYNC_AT - 4, horizon=press + 10)
    assert early.c0 == late.c0 == SYNC_AT + 1
    assert early.stamps() == late.stamps()
    # Without the sync (pin already high), each logger counts from its own start: they differ.
    skewed = run_logger([(press, 0)], start_clock=7, sync_at=0, horizon=press + 10)
    assert skewed.stamps() != early.stamps()


def test_runs_use_only_instructions_the_emulator_knows() -> None:
    """The horizon check in run_logger would catch it; this names the reason if it ever fails."""
    run = run_logger([(SYNC_AT + 9, 0), (SYNC_AT + 50, 1)], horizon=300)
    assert run.final_clock >= 300


@pytest.fixture(autouse=True)
def _no_rp2_left_behind() -> Iterator[None]:
    yield
    assert "rp2" not in sys.modules or sys.modules["rp2"].__name__ == "rp2"
