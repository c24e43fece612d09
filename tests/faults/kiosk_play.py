"""A kiosk game played in this process by simulated players (as ``kiosk --input sim`` plays
it), for the storage fault campaign: the data folder, the log, the leaderboard and the filing
of a finished game are the kiosk's own; a :class:`~storage_faults.Disk` may fail its writes."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pygame
from storage_faults import Disk

from game.app.cmd_kiosk import _script_for, _SimClock
from game.app.kiosk import Kiosk
from game.app.rigconfig import RigConfig
from game.app.ui.adapters import Detected
from game.app.ui.fonts import fonts_for
from game.app.ui.loop import App
from game.app.ui.sound import Sounds
from game.app.ui.state import UiState
from game.controller import Stage
from game.controller import inputs as console
from game.i18n.lookup import render
from game.sim.presses import T0_NS

PLAYERS = 3
SEED = 8
S = 1_000_000_000
WALL = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=1)))
_SHARED: dict[str, Any] = {}


def _shared() -> dict[str, Any]:
    """pygame, the fonts and a surface: made once for every game of the campaign."""
    if not _SHARED:
        pygame.init()
        _SHARED.update(fonts=fonts_for("en")[0], surface=pygame.Surface((800, 480)), sounds=Sounds())
    return _SHARED


@dataclass
class Played:
    """What one game left: the most steps its log ever had on disk, the kiosk's notes, what
    the screen said, and the traceback of anything that escaped (None: nothing did)."""

    written: int = 0
    notes: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    first_frame: bool = False
    error: str | None = None


def start(data: Path) -> tuple[Kiosk, App, _SimClock]:
    shared = _shared()
    kiosk = Kiosk(data, RigConfig(), lambda: WALL)
    clock = _SimClock(PLAYERS)
    settings = kiosk.config.table_settings(PLAYERS, clock.clock, clock.resolution_ns)
    table_log = kiosk.start_log(settings, SEED, T0_NS)
    clock.t_ns = T0_NS
    app = App(detected=Detected(clock, "sim"), settings=table_log.settings, seed=table_log.seed,  # type: ignore[arg-type]
              ui=UiState(lang="en", input_name="sim"), fonts=shared["fonts"], surface=shared["surface"],
              sounds=shared["sounds"], log=table_log, attract_after_ns=None, kiosk=kiosk, scripted=True)
    clock.t_ns = max(clock.t_ns, app.table.now_t_ns)
    return kiosk, app, clock


def _said(app: App) -> list[str]:
    return [render(m, "en") for m, _ in app.ui.notices]


def play(data: Path, disk: Disk, clear_after: int | None) -> Played:
    """One whole game from a kiosk start; once a write has failed, the card is freed after
    ``clear_after`` more steps (None: never). Then the next game starts and the kiosk stops."""
    out = Played()
    kiosk = None
    try:
        kiosk, app, clock = start(data)
        app.draw()
        out.first_frame = True
        script, event = _script_for(app)
        failing_steps = 0
        said: set[str] = set()
        while app.log is not None and event is not None:
            current = app.log
            clock.t_ns = max(clock.t_ns, event.t_ns)
            made = app.feed(event)
            out.written = max(out.written, current.written)
            said.update(_said(app))
            if disk.failing and clear_after is not None:
                failing_steps += 1
                if failing_steps > clear_after:
                    disk.clear()
            if app.table.stage is Stage.GAME_OVER:
                break
            event = script.send(made)
        app.draw()
        if clear_after is not None:
            disk.clear()                    # later on: the card works again
        app.feed(console.NewGame(clock.t_ns + S))
        said.update(_said(app))
        app.draw()
        if app.log is not None:
            kiosk.close_log(app.log)
        out.said = sorted(said)
    except Exception:
        out.error = traceback.format_exc()
    finally:
        if kiosk is not None:
            try:
                kiosk.close()
            except Exception:
                out.error = out.error or traceback.format_exc()
            out.notes = list(kiosk.notes)
    return out


def restart(data: Path) -> str | None:
    """The kiosk started again on the folder (the card works): a game over that could not be
    filed is filed. Returns a traceback, or None."""
    try:
        kiosk, app, _ = start(data)
        app.draw()
        if app.log is not None:
            kiosk.close_log(app.log)
        kiosk.close()
    except Exception:
        return traceback.format_exc()
    return None


def logged_games(data: Path) -> list[list[dict[str, Any]]]:
    """Every game log under ``data`` (the leaderboard aside): its rows' fields in order, after
    checking each row's place in the chain (its step number and the CRC before it)."""
    import zlib

    found = []
    for path in sorted(data.rglob("*.db")):
        if path.name.startswith("leaderboard") or not path.is_file():
            continue
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            rows = db.execute("SELECT body, crc FROM steps ORDER BY seq").fetchall()
        except sqlite3.Error:
            continue
        finally:
            db.close()
        prev = int(meta["check"])
        fields = []
        for n, (body, crc) in enumerate(rows, start=1):
            data_ = json.loads(body)
            assert zlib.crc32(body.encode()) == crc and data_["step"] == n and data_["prev"] == prev, \
                f"{path}: step {n} is out of its chain"
            prev = crc
            fields.append({k: v for k, v in data_.items() if k not in ("step", "prev")})
        found.append(fields)
    return found


def board_keys(data: Path) -> list[str]:
    """The games on the leaderboard file (their keys), [] if there is none."""
    path = data / "leaderboard.db"
    if not path.is_file():
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [key for (key,) in db.execute("SELECT key FROM games ORDER BY id")]
    except sqlite3.Error:
        return []
    finally:
        db.close()


def kiosk_in_read_only_folder(tmp_path: Path, prepare: Callable[[Path], None]) -> subprocess.CompletedProcess[str]:
    """``kiosk --input sim`` for real, no injection, on a data folder of mode 0555 that
    ``prepare`` filled first. Root may write anywhere, so when the suite runs as root the kiosk
    runs as ``nobody`` (setpriv), in a folder under /tmp that nobody may enter."""
    import pytest

    repo = Path(__file__).resolve().parents[2]
    prefix: list[str] = []
    folder = tmp_path
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root every folder is writable, and setpriv is missing to run as nobody")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        folder = Path(tempfile.mkdtemp(prefix="read-only-data-", dir="/tmp"))
        folder.chmod(0o755)
    data = folder / "data"
    data.mkdir(exist_ok=True)
    prepare(data)
    if prefix:
        for part in (data, *data.rglob("*")):
            os.chown(part, 65534, 65534)
    data.chmod(0o555)
    try:
        return subprocess.run([*prefix, sys.executable, "-m", "game.app.cli", "kiosk", "--input", "sim", "--data",
                               str(data), "--config", str(folder / "none.toml"), "--players", "3", "--seed", "8",
                               "--draw-every", "1000"], cwd=repo, capture_output=True, text=True, timeout=600,
                              env={**os.environ, "PYTHONPATH": str(repo), "PYTHONDONTWRITEBYTECODE": "1"})
    finally:
        data.chmod(0o755)
        if prefix:
            shutil.rmtree(folder, ignore_errors=True)
