"""A living room's table log: every game played on the screen is logged, by default, in the
user's data folder (``$XDG_DATA_HOME/cheating-moth``, else ``~/.local/share/cheating-moth``), so
that a pulled plug or a closed window loses nothing and the next start offers to carry on.
``--db`` names another log; the kiosk keeps its own in its data folder.

Nothing here stops a game from being played: a folder that cannot be made means a game that
is not saved, said once; a full or read-only card means a game kept in memory and saved once
the card takes it (``TableLog.unwritten``), said; a log that cannot be resumed (damaged, or
played on other buttons) is kept beside it, never deleted, and a new game starts.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..controller import Stage, TableSettings
from ..controller.resume import resume
from ..errors import BadTableLog, GameError
from .storage import is_storage_error, reason
from .tablelog import TableLog, move_log

LOG_NAME = "table.db"


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The user's data folder for the rig (the XDG base directory rule)."""
    base = environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path(environ.get("HOME") or Path.home()) / ".local" / "share"
    return root / "cheating-moth"


@dataclass(slots=True)
class HomeLog:
    """The log of the game on the screen (None: not saved, ``notes`` say why) and where it is."""

    folder: Path
    log: TableLog | None
    notes: list[str] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.folder / LOG_NAME


def open_home(folder: Path, settings: TableSettings, seed: int, t0_ns: int, now: datetime) -> HomeLog:
    """The log in ``folder``: its unfinished game to offer, or a new one. A finished game, one
    played on other buttons and one that cannot be read are moved out of the way, kept."""
    home = HomeLog(folder, None)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO):   # the card: it may come back
            return _unsaved(home, reason(exc), settings, seed, t0_ns, now)
        home.notes.append(f"games are not saved: {folder} cannot be made ({exc.strerror or exc})")
        return home
    try:
        log = TableLog.open(home.path, settings, seed, t0_ns)
    except (BadTableLog, sqlite3.Error, UnicodeDecodeError, ValueError, KeyError, TypeError, OSError) as exc:
        if is_storage_error(exc):   # the card, not the file: the file is left as it is
            return _unsaved(home, _cause(exc), settings, seed, t0_ns, now)
        return _aside(home, f"{type(exc).__name__}: {str(exc)[:160]}", settings, seed, t0_ns, now)
    home.notes += [str(n) for n in getattr(log, "notices", ())]
    home.log = log
    if not log.steps:
        return home
    if (log.settings.clock, log.settings.seats) != (settings.clock, settings.seats):
        log.close()
        kept = move_log(home.path, folder / "games", lambda when: f"game-{when}.db", now)
        home.notes.append(f"the saved game was played on other buttons ({log.settings.clock} clock, "
                          f"{log.settings.seats} seats): it is kept as {kept}; a new game starts")
        return _fresh(home, settings, seed, t0_ns, now)
    try:
        table = resume(log.settings, log.seed, log.t0_ns, log.steps)
    except (GameError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        log.close()
        return _aside(home, f"{type(exc).__name__}: {str(exc)[:160]}", settings, seed, t0_ns, now)
    if not table.seated:
        log.close()                     # nobody sat down: nothing to carry on, nothing to keep
        try:
            for part in (home.path, *(Path(f"{home.path}{s}") for s in ("-wal", "-shm", "-mirror"))):
                part.unlink(missing_ok=True)
        except OSError as exc:
            return _unsaved(home, reason(exc), settings, seed, t0_ns, now)
        return _fresh(home, settings, seed, t0_ns, now)
    if table.stage is Stage.GAME_OVER:
        return start_over(home, settings, seed, t0_ns, now)
    return home


def start_over(home: HomeLog, settings: TableSettings, seed: int, t0_ns: int, now: datetime) -> HomeLog:
    """The game in the log is filed in ``games/`` (kept) and a new one starts in its place."""
    if home.log is not None:
        home.log.close()
        home.log = None
    try:
        move_log(home.path, home.folder / "games", lambda when: f"game-{when}.db", now)
    except OSError as exc:
        return _unsaved(home, f"the last game cannot be filed: {reason(exc)}", settings, seed, t0_ns, now)
    return _fresh(home, settings, seed, t0_ns, now)


def _aside(home: HomeLog, why: str, settings: TableSettings, seed: int, t0_ns: int, now: datetime) -> HomeLog:
    try:
        moved = move_log(home.path, home.folder / "aside", lambda when: f"table-{when}.db", now)
    except OSError as exc:
        return _unsaved(home, f"it cannot be read ({why}) nor moved ({reason(exc)})", settings, seed, t0_ns, now)
    home.notes.append(f"the saved game could not be resumed ({why}); it is kept as {moved}")
    return _fresh(home, settings, seed, t0_ns, now)


def _fresh(home: HomeLog, settings: TableSettings, seed: int, t0_ns: int, now: datetime) -> HomeLog:
    try:
        home.log = TableLog.open(home.path, settings, seed, t0_ns)
    except (BadTableLog, sqlite3.Error, OSError) as exc:
        return _unsaved(home, _cause(exc), settings, seed, t0_ns, now)
    return home


def _unsaved(home: HomeLog, why: str, settings: TableSettings, seed: int, t0_ns: int, now: datetime) -> HomeLog:
    """The card cannot take the log now (full, read-only, failing): the game is kept in memory
    and saved once it can (what is in the file now is moved aside first, kept), said."""
    sentence = (f"games are not saved for now: {home.path} cannot be written ({why}); this game is kept in "
                "memory and saved once it can")
    home.notes.append(sentence)
    log = TableLog.unwritten(home.path, settings, seed, t0_ns, sentence)
    log.prepare = lambda: home.folder.mkdir(parents=True, exist_ok=True)
    log.make_room = lambda why: move_log(home.path, home.folder / "aside", lambda when: f"table-{when}.db", now)
    home.log = log
    return home


def _cause(exc: BaseException) -> str:
    inner = exc.__context__
    return reason(inner if inner is not None and is_storage_error(inner) else exc)
