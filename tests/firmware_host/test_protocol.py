"""The shared codec (firmware_host/board/protocol.py): framing, CRC, fields, line cutting,
and the same bytes from MicroPython as from CPython."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.board import protocol as P
from firmware_host.board.ticks import Epoch, lockout_loop_count, make_word, unwrap, word_count, word_level

BOARD_DIR = Path(__file__).resolve().parents[2] / "firmware_host" / "board"


def test_crc16_ccitt_false_check_value_both_implementations() -> None:
    assert P.crc16(b"123456789") == 0x29B1
    assert P.crc16_py(b"123456789") == 0x29B1


@given(st.binary(max_size=200))
def test_table_crc_matches_binascii(data: bytes) -> None:
    assert P.crc16_py(data) == P.crc16(data)


def test_encode_matches_the_spec_example() -> None:
    assert P.encode(17, "PRESS", [("btn", 2), ("ticks", 1234567890)]) == b"17 PRESS btn=2 ticks=1234567890 *76C9\n"
    assert "`17 PRESS btn=2 ticks=1234567890 *76C9`" in (BOARD_DIR / "PROTOCOL.md").read_text()


values = st.one_of(
    st.integers(min_value=0, max_value=10**15),
    st.lists(st.integers(min_value=0, max_value=99), max_size=7),
    st.text(alphabet=P._VALUE_CHARS, min_size=1, max_size=12),
)


@given(
    seq=st.integers(min_value=0, max_value=65535),
    verb=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=8),
    fields=st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), values, max_size=4),
)
def test_round_trip(seq: int, verb: str, fields: dict[str, object]) -> None:
    line = P.encode(seq, verb, list(fields.items()))
    assert line.endswith(b"\n") and all(0x20 <= b <= 0x7E for b in line[:-1])
    got_seq, got_verb, got_fields = P.decode(line)
    assert (got_seq, got_verb) == (seq, verb)
    assert got_fields == {k: P.format_value(v) for k, v in fields.items()}
    assert P.decode(line[:-1] + b"\r\n") == (got_seq, got_verb, got_fields)  # CR LF from print()


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"1 PING *0000", P.BAD_CRC),
        (b"1 PING", P.BAD_FORMAT),
        (b"1 PING \x03 *1234", P.BAD_BYTES),
        (b"x" * 161, P.BAD_LONG),
        (b"01 PING *0000", P.BAD_FORMAT),
    ],
)
def test_bad_lines_name_their_reason(line: bytes, reason: str) -> None:
    if reason == P.BAD_FORMAT and line.startswith(b"01"):
        body = line[:-6]
        line = body + b" *" + b"%04X" % P.crc16(body)
    with pytest.raises(P.ProtocolError) as info:
        P.decode(line)
    assert info.value.reason == reason


@pytest.mark.parametrize(
    ("seq", "verb", "fields", "match"),
    [
        (65536, "PING", [], "sequence number 65536"),
        (1, "ping", [], "verb 'ping'"),
        (1, "PING", [("Bad", 1)], "key 'Bad'"),
        (1, "PING", [("a", 1), ("a", 2)], "key 'a'"),
        (1, "PING", [("a", "x y")], "value 'x y'"),
        (1, "PING", [("a", True)], "a flag"),
        (1, "PING", [("a", "x" * 40), ("b", "y" * 40), ("c", "z" * 40), ("d", "w" * 40)], "over 160"),
    ],
)
def test_encode_refuses_what_the_wire_cannot_carry(seq: int, verb: str, fields: list[tuple[str, object]], match: str) -> None:
    with pytest.raises(P.ProtocolError, match=match):
        P.encode(seq, verb, fields)


def test_field_readers() -> None:
    f = {"n": "42", "neg": "-3", "l": "0,2,4", "e": "-", "w": "go", "v": "1.0"}
    assert P.get_int(f, "n", 0, 100) == 42
    assert P.get_int(f, "neg", -5, 5) == -3
    assert P.get_list(f, "l", 0, 6, 7) == [0, 2, 4]
    assert P.get_list(f, "e", 0, 6, 7) == []
    assert P.get_word(f, "w", ("go", "off")) == "go"
    assert P.parse_version("1.0") == (1, 0)
    assert P.get_seq_or_none({"last": "-"}, "last") == P.NO_SEQ
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: P.get_int(f, "n", 0, 10), "n=42 is not 0 to 10"),
        (lambda: P.get_int(f, "missing", 0, 1), "'missing' is missing"),
        (lambda: P.get_list({"l": "1,1"}, "l", 0, 6, 7), "twice"),
        (lambda: P.get_list({"l": "1,x"}, "l", 0, 6, 7), "not a list"),
        (lambda: P.get_word(f, "w", ("off",)), "not one of off"),
        (lambda: P.parse_version("1"), "not MAJOR.MINOR"),
    ]
    for call, match in calls:
        with pytest.raises(P.ProtocolError, match=match):
            call()


def test_sequence_arithmetic_wraps() -> None:
    assert P.next_seq(65535) == 0
    assert P.seq_after(0, 65535) == 1
    assert P.seq_after(65535, 0) == -1
    assert P.seq_after(100, 100) == 0


def test_line_buffer_cuts_lines_and_bounds_an_overlong_one() -> None:
    buf = P.LineBuffer()
    assert buf.feed(b"ab") == []
    assert buf.feed(b"c\nde\nf") == [b"abc", b"de"]
    assert buf.pending() == 1
    long = buf.feed(b"x" * 500)
    assert len(long) == 1 and len(long[0]) == P.MAX_LINE + 2
    assert buf.feed(b"y" * 300 + b"\nok\n") == [b"ok"]  # the rest of the long line is dropped


def test_tick_words_and_unwrapping() -> None:
    assert word_level(make_word(1, 5)) == 1 and word_count(make_word(1, 5)) == 5
    assert word_count(make_word(0, 2**31 + 7)) == 7  # 31 bits
    near = 3 * 2**31 + 100
    assert unwrap(50, near, 1000) == 3 * 2**31 + 50
    assert unwrap(2**31 - 10, near, 1000) == 3 * 2**31 - 10  # just before the last wrap
    assert unwrap(900, near, 1000) == 3 * 2**31 + 900  # a little ahead of the coarse clock
    e = Epoch(sync_us=1_000_000, tick_hz=62_500_000)
    assert e.base_ticks == 62_500_000
    read_us = 1_000_000 + 40 * 1_000_000  # 40 s after sync: past one 31-bit wrap (34.4 s)
    t = 40 * 62_500_000 - 1234
    assert e.edge_ticks(make_word(0, t), read_us) == e.base_ticks + t
    assert lockout_loop_count(1_562_500) == 1_562_494 and lockout_loop_count(3) == 0


def test_micropython_encodes_and_decodes_the_same_bytes(micropython: str) -> None:
    script = (
        "import protocol as P\n"
        "line = P.encode(17, 'PRESS', [('btn', 2), ('ticks', 1234567890), ('l', [1, 2])])\n"
        "print(line.decode().strip())\n"
        "print(P.decode(line))\n"
        "try:\n"
        "    P.decode(b'1 PING *0000')\n"
        "except P.ProtocolError as e:\n"
        "    print(e.reason)\n"
        "print(hex(P.crc16(b'123456789')))\n"
    )
    out = subprocess.run([micropython, "-c", script], capture_output=True, text=True, timeout=60,
                         env={"MICROPYPATH": str(BOARD_DIR)})
    assert out.returncode == 0, out.stderr + out.stdout
    lines = out.stdout.splitlines()
    expected = P.encode(17, "PRESS", [("btn", 2), ("ticks", 1234567890), ("l", [1, 2])])
    assert lines[0] == expected.decode().strip()
    assert lines[2:] == ["crc", "0x29b1"]


def test_the_spec_names_the_codec_version_and_the_identity_it_adds() -> None:
    spec = (BOARD_DIR / "PROTOCOL.md").read_text(encoding="utf-8")
    assert spec.startswith(f"# Buzzer board protocol, version {P.PROTO}\n")
    assert P.PROTO == f"{P.PROTO_MAJOR}.{P.PROTO_MINOR}" and P.parse_version(P.PROTO) == (1, 1)
    assert "- 1.1: `HELLO` adds `chip` and `board`; the error code `board`." in spec
    assert ", ".join(f"`{b}`" for b in P.BOARDS) in spec
    assert f"`{P.ERR_BOARD}` (from 1.1" in spec
    # a HELLO carrying them stays a legal frame
    line = P.encode(0, "HELLO", [("re", 0), ("proto", P.PROTO), ("chip", "RP2040"), ("board", "pico_w")])
    assert P.decode(line)[2]["board"] == "pico_w"


def test_the_fast_encoder_writes_the_same_bytes_as_encode() -> None:
    """encode_template (the board's hot frames, issue 21's headroom) skips encode's checks: for
    every frame it is used for it must give the same bytes, CRC included."""
    import random

    rng = random.Random(21)
    cases = [(0, "TIME", ("ticks",), (0,)), (65535, "PRESS", ("btn", "ticks"), (6, 2**63 - 1)),
             (17, "GO", ("race", "ticks"), (2147483647, 1234567890))]
    for _ in range(500):
        verb, keys = rng.choice([("TIME", ("ticks",)), ("PRESS", ("btn", "ticks")), ("RELEASE", ("btn", "ticks")),
                                 ("GO", ("race", "ticks"))])
        cases.append((rng.randrange(P.SEQ_MOD), verb, keys, tuple(rng.randrange(10 ** rng.randint(1, 19)) for _ in keys)))
    for seq, verb, keys, values in cases:
        fast = P.encode_template(P.int_template(verb, keys), (seq, *values))
        assert fast == P.encode(seq, verb, list(zip(keys, values)))
    assert P.int_template("TIME", ("ticks",)) == "%d TIME ticks=%d"
    assert P.decode(P.encode_template("%d TIME ticks=%d", (5, 42))) == (5, "TIME", {"ticks": "42"})
    with pytest.raises(P.ProtocolError):
        P.int_template("time", ("ticks",))
