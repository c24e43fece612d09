"""How big the campaigns run.

The README's test command runs every campaign (kills, fuzzing, soaks, adversarial races) on a
sample big enough to find what it was written for, so the whole suite stays a few minutes on a
two-core machine. ``CHEATING_MOTH_SOAK=1 python -m pytest -m soak`` runs the same campaigns at the
sizes the README's Reliability figures quote; CI runs both (``.ci/run``). A campaign marked
``soak`` that only makes sense at full size (a 42-game run) runs only there."""

from __future__ import annotations

import os

import pytest

#: Full sizes: the soak command (and CI's second step) sets it.
SOAK = os.environ.get("CHEATING_MOTH_SOAK", "") == "1"

#: For a campaign whose point is its length: skipped by the quick run, run by the soak command.
only_in_soak = pytest.mark.skipif(not SOAK, reason="a full-size campaign: CHEATING_MOTH_SOAK=1 python -m pytest -m soak")


def size(quick: int, soak: int) -> int:
    """A campaign's size: ``quick`` in the everyday run, ``soak`` under ``CHEATING_MOTH_SOAK=1``."""
    return soak if SOAK else quick
