"""Storage faults injected into the rig's own writes (issue 21): a full SD card (ENOSPC), a
read-only one (EROFS) or a failing one (EIO) at any chosen write, rename, fsync or SQLite
statement. No root is needed (a small tmpfs would need it): the entry points the rig writes
through are wrapped (``os.open`` for writing, ``os.write``/``pwrite``/``fsync``/``fdatasync``,
``os.rename``/``replace``/``mkdir``/``unlink``, ``open`` for writing, and every SQLite
connection's writing statements), for files under one folder only.

:class:`Disk` counts those operations in order (each with its kind, the file's role and the
rig's function that made it), so a clean run lists the injection points; a faulty run fails
every operation from the chosen one on, until :meth:`Disk.clear` (the card freed, or
remounted): what a full or dying card does, which is not one failure but all that follow.

What it cannot do: SQLite's own reads and writes happen in its C library, out of reach; a
statement that writes is failed whole instead, with SQLite's words for the fault ("database
or disk is full", "attempt to write a readonly database", "disk I/O error"), before it takes
effect or (``after``) once it has, as an error reported past a commit would be."""

from __future__ import annotations

import builtins
import errno
import io
import os
import re
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

GAME = str(Path(__file__).resolve().parents[2] / "game")
#: What SQLite says for each errno (its own messages).
SQLITE_WORDS = {errno.ENOSPC: ("database or disk is full", "SQLITE_FULL"),
                errno.EROFS: ("attempt to write a readonly database", "SQLITE_READONLY"),
                errno.EIO: ("disk I/O error", "SQLITE_IOERR")}
#: Which kinds of operation each fault can fail: a full card still renames and deletes, a
#: read-only one still opens SQLite files (read-only: its writes then fail).
CAN_FAIL = {
    errno.ENOSPC: {"open-new", "write", "pwrite", "fsync", "fdatasync", "mkdir", "sql"},
    errno.EROFS: {"open-new", "open-w", "write", "pwrite", "fsync", "fdatasync", "mkdir", "sql", "rename",
                  "replace", "unlink"},
    errno.EIO: {"open-new", "open-w", "write", "pwrite", "fsync", "fdatasync", "mkdir", "sql", "rename",
                "replace", "unlink", "sql-open"},
}
_WRITES = re.compile(r"\s*(INSERT|DELETE|UPDATE|CREATE|ALTER|DROP|REPLACE|COMMIT|BEGIN|PRAGMA\s+("
                     r"wal_checkpoint))", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Op:
    index: int
    kind: str          # open-new, open-w (an existing file), write, pwrite, fsync, fdatasync, rename, replace, mkdir, unlink, sql, sql-open
    role: str          # the file, digits as # (table.db-mirror, games/game-#-#-#.db)
    site: str          # the rig's function that made it (module.function)

    @property
    def signature(self) -> tuple[str, str, str]:
        return self.kind, self.role, self.site


class Disk:
    """The folder ``root``'s writes, counted; from ``fail_from`` on each one ``CAN_FAIL`` lists
    for ``fault`` fails with it (``after``: a SQLite statement fails *after* it took effect, as
    an I/O error reported past a commit does), until :meth:`clear`."""

    def __init__(self, root: Path) -> None:
        self.root = str(root.resolve())
        self.ops: list[Op] = []
        self.fail_from: int | None = None
        self.fault = errno.ENOSPC
        self.after = False
        self.only: str | None = None
        self.heal_after: int | None = None
        self.failed = 0
        self._fds: dict[int, str] = {}

    def arm(self, fail_from: int, fault: int, *, after: bool = False, only: str | None = None,
            heal_after: int | None = None) -> None:
        """Fail from operation ``fail_from`` on; ``only``: just the operations on that file (its
        role, e.g. ``table.db``: a 0444 log in a writable folder); ``heal_after``: the card
        works again once that many operations have failed (a command run whole in between)."""
        self.fail_from, self.fault, self.after, self.only = fail_from, fault, after, only
        self.heal_after = heal_after

    def clear(self) -> None:
        self.fail_from = None

    @property
    def failing(self) -> bool:
        return self.fail_from is not None and self.failed > 0

    def ours(self, path: object) -> str | None:
        try:
            text = os.fsdecode(path) if not isinstance(path, int) else self._fds.get(path, "")
        except TypeError:
            return None
        if text.startswith("file:"):
            text = unquote(text[5:].split("?", 1)[0])
        if not text or text == ":memory:":
            return None
        full = os.path.abspath(text)
        return full if full == self.root or full.startswith(self.root + os.sep) else None

    def hit(self, kind: str, path: str) -> bool:
        """Count one operation on ``path``; True when it must fail."""
        index = len(self.ops)
        op = Op(index, kind, self._role(path), _site())
        self.ops.append(op)
        fails = (self.fail_from is not None and index >= self.fail_from and kind in CAN_FAIL[self.fault]
                 and (self.only is None or op.role == self.only))
        self.failed += fails
        if fails and self.heal_after is not None and self.failed >= self.heal_after:
            self.clear()
        return fails

    def oserror(self, path: str) -> OSError:
        return OSError(self.fault, os.strerror(self.fault), path)

    def sqlerror(self) -> sqlite3.OperationalError:
        words, name = SQLITE_WORDS[self.fault]
        exc = sqlite3.OperationalError(words)
        exc.sqlite_errorname = name   # type: ignore[attr-defined]
        return exc

    def _role(self, path: str) -> str:
        rel = os.path.relpath(path, self.root)
        return re.sub(r"\d+", "#", rel)


def _site() -> str:
    """The innermost function of the rig's own code on the stack (module.function)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(GAME):
            module = Path(name).stem
            return f"{module}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


@contextmanager
def injected(disk: Disk) -> Iterator[Disk]:
    """Every write entry point the rig uses, wrapped for ``disk`` while the block runs."""
    monkeypatch = pytest.MonkeyPatch()
    real = {name: getattr(os, name) for name in
            ("open", "write", "pwrite", "fsync", "fdatasync", "rename", "replace", "mkdir", "unlink", "close")}
    real_open = builtins.open
    real_connect = sqlite3.connect
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def os_open(path: Any, flags: int, mode: int = 0o777, *args: Any, **kw: Any) -> int:
        mine = disk.ours(path)
        kind = "open-new" if flags & os.O_CREAT and not os.path.exists(mine or "") else "open-w"
        if mine is not None and flags & writing and disk.hit(kind, mine):
            raise disk.oserror(mine)
        fd = real["open"](path, flags, mode, *args, **kw)
        if mine is not None:
            disk._fds[fd] = mine
        return fd

    def os_close(fd: int) -> None:
        disk._fds.pop(fd, None)
        real["close"](fd)

    def by_fd(kind: str) -> Any:
        def wrapped(fd: int, *args: Any) -> Any:
            mine = disk._fds.get(fd)
            if mine is not None and disk.hit(kind, mine):
                raise disk.oserror(mine)
            return real[kind](fd, *args)
        return wrapped

    def by_path(kind: str) -> Any:
        def wrapped(src: Any, *args: Any, **kw: Any) -> Any:
            mine = disk.ours(src)
            if mine is not None and disk.hit(kind, mine):
                raise disk.oserror(mine)
            return real[kind](src, *args, **kw)
        return wrapped

    def open_(file: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        mine = disk.ours(file) if isinstance(file, (str, bytes, os.PathLike)) else None
        kind = "open-w" if os.path.exists(mine or "") else "open-new"
        if mine is not None and any(c in mode for c in "wax+") and disk.hit(kind, mine):
            raise disk.oserror(mine)
        handle = real_open(file, mode, *args, **kw)
        if mine is not None:
            disk._fds[handle.fileno()] = mine
        return handle

    class Connection(sqlite3.Connection):
        path: str | None = None

        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:   # type: ignore[override]
            return self._run(super().execute, sql, *args)

        def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:   # type: ignore[override]
            return self._run(super().executemany, sql, *args)

        def _run(self, run: Any, sql: str, *args: Any) -> sqlite3.Cursor:
            if self.path is None or not _WRITES.match(sql) or not disk.hit("sql", self.path):
                return run(sql, *args)
            if disk.after:
                run(sql, *args)
            raise disk.sqlerror()

    def connect(database: Any, *args: Any, **kw: Any) -> sqlite3.Connection:
        mine = disk.ours(database)
        if mine is not None and disk.hit("sql-open", mine):
            raise sqlite3.OperationalError("unable to open database file")
        kw.setdefault("factory", Connection)
        db = real_connect(database, *args, **kw)
        if isinstance(db, Connection):
            db.path = mine
        return db

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(os, "close", os_close)
    for kind in ("write", "pwrite", "fsync", "fdatasync"):
        monkeypatch.setattr(os, kind, by_fd(kind))
    for kind in ("rename", "replace", "mkdir", "unlink"):
        monkeypatch.setattr(os, kind, by_path(kind))
    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)
    monkeypatch.setattr(sqlite3, "connect", connect)
    try:
        yield disk
    finally:
        monkeypatch.undo()
