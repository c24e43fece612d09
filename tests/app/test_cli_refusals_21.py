"""Nonsense on the command line is refused in one sentence, exit 2, nothing changed on disk
(hostile retest of issue 21): ``staff-pin --file`` and ``referee --report`` never replace what
is not a regular file (a FIFO, a device, a symbolic link), nor create a missing folder; the
board time scale is bounded, from the option and the environment alike; counts and folders of
``kiosk`` are checked; ``status`` reports the table game's adjustment the kiosk makes.

Every path here is under tmp_path: a "device" is a FIFO or a symbolic link to one (a test must
never point at a real /dev node it could replace)."""

from __future__ import annotations

import grp
import json
import os
import stat
from pathlib import Path

import pytest

from game.app.cli import main
from game.bounded import label
from game.app.pinfile import read_pin_file, write_pin_file
from game.app.writefile import BadTarget, check_target, replace_file

PIN = "246813"
FAST = 1_000
MY_GROUP = grp.getgrgid(os.getgid()).gr_name


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``argv`` is refused with (exit 2)."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    """What a folder holds: name -> (type bits, size); a symbolic link as itself."""
    return {p.name: (stat.S_IFMT(p.lstat().st_mode), p.lstat().st_size) for p in folder.iterdir()}


# -- 1. staff-pin --file ----------------------------------------------------------------------

def staff_pin(path: Path) -> list[str]:
    return ["staff-pin", "--pin", PIN, "--file", str(path), "--group", MY_GROUP]


def test_staff_pin_refuses_a_fifo_and_leaves_it_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "staff-pin.toml"
    os.mkfifo(fifo)
    err = refused(staff_pin(fifo), capsys)
    assert f"the staff PIN file {label(fifo)} is a FIFO (named pipe), not a file" in err
    assert "choose another file with --file" in err and err.endswith("nothing changed")
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and listing(tmp_path) == {"staff-pin.toml": (stat.S_IFIFO, 0)}


def test_staff_pin_says_the_refusal_before_asking_for_the_pin(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    stdin = io.StringIO(PIN + "\n")
    monkeypatch.setattr("sys.stdin", stdin)
    err = refused(["staff-pin", "--file", str(tmp_path / "no" / "staff-pin.toml"), "--group", MY_GROUP], capsys)
    assert "a folder that does not exist" in err and stdin.tell() == 0      # the PIN was not read


def test_staff_pin_refuses_a_symbolic_link_naming_it_and_its_target_is_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "real.toml"
    write_pin_file(target, "135791", iterations=FAST, group=MY_GROUP)
    before = target.read_bytes()
    link = tmp_path / "staff-pin.toml"
    link.symlink_to(target)
    err = refused(staff_pin(link), capsys)
    assert f"{label(link)} is a symbolic link (to {label(target)}), which is not replaced nor followed" in err
    assert link.is_symlink() and os.readlink(link) == str(target) and target.read_bytes() == before
    assert sorted(listing(tmp_path)) == ["real.toml", "staff-pin.toml"]      # no temporary file left


def test_staff_pin_refuses_a_link_to_a_device_like_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # What replaced /dev/zero before: here a FIFO in tmp stands in for the device.
    fake_dev = tmp_path / "zero"
    os.mkfifo(fake_dev)
    link = tmp_path / "staff-pin.toml"
    link.symlink_to(fake_dev)
    err = refused(staff_pin(link), capsys)
    assert "is a symbolic link" in err
    assert link.is_symlink() and stat.S_ISFIFO(fake_dev.lstat().st_mode)


def test_staff_pin_refuses_a_missing_folder_naming_it_and_does_not_create_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "etc" / "cheating-moth" / "staff-pin.toml"
    err = refused(staff_pin(path), capsys)
    assert f"the staff PIN file cannot be written in {label(path.parent)}, a folder that does not exist" in err
    assert "create it first" in err and not (tmp_path / "etc").exists()


def test_staff_pin_refuses_a_file_too_large_to_be_a_pin_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "disk.img"
    with big.open("wb") as out:      # sparse: the size of a big file without writing it
        out.truncate(3 * 1024**3)
    err = refused(staff_pin(big), capsys)
    assert f"{label(big)} holds 3,221,225,472 bytes, more than a staff PIN file ever does (4,096)" in err
    assert big.stat().st_size == 3 * 1024**3 and listing(tmp_path) == {"disk.img": (stat.S_IFREG, 3 * 1024**3)}


def test_staff_pin_does_not_replace_a_small_file_that_is_not_a_pin_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    passwd = tmp_path / "passwd"       # 'sudo cheating-moth staff-pin --file /etc/passwd' by a slip
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    err = refused(staff_pin(passwd), capsys)
    assert f"{label(passwd)} is not a staff PIN file (no 'algorithm' line), so it is not replaced" in err
    assert passwd.read_text() == "root:x:0:0:root:/root:/bin/bash\n"


def test_staff_pin_replaces_a_damaged_pin_file_atomically_keeping_0640(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The kiosk's advice for a damaged PIN file is "set the PIN again": that still works.
    path = tmp_path / "staff-pin.toml"
    path.write_text('algorithm = "pbkdf2-sha256"\niterations = 1000\nsalt = "zz"\n')
    path.chmod(0o644)
    assert main(staff_pin(path)) == 0
    capsys.readouterr()
    stored = read_pin_file(path)
    assert stored is not None and stored.matches(PIN)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.stat().st_gid == os.getgid()
    assert list(listing(tmp_path)) == ["staff-pin.toml"]


def test_an_empty_file_name_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(BadTarget, match="^the report is an empty name: give another"):
        check_target("", "the report", "give another")


def test_a_name_taken_between_the_check_and_the_rename_is_not_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The name is looked at again just before the rename: a FIFO made meanwhile stays.
    path = tmp_path / "out.html"
    real_fsync = os.fsync

    def fsync_then_race(fd: int) -> None:
        real_fsync(fd)
        if not path.exists():
            os.mkfifo(path)

    monkeypatch.setattr(os, "fsync", fsync_then_race)
    with pytest.raises(BadTarget, match="is a FIFO"):
        replace_file(path, b"<html>", "the report", "give another")
    assert stat.S_ISFIFO(path.lstat().st_mode) and list(listing(tmp_path)) == ["out.html"]


def test_a_full_disk_while_writing_leaves_the_old_file_and_no_temporary_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    path = tmp_path / "staff-pin.toml"
    write_pin_file(path, "135791", iterations=FAST, group=MY_GROUP)
    before = path.read_bytes()

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space left on device"):
        write_pin_file(path, PIN, iterations=FAST, group=MY_GROUP)
    assert path.read_bytes() == before and list(listing(tmp_path)) == ["staff-pin.toml"]


# -- 2. referee --report ------------------------------------------------------------------------

def referee_duel(tmp_path: Path, report: Path) -> list[str]:
    return ["referee", "duel", "--input", "sim", "--seed", "3", "--rounds", "1",
            "--screenshots", str(tmp_path / "shots"), "--report", str(report)]


def test_referee_report_refuses_a_fifo_before_the_session_is_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "report.html"
    os.mkfifo(fifo)
    err = refused(referee_duel(tmp_path, fifo), capsys)
    assert f"--report: the report {label(fifo)} is a FIFO (named pipe), not a file, and is left as it is" in err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert not (tmp_path / "shots").exists()          # nothing was played


def test_referee_report_refuses_a_symbolic_link_and_a_missing_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "kept.html"
    kept.write_text("<p>last week's</p>")
    link = tmp_path / "report.html"
    link.symlink_to(kept)
    assert "is a symbolic link" in refused(referee_duel(tmp_path, link), capsys)
    assert link.is_symlink() and kept.read_text() == "<p>last week's</p>"
    missing = tmp_path / "nope" / "report.html"
    assert f"the report cannot be written in {label(missing.parent)}, a folder that does not exist" in refused(
        referee_duel(tmp_path, missing), capsys)
    assert not missing.parent.exists()


def test_referee_report_replaces_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.html"
    report.write_text("old")
    assert main(referee_duel(tmp_path, report)) == 0
    capsys.readouterr()
    assert report.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert sorted(listing(tmp_path)) == ["report.html", "shots"]


# -- the same for race --record and play --log ----------------------------------------------------

@pytest.mark.parametrize("argv, option", [
    (["race", "--input", "sim", "--players", "3", "--seed", "1", "--record"], "--record"),
    (["play", "--input", "sim", "--headless", "--seed", "1", "--log"], "--log"),
])
def test_race_record_and_play_log_refuse_a_fifo_and_a_symbolic_link(
        argv: list[str], option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    # A reader holds the FIFO open so that, were it written to, the write would not wait forever.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        err = refused([*argv, str(fifo)], capsys)
    finally:
        os.close(reader)
    assert f"{option}: the {option} file {label(fifo)} is a FIFO (named pipe), not a file, and is left as it is" in err
    kept = tmp_path / "kept.json"
    kept.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(kept)
    assert "is a symbolic link" in refused([*argv, str(link)], capsys)
    assert kept.read_text() == "{}" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json", "link.json", "out.json"]


# -- 3. the board time scale --------------------------------------------------------------------

@pytest.mark.parametrize("scale", ["1e308", "1e10", "1001", "0.001"])
def test_board_time_scale_out_of_range_is_refused_from_the_option(
        scale: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHEATING_MOTH_BOARD_TIME_SCALE", raising=False)
    for argv in (["board", "info"], ["board", "test"], ["race", "--input", "board", "--players", "3"]):
        err = refused([*argv, "--board-time-scale", scale, "--port", "/nonexistent-board"], capsys)
        assert f"--board-time-scale {scale!r} is out of range: use 0.01 to 1000 wall seconds per board second" in err


def test_board_time_scale_out_of_range_is_refused_from_the_environment(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHEATING_MOTH_BOARD_TIME_SCALE", "1e10")
    for argv in (["board", "info"], ["board", "test"], ["race", "--input", "board", "--players", "3"]):
        err = refused([*argv, "--port", "/nonexistent-board"], capsys)
        assert "CHEATING_MOTH_BOARD_TIME_SCALE '1e10' is out of range: use 0.01 to 1000" in err


def test_board_link_refuses_a_huge_scale_itself() -> None:
    from firmware_host.boardlink.errors import BadTimeScale
    from firmware_host.boardlink.link import BoardLink

    with pytest.raises(BadTimeScale, match=r"^the time scale 1e\+308 is out of range: use 0.01 to 1000"):
        BoardLink("/dev/x", time_scale=1e308)
    assert BoardLink("/dev/x", time_scale=1000).time_scale == 1000.0


# -- 4. counts and folders ------------------------------------------------------------------------

@pytest.mark.parametrize("argv, says", [
    (["kiosk", "--input", "sim", "--games", "0"], "argument --games: 0 is too small: use 1 or more"),
    (["kiosk", "--input", "sim", "--games", "-1"], "argument --games: -1 is too small: use 1 or more"),
    (["kiosk", "--input", "sim", "--seed", "-5"], "seed -5 is out of range: use 0 to 4294967295"),
    (["kiosk", "--input", "sim", "--data", ""], "argument --data: '' is not a folder: name one"),
    (["kiosk", "--input", "sim", "--data", "  "], "argument --data: '  ' is not a folder: name one"),
    (["status", "--data", ""], "argument --data: '' is not a folder: name one"),
    (["status", "--config", ""], "argument --config: '' is not a file name: name one"),
    (["kiosk", "--input", "sim", "--config", ""], "argument --config: '' is not a file name: name one"),
    (["staff-pin", "--pin", PIN, "--file", ""], "argument --file: '' is not a file name: name one"),
    (["board", "test", "--show-ms", "-5", "--port", "/nonexistent-board"], "--show-ms -5 is not valid: use 0 to 60000"),
    (["board", "test", "--players", "0", "--port", "/nonexistent-board"], "--players 0 is not valid"),
    (["board", "test", "--seed", "-1"], "seed -1 is out of range"),
    (["board", "sim", "--seconds", "-1"], "argument --seconds: '-1' is not valid: use a number of seconds above 0"),
    (["board", "sim", "--seconds", "nan"], "argument --seconds: 'nan' is not valid"),
    (["board", "sim", "--players-seed", "-3"], "seed -3 is out of range"),
    (["simulate", "--games", "0"], "0 is too small: use 1 or more"),
    (["referee", "duel", "--input", "sim", "--rounds", "0"], "'0' is not a number of questions or races: use 1 to 200"),
    (["referee", "duel", "--input", "sim", "--players", "-1"], "players '-1' is not valid"),
])
def test_bad_counts_and_folders_are_refused_in_one_line(
        argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if argv[0] == "kiosk" and "--data" not in argv:
        argv = [*argv, "--data", str(tmp_path / "data")]
    if argv[0] in ("kiosk", "status") and "--config" not in argv:
        argv = [*argv, "--config", str(tmp_path / "none.toml")]
    assert says in refused(argv, capsys)
    assert list(tmp_path.iterdir()) == []         # nothing written, here or in a --data folder


# -- 5. status reports the kiosk's adjustment ----------------------------------------------------

def test_status_reports_the_players_the_kiosk_adjusts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[kiosk]\ngame = "duel"\nplayers = 8\n')
    assert main(["status", "--config", str(config), "--data", str(tmp_path / "data"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    said = "[kiosk] players = 8 does not fit race preset 'duel' (2 players by its rules): 2 race"
    assert report["config"].startswith(f"{config}: ok, adjusted by the kiosk: {said}")
    assert [n for n in report["notices"] if n.startswith(said)] and report["healthy"] is True
    assert not (tmp_path / "data").exists()


def test_status_says_the_same_as_the_kiosk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game.app.kiosk import Kiosk
    from game.app.rigconfig import load_rig_config

    config = tmp_path / "config.toml"
    config.write_text('[kiosk]\ngame = "duel"\nplayers = 8\n')
    kiosk = Kiosk(tmp_path / "data", load_rig_config(config), wall_clock=lambda: None,  # type: ignore[arg-type,return-value]
                  pin_file=tmp_path / "staff-pin.toml")
    kiosk.table_game(8)
    assert main(["status", "--config", str(config), "--data", str(tmp_path / "data"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [n for n in kiosk.notes if "does not fit race preset" in n] == report["notices"]


def test_status_names_a_table_game_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[kiosk]\ngame = "nosuch"\n')
    assert main(["status", "--config", str(config), "--data", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "table game 'nosuch' is not a race preset on this rig" in report["config"]


def test_status_of_a_fitting_config_is_plainly_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[kiosk]\ngame = "duel"\nplayers = 2\n')
    assert main(["status", "--config", str(config), "--data", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["config"] == f"{config}: ok" and report["notices"] == []

