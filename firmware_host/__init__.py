"""Adapters at the edges: GPIO buttons and LEDs, simulated players, (later) the serial buzzer board."""
