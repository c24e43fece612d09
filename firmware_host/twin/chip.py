"""The RP2040's PIO state machines for the firmware twin, run in rp2040-pio-emulator.

Every state machine runs the firmware's own assembled program (``pioemu.emulate``, one emulator
``State`` each) on the shared pin timeline of a :class:`~firmware_host.twin.table.Table`, and
sees each GPIO through the RP2040's two-flip-flop input synchroniser: in cycle ``c`` it reads
the level of cycle ``c - 2`` (``jmp pin`` and ``wait gpio`` alike), so a ``wait 1 gpio SYNC``
releases every machine of both blocks in the same cycle.

Races last hundreds of millions of cycles, so the chip accelerates loops exactly: while a
machine executes only ``jmp``/``wait``/``nop`` (or stalls on ``pull block``), it watches for a
program counter that comes back; the steps in between are one period of a loop whose only
effects are a constant number of X and Y decrements. The loop repeats identically for as many
periods as every condition in it keeps its outcome: X or Y read by ``jmp x--``/``!x``/``y--``/
``!y`` staying above zero, and each pin it reads keeping its level as seen through the
synchroniser. The machine's ``State`` jumps over those whole periods (clock, X, Y), then the
emulator takes over again cycle by cycle. Nothing in it knows the edge logger's addresses.

Each machine is simulated ahead of the caller up to its next push (or ``LOOKAHEAD_CYCLES``),
which gives :meth:`Chip.advance` an exact ``quiet_until``. When the table changes at a cycle a
machine has already read past (an output the firmware drives, a press that output scripts), the
machine goes back to the state after its last reported push, which read nothing that changed,
and runs again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from pioemu import State, emulate  # type: ignore[import-untyped]

from firmware_host.errors import AdapterError
from firmware_host.twin.pioasm import Program, edge_logger
from firmware_host.twin.table import GPIO_COUNT, Table

SYNC_STAGES = 2  # input synchroniser: a level is seen two cycles after it is on the pad
STATE_MACHINES = 8  # two PIO blocks of four
LOOKAHEAD_CYCLES = 1 << 33  # how far a machine runs ahead looking for its next push (~68.7 s)
NEVER = 1 << 62  # quiet_until when no state machine runs
MIN_JUMP_CYCLES = 16  # shorter jumps cost more than emulating
AHEAD_STEPS = 20_000  # past the caller's cycle, give up looking ahead after this many instructions
MASK32 = 0xFFFF_FFFF
Push = tuple[int, int, int]  # (cycle, state machine, word)

# What an instruction does, as far as loop acceleration is concerned.
_OTHER, _JMP, _WAIT, _NOP, _PULL = range(5)
_JMP_PIN = -1  # the instruction reads the machine's jmp_pin


class ChipError(AdapterError, ValueError):
    """A call the chip model cannot honour: out of time order, or a bad machine, pin or value."""


@dataclass(frozen=True, slots=True)
class _Op:
    """One opcode, classified: kind, the X/Y it reads and decrements, the pin it reads."""

    kind: int
    reads_x: bool = False
    reads_y: bool = False
    dec_x: bool = False
    dec_y: bool = False
    pin: int | None = None


def _classify(opcode: int) -> _Op:
    major = opcode >> 13
    if major == 0:  # jmp: conditions always, !x, x--, !y, y--, x!=y, pin, !osre
        cond = (opcode >> 5) & 7
        if cond in (5, 7):
            return _Op(_OTHER)
        return _Op(_JMP, reads_x=cond in (1, 2), reads_y=cond in (3, 4), dec_x=cond == 2,
                   dec_y=cond == 4, pin=_JMP_PIN if cond == 6 else None)
    if major == 1:  # wait: the emulator reads GPIO ``index`` for the gpio and pin sources
        source = (opcode >> 5) & 3
        return _Op(_WAIT, pin=opcode & 31) if source in (0, 1) else _Op(_OTHER)
    if major == 4 and opcode & 0x80 and opcode & 0x20:  # pull block (not ifempty)
        return _Op(_OTHER if opcode & 0x40 else _PULL)
    if major == 5 and (opcode >> 5) & 7 in (1, 2) and (opcode >> 5) & 7 == opcode & 7 and not opcode & 0x18:
        return _Op(_NOP)  # mov x, x / mov y, y
    return _Op(_OTHER)


def _reads_all_pins(opcode: int) -> bool:
    """``in pins`` or ``mov <dest>, pins``: the whole input register."""
    return (opcode >> 13 == 2 and (opcode >> 5) & 7 == 0) or (opcode >> 13 == 5 and opcode & 7 == 0)


class _Machine:
    """One state machine: its emulator state (possibly ahead of the caller), the state after its
    last reported push (where it goes back to when the table changes), and a found push that is
    not reported yet."""

    __slots__ = ("index", "pin", "state", "seg_start", "pending", "read_pins", "op_pins", "source")

    def __init__(self, index: int, pin: int, state: State, read_pins: frozenset[int],
                 op_pins: tuple[int | None, ...], source: Callable[[State], int]) -> None:
        self.index = index
        self.pin = pin
        self.state = state
        self.seg_start = state
        self.pending: tuple[int, int] | None = None
        self.read_pins = read_pins
        self.op_pins = op_pins
        self.source = source


class Chip:
    """The RP2040's state machines, fed by ``table``; all run ``sync_pin``'s edge logger unless
    another assembled ``program`` is given. ``accelerate=False`` emulates every cycle (for
    checking the acceleration; far too slow for races).

    The default board (hw_rp2.py's map): ``Chip(Table.for_board(), sync_pin=22)``; state machine
    i watches ``(2, 3, 4, 5, 6, 7, 8, 9)[i]`` (7 is GO's). The firmware's ``stop_loggers`` and
    ``start_loggers`` become ``set_output(22, 0, c)``, ``sm_stop`` of each, ``sm_start(i, pin,
    loop, c_i)`` of each, ``set_output(22, 1, c)`` (again on a re-armed try); ``go()`` becomes ``set_output(9, 1, c)``. Every call's cycle
    must be at least the previous call's."""

    def __init__(self, table: Table, *, sync_pin: int, program: Program | None = None,
                 accelerate: bool = True) -> None:
        if not 0 <= sync_pin < GPIO_COUNT:
            raise ChipError(f"sync pin {sync_pin!r} is not a GPIO: use 0 to {GPIO_COUNT - 1}")
        self._table = table
        self._program = program if program is not None else edge_logger(sync_pin)
        self._opcodes = list(self._program.opcodes)
        self._ops = tuple(_classify(op) for op in self._opcodes)
        self._reads_all = any(_reads_all_pins(op) for op in self._opcodes)
        self._accelerate = accelerate
        self._machines: list[_Machine | None] = [None] * STATE_MACHINES
        self._now = 0  # cycle of the latest call
        self._mark = table.edit_count  # table edits already taken into account
        self._buffer: list[Push] = []  # pushes of stopped machines, not reported yet
        self._stopped_xy = [(0, 0)] * STATE_MACHINES  # X and Y a stopped machine keeps
        self.emulated_steps = 0  # instructions run in the emulator (for the benches)

    # -- the API the twin's fake state machines call --------------------------------------------

    def sm_start(self, sm: int, pin: int, lockout_loop: int, cycle: int) -> None:
        """``sm.restart(); sm.put(lockout_loop); sm.active(1)`` at ``cycle``: machine ``sm`` runs
        the program from its first instruction from ``cycle`` on, watching ``pin`` (its jmp_pin
        and in_base), with ``lockout_loop`` in its TX FIFO. X and Y keep their values (a restart
        does not clear them). A running machine is stopped after ``cycle`` - 1's instruction."""
        self._check_sm(sm)
        if not 0 <= pin < GPIO_COUNT:
            raise ChipError(f"pin {pin!r} for state machine {sm} is not a GPIO: use 0 to {GPIO_COUNT - 1}")
        if not 0 <= lockout_loop <= MASK32:
            raise ChipError(f"lockout loop count {lockout_loop!r} does not fit a 32-bit FIFO word")
        self._at(cycle, "sm_start")
        old = self._machines[sm]
        if old is not None:
            self._stop(old, cycle - 1)
        x, y = self._stopped_xy[sm]
        state = State(clock=cycle, transmit_fifo=deque([lockout_loop]), x_register=x, y_register=y)
        op_pins = tuple(pin if op.pin == _JMP_PIN else op.pin for op in self._ops)
        read_pins = frozenset(range(GPIO_COUNT)) if self._reads_all else frozenset(p for p in op_pins if p is not None)
        self._machines[sm] = _Machine(sm, pin, state, read_pins, op_pins, self._input_source(read_pins))

    def sm_stop(self, sm: int, cycle: int) -> None:
        """``sm.active(0)`` at ``cycle``: machine ``sm`` executes its instruction of ``cycle``
        (as :meth:`advance` up to ``cycle`` would) and none after. Stopping a stopped machine
        does nothing."""
        self._check_sm(sm)
        self._at(cycle, "sm_stop")
        machine = self._machines[sm]
        if machine is not None:
            self._stop(machine, cycle)

    def set_output(self, pin: int, level: int, cycle: int) -> None:
        """The firmware drove output ``pin`` to ``level`` at ``cycle`` (SYNC, GO, an LED): the
        table records it and fires what waits on it; machines watching it see it at ``cycle`` + 2."""
        self._at(cycle, "set_output")
        self._table.on_output(pin, level, cycle)
        self._take_edits()

    def advance(self, until_cycle: int) -> tuple[list[Push], int]:
        """Every word pushed in (the previous ``until_cycle``, ``until_cycle``] as (cycle, state
        machine, word) sorted by cycle then machine, and the cycle before which no machine will
        push as the table stands now (``NEVER`` when none runs)."""
        self._at(until_cycle, "advance")
        pushes, self._buffer = self._buffer, []
        horizon = until_cycle + LOOKAHEAD_CYCLES if self._accelerate else until_cycle
        quiet = NEVER
        for machine in self._machines:
            if machine is None:
                continue
            self._collect(machine, until_cycle, horizon, pushes)
            quiet = min(quiet, machine.pending[0] if machine.pending else machine.state.clock)
        pushes.sort(key=lambda p: (p[0], p[1]))
        return pushes, quiet

    def level(self, pin: int, cycle: int) -> int:
        """What reading ``pin`` (``Pin.value()``) at ``cycle`` returns: the level of ``cycle`` - 2,
        through the same synchroniser."""
        if not 0 <= pin < GPIO_COUNT:
            raise ChipError(f"pin {pin!r} is not a GPIO: use 0 to {GPIO_COUNT - 1}")
        self._at(cycle, "level")
        return self._table.level_at(pin, cycle - SYNC_STAGES)

    # -- time order and table edits -------------------------------------------------------------

    def _at(self, cycle: int, what: str) -> None:
        if cycle < self._now:
            raise ChipError(f"{what} at cycle {cycle!r} is earlier than the previous call's cycle "
                            f"{self._now}: calls must come in time order")
        self._take_edits()
        self._now = cycle

    def _check_sm(self, sm: int) -> None:
        if not 0 <= sm < STATE_MACHINES:
            raise ChipError(f"state machine {sm!r} does not exist: use 0 to {STATE_MACHINES - 1}")

    def _take_edits(self) -> None:
        """Send back every machine that has read a level the table changed since the last look."""
        edits = self._table.edits_since(self._mark)
        if not edits:
            return
        self._mark += len(edits)
        for pin, cycle in edits:
            if cycle < self._now:
                raise ChipError(f"an edge on GPIO {pin} at cycle {cycle} was scheduled after the chip "
                                f"reached cycle {self._now}: schedule edges at or after the current cycle")
            for machine in self._machines:
                if machine is not None and pin in machine.read_pins \
                        and machine.state.clock - 1 >= cycle + SYNC_STAGES:
                    machine.state = machine.seg_start
                    machine.pending = None

    # -- running --------------------------------------------------------------------------------

    def _stop(self, machine: _Machine, last_cycle: int) -> None:
        """Run ``machine`` exactly through ``last_cycle``, keeping its pushes for the next advance."""
        if (machine.pending[0] if machine.pending else machine.state.clock - 1) > last_cycle:
            machine.state = machine.seg_start
            machine.pending = None
        self._collect(machine, last_cycle, last_cycle, self._buffer)
        self._stopped_xy[machine.index] = (machine.state.x_register, machine.state.y_register)
        self._machines[machine.index] = None

    def _collect(self, machine: _Machine, until: int, horizon: int, out: list[Push]) -> None:
        """Append ``machine``'s pushes up to ``until`` to ``out``; leave it with its next push
        found, or run to ``horizon`` (>= ``until``) without one."""
        while True:
            if machine.pending is not None:
                cycle, word = machine.pending
                if cycle > until:
                    return
                out.append((cycle, machine.index, word))
                machine.pending = None
                machine.seg_start = machine.state
            elif machine.state.clock > until:
                return
            else:
                machine.pending = self._run(machine, horizon, until)
                if machine.pending is None:
                    return

    def _input_source(self, pins: frozenset[int]) -> Callable[[State], int]:
        level_at = self._table.level_at
        order = tuple(sorted(pins))

        def source(state: State) -> int:
            seen = state.clock - SYNC_STAGES
            value = 0
            for pin in order:
                if level_at(pin, seen):
                    value |= 1 << pin
            return value

        source.__annotations__["state"] = State  # pioemu dispatches on the annotation's class
        return source

    def _run(self, machine: _Machine, limit: int, needed: int) -> tuple[int, int] | None:
        """Execute ``machine``'s instructions of cycles up to ``limit``, stopping after the first
        push: returns (cycle, word) of that push, or None. Past cycle ``needed`` it may stop
        early, after ``AHEAD_STEPS`` instructions (a program whose loops cannot be accelerated)."""
        steps = self.emulated_steps
        while machine.state.clock <= limit:
            if machine.state.clock > needed and self.emulated_steps - steps > AHEAD_STEPS:
                return None
            push = self._emulate(machine, limit, needed)
            if push is not None:
                return push
        return None

    def _emulate(self, machine: _Machine, limit: int, needed: int) -> tuple[int, int] | None:
        """One emulator run from ``machine.state``: until a push (returned), a loop jump,
        ``limit``, or ``AHEAD_STEPS`` instructions past cycle ``needed``."""
        program = self._program
        ops = self._ops
        accelerate = self._accelerate
        seen: dict[int, int] = {}  # pc -> index of its latest step in the loop-only run below
        pcs: list[int] = []
        clocks: list[int] = []
        xs: list[int] = []
        ys: list[int] = []
        last = machine.state
        steps = 0

        def stop_when(_opcode: int, s: State) -> bool:
            return bool(s.clock > limit or (steps > AHEAD_STEPS and s.clock > needed))

        for before, after in emulate(
            self._opcodes,
            stop_when=stop_when,
            initial_state=machine.state,
            input_source=machine.source,
            jmp_pin=machine.pin,
            shift_isr_right=program.in_shift_right,
            wrap_target=program.wrap_target,
            wrap_top=program.wrap_top,
        ):
            steps += 1
            last = after
            if after.receive_fifo:
                self.emulated_steps += steps
                machine.state = after
                return before.clock, after.receive_fifo.popleft()
            if not accelerate:
                continue
            pc = before.program_counter
            op = ops[pc]
            if not (op.kind in (_JMP, _WAIT, _NOP)
                    or (op.kind == _PULL and after.program_counter == pc and not before.transmit_fifo)):
                seen.clear()
                pcs.clear()
                clocks.clear()
                xs.clear()
                ys.clear()
                continue
            start = seen.get(pc)
            if start is not None:
                jumped = self._jump(machine, before, start, pcs, clocks, xs, ys, limit)
                if jumped is not None:
                    self.emulated_steps += steps
                    machine.state = jumped
                    return None
            seen[pc] = len(pcs)
            pcs.append(pc)
            clocks.append(before.clock)
            xs.append(before.x_register)
            ys.append(before.y_register)
        self.emulated_steps += steps
        machine.state = last
        if last.clock <= limit and not (steps > AHEAD_STEPS and last.clock > needed):
            pc = last.program_counter
            raise ChipError(f"the emulator stopped at cycle {last.clock} on pc {pc} (opcode "
                            f"{self._opcodes[pc]:#06x}), before cycle {limit}: it does not run that instruction")
        return None

    def _jump(self, machine: _Machine, now: State, start: int, pcs: list[int], clocks: list[int],
              xs: list[int], ys: list[int], limit: int) -> State | None:
        """The state ``n`` whole periods after step ``start`` (steps ``start``.. are one period of
        a loop and ``now`` begins the next), for the largest ``n`` in which every condition keeps
        its outcome and no cycle past ``limit`` runs; None if that gains too little."""
        t0 = clocks[start]
        period = now.clock - t0
        n = (limit + 1 - t0) // period
        if (n - 1) * period < MIN_JUMP_CYCLES:
            return None
        ops = self._ops
        dx = dy = 0
        for j in range(start, len(pcs)):
            op = ops[pcs[j]]
            dx += op.dec_x
            dy += op.dec_y
        pins: set[int] = set()
        for j in range(start, len(pcs)):
            op = ops[pcs[j]]
            if op.reads_x and dx:  # X at this step in period k is xs[j] - k * dx
                n = 0 if xs[j] == 0 else min(n, (xs[j] - 1) // dx + 1)
            if op.reads_y and dy:
                n = 0 if ys[j] == 0 else min(n, (ys[j] - 1) // dy + 1)
            pin = machine.op_pins[pcs[j]]
            if pin is not None:
                pins.add(pin)
        for pin in pins:  # levels seen in cycles t0 .. t0 + n * period - 1 must all be the same
            change = self._table.next_change_after(pin, t0 - SYNC_STAGES)
            if change is not None:
                n = min(n, (change - t0 + SYNC_STAGES) // period)
        if (n - 1) * period < MIN_JUMP_CYCLES:
            return None
        return replace(now, clock=t0 + n * period, x_register=(xs[start] - n * dx) & MASK32,
                       y_register=(ys[start] - n * dy) & MASK32)
