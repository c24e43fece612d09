"""Issue 21, defects 1 and 5 for the commands: ``table --db`` and ``play`` (the living room's
log) play on when the card fails; a read-only log is said up front, not after "Resumed"; steps
that could never be written are said lost and the exit status says the log is not whole."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path

import pytest
from storage_faults import Disk, injected
from test_storage_logs import SEED, SETTINGS, Game, reopened

from game.app.cli import main
from game.app.home import open_home
from game.sim.presses import T0_NS

TABLE = ["table", "--players", "3", "--seed", str(SEED)]


def test_table_db_on_a_card_that_fills_up_and_frees_again_logs_the_whole_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    disk = Disk(tmp_path)
    disk.arm(200, errno.ENOSPC, heal_after=12)         # mid-game, a dozen writes fail, then space again
    with injected(disk):
        assert main([*TABLE, "--db", str(db)]) == 0     # used to end in "database or disk is full"
    assert disk.failed == 12
    again = reopened(db)
    try:
        assert again.steps and not again.notices
        assert main([*TABLE, "--db", str(db)]) == 0
        assert "already over" in capsys.readouterr().out
    finally:
        again.close()


def test_table_db_on_a_card_that_stays_full_says_how_many_steps_were_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    disk = Disk(tmp_path)
    disk.arm(200, errno.ENOSPC)
    with injected(disk):
        assert main([*TABLE, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "could not be written to" in err and "lost" in err and "Traceback" not in err
    again = reopened(db)              # the steps that were written are there, and resumable
    try:
        assert again.steps
    finally:
        again.close()


def test_table_db_on_a_read_only_log_says_so_before_resuming(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 5: "Resumed the game ... after N logged steps", then a traceback at the next."""
    db = tmp_path / "game.db"
    game = Game(reopened(db))
    game.play(30)
    game.log.close()
    db.chmod(0o444)
    disk = Disk(tmp_path)
    if os.geteuid() == 0:   # root may write a 0444 file: the read-only log is injected too
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if Path(p) == db and mode & os.W_OK
                            else real(p, mode, *a, **k))
        disk.arm(0, errno.EROFS, only="game.db")
    with injected(disk):
        assert main([*TABLE, "--db", str(db)]) == 1
    out = capsys.readouterr()
    assert "read-only" in out.err and "Resumed the game" in out.out
    assert "lost" in out.err and "Traceback" not in out.err
    db.chmod(0o644)


def test_the_living_room_plays_on_a_full_card_and_saves_once_it_can(tmp_path: Path) -> None:
    folder = tmp_path / "cheating-moth"
    disk = Disk(tmp_path)
    disk.arm(0, errno.ENOSPC, heal_after=40)
    with injected(disk):
        home = open_home(folder, SETTINGS, SEED, T0_NS, datetime(2026, 12, 1, 20, 0))
        assert home.log is not None and any("not saved for now" in n for n in home.notes), home.notes
        game = Game(home.log)
        game.play(60)
        assert home.log.written == 60 and not home.log.trouble
        home.log.close()
    again = reopened(folder / "table.db")
    try:
        assert len(again.steps) == 60
    finally:
        again.close()


def test_table_db_on_a_real_0444_log_says_so_and_never_raises(tmp_path: Path) -> None:
    """Defect 5 for real: the file's mode, no injection. Root writes any file, so as root the
    command runs as ``nobody`` (setpriv)."""
    import shutil
    import subprocess
    import sys
    import tempfile

    repo = Path(__file__).resolve().parents[2]
    prefix: list[str] = []
    folder = tmp_path
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root the 0444 file is writable, and setpriv is missing to run as nobody")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        folder = Path(tempfile.mkdtemp(prefix="read-only-log-", dir="/tmp"))   # nobody can reach it
        folder.chmod(0o777)
    try:
        db = folder / "game.db"
        game = Game(reopened(db))
        game.play(30)
        game.log.close()
        if prefix:
            for part in folder.iterdir():
                os.chown(part, 65534, 65534)
        db.chmod(0o444)
        done = subprocess.run([*prefix, sys.executable, "-m", "game.app.cli", *TABLE, "--db", str(db)], cwd=repo,
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, "PYTHONPATH": str(repo), "PYTHONDONTWRITEBYTECODE": "1"})
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert "note: the log" in done.stderr and "is read-only" in done.stderr
        assert "Resumed the game" in done.stdout and "could not be written" in done.stderr
    finally:
        if prefix:
            shutil.rmtree(folder, ignore_errors=True)
