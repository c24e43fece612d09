"""Bounded reading of what the rig reads from outside: files, stdin and lines of JSON or TOML.

Whatever a file holds, reading it costs a bounded amount of memory and time and every refusal
is one line of at most :data:`MESSAGE_CHARS` characters naming the file and what would be valid:

- kind: regular files only; a FIFO, a device (``/dev/zero``, a tty), a folder or a socket is
  refused by name without being read or waited on, and a symbolic link loop is named as such;
- size: at most ``limit`` bytes are read; a larger file is refused before it is read;
- text: UTF-8 only, the first bad byte named;
- JSON: a key twice in one object is refused (``json`` keeps the last one silently), as are
  ``NaN``/``Infinity`` (not JSON);
- nesting: at most :data:`MAX_DEPTH` levels of lists and objects (no file the rig reads needs
  more than 5); deeper than the parser's own stack is named as well, not a RecursionError;
- numbers: whole numbers of at most :data:`MAX_DIGITS` digits (a 64-bit nanosecond time has 19;
  Python refuses to convert more than 4,300 and a long one costs time); floats must be finite.

The checks on the decoded tree name where the bad value is, e.g. ``edges[3].t_ns``.
"""

from __future__ import annotations

import errno
import json
import math
import os
import reprlib
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

from .errors import GameError

#: The longest message about a bad input, so it fits one line of a terminal or a log.
MESSAGE_CHARS = 200
#: Levels of lists and objects (tables) a document may nest: a race document needs 3, a config
#: file 4, a game log record 5 (an undone command's rules); deeper is refused by name.
MAX_DEPTH = 16
#: Digits of a whole number: 20 holds any 64-bit value, signed or not.
MAX_DIGITS = 20
#: Characters of a path or value quoted in a message.
SHOW_CHARS = 60


class BadInput(GameError, ValueError):
    """Input that cannot be read within the bounds; the message is one line naming it."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def one_line(message: str, limit: int = MESSAGE_CHARS) -> str:
    """``message`` as one line of at most ``limit`` characters: line breaks and other control
    characters become spaces, and a longer text is cut with an ellipsis."""
    flat = "".join(" " if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 else ch for ch in message)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


_REPR = reprlib.Repr()
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = _REPR.maxset = 4
_REPR.maxlevel = 2
_REPR.maxstring = _REPR.maxother = SHOW_CHARS
_REPR.maxlong = 24


def show(value: object, limit: int = SHOW_CHARS) -> str:
    """``repr(value)`` shortened for a message: a value from a hostile file can be huge."""
    try:
        text = _REPR.repr(value)
    except (RecursionError, ValueError):  # ValueError: an int beyond Python's digit limit
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def label(path: str | Path) -> str:
    """A path quoted for a message, its start cut if long (the file's name is at the end)."""
    text = repr(str(path))
    return text if len(text) <= SHOW_CHARS else "'…" + text[-(SHOW_CHARS - 2):]


def _size(limit: int) -> str:
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= factor and limit % factor == 0:
            return f"{limit // factor} {unit}"
    return f"{limit:,} bytes"


class Unreadable(BadInput):
    """The file is there (or may be) but the system will not give its bytes: no permission, an
    I/O error of a failing card, a name too long. ``why`` is the system's reason, for a caller
    that says who should fix what in a sentence of its own."""

    def __init__(self, message: str, why: str = "") -> None:
        super().__init__(message)
        self.why = why or message


class MissingFile(Unreadable):
    """The file does not exist: for an optional file, a caller tells this from the refusals."""


#: How a file that is not a regular file is named in a refusal (the ``stat`` type bits).
_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device (a disk)"),
    (stat.S_ISSOCK, "a socket"),
)
#: Opening never waits (a FIFO without a writer, a serial line without carrier) and never makes
#: a terminal the process's controlling one; the descriptor is not inherited by a child.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


#: What :func:`what_is` says of a symbolic link that leads back to itself.
LINK_LOOP = "a symbolic link loop (it leads back to itself)"


def what_is(path: str | Path) -> str:
    """What is at ``path``, for a sentence about a path that is not what the rig wants there:
    ``"missing"``, ``"a file"``, ``"a folder"``, :data:`LINK_LOOP`, ``"a symbolic link to
    nothing"``, ``"a FIFO (named pipe)"``, a device, a socket. Never opens it (a FIFO would wait)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return LINK_LOOP
        if exc.errno != errno.ENOENT:
            return f"not readable ({exc.strerror or exc})"
        return "a symbolic link to nothing" if os.path.islink(path) else "missing"
    return "a file" if stat.S_ISREG(mode) else _kind(mode)


def _not_regular(what: str, mode: int, hint: str | None) -> BadInput:
    return BadInput(f"{what} is {_kind(mode)}, not a file: {hint or 'name a regular file'}")


def _too_large(what: str, limit: int, hint: str | None = None) -> str:
    return (f"{what} is larger than {_size(limit)}, the most it may hold: "
            f"{hint or 'check that it is the right file'}")


def _refusal(exc: OSError, what: str) -> BadInput:
    """An ``OSError`` of opening or reading a file as one sentence naming it."""
    if exc.errno == errno.ELOOP:
        return BadInput(f"{what} is a symbolic link loop (it leads back to itself): point it at a file")
    refusal = MissingFile if exc.errno == errno.ENOENT else Unreadable
    why = exc.strerror or str(exc)
    return refusal(f"cannot read {what}: {why}", why)


class _NotRegular(Exception):
    def __init__(self, mode: int) -> None:
        super().__init__(mode)
        self.mode = mode


def open_regular(path: str | Path, limit: int, what: str, hint: str | None = None) -> BinaryIO:
    """``path`` open for reading once it is known to be a regular file of at most ``limit``
    bytes. A FIFO, a device (``/dev/zero``, a tty), a folder or a socket is refused by name
    without being read or waited on, a symbolic link loop is named as one (a link to a file is
    followed), and a larger file is refused before a byte is read; ``hint`` says what to give
    instead. Every refusal is :class:`BadInput` (:class:`Unreadable`, :class:`MissingFile`:
    the system's own refusal)."""
    try:
        # Looked at before it is opened: opening a device can itself do something (a serial
        # port's modem lines, a tape's rewind); fstat after opening closes the race with a swap.
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise _NotRegular(mode)
        fd = os.open(path, _OPEN_FLAGS)
    except _NotRegular as exc:
        raise _not_regular(what, exc.mode, hint) from None
    except OSError as exc:
        raise _refusal(exc, what) from None
    except ValueError as exc:  # a path with a NUL byte
        raise BadInput(f"cannot read {what}: {exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(what, info.st_mode, hint)
        if info.st_size > limit:
            raise BadInput(_too_large(what, limit, hint))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_file(path: str | Path, limit: int, what: str, hint: str | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (see :func:`open_regular`);
    anything else is :class:`BadInput` (``what`` names the file, e.g. ``"pin map 'pins.toml'"``)."""
    with open_regular(path, limit, what, hint) as file:
        try:
            data = file.read(limit + 1)  # one byte more than allowed tells a file that grew too large
        except OSError as exc:  # EIO from a failing card
            raise _refusal(exc, what) from None
    if len(data) > limit:
        raise BadInput(_too_large(what, limit, hint))
    return data


def read_stream(stream: IO[bytes] | IO[str], limit: int, what: str) -> bytes:
    """At most ``limit`` bytes from a binary (or text) stream; one more refuses it unread."""
    data = stream.read(limit + 1)
    return _within(data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data, limit, what)


def _within(raw: bytes, limit: int, what: str) -> bytes:
    if len(raw) > limit:
        raise BadInput(_too_large(what, limit))
    return raw


def utf8(raw: bytes, what: str) -> str:
    """``raw`` decoded as UTF-8, or :class:`BadInput` naming the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{what} is not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start}): "
                       "save it as UTF-8") from None


@dataclass(frozen=True, slots=True)
class LongNumber:
    """A JSON whole number with more than :data:`MAX_DIGITS` digits, left unconverted."""

    digits: int

    def __repr__(self) -> str:
        return f"<a {self.digits}-digit number>"


def _parse_int(text: str) -> int | LongNumber:
    digits = len(text) - text.startswith("-")
    return int(text) if digits <= MAX_DIGITS else LongNumber(digits)


def _no_constant(name: str) -> object:
    raise _Refused(f"has {name}, which is not JSON: use a finite number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _Refused(f"has the key {show(key, 40)} twice in one object: give each key once")
        obj[key] = value
    return obj


class _Refused(Exception):
    """Raised inside a JSON hook: the rest of the sentence after the input's name."""


def load_json(text: str, what: str) -> object:
    """One JSON document within the bounds (see the module), or :class:`BadInput`."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_int=_parse_int,
                          parse_constant=_no_constant)
    except _Refused as exc:
        raise BadInput(f"{what} {exc}") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): "
                       "fix the syntax") from None
    except RecursionError:
        raise BadInput(_too_deep(what, "lists or objects", None)) from None
    check_tree(data, what, "lists or objects")
    return data


def load_toml(text: str, what: str) -> dict[str, Any]:
    """One TOML document within the bounds (tomllib already refuses a key given twice)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{what} is not valid TOML ({exc}): fix the syntax") from None
    except RecursionError:
        raise BadInput(_too_deep(what, "arrays or tables", None)) from None
    except ValueError:  # int() of more digits than Python converts (4,300)
        raise BadInput(f"{what} has a number of more than 4,300 digits: use at most {MAX_DIGITS} digits") from None
    check_tree(data, what, "arrays or tables")
    return data


def _at(where: str, limit: int = SHOW_CHARS) -> str:
    """Where in a document, for a message: the end of a long path is kept (it names the value)."""
    return where if len(where) <= limit else "…" + where[-(limit - 1):]


def _too_deep(what: str, things: str, where: str | None) -> str:
    at = f" at {_at(where, 30)}" if where else ""
    return f"{what} nests {things} too deeply (over {MAX_DEPTH} levels{at}): the rig's files need 5 at most"


_LIMIT = 10**MAX_DIGITS


def check_tree(data: object, what: str, things: str = "lists or objects") -> None:
    """Refuse a decoded document nested deeper than :data:`MAX_DEPTH`, or holding a number that
    is too long (:class:`LongNumber`, or an int of more than :data:`MAX_DIGITS` digits) or not
    finite; the message names where, e.g. ``edges[3].t_ns``. Iterative: no recursion limit."""
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth + 1 > MAX_DEPTH:
                raise BadInput(_too_deep(what, things, where or "the top"))
            items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
            for key, item in reversed(items):  # reversed: the first problem in the file is found first
                step = f"[{key}]" if isinstance(key, int) else (f".{key}" if where else str(key))
                stack.append((item, where + (step if len(step) <= 30 else step[:29] + "…"), depth + 1))
        elif isinstance(value, LongNumber) or (type(value) is int and not -_LIMIT < value < _LIMIT):
            digits = value.digits if isinstance(value, LongNumber) else len(str(abs(value)))
            raise BadInput(f"{what} has a {digits}-digit number at {_at(where) or 'the top'}: "
                           f"use at most {MAX_DIGITS} digits")
        elif isinstance(value, float) and not math.isfinite(value):
            raise BadInput(f"{what} has a number that is not finite ({value}) at {_at(where) or 'the top'}: "
                           "use a finite number")


def read_json_file(path: str | Path, limit: int, what: str, hint: str | None = None) -> object:
    """A JSON file of at most ``limit`` bytes, decoded within the bounds."""
    return load_json(utf8(read_file(path, limit, what, hint), what), what)


def read_toml_file(path: str | Path, limit: int, what: str, hint: str | None = None) -> dict[str, Any]:
    """A TOML file of at most ``limit`` bytes, decoded within the bounds."""
    return load_toml(utf8(read_file(path, limit, what, hint), what), what)

