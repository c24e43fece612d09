"""Issue 21, hostile retest: a game in progress is resumed after a restart on a full or
read-only SD card -- the same game, its losses said -- never abandoned for a new one. Opening a
log to resume it needs no write: what the open would write (the mirror put right after a loss,
a torn row dropped) is owed, and written before any new step once the card takes it."""

from __future__ import annotations

import errno
import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from kiosk_play import kiosk_in_read_only_folder
from storage_faults import Disk, injected
from test_storage_folders import first_frame, game_in_progress
from test_storage_logs import SEED, SETTINGS, Game, reopened

from game.app.tablelog import Mirrored, TableLog, mirror_path, read_mirror
from game.controller.inputs import Input
from game.controller.resume import resume
from game.sim.presses import resume_script

LOST = "lost its last"


def killed_with_mirror_ahead(path: Path, steps: int, ahead: int) -> list[Input]:
    """A game of ``steps`` steps on disk whose mirror counted ``ahead`` more (steps kept in
    memory through storage trouble when the kiosk was killed): its logged inputs."""
    game = Game(reopened(path))
    game.play(steps)
    game.log.close()
    closed = reopened(path)
    inputs = [s.input for s in closed.steps]
    closed.close()
    mirror_ahead(path, ahead)
    return inputs


def mirror_ahead(path: Path, ahead: int) -> None:
    """The mirror of the closed log at ``path`` says ``ahead`` more steps were made and kept in
    memory (the card had failed before the kill): those are lost, and must be said."""
    best, _ = read_mirror(path)
    assert best is not None
    fd = os.open(mirror_path(path), os.O_RDWR)
    try:
        os.pwrite(fd, Mirrored(best.game, best.steps, best.last_crc, more=ahead).pack(),
                  0 if best.steps % 2 == 0 else 4096)
    finally:
        os.close(fd)


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS])
@pytest.mark.parametrize("where", ["mirror rewrite", "every write"])
def test_a_game_is_resumed_on_a_card_that_takes_no_write_and_its_loss_is_said(
        tmp_path: Path, fault: int, where: str) -> None:
    path = tmp_path / "table.db"
    before = killed_with_mirror_ahead(path, 31, 1)
    disk = Disk(tmp_path)
    disk.arm(0, fault, only="table.db-mirror.new" if where == "mirror rewrite" else None)
    with injected(disk):
        log = reopened(path)     # used to raise BadTableLog (storage): the kiosk began a new game
        assert disk.failed
        assert not (tmp_path / "table.db-mirror.new").exists()   # nothing half made left behind
        assert [s.input for s in log.steps] == before          # the same game, every step read
        assert any(LOST in n and "lost its last 1 logged step" in n for n in log.notices), log.notices
        assert log.trouble and "cannot be written" in log.trouble
        game = resumed(log)
        game.play(4)                                           # kept in memory, no traceback
        # Only the file beside the mirror refused: the mirror is put right in place (a full
        # card's pages exist), and the steps follow it; else they wait in memory.
        assert (log.written, log.in_memory) == ((35, 0) if where == "mirror rewrite" else (31, 4))
        disk.clear()                                           # the card takes writes again
        game.play(1)
        assert not log.trouble and (log.written, log.in_memory) == (36, 0)
        log.close()
    again = reopened(path)
    assert len(again.steps) == 36 and not again.notices, again.notices   # mirror and steps put right
    again.close()


def resumed(log: TableLog) -> Game:
    """The simulated players' game going on from what ``log`` holds."""
    game = Game.__new__(Game)
    game.log = log
    game.table = resume(SETTINGS, SEED, log.t0_ns, log.steps)
    game.script, game.event = resume_script(3, SEED, SETTINGS, log.steps)
    return game


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS])
def test_the_kiosk_resumes_its_game_on_a_full_or_read_only_card_and_says_the_loss(tmp_path: Path, fault: int) -> None:
    data = tmp_path / "data"
    game_in_progress(data, 20)
    mirror_ahead(data / "table.db", 3)
    disk = Disk(tmp_path)
    disk.arm(0, fault)                                   # every write fails from the start
    with injected(disk):
        said, resumed, session = first_frame(tmp_path, data)
    assert resumed, said                                 # used to be a new game in memory
    assert any("lost its last 3 logged steps" in s for s in said), said
    assert any("the game is resumed" in s and "check the SD card" in s for s in said), said
    assert not any("the game goes on and is kept in memory" in s for s in said), said
    assert not list((data / "aside").glob("*")) if (data / "aside").exists() else True


def test_the_kiosk_resumes_its_game_in_a_real_read_only_folder(tmp_path: Path) -> None:
    """For real, no injection: a game in progress in a folder of mode 0555, the kiosk run as
    ``nobody`` (root may write anywhere): the game is resumed, its loss said, no new game."""
    def prepare(data: Path) -> None:
        game_in_progress(data, 20)
        mirror_ahead(data / "table.db", 2)

    done = kiosk_in_read_only_folder(tmp_path, prepare)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert "Resumed the game" in out and "after 20 logged steps" in out, out[-3000:]
    assert "lost its last 2 logged steps" in out, out[-3000:]
    assert "the game goes on and is kept in memory" not in out, out[-3000:]
    assert out.count("the game is resumed and new steps are kept in memory") == 1, out[-3000:]   # said once


def test_a_log_that_is_a_symbolic_link_loop_is_moved_aside_whole(tmp_path: Path) -> None:
    """move_log used exists(), False for a link loop: the journal said "moved aside" while the
    loop stayed, its WAL and mirror went to aside/ without it, and the new game could not start."""
    from datetime import timezone

    from game.app.kiosk import Kiosk
    from game.app.rigconfig import RigConfig

    kiosk = Kiosk(tmp_path, RigConfig(), lambda: datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    game = Game(reopened(kiosk.current))
    game.play(5)
    game.log.close()
    kiosk.current.unlink()
    kiosk.current.symlink_to(kiosk.current.name)              # table.db -> table.db: a loop
    log = kiosk.open_log(SETTINGS, SEED, 10**12)
    aside = {p.name for p in (tmp_path / "aside").iterdir()}
    assert aside == {"table-20261201-090000.db", "table-20261201-090000.db-mirror"}, aside
    assert (tmp_path / "aside" / "table-20261201-090000.db").is_symlink()     # kept as it was
    assert any("was moved to" in n for n in kiosk.notes), kiosk.notes
    assert not kiosk.current.is_symlink() and log.written == 0 and not log.trouble   # a new game, on disk
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".new")]
    log.close()


def test_an_emptied_log_whose_wal_and_mirror_are_gone_says_losses_cannot_be_ruled_out(tmp_path: Path) -> None:
    """``: > table.db`` with its WAL and mirror deleted used to say the log "held nothing (its
    creation was cut off)": a log is renamed into place only with its tables and its mirror."""
    path = tmp_path / "table.db"
    game = Game(reopened(path))
    game.play(12)
    game.log.close()
    path.write_bytes(b"")
    for suffix in ("-wal", "-shm", "-mirror"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    log = reopened(path)
    assert log.steps == [] and len(log.notices) == 1, log.notices
    assert "is empty and its mirror is missing, so steps lost since step 0 cannot be ruled out" in log.notices[0]
    assert "creation was cut off" not in log.notices[0]
    log.close()


# --- what is in the way is named (hostile retest of issue 21, wording) ---------------------------

def _loop(path: Path) -> None:
    path.symlink_to(path.name)


@pytest.mark.parametrize("shape,named", [("link loop", "is a symbolic link loop (it leads back to itself), not a folder"),
                                         ("fifo", "is a FIFO (named pipe), not a folder")])
def test_a_data_folder_that_is_a_link_loop_or_a_fifo_is_named_as_such(tmp_path: Path, shape: str, named: str) -> None:
    """It used to say "cannot be used (File exists)" and "the folder … does not exist"."""
    from datetime import timezone

    from game.app.kiosk import Kiosk
    from game.app.rigconfig import RigConfig

    data = tmp_path / "data"
    _loop(data) if shape == "link loop" else os.mkfifo(data)
    kiosk = Kiosk(data, RigConfig(), lambda: datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    log = kiosk.open_log(SETTINGS, SEED, 10**12)             # a game in memory: the table plays
    said = " | ".join(kiosk.notes)
    assert f"the data folder {data} {named}" in said, said
    assert "File exists" not in said and "does not exist" not in said, said
    assert "check the SD card" in said
    log.close()
    kiosk.close()


def test_a_leaderboard_that_is_a_fifo_is_named_and_moved_aside(tmp_path: Path) -> None:
    """It used to say "disk I/O error … check the SD card" of a FIFO."""
    from datetime import timezone

    from game.app.kiosk import Kiosk
    from game.app.leaderboard import Leaderboard
    from game.app.rigconfig import RigConfig
    from game.errors import BadTableLog

    os.mkfifo(tmp_path / "leaderboard.db")
    with pytest.raises(BadTableLog, match=r"leaderboard.db is a FIFO \(named pipe\), not a leaderboard file: "
                                          "move it away"):
        Leaderboard(tmp_path / "leaderboard.db")
    kiosk = Kiosk(tmp_path, RigConfig(), lambda: datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    said = " | ".join(kiosk.notes)
    assert "disk I/O error" not in said and "SD card" not in said, said
    assert "the leaderboard could not be read and was moved to" in said, said
    assert (tmp_path / "leaderboard.db").is_file()           # a new leaderboard in its place
    kiosk.close()


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS])
def test_a_torn_last_row_the_card_cannot_drop_is_dropped_before_the_next_step(tmp_path: Path, fault: int) -> None:
    """Dropping a torn last row is a write: on a card that takes none the game is resumed
    without it (said), and it is dropped before the first new step is written, so the chain on
    disk stays whole."""
    import sqlite3

    path = tmp_path / "table.db"
    game = Game(reopened(path))
    game.play(9)
    game.log.close()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE steps SET body = substr(body, 1, 20) WHERE seq = 9")
    con.close()
    disk = Disk(tmp_path)
    disk.arm(0, fault)
    with injected(disk):
        log = reopened(path)                       # used to raise: a new game in the kiosk
        assert len(log.steps) == 8 and log.trouble
        assert any("(step 9) was torn" in n for n in log.notices), log.notices
        game = resumed(log)
        game.play(3)
        assert (log.written, log.in_memory) == (8, 3)
        disk.clear()
        game.play(1)
        assert (log.written, log.in_memory) == (12, 0) and not log.trouble
        log.close()
    again = reopened(path)
    assert len(again.steps) == 12 and not again.notices, again.notices
    again.close()


def test_a_log_whose_main_file_is_gone_but_its_wal_is_there_is_refused_as_lost(tmp_path: Path) -> None:
    """Reading needs no write, but a log whose main file is gone must still be refused as lost
    (not taken for the card failing, which would keep a new game in memory for ever)."""
    import sqlite3

    from game.errors import BadTableLog

    path = tmp_path / "table.db"
    game = Game(reopened(path))
    game.play(6)
    game.log.close()
    with sqlite3.connect(path) as con:     # a WAL that holds steps, as a kill leaves it
        con.execute("PRAGMA wal_autocheckpoint=0")
        con.execute("INSERT INTO steps(body, crc) SELECT body, crc FROM steps WHERE seq = 6")
        os.link(str(path) + "-wal", tmp_path / "kept-wal")
    con.close()
    path.unlink()
    os.replace(tmp_path / "kept-wal", str(path) + "-wal")
    with pytest.raises(BadTableLog, match=r"table.db is empty, but its mirror says game .* had logged 6 steps"):
        reopened(path)
    assert not path.exists()               # nothing was made in its place


def test_a_mirror_rewrite_whose_page_the_card_refuses_leaves_nothing_behind(tmp_path: Path) -> None:
    """A full card makes the file beside the mirror but takes none of its page: the empty
    ``-mirror.new`` used to stay in the data folder."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    killed_with_mirror_ahead(first / "table.db", 7, 2)
    shutil.copytree(first, second)
    dry = Disk(second)
    with injected(dry):
        reopened(second / "table.db").close()
    [write] = [op.index for op in dry.ops if op.kind == "write" and op.role == "table.db-mirror.new"]
    disk = Disk(first)
    disk.arm(write, errno.ENOSPC, only="table.db-mirror.new")
    with injected(disk):
        log = reopened(first / "table.db")
    assert disk.failed == 1 and len(log.steps) == 7
    assert any("lost its last 2 logged steps" in n for n in log.notices), log.notices
    assert not (first / "table.db-mirror.new").exists()
    log.close()
