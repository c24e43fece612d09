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

from ..bounded import BadInput, MissingFile, Unreadable, label, load_toml, read_file, utf8
from ..errors import BadConfig
from ..staff import ITERATIONS, ITERATIONS_RANGE, PinHash
from .writefile import BadTarget, check_target, replace_file

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
    check_pin_target(path)
    replace_file(path, render(pin_hash).encode("utf-8"), _WHAT, _INSTEAD, mode=MODE, gid=gid)
    return pin_hash


_WHAT = "the staff PIN file"
_INSTEAD = "choose another file with --file"


def check_pin_target(path: Path) -> None:
    """:class:`BadTarget` if ``path`` may not become the PIN file (see game/app/writefile.py):
    a symbolic link, a FIFO, a device, a folder, a missing folder, or a file that is not one."""
    old = check_target(path, _WHAT, _INSTEAD)
    if old is not None and old.st_size > 0:
        _check_replaceable(path, old.st_size, _INSTEAD)


def _check_replaceable(path: Path, size: int, instead: str) -> None:
    """An existing file is replaced only if it looks like a PIN file (run as root, a mistyped
    ``--file /etc/passwd`` must not wipe it): at most :data:`MAX_BYTES`, naming the algorithm.
    A damaged PIN file still names it, so 'set the PIN again' (the kiosk's advice) works."""
    if size > MAX_BYTES:
        raise BadTarget(f"{label(path)} holds {size:,} bytes, more than a staff PIN file ever does "
                        f"({MAX_BYTES:,}), so it is not replaced: {instead}, or remove it first")
    try:
        head = read_file(path, MAX_BYTES, f"the staff PIN file {label(path)}")
    except BadInput as exc:
        raise BadTarget(f"{exc}; it is not replaced: {instead}") from None
    if b"algorithm" not in head:
        raise BadTarget(f"{label(path)} is not a staff PIN file (no 'algorithm' line), so it is not replaced: "
                        f"{instead}, or remove it first")

