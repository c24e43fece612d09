"""Adapters at the edges: GPIO buttons and LEDs, the RP2040 buzzer board (board/ is its
MicroPython firmware) and its serial link, simulated players."""
