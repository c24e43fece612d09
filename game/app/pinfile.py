"""The staff PIN file (``/etc/cheating-moth/staff-pin.toml``): the PIN's PBKDF2 hash, salt and
iteration count, readable by root and the kiosk's group only (mode 0640).

The PIN used to sit in ``config.toml``, which every user of the Pi may read; a hash of a 4-digit
PIN there is a PIN in the clear to anyone with a shell. This file is written whole and renamed
into place (never half a file), created 0600 and widened to 0640 only once its owner and group
are set, so no reader outside them ever sees it. The kiosk only reads it (the service's
``ProtectSystem=strict`` keeps /etc read-only for it): only ``cheating-moth staff-pin`` changes it.
"""

from __future__ import annotations

import grp
import os
import secrets
from pathlib import Path

from ..bounded import BadInput, MissingFile, Unreadable, load_toml, read_file, utf8
from ..errors import BadConfig
from ..staff import ITERATIONS, ITERATIONS_RANGE, PinHash

DEFAULT_PATH = Path("/etc/cheating-moth/staff-pin.toml")
#: The kiosk's user group (``deploy/install.py`` creates it): the only group that may read the file.
SERVICE_GROUP = "cheating-moth"
MODE = 0o640
#: A PIN file is four short lines; anything much larger is not one (and is not read whole).
MAX_BYTES = 4096
_SALT_BYTES = 16
_ALGORITHM = "pbkdf2-sha256"


def pin_file_for(config: str | Path) -> Path:
    """The PIN file beside a config file (``/etc/cheating-moth/config.toml`` -> ``staff-pin.toml``)."""
    return Path(config).with_name(DEFAULT_PATH.name)


def render(pin_hash: PinHash) -> str:
    return ("# The staff menu's PIN, written by 'cheating-moth staff-pin' (a salted hash: the PIN\n"
            "# itself is not stored). Change it by running that command again.\n"
            f'algorithm = "{_ALGORITHM}"\n'
            f"iterations = {pin_hash.iterations}\n"
            f'salt = "{pin_hash.salt.hex()}"\n'
            f'hash = "{pin_hash.digest.hex()}"\n')


def read_pin_file(path: Path) -> PinHash | None:
    """The stored hash, ``None`` if there is no file; anything else wrong is a :class:`BadConfig`
    naming the file and what is expected. Read within game/bounded.py's bounds: a FIFO, a device
    or a folder in its place is refused without waiting on it, a larger file before it is read."""
    again = "set the PIN again with 'sudo cheating-moth staff-pin'"
    what = f"the staff PIN file {str(path)!r}"
    try:
        raw = read_file(path, MAX_BYTES, what, again)
    except MissingFile:
        return None
    except Unreadable as exc:
        raise BadConfig(f"cannot read the staff PIN file {str(path)!r} ({exc.why}): it must be readable by "
                        f"the kiosk's group ({again})") from None
    except BadInput as exc:
        raise BadConfig(str(exc)) from None
    try:
        data = load_toml(utf8(raw, what), what)
    except BadInput as exc:
        raise BadConfig(f"{exc}; or {again}") from None
    algorithm, iterations = data.get("algorithm"), data.get("iterations")
    if algorithm != _ALGORITHM:
        raise BadConfig(f"the staff PIN file {str(path)!r} has algorithm {str(algorithm)[:40]!r}: "
                        f"this version reads {_ALGORITHM!r} only; {again}")
    low, high = ITERATIONS_RANGE
    if type(iterations) is not int or not low <= iterations <= high:
        raise BadConfig(f"the staff PIN file {str(path)!r} has iterations {str(iterations)[:40]!r}: "
                        f"use a whole number from {low} to {high}, or {again}")
    salt = _hex(data.get("salt"), (16, 64), "salt", path, again)
    digest = _hex(data.get("hash"), (32, 32), "hash", path, again)
    return PinHash(digest, salt, iterations)


def _hex(value: object, size: tuple[int, int], key: str, path: Path, again: str) -> bytes:
    low, high = size
    try:
        if not isinstance(value, str) or not value.isascii():
            raise ValueError
        data = bytes.fromhex(value)
    except ValueError:
        data = b""
    if not low <= len(data) <= high:
        raise BadConfig(f"the staff PIN file {str(path)!r} has {key} {str(value)[:40]!r}: use "
                        f"{2 * low}{'' if low == high else f' to {2 * high}'} hex digits, or {again}")
    return data


def write_pin_file(path: Path, pin: str, iterations: int = ITERATIONS,
                   group: str = SERVICE_GROUP) -> PinHash:
    """Hash ``pin`` and write the PIN file atomically, mode 0640. Run as root, it is owned by
    root and ``group`` (which must exist: the installer creates it); otherwise by the current
    user and group. A refusal (bad PIN, no such group) leaves the old file as it was."""
    pin_hash = PinHash.of(pin, secrets.token_bytes(_SALT_BYTES), iterations)
    gid = -1
    if os.geteuid() == 0:
        try:
            gid = grp.getgrnam(group).gr_gid
        except KeyError:
            raise BadConfig(f"group {group!r} does not exist, so the kiosk could not read the PIN file: "
                            "install the rig first (sudo python3 deploy/install.py) or name its group "
                            "with --group") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(render(pin_hash))
            out.flush()
            if gid != -1:
                os.fchown(out.fileno(), 0, gid)
            os.fchmod(out.fileno(), MODE)   # widened only now that owner and group are right
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)
    return pin_hash


def _sync_folder(folder: Path) -> None:
    """The rename reaches the disk too (a pulled plug must not bring the old PIN back)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
