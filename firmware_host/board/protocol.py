"""The buzzer board's line protocol (PROTOCOL.md): one codec for the board and the host.

This file runs unchanged under MicroPython (copied to the board) and CPython (imported as
``firmware_host.board.protocol``). So it uses only what both have: no dataclasses, no
annotations that MicroPython would have to evaluate (types are PEP 484 type comments, which
mypy reads and MicroPython ignores), no ``binascii.crc_hqx`` (MicroPython lacks it: the CRC
table is built here; CPython uses the C function when it has it).
"""

PROTO_MAJOR = 1
PROTO_MINOR = 1
PROTO = "1.1"
MAX_LINE = 160  # bytes before the LF
SEQ_MOD = 65536
NO_SEQ = -1  # "nothing received yet", written "-" on the wire

# Reasons a line is bad (ProtocolError.reason): counters on both sides use these names.
BAD_BYTES = "bytes"
BAD_LONG = "long"
BAD_FORMAT = "format"
BAD_CRC = "crc"
BAD_ARGS = "args"

# HELLO's hardware identity (from 1.1): the values of ``board``; ``chip`` is e.g. RP2040 or RP2350.
BOARDS = ("pico", "pico_w", "pico2", "pico2_w", "other")
ERR_BOARD = "board"  # ERR code: the firmware runs on hardware it does not support

_DIGITS = "0123456789"
_HEX = "0123456789ABCDEF"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_KEY_FIRST = "abcdefghijklmnopqrstuvwxyz"
_KEY_CHARS = _KEY_FIRST + _DIGITS + "_"
_VALUE_CHARS = _DIGITS + _UPPER + _KEY_FIRST + "_.,:+-"
MAX_KEY = 16
MAX_VALUE = 48


class ProtocolError(ValueError):
    """A line or field that breaks PROTOCOL.md; ``reason`` is one of the BAD_* names."""

    def __init__(self, reason, detail):
        # type: (str, str) -> None
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def _make_table():
    # type: () -> list[int]
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16_py(data):
    # type: (bytes) -> int
    """CRC-16/CCITT-FALSE in plain Python (what the board runs)."""
    crc = 0xFFFF
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


try:
    from binascii import crc_hqx as _crc_hqx  # CPython only

    def crc16(data):
        # type: (bytes) -> int
        """CRC-16/CCITT-FALSE of ``data`` (``b"123456789"`` -> 0x29B1)."""
        return _crc_hqx(data, 0xFFFF)

except ImportError:  # MicroPython: the viper-compiled loop (fastcrc.py) where the board has it
    try:
        from fastcrc import crc16  # type: ignore[no-redef,import-not-found]
    except ImportError:
        crc16 = crc16_py


def next_seq(seq):
    # type: (int) -> int
    return (seq + 1) % SEQ_MOD


def seq_after(a, b):
    # type: (int, int) -> int
    """How far ``a`` is after ``b`` in sequence space, -32768..32767 (negative: before)."""
    d = (a - b) % SEQ_MOD
    return d - SEQ_MOD if d >= SEQ_MOD // 2 else d


def format_value(value):
    # type: (object) -> str
    """An int, a word or a list/tuple of ints as it goes on the wire."""
    if isinstance(value, bool):
        raise ProtocolError(BAD_ARGS, "a flag is written 0 or 1, not " + repr(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return "-"
        return ",".join([format_value(v) for v in value])
    if isinstance(value, str):
        if not _valid_value(value):
            raise ProtocolError(BAD_ARGS, "value " + repr(value) + " has bytes the protocol does not allow")
        return value
    raise ProtocolError(BAD_ARGS, "value " + repr(value) + " cannot be written on the wire")


def _valid_value(text):
    # type: (str) -> bool
    if not 0 < len(text) <= MAX_VALUE:
        return False
    for ch in text:
        if ch not in _VALUE_CHARS:
            return False
    return True


def _valid_key(text):
    # type: (str) -> bool
    if not 0 < len(text) <= MAX_KEY or text[0] not in _KEY_FIRST:
        return False
    for ch in text:
        if ch not in _KEY_CHARS:
            return False
    return True


def _valid_verb(text):
    # type: (str) -> bool
    if not 2 <= len(text) <= 8:
        return False
    for ch in text:
        if ch not in _UPPER:
            return False
    return True


def encode(seq, verb, fields):
    # type: (int, str, list[tuple[str, object]]) -> bytes
    """One frame as bytes, LF included. ``fields`` is a list of (key, value) pairs."""
    if not 0 <= seq < SEQ_MOD:
        raise ProtocolError(BAD_ARGS, "sequence number " + repr(seq) + " is not 0 to 65535")
    if not _valid_verb(verb):
        raise ProtocolError(BAD_ARGS, "verb " + repr(verb) + " is not 2 to 8 capital letters")
    parts = [str(seq), verb]
    seen = []  # type: list[str]
    for key, value in fields:
        if not _valid_key(key) or key in seen:
            raise ProtocolError(BAD_ARGS, "key " + repr(key) + " is not valid or comes twice")
        seen.append(key)
        parts.append(key + "=" + format_value(value))
    body = " ".join(parts).encode()
    line = body + b" *" + ("%04X" % crc16(body)).encode() + b"\n"
    if len(line) - 1 > MAX_LINE:
        raise ProtocolError(BAD_LONG, "frame " + verb + " would be " + str(len(line) - 1) + " bytes, over " + str(MAX_LINE))
    return line


def int_template(verb, keys):
    # type: (str, tuple[str, ...]) -> str
    """A frame of whole numbers as one %-format, its sequence number first: ``int_template("TIME",
    ("ticks",))`` is ``"%d TIME ticks=%d"``. Checked once, here, so encode_template need not."""
    encode(0, verb, [(key, 0) for key in keys])  # raises ProtocolError for a bad verb or key
    return "%d " + verb + "".join([" " + key + "=%d" for key in keys])


def encode_template(template, values):
    # type: (str, tuple[int, ...]) -> bytes
    """The same bytes as ``encode(seq, verb, fields)`` for a frame made by ``int_template`` and
    ``values`` = (seq, each field's whole number): one string format and the CRC, without
    encode's checks, lists and per-character validation. On the Pico this is the main loop's
    hottest path (issue 21: the loop had no headroom); the values must be whole numbers >= 0."""
    data = (template % values).encode()
    return data + (" *%04X\n" % crc16(data)).encode()


def decode(line):
    # type: (bytes) -> tuple[int, str, dict[str, str]]
    """``(seq, verb, {key: value})`` from one line (with or without its LF / CR LF).

    Raises ProtocolError for anything PROTOCOL.md does not allow; never anything else.
    """
    if line[-1:] == b"\n":
        line = line[:-1]
    if line[-1:] == b"\r":
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(BAD_LONG, "line of " + str(len(line)) + " bytes is over " + str(MAX_LINE))
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise ProtocolError(BAD_BYTES, "byte " + hex(byte) + " is not printable ASCII")
    n = len(line)
    if n < 10 or line[n - 6 : n - 4] != b" *":
        raise ProtocolError(BAD_FORMAT, "line does not end in ' *CRC'")
    crc_text = line[n - 4 :].decode()
    for ch in crc_text:
        if ch not in _HEX:
            raise ProtocolError(BAD_FORMAT, "CRC " + repr(crc_text) + " is not 4 capital hex digits")
    body = line[: n - 6]
    if int(crc_text, 16) != crc16(body):
        raise ProtocolError(BAD_CRC, "CRC " + crc_text + " does not match the frame")
    tokens = body.decode().split(" ")
    if len(tokens) < 2:
        raise ProtocolError(BAD_FORMAT, "frame has no verb")
    seq = parse_seq(tokens[0])
    verb = tokens[1]
    if not _valid_verb(verb):
        raise ProtocolError(BAD_FORMAT, "verb " + repr(verb) + " is not 2 to 8 capital letters")
    fields = {}  # type: dict[str, str]
    for token in tokens[2:]:
        eq = token.find("=")
        key = token[:eq] if eq > 0 else ""
        value = token[eq + 1 :]
        if not _valid_key(key) or not _valid_value(value) or key in fields:
            raise ProtocolError(BAD_FORMAT, "field " + repr(token) + " is not key=value or comes twice")
        fields[key] = value
    return seq, verb, fields


def parse_seq(text):
    # type: (str) -> int
    if not _is_decimal(text) or len(text) > 5 or int(text) >= SEQ_MOD:
        raise ProtocolError(BAD_FORMAT, "sequence number " + repr(text) + " is not 0 to 65535")
    return int(text)


def _is_decimal(text):
    # type: (str) -> bool
    if not text or (len(text) > 1 and text[0] == "0"):
        return False
    for ch in text:
        if ch not in _DIGITS:
            return False
    return True


def get_int(fields, key, low, high):
    # type: (dict[str, str], str, int, int) -> int
    """Field ``key`` as an int in low..high, or ProtocolError(BAD_ARGS)."""
    text = fields.get(key)
    if text is None:
        raise ProtocolError(BAD_ARGS, "key " + repr(key) + " is missing")
    neg = text[:1] == "-" and len(text) > 1
    digits = text[1:] if neg else text
    if not _is_decimal(digits) or len(digits) > 20:
        raise ProtocolError(BAD_ARGS, key + "=" + text + " is not a whole number")
    value = -int(digits) if neg else int(digits)
    if not low <= value <= high:
        raise ProtocolError(BAD_ARGS, key + "=" + text + " is not " + str(low) + " to " + str(high))
    return value


def get_seq_or_none(fields, key):
    # type: (dict[str, str], str) -> int
    """A sequence number field that may be ``-`` (NO_SEQ)."""
    text = fields.get(key)
    if text == "-":
        return NO_SEQ
    if text is None:
        raise ProtocolError(BAD_ARGS, "key " + repr(key) + " is missing")
    try:
        return parse_seq(text)
    except ProtocolError:
        raise ProtocolError(BAD_ARGS, key + "=" + text + " is not a sequence number")


def get_list(fields, key, low, high, most):
    # type: (dict[str, str], str, int, int, int) -> list[int]
    """Field ``key`` as a list of distinct ints in low..high (``-`` is empty), at most ``most``."""
    text = fields.get(key)
    if text is None:
        raise ProtocolError(BAD_ARGS, "key " + repr(key) + " is missing")
    if text == "-":
        return []
    out = []  # type: list[int]
    for part in text.split(","):
        if not _is_decimal(part) or len(part) > 10:
            raise ProtocolError(BAD_ARGS, key + "=" + text + " is not a list of whole numbers")
        value = int(part)
        if not low <= value <= high or value in out:
            raise ProtocolError(BAD_ARGS, key + "=" + text + " has " + part + " twice or outside " + str(low) + " to " + str(high))
        out.append(value)
    if len(out) > most:
        raise ProtocolError(BAD_ARGS, key + "=" + text + " has more than " + str(most) + " entries")
    return out


def get_word(fields, key, allowed):
    # type: (dict[str, str], str, tuple[str, ...]) -> str
    text = fields.get(key)
    if text is None or text not in allowed:
        raise ProtocolError(BAD_ARGS, "key " + repr(key) + " is " + repr(text) + ", not one of " + ",".join(allowed))
    return text


def parse_version(text):
    # type: (str) -> tuple[int, int]
    """``"1.0"`` -> (1, 0); ProtocolError(BAD_ARGS) for anything else."""
    dot = text.find(".")
    major, minor = text[:dot], text[dot + 1 :]
    if dot < 1 or not _is_decimal(major) or not _is_decimal(minor) or len(text) > 11:
        raise ProtocolError(BAD_ARGS, "version " + repr(text) + " is not MAJOR.MINOR")
    return int(major), int(minor)


class LineBuffer:
    """Cuts a byte stream into lines. A line longer than MAX_LINE is cut short and handed out
    anyway (so the receiver counts and NAKs it); the rest of it up to the next LF is dropped."""

    def __init__(self):
        # type: () -> None
        self._buf = b""
        self._skipping = False

    def feed(self, data):
        # type: (bytes) -> list[bytes]
        lines = []  # type: list[bytes]
        buf = self._buf + data
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end < 0:
                break
            if self._skipping:
                self._skipping = False
            else:
                lines.append(buf[start:end])
            start = end + 1
        rest = buf[start:]
        if len(rest) > MAX_LINE + 1:
            if not self._skipping:
                lines.append(rest[: MAX_LINE + 2])
            self._skipping = True
            rest = b""
        self._buf = rest
        return lines

    def pending(self):
        # type: () -> int
        """Bytes held for an unfinished line."""
        return len(self._buf)

    def clear(self):
        # type: () -> None
        self._buf = b""
        self._skipping = False
