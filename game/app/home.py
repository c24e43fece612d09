"""A living room's table log: every game played on the screen is logged, by default, in the
user's data folder (``$XDG_DATA_HOME/cheating-moth``, else ``~/.local/share/cheating-moth``), so
that a pulled plug or a closed window loses nothing and the next start offers to carry on.
``--db`` names another log; the kiosk keeps its own in its data folder.

Nothing here stops a game from being played: a folder that cannot be written means a game that
is not saved, said once; a log that cannot be resumed (damaged, or played on other buttons) is
kept beside it, never deleted, and a new game starts.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..controller import Stage, TableSettings
from ..controller.resume import resume
from ..errors import BadTableLog, GameError
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
        home.notes.append(f"games are not saved: {folder} cannot be made ({exc.strerror or exc})")
        return home
    try:
        log = TableLog.open(home.path, settings, seed, t0_ns)
    except (BadTableLog, sqlite3.Error, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        return _aside(home, f"{type(exc).__name__}: {str(exc)[:160]}", settings, seed, t0_ns, now)
    except OSError as exc:
        home.notes.append(f"games are not saved: {home.path} cannot be opened ({exc.strerror or exc})")
        return home
    home.notes += [str(n) for n in getattr(log, "notices", ())]
    home.log = log
    if not log.steps:
        return home
    if (log.settings.clock, log.settings.seats) != (settings.clock, settings.seats):
        log.close()
        kept = move_log(home.path, folder / "games", lambda when: f"game-{when}.db", now)
        home.notes.append(f"the saved game was played on other buttons ({log.settings.clock} clock, "
                          f"{log.settings.seats} seats): it is kept as {kept}; a new game starts")
        return _fresh(home, settings, seed, t0_ns)
    try:
        table = resume(log.settings, log.seed, log.t0_ns, log.steps)
    except (GameError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        log.close()
        return _aside(home, f"{type(exc).__name__}: {str(exc)[:160]}", settings, seed, t0_ns, now)
    if not table.seated:
        log.close()                     # nobody sat down: nothing to carry on, nothing to keep
        for part in (home.path, *(Path(f"{home.path}{s}") for s in ("-wal", "-shm", "-mirror"))):
            part.unlink(missing_ok=True)
        return _fresh(home, settings, seed, t0_ns)
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
        home.notes.append(f"games are not saved: the last game cannot be filed ({exc.strerror or exc})")
        return home
    return _fresh(home, settings, seed, t0_ns)


def _aside(home: HomeLog, why: str, settings: TableSettings, seed: int, t0_ns: int, now: datetime) -> HomeLog:
    try:
        moved = move_log(home.path, home.folder / "aside", lambda when: f"table-{when}.db", now)
    except OSError as exc:
        home.notes.append(f"games are not saved: {home.path} cannot be read ({why}) nor moved ({exc})")
        return home
    home.notes.append(f"the saved game could not be resumed ({why}); it is kept as {moved}")
    return _fresh(home, settings, seed, t0_ns)


def _fresh(home: HomeLog, settings: TableSettings, seed: int, t0_ns: int) -> HomeLog:
    try:
        home.log = TableLog.open(home.path, settings, seed, t0_ns)
    except (BadTableLog, sqlite3.Error, OSError) as exc:
        home.notes.append(f"games are not saved: {home.path} cannot be written ({exc})")
        home.log = None
    return home
