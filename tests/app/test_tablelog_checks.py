"""The table log's checks one by one: atomic creation, the CRC chain, the mirror, and every
refusal and notice it can give (each one sentence)."""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from game.app.kiosk import Kiosk
from game.app.rigconfig import RigConfig
from game.app.tablelog import LOG_SUFFIXES, Mirrored, TableLog, mirror_path, read_mirror
from game.controller import TableSettings, Tick, new_table, step
from game.errors import BadTableLog
from game.inputs import Press

SETTINGS = TableSettings(seats=3, clock="sim")
T0 = 10**12


def logged(db: Path, n: int, over: int | None = None) -> TableLog:
    """A log of ``n`` steps (players pressing to join, the clock ticking), left open."""
    log = TableLog.open(db, SETTINGS, 5, T0)
    table = new_table(SETTINGS, 5, T0)
    for i in range(n):
        event = Press(i % 3, T0 + i * 10**6, "sim") if i % 2 == 0 else Tick(T0 + i * 10**6)
        made = step(table, event)
        log.append(event, made)
        table = made.table
    return log


def reopen(db: Path) -> TableLog:
    return TableLog.open(db, SETTINGS, 5, T0)


def rows(db: Path) -> list[tuple[int, str, int]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT seq, body, crc FROM steps ORDER BY seq").fetchall()


def set_mirror(db: Path, state: Mirrored) -> None:
    page = state.pack().ljust(4096, b"\0") + state.pack()
    mirror_path(db).write_bytes(page)


# --- creation ----------------------------------------------------------------------------------

def test_a_new_log_is_built_beside_and_renamed_with_its_mirror(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    (tmp_path / "table.db.new").write_bytes(b"left by a creation that was killed")
    log = TableLog.open(db, SETTINGS, 5, T0)
    assert log.notices == () and log.steps == [] and log.count == 0
    log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.db", "table.db-mirror"]
    mirrored, problem = read_mirror(db)
    assert problem == "" and mirrored is not None and mirrored.steps == 0 and mirrored.game == log.game


def test_the_database_an_older_rig_left_when_killed_while_creating_starts_anew(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    old = sqlite3.connect(db, isolation_level=None)   # version 1 died right after this
    old.execute("PRAGMA journal_mode=WAL")
    old.close()
    assert db.stat().st_size == 4096
    log = reopen(db)
    # Its mirror is missing, as a new rig's emptied log whose mirror was lost: said alike
    # (issue 21, hostile retest: "its creation was cut off" was said of an emptied game too).
    assert log.notices == (f"the log {db} holds no tables and its mirror is missing, so steps lost since step 0 "
                           "cannot be ruled out (an older rig killed while creating a log leaves such a file "
                           "too): a new game was started",)
    log.close()
    db.write_bytes(b"")                                # or an empty file
    mirror_path(db).unlink()
    log = reopen(db)
    assert "is empty and its mirror is missing, so steps lost since step 0 cannot be ruled out" in log.notices[0]
    log.close()


def test_a_folder_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadTableLog, match=r"cannot be created: the folder '.*nowhere' does not exist; "
                                          "give a --db path in a folder that exists"):
        TableLog.open(tmp_path / "nowhere" / "table.db", SETTINGS, 5, T0)


# --- steps, the chain and the mirror -----------------------------------------------------------

def test_steps_resume_with_their_chain_and_the_mirror_follows(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    log = logged(db, 9)
    log.close()
    mirrored, _ = read_mirror(db)
    assert mirrored is not None and mirrored.steps == 9 and mirrored.last_crc == rows(db)[-1][2]
    again = reopen(db)
    assert len(again.steps) == 9 and again.notices == ()
    bodies = [json.loads(b) for _, b, _ in rows(db)]
    assert [b["step"] for b in bodies] == list(range(1, 10))
    assert [b["prev"] for b in bodies[1:]] == [crc for _, _, crc in rows(db)[:-1]]
    again.close()


def test_the_mirror_announces_each_step_before_its_commit(tmp_path: Path) -> None:
    """Issue 21 (defect 2): a kill between a commit and its mirror write, then a WAL that lost
    that step, resumed one step short without a word. The mirror now counts a step before its
    commit, so that step (committed or not) is said, exactly."""
    db = tmp_path / "table.db"
    log = logged(db, 6)
    game = log.game
    log.close()
    assert read_mirror(db)[0] == Mirrored(game, 6, rows(db)[5][2])
    with sqlite3.connect(db) as con:   # the 6th step's commit never made it (or was lost since)
        con.execute("DELETE FROM steps WHERE seq = 6")
    again = reopen(db)
    assert again.notices == (f"{db} (game {game.hex()}) lost its last 1 logged step (its mirror counted 6): "
                             "the game resumes after step 5",)
    again.close()
    assert reopen(db).notices == ()


def test_an_older_rigs_mirror_one_step_behind_its_log_is_normal(tmp_path: Path) -> None:
    """A version 2 log of an older rig: its mirror was written after each commit, so a kill
    between the two left the log one step ahead; such a log still resumes quietly."""
    db = tmp_path / "table.db"
    log = logged(db, 6)
    game = log.game
    log.close()
    set_mirror(db, Mirrored(game, 5, rows(db)[4][2], layout=1))
    again = reopen(db)
    assert len(again.steps) == 6 and again.notices == ()
    again.close()
    assert read_mirror(db)[0] == Mirrored(game, 6, rows(db)[5][2])
    set_mirror(db, Mirrored(game, 5, rows(db)[4][2]))   # this rig's mirror never lags its log
    again = reopen(db)
    assert "counted 5 steps, not the 6 in the log, so it is older than the log" in again.notices[0]
    again.close()


def test_lost_last_steps_are_said_and_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    log = logged(db, 12)
    game = log.game.hex()
    log.close()
    with sqlite3.connect(db) as con:   # what a lost WAL leaves: an earlier, consistent log
        con.execute("DELETE FROM steps WHERE seq > 8")
    again = reopen(db)
    assert again.notices == (f"{db} (game {game}) lost its last 4 logged steps (its mirror counted "
                             "12): the game resumes after step 8",)
    assert len(again.steps) == 8
    again.close()
    assert reopen(db).notices == ()   # said once; the mirror now counts 8


def test_a_torn_last_row_is_dropped_and_said_once(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    logged(db, 7).close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE steps SET body = substr(body, 1, 20) WHERE seq = 7")
    again = reopen(db)
    assert again.notices == (f"the last record of {db} (step 7) was torn (checksum mismatch) and was "
                             "dropped; the game resumes after step 6",)
    assert len(again.steps) == 6
    again.close()


@pytest.mark.parametrize(("change", "why"), [
    ("UPDATE steps SET crc = crc + 1 WHERE seq = 3", r"step 3 of .* is damaged \(checksum mismatch\) and 4 steps follow it"),
    ("DELETE FROM steps WHERE seq = 3", r"step 3 of .* is damaged \(it says it is step 4: a step is "
                                        r"missing or out of order\) and 3 steps follow it"),
])
def test_a_damaged_or_missing_step_before_the_last_is_refused(tmp_path: Path, change: str, why: str) -> None:
    db = tmp_path / "table.db"
    logged(db, 7).close()
    with sqlite3.connect(db) as con:
        con.execute(change)
    with pytest.raises(BadTableLog, match=why + ": the log cannot be resumed safely"):
        reopen(db)


def test_a_step_rewritten_with_a_matching_crc_breaks_the_chain(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    logged(db, 7).close()
    seq, body, _ = rows(db)[2]
    new = body.replace('"t_ns":', '"t_ns":1')
    with sqlite3.connect(db) as con:
        con.execute("UPDATE steps SET body = ?, crc = ? WHERE seq = ?", (new, zlib.crc32(new.encode()), seq))
    with pytest.raises(BadTableLog, match=r"step 4 of .* is damaged \(it does not follow the step before it\)"):
        reopen(db)


def test_a_last_step_rewritten_with_a_matching_crc_is_caught_by_the_mirror(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    logged(db, 7).close()
    seq, body, _ = rows(db)[-1]
    new = body.replace('"t_ns":', '"t_ns":1')
    with sqlite3.connect(db) as con:
        con.execute("UPDATE steps SET body = ?, crc = ? WHERE seq = ?", (new, zlib.crc32(new.encode()), seq))
    with pytest.raises(BadTableLog, match=r"step 7 of .* is not the step that was logged \(its checksum "
                                          r"differs from the mirror's\): the log cannot be resumed safely"):
        reopen(db)


@pytest.mark.parametrize(("spoil", "said"), [
    (lambda db: mirror_path(db).unlink(), "is missing"),
    (lambda db: mirror_path(db).write_bytes(b"\0" * 8192), "is damaged"),
])
def test_a_missing_or_damaged_mirror_is_said(tmp_path: Path, spoil: object, said: str) -> None:
    db = tmp_path / "table.db"
    logged(db, 5).close()
    spoil(db)  # type: ignore[operator]
    again = reopen(db)
    assert again.notices == (f"the mirror of {db} (game {again.game.hex()}) {said}, so steps lost at the "
                             "end cannot be ruled out: the game resumes after step 5",)
    again.close()
    assert reopen(db).notices == ()


def test_an_older_mirror_or_one_of_another_game_is_said(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    log = logged(db, 5)
    game = log.game
    log.close()
    set_mirror(db, Mirrored(game, 2, rows(db)[1][2]))
    again = reopen(db)
    assert again.notices == (f"the mirror of {db} (game {game.hex()}) counted 2 steps, not the 5 in the log, "
                             "so it is older than the log and steps lost at the end cannot be ruled "
                             "out: the game resumes after step 5",)
    again.close()
    set_mirror(db, Mirrored(b"\1" * 8, 9, 0))
    again = reopen(db)
    assert again.notices == (f"the mirror of {db} (game {game.hex()}) belongs to game 0101010101010101, so "
                             "steps lost at the end cannot be ruled out: the game resumes after step 5",)
    again.close()


def test_a_log_emptied_under_its_mirror_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    log = logged(db, 5)
    game = log.game.hex()
    log.close()
    db.write_bytes(b"")
    with pytest.raises(BadTableLog, match=rf"{db} is empty, but its mirror says game {game} had logged "
                                          r"5 steps in it: the log was lost; move it aside \(with its "
                                          "-mirror file\\) to start a new game"):
        reopen(db)


def test_a_missing_log_is_said_unless_its_game_was_over(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    log = logged(db, 5)
    game = log.game.hex()
    log.close()
    db.unlink()
    again = reopen(db)
    assert again.notices == (f"the log {db} of game {game} (5 steps) was missing: a new game was started",)
    again.close()
    db.unlink()
    set_mirror(db, Mirrored(b"\2" * 8, 300, 0, over=True))   # filed away after its game over
    again = reopen(db)
    assert again.notices == () and again.steps == []
    again.close()


# --- what is not a log of this version ---------------------------------------------------------

def test_a_log_of_version_1_is_refused_with_the_reason(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    logged(db, 3).close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = '1' WHERE key = 'version'")
    with pytest.raises(BadTableLog, match="was written in table log version 1, this rig reads version 2: "
                                          "finish that game with the matching version or start a new log"):
        reopen(db)


@pytest.mark.parametrize(("sql", "why"), [
    ("UPDATE meta SET value = '6' WHERE key = 'seed'", r"has damaged settings \(checksum mismatch\)"),
    ("UPDATE meta SET value = 'zz' WHERE key = 'game'", r"has damaged settings \(checksum mismatch\)"),
    ("UPDATE meta SET value = 'other' WHERE key = 'format'", r"is not a table log \(format 'other'\)"),
    ("UPDATE meta SET value = X'fffe' WHERE key = 'seed'", r"has a damaged meta table \(not text\)"),
    ("DROP TABLE meta", r"is not a table log \(no meta table\)"),
])
def test_a_damaged_meta_table_is_refused(tmp_path: Path, sql: str, why: str) -> None:
    db = tmp_path / "table.db"
    logged(db, 3).close()
    with sqlite3.connect(db) as con:
        con.execute(sql)
    with pytest.raises(BadTableLog, match=why):
        reopen(db)


def test_a_damaged_database_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    logged(db, 40).close()
    data = bytearray(db.read_bytes())
    data[4096 + 8: 4096 + 40] = b"\xff" * 32           # the header of the second page
    db.write_bytes(bytes(data))
    with pytest.raises(BadTableLog) as info:
        reopen(db)
    assert "\n" not in str(info.value)
    assert "is damaged (SQLite:" in str(info.value) or "is not a table log this rig can read" in str(info.value)
    db.write_bytes(b"not a database at all" * 300)
    with pytest.raises(BadTableLog, match=r"is not a table log this rig can read \(file is not a database\)"):
        reopen(db)


# --- the kiosk ---------------------------------------------------------------------------------

def test_the_kiosk_shows_the_notices_and_moves_every_file_of_a_bad_log_aside(tmp_path: Path) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(), lambda: datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    log = logged(kiosk.current, 6)
    log.close()
    with sqlite3.connect(kiosk.current) as con:
        con.execute("DELETE FROM steps WHERE seq > 4")
    log = kiosk.open_log(SETTINGS, 5, T0)
    assert len(log.steps) == 4 and kiosk.notes == list(log.notices) and "lost its last 2 logged steps" in kiosk.notes[0]
    log.close()
    with sqlite3.connect(kiosk.current) as con:
        con.execute("UPDATE steps SET crc = crc + 1 WHERE seq = 1")
    kiosk.notes.clear()
    log = kiosk.open_log(SETTINGS, 5, T0)
    assert log.steps == [] and log.notices == ()
    assert kiosk.notes[0].startswith("the game log could not be resumed and was moved to ")
    moved = {p.name for p in (tmp_path / "aside").iterdir()}
    assert {"table-20261201-090000.db", "table-20261201-090000.db-mirror"} <= moved
    assert moved <= {f"table-20261201-090000.db{suffix}" for suffix in LOG_SUFFIXES}
    log.close()
    assert read_mirror(kiosk.current)[0] is not None   # the new game's own


def test_a_log_whose_files_cannot_be_written_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    logged(db, 3).close()
    mirror_path(db).unlink()
    mirror_path(db).mkdir()          # something in the way of its mirror
    with pytest.raises(BadTableLog, match=r"table.db-mirror is a folder, not the mirror file of the log .*: "
                                          "move that folder away"):
        reopen(db)      # used to say "cannot be opened or created (Is a directory)": named now (issue 21)


def test_the_mirror_marks_a_game_over_so_filing_its_log_away_is_quiet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game.app.cli import main

    db = tmp_path / "table.db"
    assert main(["table", "--players", "3", "--seed", "4", "--db", str(db), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    mirrored, _ = read_mirror(db)
    assert mirrored is not None and mirrored.over and mirrored.steps == steps
    db.rename(tmp_path / "filed.db")      # what the kiosk does with a finished game's log
    assert main(["table", "--players", "3", "--seed", "4", "--db", str(db), "--json"]) == 0
    assert "note:" not in capsys.readouterr().err


# --- issue 21: no silent loss, and no blocking on what is not a file ----------------------------

def test_a_lost_wal_and_mirror_with_nothing_checkpointed_is_said(tmp_path: Path) -> None:
    """Issue 21 (defect 2): the WAL and the mirror deleted together while the file held no
    checkpointed step: the game restarted as new without a word (200 steps gone). The mirror is
    now written before the log is renamed into place, so a log without one lost it."""
    db = tmp_path / "table.db"
    log = logged(db, 200)
    game = log.game.hex()
    killed = db.read_bytes()       # the file as a kill leaves it: every step still in the WAL
    log.close()
    db.write_bytes(killed)
    for suffix in ("-wal", "-shm", "-mirror"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    again = reopen(db)
    assert again.steps == []
    assert again.notices == (f"the mirror of {db} (game {game}) is missing, so steps lost at the end cannot "
                             "be ruled out: the game resumes after step 0",)
    again.close()


@pytest.mark.parametrize("spoil", ["fifo", "emptied"])
def test_a_fifo_or_emptied_mirror_is_said_without_blocking(tmp_path: Path, spoil: str) -> None:
    """Issue 21 (defect 4): a FIFO at ``<log>-mirror`` hung ``table --db`` (12/12)."""
    db = tmp_path / "table.db"
    logged(db, 4).close()
    mirror_path(db).unlink()
    if spoil == "fifo":
        os.mkfifo(mirror_path(db))
    else:
        mirror_path(db).write_bytes(b"")
    assert read_mirror(db) == (None, "a FIFO (named pipe), not a file" if spoil == "fifo" else "empty")
    again = reopen(db)
    what = "a FIFO (named pipe), not a file" if spoil == "fifo" else "empty"
    assert again.notices == (f"the mirror of {db} (game {again.game.hex()}) is {what}, so steps lost at the "
                             "end cannot be ruled out: the game resumes after step 4",)
    again.close()
    assert mirror_path(db).is_file() and read_mirror(db)[0] is not None


@pytest.mark.parametrize(("suffix", "make", "said"), [
    ("", os.mkfifo, "is a FIFO (named pipe), not a table log file"),
    ("-wal", os.mkfifo, "is a FIFO (named pipe), not a table log file"),
    ("-shm", os.mkfifo, "is a FIFO (named pipe), not a table log file"),
    ("", os.mkdir, "is a folder, not a table log file"),
    ("", lambda p: os.symlink("/dev/null", p), "is a device, not a table log file"),
    ("", lambda p: os.symlink(p, p), "is a symbolic link loop: give another --db path or remove the link"),
])
def test_a_log_that_is_not_a_file_is_refused_in_one_sentence(
        tmp_path: Path, suffix: str, make: Callable[[Path], None], said: str) -> None:
    db = tmp_path / "table.db"
    if suffix:
        logged(db, 2).close()
    make(Path(f"{db}{suffix}"))
    with pytest.raises(BadTableLog) as info:
        reopen(db)
    assert str(info.value).startswith(f"{db}{suffix} {said}") and "\n" not in str(info.value)


def test_table_with_a_fifo_mirror_plays_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game.app.cli import main

    db = tmp_path / "table.db"
    os.mkfifo(mirror_path(db))
    assert main(["table", "--players", "3", "--seed", "4", "--db", str(db), "--json"]) == 0
    assert "note: the log" in capsys.readouterr().err   # the log was missing, its mirror a FIFO
    assert mirror_path(db).is_file()
