"""Issue 21, hostile retest: the wrong-PIN back-off survives a restart of the kiosk even when
the SD card cannot take the count (full, read-only): it used to be only a journal line, and a
restarted kiosk accepted the right PIN at once. The count is then kept in a shadow that needs no
card write (``$RUNTIME_DIRECTORY``, systemd's private runtime folder), read at start."""

from __future__ import annotations

import errno
import logging
import os
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faults"))
from storage_faults import Disk, injected  # noqa: E402

from game.app.kiosk import Kiosk  # noqa: E402
from game.app.pinfile import write_pin_file  # noqa: E402
from game.app.pinwait import load_count, save_count, shadow_path  # noqa: E402
from game.app.rigconfig import RigConfig  # noqa: E402
from game.staff import FIRST_WAIT_NS  # noqa: E402

PIN = "246813"
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "run"
    folder.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(folder))
    logging.disable(logging.CRITICAL)
    try:
        yield folder
    finally:
        logging.disable(logging.NOTSET)


def kiosk(tmp_path: Path) -> Kiosk:
    import grp

    pin_file = tmp_path / "staff-pin.toml"
    if not pin_file.exists():
        write_pin_file(pin_file, PIN, iterations=1_000, group=grp.getgrgid(os.getgid()).gr_name)
    return Kiosk(tmp_path / "data", RigConfig(), wall_clock=lambda: NOW, pin_file=pin_file)


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS])
def test_the_back_off_holds_over_a_restart_when_the_card_cannot_keep_the_count(
        tmp_path: Path, runtime: Path, fault: int) -> None:
    k = kiosk(tmp_path)
    disk = Disk(tmp_path / "data")
    disk.arm(0, fault)                                 # the data folder takes no write
    with injected(disk):
        assert k.try_pin("111111", 0) == (False, 0)
        assert k.try_pin("222222", 0) == (False, 0)
        assert k.try_pin("333333", 0) == (False, FIRST_WAIT_NS)
    assert disk.failed and not (tmp_path / "data" / "pin-wrong").exists()
    assert any("cannot be saved in" in n and str(runtime) in n and "check the SD card" in n
               for n in k.notes), k.notes
    again = kiosk(tmp_path)                            # the kiosk restarted on the same folder
    assert again.lock is not None and again.lock.wrong == 3          # used to be 0
    assert again.try_pin(PIN, 0) == (False, FIRST_WAIT_NS)           # still waits, right PIN or not
    # The card takes writes again: a right PIN after the wait clears both counts.
    assert again.try_pin(PIN, FIRST_WAIT_NS) == (True, 0)
    shadow = shadow_path(tmp_path / "data" / "pin-wrong")
    assert shadow is not None and not shadow.exists()
    lock = kiosk(tmp_path).lock
    assert lock is not None and lock.wrong == 0


def test_the_higher_count_of_card_and_shadow_is_read(tmp_path: Path, runtime: Path) -> None:
    path = tmp_path / "pin-wrong"
    shadow = shadow_path(path)
    assert shadow is not None and shadow.parent == runtime
    save_count(path, 2)
    shadow.write_text("5\n")                            # the card refused the later counts
    assert load_count(path, [], shadow) == 5
    assert save_count(path, 6, shadow) and not shadow.exists()   # the card takes it: one count
    assert load_count(path, [], shadow) == 6
    other = shadow_path(tmp_path / "other" / "pin-wrong")
    assert other is not None and other != shadow        # each data folder its own


def test_the_keypad_says_the_count_could_not_be_kept_on_the_card(tmp_path: Path, runtime: Path) -> None:
    from game.app.ui.loop import pin_ok
    from game.app.ui.state import UiState
    from game.i18n.lookup import render

    k = kiosk(tmp_path)
    ui = UiState()
    disk = Disk(tmp_path / "data")
    disk.arm(0, errno.EROFS)
    with injected(disk):
        ui.pin_entry = "111111"
        assert not pin_ok(k, ui, 0)
    said = [render(m, "en") for m, _ in ui.notices]
    assert any("count of wrong staff PINs cannot be saved" in s and "check the SD card" in s for s in said), said
