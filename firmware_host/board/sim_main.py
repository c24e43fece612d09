# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""The simulated buzzer board: the firmware's main loop on hw_fake (MicroPython unix or CPython).

Run with the link on stdin/stdout (a pty's master side); firmware_host/boardlink/sim.py does that.
"""

import os
import sys

import firmware
import hw_fake


def main():
    # type: () -> None
    hw = hw_fake.FakeHardware(os.getenv("BOARD_SIM_CONTROL"))
    try:
        firmware.run(hw)
    except KeyboardInterrupt:
        sys.exit(0)


main()
