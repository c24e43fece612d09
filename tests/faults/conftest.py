"""What every storage-fault test shares: the rig's journal lines are silenced (the campaigns
provoke thousands of them; what matters is on screen and in the logs) unless a test reads them
(``caplog``), and a folder in RAM."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def quiet(request: pytest.FixtureRequest) -> Iterator[None]:
    if "caplog" in request.fixturenames:     # a test that reads the journal lines keeps them
        yield
        return
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)


@pytest.fixture(scope="module")
def ram() -> Iterator[Path]:
    """A folder in RAM when there is one: every step fsyncs, and the code is the same."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="storage-faults-", dir=base))
    logging.disable(logging.CRITICAL)
    try:
        yield folder
    finally:
        logging.disable(logging.NOTSET)
        shutil.rmtree(folder, ignore_errors=True)
