"""The buzzer board firmware (MicroPython). Only protocol.py and ticks.py are imported on the host."""
