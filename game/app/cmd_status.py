"""``cheating-moth status``: version, input backend, config, the game in progress, the last game
and the health of the data folder — what staff or a technician checks first."""

from __future__ import annotations

import argparse
import json
import sqlite3
import zlib
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from .options import file_arg, folder_arg

if TYPE_CHECKING:
    from .rigconfig import RigConfig

HELP = "print the rig's version, input backend, config, game in progress, last game and data health"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", type=file_arg, default="/etc/cheating-moth/config.toml")
    parser.add_argument("--data", metavar="DIR", type=folder_arg, default="/var/lib/cheating-moth")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    report = status(Path(args.config), Path(args.data))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:<14} {value if not isinstance(value, dict) else json.dumps(value)}")
    return 0 if report["healthy"] else 1


def status(config: Path, data: Path) -> dict[str, Any]:
    report: dict[str, Any] = {"version": _version(), "input": input_backend()}
    problems: list[str] = []
    notices: list[str] = []
    report["config"] = _config(config, data, problems, notices)
    report["game"] = _game_log(data / "table.db", problems)
    report["last_game"], report["leaderboard"] = _leaderboard(data / "leaderboard.db", problems)
    aside = sorted((data / "aside").glob("*.db")) if (data / "aside").exists() else []
    report["set_aside"] = [p.name for p in aside]
    report["data_bytes"] = sum(p.stat().st_size for p in data.rglob("*") if p.is_file()) if data.exists() else 0
    report["notices"] = notices
    report["problems"] = problems
    report["healthy"] = not problems
    return report


def _version() -> str:
    try:
        return metadata.version("cheating-moth")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def input_backend() -> str:
    """What ``auto`` would pick, found without opening anything."""
    try:
        from serial.tools import list_ports  # type: ignore[import-untyped]

        boards = [p.device for p in list_ports.comports() if p.vid == 0x2E8A]
    except ImportError:
        boards = []
    if boards:
        return f"board at {boards[0]}"
    model = Path("/proc/device-tree/model")
    on_pi = model.exists() and "Raspberry Pi" in model.read_text(errors="replace")
    if on_pi and any(Path("/dev").glob("gpiochip*")):
        return "gpio"
    return "keyboard (no board, no GPIO)"


def _config(path: Path, data: Path, problems: list[str], notices: list[str]) -> str:
    from .rigconfig import MissingConfig, RigConfig, load_rig_config

    try:
        config = load_rig_config(path)
        state = f"{path}: ok"
    except MissingConfig:   # not a symbolic link loop nor a FIFO: those are named, as the kiosk does
        config, state = RigConfig(), f"{path}: missing (defaults in use)"
    except GameError as exc:
        problems.append(str(exc))
        return f"{path}: INVALID ({exc})"
    notices += _table_game_notices(config, data)
    if notices:
        # The kiosk starts, but not quite as the file says: not a problem, and not "ok" either.
        state += f", adjusted by the kiosk: {'; '.join(notices)}"
    return state


def _table_game_notices(config: RigConfig, data: Path) -> list[str]:
    """What the kiosk would say about ``[kiosk] game`` and ``players`` at its start (a game
    that is not there, that the seats cannot play, or players it adjusts, e.g. "duel" with
    players = 8 races 2): the kiosk's own sentences, with staff's menu choices over the file.
    The seats wired are not known here, so a preset is checked against its own rules."""
    from .cmd_kiosk import _with_staff_changes
    from .kiosk import TableGame, load_table_presets
    from .rigconfig import CHEATING_MOTH

    notes: list[str] = []
    config = _with_staff_changes(config, data, notes)
    if config.game == CHEATING_MOTH:
        return notes
    found = load_table_presets(data)
    preset = next((p for p in found.presets if p.id == config.game), None)
    if preset is None or preset.id == CHEATING_MOTH:
        ids = ", ".join([CHEATING_MOTH, *(p.id for p in found.presets if p.id != CHEATING_MOTH)])
        return [*notes, f"table game {config.game!r} is not a race preset on this rig: the kiosk runs "
                        f"Cheating Moth; use one of {ids} in [kiosk] game"]
    adjusted = TableGame(preset.id, preset, preset.max_players).players_note(config.game_players)
    return [*notes, *([adjusted] if adjusted is not None else [])]


def _game_log(path: Path, problems: list[str]) -> str:
    """The game in progress, read without changing anything (a torn row is only reported)."""
    if not path.exists():
        return "none in progress"
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
            rows = con.execute("SELECT body, crc FROM steps ORDER BY seq").fetchall()
            check = con.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        problems.append(f"{path} cannot be read ({exc}); the kiosk will move it aside")
        return "UNREADABLE"
    bad = [i for i, (body, crc) in enumerate(rows, 1) if zlib.crc32(str(body).encode()) != crc]
    if check != "ok":
        problems.append(f"{path}: {check}")
    if bad and bad != [len(rows)]:
        problems.append(f"{path}: damaged steps {bad[:5]}")
    torn = " (last step torn: it will be dropped)" if bad == [len(rows)] else ""
    return f"in progress, {len(rows)} steps logged{torn}"


def _leaderboard(path: Path, problems: list[str]) -> tuple[str, str]:
    if not path.exists():
        return "none yet", "empty"
    from ..errors import BadTableLog
    from .leaderboard import Leaderboard

    try:
        board = Leaderboard(path)
    except BadTableLog as exc:
        problems.append(str(exc))
        return "unknown", "UNREADABLE"
    try:
        check = board.integrity()
        games = board.games()
    finally:
        board.close()
    if check != "ok":
        problems.append(f"{path}: {check}")
    if not games:
        return "none yet", "empty"
    g = games[-1]
    when = datetime.fromtimestamp(g.finished_unix_ns / 1e9).astimezone().strftime("%Y-%m-%d %H:%M")
    scores = ", ".join(f"{n} {t}" for n, t in zip(g.names, g.totals))
    return f"{when}: {scores}", f"{len(games)} games, integrity {check}"
