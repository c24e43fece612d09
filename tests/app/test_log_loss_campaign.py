"""Lost-companion campaign on the table log (issue 21, defect 2: "silent loss"). A log is caught
the way a SIGKILL or a pulled plug leaves it — at 0, 1, 2, 5 steps, with its first steps
checkpointed into the main file, at SQLite's own checkpoint and one step past it, at 600 steps,
closed cleanly, and killed between a step's mirror and its commit or right after the commit —
and then its companion files are lost or spoiled in every combination: the WAL (intact,
missing, emptied, a byte damaged in a frame, its second half zeroed), the ``-shm`` (intact,
missing, emptied, damaged) and the mirror (intact, missing, emptied, its newest slot, its
older slot or both slots damaged).

Every trial must resume on an exact prefix of the steps made (or be refused in one line), and
a resume that is shorter than what was made must be said: with the exact number of steps lost
whenever the mirror can count them (a damaged slot leaves "n or n+1"), and only when nothing
can count them (no good mirror slot) with the step after which they may have been lost. A
second open after that is quiet: said once."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from game.app.tablelog import TableLog, read_mirror
from game.controller import TableSettings, Tick, new_table, step
from game.controller.resume import LoggedStep
from game.errors import BadTableLog
from game.inputs import Press

SETTINGS = TableSettings(seats=3, clock="sim")
T0 = 10**12
SEED = 5
PAGE = 4096
FRAME = 24 + PAGE                   # a WAL frame: its header, then one page
#: SQLite checkpoints its WAL by itself at 1000 pages: with these steps, while appending this one.
AUTO_CHECKPOINT_STEP = 485


def event(i: int) -> Press | Tick:
    return Press(i % 3, T0 + i * 10**6, "sim") if i % 2 == 0 else Tick(T0 + i * 10**6)


@dataclass(frozen=True)
class State:
    """The files of a log as a crash left them, and how many steps had been made."""

    name: str
    folder: Path
    made: int          # steps the table made (the last perhaps being written when it stopped)
    live: bool         # killed while open (its WAL and -shm are on disk)


class Killed(BaseException):
    """Stands for a SIGKILL at a chosen point: nothing after it runs."""


class KillAround:
    """The log's SQLite connection, with the files copied as a SIGKILL leaves them just before
    or just after the commit of the next step (the page cache survives a kill)."""

    def __init__(self, real: sqlite3.Connection, db: Path, image: Path, after: bool) -> None:
        self.real, self.db, self.image, self.after = real, db, image, after

    def execute(self, sql: str, *args: Any) -> Any:
        if not sql.startswith("INSERT INTO steps"):
            return self.real.execute(sql, *args)
        wal = Path(f"{self.db}-wal")
        self.wal_before = wal.stat().st_size if wal.exists() else 0
        if self.after:
            self.real.execute(sql, *args)
        copy_files(self.db, self.image)
        raise Killed

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def copy_files(db: Path, image: Path) -> None:
    image.mkdir()
    for suffix in ("", "-wal", "-shm", "-mirror"):
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", image / f"table.db{suffix}")


def play(folder: Path, at: list[int], reopen: int = 0, close: bool = False,
         kill: str = "") -> tuple[list[LoggedStep], dict[int, Path]]:
    """Log ``max(at)`` steps, copying the files at each count in ``at`` (the log open, as a
    kill leaves them); ``reopen``: closed and opened again there (its steps checkpointed into
    the file); ``close``: closed cleanly at the end and copied; ``kill``: "before"/"after" the
    commit of one step more."""
    db = folder / "live" / "table.db"
    db.parent.mkdir(parents=True)
    log = TableLog.open(db, SETTINGS, SEED, T0)
    table = new_table(SETTINGS, SEED, T0)
    made: list[LoggedStep] = []
    images: dict[int, Path] = {}
    if 0 in at:
        copy_files(db, images.setdefault(0, folder / "at-0"))
    for i in range(max(at)):
        ev = event(i)
        step_made = step(table, ev)
        log.append(ev, step_made)
        table = step_made.table
        made.append(LoggedStep(ev, step_made.commands, step_made.events))
        if i + 1 == reopen:
            log.close()
            log = TableLog.open(db, SETTINGS, SEED, T0)
        if i + 1 in at:
            copy_files(db, images.setdefault(i + 1, folder / f"at-{i + 1}"))
    if kill:
        ev = event(max(at))
        step_made = step(table, ev)
        made.append(LoggedStep(ev, step_made.commands, step_made.events))
        real = log._db
        assert real is not None
        log._db = KillAround(real, db, folder / f"killed-{kill}", after=kill == "after")  # type: ignore[assignment]
        with pytest.raises(Killed):
            log.append(ev, step_made)
        images[-1] = folder / f"killed-{kill}"
        real.close()
        os.close(log._mirror_fd)
        return made, images
    log.close()
    if close:
        copy_files(db, images.setdefault(-1, folder / "closed"))
    return made, images


# --- what is done to each companion file ---------------------------------------------------------

def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    if data:
        data[min(offset, len(data) - 1)] ^= 0x5A
        path.write_bytes(bytes(data))


def live_frames(data: bytes) -> int:
    """The WAL's frames of its current generation (a restarted WAL has older ones after them,
    with other salts): the ones SQLite reads."""
    frames = 0
    while 32 + (frames + 1) * FRAME <= len(data):
        header = 32 + frames * FRAME
        if data[header + 8:header + 16] != data[16:24]:
            break
        frames += 1
    return max(1, frames)


def wal_damaged(path: Path) -> None:
    """One byte of a page in the middle frame that SQLite reads: it drops that frame's commit
    and all after."""
    frames = live_frames(path.read_bytes())
    _flip(path, 32 + (frames // 2) * FRAME + 24 + 1000)


def wal_half(path: Path) -> None:
    """The second half of what SQLite reads never reached the disk (zeros), as a pulled plug or
    a lying card leaves it."""
    data = path.read_bytes()
    cut = min(len(data), 32 + live_frames(data) * FRAME // 2)
    path.write_bytes(data[:cut] + bytes(len(data) - cut))


def shm_damaged(path: Path) -> None:
    for offset in (0, 40, 100, 200):
        _flip(path, offset)


def slot_damaged(newest: bool) -> Callable[[Path], None]:
    def spoil(path: Path) -> None:
        data = bytearray(path.read_bytes())
        good = [(int.from_bytes(data[o + 16:o + 24], "little"), o) for o in (0, PAGE)]
        offset = max(good)[1] if newest else min(good)[1]
        if good[0][0] == good[1][0]:      # both slots say the same (a new log): the first is "newest"
            offset = 0 if newest else PAGE
        data[offset + 20] ^= 0x01
        path.write_bytes(bytes(data))
    return spoil


def both_slots_damaged(path: Path) -> None:
    slot_damaged(True)(path)
    slot_damaged(False)(path)


def missing(path: Path) -> None:
    path.unlink()


def emptied(path: Path) -> None:
    path.write_bytes(b"")


Spoil = Callable[[Path], None] | None
WAL: dict[str, Spoil] = {"intact": None, "missing": missing, "emptied": emptied, "damaged": wal_damaged,
                         "half-lost": wal_half}
SHM: dict[str, Spoil] = {"intact": None, "missing": missing, "emptied": emptied, "damaged": shm_damaged}
MIRROR: dict[str, Spoil] = {"intact": None, "missing": missing, "emptied": emptied,
                            "newest slot damaged": slot_damaged(True),
                            "older slot damaged": slot_damaged(False), "both slots damaged": both_slots_damaged}
#: Nothing can count the steps: the only notice that may then say "since", not "how many".
UNCOUNTED = {"missing", "emptied", "both slots damaged"}


# --- the oracle ----------------------------------------------------------------------------------

LOST = re.compile(r"lost its last (\d+) logged steps? \(its mirror counted (\d+)\): the game resumes after step (\d+)$")
LOST_OR = re.compile(r"lost its last (\d+) or (\d+) steps \(its mirror counted (\d+), and one of its two slots is "
                     r"damaged\): the game resumes after step (\d+)$")
MAYBE_ONE = re.compile(r"is damaged, so step (\d+) may have been lost: the game resumes after step (\d+)$")
TORN = re.compile(r"\(step (\d+)\) was torn .* the game resumes after step (\d+)$")
SINCE = re.compile(r"so steps lost at the end cannot be ruled out: the game resumes after step (\d+)$")


def judge(notices: tuple[str, ...], resumed: int, made: int, mirror: str) -> str:
    """Fails unless the notices account exactly for ``made - resumed`` lost steps; returns the
    kind of outcome."""
    lost = made - resumed
    assert lost >= 0, f"{resumed} steps resumed, only {made} were made"
    if lost == 0:
        if mirror == "intact":
            assert notices == (), notices     # nothing lost, nothing spoiled that counts
        return "identical+notice" if notices else "identical"
    assert notices, f"{made} steps made, {resumed} resumed without a word"
    for notice in notices:
        if found := LOST.search(notice):
            k, counted, after = map(int, found.groups())
            assert (k, counted, after) == (lost, made, resumed), notice
            return "exact"
        if found := LOST_OR.search(notice):
            k, k1, counted, after = map(int, found.groups())
            assert lost in (k, k1) and k1 == k + 1 and after == resumed and mirror != "intact", notice
            return "exact-or-one-more"
        if found := MAYBE_ONE.search(notice):
            assert lost == 1 and tuple(map(int, found.groups())) == (resumed + 1, resumed), notice
            return "exact-or-one-more"
        if (found := TORN.search(notice)) and len(notices) == 1:
            assert lost == 1 and tuple(map(int, found.groups())) == (resumed + 1, resumed), notice
            return "exact"
        if found := SINCE.search(notice):
            # Only when no slot of the mirror could count what followed.
            assert int(found.group(1)) == resumed and mirror in UNCOUNTED, (mirror, notice)
            return "since-step"
    pytest.fail(f"{lost} steps lost, but no notice says how many or since when: {notices}")


def trial(image: Path, folder: Path, wal: str, shm: str, mirror: str, made: list[LoggedStep]) -> str:
    shutil.copytree(image, folder)
    db = folder / "table.db"
    for suffix, table, how in (("-wal", WAL, wal), ("-shm", SHM, shm), ("-mirror", MIRROR, mirror)):
        spoil = table[how]
        part = Path(f"{db}{suffix}")
        if spoil is not None and part.exists():
            spoil(part)
    try:
        log = TableLog.open(db, SETTINGS, SEED, T0)
    except BadTableLog as exc:
        assert "\n" not in str(exc)
        return "refused"
    try:
        resumed, notices = log.steps, log.notices
        assert resumed == made[: len(resumed)], f"resumed steps are not the first {len(resumed)} made"
    finally:
        log.close()
    outcome = judge(notices, len(resumed), len(made), mirror)
    again = TableLog.open(db, SETTINGS, SEED, T0)     # said once: the mirror now counts what is left
    try:
        assert again.notices == () and again.steps == resumed, again.notices
    finally:
        again.close()
    return outcome


# --- the states ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def states() -> Iterator[dict[str, State]]:
    shm = Path("/dev/shm")
    base = Path(tempfile.mkdtemp(prefix="log-loss-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    found: dict[str, State] = {}
    at = [0, 1, 2, 5, AUTO_CHECKPOINT_STEP, AUTO_CHECKPOINT_STEP + 1, 600]
    made, images = play(base / "live", at)
    for n in at:
        found[f"live-{n}"] = State(f"live-{n}", images[n], n, True)
    made_r, images = play(base / "reopened", [5], reopen=3)
    assert made_r == made[:5]
    found["live-5-of-which-3-in-file"] = State("live-5-of-which-3-in-file", images[5], 5, True)
    _, images = play(base / "closed", [5], close=True)
    found["closed-5"] = State("closed-5", images[-1], 5, False)
    for kill in ("before", "after"):
        for n in (0, 5):
            _, images = play(base / f"killed-{kill}-{n}", [n] if n else [0], kill=kill)
            found[f"killed-{kill}-commit-{n + 1}"] = State(f"killed-{kill}-commit-{n + 1}", images[-1], n + 1, True)
    yield found
    shutil.rmtree(base, ignore_errors=True)
    found.clear()


@pytest.fixture(scope="module")
def reference() -> list[LoggedStep]:
    table = new_table(SETTINGS, SEED, T0)
    made = []
    for i in range(600 + 1):
        step_made = step(table, event(i))
        table = step_made.table
        made.append(LoggedStep(event(i), step_made.commands, step_made.events))
    return made


STATES = ["live-0", "live-1", "live-2", "live-5", "live-5-of-which-3-in-file", f"live-{AUTO_CHECKPOINT_STEP}",
          f"live-{AUTO_CHECKPOINT_STEP + 1}", "live-600", "closed-5", "killed-before-commit-1",
          "killed-after-commit-1", "killed-before-commit-6", "killed-after-commit-6"]
FIGURES: dict[str, Counter[str]] = {}


@pytest.mark.parametrize("name", STATES)
def test_every_lost_companion_is_resumed_identically_or_said_exactly(
        name: str, states: dict[str, State], reference: list[LoggedStep]) -> None:
    state = states[name]
    made = reference[: state.made]
    if state.name.startswith("live-"):
        # The state is what was meant: the main file holds the checkpointed steps only.
        with sqlite3.connect(f"file:{state.folder / 'table.db'}?mode=ro&immutable=1", uri=True) as con:
            in_file = con.execute("SELECT count(*) FROM steps").fetchone()[0]
        expected = {"live-5-of-which-3-in-file": 3, f"live-{AUTO_CHECKPOINT_STEP}": AUTO_CHECKPOINT_STEP,
                    f"live-{AUTO_CHECKPOINT_STEP + 1}": AUTO_CHECKPOINT_STEP, "live-600": AUTO_CHECKPOINT_STEP}
        assert in_file == expected.get(name, 0), in_file
    mirrored, _ = read_mirror(state.folder / "table.db")
    assert mirrored is not None and mirrored.made == state.made   # the mirror counts every step made
    work = state.folder.parent       # beside the state: on tmpfs when there is one
    figures = FIGURES.setdefault(name, Counter())
    wals = WAL if state.live else {"intact": None}      # a cleanly closed log has no WAL, no -shm
    shms = SHM if state.live else {"intact": None}
    combos = list(itertools.product(wals, shms, MIRROR))
    if state.made > 100:
        # The long logs (4 MB of WAL each) take every WAL and mirror pair, with the -shm in each
        # state against each of them (pairwise; SQLite rebuilds the -shm anyway): every subset
        # of spoiled files is still there, at a quarter of the time.
        combos = [(wal, list(SHM)[(i + j) % len(SHM)], mirror)
                  for i, wal in enumerate(WAL) for j, mirror in enumerate(MIRROR)]
    for n, (wal, shm, mirror) in enumerate(combos):
        folder = work / f"trial-{name}-{n}"
        try:
            figures[trial(state.folder, folder, wal, shm, mirror, made)] += 1
        except AssertionError as exc:
            raise AssertionError(f"{name}, WAL {wal}, -shm {shm}, mirror {mirror}: {exc}") from None
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    assert sum(figures.values()) == len(combos)
    print(f"\n{name}: {dict(figures)}")


def test_a_kill_right_after_a_commit_then_a_wal_that_lost_that_commit_is_said(tmp_path: Path) -> None:
    """Issue 21 (defect 2): a SIGKILL between a step's commit and its mirror write, then a WAL
    that lost just that commit, resumed one step short without a word (1 of 8 trials). The
    mirror now announces the step before its commit, so it counts it."""
    db = tmp_path / "live" / "table.db"
    db.parent.mkdir()
    log = TableLog.open(db, SETTINGS, SEED, T0)
    table = new_table(SETTINGS, SEED, T0)
    for i in range(6):
        made = step(table, event(i))
        if i == 5:
            real = log._db
            assert real is not None
            kill = KillAround(real, db, tmp_path / "killed", after=True)
            log._db = kill  # type: ignore[assignment]
            with pytest.raises(Killed):
                log.append(event(i), made)
            real.close()
            os.close(log._mirror_fd)
        else:
            log.append(event(i), made)
        table = made.table
    killed = tmp_path / "killed" / "table.db"
    wal = Path(f"{killed}-wal")
    assert wal.stat().st_size > kill.wal_before
    with open(wal, "r+b") as f:        # the 6th step's frames never reached the card
        f.truncate(kill.wal_before)
    again = TableLog.open(killed, SETTINGS, SEED, T0)
    assert len(again.steps) == 5
    assert again.notices == (f"{killed} (game {again.game.hex()}) lost its last 1 logged step (its mirror "
                             "counted 6): the game resumes after step 5",)
    again.close()


class FullCard:
    """A connection on a full SD card: SQLite cannot grow its WAL (the mirror's two pages are
    already on the card, so its slots can still be overwritten)."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.startswith("INSERT INTO steps"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_steps_kept_in_memory_through_storage_trouble_are_counted_if_the_rig_is_killed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full card keeps steps in memory (the table plays on); a kill then loses them. The
    mirror counts the steps waiting behind the one it announces, so the next start says how
    many were lost, exactly, instead of resuming quietly at the last one on disk."""
    from game.app import tablelog

    db = tmp_path / "table.db"
    log = TableLog.open(db, SETTINGS, SEED, T0)
    table = new_table(SETTINGS, SEED, T0)
    real_connect = sqlite3.connect
    for i in range(7):
        if i == 3:
            assert log._db is not None
            log._db = FullCard(log._db)  # type: ignore[assignment]
            monkeypatch.setattr(tablelog.sqlite3, "connect", lambda *a, **k: FullCard(real_connect(*a, **k)))
        made = step(table, event(i))
        log.append(event(i), made)
        table = made.table
    assert (log.written, log.count) == (3, 7) and "cannot be written" in log.trouble
    copy_files(db, tmp_path / "killed")          # killed with 4 steps in memory
    monkeypatch.undo()
    log.close()
    killed = tmp_path / "killed" / "table.db"
    assert read_mirror(killed)[0] is not None and read_mirror(killed)[0].made == 7  # type: ignore[union-attr]
    again = TableLog.open(killed, SETTINGS, SEED, T0)
    assert len(again.steps) == 3
    assert again.notices == (f"{killed} (game {again.game.hex()}) lost its last 4 logged steps (its mirror "
                             "counted 7): the game resumes after step 3",)
    again.close()
