# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""Buzzer board entry point (runs at power-up on the Pico).

First the board is identified from MicroPython's machine name (``sys.implementation._machine``,
else ``os.uname().machine``), before anything touches a pin or an RP2040 register: on hardware
the firmware does not support (an RP2350 such as the Pico 2, or a Pico W, whose GP25 is the radio's
line) it only answers HELLO, naming the chip and board, and ``ERR code=board`` to everything
else, with no watchdog, so the host can say what is wrong and mpremote still works.

Safe boot: press BOOTSEL (the Pico's own button, inside the case) during the first half second
after power-up, while the LED is on, and the firmware does not start: the board stays at the
MicroPython prompt, with no watchdog, for mpremote. Ctrl-C (byte 0x03, which the protocol never
sends) stops the firmware the same way: the watchdog is switched off before the prompt comes back.

No seat's button is read for it (issue 21): players slap and hold those, so a watchdog reset or
a power dip while one is held would leave the table at the prompt until someone replugged the
board hands-off. The board always boots into the firmware whatever buttons are held; the host
says so in one sentence if it ever finds the prompt instead (boardlink/link.py).
"""

import machine
import rp2
import time

SAFE_BOOT_MS = 500


def machine_name():
    # type: () -> str
    import sys

    name = getattr(sys.implementation, "_machine", "")
    if not name:
        try:
            import os

            name = os.uname().machine
        except (ImportError, AttributeError):
            name = ""
    return name


def safe_boot_requested(led_pin):
    # type: (int | None) -> bool
    led = None if led_pin is None else machine.Pin(led_pin, machine.Pin.OUT, value=1)
    bootsel = getattr(rp2, "bootsel_button", None)  # no seat button: play must not trigger it
    start = time.ticks_ms()
    held = False
    while time.ticks_diff(time.ticks_ms(), start) < SAFE_BOOT_MS:
        if bootsel is not None and bootsel():
            held = True
            break
        time.sleep_ms(10)
    if led is not None:
        led.value(0)
    return held


def main():
    # type: () -> None
    import firmware
    import hw_rp2

    chip, board = firmware.identify(machine_name())
    if not firmware.supported(chip, board):
        firmware.run(hw_rp2.LinkOnly(chip, board))  # HELLO says what it is; nothing is driven
        return
    led = hw_rp2.STATUS_LED if board == "pico" else None  # another RP2040 board: GP25 is unknown
    if safe_boot_requested(led):
        return
    hw = hw_rp2.Hardware(chip, board)
    try:
        firmware.run(hw)
    except KeyboardInterrupt:  # mpremote's Ctrl-C: leave cleanly to the prompt
        hw_rp2.disable_watchdog()
        hw.all_off()
        raise


main()
