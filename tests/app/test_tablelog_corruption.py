"""Corruption campaign on the table log: logs caught the way a pulled plug leaves them (the WAL
not yet checkpointed, no ``-shm``), then damaged one way at a time. Every trial must end refused
with a reason or resumed on an exact prefix of the uninterrupted game, and a resume that is
shorter than what was logged must say so: zero silent losses, zero mismatches."""

from __future__ import annotations

import collections
import random
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.tablelog import LOG_SUFFIXES, TableLog
from game.controller import TableSettings, new_table, step
from game.controller.resume import LoggedStep, resume
from game.errors import BadTableLog
from game.sim.presses import T0_NS

SETTINGS = TableSettings(seats=3, clock="sim")


@pytest.fixture
def fast_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder on tmpfs when there is one: the trials check what is on the files, not how
    fast the disk syncs them (a pulled plug is modelled by the corruptions themselves)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and shm.stat().st_mode & 0o002:
        folder = Path(tempfile.mkdtemp(prefix="tablelog-", dir=shm))
        yield folder
        shutil.rmtree(folder, ignore_errors=True)
    else:
        yield tmp_path


def reference(folder: Path, players: int, seed: int) -> tuple[TableSettings, list[LoggedStep]]:
    """The uninterrupted game's steps."""
    db = folder / f"ref-{seed}.db"
    assert main(["table", "--players", str(players), "--seed", str(seed), "--db", str(db), "--json"]) == 0
    log = TableLog.open(db, SETTINGS, 0, 0)
    try:
        return log.settings, log.steps
    finally:
        log.close()


def snapshot(folder: Path, settings: TableSettings, seed: int, refs: list[LoggedStep],
             at: list[int], reopen: int) -> list[Path]:
    """Log the game's first steps, copying the files as a crash would leave them at each step
    in ``at``; the log is closed and reopened at ``reopen`` so that the earlier steps are in
    the database file and the later ones only in its WAL."""
    db = folder / "live" / "table.db"
    db.parent.mkdir()
    log = TableLog.open(db, settings, seed, T0_NS)
    table = new_table(settings, seed, T0_NS)
    images = []
    for n, ref in enumerate(refs[: max(at)], start=1):
        made = step(table, ref.input)
        log.append(ref.input, made)
        table = made.table
        if n == reopen:
            log.close()
            log = TableLog.open(db, settings, seed, T0_NS)
        if n in at:
            image = folder / f"image-{n}"
            image.mkdir()
            for suffix in ("", "-wal", "-mirror"):   # -shm is memory: lost with the power
                if Path(f"{db}{suffix}").exists():
                    shutil.copyfile(f"{db}{suffix}", image / f"table.db{suffix}")
            images.append(image)
    log.close()
    return images


# --- the corruptions ---------------------------------------------------------------------------

Corrupt = Callable[[Path, random.Random, Path], None]


def _flip(path: Path, rng: random.Random, flips: int) -> None:
    data = bytearray(path.read_bytes())
    for _ in range(flips):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def _truncate(path: Path, size: int) -> None:
    with open(path, "r+b") as f:
        f.truncate(size)


def wal_deleted(db: Path, rng: random.Random, older: Path) -> None:
    Path(f"{db}-wal").unlink()


def wal_lost(db: Path, rng: random.Random, older: Path) -> None:
    """The WAL's last blocks never reached the disk: zeros from some point to its end."""
    wal = Path(f"{db}-wal")
    data = wal.read_bytes()
    cut = rng.randrange(len(data))
    wal.write_bytes(data[:cut] + bytes(len(data) - cut))


def wal_truncated(db: Path, rng: random.Random, older: Path) -> None:
    wal = Path(f"{db}-wal")
    _truncate(wal, rng.randrange(wal.stat().st_size))


def wal_damaged(db: Path, rng: random.Random, older: Path) -> None:
    _flip(Path(f"{db}-wal"), rng, rng.randint(1, 4))


def row_removed(db: Path, rng: random.Random, older: Path) -> None:
    with sqlite3.connect(db) as con:
        seqs = [s for (s,) in con.execute("SELECT seq FROM steps ORDER BY seq")]
        con.execute("DELETE FROM steps WHERE seq = ?", (rng.choice(seqs[1:-1]),))


def row_modified(db: Path, rng: random.Random, older: Path) -> None:
    """One character of a row's body changed; half the time its own CRC is made to match."""
    with sqlite3.connect(db) as con:
        seq, body = rng.choice(con.execute("SELECT seq, body FROM steps").fetchall())
        i = rng.randrange(len(body))
        new = body[:i] + ("1" if body[i] != "1" else "2") + body[i + 1:]
        crc = zlib.crc32(new.encode()) if rng.random() < 0.5 else zlib.crc32(body.encode())
        con.execute("UPDATE steps SET body = ?, crc = ? WHERE seq = ?", (new, crc, seq))


def db_emptied(db: Path, rng: random.Random, older: Path) -> None:
    """The database replaced by an empty file (half the time the WAL is gone too)."""
    _truncate(db, 0)
    if rng.random() < 0.5:
        Path(f"{db}-wal").unlink()


def db_truncated(db: Path, rng: random.Random, older: Path) -> None:
    _truncate(db, rng.randrange(db.stat().st_size))


def db_damaged(db: Path, rng: random.Random, older: Path) -> None:
    _flip(db, rng, rng.randint(1, 8))


def mirror_deleted(db: Path, rng: random.Random, older: Path) -> None:
    Path(f"{db}-mirror").unlink()


def mirror_damaged(db: Path, rng: random.Random, older: Path) -> None:
    """Bytes flipped in one of its two slots, or in both."""
    mirror = Path(f"{db}-mirror")
    data = bytearray(mirror.read_bytes())
    for offset in rng.sample((0, 4096), rng.randint(1, 2)):
        data[offset + rng.randrange(32)] ^= 1 << rng.randrange(8)
    mirror.write_bytes(bytes(data))


def mirror_older(db: Path, rng: random.Random, older: Path) -> None:
    """The mirror of an earlier moment (a backup, a lost write of the whole file)."""
    shutil.copyfile(older / "table.db-mirror", f"{db}-mirror")


def anything_flipped(db: Path, rng: random.Random, older: Path) -> None:
    """Random byte flips anywhere in the log's files."""
    parts = [Path(f"{db}{s}") for s in LOG_SUFFIXES if Path(f"{db}{s}").exists()]
    for _ in range(rng.randint(1, 6)):
        _flip(rng.choice(parts), rng, 1)


KINDS: list[Corrupt] = [wal_deleted, wal_lost, wal_truncated, wal_damaged, row_removed, row_modified,
                        db_emptied, db_truncated, db_damaged, mirror_deleted, mirror_damaged,
                        mirror_older, anything_flipped]


def outcome(db: Path, settings: TableSettings, refs: list[LoggedStep], logged: int) -> str:
    """refused / intact / intact+notice / recovered+notice; a silent loss or a mismatch fails."""
    try:
        log = TableLog.open(db, settings, 0, 0)
    except BadTableLog as exc:
        assert "\n" not in str(exc)
        return "refused"
    try:
        steps, notices = log.steps, log.notices
        if steps != refs[: len(steps)]:
            pytest.fail(f"{db}: resumed steps are not the game's first {len(steps)}: {notices}")
        try:
            resume(log.settings, log.seed, log.t0_ns, steps)
        except BadTableLog:
            return "refused"
    finally:
        log.close()
    if len(steps) < logged and not notices:
        pytest.fail(f"{db}: {logged} steps were logged, {len(steps)} resumed without a word")
    if len(steps) < logged:
        if not steps and any("game over) holds nothing" in n and "a new game was started" in n for n in notices):
            assert logged == len(refs), notices          # the reference game is played to its end
            return "anew+notice"   # a finished game's log emptied: nothing was left to resume
        assert any(f"resumes after step {len(steps)}" in n for n in notices), notices
        return "recovered+notice"
    assert len(steps) == logged
    return "intact+notice" if notices else "intact"


def test_no_corruption_loses_a_step_silently(fast_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(12)
    figures: dict[str, collections.Counter[str]] = {k.__name__: collections.Counter() for k in KINDS}
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        folder = fast_dir / f"game-{seed}"
        folder.mkdir()
        settings, refs = reference(folder, players, seed)
        capsys.readouterr()
        at = sorted(rng.sample(range(len(refs) // 3, len(refs) + 1), 3))
        images = snapshot(folder, settings, seed, refs, at, reopen=rng.randrange(2, at[0]))
        for kind in KINDS:
            for trial in range(9):
                index = trial % len(images)
                trial_dir = folder / f"{kind.__name__}-{trial}"
                shutil.copytree(images[index], trial_dir)
                db = trial_dir / "table.db"
                kind(db, rng, images[max(0, index - 1)] if index else images[0])
                figures[kind.__name__][outcome(db, settings, refs, at[index])] += 1
    report = "; ".join(f"{k}: {dict(v)}" for k, v in figures.items())
    print(f"\ncorruption campaign ({sum(sum(c.values()) for c in figures.values())} trials): {report}")
    assert sum(sum(c.values()) for c in figures.values()) >= 300
    # Each kind of loss that the log is built to see is seen, not just survived.
    assert figures["wal_deleted"]["recovered+notice"] > 0
    assert figures["row_removed"]["refused"] + figures["row_removed"]["recovered+notice"] == 27
    assert figures["mirror_deleted"]["intact+notice"] == 27
