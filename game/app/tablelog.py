"""The logs of the rig in SQLite: the table game's (:class:`TableLog`) and, through the same code,
a referee session's (``game/app/referee/race_log.py``). Every input, with what it caused, is
written (WAL, ``synchronous=FULL``) before any effect runs, so a crash or a pulled plug loses
nothing, and anything that does go missing or wrong is *said*, never resumed from quietly.

A log says which kind it is in its meta table (``format``, :class:`LogKind`); opening one kind
as another is refused in one sentence. What each kind keeps is its own (a header of string
values, and each row's fields after the chain's); everything below is shared.

How a lost step is noticed (table log format version 2, referee log version 1):

- **Chain.** Each row's body carries its step number and the CRC of the row before it (the
  first row: the CRC of the meta table), and the row's CRC covers the body. A row removed,
  repeated, reordered, modified or spliced in from another game breaks the chain at that step.
  A damaged row before the last is refused (nothing after it can be trusted); a damaged last
  row is a torn write: dropped, and said.
- **Mirror.** SQLite's own checks cannot see a WAL that vanished, was truncated, zeroed or
  damaged: the database just looks shorter. So each step is *announced* in ``<log>-mirror``, a
  small file outside SQLite, before its commit: two checksummed 32-byte slots in separate 4 KiB
  pages, step *n* (its number, its CRC, how many steps made after it still wait in memory
  through storage trouble) overwriting slot *n* mod 2, ``fdatasync``-ed, and only then the row
  committed. A rewrite of the whole mirror (creation, after a loss was said) goes through a
  file beside it, ``fsync`` and rename.
- **Creation is atomic.** A new log is built beside (``<log>.new``), closed, ``fsync``-ed; its
  mirror is written (step 0) and the folder ``fsync``-ed; only then is the log renamed into
  place and the folder ``fsync``-ed again: a kill during creation leaves no log, or a whole
  empty one with its mirror. A log without any table (empty, or the 4 KiB database an older rig
  left when it was killed while creating one) starts anew with a notice: without its mirror,
  that steps lost since step 0 cannot be ruled out (the two cases look alike); if its mirror
  counted steps of an unfinished game it was emptied, and is refused (emptied after game over:
  a new game, with a notice). A missing log whose mirror counted steps of an
  unfinished game starts anew with a notice; one whose game was over, quietly.

**What proves a log's length** (issue 21: the WAL and the mirror lost together once restarted a
200-step game as new, without a word). The mirror's newest good slot counts *made* steps:
announced before their commit, so the log can never hold more, and every step whose effects
ran is counted (effects run only after the commit; a step kept in memory through storage
trouble is counted in the ``more`` of the step announced before it, as long as the card still
takes the mirror's slot — when even that fails, the trouble is said on screen at the time).
Then, with ``c`` steps found in the log:

1. Both slots good, counting ``M``: ``c == M`` is the whole game; ``c < M`` lost exactly
   ``M − c`` steps, said (a kill between a step's announcement and its commit is the case
   ``M − c == 1``: that step is said, though its effects never ran — nothing on disk can tell it
   from a committed step whose WAL frames were lost later, so both are said, never neither);
   ``c > M`` cannot happen by writing, so the mirror is older than the log: said, with the step
   after which losses cannot be ruled out. A step in the log with another CRC than announced is
   refused.
2. One slot damaged (a torn slot write or damage): the good one counts ``M`` and the damaged one
   counted ``M − 1`` or ``M + 1``, so ``c < M`` is said as "``M − c`` or ``M − c + 1`` steps",
   ``c == M`` as "step ``M + 1`` may have been lost", ``c == M + 1`` is whole.
3. No good slot (missing, emptied, both slots damaged, not a regular file, another game's):
   the main file and the WAL are all there is, and a WAL can lose its tail without a trace, so
   how many steps followed cannot be known by any design that keeps a WAL: the notice says the
   step after which losses cannot be ruled out — at step 0 too, because every log in place had
   its mirror written before it (the old silent case: "0 steps, no mirror" was taken for a
   creation cut off before its mirror). Writing the count into the main file at each
   checkpoint would add nothing: what the main file holds at a checkpoint is its rows.

**Opening to resume never needs a write** (issue 21, hostile retest: a restart on a full or
read-only card began a new game). What an open writes -- a torn row dropped, the mirror put
right after a loss was said, SQLite's ``-shm`` -- is owed when the card refuses it: the log is
read (read-only, or immutable when no WAL holds steps), its losses said, the mirror put right
in place if the card still takes that, and :class:`StepLog` writes what is owed before any new
step, keeping the new steps in memory until then.

The ``-shm`` is rebuilt by SQLite from the WAL by the first connection, so its loss or damage
changes nothing. The campaign in ``tests/app/test_log_loss_campaign.py`` runs every
combination of the WAL (intact, missing, emptied, damaged, half lost), the ``-shm`` (intact,
missing, emptied, damaged) and the mirror (intact, missing, emptied, either or both slots
damaged) over logs of 0 to 600 steps, killed or closed, and checks each count said. Mirrors of
an older rig (slot layout 1, written after the commit) are read too: their log may be a step
ahead. The log's own files (the log, its WAL and ``-shm``) must be regular files, and the
mirror is read non-blocking and bounded: a FIFO, a device or a folder is refused (or, for the
mirror, said and replaced) in one sentence instead of hanging the open.

What the mirror costs per step (``bench/bench_tablelog.py``): one ``fdatasync`` of one page
before the WAL commit's own ``fsync``, so about as much again as the commit (on the dev
machine, loaded: 0.3 ms → 0.6 ms p50 per step; a step is a human's press, not a hot loop). A
mirror written only every N steps would be cheaper but would let up to N−1 lost steps pass
unsaid. Every open runs SQLite's ``quick_check``.

Table logs of format version 1 (no chain, no mirror) are refused with a message saying so:
their losses could not be told apart from a short game. Every problem is one sentence: the
notices of an open log are in :attr:`StepLog.notices`; a log that cannot be resumed raises
:class:`BadTableLog` (whatever its kind).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import secrets
import sqlite3
import stat
import struct
import zlib
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import quote

from ..bounded import what_is
from ..codec import RECORD_TYPES, dumps, from_dict, to_dict
from ..controller import Stage, Step, TableSettings
from ..controller.inputs import INPUT_TYPES, Input
from ..controller.resume import LoggedStep
from ..errors import BadTableLog, GameError
from .storage import is_storage_error, reason

#: The files of one log, as suffixes of its path (move them together).
LOG_SUFFIXES = ("", "-wal", "-shm", "-mirror")
_WAL_HEADER_BYTES = 32
#: Meta keys every kind has; a kind's header is the other keys.
_META_KEYS = ("format", "version", "game", "check")

H = TypeVar("H")   # what a kind's header decodes to
R = TypeVar("R")   # what a kind's row decodes to

log = logging.getLogger("cheating-moth")


@dataclass(frozen=True, slots=True)
class LogKind:
    """One kind of log: the ``format`` and ``version`` its meta table names, and the words its
    messages use (``noun``: "table log"; ``unit``: what one log holds, "game"; ``holds``: how
    a log of this kind is named to someone opening it as another kind)."""

    format: str
    version: int
    noun: str
    unit: str
    holds: str


TABLE = LogKind("cheating-moth-table-log", 2, "table log", "game", "a table game's log")
REFEREE = LogKind("cheating-moth-referee-log", 1, "referee log", "session", "a referee session's log")
#: Every kind by its format: a log of a known kind opened as another is named for what it is.
KINDS = {kind.format: kind for kind in (TABLE, REFEREE)}
FORMAT = TABLE.format
VERSION = TABLE.version

# --- the mirror --------------------------------------------------------------------------------

_MAGIC = b"CMTM"
_SLOT = struct.Struct("<4sBBH8sQI")           # magic, layout, over, more, game, steps, that step's CRC
_SLOT_BYTES = _SLOT.size + 4                  # + the slot's own CRC
_SLOT_OFFSETS = (0, 4096)
_MIRROR_BYTES = _SLOT_OFFSETS[1] + _SLOT_BYTES   # all a mirror's reader ever reads of it
#: Slot layouts: 1, an older rig's, was written *after* its step's commit; 2 *before* it.
_AFTER, _BEFORE = 1, 2


@dataclass(frozen=True, slots=True)
class Mirrored:
    """What one slot of the mirror says: the game; ``steps``, the last step announced, and
    ``last_crc``, its CRC; ``more``, how many steps made after it were still waiting to be
    written (kept in memory through storage trouble); ``over``: the game was over with it.
    A slot is written *before* its step's commit (``layout`` 2), so a log never holds a step
    its mirror did not count; an older rig's slots (layout 1) were written after the commit."""

    game: bytes
    steps: int
    last_crc: int
    over: bool = False
    more: int = 0
    layout: int = _BEFORE

    @property
    def made(self) -> int:
        """Steps made by the time of this slot: its log can hold no more (layout 2)."""
        return self.steps + self.more

    def pack(self) -> bytes:
        body = _SLOT.pack(_MAGIC, self.layout, int(self.over), min(self.more, 0xFFFF), self.game,
                          self.steps, self.last_crc)
        return body + struct.pack("<I", zlib.crc32(body))


@dataclass(frozen=True, slots=True)
class _MirrorRead:
    """A mirror as read: its newest good slot (None: none, and ``problem`` says why) and
    whether that slot is alone (the other one damaged: it may have announced a step more)."""

    best: Mirrored | None
    problem: str
    alone: bool = False


class _NotAFile(Exception):
    """A path that is not a regular file; the message says what it is."""


def mirror_path(path: Path) -> Path:
    return Path(str(path) + "-mirror")


def _file_kind(mode: int) -> str:
    """What a file that is not a regular one is, for a message."""
    for test, name in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _read_small(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file at ``path``, never blocking: it is opened
    non-blocking (a FIFO or a tty would wait for a writer forever) and anything but a regular
    file is refused (:class:`_NotAFile`) before a byte is read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _NotAFile(_file_kind(mode))
        chunks: list[bytes] = []
        left = limit
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _read_mirror(path: Path) -> _MirrorRead:
    try:
        data = _read_small(mirror_path(path), _MIRROR_BYTES)
    except FileNotFoundError:
        return _MirrorRead(None, "missing")
    except _NotAFile as exc:
        return _MirrorRead(None, f"{exc}, not a file")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _MirrorRead(None, "a symbolic link loop")
        return _MirrorRead(None, f"unreadable ({exc.strerror or exc})")
    slots: list[Mirrored] = []
    for offset in _SLOT_OFFSETS:
        slot = data[offset:offset + _SLOT_BYTES]
        if len(slot) < _SLOT_BYTES or zlib.crc32(slot[:-4]) != struct.unpack("<I", slot[-4:])[0]:
            continue
        magic, layout, over, more, game, steps, last_crc = _SLOT.unpack(slot[:-4])
        if magic == _MAGIC and layout in (_AFTER, _BEFORE):
            slots.append(Mirrored(game, steps, last_crc, bool(over), more if layout == _BEFORE else 0, layout))
    if not slots:
        return _MirrorRead(None, "empty" if not data else "damaged")
    # The newer slot announced the later step (or the same one with more steps waiting).
    best = max(slots, key=lambda m: (m.steps, m.more))
    return _MirrorRead(best, "", len(slots) == 1)


def read_mirror(path: Path) -> tuple[Mirrored | None, str]:
    """The mirror of the log at ``path`` (its newest good slot) and ``""``, or ``None`` and
    what is wrong with it. Never blocks, and reads no more than a mirror's size."""
    read = _read_mirror(path)
    return read.best, read.problem


def _write_mirror(path: Path, state: Mirrored) -> int:
    """Replace the whole mirror atomically; returns a descriptor open on it for the steps."""
    target = mirror_path(path)
    tmp = Path(str(target) + ".new")
    page = state.pack().ljust(_SLOT_OFFSETS[1], b"\0") + state.pack()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        try:
            os.write(fd, page)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except OSError:
        try:    # a full card made the file but took no page of it: nothing is left behind
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(target.parent)
    return os.open(target, os.O_RDWR)


def _mirror_in_place(path: Path, state: Mirrored | None) -> int:
    """A descriptor on the existing mirror with ``state`` written over both its slots (None:
    as it is), or -1 when the card takes neither. Used when the atomic rewrite cannot be made
    (a full card has no room for the file beside it). A kill between the two slots leaves
    the other one's count: the loss this open said is said again, or (the other slot one step
    behind the lost one) not again -- never a loss that was not said at least once."""
    try:
        fd = os.open(mirror_path(path), os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return -1
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if state is not None:
            for offset in _SLOT_OFFSETS:
                os.pwrite(fd, state.pack(), offset)
                os.fdatasync(fd)
    except OSError:
        os.close(fd)
        return -1
    return fd


def _regular_sizes(path: Path, kind: LogKind) -> dict[str, int | None]:
    """The size of the log's file and of its WAL and -shm (None: absent), once each is known to
    be a regular file: SQLite would block on a FIFO for ever, so anything else is refused in
    one sentence (the mirror is read by :func:`read_mirror`, which refuses it too)."""
    sizes: dict[str, int | None] = {}
    for suffix in ("", "-wal", "-shm"):
        part = Path(str(path) + suffix)
        try:
            st = os.stat(part)
        except FileNotFoundError:
            sizes[suffix] = None
            continue
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise BadTableLog(f"{part} is a symbolic link loop: give another --db path or remove "
                                  "the link") from None
            raise
        if not stat.S_ISREG(st.st_mode):
            raise BadTableLog(f"{part} is {_file_kind(st.st_mode)}, not a {kind.noun} file: give a --db "
                              "path of a regular file, or move it away")
        sizes[suffix] = st.st_size
    return sizes


def _has_tables(path: Path) -> bool:
    """Whether the database (with its WAL) holds any table: a rig before version 2 could be
    killed while creating a log and leave one without. A WAL without its main file holds no
    table SQLite can read (and opening it must not make the file: a read-only card)."""
    if not os.path.lexists(path):
        return False
    db, _ = _connect_readable(path)
    try:
        return bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
    finally:
        db.close()


def _connect_readable(path: Path) -> tuple[sqlite3.Connection, str]:
    """A connection that can read the log at ``path``, and "" or why it could only be opened
    read-only. Reading a log to resume it must never need a write (issue 21: a full or
    read-only card turned a resume into a new game): in WAL mode SQLite writes its ``-shm``
    (and makes a ``-wal``) just to read, so when the folder refuses those the log is read
    read-only, or as immutable when no WAL holds steps (immutable ignores a WAL)."""
    target = quote(str(path))
    wal = Path(str(path) + "-wal")
    first: sqlite3.Error | None = None
    for mode in ("mode=rw", "mode=ro", "immutable=1"):
        if mode == "immutable=1" and wal.exists() and wal.stat().st_size > _WAL_HEADER_BYTES:
            break               # its steps would be ignored: what SQLite said is the answer
        db = sqlite3.connect(f"file:{target}?{mode}", uri=True, isolation_level=None)
        try:
            db.text_factory = bytes
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            db.close()
            if not is_storage_error(exc):
                raise
            first = first or exc
            continue
        return db, "" if first is None else reason(first)
    assert first is not None
    raise first


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def move_log(path: Path, folder: Path, name: Callable[[str], str], when: datetime) -> Path:
    """Move the log at ``path`` with everything beside it (its WAL, its step mirror) into
    ``folder`` as ``name(date-time)`` (``name(date-time-1)``… if that is taken); the log kept,
    never deleted. The kiosk's aside/ and games/ and a living room's games/ use it.

    All or nothing: a log whose WAL still holds steps is first merged into its file (a WAL
    moved apart from its file would lose them), and a rename that fails puts back the parts
    already moved; the ``OSError`` then says why, and the log is where it was."""
    folder.mkdir(parents=True, exist_ok=True)
    _merge_wal(path)
    stamp = when.strftime("%Y%m%d-%H%M%S")
    target = folder / name(stamp)
    n = 1
    # lexists, not exists: a symbolic link (a loop, a dangling one) is a file in the folder
    # too, moved like any other part; exists() follows it and said False (issue 21: the journal
    # said "moved aside" of a table.db that was a link loop, and it stayed).
    while any(os.path.lexists(str(target) + suffix) for suffix in LOG_SUFFIXES):
        target = folder / name(f"{stamp}-{n}")
        n += 1
    moved: list[str] = []
    try:
        for suffix in LOG_SUFFIXES:
            part = Path(str(path) + suffix)
            if os.path.lexists(part):
                part.rename(Path(str(target) + suffix))
                moved.append(suffix)
    except OSError:
        for suffix in reversed(moved):   # never a log split between two folders
            try:
                Path(str(target) + suffix).rename(Path(str(path) + suffix))
            except OSError:
                log.error("%s%s could not be put back beside %s", target, suffix, path)
        raise
    return target


def _merge_wal(path: Path) -> None:
    """Merge what the WAL beside ``path`` holds into the file (the log must be closed);
    ``OSError`` if that cannot be done, so the log is not moved apart from its steps."""
    wal = Path(str(path) + "-wal")
    try:
        if not path.is_file() or not wal.is_file() or wal.stat().st_size == 0:
            return
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=rw", uri=True, isolation_level=None)
        try:
            busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            db.close()
    except sqlite3.Error as exc:
        if not is_storage_error(exc):
            return          # a damaged log (moved aside as it is): nothing more is lost by moving it
        raise OSError(errno.EIO, f"its WAL cannot be merged into it ({_line(str(exc))})") from None
    if busy or (wal.exists() and wal.stat().st_size > 0):
        raise OSError(errno.EBUSY, "its WAL cannot be merged into it (the log is still open)")


def clock_shift_ns(logged_now_t_ns: int, adapter_now_ns: int) -> int:
    """What a resumed log's shell adds to every stamp of its input adapter (``ClockShift`` in
    ``game/app/ui/adapters.py``): 0 while the adapter's clock is past the last logged time,
    else enough that its next reading is a second after it. A reboot or a replugged board
    starts the clock again near zero, and the logged time line must not run backwards; the
    same shift on every stamp (edges and GO) leaves reaction times unchanged."""
    if adapter_now_ns > logged_now_t_ns:
        return 0
    return logged_now_t_ns - adapter_now_ns + 1_000_000_000


# --- any kind of log ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Opened(Generic[H, R]):
    """A log as :func:`open_log` found it (and repaired what it said): the header and the good
    rows in the kind's own types, the notices, and what :class:`StepLog` goes on writing with."""

    path: Path
    db: sqlite3.Connection
    mirror_fd: int
    game: bytes
    header: H
    rows: list[R]
    last_crc: int
    notices: tuple[str, ...]
    #: What the open could not write (a full or read-only card), written before any new step:
    #: the whole mirror (its descriptor is then -1), the torn last row's seq to drop, and why.
    owed_mirror: Mirrored | None = None
    torn_seq: int = 0
    trouble: str = ""

    def close(self) -> None:
        """Close what was opened, for a kind that refuses the log after reading its rows."""
        self.db.close()
        if self.mirror_fd >= 0:
            os.close(self.mirror_fd)


class StepLog:
    """An open log of any kind: rows are appended with their chain fields, and the mirror
    follows each. ``notices`` are one sentence each about what was dropped, lost or could not be
    checked (empty when all is well); ``game`` is the log's random id (a session's, for a
    referee log).

    **Storage trouble never stops the table** (a full SD card, a read-only or failing one): a
    step that cannot be written is kept in memory, in order, and :attr:`trouble` says why;
    every later step (and :meth:`retry`) tries again, oldest first, so the chain on disk stays
    whole and gapless. Each row's chain fields are made when it is written, from the last row
    *on disk*: a commit that failed leaves nothing of its row in the chain's state. A commit
    that raised but did reach the file (an error after the commit) is found by its CRC before
    the row is written again, so no step is ever logged twice. A log closed while steps are
    still unwritten says how many were lost (:attr:`lost`, and the journal)."""

    def __init__(self, opened: Opened[Any, Any]) -> None:
        self.path = opened.path
        self._db: sqlite3.Connection | None = opened.db     # None: no file yet (see unwritten())
        self._mirror_fd = opened.mirror_fd
        self.game = opened.game
        self.notices = opened.notices
        self._count = len(opened.rows)       # rows on disk
        self._last_crc = opened.last_crc     # the last row's CRC on disk (the meta's: none yet)
        #: Steps made but not on disk yet, oldest first: (the row's fields, game over).
        self._pending: deque[tuple[dict[str, Any], bool]] = deque()
        self._mirror_due: Mirrored | None = None   # a row committed whose mirror is not written
        self._tried: tuple[int, int] | None = None  # (step, CRC) of a row whose commit raised
        self._reconnect = False
        self._closed = False
        #: Makes the file of a log that has none yet (:meth:`unwritten`): an empty log, or raises.
        self._reopen: Callable[[], Opened[Any, Any]] | None = None
        #: Moves a log of another game out of the way of :meth:`unwritten`'s file (given why).
        self.make_room: Callable[[str], object] | None = None
        #: Readies the folder before :meth:`unwritten`'s file is made (raises if it cannot).
        self.prepare: Callable[[], object] | None = None
        #: Why the log cannot be written now, in one sentence ("" when it can).
        self.trouble = ""
        #: Steps that were never written: the log was closed while in trouble.
        self.lost = 0
        #: What the open could not write (see Opened): written first, once the card takes it.
        self._mirror_owed = opened.owed_mirror
        self._torn_seq = opened.torn_seq
        if opened.trouble:
            # Resumed from what could be read (a full or read-only card): the game goes on, its
            # new steps kept in memory until the card takes them (issue 21: not a new game).
            self.trouble = (f"{self.path} cannot be written ({opened.trouble}): the game is resumed and "
                            "new steps are kept in memory until it can")
            self.notices = (*self.notices, f"the log {self.trouble}")
            self._reconnect = True
            log.error("the log %s", self.trouble)
        elif self._db is not None and not _writable(self.path):
            # A log the rig may read but not write (a 0444 file, a read-only card): resumed, and
            # said so up front, rather than failing at the first step.
            self.trouble = (f"{self.path} is read-only: new steps are kept in memory until it can "
                            "be written")
            self.notices = (*self.notices, f"the log {self.trouble}")
            self._reconnect = True
            log.error("%s", self.trouble)

    @property
    def count(self) -> int:
        """Steps in the log now, appended ones included (those kept in memory too)."""
        return self._count + len(self._pending)

    @property
    def written(self) -> int:
        """Steps on disk."""
        return self._count

    @property
    def in_memory(self) -> int:
        """Steps kept in memory, waiting for the storage to work again."""
        return len(self._pending)

    def _write(self, fields: dict[str, Any], over: bool) -> None:
        """Write one row (the chain's fields, then ``fields``); returns once it is on disk, with
        its mirror, or kept in memory if the storage fails (:attr:`trouble` says why). ``over``:
        nothing is left to resume (the table's game over)."""
        if self._closed:
            raise ValueError(f"the log {self.path} is closed: a step cannot be logged after close()")
        self._pending.append((fields, over))
        self.retry()

    def retry(self) -> bool:
        """Write what is kept in memory (oldest first) and the mirror owed; True when nothing is
        left unwritten. Never raises for the storage: a failure is :attr:`trouble`."""
        if self._closed:
            return not self._pending
        try:
            self._flush()
        except (sqlite3.Error, OSError, GameError) as exc:
            self._failed(exc)
            return False
        if self.trouble:
            log.warning("the log %s can be written again: the steps kept in memory are written (%d steps "
                        "on disk)", self.path, self._count)
            self.trouble = ""
        return True

    def _flush(self) -> None:
        if self._db is None:
            self._attach()
        elif self._reconnect:
            self._connect_again()
        db = self._db
        assert db is not None
        if self._mirror_owed is not None:   # the open could not put the mirror right
            fd = _write_mirror(self.path, self._mirror_owed)
            if self._mirror_fd >= 0:
                os.close(self._mirror_fd)
            self._mirror_fd, self._mirror_owed = fd, None
        if self._tried is not None:
            n, crc = self._tried
            last = db.execute("SELECT crc FROM steps ORDER BY seq DESC LIMIT 1").fetchone()
            self._tried = None
            if last is not None and last[0] == crc:   # its commit made it after all: not twice
                _, over = self._pending.popleft()
                self._count, self._last_crc = n, crc
                self._mirror_due = Mirrored(self.game, n, crc, over)
        while True:
            due = self._mirror_due
            if due is not None:
                os.pwrite(self._mirror_fd, due.pack(), _SLOT_OFFSETS[due.steps % 2])
                os.fdatasync(self._mirror_fd)
                self._mirror_due = None
            if not self._pending:
                return
            fields, over = self._pending[0]
            n = self._count + 1
            body = json.dumps({"step": n, "prev": self._last_crc, **fields}, separators=(",", ":"))
            crc = zlib.crc32(body.encode())
            # Announced in the mirror (with the steps waiting behind it) before its commit, so
            # the log never holds a step its mirror does not count (see the module doc).
            announce = Mirrored(self.game, n, crc, over, more=len(self._pending) - 1)
            os.pwrite(self._mirror_fd, announce.pack(), _SLOT_OFFSETS[n % 2])
            os.fdatasync(self._mirror_fd)
            self._tried = (n, crc)
            db.execute("INSERT INTO steps(body, crc) VALUES (?, ?)", (body, crc))
            self._tried = None
            self._pending.popleft()
            self._count, self._last_crc = n, crc

    def _attach(self) -> None:
        """The log had no file (it could not be opened): make it now, empty, and go on in it."""
        assert self._reopen is not None, "a log without a file needs a way to make one"
        if self.prepare is not None:
            self.prepare()
        opened = self._reopen()
        if opened.rows and self.make_room is not None:
            # Another game's steps are there (the one that could not be read at the start):
            # kept, moved out of the way (the kiosk's aside/), never written over.
            opened.close()
            self.make_room(f"it held {len(opened.rows)} steps of another game when this one could be written")
            opened = self._reopen()
        if opened.rows:
            opened.close()
            raise BadTableLog(f"{self.path} holds {len(opened.rows)} steps of another game: this "
                              "game's steps stay in memory")
        for notice in opened.notices:
            log.warning("%s", notice)
        self._db, self._mirror_fd, self.game = opened.db, opened.mirror_fd, opened.game
        self._count, self._last_crc = 0, opened.last_crc

    def _connect_again(self) -> None:
        """A new connection after a failure (one opened on a read-only file stays read-only),
        checked to be this log, at the row the chain is at."""
        if not _writable(self.path):
            raise OSError(errno.EROFS, "it is read-only")
        db = sqlite3.connect(f"file:{quote(str(self.path))}?mode=rw", uri=True, isolation_level=None)
        try:
            db.execute("PRAGMA synchronous=FULL")
            game = db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()
            # A torn last row the open could not drop (seq 0 is no row) is left out, then dropped.
            last = db.execute("SELECT crc FROM steps WHERE seq != ? ORDER BY seq DESC LIMIT 1",
                              (self._torn_seq,)).fetchone()
            known = {self._last_crc} | ({self._tried[1]} if self._tried else set())
            if game is None or game[0] != self.game.hex() or (last[0] if last else self._last_crc) not in known:
                raise BadTableLog(f"{self.path} was changed by something else while it could not be written: "
                                  "the steps kept in memory are not written into it")
            if self._torn_seq:
                db.execute("DELETE FROM steps WHERE seq = ?", (self._torn_seq,))
                self._torn_seq = 0
        except BaseException:
            db.close()
            raise
        old, self._db, self._reconnect = self._db, db, False
        if old is not None:
            _close_quietly(old)

    def _failed(self, exc: BaseException) -> None:
        db = self._db
        if db is not None and db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        self._reconnect = self._db is not None
        inner = exc.__context__ if isinstance(exc, BadTableLog) else None
        why = reason(inner if inner is not None and is_storage_error(inner) else exc)
        first = not self.trouble
        self.trouble = (f"{self.path} cannot be written ({why}): {len(self._pending)} "
                        f"step{'s' * (len(self._pending) != 1)} kept in memory until it can")
        if first:
            log.error("the log %s", self.trouble)

    def close(self) -> None:
        """Close the log; steps still kept in memory get a last try, and those that cannot be
        written are said lost (:attr:`lost`, the journal). Never raises for the storage."""
        if self._closed:
            return
        if self._pending or self._mirror_due is not None:
            self.retry()
        self._closed = True
        if self._pending:
            self.lost = len(self._pending)
            log.error("%d step%s of %s could not be written and %s lost (%s)", self.lost, "s" * (self.lost != 1),
                      self.path, "are" if self.lost != 1 else "is", self.trouble)
        if self._db is not None:
            _close_quietly(self._db)
        if self._mirror_fd >= 0:
            try:
                os.close(self._mirror_fd)
            except OSError:
                pass
            self._mirror_fd = -1


def _writable(path: Path) -> bool:
    """Whether the log's file and its folder (its WAL, its mirror) can be written."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _close_quietly(db: sqlite3.Connection) -> None:
    try:
        db.close()
    except sqlite3.Error:
        pass


def open_log(path: str | Path, kind: LogKind, header: Mapping[str, str],
             read_header: Callable[[dict[str, str]], H], read_row: Callable[[dict[str, Any]], R]) -> Opened[H, R]:
    """Open the log of ``kind`` at ``path``, creating it with ``header`` (string values, keys
    other than the meta's own) when nothing was logged there. ``read_header`` decodes the meta
    table's header (an existing log keeps its own); ``read_row`` decodes a row's fields after
    the chain's (a row it cannot read is damaged: ``GameError``, ``ValueError``, ``TypeError``
    or ``KeyError``). Raises :class:`BadTableLog` with the reason if the log cannot be resumed."""
    path = Path(path)
    reserved = sorted(set(header) & set(_META_KEYS))
    if reserved:
        raise ValueError(f"header key {reserved[0]!r} is the log's own: name a {kind.noun}'s header otherwise")
    try:
        return _open(path, kind, header, read_header, read_row)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise BadTableLog(f"{path} is not a {kind.noun} this rig can read ({_line(str(exc))}): "
                          "give another --db path or remove the file") from None
    except OSError as exc:
        raise BadTableLog(f"{path} cannot be opened or created ({exc.strerror or exc}): "
                          "give a --db path in a folder that exists and is writable") from None


def _open(path: Path, kind: LogKind, header: Mapping[str, str], read_header: Callable[[dict[str, str]], H],
          read_row: Callable[[dict[str, Any]], R]) -> Opened[H, R]:
    unit = kind.unit
    if not path.parent.is_dir():
        there = what_is(path.parent)
        if there != "missing":   # a file, a FIFO, a link loop where the folder should be: named
            raise BadTableLog(f"{path} cannot be created: {str(path.parent)!r} is {there}, not a folder; "
                              "give a --db path in a folder that exists")
        raise BadTableLog(f"{path} cannot be created: the folder {str(path.parent)!r} does not "
                          "exist; give a --db path in a folder that exists")
    sizes = _regular_sizes(path, kind)   # before anything reads them: a FIFO would block
    if mirror_path(path).is_dir():
        # Not the card failing, and nothing a wait would mend: named for what it is.
        raise BadTableLog(f"{mirror_path(path)} is a folder, not the mirror file of the log {path}: move "
                          "that folder away (or give another --db path) and start again")
    mirror = _read_mirror(path)
    mirrored = mirror.best
    size, wal_size = sizes[""], sizes["-wal"] or 0
    notices: list[str] = []
    missing = size is None and wal_size <= _WAL_HEADER_BYTES
    if missing or not _has_tables(path):  # nothing was logged here: a new game
        counted = mirrored is not None and mirrored.made > 0 and not mirrored.over
        if counted and not missing:
            assert mirrored is not None
            raise BadTableLog(f"{path} {'is empty' if not size else 'holds no tables'}, but its "
                              f"mirror says {unit} {mirrored.game.hex()} had logged {mirrored.made} "
                              "steps in it: the log was lost; move it aside (with its -mirror "
                              f"file) to start a new {unit}")
        if counted:
            assert mirrored is not None
            notices.append(f"the log {path} of {unit} {mirrored.game.hex()} ({mirrored.made} steps) "
                           f"was missing: a new {unit} was started")
        elif not missing and mirrored is not None and mirrored.made > 0:
            # A finished game has nothing left to resume, but its emptied log is still said.
            notices.append(f"the log {path} of {unit} {mirrored.game.hex()} ({mirrored.made} steps, "
                           f"{unit} over) holds nothing now: a new {unit} was started")
        elif not missing and mirrored is None:
            # A log is renamed into place only with its tables and its mirror (_create), so one
            # without tables whose mirror is gone may have held a game (its WAL lost too): said.
            # An older rig killed while creating its log left such a file too (4 KiB, no
            # mirror); nothing tells the two apart, so both are said the same way.
            notices.append(f"the log {path} {'is empty' if not size else 'holds no tables'} and its mirror "
                           f"is {mirror.problem}, so steps lost since step 0 cannot be ruled out (an older "
                           f"rig killed while creating a log leaves such a file too): a new {unit} was started")
        elif not missing:
            notices.append(f"the log {path} {'is empty' if not size else 'holds no tables'} and its mirror "
                           f"counted no step: a new {unit} was started")
        elif mirrored is None and mirror.problem != "missing":
            # What it counted cannot be read: a lost game's steps cannot be ruled out.
            notices.append(f"the log {path} was missing and its mirror is {mirror.problem}: a new "
                           f"{unit} was started")
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        _create(path, kind, header)
        mirror = _read_mirror(path)
    db, read_only = _connect_readable(path)
    try:
        try:   # a log made here is in WAL mode already: this writes only an older rig's log
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            if not is_storage_error(exc):
                raise
            read_only = read_only or reason(exc)
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != b"ok":
            raise BadTableLog(f"{path} is damaged (SQLite: {_line(_text(check))}): the log cannot be resumed")
        meta = _meta(db, path, kind, read_header)
        rows, crcs, torn_seq, torn = _load(db, path, kind, meta.crc, read_row)
        if torn:
            notices.append(torn)
        last_crc = crcs[-1]
        known = _compare(path, kind, meta.game, crcs, mirror, bool(torn))
        notices.extend(known[0])
        # What the open writes (the torn row dropped, the mirror put right) is owed, not
        # required: on a full or read-only card the game is resumed from what was read, and
        # StepLog writes these first, before any new step, once the card takes them.
        owed = known[1]
        trouble = read_only
        fd = -1
        try:
            if torn and not trouble:   # dropped only once nothing refused the log
                db.execute("DELETE FROM steps WHERE seq = ?", (torn_seq,))
                torn_seq = 0
            if not trouble:
                fd = os.open(mirror_path(path), os.O_RDWR) if owed is None else _write_mirror(path, owed)
                owed = None
        except (sqlite3.Error, OSError) as exc:
            if not is_storage_error(exc):
                raise
            trouble = reason(exc)
        if trouble:
            # The mirror's state as it must be (the one read, when that was right); a full card
            # still takes it in place (its pages exist), a read-only one later (StepLog).
            state = owed if owed is not None else mirror.best
            if fd < 0:
                fd = _mirror_in_place(path, owed)
            owed = None if fd >= 0 else state
    except BaseException:
        db.close()
        raise
    return Opened(path, db, fd, meta.game, meta.header, rows, last_crc, tuple(notices),
                  owed_mirror=owed if trouble else None, torn_seq=torn_seq if torn else 0, trouble=trouble)


def _compare(path: Path, kind: LogKind, game: bytes, crcs: list[int], mirror: _MirrorRead,
             torn: bool) -> tuple[list[str], Mirrored | None]:
    """The notices from comparing the log (``crcs``: the meta's, then each step's) with its
    mirror, and the mirror to write (None: it is right as it is). The module doc says what
    each outcome proves."""
    count = len(crcs) - 1
    unit = kind.unit
    where = f"{path} ({unit} {game.hex()})"
    m = mirror.best
    now = Mirrored(game, count, crcs[-1], over=m is not None and m.over and m.game == game and m.steps == count)
    # Said so when nothing can count what followed: since which step, not how many.
    unknown = f"so steps lost at the end cannot be ruled out: the {unit} resumes after step {count}"
    if m is None:
        # Every log's mirror is written before the log is renamed into place (_create): a log
        # without a good one lost it, whatever its count (0 included), and the mirror alone
        # could have counted steps that were only in a lost WAL.
        return [f"the mirror of {where} is {mirror.problem}, {unknown}"], now
    if m.game != game:
        return [f"the mirror of {where} belongs to {unit} {m.game.hex()}, {unknown}"], now
    if m.steps <= count and crcs[m.steps] != m.last_crc:
        raise BadTableLog(f"step {m.steps} of {where} is not the step that was logged "
                          "(its checksum differs from the mirror's): the log cannot be resumed safely")
    if count < m.made:
        lost = m.made - count
        if torn and lost == 1 and not mirror.alone:
            return [], now          # the torn step was the only one: said already
        if mirror.alone:
            # The damaged slot may have announced one step more than the good one.
            how_many = f"{lost} or {lost + 1} steps" if m.more == 0 else f"{lost} steps or more"
            return [f"{where} lost its last {how_many} (its mirror counted {m.made}, and one of its "
                    f"two slots is damaged): the {unit} resumes after step {count}"], now
        return [f"{where} lost its last {lost} logged step{'s' * (lost != 1)} (its mirror counted "
                f"{m.made}): the {unit} resumes after step {count}"], now
    if count == m.made:
        if mirror.alone and not torn:
            return [f"one of the two slots of the mirror of {where} is damaged, so step {count + 1} "
                    f"may have been lost: the {unit} resumes after step {count}"], now
        if m.steps == count and m.layout == _BEFORE and not mirror.alone:
            return [], None
        return [], now
    # A log may hold one step more than the good slot counted when the other slot (damaged)
    # may have announced it, or with an older rig's mirror (written after each commit).
    if count == m.made + 1 and (mirror.alone or m.layout == _AFTER) and not torn:
        return [], now
    return [f"the mirror of {where} counted {m.made} steps, not the {count} in the "
            f"log, so it is older than the log and steps lost at the end cannot be ruled out: "
            f"the {unit} resumes after step {count}"], now



@dataclass(frozen=True, slots=True)
class _Meta(Generic[H]):
    game: bytes
    header: H
    crc: int


def _meta_crc(meta: dict[str, str]) -> int:
    return zlib.crc32(json.dumps(sorted((k, v) for k, v in meta.items() if k != "check")).encode())


def _create(path: Path, kind: LogKind, header: Mapping[str, str]) -> None:
    """Build a new empty log beside ``path`` and rename it into place (see the module doc)."""
    tmp = Path(str(path) + ".new")
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    game = secrets.token_bytes(8)
    meta = {"format": kind.format, "version": str(kind.version), "game": game.hex(), **header}
    meta["check"] = str(_meta_crc(meta))
    db = sqlite3.connect(tmp, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE steps(seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, "
                   "crc INTEGER NOT NULL)")
        db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
    finally:
        db.close()
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    # The mirror first (on disk, its folder synced), then the log: a log in place always had
    # a mirror of its own, so one found without it lost it (see _compare), even at step 0.
    os.close(_write_mirror(path, Mirrored(game, 0, int(meta["check"]))))
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _line(text: str) -> str:
    """The first line of a message from SQLite, at most 120 characters."""
    first = (text.strip().splitlines() or [""])[0]
    return first if len(first) <= 120 else first[:119] + "…"


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _meta(db: sqlite3.Connection, path: Path, kind: LogKind, read_header: Callable[[dict[str, str]], H]) -> _Meta[H]:
    try:
        rows = db.execute("SELECT key, value FROM meta").fetchall()
    except sqlite3.OperationalError:
        raise BadTableLog(f"{path} is not a {kind.noun} (no meta table): give another --db path") from None
    try:
        meta = {k.decode(): v.decode() for k, v in rows}
    except (AttributeError, UnicodeDecodeError):
        raise BadTableLog(f"{path} has a damaged meta table (not text): start a new log") from None
    written = meta.get("format")
    if written != kind.format:
        other = KINDS.get(written or "")
        if other is not None:
            raise BadTableLog(f"{path} is {other.holds}, not {kind.holds}: give another --db path")
        raise BadTableLog(f"{path} is not a {kind.noun} (format {written!r}): give another --db path")
    if meta.get("version") != str(kind.version):
        raise BadTableLog(f"{path} was written in {kind.noun} version {meta.get('version')}, this rig "
                          f"reads version {kind.version}: finish that {kind.unit} with the matching version "
                          "or start a new log")
    try:
        if int(meta["check"]) != _meta_crc(meta):
            raise ValueError("checksum mismatch")
        header = read_header({k: v for k, v in meta.items() if k not in _META_KEYS})
        return _Meta(bytes.fromhex(meta["game"]), header, int(meta["check"]))
    except (GameError, KeyError, ValueError, TypeError) as exc:
        raise BadTableLog(f"{path} has damaged settings ({exc}): start a new log") from None


def _load(db: sqlite3.Connection, path: Path, kind: LogKind, first_prev: int,
          read_row: Callable[[dict[str, Any]], R]) -> tuple[list[R], list[int], int, str]:
    """The good rows, the CRCs (the meta's, then each good row's), and the seq of a torn last
    row with the notice that it is dropped ("" if none)."""
    rows = db.execute("SELECT seq, body, crc FROM steps ORDER BY seq").fetchall()
    good: list[R] = []
    crcs = [first_prev]
    prev = first_prev
    for i, (seq, body, crc) in enumerate(rows):
        try:
            good.append(read_row(_chained(body, crc, i + 1, prev)))
        except (GameError, ValueError, TypeError, KeyError) as exc:
            if i == len(rows) - 1:
                return good, crcs, seq, (f"the last record of {path} (step {i + 1}) was torn ({exc}) "
                                         f"and was dropped; the {kind.unit} resumes after step {i}")
            raise BadTableLog(f"step {i + 1} of {path} is damaged ({exc}) and {len(rows) - i - 1} "
                              "steps follow it: the log cannot be resumed safely") from None
        prev = crc
        crcs.append(crc)
    return good, crcs, 0, ""


def _chained(body: object, crc: object, number: int, prev: int) -> dict[str, Any]:
    """A row's body, once its checksum and its place in the chain are right."""
    if not isinstance(body, bytes) or zlib.crc32(body) != crc:
        raise ValueError("checksum mismatch")
    data = json.loads(body.decode())
    if not isinstance(data, dict):
        raise ValueError(f"its body is a JSON {type(data).__name__}, not an object")
    if data.get("step") != number:
        raise ValueError(f"it says it is step {data.get('step')!r}: a step is missing or out of order")
    if data.get("prev") != prev:
        raise ValueError("it does not follow the step before it")
    return data


# --- the table game's log ----------------------------------------------------------------------

_INPUTS: dict[str, type[Any]] = {t.__name__: t for t in INPUT_TYPES}
_SETTINGS: dict[str, type[Any]] = {"TableSettings": TableSettings}


@dataclass(frozen=True, slots=True)
class _TableHeader:
    settings: TableSettings
    seed: int
    t0_ns: int


class TableLog(StepLog):
    """An open table game's log: ``steps`` are the good rows (see :class:`StepLog`)."""

    def __init__(self, opened: Opened[_TableHeader, LoggedStep]) -> None:
        super().__init__(opened)
        self.settings = opened.header.settings
        self.seed = opened.header.seed
        self.t0_ns = opened.header.t0_ns
        self.steps = opened.rows

    @classmethod
    def open(cls, path: str | Path, settings: TableSettings, seed: int, t0_ns: int) -> TableLog:
        """Open ``path``, creating it for a new game with these settings; an existing log keeps
        its own settings and seed (it is resumed). Raises :class:`BadTableLog` with the reason
        if it cannot be resumed."""
        header = {"settings": dumps(settings), "seed": str(seed), "t0_ns": str(t0_ns)}
        return cls(open_log(path, TABLE, header, _table_header, _table_step))

    @classmethod
    def unwritten(cls, path: str | Path, settings: TableSettings, seed: int, t0_ns: int, why: str,
                  reopen: Callable[[], Opened[_TableHeader, LoggedStep]] | None = None) -> TableLog:
        """The log of a new game whose file cannot be opened or made now (storage trouble):
        the game is kept in memory (``why`` is its notice and :attr:`trouble`), and each step
        tries to make the file with ``reopen`` (by default an empty log at ``path``), into which
        the steps kept are then written in order."""
        path = Path(path)
        header = {"settings": dumps(settings), "seed": str(seed), "t0_ns": str(t0_ns)}
        # No connection yet (db None): StepLog makes the file at the first step the card takes.
        opened: Opened[_TableHeader, LoggedStep] = Opened(
            path, None, -1, bytes(8), _TableHeader(settings, seed, t0_ns), [], 0, (why,))  # type: ignore[arg-type]
        table_log = cls(opened)
        table_log.trouble = why
        table_log._reopen = reopen or (lambda: open_log(path, TABLE, header, _table_header, _table_step))
        return table_log

    def append(self, event: Input, made: Step) -> None:
        """Write one step; returns once it is on disk, with its mirror."""
        self._write({"input": to_dict(event), "commands": [to_dict(c) for c in made.commands],
                     "events": [to_dict(e) for e in made.events]}, made.table.stage is Stage.GAME_OVER)


def _table_header(meta: dict[str, str]) -> _TableHeader:
    settings = from_dict(json.loads(meta["settings"]), _SETTINGS)
    return _TableHeader(settings, int(meta["seed"]), int(meta["t0_ns"]))


def _table_step(data: dict[str, Any]) -> LoggedStep:
    return LoggedStep(
        input=from_dict(data["input"], _INPUTS),
        commands=tuple(from_dict(c, RECORD_TYPES) for c in data["commands"]),
        events=tuple(from_dict(e, RECORD_TYPES) for e in data["events"]),
    )
