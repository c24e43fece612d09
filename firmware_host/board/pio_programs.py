# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""The PIO edge logger: one state machine per button and one on the GO pin (MicroPython).

All loggers run this one program (31 of a PIO block's 32 instructions). X counts ticks, one
decrement per two cycles on every path, so a word's count is the tick of the sample that saw
the edge: T = (s + 1) // 2 for the sample at cycle s after the sync wait. Samples (``jmp pin``)
fall on odd cycles, decrements on even ones; an edge at cycle e is stamped floor(e / 2) + 1.
Presses in the same cycle get the same tick, presses one cycle apart the same or the next tick,
never the reverse. After an edge the logger is blind to its pin for the lockout (contact
bounce) while X keeps counting, then watches for the opposite edge, so press and release words
alternate. ``wait 1 gpio SYNC`` releases every logger of both PIO blocks in the same cycle.

``@rp2.asm_pio`` clears this module's globals while it assembles (MicroPython swaps in the
instruction names): the program may use only those names, literals and the closure variable
``sync_pin``. tests/firmware_host/test_board_pio.py assembles this same source under CPython
and runs it cycle by cycle in rp2040-pio-emulator.
"""

import rp2


def edge_logger_program(sync_pin):
    # type: (int) -> object
    """The assembled edge logger, waiting on GPIO ``sync_pin``; the pin it watches is the state
    machine's ``jmp_pin``. Before enabling a state machine put the lockout loop count (ticks.py
    ``lockout_loop_count``) into its TX FIFO."""

    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT)
    def edge_logger():
        pull(block)                   # OSR = lockout loop count
        mov(x, invert(null))          # X = 0xFFFFFFFF
        wait(1, gpio, sync_pin)       # released together with every other logger
        jmp(x_dec, "start")           # cycle 0 (even): first tick
        label("start")
        jmp(pin, "high_d")            # cycle 1: pin high -> wait for it to fall
        jmp(x_dec, "low_s")           # pin already low at sync: wait for it to rise
        # -- rose: push (1, X), lockout, then watch for a fall --------------------------------
        label("rose")
        mov(isr, invert(null))        # ISR bit 0 = 1 becomes bit 31 after the next shift
        in_(x, 31)
        push(noblock)
        mov(y, osr)
        label("rose_lock")
        jmp(x_dec, "rose_lock_y")
        label("rose_lock_y")
        jmp(y_dec, "rose_lock")
        jmp(x_dec, "rose_pay1")       # with the lockout loop's, these decrements make the
        label("rose_pay1")            # path take exactly one per two cycles
        jmp(x_dec, "rose_pay2")
        label("rose_pay2")
        jmp(x_dec, "rose_pay3")
        label("rose_pay3")
        jmp(x_dec, "high_d")
        # -- high: wait for a fall (two cycles, one decrement) --------------------------------
        label("high_d")
        jmp(x_dec, "high_s")
        label("high_s")
        jmp(pin, "high_d")
        # -- fell: push (0, X), lockout, then watch for a rise --------------------------------
        mov(isr, null)                # bit 31 = 0 (and as long as the rose path, so both
        in_(x, 31)                    # lockouts are the same length)
        push(noblock)
        mov(y, osr)
        label("fell_lock")
        jmp(x_dec, "fell_lock_y")
        label("fell_lock_y")
        jmp(y_dec, "fell_lock")
        jmp(x_dec, "fell_pay0")       # five here: this path has no high_d
        label("fell_pay0")
        jmp(x_dec, "fell_pay1")
        label("fell_pay1")
        jmp(x_dec, "fell_pay2")
        label("fell_pay2")
        jmp(x_dec, "fell_pay3")
        label("fell_pay3")
        jmp(x_dec, "low_s")
        # -- low: wait for a rise; at X == 0 the decrement falls through and wraps ------------
        wrap_target()
        label("low_s")
        jmp(pin, "rose")
        jmp(x_dec, "low_s")
        wrap()

    return edge_logger
