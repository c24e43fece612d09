"""The staff PIN file (mode 0640, written whole, refused in one sentence when damaged), the
saved count of wrong PINs (kept over restarts, saved before the check) and ``cheating-moth
staff-pin``, which writes the file. Hashes use few iterations (the count is in the file)."""

from __future__ import annotations

import grp
import os
import stat
from datetime import datetime, timezone
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.kiosk import Kiosk
from game.app.pinfile import MAX_BYTES, read_pin_file, render, write_pin_file
from game.app.pinwait import UNREADABLE, load_count, save_count
from game.app.rigconfig import RigConfig
from game.errors import BadConfig
from game.staff import FIRST_WAIT_NS, ITERATIONS, PinHash

PIN = "246813"
FAST = 1_000
MY_GROUP = grp.getgrgid(os.getgid()).gr_name
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


def test_the_pin_file_is_0640_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "etc" / "staff-pin.toml"
    path.parent.mkdir()             # a missing folder is refused, not made (test_cli_refusals_21.py)
    written = write_pin_file(path, PIN, iterations=FAST, group=MY_GROUP)
    info = path.stat()
    assert stat.S_IMODE(info.st_mode) == 0o640
    assert info.st_gid == os.getgid() and info.st_uid == os.geteuid()
    assert read_pin_file(path) == written and written.matches(PIN)
    assert PIN not in path.read_text() and f"iterations = {FAST}" in path.read_text()
    assert [p.name for p in path.parent.iterdir()] == ["staff-pin.toml"]   # no temporary file left


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give the file to another group")
def test_as_root_the_file_belongs_to_root_and_the_kiosks_group(tmp_path: Path) -> None:
    other = next(g for g in grp.getgrall() if g.gr_gid != 0)
    path = tmp_path / "staff-pin.toml"
    write_pin_file(path, PIN, iterations=FAST, group=other.gr_name)
    assert (path.stat().st_uid, path.stat().st_gid) == (0, other.gr_gid)


@pytest.mark.skipif(os.geteuid() != 0, reason="the group is only looked up when run as root")
def test_as_root_a_missing_group_is_refused_and_the_old_file_kept(tmp_path: Path) -> None:
    path = tmp_path / "staff-pin.toml"
    write_pin_file(path, PIN, iterations=FAST, group=MY_GROUP)
    before = path.read_bytes()
    with pytest.raises(BadConfig, match="group 'no-such-moth-group' does not exist, so the kiosk could not "
                                        "read the PIN file: install the rig first"):
        write_pin_file(path, "135791", iterations=FAST, group="no-such-moth-group")
    assert path.read_bytes() == before


def test_no_pin_file_means_no_pin(tmp_path: Path) -> None:
    assert read_pin_file(tmp_path / "staff-pin.toml") is None


GOOD = render(PinHash.of(PIN, bytes(16), FAST))


@pytest.mark.parametrize("text, words", [
    ("x" * (MAX_BYTES + 1), "is larger than 4 KiB, the most it may hold"),
    ("algorithm = ", "is not valid TOML"),
    (GOOD.replace("pbkdf2-sha256", "md5"), "has algorithm 'md5': this version reads 'pbkdf2-sha256' only"),
    (GOOD.replace(f"iterations = {FAST}", "iterations = 10"), "has iterations '10': use a whole number from 1000"),
    (GOOD.replace(f"iterations = {FAST}", 'iterations = "many"'), "has iterations 'many'"),
    (GOOD.replace('salt = "', 'salt = "zz'), "has salt 'zz000"),
    (GOOD.replace('hash = "', 'hash = "ab'), "use 64 hex digits"),
    ("x = " + "[" * 2000, "nests arrays or tables too deeply"),
])
def test_a_damaged_pin_file_is_one_sentence_naming_it(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "staff-pin.toml"
    path.write_text(text)
    with pytest.raises(BadConfig) as refused:
        read_pin_file(path)
    message = str(refused.value)
    assert words in message and str(path) in message and "staff-pin" in message
    assert "\n" not in message


def test_a_folder_where_the_pin_file_should_be_is_refused(tmp_path: Path) -> None:
    (tmp_path / "staff-pin.toml").mkdir()
    with pytest.raises(BadConfig, match="staff PIN file .* is a folder, not a file: set the PIN again"):
        read_pin_file(tmp_path / "staff-pin.toml")


# -- the saved count of wrong PINs -------------------------------------------------------------

def test_the_count_is_saved_and_read_back(tmp_path: Path) -> None:
    notes: list[str] = []
    assert load_count(tmp_path / "pin-wrong", notes) == 0
    assert save_count(tmp_path / "pin-wrong", 7)
    assert load_count(tmp_path / "pin-wrong", notes) == 7 and notes == []


@pytest.mark.parametrize("raw", [b"-1\n", b"seven\n", b"\xff\xfe", b"9" * 40])
def test_a_damaged_count_waits_once_and_says_so(tmp_path: Path, raw: bytes) -> None:
    (tmp_path / "pin-wrong").write_bytes(raw)
    notes: list[str] = []
    assert load_count(tmp_path / "pin-wrong", notes) == UNREADABLE
    assert len(notes) == 1 and "the PIN keypad waits once before it checks a PIN" in notes[0]


def test_a_count_that_cannot_be_saved_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "pin-wrong").mkdir()                   # a folder where the file should be
    assert save_count(tmp_path / "pin-wrong", 1) is False


def kiosk(tmp_path: Path) -> Kiosk:
    return Kiosk(tmp_path / "data", RigConfig(), wall_clock=lambda: NOW, pin_file=tmp_path / "staff-pin.toml")


def test_a_wrong_pin_is_saved_before_it_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_pin_file(tmp_path / "staff-pin.toml", PIN, iterations=FAST, group=MY_GROUP)
    k = kiosk(tmp_path)

    def power_cut(self: PinHash, pin: str) -> bool:
        raise KeyboardInterrupt("the plug is pulled while the PIN is being checked")

    monkeypatch.setattr(PinHash, "matches", power_cut)
    with pytest.raises(KeyboardInterrupt):
        k.try_pin("111111", 0)
    monkeypatch.undo()
    assert kiosk(tmp_path).lock.wrong == 1             # the interrupted attempt still counts
    k = kiosk(tmp_path)
    assert k.try_pin("222222", 0) == (False, 0)
    assert k.try_pin("333333", 0) == (False, FIRST_WAIT_NS)
    assert kiosk(tmp_path).lock.wrong == 3


def test_a_full_data_folder_does_not_stop_the_keypad(tmp_path: Path) -> None:
    write_pin_file(tmp_path / "staff-pin.toml", PIN, iterations=FAST, group=MY_GROUP)
    k = kiosk(tmp_path)
    (tmp_path / "data" / "pin-wrong").mkdir()          # the count cannot be written
    assert k.try_pin("111111", 0) == (False, 0)
    assert k.try_pin(PIN, 0) == (True, 0)


# -- cheating-moth staff-pin ------------------------------------------------------------------

def staff_pin(tmp_path: Path, *args: str) -> list[str]:
    return ["staff-pin", "--file", str(tmp_path / "staff-pin.toml"), "--group", MY_GROUP, *args]


def test_staff_pin_writes_the_file_the_kiosk_opens_with(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(staff_pin(tmp_path, "--pin", PIN)) == 0
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / 'staff-pin.toml'} (mode 0640)" in out and PIN not in out
    stored = read_pin_file(tmp_path / "staff-pin.toml")
    assert stored is not None and stored.iterations == ITERATIONS >= 600_000
    k = kiosk(tmp_path)
    assert k.try_pin(PIN, 0) == (True, 0)


@pytest.mark.parametrize("pin", ["4711", "12345", "123456789", "12a456"])
def test_staff_pin_refuses_a_bad_pin_and_keeps_the_old_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pin: str) -> None:
    write_pin_file(tmp_path / "staff-pin.toml", PIN, iterations=FAST, group=MY_GROUP)
    before = (tmp_path / "staff-pin.toml").read_bytes()
    with pytest.raises(SystemExit) as exit_info:
        main(staff_pin(tmp_path, "--pin", pin))
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert "is not valid: use 6 to 8 digits (6 recommended); nothing changed" in err and pin not in err
    assert len(err.strip().splitlines()) == 1
    assert (tmp_path / "staff-pin.toml").read_bytes() == before


def test_staff_pin_onto_a_folder_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "staff-pin.toml").mkdir()
    with pytest.raises(SystemExit) as exit_info:
        main(staff_pin(tmp_path, "--pin", PIN))
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "is a folder, not a file" in err and "nothing changed" in err
    assert list((tmp_path / "staff-pin.toml").iterdir()) == [] and len(list(tmp_path.iterdir())) == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_staff_pin_into_a_folder_it_cannot_write_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(SystemExit) as exit_info:
            main(staff_pin(folder, "--pin", PIN))
    finally:
        folder.chmod(0o755)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "cannot write the PIN file" in err and "nothing changed" in err
    assert list(folder.iterdir()) == []


def test_old_pin_lines_in_the_config_point_to_staff_pin() -> None:
    from game.app.rigconfig import rig_config_from

    with pytest.raises(BadConfig, match="has only one of pin-hash and pin-salt, an old release's PIN lines: "
                                        "delete them and set the PIN with 'sudo cheating-moth staff-pin'"):
        rig_config_from({"staff": {"pin-hash": "ab" * 32}})
    with pytest.raises(BadConfig, match="pin-salt is 'zz': use 16 to 128 hex digits, or rather delete"):
        rig_config_from({"staff": {"pin-hash": "ab" * 32, "pin-salt": "zz"}})


def test_a_pin_file_every_user_can_read_is_named_in_a_notice(tmp_path: Path) -> None:
    write_pin_file(tmp_path / "staff-pin.toml", PIN, iterations=FAST, group=MY_GROUP)
    assert not [n for n in kiosk(tmp_path).notes if "can be read by every user" in n]
    (tmp_path / "staff-pin.toml").chmod(0o644)        # as an old copy or a careless cp leaves it
    k = kiosk(tmp_path)
    assert k.lock is not None                          # the PIN still works, and the owner is told
    assert [n for n in k.notes if f"the staff PIN file {tmp_path / 'staff-pin.toml'} can be read by every "
            "user of the Pi: set the PIN again with 'sudo cheating-moth staff-pin'" in n]
