"""What the kiosk leaves in its data folder when games end: each finished log with everything
beside it (WAL, step mirror) filed in games/, nothing of it left behind as the next game's; a
leaderboard that fails at a game's end is said, and the game's log is still filed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.leaderboard import FinishedGame, Leaderboard


def sim(data: Path, *more: str) -> list[str]:
    return ["kiosk", "--input", "sim", "--data", str(data), "--config", str(data / "none.toml"),
            "--players", "3", "--draw-every", "50", *more]


def test_finished_games_take_their_mirror_with_them(tmp_path: Path) -> None:
    assert main(sim(tmp_path, "--games", "2", "--seed", "8")) == 0
    assert not list(tmp_path.glob("table.db*"))        # the last game's mirror used to stay here
    logs = {p.name for p in (tmp_path / "games").iterdir()}
    assert len([n for n in logs if n.endswith(".db")]) == 2
    assert all(n.removesuffix("-mirror") in logs for n in logs)


def test_a_leaderboard_that_fails_at_the_end_of_a_game_does_not_end_the_kiosk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def record(self: Leaderboard, game: FinishedGame) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Leaderboard, "record", record)
    assert main(sim(tmp_path, "--games", "1", "--seed", "8")) == 0
    assert len(list((tmp_path / "games").glob("game-*.db"))) == 1
    assert "could not be put on the leaderboard (database or disk is full)" in caplog.text
