"""The one time scale of the host's waits on the board.

Every wait the host makes on the board (the connect wait, request replies, frames asked for
again, the GO report, ``BoardRig.wait_until`` and the race command's stall limit) is a wall-clock
duration multiplied by the time scale: wall seconds the host allows per second of board time.
A real Pico runs in real time (1.0); a board that runs slower than real time (the firmware twin
under an emulator, a busy Pico) needs a larger scale, e.g. 20 for a twin 20 times slower.

The scale comes from the ``time_scale`` argument (the CLI's ``--board-time-scale``), else from
the environment variable ``CHEATING_MOTH_BOARD_TIME_SCALE``, else 1.0.
"""

from __future__ import annotations

import math
import os

from .errors import BadTimeScale

TIME_SCALE_ENV = "CHEATING_MOTH_BOARD_TIME_SCALE"
#: The scales accepted: a real Pico is 1, the firmware twin under a loaded emulator needs at
#: most a few dozen; beyond 1000 a 5 s wait would be over an hour, and a huge scale overflows
#: the waits themselves (1e308 made ``Event.wait`` raise OverflowError), so it is refused.
TIME_SCALE_RANGE = (0.01, 1000.0)


def parse_time_scale(text: object, source: str = "the time scale") -> float:
    """``text`` (a number or its text) as a float within :data:`TIME_SCALE_RANGE`, or BadTimeScale."""
    try:
        value = float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(text, bool) or not math.isfinite(value) or value <= 0:
        raise BadTimeScale(
            f"{source} {text!r} is not valid: use a positive finite number of wall seconds per board second, e.g. 1 or 20"
        )
    low, high = TIME_SCALE_RANGE
    if not low <= value <= high:
        raise BadTimeScale(
            f"{source} {text!r} is out of range: use {low:g} to {high:g} wall seconds per board second "
            "(1 for a real Pico)"
        )
    return value


def resolve_time_scale(time_scale: float | None = None) -> float:
    """The argument if given, else ``$CHEATING_MOTH_BOARD_TIME_SCALE`` if set, else 1.0."""
    if time_scale is not None:
        return parse_time_scale(time_scale)
    env = os.environ.get(TIME_SCALE_ENV)
    if env is None or env == "":
        return 1.0
    return parse_time_scale(env, TIME_SCALE_ENV)
