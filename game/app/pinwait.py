"""The count of wrong staff PINs, kept in the data folder (``pin-wrong``) so that restarting the
kiosk (pulling the plug, killing it) does not clear the wrong-PIN back-off.

Only the count is saved, not a time: the Pi has no real-time clock, so its wall time after a
cold boot can be hours off, and the monotonic clock starts again at every boot. The wait that
belongs to the saved count starts again from the first attempt after a restart
(:class:`game.staff.StaffLock`), which never shortens a wait.

The kiosk saves the count *before* it checks a PIN (as if the PIN were wrong) and clears it after
a right one: cutting the power while a PIN is being checked cannot undo a wrong attempt.

**A card that takes no write** (full, read-only, failing) must not clear the back-off at the
next restart (issue 21, hostile retest: the count was only a journal line, and a restarted kiosk
accepted the right PIN at once). So a count the card refuses is kept in a *shadow* that needs no
SD card write and survives a restart of the kiosk (not a reboot): a small file named for the data folder
in ``$RUNTIME_DIRECTORY`` (systemd's ``RuntimeDirectory=``, private to the service), else
``/run/user/<uid>`` or ``/dev/shm`` (RAM), removed once the card takes a count again. The kiosk
reads the higher of the two counts at start: a shadow left behind could only lengthen a wait,
never shorten one. A reboot clears the shadow; the card's count (once it could be written) stays.
"""

from __future__ import annotations

import hashlib
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


def shadow_path(path: Path) -> Path | None:
    """Where the count saved at ``path`` is shadowed (see the module doc): a file in a folder
    that needs no SD card write and outlives the kiosk's process, named for the data folder so
    two kiosks' counts stay apart; None when there is no such folder."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    candidates = [Path(runtime)] if runtime else []
    candidates += [Path(f"/run/user/{os.getuid()}"), Path("/dev/shm")]
    key = hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:16]
    for folder in candidates:
        if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
            return folder / f"cheating-moth-{NAME}-{key}"
    return None


def load_count(path: Path, notes: list[str], shadow: Path | None = None) -> int:
    """The saved count (0 without a file); a damaged one is :data:`UNREADABLE` with a note. Read
    within game/bounded.py's bounds: a FIFO or a device in its place is refused without waiting
    on it (the kiosk reaches its first frame), a folder or a larger file is refused unread.
    With a ``shadow`` (:func:`shadow_path`), the higher of the two counts."""
    count = _load_one(path, notes)
    if shadow is not None:
        kept = _load_one(shadow, [])          # a damaged shadow counts as UNREADABLE, unsaid
        if kept > count:
            log.warning("the count of wrong staff PINs kept beside the data folder (%d, in %s) is higher "
                        "than the one in %s (%d): it is used", kept, shadow, path, count)
            count = kept
    return count


def _load_one(path: Path, notes: list[str]) -> int:
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


def save_count(path: Path, count: int, shadow: Path | None = None) -> bool:
    """Write the count whole and rename it into place (and into ``shadow``, which needs no SD
    card write: a restart then keeps the back-off even when the card refused it); False (and a
    line in the log) if the data folder cannot take it, so the kiosk keeps running on the count
    it holds in memory and the shadow."""
    if _save_one(path, count):
        if shadow is not None:
            try:   # the card holds the count: a shadow left from a failure must not outlive it
                shadow.unlink(missing_ok=True)
            except OSError:
                pass   # a shadow that stays can only lengthen a wait
        return True
    if shadow is not None and not _save_one(shadow, count):
        log.error("the count of wrong staff PINs could not be kept in %s either", shadow)
    return False


def _save_one(path: Path, count: int) -> bool:
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
