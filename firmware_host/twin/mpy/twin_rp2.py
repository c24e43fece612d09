"""Fake ``rp2`` for the twin (MicroPython): StateMachine over twin_core's RX FIFOs (words from
the chip model), asm_pio that runs a program the way MicroPython does (module globals swapped
for the instruction names) without encoding it, and bootsel_button()."""

import twin_core

_core = twin_core.core
MAX_INSTRUCTIONS = 32


class PIO:
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    IRQ_SM0 = 0x100
    IRQ_SM1 = 0x200
    IRQ_SM2 = 0x400
    IRQ_SM3 = 0x800


class _Instr:
    def __getitem__(self, delay):
        return self

    def side(self, value):
        return self

    def delay(self, value):
        return self


class _Program:
    """The DSL names MicroPython's asm_pio provides; it counts instructions and labels."""

    def __init__(self):
        self.count = 0
        self.labels = []
        self.names = []

    def _op(self, name):
        def emit(*args):
            self.count += 1
            self.names.append(name)
            return _Instr()
        return emit

    def namespace(self):
        ns = {
            "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
            "isr": 6, "osr": 7, "exec": 8, "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4,
            "x_not_y": 5, "pin": 6, "not_osre": 7, "noblock": 1, "block": 0x21, "iffull": 0x40,
            "ifempty": 0x40, "clear": 0x40,
            "invert": lambda v: v | 8, "reverse": lambda v: v | 16, "rel": lambda v: v | 16,
            "label": lambda name: self.labels.append(name), "wrap_target": lambda: None, "wrap": lambda: None,
        }
        for name in ("jmp", "wait", "in_", "out", "push", "pull", "mov", "irq", "set", "nop", "word"):
            ns[name] = self._op(name)
        return ns


def asm_pio(**kw):
    def dec(f):
        program = _Program()
        g = f.__globals__
        old = dict(g)
        for _pass in (0, 1):
            program.count = 0
            program.names = []
            g.clear()
            g.update(program.namespace())
            try:
                f()
            finally:
                g.clear()
                g.update(old)
        if program.count > MAX_INSTRUCTIONS:
            raise ValueError("a PIO program holds at most 32 instructions, not %d" % program.count)
        return [program.names, -1, -1, kw]
    return dec


def bootsel_button():
    _core.call()
    _core.end("any")
    return _core.policy.bootsel


class StateMachine:
    def __init__(self, id, program=None, freq=-1, *, in_base=None, jmp_pin=None, **kw):
        _core.call()
        if not 0 <= id < twin_core.STATE_MACHINES:
            raise ValueError("StateMachine %r does not exist" % (id,))
        if freq not in (-1, twin_core.SYS_HZ):
            raise ValueError("the twin's loggers run at the system clock, not %r Hz" % freq)
        self.id = id
        self.pin = jmp_pin.id if jmp_pin is not None else (in_base.id if in_base is not None else -1)
        self._active = False
        self._tx = []
        _core.state_machines += 1
        _core.depth[id] = 2 * twin_core.FIFO_DEPTH if kw.get("fifo_join") == PIO.JOIN_RX else twin_core.FIFO_DEPTH
        if self.pin >= 0:
            _core.watched[self.pin] = id
        _core.end("any")

    def active(self, value=None):
        _core.call()
        if value is None:
            return 1 if self._active else 0
        if value and not self._active:
            loop = self._tx.pop(0) if self._tx else 0
            _core.bus.note("S %d %d %d %d\n" % (self.id, self.pin, loop, _core.now))
            _core.dirty = True
        elif not value and self._active:
            _core.bus.note("X %d %d\n" % (self.id, _core.now))
            _core.dirty = True
        self._active = bool(value)
        _core.end("any")
        return 1 if self._active else 0

    def restart(self):
        _core.call()
        _core.end("any")

    def put(self, value, shift=0):
        _core.call()
        if len(self._tx) >= twin_core.FIFO_DEPTH:
            raise ValueError("the twin does not model a blocking put")
        self._tx.append((value >> shift) & 0xFFFFFFFF)
        _core.end("any")

    def rx_fifo(self):
        _core.call()
        n = len(_core.fifos[self.id])
        _core.end("rx" if n else "any")
        return n

    def tx_fifo(self):
        _core.call()
        return len(self._tx)

    def get(self, buf=None, shift=0):
        _core.call()
        fifo = _core.fifos[self.id]
        if not fifo:
            _core.block(self.id)
        word = fifo.pop(0)
        _core.end("get")
        return word >> shift
