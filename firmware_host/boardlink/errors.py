"""Errors of the buzzer board link and adapter: one sentence each, naming the bad value.

Each inherits from :class:`firmware_host.errors.AdapterError` and the builtin that fits.
"""

from __future__ import annotations

from ..errors import AdapterError


class BoardError(AdapterError):
    """Base of every buzzer board error."""


class BoardNotFound(BoardError, OSError):
    """No board on the named port, or none found by its USB vendor id."""


class BoardTimeout(BoardError, TimeoutError):
    """The board did not answer a request in time, even after the retries."""


class BoardMismatch(BoardError, ValueError):
    """The board speaks another major protocol version (or none we can read): flash matching firmware."""


class BoardUnsupported(BoardError, ValueError):
    """The board is hardware the rig does not support (an RP2350 / Pico 2, a Pico W)."""


class BadTimeScale(BoardError, ValueError):
    """A board time scale that is not a positive finite number."""


class BoardRefused(BoardError, RuntimeError):
    """The board answered a request with ``ERR``."""


class LinkDown(BoardError, ConnectionError):
    """The link to the board is down (unplugged, or not connected yet)."""


class RaceVoidedError(BoardError, RuntimeError):
    """A race in progress was voided (the link dropped, edges may have been lost, the board
    restarted, or it sent an impossible stamp)."""


class BoardGone(BoardError, ConnectionError):
    """The board has been gone (unplugged, or connected but silent) for longer than the rig's
    patience: the command cannot go on without it."""


class BoardAtPrompt(BoardError, RuntimeError):
    """The port answers with MicroPython's prompt (banner, ``>>>``, a traceback, the raw REPL)
    instead of the buzzer protocol: the firmware is not running on the board."""
