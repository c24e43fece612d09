"""The firmware twin: the board's real MicroPython files run on a PC against faithful models.

``pioasm`` assembles the firmware's PIO program under CPython, ``table`` is the physical table
(the pin schedule in system cycles: buttons, bounce, players, the firmware's outputs) and
``chip`` runs every state machine of the RP2040 on it in rp2040-pio-emulator, with the input
synchroniser and exact loop acceleration, producing the words the fake state machines hand the
firmware. ``board`` and ``mpy/`` (the MicroPython-side ``machine``/``rp2`` fakes and the
launcher that runs ``main.py``/``hw_rp2.py`` unmodified) take their words from the chip.
"""
