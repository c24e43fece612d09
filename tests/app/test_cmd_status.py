"""``cheating-moth status`` on a healthy and on a damaged data folder; ``staff-pin``."""

from __future__ import annotations

import grp
import json
import os
import sqlite3
import zlib
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.pinfile import read_pin_file
from game.staff import StaffLock


def status(capsys: pytest.CaptureFixture[str], data: Path, config: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["status", "--data", str(data), "--config", str(config), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_fresh_rig_is_healthy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = status(capsys, tmp_path, tmp_path / "none.toml")
    assert code == 0 and report["healthy"] is True
    assert report["game"] == "none in progress" and report["last_game"] == "none yet"
    assert "missing (defaults in use)" in report["config"]
    assert report["input"].startswith(("keyboard", "board", "gpio"))


def test_after_a_game_the_last_game_and_an_unfinished_one_show(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kiosk", "--input", "sim", "--data", str(tmp_path), "--config", "/nonexistent",
                 "--seed", "4", "--players", "3"]) == 0
    capsys.readouterr()
    code, report = status(capsys, tmp_path, tmp_path / "none.toml")
    assert code == 0 and report["leaderboard"].startswith("1 games, integrity ok")
    assert "Ali" in report["last_game"]


def test_problems_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlang = "xx"\n')
    with sqlite3.connect(tmp_path / "table.db") as con:
        con.execute("CREATE TABLE steps(seq INTEGER PRIMARY KEY, body TEXT, crc INTEGER)")
        con.execute("INSERT INTO steps(body, crc) VALUES ('a', 1), ('b', 2), ('c', ?)", (zlib.crc32(b"c"),))
    code, report = status(capsys, tmp_path, config)
    assert code == 1 and report["healthy"] is False
    assert "INVALID" in report["config"] and "lang is 'xx'" in report["config"]
    assert any("damaged steps [1, 2]" in p for p in report["problems"])


def test_staff_pin_writes_a_pin_file_that_opens_the_lock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # More on the PIN file and staff-pin in test_pinfile.py.
    path = tmp_path / "staff-pin.toml"
    assert main(["staff-pin", "--pin", "471100", "--file", str(path),
                 "--group", grp.getgrgid(os.getgid()).gr_name]) == 0
    out = capsys.readouterr().out
    stored = read_pin_file(path)
    assert stored is not None
    lock = StaffLock(stored)
    assert lock.try_pin("471100", 0)[1] and not lock.try_pin("471200", 0)[1]
    assert "471100" not in out + path.read_text()


def test_staff_pin_refuses_a_bad_pin(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["staff-pin", "--pin", "12"])
    assert exit_info.value.code == 2 and "use 6 to 8 digits" in capsys.readouterr().err
