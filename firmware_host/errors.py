"""Errors of the adapters. Every message is one sentence naming the bad value and what would be valid.

Each error inherits from :class:`AdapterError` (itself a :class:`game.errors.GameError`) and from
the builtin that fits, so callers can catch either.
"""

from __future__ import annotations

from game.errors import GameError


class AdapterError(GameError):
    """Base of every error an adapter raises."""


class BadPinMap(AdapterError, ValueError):
    """A pin map file (TOML) with a missing, duplicate, reserved or malformed value."""


class BadPinFactory(AdapterError, ValueError):
    """A gpiozero pin factory whose edge timestamps cannot referee a race."""


class BadTicks(AdapterError, ValueError):
    """A tick value from a pin factory that is not a finite, non-negative number of seconds."""


class BadSeat(AdapterError, ValueError):
    """A seat number that the pin map or the simulated table does not have."""


class StuckButton(AdapterError, RuntimeError):
    """A button that stays held down when a race is armed."""


class BadSimulation(AdapterError, ValueError):
    """Simulated-player settings or race times that cannot describe a race."""
