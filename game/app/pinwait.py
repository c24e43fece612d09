"""The count of wrong staff PINs, kept in the data folder (``pin-wrong``) so that restarting the
kiosk (pulling the plug, killing it) does not clear the wrong-PIN back-off.

Only the count is saved, not a time: the Pi has no real-time clock, so its wall time after a
cold boot can be hours off, and the monotonic clock starts again at every boot. The wait that
belongs to the saved count starts again from the first attempt after a restart
(:class:`game.staff.StaffLock`), which never shortens a wait.

The kiosk saves the count *before* it checks a PIN (as if the PIN were wrong) and clears it after
a right one: cutting the power while a PIN is being checked cannot undo a wrong attempt.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from ..bounded import BadInput, MissingFile, Unreadable, label, read_file

NAME = "pin-wrong"
#: A count is a few digits; a larger file is not one of ours and is not read whole.
MAX_BYTES = 32
#: A count that cannot be read is taken as this many wrong PINs (enough for one wait): a damaged
#: file must not reopen the free tries.
UNREADABLE = 3

log = logging.getLogger("cheating-moth")


def load_count(path: Path, notes: list[str]) -> int:
    """The saved count (0 without a file); a damaged one is :data:`UNREADABLE` with a note. Read
    within game/bounded.py's bounds: a FIFO or a device in its place is refused without waiting
    on it (the kiosk reaches its first frame), a folder or a larger file is refused unread."""
    waits = "the PIN keypad waits once before it checks a PIN"
    try:
        raw = read_file(path, MAX_BYTES, f"the wrong-PIN count {label(path)}", f"delete it; {waits}")
    except MissingFile:
        return 0
    except Unreadable as exc:
        notes.append(f"the count of wrong staff PINs in {path} could not be read ({exc.why}): {waits}")
        return UNREADABLE
    except BadInput as exc:
        notes.append(str(exc))
        return UNREADABLE
    text = raw.decode("ascii", "replace").strip()
    if not (text.isascii() and text.isdigit()):
        notes.append(f"the count of wrong staff PINs in {path} is damaged ({text[:20]!r}, not a whole "
                     f"number): {waits}")
        return UNREADABLE
    return int(text)


def save_count(path: Path, count: int) -> bool:
    """Write the count whole and rename it into place; False (and a line in the log) if the data
    folder cannot take it, so the kiosk keeps running on the count it holds in memory."""
    tmp = path.with_name(path.name + ".new")
    try:
        # A new file every time: whatever was left under the temporary name (a FIFO would make
        # a plain open wait for a reader, at the keypad) is removed, never written through.
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(f"{count}\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        log.error("could not save the count of wrong staff PINs in %s: %s", path, exc.strerror or exc)
        return False
    return True
