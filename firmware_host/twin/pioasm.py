"""A CPython ``rp2`` module that assembles MicroPython's ``@rp2.asm_pio`` programs.

Written from the RP2040 datasheet's instruction encodings (section 3.4) and MicroPython's
documented PIO DSL, so the firmware's own ``pio_programs.py`` can be assembled on a PC and run
in rp2040-pio-emulator (the firmware twin's chip model, tests/firmware_host/test_board_pio.py
and the benches). Like MicroPython, ``asm_pio`` swaps the program function's module globals for
the instruction names while it runs the function twice (labels, then code), and returns
``[opcodes, -1, -1, execctrl, shiftctrl, out_init, set_init, sideset_init]``.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class PIOASMError(Exception):
    """An instruction the assembler cannot encode."""


class PIO:
    """The constants of ``rp2.PIO`` that programs and the decorator use."""

    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3


# Operand names of the DSL (source/destination/condition codes from the datasheet).
DSL_NAMES: dict[str, Any] = {
    "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
    "isr": 6, "osr": 7, "exec": 8,
    "invert": lambda v: v | 0x08, "reverse": lambda v: v | 0x10,
    "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7,
    "noblock": 0x01, "block": 0x21, "iffull": 0x40, "ifempty": 0x40, "clear": 0x40,
    "rel": lambda v: v | 0x10,
}


@dataclass
class _Emitter:
    execctrl: int
    shiftctrl: int
    sideset_count: int
    pass_: int = 0
    count: int = 0
    sideset_used: int = 0
    wrap_used: bool = False
    sideset_opt: bool = False
    delay_max: int = 31

    def __post_init__(self) -> None:
        self.labels: dict[str, int] = {}
        self.code: list[int] = []

    def start_pass(self, pass_: int) -> None:
        if pass_ == 1:
            if not self.wrap_used and self.count:
                self.wrap()
            if self.sideset_count:
                self.sideset_opt = self.sideset_used != self.count
                if self.sideset_opt:
                    self.execctrl |= 1 << 30
                    self.sideset_count += 1
                self.delay_max >>= self.sideset_count
        self.pass_ = pass_
        self.count = 0
        self.sideset_used = 0

    # chained modifiers: instr[3], instr.side(1), instr.delay(2)
    def __getitem__(self, delay: int) -> _Emitter:
        return self.delay(delay)

    def delay(self, delay: int) -> _Emitter:
        if self.pass_:
            if not 0 <= delay <= self.delay_max:
                raise PIOASMError(f"delay {delay} is over {self.delay_max}")
            self.code[-1] |= delay << 8
        return self

    def side(self, value: int) -> _Emitter:
        self.sideset_used += 1
        if self.pass_:
            if not self.sideset_count or value >= 1 << self.sideset_count:
                raise PIOASMError(f"side-set value {value} does not fit")
            self.code[-1] |= int(self.sideset_opt) << 12 | value << (13 - self.sideset_count)
        return self

    def wrap_target(self) -> None:
        self.execctrl |= self.count << 7

    def wrap(self) -> None:
        self.execctrl |= (self.count - 1) << 12
        self.wrap_used = True

    def label(self, name: str) -> None:
        if self.pass_ == 0:
            if name in self.labels:
                raise PIOASMError(f"label {name!r} twice")
            self.labels[name] = self.count

    def word(self, instr: int, label: str | None = None) -> _Emitter:
        self.count += 1
        if self.pass_:
            target = 0
            if label is not None:
                if label not in self.labels:
                    raise PIOASMError(f"unknown label {label!r}")
                target = self.labels[label]
            self.code.append(instr | target)
        return self

    def nop(self) -> _Emitter:
        return self.word(0xA042)  # mov y, y

    def jmp(self, cond: int | str, label: str | None = None) -> _Emitter:
        if label is None:
            assert isinstance(cond, str)
            return self.word(0x0000, cond)
        assert isinstance(cond, int)
        return self.word(cond << 5, label)

    def wait(self, polarity: int, src: int, index: int) -> _Emitter:
        source = 0 if src == 0 else (1 if src == 6 else 2)
        return self.word(0x2000 | polarity << 7 | source << 5 | index)

    def in_(self, src: int, bits: int) -> _Emitter:
        if not 0 < bits <= 32:
            raise PIOASMError(f"bit count {bits} is not 1 to 32")
        return self.word(0x4000 | src << 5 | bits & 0x1F)

    def out(self, dest: int, bits: int) -> _Emitter:
        if not 0 < bits <= 32:
            raise PIOASMError(f"bit count {bits} is not 1 to 32")
        return self.word(0x6000 | (7 if dest == 8 else dest) << 5 | bits & 0x1F)

    def push(self, a: int = 0, b: int = 0) -> _Emitter:
        value = a | b
        if not value & 1:
            value |= 0x20
        return self.word(0x8000 | value & 0x60)

    def pull(self, a: int = 0, b: int = 0) -> _Emitter:
        value = a | b
        if not value & 1:
            value |= 0x20
        return self.word(0x8080 | value & 0x60)

    def mov(self, dest: int, src: int) -> _Emitter:
        return self.word(0xA000 | (4 if dest == 8 else dest) << 5 | src)

    def irq(self, mod: int, index: int | None = None) -> _Emitter:
        if index is None:
            mod, index = 0, mod
        return self.word(0xC000 | mod & 0x60 | index)

    def set(self, dest: int, data: int) -> _Emitter:
        return self.word(0xE000 | dest << 5 | data)


_DIRECTIVES = ("wrap_target", "wrap", "label")
_INSTRUCTIONS = ("word", "nop", "jmp", "wait", "in_", "out", "push", "pull", "mov", "irq", "set")


def asm_pio(
    *,
    out_init: object = None,
    set_init: object = None,
    sideset_init: object = None,
    side_pindir: bool = False,
    in_shiftdir: int = PIO.SHIFT_LEFT,
    out_shiftdir: int = PIO.SHIFT_LEFT,
    autopush: bool = False,
    autopull: bool = False,
    push_thresh: int = 32,
    pull_thresh: int = 32,
    fifo_join: int = PIO.JOIN_NONE,
) -> Callable[[Callable[[], None]], list[Any]]:
    sideset_count = 0 if sideset_init is None else (1 if isinstance(sideset_init, int) else len(sideset_init))  # type: ignore[arg-type]
    emit = _Emitter(
        execctrl=int(side_pindir) << 29,
        shiftctrl=(fifo_join << 30 | (pull_thresh & 0x1F) << 25 | (push_thresh & 0x1F) << 20
                   | out_shiftdir << 19 | in_shiftdir << 18 | int(autopull) << 17 | int(autopush) << 16),
        sideset_count=sideset_count,
    )

    def decorate(f: Callable[[], None]) -> list[Any]:
        gl = f.__globals__
        saved = dict(gl)
        gl.clear()  # what MicroPython does: the program sees only the DSL
        gl.update(DSL_NAMES)
        for name in _DIRECTIVES + _INSTRUCTIONS:
            gl[name] = getattr(emit, name)
        try:
            emit.start_pass(0)
            f()
            emit.start_pass(1)
            f()
        finally:
            gl.clear()
            gl.update(saved)
        return [list(emit.code), -1, -1, emit.execctrl, emit.shiftctrl, out_init, set_init, sideset_init]

    return decorate


def make_rp2_module() -> types.ModuleType:
    """A module to put in ``sys.modules["rp2"]`` before importing a firmware file."""
    module = types.ModuleType("rp2")
    module.asm_pio = asm_pio  # type: ignore[attr-defined]
    module.PIO = PIO  # type: ignore[attr-defined]
    module.PIOASMError = PIOASMError  # type: ignore[attr-defined]
    return module


@dataclass(frozen=True)
class Program:
    """An assembled program and the settings the emulator needs from it."""

    opcodes: tuple[int, ...]
    wrap_target: int
    wrap_top: int
    in_shift_right: bool

    @classmethod
    def from_asm(cls, prog: list[Any]) -> Program:
        execctrl, shiftctrl = prog[3], prog[4]
        return cls(
            opcodes=tuple(prog[0]),
            wrap_target=(execctrl >> 7) & 0x1F,
            wrap_top=(execctrl >> 12) & 0x1F,
            in_shift_right=bool((shiftctrl >> 18) & 1),
        )


BOARD_DIR = Path(__file__).resolve().parents[1] / "board"


def edge_logger(sync_pin: int) -> Program:
    """The firmware's own edge logger (``board/pio_programs.py``), assembled for ``sync_pin``.

    The file is loaded under a private name with this module standing in for ``rp2`` while it
    runs; ``sys.modules`` is left as it was."""
    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = make_rp2_module()
    try:
        spec = importlib.util.spec_from_file_location("_twin_pio_programs", BOARD_DIR / "pio_programs.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return Program.from_asm(module.edge_logger_program(sync_pin))
    finally:
        if saved is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = saved
