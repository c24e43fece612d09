"""The kiosk always starts: mutated config files, staff.toml, pin maps, staff PIN files, table
logs and leaderboards (seeded: byte flips, truncation, type swaps, deep nesting, unicode digits, SQL-level
damage) go through the kiosk's start-up path in this process, and every one reaches the first
frame on the SDL dummy driver; a file that cannot be used is named in a notice on screen, and a
database that cannot be used is moved to ``aside/``, never deleted."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import random
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from firmware_host.errors import BadPinMap
from firmware_host.pinmap import DEFAULT_PINMAP_PATH, load_pinmap
from game.app import cmd_kiosk
from game.app.cli import build_parser, main
from game.app.kiosk import load_staff_overrides
from game.app.pinfile import read_pin_file, render
from game.app.rigconfig import load_rig_config
from game.errors import GameError
from game.i18n.lookup import text
from game.staff import PinHash
from sizes import size

REPO = Path(__file__).resolve().parents[2]
SEED = 20261201
#: 2,000 mutated start-ups in the soak (tests/sizes.py), 300 in every run.
CASES = size(300, 2_000)

CONFIG = """\
[rules]
guard-next-round = "keep"

[display]
lang = "en"
volume = 70
fullscreen = false
attract-after-s = 60

[input]
backend = "gpio"
pins = "{pins}"

[table]
long-press-ms = 800
fore-period-min-ms = 800
fore-period-max-ms = 2500
race-timeout-ms = 3000
pick-window-ms = 10000
vote-window-ms = 10000

[staff]
combo-hold-ms = 5000

[data]
max-games = 100
keep-game-logs = 5
"""

STAFF = """\
# Written by the staff menu; applied over the config file at start.

[display]
volume = 40

[table]
race-timeout-ms = 4000
fore-period-min-ms = 900
fore-period-max-ms = 2400
"""

#: Values a key's value is swapped for: every TOML type, out of range, huge, deep, odd text.
SWAPS = (
    '"zz"', "21", "[21]", "{a=1}", "true", "1.5", "nan", "inf", "1979-05-27", "07:32:00", "-1", "0",
    "99999999999999999999999999", '"\u0661"', '"\u00b2"', '""', "[]", "{}", '"' + "x" * 5000 + '"',
    "[" * 60 + "]" * 60, '"\\u0000"', '"../../etc/passwd"', '"/dev/zero"', "[1, 2, 3, 4, 5]",
    "{button = 4}", '"a\\nb"',
)
KINDS = ("number", "moth", "ant", "spider", "cockroach", "mosquito")
UNICODE_DIGITS = ("\u0661", "\u00b2", "\uff11", "\u0967", "\u2460", "\U0001d7d9")
JUNK = (b"\xff", b"\x00", b"\xc3\x28", b'"', b"[", b"]", b"=", b"\n", b"{", b"'''", b"\\", b"#",
        b"\xef\xbb\xbf", b"[[", b".", b"\r")


# --- mutators ------------------------------------------------------------------------------

def flip(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def insert_junk(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + b"".join(rng.choice(JUNK) for _ in range(rng.randint(1, 6))) + data[at:]


def swap_type(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    spots = [m for m in re.finditer(r"(?m)^([^\[#\n=]+=\s*)([^\n#]+)", text)]
    if not spots:
        return insert_junk(rng, data)
    m = rng.choice(spots)
    text = text[: m.start(2)] + rng.choice(SWAPS) + text[m.end(2):]
    return text.encode("utf-8", "surrogateescape")


def deep_nesting(rng: random.Random, data: bytes) -> bytes:
    depth = rng.choice((100, 400, 1_000, 5_000))
    value = "[" * depth + "]" * depth if rng.random() < 0.6 else "{a=" * depth + "1" + "}" * depth
    section = rng.choice((b"", b"[rules]\n", b"[display]\n", b"[seats.0]\n", b"[staff]\n"))
    return data + b"\n" + section + rng.choice((b"lang", b"button", b"x", b"pin-salt")) + b" = " + value.encode() + b"\n"


def unicode_digit(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    spots = [m.start() for m in re.finditer(r"\d", text)]
    if not spots:
        return data + f"[seats.{rng.choice(UNICODE_DIGITS)}]\nbutton = 4\n".encode()
    at = rng.choice(spots)
    text = text[:at] + rng.choice(UNICODE_DIGITS) + text[at + 1:]
    if rng.random() < 0.5:  # as a quoted key, where TOML allows any character
        text = re.sub(r"\[(board\.)?seats\.(\S+?)\]", lambda m: f'[{m.group(1) or ""}seats."{m.group(2)}"]', text)
    return text.encode("utf-8", "surrogateescape")


def duplicate_line(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    at = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[at])
    return b"\n".join(lines)


def rename_key(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    keys = re.findall(r"(?m)^([A-Za-z_-]+)\s*=", text)
    if not keys:
        return insert_junk(rng, data)
    old = rng.choice(keys)
    new = rng.choice(("input", "output", "pins", "backend", "seats", "board", "unknown-key", "lang",
                      "pin-hash", "pull", "deck", '"١"'))
    return re.sub(rf"(?m)^{re.escape(old)}(\s*=)", lambda m: new + m.group(1), text, count=1).encode(
        "utf-8", "surrogateescape")


def not_utf8(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "replace") + '\n# café\n'
    how = rng.randrange(3)
    if how == 0:
        return text.encode("latin-1", "replace")
    if how == 1:
        return text.encode("utf-16")
    return data + b"\n# \xc3\x28\x80\n"


TEXT_MUTATORS: tuple[Callable[[random.Random, bytes], bytes], ...] = (
    flip, truncate, insert_junk, swap_type, swap_type, deep_nesting, unicode_digit, duplicate_line,
    rename_key, not_utf8)


def mutate_text(rng: random.Random, data: bytes) -> bytes:
    roll = rng.random()
    if roll < 0.03:
        return b""
    if roll < 0.05:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        data = rng.choice(TEXT_MUTATORS)(rng, data)
    return data


def mutate_db_bytes(rng: random.Random, data: bytes) -> bytes:
    roll = rng.randrange(8)
    if roll == 0:                              # bytes in the first page: header and schema
        out = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            out[rng.randrange(min(len(out), 4096))] = rng.randrange(256)
        return bytes(out)
    if roll == 1:
        return flip(rng, data)
    if roll == 2:
        return data[: rng.choice((0, 1, 100, 512, 4096, 8192, rng.randrange(len(data) + 1)))]
    if roll == 3:                              # a page zeroed
        page = rng.randrange(max(1, len(data) // 4096))
        return data[: page * 4096] + bytes(4096) + data[(page + 1) * 4096:]
    if roll == 4:
        return data + bytes(rng.randrange(256) for _ in range(rng.randint(1, 5000)))
    if roll == 5:
        return b"this is not a database\n" * rng.randint(1, 200)
    if roll == 6:                              # a byte of the schema's SQL text changed
        at = data.find(b"CREATE TABLE")
        if at >= 0:
            out = bytearray(data)
            out[at + rng.randrange(60)] = rng.choice((0xFF, 0x80, 0xC3, 0x00, ord("'"), ord("(")))
            return bytes(out)
    return bytes(rng.randrange(256) for _ in range(rng.choice((16, 100, 4096, 9000))))


def mutate_db_sql(rng: random.Random, path: Path) -> None:
    """Damage a log or a leaderboard through SQLite itself (a file SQLite still opens)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        weird = rng.choice(("zz", "", "null", "[]", "{}", "1e999", '{"a":1}', "[[[[[[[[[[1]]]]]]]]]]",
                            "\u0661", 2**62, -1, 1.5, None, b"\xff\xfe", "x" * 10_000))
        choices: list[str] = []
        if "meta" in tables:
            choices += ["meta_value", "meta_delete", "meta_json"]
        if "steps" in tables:
            choices += ["step_body", "step_crc", "step_delete", "step_swap", "step_resign", "drop_steps"]
        if "games" in tables:
            choices += ["game_field", "game_drop", "game_schema"]
        if not choices:
            return
        what = rng.choice(choices)
        if what == "meta_value":
            key = rng.choice(("format", "version", "settings", "seed", "t0_ns", "nothing"))
            con.execute("UPDATE meta SET value = ? WHERE key = ?", (weird if weird is not None else "", key))
        elif what == "meta_delete":
            con.execute("DELETE FROM meta WHERE key = ?", (rng.choice(("seed", "settings", "t0_ns", "format")),))
        elif what == "meta_json":
            (settings,) = con.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone() or ("",)
            text = str(settings)
            spots = [m for m in re.finditer(r":\s*(-?\d+|\"[^\"]*\"|true|false)", text)]
            if spots:
                m = rng.choice(spots)
                text = text[: m.start(1)] + rng.choice(('"zz"', "[]", "{}", "-5", "0", "null", "1e400",
                                                        "99999999999999999999999")) + text[m.end(1):]
                con.execute("UPDATE meta SET value = ? WHERE key = 'settings'", (text,))
        elif what in ("step_body", "step_crc", "step_delete", "step_resign", "step_swap"):
            rows = con.execute("SELECT seq, body FROM steps ORDER BY seq").fetchall()
            if not rows:
                return
            seq, body = rng.choice(rows)
            if what == "step_body":
                con.execute("UPDATE steps SET body = ? WHERE seq = ?", (weird, seq))
            elif what == "step_crc":
                con.execute("UPDATE steps SET crc = ? WHERE seq = ?", (weird if weird is not None else 0, seq))
            elif what == "step_delete":
                con.execute("DELETE FROM steps WHERE seq = ?", (seq,))
            elif what == "step_swap" and len(rows) > 1:
                (s2, b2) = rng.choice(rows)
                con.execute("UPDATE steps SET body = ? WHERE seq = ?", (b2, seq))
                con.execute("UPDATE steps SET body = ? WHERE seq = ?", (body, s2))
            else:  # the body changed and its check updated, as a bug or a person might
                import zlib
                text = str(body)
                nums = [m for m in re.finditer(r"-?\d+", text)]
                if nums:
                    m = rng.choice(nums)
                    text = text[: m.start()] + str(rng.choice((0, 1, 7, -1, 10**30))) + text[m.end():]
                cols = [c for (_, c, *_) in con.execute("PRAGMA table_info(steps)")]
                if "crc" in cols:
                    con.execute("UPDATE steps SET body = ?, crc = ? WHERE seq = ?",
                                (text, zlib.crc32(text.encode()), seq))
        elif what == "drop_steps":
            con.execute("DROP TABLE steps")
        elif what == "game_field":
            col = rng.choice(("names", "totals", "winners", "seed", "finished_unix_ns", "key"))
            con.execute(f"UPDATE games SET {col} = ? WHERE id IN (SELECT id FROM games ORDER BY random() LIMIT 1)",
                        (weird,))
        elif what == "game_drop":
            con.execute("DROP TABLE games")
            con.execute("CREATE TABLE games(a, b)")
        else:
            con.execute("ALTER TABLE games RENAME COLUMN totals TO points")
    except sqlite3.Error:
        pass
    finally:
        con.close()


# --- the seeds: a real log, a real leaderboard, the real pin map ---------------------------

@dataclass(frozen=True)
class Seeds:
    table: dict[str, bytes]  # a game in progress: the log and the files beside it, by suffix
    leaderboard_db: bytes
    pins: bytes


def kill_after(cmd: list[str], lines: int) -> None:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    for n, _ in enumerate(proc.stdout, start=1):
        if n >= lines:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Seeds:
    data = tmp_path_factory.mktemp("seed")
    sim = ["kiosk", "--input", "sim", "--data", str(data), "--config", str(data / "none.toml"),
           "--players", "3"]
    assert main([*sim, "--seed", "11"]) == 0                      # a finished game: the leaderboard
    kill_after([sys.executable, "-m", "game.app.cli", *sim, "--seed", "12"], 80)   # one in progress
    con = sqlite3.connect(data / "table.db", isolation_level=None)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    table = {suffix: Path(str(data / "table.db") + suffix).read_bytes() for suffix in ("", "-mirror")
             if Path(str(data / "table.db") + suffix).exists()}
    board = data / "board-copy.db"
    src, dst = sqlite3.connect(data / "leaderboard.db"), sqlite3.connect(board, isolation_level=None)
    src.backup(dst)
    dst.execute("PRAGMA journal_mode=DELETE")
    src.close()
    dst.close()
    return Seeds(table, board.read_bytes(), DEFAULT_PINMAP_PATH.read_bytes())


# --- the start-up path, in this process ----------------------------------------------------

WALL = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=1)))


@pytest.fixture()
def kiosk_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[argparse.ArgumentParser]:
    import pygame

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setattr(cmd_kiosk, "_wall", lambda: WALL)
    logging.disable(logging.CRITICAL)
    try:
        yield build_parser()
    finally:
        logging.disable(logging.NOTSET)
        pygame.quit()


@dataclass
class Started:
    notices: list[str]
    resumed: bool


def start_kiosk(parser: argparse.ArgumentParser, folder: Path) -> Started:
    """``cheating-moth kiosk --headless`` up to its first frame, as ``cmd_kiosk.run`` does it."""
    args = parser.parse_args(["kiosk", "--headless", "--data", str(folder / "data"),
                              "--config", str(folder / "config.toml"), "--seed", "5"])
    notes: list[str] = []
    config = cmd_kiosk.load_config(args.config, notes)
    session = cmd_kiosk.start(args, config, notes)
    try:
        assert session.app.run(max_frames=1) == 1
        assert session.app.frame is not None
        return Started([text("en", m.key, **dict(m.params)) for m, _ in session.app.ui.notices],
                       session.app.resumed)
    finally:
        session.close()


def layout(folder: Path, seeds: Seeds, pin_hash: str) -> dict[str, Path]:
    data = folder / "data"
    data.mkdir(parents=True)
    files = {"config": folder / "config.toml", "staff": data / "staff.toml", "pins": folder / "pins.toml",
             "pin": folder / "staff-pin.toml", "table": data / "table.db", "leaderboard": data / "leaderboard.db"}
    files["pins"].write_bytes(seeds.pins)
    files["config"].write_text(CONFIG.format(pins=files["pins"]), encoding="utf-8")
    files["pin"].write_text(render(PinHash(bytes.fromhex(pin_hash), bytes(16), 1_000)), encoding="utf-8")
    files["staff"].write_text(STAFF, encoding="utf-8")
    for suffix, body in seeds.table.items():
        Path(str(files["table"]) + suffix).write_bytes(body)
    files["leaderboard"].write_bytes(seeds.leaderboard_db)
    return files


def expected_notice(target: str, files: dict[str, Path]) -> str | None:
    """The words a notice must carry when the mutated file cannot be used (None: no notice
    is owed, because the file is fine or the kiosk never reads it)."""
    if target == "pin":   # the PIN file is read beside the config, whatever the config holds
        try:
            read_pin_file(files["pin"])
        except GameError:
            return str(files["pin"])
        return None
    try:
        config = load_rig_config(files["config"])
    except (GameError, ValueError):
        return str(files["config"]) if target == "config" else None
    if target == "staff":
        notes: list[str] = []
        load_staff_overrides(files["staff"], config, notes)
        return "staff settings ignored" if notes else None
    if target == "pins" and config.input == "gpio" and config.pins == str(files["pins"]):
        try:
            load_pinmap(files["pins"])
        except BadPinMap:
            return str(files["pins"])
    return None


@pytest.fixture()
def ram_path(tmp_path: Path) -> Iterator[Path]:
    """A folder in RAM when there is one (``/dev/shm``): the logs ``fsync`` on every open, which
    on a disk is most of a start-up's time; the code under test is the same."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="kiosk-fuzz-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.soak
def test_the_kiosk_reaches_its_first_frame_on_every_mutated_file(
        ram_path: Path, seeds: Seeds, kiosk_env: argparse.ArgumentParser) -> None:
    tmp_path = ram_path
    rng = random.Random(SEED)
    pin_hash = "ab" * 32
    outcomes: dict[str, int] = {}
    started_at = time.monotonic()
    for case in range(CASES):
        folder = tmp_path / f"c{case}"
        files = layout(folder, seeds, pin_hash)
        targets = [rng.choice(("config", "staff", "pins", "pin", "table", "leaderboard"))]
        if rng.random() < 0.1:
            targets.append(rng.choice(("config", "staff", "pins", "pin", "table", "leaderboard")))
        for target in targets:
            path = files[target]
            if path.is_dir():
                continue
            if target in ("table", "leaderboard"):
                if rng.random() < 0.4:
                    mutate_db_sql(rng, path)
                else:
                    path.write_bytes(mutate_db_bytes(rng, path.read_bytes()))
                if rng.random() < 0.05:
                    Path(str(path) + "-wal").write_bytes(mutate_db_bytes(rng, seeds.table[""]))
            elif rng.random() < 0.01:
                path.unlink()
                path.mkdir()          # a folder where the file should be
            else:
                path.write_bytes(mutate_text(rng, path.read_bytes()))
        try:
            started = start_kiosk(kiosk_env, folder)
        except BaseException as exc:
            raise AssertionError(f"case {case} ({'+'.join(targets)}): the kiosk did not start: "
                                 f"{type(exc).__name__}: {str(exc)[:300]}") from exc
        for target in targets:
            words = expected_notice(target, files)
            assert words is None or any(words in n for n in started.notices), \
                f"case {case} {target}: " + " | ".join(started.notices)
        for note in started.notices:   # what was moved aside is there
            for moved in re.findall(r"moved to (\S+\.db)", note):
                assert Path(moved).is_file(), (case, note)
        said = [n for n in started.notices if n.startswith("Not accepted")]
        kind = ("aside" if any("moved to" in n for n in said) else "notice" if said
                else "resumed" if started.resumed else "new game")
        outcomes[kind] = outcomes.get(kind, 0) + 1
        if case % 50 == 49:
            shutil.rmtree(tmp_path, ignore_errors=True)
            tmp_path.mkdir(exist_ok=True)
    took = time.monotonic() - started_at
    print(f"fuzz: {CASES} mutated start-ups in {took:.1f} s: {outcomes}")
    assert outcomes.get("notice", 0) > CASES // 4 and outcomes.get("aside", 0) > CASES // 20


@pytest.mark.parametrize("target, text, words", [
    ("config", b'[staff]\npin-hash = "' + b"ab" * 32 + b'"\npin-salt = "zz"\n', "pin-salt is 'zz'"),
    ("config", b'[display]\nlang = "d\xe9"\n', "is not UTF-8 text (byte 0xe9"),
    ("config", b"[rules]\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nests arrays or tables too deeply"),
    ("staff", b'[staff]\npin-salt = "zz"\npin-hash = "' + b"ab" * 32 + b'"\n', "staff settings ignored"),
    ("staff", b"[display]\nvolume = \xff\n", "staff.toml' is not UTF-8"),
    ("pins", b"\n[loopback]\noutput = 20\ninput = [21]\n", "loopback.input = [21]"),
    ("pins", b"\n[loopback]\noutput = 20\ninput = {a=1}\n", "loopback.input = {'a': 1}"),
    ("pins", b'\n[seats."\xc2\xb2"]\nbutton = 4\n', "seat key '\u00b2'"),
    ("pins", b'\n[seats."\xd9\xa1"]\nbutton = 4\n', "seat key '\u0661'"),
    ("pins", b"\n# \xff\n", "is not UTF-8 text"),
    ("pin", b'algorithm = "md5"\n', "has algorithm 'md5'"),
    ("pin", b"iterations = \xff\n", "is not UTF-8 text (byte 0xff"),
    ("pin", b"#" * 5000, "is larger than 4 KiB, the most it may hold"),
    ("config", "[deck.spread]\n" + "".join(f"{k} = [1, 0, 0, 0, 0]\n" for k in KINDS) + "[deck.totals]\n"
     + "".join(f"{k} = 1\n" for k in KINDS), "deck has 6 cards: a table of up to 5 players needs at least 41"),
])
def test_each_case_seen_to_crash_the_kiosk_starts_it_with_a_notice(
        tmp_path: Path, seeds: Seeds, kiosk_env: argparse.ArgumentParser,
        target: str, text: bytes | str, words: str) -> None:
    files = layout(tmp_path, seeds, "ab" * 32)
    body = text.encode() if isinstance(text, str) else text
    if target == "pins":   # the seat tables replaced, so that a strange key is the only fault
        base = re.sub(rb"(?ms)^\[loopback\].*?(?=^\[board\])", b"", seeds.pins) if b"loopback" in body else seeds.pins
        files["pins"].write_bytes(base + body)
    else:
        files[target].write_bytes(body)
    started = start_kiosk(kiosk_env, tmp_path)
    assert any(words in n for n in started.notices), started.notices


def test_a_table_log_with_a_damaged_schema_byte_is_moved_aside_and_a_new_game_starts(
        tmp_path: Path, seeds: Seeds, kiosk_env: argparse.ArgumentParser) -> None:
    files = layout(tmp_path, seeds, "ab" * 32)
    data = bytearray(seeds.table[""])
    at = data.find(b"CREATE TABLE meta")
    data[at + 7] = 0xFF                        # was UnicodeDecodeError at PRAGMA journal_mode
    files["table"].write_bytes(bytes(data))
    started = start_kiosk(kiosk_env, tmp_path)
    assert not started.resumed
    assert any("moved to" in n and "aside" in n for n in started.notices), started.notices
    [aside] = (tmp_path / "data" / "aside").glob("table-*.db")
    assert aside.read_bytes() == bytes(data)


def test_a_damaged_leaderboard_is_moved_aside_not_deleted(
        tmp_path: Path, seeds: Seeds, kiosk_env: argparse.ArgumentParser) -> None:
    files = layout(tmp_path, seeds, "ab" * 32)
    data = bytearray(seeds.leaderboard_db)
    at = data.find(b"CREATE TABLE games")
    data[at + 7] = 0xFF
    files["leaderboard"].write_bytes(bytes(data))
    started = start_kiosk(kiosk_env, tmp_path)
    assert any("leaderboard could not be read" in n for n in started.notices), started.notices
    [aside] = (tmp_path / "data" / "aside").glob("leaderboard-*.db")
    assert aside.read_bytes() == bytes(data)


def test_unreadable_leaderboard_rows_are_left_out_and_said(
        tmp_path: Path, seeds: Seeds, kiosk_env: argparse.ArgumentParser) -> None:
    files = layout(tmp_path, seeds, "ab" * 32)
    con = sqlite3.connect(files["leaderboard"], isolation_level=None)
    con.execute("UPDATE games SET totals = 'zz'")
    con.close()
    started = start_kiosk(kiosk_env, tmp_path)
    assert any("1 game in" in n and "could not be read" in n for n in started.notices), started.notices
