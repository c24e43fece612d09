"""Cheating Moth buzzer rig.

``game`` is the pure core (rules engine, race judge, records): standard library only, no clock
reads, no global random. ``game.app`` is the shell (CLI, later the pygame app); it is the only
place that picks adapters from ``firmware_host``.
"""
