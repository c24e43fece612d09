# mypy: ignore-errors
# (MicroPython-only file: it imports the board's modules by their top-level names and uses
# machine/rp2/time.ticks_*, which CPython's mypy cannot see. protocol.py and ticks.py, which
# the host imports too, are type-checked; this file is checked by mpy-cross and by running it.)
"""Buzzer board entry point (runs at power-up on the Pico).

Safe boot: hold BOOTSEL (after plugging in, while the LED is on) or button 0 during the first
half second and the firmware does not start: the board stays at the MicroPython prompt, with no
watchdog, for mpremote. Ctrl-C (byte 0x03, which the protocol never sends) stops the firmware
the same way: the watchdog is switched off before the prompt comes back.
"""

import machine
import rp2
import time

SAFE_BOOT_MS = 500


def safe_boot_requested(button_pin):
    # type: (int) -> bool
    led = machine.Pin(25, machine.Pin.OUT, value=1)
    button = machine.Pin(button_pin, machine.Pin.IN, machine.Pin.PULL_UP)
    start = time.ticks_ms()
    held = False
    while time.ticks_diff(time.ticks_ms(), start) < SAFE_BOOT_MS:
        bootsel = getattr(rp2, "bootsel_button", None)
        if (bootsel is not None and bootsel()) or button.value() == 0:
            held = True
            break
        time.sleep_ms(10)
    led.value(0)
    return held


def main():
    # type: () -> None
    import hw_rp2

    if safe_boot_requested(hw_rp2.BUTTON_PINS[0]):
        return
    import firmware

    hw = hw_rp2.Hardware()
    try:
        firmware.run(hw)
    except KeyboardInterrupt:  # mpremote's Ctrl-C: leave cleanly to the prompt
        hw_rp2.disable_watchdog()
        hw.all_off()
        raise


main()
