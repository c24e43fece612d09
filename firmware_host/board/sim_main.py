"""The simulated buzzer board: the firmware's main loop on hw_fake (MicroPython unix or CPython).

Run with the link on stdin/stdout (a pty's master side); firmware_host/board_sim.py does that.
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
