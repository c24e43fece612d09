"""``cheating-moth referee --list`` (and the kiosk's presets) with a home folder that cannot be
read or found (issue 21 point 5): one sentence on stderr, the shipped presets still listed."""

from __future__ import annotations

import pathlib
import pwd
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.kiosk import load_table_presets
from game.bounded import MESSAGE_CHARS

SHIPPED = ("bell-slap", "duel", "grab")


def listed(capsys: pytest.CaptureFixture[str]) -> tuple[list[str], list[str]]:
    assert main(["referee", "--list"]) == 0
    out, err = capsys.readouterr()
    return [line.split(":")[0] for line in out.splitlines()], err.splitlines()


def test_an_unreadable_home_folder_is_one_note_and_the_shipped_presets_are_listed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    (home / ".config" / "cheating-moth" / "referee").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    # The tests may run as root, who reads a 0000 folder: the kernel's EACCES is given here.
    real_stat = pathlib.Path.stat

    def stat(self: Path, *, follow_symlinks: bool = True):  # type: ignore[no-untyped-def]
        if self.is_relative_to(home):
            raise PermissionError(13, "Permission denied", str(self))
        return real_stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(pathlib.Path, "stat", stat)
    ids, err = listed(capsys)
    assert all(p in ids for p in SHIPPED)
    assert len(err) == 1 and len(err[0]) <= MESSAGE_CHARS + 6, err
    assert err[0].startswith("note: cannot read referee presets ") and "(Permission denied)" in err[0]


def test_a_home_path_the_system_refuses_is_one_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / ("h" * 300)))    # a name too long: a real ENAMETOOLONG
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    ids, err = listed(capsys)
    assert all(p in ids for p in SHIPPED)
    assert len(err) == 1 and "(File name too long)" in err[0]


def test_no_home_folder_at_all_is_one_note(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)

    def no_user(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_user)      # a container's uid with no passwd entry
    ids, err = listed(capsys)
    assert all(p in ids for p in SHIPPED)
    assert err == ["note: the user's referee presets (~/.config/cheating-moth/referee) are not read: there is "
                   "no home folder; set HOME or XDG_CONFIG_HOME"]


def test_the_kiosk_offers_the_shipped_presets_with_an_unreadable_home(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / ("h" * 300)))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    found = load_table_presets(tmp_path / "data")
    assert all(p in found.ids for p in SHIPPED)
    assert len(found.notices) == 1 and "File name too long" in found.notices[0]
