"""Storage trouble: a full SD card, a read-only or failing one, a data folder that is not a
folder. The rig never stops for it (issue 21): logs keep their steps in memory and write them
once they can (``StepLog`` in ``tablelog.py``), the kiosk starts whatever its folder is, and
each problem is said in one sentence on screen and in the journal. This module tells such a
failure from a damaged file (which is moved aside, not waited out) and words it."""

from __future__ import annotations

import errno
import sqlite3

#: ``OSError`` numbers that mean the storage (or the folder's shape), not the file's content.
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EACCES, errno.EPERM,
                            errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENOENT, errno.EBUSY,
                            errno.ENXIO, errno.ENODEV})
#: SQLite's words for the same (its primary codes FULL, READONLY, IOERR, CANTOPEN, PERM).
_SQLITE_WORDS = ("disk is full", "readonly", "read-only", "disk i/o error", "unable to open", "access permission",
                 "not authorized to")
_SQLITE_CODES = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM")

#: What staff should do, at the end of each sentence about it.
ADVICE = "staff, check the SD card"


def is_storage_error(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised from, its ``__context__``) is the storage failing
    rather than a file's content being wrong."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, OSError) and exc.errno in STORAGE_ERRNOS:
            return True
        if isinstance(exc, sqlite3.OperationalError):
            name = getattr(exc, "sqlite_errorname", "") or ""
            if name.startswith(_SQLITE_CODES) or any(w in str(exc).lower() for w in _SQLITE_WORDS):
                return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def reason(exc: BaseException) -> str:
    """A failure in a few words: the system's (``No space left on device``) or SQLite's."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    return first if len(first) <= 120 else first[:119] + "…"
