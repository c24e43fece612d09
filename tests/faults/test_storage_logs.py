"""Issue 21, defects 1 and 5: a log the card cannot take (full, read-only, failing) never fails
a step. The step is kept in memory and written, in order and once, when the card works again;
a log closed before that says how many steps were lost; a read-only log is resumed with a
notice that says so (it used to say "Resumed after N steps" and fail at the next one)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from storage_faults import Disk, injected

from game.app.leaderboard import FinishedGame, Leaderboard
from game.app.referee.race_log import RaceLog
from game.app.tablelog import TableLog
from game.controller import Table, TableSettings, new_table, step
from game.controller.inputs import Tick
from game.referee.presets import load_presets
from game.referee.session import Start
from game.sim.presses import T0_NS, resume_script

SETTINGS = TableSettings(seats=3, clock="sim")
SEED = 11
S = 1_000_000_000


class Game:
    """The simulated players' game, one step at a time, logged in ``log``."""

    def __init__(self, log: TableLog) -> None:
        self.log = log
        self.table: Table = new_table(SETTINGS, SEED, T0_NS)
        self.script, self.event = resume_script(3, SEED, SETTINGS, [])

    def play(self, steps: int) -> None:
        for _ in range(steps):
            assert self.event is not None
            made = step(self.table, self.event)
            self.log.append(self.event, made)
            self.table = made.table
            self.event = self.script.send(made)


def reopened(path: Path) -> TableLog:
    return TableLog.open(path, SETTINGS, SEED, T0_NS)


def sql_ops(disk: Disk) -> int:
    return sum(op.kind == "sql" for op in disk.ops)


def next_op(disk: Disk) -> int:
    return len(disk.ops)


def at_next(disk: Disk, kind: str) -> int:
    """The index the next step's operation of ``kind`` will have (a step's writes, in order,
    are those of the step before it: its mirror, its fsync, its commit)."""
    kinds = [op.kind for op in disk.ops[-3:]]
    return len(disk.ops) + kinds.index(kind)


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS, errno.EIO])
def test_steps_the_card_refuses_are_kept_and_written_in_order_once_it_takes_them(
        tmp_path: Path, fault: int, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.db"
    disk = Disk(tmp_path)
    with injected(disk):
        game = Game(reopened(path))
        game.play(5)
        disk.arm(next_op(disk), fault)
        game.play(10)                       # used to raise "database or disk is full"
        log = game.log
        assert log.trouble and "cannot be written" in log.trouble
        assert (log.written, log.in_memory, log.count) == (5, 10, 15)
        disk.clear()
        game.play(1)
        assert not log.trouble and (log.written, log.in_memory) == (16, 0)
        log.close()
    assert "cannot be written" in caplog.text and "can be written again" in caplog.text
    again = reopened(path)
    try:
        assert len(again.steps) == 16 and not again.notices
    finally:
        again.close()


def test_a_commit_reported_failed_after_it_took_effect_is_not_logged_twice(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    disk = Disk(tmp_path)
    with injected(disk):
        game = Game(reopened(path))
        game.play(3)
        disk.arm(at_next(disk, "sql"), errno.EIO, after=True)   # the INSERT is in, and an I/O error is said
        game.play(1)
        assert game.log.written == 3 and game.log.in_memory == 1
        disk.clear()
        game.play(2)
        assert (game.log.written, game.log.in_memory) == (6, 0)
        game.log.close()
    again = reopened(path)          # a step logged twice would break the chain: refused
    try:
        assert len(again.steps) == 6 and not again.notices
    finally:
        again.close()


@pytest.mark.parametrize("kind", ["pwrite", "fdatasync", "sql"])
def test_a_step_whose_mirror_or_commit_fails_is_written_whole_at_the_next_step(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "table.db"
    disk = Disk(tmp_path)
    with injected(disk):
        game = Game(reopened(path))
        game.play(2)
        disk.arm(at_next(disk, kind), errno.EIO)
        game.play(1)
        assert game.log.written == 2 and game.log.in_memory == 1 and game.log.trouble
        disk.clear()
        game.play(1)
        assert game.log.written == 4 and not game.log.trouble
        game.log.close()
    again = reopened(path)
    try:
        assert len(again.steps) == 4 and not again.notices     # the mirror counts all four
    finally:
        again.close()


def test_a_log_closed_while_the_card_still_fails_says_how_many_steps_are_lost(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.db"
    disk = Disk(tmp_path)
    with injected(disk):
        game = Game(reopened(path))
        game.play(4)
        disk.arm(next_op(disk), errno.ENOSPC)
        game.play(3)
        game.log.close()
    assert game.log.lost == 3
    assert "3 steps of" in caplog.text and "are lost" in caplog.text
    again = reopened(path)
    try:
        assert len(again.steps) == 4            # every step that was written is there
    finally:
        again.close()


def test_a_read_only_log_resumes_saying_so_and_never_fails_a_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 5: a 0444 log said "Resumed ... after 102 logged steps" and failed writing the
    next one. As root the file stays writable, so the read-only card is also injected."""
    path = tmp_path / "table.db"
    game = Game(reopened(path))
    game.play(6)
    game.log.close()
    path.chmod(0o444)
    disk = Disk(tmp_path)
    if os.geteuid() == 0:
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if Path(p) == path and mode & os.W_OK
                            else real(p, mode, *a, **k))
        disk.arm(0, errno.EROFS, only="table.db")
    with injected(disk):
        log = reopened(path)
        assert len(log.steps) == 6
        assert any("read-only" in n for n in log.notices), log.notices   # said up front
        assert "read-only" in log.trouble
        game.log = log
        game.play(3)                            # kept in memory, no traceback
        assert (log.written, log.in_memory) == (6, 3)
        path.chmod(0o644)
        monkeypatch.undo()
        disk.clear()
        game.play(1)
        assert (log.written, log.in_memory) == (10, 0) and not log.trouble
        log.close()
    again = reopened(path)
    try:
        assert len(again.steps) == 10 and not again.notices
    finally:
        again.close()


def test_a_new_game_without_a_file_is_made_when_the_folder_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "later" / "table.db"
    log = TableLog.unwritten(path, SETTINGS, SEED, T0_NS, "the card is full")
    game = Game(log)
    game.play(4)
    assert log.written == 0 and log.in_memory == 4 and log.trouble
    path.parent.mkdir()
    game.play(1)
    assert log.written == 5 and not log.trouble
    log.close()
    again = reopened(path)
    try:
        assert len(again.steps) == 5
    finally:
        again.close()


def test_a_referee_session_goes_on_when_its_log_cannot_be_written(tmp_path: Path) -> None:
    preset = load_presets().get("bell-slap")
    path = tmp_path / "race.db"
    disk = Disk(tmp_path)
    with injected(disk):
        log = RaceLog.open(path, preset, 3, clock="sim", resolution_ns=100_000, seed=1, t0_ns=S)
        disk.arm(next_op(disk), errno.ENOSPC)
        log.step(Start(2 * S))
        log.step(Tick(3 * S))
        assert log.trouble and log.in_memory == 2
        disk.clear()
        log.step(Tick(4 * S))
        assert log.written == 3 and not log.trouble
        log.close()
    again = RaceLog.open(path, preset, 3, clock="sim", resolution_ns=100_000, seed=1, t0_ns=S)
    try:
        assert len(again.inputs) == 3
    finally:
        again.close()


def test_a_leaderboard_write_that_failed_leaves_no_transaction_open(tmp_path: Path) -> None:
    disk = Disk(tmp_path)
    game = FinishedGame(1, 2, ("Ali", "Bea", "Cem"), (1, 2, 3), (0,), key="k")
    with injected(disk):
        board = Leaderboard(tmp_path / "leaderboard.db")
        disk.arm(next_op(disk) + 1, errno.ENOSPC)       # BEGIN goes, the INSERT fails
        with pytest.raises(Exception, match="disk is full"):
            board.record(game)
        disk.clear()
        board.record(game)               # used to fail: "cannot start a transaction within a transaction"
        assert [g.key for g in board.games()] == ["k"]
        board.close()
