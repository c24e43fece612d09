"""The twin's chip model: the firmware's edge logger on several state machines in
rp2040-pio-emulator, the 2-cycle input synchroniser, SYNC releasing every machine in one cycle,
exact loop acceleration (checked against plain cycle-by-cycle emulation), and the table's
scripts, bounce bursts and seeded players."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.board.ticks import LOCKOUT_FIXED_TICKS, word_count, word_level  # noqa: E402
from firmware_host.twin.chip import NEVER, Chip, ChipError  # noqa: E402
from firmware_host.twin.pioasm import Program, edge_logger  # noqa: E402
from firmware_host.twin.table import (  # noqa: E402
    BOUNCE_MAX_CYCLES,
    BOUNCE_MIN_CYCLES,
    Table,
    TableError,
    us_to_cycles,
)

SYNC_PIN = 22
GO_PIN = 9
BUTTONS = (2, 3, 4, 5, 6, 7, 8)
LOGGER_PINS = BUTTONS + (GO_PIN,)  # state machine i watches LOGGER_PINS[i]; 7 watches GO
PROGRAM = edge_logger(SYNC_PIN)
SET_X_FROM_ALL_ONES = 0xA02B  # mov x, ~null


def x_near_zero_program(x0: int) -> Program:
    """The edge logger with X starting at ``x0`` instead of 0xFFFFFFFF, so its count wraps
    within a few dozen cycles (``set x, x0`` in place of ``mov x, ~null``)."""
    pc = PROGRAM.opcodes.index(SET_X_FROM_ALL_ONES)
    opcodes = list(PROGRAM.opcodes)
    opcodes[pc] = 0xE020 | x0
    return replace(PROGRAM, opcodes=tuple(opcodes))


def armed_chip(table: Table, *, lockout_loop: int = 2, sync_at: int = 100, start_at: int = 10,
               pins: tuple[int, ...] = LOGGER_PINS, accelerate: bool = True,
               program: Program | None = None) -> Chip:
    """Every logger started (one per cycle from ``start_at``) and SYNC raised at ``sync_at``."""
    chip = Chip(table, sync_pin=SYNC_PIN, program=program, accelerate=accelerate)
    for sm, pin in enumerate(pins):
        chip.sm_start(sm, pin, lockout_loop, start_at + sm)
    chip.set_output(SYNC_PIN, 1, sync_at)
    return chip


def first_cycle(sync_at: int) -> int:
    """c0: SYNC is seen 2 cycles after it rises, the wait passes then, counting starts next."""
    return sync_at + 2 + 1


def tick_of(edge_cycle: int, sync_at: int) -> int:
    """The stamp of an edge: test_board_pio's floor((seen - c0) / 2) + 1, seen 2 cycles late."""
    return (edge_cycle + 2 - first_cycle(sync_at)) // 2 + 1


def words_of(pushes: list[tuple[int, int, int]], sm: int) -> list[tuple[int, int]]:
    return [(word_level(w), word_count(w)) for _, s, w in pushes if s == sm]


# -- the input synchroniser ------------------------------------------------------------------


@pytest.mark.parametrize("offset", range(2, 14))
def test_an_edge_is_seen_two_cycles_after_it_is_on_the_pin(offset: int) -> None:
    sync_at = 100
    press = first_cycle(sync_at) + offset
    table = Table.for_board()
    table.edge(2, 0, press)
    chip = armed_chip(table, sync_at=sync_at, pins=(2,))
    pushes, _ = chip.advance(press + 40)
    assert words_of(pushes, 0) == [(0, tick_of(press, sync_at))]
    [(push_cycle, _, _)] = pushes
    assert push_cycle > press + 2  # the sample that sees it comes 2 cycles after the pad changes


def test_an_edge_two_cycles_later_is_one_tick_later() -> None:
    """Without the synchroniser the first visible edge would be stamped one tick earlier."""
    sync_at = 100
    ticks = []
    for press in range(first_cycle(sync_at) + 2, first_cycle(sync_at) + 12):
        table = Table.for_board()
        table.edge(2, 0, press)
        pushes, _ = armed_chip(table, sync_at=sync_at, pins=(2,)).advance(press + 30)
        ticks.append(words_of(pushes, 0)[0][1])
    assert ticks == [tick_of(p, sync_at) for p in range(first_cycle(sync_at) + 2, first_cycle(sync_at) + 12)]
    assert [t - (p - first_cycle(sync_at)) // 2 - 1 for t, p in zip(ticks, range(first_cycle(sync_at) + 2,
            first_cycle(sync_at) + 12))] == [1] * 10


def test_pin_reads_go_through_the_synchroniser_too() -> None:
    table = Table.for_board()
    table.edge(3, 0, 500)
    chip = Chip(table, sync_pin=SYNC_PIN)
    assert [chip.level(3, c) for c in (500, 501, 502, 503)] == [1, 1, 0, 0]


def test_sync_is_seen_two_cycles_after_it_rises() -> None:
    """A press in the cycle SYNC rises is seen by the very first sample; one 2 cycles before,
    too (the logger starts low and reports only the release)."""
    sync_at = 100
    table = Table.for_board()
    table.edge(2, 0, sync_at - 1)  # seen low at the start dispatch: no press word
    table.edge(2, 1, sync_at + 40)
    table.edge(3, 0, sync_at + 1)  # seen at c0 + 1, the start dispatch's sample, also low
    table.edge(3, 1, sync_at + 40)
    pushes, _ = armed_chip(table, sync_at=sync_at, pins=(2, 3)).advance(sync_at + 100)
    assert words_of(pushes, 0) == [(1, tick_of(sync_at + 40, sync_at))]
    assert words_of(pushes, 1) == [(1, tick_of(sync_at + 40, sync_at))]


# -- SYNC releases every machine in one cycle ----------------------------------------------


def test_sync_releases_machines_started_at_different_cycles_in_the_same_cycle() -> None:
    sync_at = 500
    press = sync_at + 77
    table = Table.for_board()
    for pin in BUTTONS:
        table.edge(pin, 0, press)
    chip = Chip(table, sync_pin=SYNC_PIN)
    for sm, pin in enumerate(LOGGER_PINS):  # both blocks, hundreds of cycles apart
        chip.sm_start(sm, pin, 3, 7 + 61 * sm)
    chip.set_output(SYNC_PIN, 1, sync_at)
    chip.set_output(GO_PIN, 1, press)  # GO rises in the same cycle as the presses
    pushes, _ = chip.advance(press + 100)
    assert len(pushes) == 8
    assert {word_count(w) for _, _, w in pushes} == {tick_of(press, sync_at)}
    assert [word_level(w) for _, _, w in pushes] == [0] * 7 + [1]
    assert len({c for c, _, _ in pushes}) == 1  # and pushed in the same cycle


# -- ordering of two presses on two machines -------------------------------------------------


@pytest.mark.parametrize("k", range(0, 9))
def test_two_presses_k_cycles_apart_are_tied_ordered_never_inverted(k: int) -> None:
    sync_at = 200
    results = set()
    for phase in range(4):
        for first, second in ((0, 1), (1, 0)):
            press = first_cycle(sync_at) + 20 + phase
            table = Table.for_board()
            table.edge(BUTTONS[first], 0, press)
            table.edge(BUTTONS[second], 0, press + k)
            pushes, _ = armed_chip(table, sync_at=sync_at, pins=BUTTONS[:2]).advance(press + 60)
            [(_, t_first)] = words_of(pushes, first)
            [(_, t_second)] = words_of(pushes, second)
            results.add(t_second - t_first)
    if k == 0:
        assert results == {0}
    elif k == 1:
        assert results == {0, 1}  # tied or ordered, by phase
    else:
        assert min(results) >= 1
        assert results == {k // 2, (k + 1) // 2}


# -- acceleration is exact -------------------------------------------------------------------


def _run(table_edges: list[tuple[int, int, int]], go_script: list[tuple[int, int, int]], *,
         sync_at: int, go_at: int, lockout_loop: int, x0: int | None, steps: list[int],
         restart: tuple[int, int] | None, accelerate: bool) -> list[tuple[int, int, int]]:
    table = Table.for_board()
    for pin, level, cycle in table_edges:
        table.edge(pin, level, cycle)
    for pin, level, offset in go_script:
        table.after_go(pin, level, offset)
    program = None if x0 is None else x_near_zero_program(x0)
    chip = Chip(table, sync_pin=SYNC_PIN, program=program, accelerate=accelerate)
    pins = (2, 3, 4, GO_PIN)
    for sm, pin in enumerate(pins):
        chip.sm_start(sm, pin, lockout_loop, 3 + sm)
    pushes: list[tuple[int, int, int]] = []
    events = [(sync_at, "sync"), (go_at, "go")] + [(c, "advance") for c in steps]
    if restart is not None:
        events.append((restart[0], "stop"))
        events.append((restart[0] + restart[1], "start"))
    for cycle, what in sorted(events, key=lambda e: e[0]):
        if what == "sync":
            chip.set_output(SYNC_PIN, 1, cycle)
        elif what == "go":
            chip.set_output(GO_PIN, 1, cycle)
        elif what == "stop":
            chip.sm_stop(1, cycle)
        elif what == "start":
            chip.sm_start(1, pins[1], lockout_loop, cycle)
        else:
            out, quiet = chip.advance(cycle)
            assert quiet > cycle
            pushes += out
    out, _ = chip.advance(max(cycle for cycle, _ in events) + 1)
    return pushes + out


schedules = st.fixed_dictionaries({
    "table_edges": st.lists(st.tuples(st.sampled_from([2, 3, 4]), st.integers(0, 1), st.integers(0, 700)),
                            max_size=14),
    "go_script": st.lists(st.tuples(st.sampled_from([2, 3, 4]), st.integers(0, 1), st.integers(0, 200)),
                          max_size=4),
    "sync_at": st.integers(10, 120),
    "go_at": st.integers(121, 500),
    "lockout_loop": st.integers(0, 4),
    "x0": st.one_of(st.none(), st.integers(0, 31)),
    "steps": st.lists(st.integers(130, 900), min_size=1, max_size=6),
    "restart": st.one_of(st.none(), st.tuples(st.integers(200, 600), st.integers(0, 40))),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules)
def test_accelerated_runs_push_exactly_what_plain_emulation_pushes(case: dict[str, object]) -> None:
    plain = _run(**case, accelerate=False)  # type: ignore[arg-type]
    fast = _run(**case, accelerate=True)  # type: ignore[arg-type]
    assert fast == plain


@pytest.mark.parametrize("seed", range(6))
def test_long_holds_across_the_counter_wrap_match_plain_emulation(seed: int) -> None:
    """X starts a few ticks above zero and the button is held and released several times across
    the wrap, with long waits the acceleration jumps over."""
    rng = random.Random(seed)
    edges = [(2, 0, 50)]  # stamped before the wrap
    cycle = 150
    for i in range(8):
        cycle += rng.choice([3, 9, 30, 200, 700])
        edges.append((2 + i % 2, i // 2 % 2 ^ 1, cycle))
    case = dict(table_edges=edges, go_script=[(4, 0, 17)], sync_at=40, go_at=300, lockout_loop=1,
                x0=rng.randrange(8, 30), steps=[3000], restart=None)
    plain = _run(**case, accelerate=False)  # type: ignore[arg-type]
    fast = _run(**case, accelerate=True)  # type: ignore[arg-type]
    assert fast == plain
    counts = [word_count(w) for _, _, w in plain]
    assert any(c > 2**31 - 100 for c in counts) and any(c < 10_000 for c in counts)  # both sides of the wrap


def test_the_counter_wraps_modulo_2_to_the_31_in_the_words() -> None:
    sync_at = 100
    x0 = 5  # X: 5 at c0 - 1, so the tick count wraps from 2**31 - 1 back to 0 after 6 ticks... in 2**32
    table = Table.for_board()
    press = first_cycle(sync_at) + 40
    table.edge(2, 0, press)
    pushes, _ = armed_chip(table, sync_at=sync_at, pins=(2,), program=x_near_zero_program(x0)).advance(press + 40)
    [(level, count)] = words_of(pushes, 0)
    # X = x0 - ticks (mod 2**32); the word carries the low 31 bits of X
    assert level == 0
    assert count == (2**31 - 1 - ((x0 - tick_of(press, sync_at)) & 0x7FFF_FFFF))


def test_a_long_race_takes_few_emulated_steps_and_quiet_until_is_the_next_push() -> None:
    """Half a second (62.5 million cycles) of eight loggers costs a few hundred instructions."""
    table = Table.for_board()
    rng = random.Random(7)
    for pin in BUTTONS:
        table.add_player(pin, random.Random(rng.random()))
    lockout = us_to_cycles(25_000) // 2 - LOCKOUT_FIXED_TICKS
    chip = armed_chip(table, lockout_loop=lockout, sync_at=1_000)
    go = us_to_cycles(100_000)
    pushes, quiet = chip.advance(go - 1)
    assert pushes == [] and quiet > go + us_to_cycles(10_000_000)  # nothing happens before GO
    chip.set_output(GO_PIN, 1, go)
    seen: list[tuple[int, int, int]] = []
    cycle = go
    while cycle < us_to_cycles(800_000):
        out, quiet = chip.advance(cycle)
        seen += out
        assert all(c == cycle for c, _, _ in out)  # the push came exactly at the promised cycle
        nxt, _ = chip.advance(quiet - 1)
        assert nxt == []  # nothing before quiet_until
        cycle = quiet
    assert len(words_of(seen, 7)) == 1  # GO
    assert all(len(words_of(seen, sm)) == 2 for sm in range(7))  # one press, one release each
    assert chip.emulated_steps < 3_000


# -- scripts on outputs --------------------------------------------------------------------


def test_go_scripts_press_relative_to_the_go_rise_exactly() -> None:
    sync_at = 100
    table = Table.for_board()
    table.after_go(2, 0, 1_000)
    table.after_go(3, 0, 1_001)
    table.after_go(2, 1, 5_000)
    chip = armed_chip(table, sync_at=sync_at, lockout_loop=10)
    pushes, _ = chip.advance(1_000)
    assert pushes == []  # no GO yet: the scripts wait
    go = 1_234
    chip.set_output(GO_PIN, 1, go)
    pushes, _ = chip.advance(go + 10_000)
    assert words_of(pushes, 7) == [(1, tick_of(go, sync_at))]
    assert words_of(pushes, 0) == [(0, tick_of(go + 1_000, sync_at)), (1, tick_of(go + 5_000, sync_at))]
    assert words_of(pushes, 1) == [(0, tick_of(go + 1_001, sync_at))]
    # one-shot: the next GO rise presses nothing
    chip.set_output(GO_PIN, 0, go + 20_000)
    chip.set_output(GO_PIN, 1, go + 30_000)
    pushes, _ = chip.advance(go + 40_000)
    assert [sm for _, sm, _ in pushes] == [7, 7]


def test_sync_scripts_fire_at_arming_and_a_button_held_through_it_reports_its_release() -> None:
    sync_at = 300
    table = Table.for_board()
    table.edge(4, 0, 50)  # held before arming
    table.after_sync(4, 1, 700)
    chip = armed_chip(table, sync_at=sync_at, pins=(4,))
    pushes, _ = chip.advance(2_000)
    assert words_of(pushes, 0) == [(1, tick_of(sync_at + 700, sync_at))]


def test_an_output_that_was_already_high_does_not_fire_scripts_again() -> None:
    table = Table.for_board()
    table.after_go(2, 0, 10)
    table.on_output(GO_PIN, 1, 100)
    table.after_go(3, 0, 10)
    table.on_output(GO_PIN, 1, 200)  # still high: no rise
    assert [(e.pin, e.cycle) for e in table.records if e.pin != GO_PIN] == [(2, 110)]


# -- stop, restart, time order ------------------------------------------------------------


def test_a_stopped_machine_reports_its_earlier_pushes_and_nothing_after() -> None:
    sync_at = 100
    table = Table.for_board()
    table.edge(2, 0, 200)
    table.edge(2, 1, 400)
    chip = armed_chip(table, sync_at=sync_at, pins=(2,))
    chip.sm_stop(0, 300)
    pushes, quiet = chip.advance(1_000)
    assert words_of(pushes, 0) == [(0, tick_of(200, sync_at))]
    assert quiet == NEVER
    chip.sm_start(0, 2, 2, 1_100)  # restarted: waits for SYNC, which is still high
    pushes, _ = chip.advance(1_200)
    assert pushes == []


def test_quiet_until_is_exact_and_later_outputs_are_honoured() -> None:
    sync_at = 100
    table = Table.for_board()
    table.edge(2, 0, 5_000)
    chip = armed_chip(table, sync_at=sync_at, pins=(2, GO_PIN))
    pushes, quiet = chip.advance(1_000)
    assert pushes == []
    later, _ = chip.advance(quiet)
    assert [c for c, _, _ in later] == [quiet]
    # the firmware raises GO after the chip had looked far ahead: the GO logger is sent back
    chip.set_output(GO_PIN, 1, 6_000)
    pushes, _ = chip.advance(7_000)
    assert words_of(pushes, 1) == [(1, tick_of(6_000, sync_at))]


def test_calls_out_of_time_order_are_refused() -> None:
    chip = armed_chip(Table.for_board(), sync_at=100)
    chip.advance(500)
    with pytest.raises(ChipError, match=r"advance at cycle 499 is earlier than the previous call's cycle 500"):
        chip.advance(499)
    with pytest.raises(ValueError, match=r"set_output at cycle 10 is earlier than the previous call's cycle 500"):
        chip.set_output(GO_PIN, 1, 10)
    with pytest.raises(ChipError, match=r"sm_start at cycle 3 is earlier"):
        chip.sm_start(0, 2, 1, 3)
    with pytest.raises(ChipError, match=r"sm_stop at cycle 3 is earlier"):
        chip.sm_stop(0, 3)
    with pytest.raises(ChipError, match=r"level at cycle 3 is earlier"):
        chip.level(2, 3)


def test_an_edge_scheduled_in_the_chips_past_is_refused() -> None:
    table = Table.for_board()
    chip = armed_chip(table, sync_at=100)
    chip.advance(500)
    table.edge(2, 0, 400)
    with pytest.raises(ChipError, match=r"an edge on GPIO 2 at cycle 400 was scheduled after the chip reached cycle 500"):
        chip.advance(600)


def test_bad_machines_pins_and_values_are_refused() -> None:
    chip = Chip(Table.for_board(), sync_pin=SYNC_PIN)
    with pytest.raises(ChipError, match=r"state machine 8 does not exist: use 0 to 7"):
        chip.sm_start(8, 2, 1, 0)
    with pytest.raises(ChipError, match=r"state machine -1 does not exist"):
        chip.sm_stop(-1, 0)
    with pytest.raises(ChipError, match=r"pin 30 for state machine 0 is not a GPIO"):
        chip.sm_start(0, 30, 1, 0)
    with pytest.raises(ChipError, match=r"lockout loop count 4294967296 does not fit"):
        chip.sm_start(0, 2, 2**32, 0)
    with pytest.raises(ChipError, match=r"pin 31 is not a GPIO"):
        chip.level(31, 0)
    with pytest.raises(ChipError, match=r"sync pin 40 is not a GPIO"):
        Chip(Table.for_board(), sync_pin=40)


def test_an_instruction_the_emulator_cannot_run_is_an_error_not_a_silent_stop() -> None:
    irq = replace(PROGRAM, opcodes=(0xC000,) + PROGRAM.opcodes[1:])  # irq 0 first
    chip = Chip(Table.for_board(), sync_pin=SYNC_PIN, program=irq)
    chip.sm_start(0, 2, 1, 0)
    with pytest.raises(ChipError, match=r"the emulator stopped at cycle 0 on pc 0 \(opcode 0xc000\)"):
        chip.advance(100)


# -- the table: bounce, players, errors --------------------------------------------------


def test_bounce_bursts_settle_at_their_level_within_the_documented_time_and_repeat_per_seed() -> None:
    for seed in range(200):
        table = Table.for_board()
        edges = table.bounce(2, 0, 1_000, random.Random(seed))
        again = Table.for_board().bounce(2, 0, 1_000, random.Random(seed))
        assert edges == again
        assert edges[0].cycle == 1_000 and edges[0].level == 0 and edges[-1].level == 0
        assert BOUNCE_MIN_CYCLES <= edges[-1].cycle - 1_000 <= BOUNCE_MAX_CYCLES
        assert len(edges) % 2 == 1 and 3 <= len(edges) <= 9
        assert [e.level for e in edges] == [0] + [1, 0] * (len(edges) // 2)
        assert [e.cycle for e in edges] == sorted({e.cycle for e in edges})
        assert table.level_at(2, 999) == 1 and table.level_at(2, edges[-1].cycle) == 0


def test_a_bounce_burst_inside_the_lockout_gives_one_word_at_the_first_touch() -> None:
    sync_at = 100
    lockout = us_to_cycles(25_000) // 2 - LOCKOUT_FIXED_TICKS  # the firmware's default 25 ms
    table = Table.for_board()
    press = 10_000
    burst = table.bounce(2, 0, press, random.Random(3))
    table.bounce(2, 1, press + us_to_cycles(100_000), random.Random(4))
    pushes, _ = armed_chip(table, sync_at=sync_at, pins=(2,), lockout_loop=lockout).advance(us_to_cycles(200_000))
    assert len(burst) > 1
    assert words_of(pushes, 0) == [(0, tick_of(press, sync_at)), (1, tick_of(press + us_to_cycles(100_000), sync_at))]


def test_players_are_deterministic_for_a_seed_and_react_after_each_go() -> None:
    def records(seed: int) -> list[tuple[int, int, int, str]]:
        table = Table.for_board()
        for pin in BUTTONS:
            table.add_player(pin, random.Random(seed * 100 + pin))
        for go in (us_to_cycles(1_000_000), us_to_cycles(3_000_000)):
            table.on_output(GO_PIN, 1, go)
            table.on_output(GO_PIN, 0, go + us_to_cycles(10_000))
        return [(e.pin, e.level, e.cycle, e.cause) for e in table.records]

    a = records(1)
    assert a == records(1)
    assert a != records(2)
    presses = [e for e in a if e[0] != GO_PIN and e[3].startswith("player")]
    assert len({e[0] for e in presses}) == len(BUTTONS)
    for pin, level, cycle, _ in presses:
        if level == 0:
            since = cycle - max(g for g in (us_to_cycles(1_000_000), us_to_cycles(3_000_000)) if g <= cycle)
            assert since >= 0


def test_table_errors_name_the_bad_value() -> None:
    table = Table.for_board()
    with pytest.raises(TableError, match=r"GPIO 30 does not exist: the RP2040 has GPIO 0 to 29"):
        table.edge(30, 0, 0)
    with pytest.raises(TableError, match=r"level 2 is not a logic level"):
        table.edge(2, 2, 0)
    with pytest.raises(ValueError, match=r"cycle -1 for GPIO 2 is before power-up"):
        table.edge(2, 0, -1)
    with pytest.raises(TableError, match=r"offset -5 cycles would schedule an edge before the rise of GPIO 9"):
        table.after_go(2, 0, -5)
    with pytest.raises(TableError, match=r"max_toggles 0 allows no bounce"):
        table.bounce(2, 0, 0, random.Random(0), max_toggles=0)
    with pytest.raises(TableError, match=r"bounce lengths \(10, 5, 20\) are not ordered"):
        table.bounce(2, 0, 0, random.Random(0), min_cycles=10, mean_cycles=5, max_cycles=20)
    with pytest.raises(TableError, match=r"reaction_cycles \(5, 1\) is not a range of cycles"):
        table.add_player(2, random.Random(0), reaction_cycles=(5, 1))
    with pytest.raises(TableError, match=r"hold_cycles \(100, 200\) is shorter than a bounce burst can last"):
        table.add_player(2, random.Random(0), hold_cycles=(100, 200))


def test_edges_out_of_order_and_in_the_same_cycle_give_the_right_levels() -> None:
    table = Table({5: 1})
    table.edge(5, 0, 100)
    table.edge(5, 1, 50)  # before the first: 1 -> 1 is no change
    table.edge(5, 0, 30)
    table.edge(5, 1, 100)  # same cycle as the first: the later one wins
    assert [table.level_at(5, c) for c in (0, 29, 30, 49, 50, 100, 200)] == [1, 1, 0, 0, 1, 1, 1]
    assert table.next_change_after(5, 0) == 30
    assert table.next_change_after(5, 30) == 50
    assert table.next_change_after(5, 50) is None
    assert table.level_at(17, 10) == 0  # unscheduled pins read low (pad pull-down)


def test_a_loop_that_cannot_be_accelerated_does_not_make_the_chip_look_ahead_forever() -> None:
    busy = replace(PROGRAM, opcodes=(0xE021, 0x0000), wrap_target=0, wrap_top=1)  # set x, 1; jmp 0
    chip = Chip(Table.for_board(), sync_pin=SYNC_PIN, program=busy)
    chip.sm_start(0, 2, 1, 0)
    pushes, quiet = chip.advance(100)
    assert pushes == [] and 100 < quiet < NEVER
    assert chip.emulated_steps < 30_000


def test_each_arming_restarts_the_count_as_the_firmware_does_it() -> None:
    """stop_loggers + start_loggers: SYNC low, every logger stopped, restarted, SYNC high; then GO. Each
    arming's GO word counts from that arming's SYNC."""
    table = Table.for_board()
    table.add_player(2, random.Random(1))
    chip = Chip(table, sync_pin=SYNC_PIN)
    cycle = 1_000
    for race in range(3):
        chip.set_output(SYNC_PIN, 0, cycle)
        for sm in range(len(LOGGER_PINS)):
            chip.sm_stop(sm, cycle + 10 + sm)
        chip.advance(cycle + 100)
        for sm, pin in enumerate(LOGGER_PINS):
            chip.sm_start(sm, pin, us_to_cycles(25_000) // 2 - LOCKOUT_FIXED_TICKS, cycle + 200 + 10 * sm)
        sync_at = cycle + 400
        chip.set_output(SYNC_PIN, 1, sync_at)
        go = sync_at + us_to_cycles(1_000_000 + 7 * race)
        pushes, _ = chip.advance(go)
        assert pushes == []
        chip.set_output(GO_PIN, 1, go)
        pushes, _ = chip.advance(go + us_to_cycles(700_000))
        assert words_of(pushes, 7) == [(1, tick_of(go, sync_at))]
        assert [level for level, _ in words_of(pushes, 0)] == [0, 1]  # the player's press and release
        chip.set_output(GO_PIN, 0, go + us_to_cycles(700_000))
        cycle = go + us_to_cycles(800_000)
