"""The two kinds of reaction race the rig decides."""

from __future__ import annotations

import enum


class RaceKind(enum.Enum):
    """``SLAP``: a mosquito, slowest loses. ``COCKROACH``: fastest lays a card."""

    SLAP = "slap"
    COCKROACH = "cockroach"
