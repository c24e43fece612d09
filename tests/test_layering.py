"""The core imports no hardware or display library: it must run anywhere, tests included."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import game

FORBIDDEN = ("pygame", "gpiozero", "serial", "lgpio")


def _core_modules() -> list[str]:
    """Every module under game/ except the shell (game.app), found on disk so new ones count."""
    return sorted(
        m.name for m in pkgutil.walk_packages(game.__path__, prefix="game.")
        if not (m.name == "game.app" or m.name.startswith("game.app."))
    )


def test_the_core_loads_no_hardware_or_display_library() -> None:
    modules = _core_modules()
    assert "game.engine" in modules and "game.sim" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_cli_entry_point_loads_no_hardware_library_for_help() -> None:
    code = (
        "import sys\n"
        "from game.app.cli import build_parser\n"
        "build_parser()\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
