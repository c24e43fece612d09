"""Issue 21, Build 1 for the kiosk's referee sessions (``race.db``): a full, read-only or
failing card at any write of a session -- its log's creation, every input, filing it in
``races/`` with its report -- gives no traceback and loses no input that was written; the
inputs made meanwhile are written in order once the card works again, or said lost.

The same campaign as the card game's (``test_storage_campaign.py``), over the referee log's
write paths: a clean session of eight counted races lists them; each point is tried with a
fault the card recovers from and one it never does (the soak command: every fault, both ways)."""

from __future__ import annotations

import errno
import json
import shutil
import sqlite3
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from kiosk_play import WALL
from sizes import SOAK
from storage_faults import CAN_FAIL, Disk, Op, injected

from game.app.cmd_referee import names_for
from game.app.kiosk import Kiosk
from game.app.referee.race_demo import SIM_CLOCK, SIM_RESOLUTION_NS, T0_NS, play_races
from game.app.rigconfig import RigConfig
from game.referee.presets import load_presets

PRESET = load_presets().get("bell-slap")
PLAYERS = 3
SEED = 4
FAULTS = (errno.ENOSPC, errno.EROFS, errno.EIO)


@dataclass
class Session:
    written: int = 0
    notes: list[str] = field(default_factory=list)
    error: str | None = None


def run(data: Path, disk: Disk, clear_after: int | None) -> Session:
    """A session of eight counted races on the kiosk's race log, then filed (as a switch of the
    table or of the players files it); the card comes back ``clear_after`` inputs after it
    failed (None: never)."""
    out = Session()
    kiosk = None
    try:
        kiosk = Kiosk(data, RigConfig(), lambda: WALL)
        race_log = kiosk.open_race_log(PRESET, PLAYERS, clock=SIM_CLOCK, resolution_ns=SIM_RESOLUTION_NS, seed=SEED,
                                       t0_ns=T0_NS)
        failing = 0

        def record(event: Any) -> None:
            nonlocal failing
            race_log.record(event)
            out.written = max(out.written, race_log.written)
            if disk.failing and clear_after is not None:
                failing += 1
                if failing > clear_after:
                    disk.clear()

        done = play_races(PRESET, PLAYERS, SEED, 8, lambda *_: None, names_for(PLAYERS), on_input=record,
                          session=race_log.session)
        if clear_after is not None:
            disk.clear()
        kiosk.keep_race_session(done.session)
        kiosk.file_race_log(race_log)
    except Exception:
        out.error = traceback.format_exc()
    finally:
        if kiosk is not None:
            kiosk.close()
            out.notes = list(kiosk.notes)
    return out


def logged(folder: Path) -> list[list[dict[str, Any]]]:
    """Each referee log's inputs (and what they left), in order."""
    found = []
    for path in sorted(folder.rglob("race*.db")):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT body FROM steps ORDER BY seq").fetchall()
        except sqlite3.Error:
            continue
        finally:
            db.close()
        inputs = [{k: v for k, v in json.loads(body).items() if k not in ("step", "prev")} for (body,) in rows]
        for n, (body,) in enumerate(rows, start=1):
            assert json.loads(body)["step"] == n
        found.append(inputs)
    return found


@pytest.mark.soak
def test_a_fault_at_any_write_path_of_a_kiosk_referee_session_loses_nothing(ram: Path) -> None:
    disk = Disk(ram / "clean")
    with injected(disk):
        clean = run(ram / "clean" / "data", disk, None)
    assert clean.error is None, clean.error
    [inputs] = logged(ram / "clean")
    assert len(inputs) > 50 and list((ram / "clean" / "data" / "races").glob("race-*.html"))
    first: dict[tuple[str, str, str], Op] = {}
    for op in disk.ops:
        first.setdefault(op.signature, op)
    points = sorted(first.values(), key=lambda op: op.index)
    failures, runs = [], 0
    for turn, op in enumerate(points):
        faults = [f for f in FAULTS if op.kind in CAN_FAIL[f]]
        tries = ([(f, clear) for f in faults for clear in (3, None)] if SOAK else
                 [(faults[turn % len(faults)], 3), (faults[(turn + 1) % len(faults)], None)])
        for fault, clear_after in tries:
            runs += 1
            folder = ram / f"run-{runs}"
            faulty = Disk(folder)
            faulty.arm(op.index, fault)
            with injected(faulty):
                got = run(folder / "data", faulty, clear_after)
            problem = got.error
            best = 0
            for kept in logged(folder):
                if kept != inputs[:len(kept)]:
                    problem = problem or f"a log of {len(kept)} inputs is not the session's first inputs"
                best = max(best, len(kept))
            if problem is None and clear_after is not None and best != len(inputs):
                problem = f"{len(inputs) - best} inputs are not on the card after it came back"
            if problem is None and best < got.written:
                problem = f"{got.written - best} written inputs were lost"
            if problem is None and best < len(inputs) and not any("lost" in n for n in got.notes):
                problem = f"{len(inputs) - best} inputs were not written and that was not said"
            if problem is not None:
                failures.append(f"{op} {errno.errorcode[fault]} {'clears' if clear_after else 'stays'}: {problem}")
            shutil.rmtree(folder, ignore_errors=True)
    print(f"referee session fault campaign: {runs} faulty sessions over {len(points)} injection points "
          f"({len(disk.ops)} writes in the session); {len(failures)} failed")
    assert not failures, "\n\n".join(failures[:5])


def test_a_race_preset_on_a_card_that_cannot_take_its_log_plays_and_says_so(tmp_path: Path) -> None:
    """The kiosk running a race preset starts on a read-only card, says so on the race screen
    for as long as it lasts, and races on."""
    import pygame

    from game.app.cmd_kiosk import _SimClock
    from game.app.referee.kiosk_races import KioskRaces
    from game.app.ui.adapters import Detected
    from game.app.ui.fonts import fonts_for
    from game.app.ui.sound import Sounds
    from game.i18n.lookup import text

    pygame.init()

    data = tmp_path / "data"
    data.mkdir()
    disk = Disk(tmp_path)
    disk.arm(0, errno.EROFS)
    with injected(disk):
        kiosk = Kiosk(data, RigConfig(), lambda: WALL)
        rig = _SimClock(4)
        rig.t_ns = 1_000_000_000
        game = next(g for g in kiosk.table_games(rig.seats) if g.id == "bell-slap")
        races = KioskRaces(kiosk=kiosk, detected=Detected(rig, "sim"), game=game,  # type: ignore[arg-type]
                           surface=pygame.Surface((800, 480)), fonts=fonts_for("en")[0], sounds=Sounds(), seed=3)
        assert races.log is not None and races.log.trouble
        said = text("en", "ui_log_trouble")
        for _ in range(3):                     # every notice time, again
            races.poll()
            assert races.race.notice_words(rig.now_ns()) == said
            races.draw()
            rig.t_ns += 5_000_000_000
        races.end()
        kiosk.close()
    assert any("referee session log" in n and "check the SD card" in n for n in kiosk.notes), kiosk.notes
