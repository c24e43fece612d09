"""Edge-logger words and the board's tick timeline (MicroPython and CPython).

A PIO edge logger (pio_programs.py) counts X down from 0xFFFFFFFF, one step per tick (two
system clock cycles), and pushes one 32-bit word per edge:

    bit 31       the pin's new level (0: fell, 1: rose)
    bits 30..0   X's low 31 bits when the edge was seen

so ``COUNT_MASK - (word & COUNT_MASK)`` is the edge's tick count since the loggers were
released by the sync pin, modulo 2**31 (34.4 s at 62.5 MHz). The board unwraps it against its
microsecond timer, which runs from the same crystal, read when the word left the FIFO.
"""

LEVEL_BIT = 0x80000000
COUNT_MASK = 0x7FFFFFFF
WRAP = 0x80000000
# Ticks an edge costs the logger besides the lockout loop (capture, push, set-up and the
# pay-back decrements): a lockout of N ticks loads N - LOCKOUT_FIXED_TICKS into the loop.
LOCKOUT_FIXED_TICKS = 6
# How far the microsecond timer may be ahead of or behind the PIO count when unwrapping.
UNWRAP_MARGIN_US = 10000


def make_word(level, count):
    # type: (int, int) -> int
    """The word a logger pushes for an edge to ``level`` at ``count`` ticks after sync."""
    return (LEVEL_BIT if level else 0) | ((COUNT_MASK - count) & COUNT_MASK)


def word_level(word):
    # type: (int) -> int
    return 1 if word & LEVEL_BIT else 0


def word_count(word):
    # type: (int) -> int
    """Ticks since sync, modulo 2**31."""
    return COUNT_MASK - (word & COUNT_MASK)


def lockout_loop_count(lockout_ticks):
    # type: (int) -> int
    """The value an edge logger pulls for a lockout of ``lockout_ticks`` (at least the fixed part)."""
    return max(lockout_ticks, LOCKOUT_FIXED_TICKS) - LOCKOUT_FIXED_TICKS


def unwrap(count31, near, margin):
    # type: (int, int, int) -> int
    """The largest tick count at most ``near + margin`` that is ``count31`` modulo 2**31.

    ``near`` is the coarse tick count when the word was read: the edge happened before that,
    by less than 2**31 - margin ticks."""
    top = near + margin
    return top - ((top - count31) % WRAP)


def us_to_ticks(us, tick_hz):
    # type: (int, int) -> int
    return us * tick_hz // 1000000


class Epoch:
    """One release of the loggers: the board tick count at sync, and what to unwrap against."""

    def __init__(self, sync_us, tick_hz):
        # type: (int, int) -> None
        self.sync_us = sync_us
        self.tick_hz = tick_hz
        self.base_ticks = us_to_ticks(sync_us, tick_hz)
        self.margin = us_to_ticks(UNWRAP_MARGIN_US, tick_hz)

    def edge_ticks(self, word, read_us):
        # type: (int, int) -> int
        """Board ticks (since power-up) of the edge in ``word``, read from its FIFO at ``read_us``."""
        near = us_to_ticks(read_us - self.sync_us, self.tick_hz)
        return self.base_ticks + unwrap(word_count(word), near, self.margin)

    def now_ticks(self, now_us):
        # type: (int) -> int
        return self.base_ticks + us_to_ticks(now_us - self.sync_us, self.tick_hz)
