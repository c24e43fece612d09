"""Issue 21, defect 3 and Build 1: the kiosk reaches its first frame whatever its data folder
is -- missing and not makeable, a file, read-only, full, failing, its ``games`` or ``aside`` a
file -- with the trouble on screen ("staff, check the SD card"), and the table plays on."""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path

import pytest
from kiosk_play import kiosk_in_read_only_folder
from kiosk_play import start as start_played
from storage_faults import Disk, injected

from game.app import cmd_kiosk
from game.app.cli import build_parser
from game.controller import inputs as console
from game.i18n.lookup import render


def game_in_progress(data: Path, steps: int = 20) -> None:
    """A kiosk game left after ``steps`` steps in ``data`` (as a pulled plug leaves it)."""
    from game.app.cmd_kiosk import _script_for

    kiosk, app, clock = start_played(data)
    script, event = _script_for(app)
    for _ in range(steps):
        assert event is not None
        clock.t_ns = max(clock.t_ns, event.t_ns)
        made = app.feed(event)
        event = script.send(made)
    assert app.log is not None
    app.log.close()
    kiosk.close()


def first_frame(folder: Path, data: Path) -> tuple[list[str], bool, object]:
    """``cheating-moth kiosk --headless`` up to its first frame, then a few frames of play:
    what the screen says, whether a game was resumed, and the session (closed)."""
    args = build_parser().parse_args(["kiosk", "--headless", "--input", "keyboard", "--data", str(data),
                                      "--config", str(folder / "none.toml"), "--seed", "5"])
    notes: list[str] = []
    session = cmd_kiosk.start(args, cmd_kiosk.load_config(args.config, notes), notes)
    try:
        app = session.app
        assert app.run(max_frames=1) == 1 and app.frame is not None
        said = [render(m, "en") for m, _ in app.ui.notices]
        resumed = app.resumed
        app.feed(console.NewGame(app.adapter.now_ns()))   # the table takes a step: no traceback
        app.run(max_frames=2)
        return said, resumed, session
    finally:
        session.close()


Setup = Callable[[Path], Path]


def _missing(root: Path) -> Path:
    (root / "blocker").write_text("not a folder")
    return root / "blocker" / "data"


def _a_file(root: Path) -> Path:
    (root / "data").write_text("not a folder")
    return root / "data"


def _games_a_file(root: Path) -> Path:
    data = root / "data"
    data.mkdir()
    (data / "games").write_text("not a folder")
    return data


def _aside_a_file(root: Path) -> Path:
    data = root / "data"
    data.mkdir()
    (data / "aside").write_text("not a folder")
    (data / "table.db").write_bytes(b"this is not SQLite" * 200)   # must go aside, and cannot
    return data


SHAPES: dict[str, Setup] = {"missing and not makeable": _missing, "a file": _a_file,
                            "games/ a file": _games_a_file, "aside/ a file, a damaged log": _aside_a_file}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_kiosk_starts_whatever_shape_its_data_folder_has(tmp_path: Path, shape: str) -> None:
    data = SHAPES[shape](tmp_path)
    said, _, _ = first_frame(tmp_path, data)      # used to end in FileExistsError / NotADirectoryError
    assert any("SD card" in s or "check the SD card" in s for s in said), said


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS, errno.EIO])
@pytest.mark.parametrize("in_progress", [False, True], ids=["empty", "a game in progress"])
def test_the_kiosk_starts_on_a_full_read_only_or_failing_card(tmp_path: Path, fault: int, in_progress: bool) -> None:
    data = tmp_path / "data"
    if in_progress:
        game_in_progress(data)
    else:
        data.mkdir()
    disk = Disk(tmp_path)
    disk.arm(0, fault)                               # every write fails from the start
    with injected(disk):
        said, resumed, _ = first_frame(tmp_path, data)   # used to be a traceback, or no frame
    assert disk.failed
    assert any("check the SD card" in s for s in said), said
    if in_progress and fault == errno.ENOSPC:
        assert resumed     # a full card still reads: the game is resumed, its next steps kept in memory


def test_the_kiosk_plays_a_whole_game_in_a_data_folder_it_may_not_write(tmp_path: Path) -> None:
    """For real, no injection: ``kiosk --input sim`` on a folder of mode 0555 (as ``nobody``
    when the suite runs as root, who may write anywhere) plays its game to the end from memory
    and says so, without a traceback."""
    done = kiosk_in_read_only_folder(tmp_path, lambda data: None)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "check the SD card" in done.stdout and "Final standings" in done.stdout
    assert "are lost" in done.stdout          # the game was played from memory, and that is said


def test_staff_changes_and_a_reset_on_a_read_only_card_apply_and_are_said(tmp_path: Path) -> None:
    from kiosk_play import WALL

    from game.app.kiosk import Kiosk
    from game.app.rigconfig import RigConfig

    data = tmp_path / "data"
    data.mkdir()
    disk = Disk(tmp_path)
    with injected(disk):
        kiosk = Kiosk(data, RigConfig(), lambda: WALL)
        disk.arm(len(disk.ops), errno.EROFS)
        kiosk.change(volume=30)                    # used to end in OSError: Read-only file system
        kiosk.reset_leaderboard()                  # used to end in sqlite3.OperationalError
        kiosk.close()
    assert kiosk.config.volume == 30
    assert any("could not be kept" in n for n in kiosk.notes), kiosk.notes
    assert any("could not be reset" in n for n in kiosk.notes), kiosk.notes


def test_a_log_that_cannot_be_replayed_nor_moved_aside_stays_and_the_game_starts_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.app.ui import loop
    from game.errors import GameError

    data = tmp_path / "data"
    game_in_progress(data)
    before = (data / "table.db").read_bytes()

    def cannot(*args: object) -> object:
        raise GameError("step 3 does not follow from step 2")

    monkeypatch.setattr(loop, "resume", cannot)
    disk = Disk(tmp_path)
    disk.arm(0, errno.EROFS, only="data/table.db")    # the log reads, but neither moves nor takes a step
    with injected(disk):
        kiosk, app, _ = start_played(data)    # used to end in OSError: the move aside failed
        assert app.draw() is not None and not app.resumed
        assert app.log is not None and app.log.trouble and app.log.written == 0
        assert any("cannot be moved aside" in n for n in kiosk.notes), kiosk.notes
        app.log.close()
        kiosk.close()
    assert (data / "table.db").read_bytes() == before      # left as it is, for staff
