"""The host side of the buzzer board: its USB serial link, the race adapter on it, its errors
and a simulated board on a pty (the firmware itself is in ``firmware_host/board/``)."""
