"""The table's log in SQLite: every input with the commands and events it caused, written
(WAL, synchronous) before any effect runs, so a crash or a pulled plug loses nothing.

One row per input, with a CRC of its body: a torn last row (a write cut off by power loss or a
damaged sector) is detected, reported and dropped; a damaged row before the last is refused,
since nothing after it could be trusted. A log of another format version is refused.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

from ..codec import RECORD_TYPES, dumps, from_dict, to_dict
from ..controller import Step, TableSettings
from ..controller.inputs import INPUT_TYPES, Input
from ..controller.resume import LoggedStep
from ..errors import BadTableLog, GameError

FORMAT = "cheating-moth-table-log"
VERSION = 1
_INPUTS: dict[str, type[Any]] = {t.__name__: t for t in INPUT_TYPES}
_SETTINGS: dict[str, type[Any]] = {"TableSettings": TableSettings}


class TableLog:
    """An open log. ``steps`` are the good rows; ``dropped`` says what was dropped, if anything."""

    def __init__(self, path: Path, db: sqlite3.Connection, settings: TableSettings, seed: int,
                 t0_ns: int, steps: list[LoggedStep], dropped: str | None) -> None:
        self.path = path
        self._db = db
        self.settings = settings
        self.seed = seed
        self.t0_ns = t0_ns
        self.steps = steps
        self.dropped = dropped

    @classmethod
    def open(cls, path: str | Path, settings: TableSettings, seed: int, t0_ns: int) -> TableLog:
        """Open ``path``, creating it for a new game with these settings; an existing log keeps
        its own settings and seed (it is resumed)."""
        path = Path(path)
        existed = path.exists() and path.stat().st_size > 0
        try:
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            if not existed:
                _create(db, settings, seed, t0_ns)
            meta = _meta(db, path)
            steps, dropped = _load(db, path)
        except sqlite3.DatabaseError as exc:
            raise BadTableLog(f"{path} is not a table log this rig can read ({exc}): "
                              "give another --db path or remove the file") from None
        return cls(path, db, meta[0], meta[1], meta[2], steps, dropped)

    def append(self, event: Input, made: Step) -> None:
        """Write one step; returns once it is on disk."""
        body = json.dumps({"input": to_dict(event), "commands": [to_dict(c) for c in made.commands],
                           "events": [to_dict(e) for e in made.events]}, separators=(",", ":"))
        self._db.execute("INSERT INTO steps(body, crc) VALUES (?, ?)", (body, zlib.crc32(body.encode())))

    def close(self) -> None:
        self._db.close()


def _create(db: sqlite3.Connection, settings: TableSettings, seed: int, t0_ns: int) -> None:
    db.execute("BEGIN")
    db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("CREATE TABLE steps(seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, "
               "crc INTEGER NOT NULL)")
    db.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("format", FORMAT), ("version", str(VERSION)), ("settings", dumps(settings)),
        ("seed", str(seed)), ("t0_ns", str(t0_ns)),
    ])
    db.execute("COMMIT")


def _meta(db: sqlite3.Connection, path: Path) -> tuple[TableSettings, int, int]:
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        raise BadTableLog(f"{path} is not a table log (no meta table): give another --db path") from None
    if meta.get("format") != FORMAT:
        raise BadTableLog(f"{path} is not a table log (format {meta.get('format')!r}): give another --db path")
    if meta.get("version") != str(VERSION):
        raise BadTableLog(f"{path} was written in table log version {meta.get('version')}, this rig "
                          f"reads version {VERSION}: finish that game with the matching version or "
                          "start a new log")
    try:
        settings = from_dict(json.loads(meta["settings"]), _SETTINGS)
        return settings, int(meta["seed"]), int(meta["t0_ns"])
    except (GameError, KeyError, ValueError) as exc:
        raise BadTableLog(f"{path} has damaged settings ({exc}): start a new log") from None


def _load(db: sqlite3.Connection, path: Path) -> tuple[list[LoggedStep], str | None]:
    rows = db.execute("SELECT seq, body, crc FROM steps ORDER BY seq").fetchall()
    steps: list[LoggedStep] = []
    for i, (seq, body, crc) in enumerate(rows):
        try:
            steps.append(_decode(body, crc))
        except (GameError, ValueError, TypeError, KeyError) as exc:
            if i == len(rows) - 1:
                db.execute("DELETE FROM steps WHERE seq = ?", (seq,))
                return steps, (f"the last record of {path} (step {i + 1}) was torn ({exc}) and "
                               f"was dropped; the game resumes after step {i}")
            raise BadTableLog(f"step {i + 1} of {path} is damaged ({exc}) and {len(rows) - i - 1} "
                              "steps follow it: the log cannot be resumed safely") from None
    return steps, None


def _decode(body: object, crc: object) -> LoggedStep:
    if not isinstance(body, str) or zlib.crc32(body.encode()) != crc:
        raise ValueError("checksum mismatch")
    data = json.loads(body)
    return LoggedStep(
        input=from_dict(data["input"], _INPUTS),
        commands=tuple(from_dict(c, RECORD_TYPES) for c in data["commands"]),
        events=tuple(from_dict(e, RECORD_TYPES) for e in data["events"]),
    )
