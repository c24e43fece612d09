"""The kiosk: a logged game killed with SIGKILL at random moments resumes to the same game, a
corrupt log is moved aside with a message, finished games reach the leaderboard once."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.leaderboard import Leaderboard

REPO = Path(__file__).resolve().parents[2]


def kiosk(data: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "game.app.cli", "kiosk", "--input", "sim", "--data", str(data),
            "--config", str(data / "none.toml"), *args]


def run_until_killed(cmd: list[str], kill_after_lines: int | None) -> bool:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    for n, _ in enumerate(proc.stdout, start=1):
        if kill_after_lines is not None and n >= kill_after_lines:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
    assert proc.wait() == 0
    return False


def games(data: Path) -> list[tuple[str, ...]]:
    board = Leaderboard(data / "leaderboard.db")
    try:
        return [(*g.names, *map(str, g.totals)) for g in board.games()]
    finally:
        board.close()


def events(db: Path) -> list[dict[str, object]]:
    """Each step's input, commands and events (not its chain fields: each log has its game id)."""
    with sqlite3.connect(db) as con:
        return [{k: v for k, v in json.loads(body).items() if k not in ("step", "prev")}
                for (body,) in con.execute("SELECT body FROM steps ORDER BY seq")]


def test_a_killed_kiosk_resumes_the_same_game(tmp_path: Path) -> None:
    rng = random.Random(7)
    clean, crashed = tmp_path / "clean", tmp_path / "crashed"
    assert not run_until_killed(kiosk(clean, "--seed", "5"), None)
    kills = 0
    for attempt in range(12):
        if not run_until_killed(kiosk(crashed, "--seed", "5"), rng.randint(5, 60) if attempt < 8 else None):
            break
        kills += 1
    assert kills >= 5
    assert games(crashed) == games(clean) and len(games(clean)) == 1
    [clean_log] = (clean / "games").glob("game-*.db")
    [crashed_log] = (crashed / "games").glob("game-*.db")
    assert events(crashed_log) == events(clean_log)
    assert not (crashed / "table.db").exists()          # filed away when the game ended


def test_a_corrupt_game_log_is_moved_aside_and_a_new_game_starts(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "table.db").write_text("this is not a database\n" * 50)
    assert main(kiosk(tmp_path, "--seed", "2")[3:]) == 0
    out = capsys.readouterr().out
    assert "note: the game log could not be resumed and was moved to" in out
    [aside] = (tmp_path / "aside").glob("table-*.db")
    assert aside.read_text().startswith("this is not a database")
    assert len(games(tmp_path)) == 1


def test_several_games_in_a_row_all_reach_the_leaderboard(tmp_path: Path) -> None:
    assert main(kiosk(tmp_path, "--seed", "9", "--games", "2", "--players", "3")[3:]) == 0
    recorded = games(tmp_path)
    assert len(recorded) == 2 and recorded[0] != recorded[1]
    assert len(list((tmp_path / "games").glob("game-*.db"))) == 2


def test_staff_changes_apply_over_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "staff.toml").write_text("[table]\nrace-timeout-ms = 4000\n")
    assert main(kiosk(tmp_path, "--seed", "3", "--players", "3")[3:]) == 0
    [played] = (tmp_path / "games").glob("game-*.db")
    with sqlite3.connect(played) as con:
        settings = json.loads(con.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])
    assert settings["race_timeout_ns"] == 4_000_000_000


def test_a_bad_config_still_starts_on_defaults(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[display]\nvolume = 300\n")
    args = kiosk(tmp_path, "--seed", "3", "--players", "3")[3:]
    args[args.index("--config") + 1] = str(config)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "note: config problem, running on defaults:" in out and "volume is 300" in out
