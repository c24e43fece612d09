"""The café's leaderboard: finished games in SQLite, ranked for today, this week and all time.

Times are wall-clock (Unix ns, stamped by the app when a game ends); "today" and "this week"
are taken in the local time zone of the ``now`` the caller passes, so tests choose them. The
table keeps at most ``max_games`` games: the oldest are dropped, so the file stays small.

Each game also keeps every player's best reaction to GO (``best_ns``, from the races the table
decided), so the board can name the fastest slap of the day, the week and all time. Files from
before that column are migrated when opened (the column is added; their games have no times).
"""

from __future__ import annotations

import enum
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from ..bounded import what_is
from ..errors import BadTableLog

DEFAULT_MAX_GAMES = 5_000


class Period(enum.Enum):
    TODAY = "today"
    WEEK = "week"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class FinishedGame:
    finished_unix_ns: int
    seed: int
    names: tuple[str, ...]        # by player
    totals: tuple[int, ...]       # penalty points by player
    winners: tuple[int, ...]      # players in first place
    key: str = ""                 # the game's identity: recording it twice keeps one row
    best_ns: tuple[int | None, ...] = ()   # by player: best reaction to GO (None: no valid
                                           # press); () for games recorded before it was kept


@dataclass(frozen=True, slots=True)
class Row:
    """One name on the board: lowest average penalty first, then more wins."""

    name: str
    games: int
    wins: int
    best: int                     # lowest game total
    average: float


@dataclass(frozen=True, slots=True)
class Fastest:
    """One name's fastest slap in a period: the best reaction over its games, and in how many
    of them it had a timed press."""

    name: str
    best_ns: int
    games: int


#: The columns every leaderboard has had (``best_ns`` came later and is added when missing).
_COLUMNS = ("id", "finished_unix_ns", "seed", "names", "totals", "winners", "key")


class _NotOurs(Exception):
    """The file is a database, but another program's (or another file of this rig's)."""


class Leaderboard:
    def __init__(self, path: str | Path, max_games: int = DEFAULT_MAX_GAMES) -> None:
        self.path = Path(path)
        self.max_games = max_games
        self.skipped = 0              # rows that could not be read (damaged), left out of boards
        kind = "a file" if str(path) == ":memory:" else what_is(self.path)
        if kind not in ("a file", "missing") and not kind.startswith("not readable"):
            # SQLite would say "disk I/O error" of a FIFO (or wait on it): named for what it is.
            raise BadTableLog(f"{self.path} is {kind}, not a leaderboard file: move it away; the rig makes "
                              "a new leaderboard in its place")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise BadTableLog(f"{self.path} cannot be opened as a leaderboard ({exc}): "
                              "move it aside or reset the leaderboard") from None
        try:
            self._check_own()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY AUTOINCREMENT, "
                "finished_unix_ns INTEGER NOT NULL, seed INTEGER NOT NULL, names TEXT NOT NULL, "
                "totals TEXT NOT NULL, winners TEXT NOT NULL, key TEXT)")
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            if "best_ns" not in columns:
                # A file from before reaction times were kept: their games have none (NULL).
                self._db.execute("ALTER TABLE games ADD COLUMN best_ns TEXT")
            self._db.execute("CREATE UNIQUE INDEX IF NOT EXISTS games_key ON games(key) WHERE key != ''")
            self._db.execute("CREATE INDEX IF NOT EXISTS games_time ON games(finished_unix_ns)")
            # The columns this code reads and writes, and SQLite's own quick check of the pages.
            self._db.execute("SELECT id, finished_unix_ns, seed, names, totals, winners, key, best_ns "
                             "FROM games LIMIT 0").fetchall()
            check = self._db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"quick_check says {check[0] if check else None!r}")
        except _NotOurs as exc:
            self._db.close()
            raise BadTableLog(f"{self.path} is another database, not a leaderboard ({exc}): move it "
                              "aside; the rig makes a new leaderboard in its place") from None
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            self._db.close()
            raise BadTableLog(f"{self.path} is not a leaderboard this rig can read "
                              f"({type(exc).__name__}: {str(exc)[:120]}): move it aside or reset "
                              "the leaderboard") from None

    def _check_own(self) -> None:
        """Refuse a database that is not a leaderboard before anything is written to it (a game
        log copied over ``leaderboard.db`` used to get a ``games`` table added, and its journal
        mode changed): only an empty file, or one whose tables are this code's, is opened."""
        tables = {name for (name,) in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%' ESCAPE '^'")}
        if not tables:
            return                                      # a new (or empty) file: made a leaderboard
        if tables != {"games"}:
            shown = ", ".join(sorted(tables)[:4]) + (", …" if len(tables) > 4 else "")
            raise _NotOurs(f"it holds the tables {shown}, not a leaderboard's games")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        missing = sorted(set(_COLUMNS) - columns)
        if missing:
            raise _NotOurs(f"its games table has no column {', '.join(missing[:3])}")

    def record(self, game: FinishedGame) -> None:
        """Add a finished game (once: its ``key`` again is ignored) and drop the oldest past
        ``max_games``. A failure (a full card) raises ``sqlite3.Error`` and leaves nothing half
        done: the transaction is rolled back, so the next record can go through."""
        try:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT OR IGNORE INTO games(finished_unix_ns, seed, names, totals, winners, key, best_ns) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.finished_unix_ns, game.seed, json.dumps(game.names), json.dumps(game.totals),
                 json.dumps(game.winners), game.key, json.dumps(game.best_ns)))
            self._db.execute(
                "DELETE FROM games WHERE id NOT IN (SELECT id FROM games ORDER BY finished_unix_ns DESC, "
                "id DESC LIMIT ?)", (self.max_games,))
            self._db.execute("COMMIT")
        except sqlite3.Error:
            if self._db.in_transaction:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise

    def games(self, since_unix_ns: int = 0) -> list[FinishedGame]:
        """Finished games since then, oldest first; a row that cannot be read is left out and
        counted in :attr:`skipped` (the board still shows the others)."""
        try:
            rows = self._db.execute(
                "SELECT finished_unix_ns, seed, names, totals, winners, key, best_ns FROM games "
                "WHERE finished_unix_ns >= ? ORDER BY finished_unix_ns, id", (since_unix_ns,)).fetchall()
        except (sqlite3.Error, UnicodeDecodeError):
            self.skipped += 1
            return []
        found: list[FinishedGame] = []
        skipped = 0
        for t, seed, n, tot, w, key, best in rows:
            try:
                game = FinishedGame(t, seed, _strings(json.loads(n)), _ints(json.loads(tot)),
                                    _ints(json.loads(w)), key if isinstance(key, str) else "",
                                    () if best is None else _times(json.loads(best)))
                if not isinstance(t, int) or not isinstance(seed, int) or len(game.names) != len(game.totals):
                    raise ValueError("mismatched row")
                if game.best_ns and len(game.best_ns) != len(game.names):
                    raise ValueError("mismatched times")
            except (ValueError, TypeError, RecursionError):
                skipped += 1
                continue
            found.append(game)
        self.skipped = skipped
        return found

    def board(self, period: Period, now: datetime, limit: int = 10) -> list[Row]:
        """The ranking for ``period`` as seen at ``now`` (an aware datetime in the café's zone)."""
        return rank(self.games(_since(period, now)), limit)

    def fastest(self, period: Period, now: datetime, limit: int = 3) -> list[Fastest]:
        """The fastest slaps of ``period`` as seen at ``now``: each name's best reaction."""
        return fastest(self.games(_since(period, now)), limit)

    def last(self) -> FinishedGame | None:
        found = self.games()
        return found[-1] if found else None

    def integrity(self) -> str:
        """SQLite's own check of the file: "ok" or what is wrong."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def reset(self) -> None:
        self._db.execute("DELETE FROM games")

    def close(self) -> None:
        self._db.close()


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"not a list of names: {type(value).__name__}")
    return tuple(value)


def _ints(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise ValueError(f"not a list of whole numbers: {type(value).__name__}")
    return tuple(value)


def _times(value: object) -> tuple[int | None, ...]:
    if not isinstance(value, list) or not all(v is None or (type(v) is int and v >= 0) for v in value):
        raise ValueError(f"not a list of reaction times: {type(value).__name__}")
    return tuple(value)


def _since(period: Period, now: datetime) -> int:
    if now.tzinfo is None:
        raise ValueError(f"now {now!r} has no time zone: pass an aware datetime")
    if period is Period.ALL:
        return 0
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    start = midnight if period is Period.TODAY else midnight - timedelta(days=now.weekday())
    return int(start.timestamp()) * 1_000_000_000


def rank(games: list[FinishedGame], limit: int = 10) -> list[Row]:
    stats: dict[str, list[int]] = {}
    wins: dict[str, int] = {}
    for game in games:
        for player, (name, total) in enumerate(zip(game.names, game.totals)):
            stats.setdefault(name, []).append(total)
            wins[name] = wins.get(name, 0) + (player in game.winners)
    rows = [Row(name, len(t), wins[name], min(t), sum(t) / len(t)) for name, t in stats.items()]
    rows.sort(key=lambda r: (r.average, -r.wins, r.name))
    return rows[:limit]


def fastest(games: list[FinishedGame], limit: int = 3) -> list[Fastest]:
    """Each name's best reaction over ``games`` (games without times left out), fastest first."""
    best: dict[str, int] = {}
    timed: dict[str, int] = {}
    for game in games:
        for name, ns in zip(game.names, game.best_ns):
            if ns is None:
                continue
            timed[name] = timed.get(name, 0) + 1
            best[name] = min(ns, best.get(name, ns))
    rows = [Fastest(name, ns, timed[name]) for name, ns in best.items()]
    rows.sort(key=lambda r: (r.best_ns, r.name))
    return rows[:limit]
