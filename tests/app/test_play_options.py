"""``cheating-moth play``: every option does what it says, or refuses in one line (exit 2)
before anything starts — the table log in the headless demo, the language from the
environment, an input asked for by name, the sizes the screens fit, the seed range, and the
demo's own options when the table starts instead."""

from __future__ import annotations

import re

import argparse
import sqlite3
from pathlib import Path

import pytest

from game.app import cmd_play
from game.app.cli import main
from game.app.cmd_play import size_arg

TABLE_LOG_STEPS = "SELECT COUNT(*) FROM steps"


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line ``play *argv`` is refused with (exit 2, nothing on stdout)."""
    with pytest.raises(SystemExit) as exit_info:
        main(["play", *argv])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("cheating-moth"), err
    return err


def standings(out: str) -> list[tuple[str, ...]]:
    """The standings' figures, best first: place, points, moths and each round's points (the
    names may differ: the demo's table has them, a log replayed without names says "player N").
    Columns are two spaces apart; a name may hold one."""
    lines = out[out.index("place  player"):].splitlines()
    rows = []
    for cells in (re.split(r" {2,}", line.strip()) for line in lines[1:]):
        if not cells or not cells[0].isdigit():
            break
        rows.append((cells[0], *cells[3:]))
    assert rows
    return rows


# -- --db in the headless demo ------------------------------------------------------------------


def test_the_headless_demo_logs_its_game_to_the_table_log(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "demo.db"
    assert main(["play", "--seed", "5", "--players", "3", "--db", str(db),
                 "--screenshots", str(tmp_path / "shots")]) == 0
    captured = capsys.readouterr()
    with sqlite3.connect(db) as con:
        steps = con.execute(TABLE_LOG_STEPS).fetchone()[0]
    assert steps > 100
    assert f"Table log written to {db}: the whole game, {steps} steps" in captured.err
    # The log is the table's own format: 'table --db' finds the same game, over.
    assert main(["table", "--db", str(db)]) == 0
    table_out = capsys.readouterr().out
    assert f"is already over ({steps} logged steps)" in table_out
    assert standings(table_out) == standings(captured.out)


def test_an_unfinished_demo_game_in_the_table_log_is_resumed_to_the_same_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    shots = str(tmp_path / "shots")
    assert main(["play", "--seed", "6", "--players", "4", "--db", str(whole), "--screenshots", shots]) == 0
    full = capsys.readouterr().out
    assert main(["play", "--seed", "6", "--players", "4", "--db", str(cut), "--screenshots", shots]) == 0
    capsys.readouterr()
    with sqlite3.connect(cut) as con:  # the demo stopped after 120 steps (its mirror says so)
        con.execute("DELETE FROM steps WHERE seq > (SELECT MIN(seq) FROM steps) + 119")
    log = tmp_path / "game.jsonl"
    assert main(["play", "--db", str(cut), "--log", str(log), "--screenshots", shots]) == 0
    again = capsys.readouterr()
    assert "seed 6" in again.out and f"Resumed the game in {cut} after 120 logged steps" in again.out
    assert standings(again.out) == standings(full)
    # The JSON-lines log holds the whole game, the resumed part too: replay reaches the same end.
    assert main(["replay", str(log)]) == 0
    assert standings(capsys.readouterr().out) == standings(full)


def test_a_finished_game_in_the_table_log_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "demo.db"
    assert main(["play", "--seed", "5", "--players", "3", "--db", str(db), "--screenshots", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["play", "--db", str(db), "--screenshots", str(tmp_path)]) == 0
    assert f"The game in {db} is already over" in capsys.readouterr().out


def test_a_table_log_in_a_folder_that_does_not_exist_is_refused(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "--db", str(tmp_path / "nope" / "demo.db"))
    assert f"the folder {str(tmp_path / 'nope')!r} does not exist" in err
    assert not (tmp_path / "nope").exists()


def test_a_seed_or_players_other_than_the_logged_game_are_refused(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "demo.db"
    assert main(["play", "--seed", "5", "--players", "3", "--db", str(db), "--screenshots", str(tmp_path)]) == 0
    capsys.readouterr()
    err = refused(capsys, "--db", str(db), "--seed", "7", "--players", "4")
    assert "--seed 7 and --players 4 cannot apply" in err and "seed 5 and 3 players" in err


def test_a_table_log_of_a_real_table_is_not_resumed_as_the_demo(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from game.app.tablelog import TableLog
    from game.controller import TableSettings

    db = tmp_path / "table.db"
    TableLog.open(db, TableSettings(seats=4, clock="lgpio"), 5, 123_456_789).close()
    err = refused(capsys, "--db", str(db))
    assert "holds a game played at the table (lgpio clock)" in err


# -- the language from the environment ----------------------------------------------------------


def test_an_unknown_language_in_the_environment_is_refused_like_lang(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHEATING_MOTH_LANG", "xx")
    err = refused(capsys)
    assert "$CHEATING_MOTH_LANG='xx' is not an available language" in err
    assert "en, de, fr, es, ko or all" in err


def test_the_language_from_the_environment_is_spoken(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHEATING_MOTH_LANG", "de")
    assert main(["play", "--seed", "4", "--players", "3", "--screenshots", str(tmp_path)]) == 0
    assert "Spielende:" in capsys.readouterr().out


def test_lang_on_the_command_line_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHEATING_MOTH_LANG", "xx")
    assert main(["play", "--lang", "en", "--seed", "4", "--players", "3", "--screenshots", str(tmp_path)]) == 0
    assert "Game over:" in capsys.readouterr().out


# -- inputs asked for by name -------------------------------------------------------------------


def test_input_board_with_no_board_is_refused_not_a_silent_demo(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "--input", "board")
    assert "--input board: no buzzer board to play on" in err
    assert "vendor id 0x2E8A" in err and "cheating-moth board info" in err and "--input auto" in err


def test_input_keyboard_with_no_window_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "--input", "keyboard", "--headless")
    assert "--input keyboard needs a window" in err and "--input sim" in err


def test_input_auto_with_nothing_found_still_plays_the_demo(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--input", "auto", "--seed", "3", "--players", "3", "--screenshots", str(tmp_path)]) == 0
    assert "No display and no buttons: the simulated demo plays headless." in capsys.readouterr().out


def test_not_found_names_what_was_looked_for() -> None:
    text = cmd_play._not_found("gpio", ["GPIO buttons not used: no pin factory"])
    assert "--input gpio: the GPIO buttons could not be opened (GPIO buttons not used: no pin factory)" in text
    assert "cheating-moth doctor" in text


# -- options of one mode given to the other -----------------------------------------------------


def test_fullscreen_with_no_display_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--fullscreen needs a display" in refused(capsys, "--fullscreen", "--headless")
    assert "--fullscreen needs a display and none was found" in refused(capsys, "--fullscreen")


@pytest.mark.parametrize(("argv", "named"), [
    (["--screenshots", "shots"], "--screenshots is for the headless demo"),
    (["--lang", "all"], "--lang all is for the headless demo"),
    (["--screenshots", "shots", "--lang", "all"], "--screenshots and --lang all are for the headless demo"),
])  # --log is the table's too (tests/app/test_flows_play_log.py)
def test_the_demos_own_options_are_refused_when_the_table_starts(
        argv: list[str], named: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cmd_play, "display_available", lambda: True)  # the table would open a window

    def table_started(*args: object) -> int:
        raise AssertionError("the table started with an option it ignores")

    monkeypatch.setattr(cmd_play, "_app", table_started)
    err = refused(capsys, *argv)
    assert named in err and "the table is starting (keyboard input)" in err
    assert list(tmp_path.iterdir()) == []


# -- sizes, seeds, attract time -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["400x400", "480x480", "640x480", "700x480", "480x640", "7681x4320", "0x0"])
def test_sizes_the_screens_do_not_fit_are_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="is a size the screens do not fit: use at least 720x480"):
        size_arg(text)


@pytest.mark.parametrize("text", ["720x480", "480x720", "800x480", "1024x600", "1280x720", "1920x1080",
                                  "720x1280", "720x720", "7680x4320"])
def test_sizes_the_screens_fit_are_taken(text: str) -> None:
    w, h = text.split("x")
    assert size_arg(text) == (int(w), int(h))


@pytest.mark.parametrize("command", [["play"], ["table"], ["simulate"], ["race", "--input", "sim", "--players", "3"]])
@pytest.mark.parametrize(("seed", "message"), [
    ("-5", "seed -5 is out of range: use 0 to 4294967295"),
    ("4294967296", "seed 4294967296 is out of range: use 0 to 4294967295"),
    ("five", "seed 'five' is not a whole number: use 0 to 4294967295"),
])
def test_every_command_takes_the_same_seeds(command: list[str], seed: str, message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--seed", seed])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize(("text", "message"), [
    ("-1", "-1 seconds is out of range: use 0 to 3600"),
    ("nan", "nan seconds is out of range"),
    ("inf", "inf seconds is out of range"),
    ("soon", "'soon' is not a number of seconds"),
])
def test_attract_after_is_checked(text: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert message in refused(capsys, "--attract-after", text)
