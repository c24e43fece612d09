"""Nonsense is said, not swallowed (issue 21 point 6, Build 4): a config value the kiosk adjusts
is a notice on screen and in the journal; the leaderboard refuses a database that is not its
own before writing a byte to it; a staff PIN any guest would try first is refused when set."""

from __future__ import annotations

import argparse
import grp
import hashlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from game.app import cmd_kiosk
from game.app.cli import build_parser, main
from game.app.kiosk import Kiosk, TableGame
from game.app.leaderboard import FinishedGame, Leaderboard
from game.app.pinfile import read_pin_file, write_pin_file
from game.app.rigconfig import RigConfig
from game.app.tablelog import TableLog
from game.controller import TableSettings
from game.errors import BadConfig, BadTableLog
from game.i18n.lookup import text
from game.referee.presets import load_presets
from game.staff import PinHash, check_pin_format, trivial_pin

WALL = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=1)))
PRESETS = load_presets()

# --- [kiosk] players adjusted: a notice ----------------------------------------------------------


@pytest.mark.parametrize("game, wanted, wired, players, words", [
    ("duel", 8, 4, 2, "[kiosk] players = 8 does not fit race preset 'duel' (2 players by its rules): 2 race; "
                      "set players to 2, or 0 for as many as can"),
    ("grab", 8, 4, 4, "[kiosk] players = 8 does not fit race preset 'grab' (2 to 4 players on this rig's 4 "
                      "seats): 4 race; set players to a number from 2 to 4, or 0 for as many as can"),
    ("grab", 1, 4, 2, "[kiosk] players = 1 does not fit race preset 'grab' (2 to 4 players on this rig's 4 "
                      "seats): 2 race"),
])
def test_players_the_preset_cannot_take_are_adjusted_with_a_note(
        tmp_path: Path, game: str, wanted: int, wired: int, players: int, words: str) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(game=game, game_players=wanted), lambda: WALL, presets=PRESETS)
    chosen = kiosk.table_game(wired)
    assert chosen.id == game and chosen.players(wanted) == players
    assert [n for n in kiosk.notes if words in n], kiosk.notes


@pytest.mark.parametrize("game, wanted", [("duel", 2), ("grab", 0), ("grab", 3), ("cheating-moth", 5)])
def test_players_that_fit_are_no_note(tmp_path: Path, game: str, wanted: int) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(game=game, game_players=wanted), lambda: WALL, presets=PRESETS)
    kiosk.table_game(4)
    assert not [n for n in kiosk.notes if "[kiosk] players" in n]
    assert TableGame("grab", PRESETS.get("grab"), 4).players_note(wanted if game == "grab" else 0) is None


@pytest.fixture()
def kiosk_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[argparse.ArgumentParser]:
    import pygame

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setattr(cmd_kiosk, "_wall", lambda: WALL)
    try:
        yield build_parser()
    finally:
        pygame.quit()


def test_the_adjusted_players_are_on_the_first_frame_and_in_the_journal(
        tmp_path: Path, kiosk_env: argparse.ArgumentParser, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "config.toml").write_text('[kiosk]\ngame = "duel"\nplayers = 8\n', encoding="utf-8")
    args = kiosk_env.parse_args(["kiosk", "--headless", "--input", "keyboard", "--data", str(tmp_path / "data"),
                                 "--config", str(tmp_path / "config.toml"), "--seed", "5"])
    notes: list[str] = []
    config = cmd_kiosk.load_config(args.config, notes)
    assert notes == [] and config.game_players == 8
    with caplog.at_level(logging.WARNING, logger="cheating-moth"):
        session = cmd_kiosk.start(args, config, notes)
        try:
            assert session.app.run(max_frames=1) == 1
            shown = [text("en", m.key, **dict(m.params)) for m, _ in session.app.ui.notices]
        finally:
            session.close()
    said = "[kiosk] players = 8 does not fit race preset 'duel' (2 players by its rules): 2 race"
    assert any(said in n for n in shown), shown
    assert said in caplog.text


# --- the leaderboard refuses another database ----------------------------------------------------


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def a_game_log(path: Path) -> None:
    log = TableLog.open(path, TableSettings(seats=4, clock="monotonic", resolution_ns=1_000), 7, 0)
    log.close()


def test_a_game_log_placed_as_the_leaderboard_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.db"
    a_game_log(path)
    before = {p.name: digest(p) for p in tmp_path.iterdir()}
    with pytest.raises(BadTableLog, match=r"leaderboard\.db is another database, not a leaderboard \(it holds "
                                          r"the tables .*\): move it aside; the rig makes a new leaderboard"):
        Leaderboard(path)
    assert {p.name: digest(p) for p in tmp_path.iterdir() if p.name in before} == before
    with sqlite3.connect(path) as db:
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "games" not in tables                      # what the old code added to it


def test_a_table_named_games_of_another_shape_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games(title TEXT)")
    with pytest.raises(BadTableLog, match=r"its games table has no column finished_unix_ns, id, key"):
        Leaderboard(path)


def test_a_missing_or_empty_file_becomes_a_leaderboard(tmp_path: Path) -> None:
    (tmp_path / "empty.db").write_bytes(b"")
    for name in ("new.db", "empty.db"):
        board = Leaderboard(tmp_path / name)
        board.record(FinishedGame(1, 2, ("A", "B"), (3, 4), (0,), key=name))
        board.close()
        assert len(Leaderboard(tmp_path / name).games()) == 1


def test_the_kiosk_moves_a_foreign_leaderboard_aside_and_starts_a_new_one(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    a_game_log(tmp_path / "data" / "leaderboard.db")
    kiosk = Kiosk(tmp_path / "data", RigConfig(), lambda: WALL, presets=PRESETS)
    try:
        assert any("leaderboard could not be read and was moved to" in n for n in kiosk.notes), kiosk.notes
        aside = list((tmp_path / "data" / "aside").iterdir())
        assert aside and kiosk.leaderboard.games() == []
    finally:
        kiosk.leaderboard.close()


# --- trivial staff PINs ---------------------------------------------------------------------------

TRIVIAL = ["000000", "999999", "123456", "654321", "012345", "543210", "890123", "1234567", "87654321",
           "121212", "123123", "12341234", "112233", "123321"]


@pytest.mark.parametrize("pin", TRIVIAL)
def test_a_pin_any_guest_would_try_first_is_refused_without_echoing_it(pin: str) -> None:
    assert trivial_pin(pin)
    with pytest.raises(BadConfig, match=r"^staff PIN '\*+' is among the first any guest would try: use 6 to 8 "
                                        r"digits \(6 recommended\), not one digit repeated, a run such as "
                                        r"123456 or 987654, or a pattern repeated such as 121212$"):
        check_pin_format(pin)
    with pytest.raises(BadConfig):
        PinHash.of(pin, bytes(16), 1_000)


@pytest.mark.parametrize("pin", ["246813", "471100", "135791", "9081726", "20261201"])
def test_pins_without_such_a_pattern_are_accepted(pin: str) -> None:
    assert not trivial_pin(pin)
    check_pin_format(pin)


@pytest.mark.parametrize("pin", ["000000", "654321", "131313"])   # not the message's own examples
def test_staff_pin_refuses_a_trivial_pin_and_keeps_the_old_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pin: str) -> None:
    path = tmp_path / "staff-pin.toml"
    group = grp.getgrgid(os.getgid()).gr_name
    write_pin_file(path, "246813", iterations=1_000, group=group)
    before = path.read_bytes()
    with pytest.raises(SystemExit) as exited:
        main(["staff-pin", "--pin", pin, "--file", str(path), "--group", group])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and pin not in err and len(err.strip().splitlines()) == 1
    assert f"staff PIN '{'*' * len(pin)}'" in err
    assert "is among the first any guest would try" in err and err.strip().endswith("; nothing changed")
    assert path.read_bytes() == before
    stored = read_pin_file(path)
    assert stored is not None and stored.matches("246813")
