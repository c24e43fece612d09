"""Writing a file the user names (``staff-pin --file``, ``referee --report``) without harming
what is already at that name.

``os.replace`` puts a regular file in place of whatever the name holds: run as root on a
mistyped path it replaced ``/dev/zero`` and ``/dev/full`` with regular files, a FIFO another
program reads from, or a symbolic link (the link goes, its target is left stale). So the name
is looked at first (never followed): absent or a regular file is written; a symbolic link, a
FIFO, a device, a folder or a socket is refused by name, as is a missing folder to write into
(named: a mistyped folder is not created on the user's behalf). The new contents go to a file
beside it first, are flushed to the disk, and are renamed over the name: the old file or the
whole new one, never half of one, even across a pulled plug.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from ..bounded import label
from ..errors import GameError

#: How what stands at a name is called in a refusal (the ``stat`` type bits of ``lstat``).
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device (a disk)"),
    (stat.S_ISSOCK, "a socket"),
)


class BadTarget(GameError, OSError):
    """A name that must not be written: one sentence naming it and what would do. An
    ``OSError`` too (``strerror`` is the sentence), so callers that report a failed write by
    catching ``OSError`` say it as well."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.strerror = message

    def __str__(self) -> str:
        return self.message


def check_target(path: str | Path, what: str, instead: str) -> os.stat_result | None:
    """What stands at ``path`` (``lstat``; None: nothing) if it may be replaced by a file;
    otherwise :class:`BadTarget` saying what is there, ending with ``instead`` (what to do).
    Other failures to look (no permission on the folder) are the system's ``OSError``."""
    target = Path(path)
    if not str(path):
        raise BadTarget(f"{what} is an empty name: {instead}")
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        info = None     # a file where a folder should be: named below
    except ValueError as exc:   # a NUL byte in the name
        raise BadTarget(f"{what} {label(target)} is not a usable name ({exc}): {instead}") from None
    if info is None:
        _check_folder(target.parent, what, instead)
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            points = os.readlink(target)
        except OSError:
            points = "?"
        raise BadTarget(f"{what} {label(target)} is a symbolic link (to {label(points)}), which is not replaced "
                        f"nor followed: name the file itself, or {instead}")
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        raise BadTarget(f"{what} {label(target)} is {kind}, not a file, and is left as it is: {instead}")
    return info


def _check_folder(folder: Path, what: str, instead: str) -> None:
    try:
        info = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        raise BadTarget(f"{what} cannot be written in {label(folder)}, a folder that does not exist (it is "
                        f"not created for you): create it first, or {instead}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise BadTarget(f"{what} cannot be written in {label(folder)}, which is not a folder: {instead}")


def replace_file(path: str | Path, data: bytes, what: str, instead: str, *,
                 mode: int | None = None, gid: int = -1) -> Path:
    """Write ``data`` as the file ``path`` (see the module): checked by :func:`check_target`,
    written beside it, flushed, renamed over it, the folder flushed. ``mode`` None: the usual
    0666 less the umask; otherwise the file is created 0600 and given ``mode`` (and group
    ``gid`` if not -1) before it is renamed, so no reader outside them ever sees it. Raises
    :class:`BadTarget`, or ``OSError`` as the file system does; either way ``path`` is as it was."""
    target = Path(path)
    check_target(target, what, instead)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.new")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, 0o666 if mode is None else 0o600)
    try:
        try:
            left = memoryview(data)
            while left:     # os.write, not a buffered file: a full disk is said here, not at close
                left = left[os.write(fd, left):]
            if gid != -1:
                os.fchown(fd, -1, gid)
            if mode is not None:
                os.fchmod(fd, mode)   # widened only now that the group is right
            os.fsync(fd)
        finally:
            os.close(fd)
        # Looked at again just before the rename: something put there meanwhile is not replaced.
        check_target(target, what, instead)
        os.replace(tmp, target)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    _sync_folder(target.parent)
    return target


def _sync_folder(folder: Path) -> None:
    """The rename reaches the disk too (a pulled plug must not bring the old file back)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:     # a file system that cannot flush a folder: the file itself is flushed
        pass
    finally:
        os.close(fd)
