"""The referee session's log: sessions of every shipped preset logged and resumed exactly, the
table log's checks said for a session too (a torn row, a lost WAL), a race cut off by a kill
called off on resume, the time line carried on, logs of the other kind or garbage refused in
one sentence, and the finished races exported for ``cheating-moth judge``.

Every timestamp is chosen: a rig GO is given at the due time the session asked for (read from
its ``ScheduleGo``) plus a chosen delay; presses are at chosen offsets from GO (from arming for
a table-GO preset). Nothing reads a clock."""

from __future__ import annotations

import collections
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_tablelog_checks import logged as table_logged
from test_tablelog_checks import rows, set_mirror
from test_tablelog_corruption import KINDS as CORRUPTIONS

from game.app.cli import main
from game.app.referee.race_log import LogInput, RaceLog, export_races
from game.app.tablelog import LOG_SUFFIXES, Mirrored, TableLog, _meta_crc, clock_shift_ns
from game.controller import TableSettings
from game.controller.effects import Arm, ScheduleGo
from game.controller.inputs import Tick
from game.errors import BadConfig, BadInputEvent, BadTableLog
from game.inputs import Go, Press, Release
from game.judge import Status
from game.referee.presets import Outcome, load_presets
from game.referee.race import rejudge, result_to_json
from game.referee.session import CallOff, Phase, Restarted, Session, Start, Void, new_session, step

MS = 1_000_000
S = 1_000 * MS
CLOCK = "sim"
T0 = 10_000 * S
RESOLUTION_NS = 100_000
PRESETS = load_presets()
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


# --- sessions played from a plan ----------------------------------------------------------------

#: One race plan: ("start",), ("go", late_ms), ("press" | "release", seat, ms), ("tick", ms),
#: ("void", seat, ms), ("call_off", ms). Times are ms from the race's GO (its due time for a rig
#: GO, its arming for a table GO); a start comes a second after the session's last time. Hands
#: are lifted after each race, as at a table (a button down through the next start is evidence).
Plan = Sequence[tuple[Any, ...]]

PLANS: dict[str, tuple[int, Plan]] = {
    "duel": (2, (
        ("start",), ("press", 0, -300), ("release", 0, -200), ("go", 0),      # a false start loses; GO comes anyway
        ("start",), ("start",), ("go", 2), ("press", 1, 180),                 # a start refused while running
        ("press", 0, 221), ("release", 1, 300), ("release", 0, 320), ("tick", 400),
        ("start",), ("go", 0), ("press", 0, 200), ("press", 1, 200),          # a tie: run again
        ("release", 0, 300), ("release", 1, 300), ("tick", 400),
    )),
    "grab": (3, (
        ("start",), ("go", 0), ("press", 2, 240), ("press", 0, 199), ("press", 1, 300),
        ("release", 0, 350), ("release", 2, 360), ("release", 1, 380), ("tick", 400),
        ("start",), ("press", 0, -50), ("release", 0, -20), ("go", 1), ("press", 2, 260), ("press", 1, 270),
        ("release", 2, 330), ("release", 1, 340), ("tick", 400),
        ("start",), ("go", 0), ("tick", 3_001),                                # nobody: run again
        ("press", 5, 3_100),                                                   # no such seat: refused
        ("start",), ("call_off", 500),                                         # the host gives up on it
    )),
    "last-hand-down": (3, (
        ("start",), ("go", 0), ("press", 0, 200), ("press", 1, 260), ("press", 2, 410),
        ("release", 0, 500), ("release", 1, 500), ("release", 2, 500), ("tick", 600),
        ("start",), ("press", 1, -100), ("release", 1, -50), ("go", 0),       # a hand down early: run again
        ("start",), ("go", 3), ("press", 0, 150), ("press", 1, 170),          # seat 2 loses by time
        ("release", 0, 250), ("release", 1, 260), ("tick", 3_010),
    )),
    "bell-slap": (3, (
        ("start",), ("press", 2, 5_000), ("press", 0, 5_150), ("tick", 5_300), ("press", 1, 5_400),
        ("release", 2, 5_450), ("release", 0, 5_460), ("release", 1, 5_470),
        ("void", 2, 5_500), ("tick", 5_600),                                  # a wrong slap: the next hand wins
        ("start",), ("press", 1, 900), ("release", 1, 950), ("tick", 1_100),
        ("void", 0, 1_200),                                                   # seat 0 did not win: refused
    )),
}


@dataclass
class Played:
    """What a plan fed, and the session after each input (``sessions[0]``: before any)."""

    inputs: list[LogInput] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)


def session_of(preset_id: str, seats: int, seed: int = 7) -> Session:
    return new_session(PRESETS.get(preset_id), seats, clock=CLOCK, resolution_ns=RESOLUTION_NS, seed=seed, t_ns=T0)


def open_log(db: Path, preset_id: str, seats: int, seed: int = 7) -> RaceLog:
    return RaceLog.open(db, PRESETS.get(preset_id), seats, clock=CLOCK, resolution_ns=RESOLUTION_NS, seed=seed,
                        t0_ns=T0)


Stepper = Callable[[Session, LogInput], tuple[Session, tuple[Any, ...]]]


def play(step_fn: Stepper, s: Session, plan: Plan, played: Played | None = None) -> Played:
    """Feed ``plan`` through ``step_fn`` (a log's, or the pure one), GO from the session's ask."""
    out = played or Played(sessions=[s])
    base = s.now_t_ns
    for item in plan:
        what, *args = item
        if what == "start":
            event: LogInput = Start(s.now_t_ns + S)
        elif what == "go":
            event = Go(base + args[0] * MS, CLOCK)
        elif what in ("press", "release"):
            event = (Press if what == "press" else Release)(args[0], base + args[1] * MS, CLOCK)
        elif what == "tick":
            event = Tick(base + args[0] * MS)
        elif what == "call_off":
            event = CallOff(base + args[0] * MS)
        else:
            event = Void(args[0], base + args[1] * MS)
        s, effects = step_fn(s, event)
        if any(isinstance(e, Arm) for e in effects) and s.race is not None:   # a race started
            due = [e.t_ns for e in effects if isinstance(e, ScheduleGo)]
            base = due[0] if due else s.race.armed_t_ns
        out.inputs.append(event)
        out.sessions.append(s)
    return out


def logged(db: Path, preset_id: str, plan: Plan | None = None) -> tuple[RaceLog, Played]:
    """A log of ``preset_id``'s plan (its own by default), left open."""
    seats, own = PLANS[preset_id]
    log = open_log(db, preset_id, seats)
    return log, play(by_log(log), log.session, own if plan is None else plan)


def by_log(log: RaceLog) -> Stepper:
    return lambda s, event: log.step(event)


def resumed_as(s: Session) -> Session:
    """What a resume makes of the session the log's inputs lead to: a race cut off called off,
    the buttons held forgotten."""
    if s.phase in (Phase.ARMED, Phase.RUNNING):
        s = step(s, CallOff(s.now_t_ns))[0]
    return step(s, Restarted(s.now_t_ns))[0]


# --- round trips --------------------------------------------------------------------------------

@pytest.mark.parametrize("preset_id", sorted(PLANS))
def test_a_logged_session_resumes_identical(tmp_path: Path, preset_id: str) -> None:
    db = tmp_path / "referee.db"
    log, played = logged(db, preset_id)
    live = played.sessions[-1]
    assert log.session is live and log.count == len(played.inputs) and log.notices == ()
    log.close()
    pure = play(step, session_of(preset_id, PLANS[preset_id][0]), PLANS[preset_id][1])
    assert pure.sessions[-1] == live                     # logging changes nothing the session does
    again = open_log(db, "grab", 3, seed=99)             # an existing log keeps its own setup
    assert again.session == live and again.notices == () and again.called_off is None
    assert again.setup.preset == PRESETS.get(preset_id) and again.setup.seed == 7
    assert [row.input for row in again.inputs] == played.inputs
    assert again.count == len(played.inputs) + 1         # and says that the rig restarted here
    assert again.session.records and again.session.phase in (Phase.READY, Phase.DECIDED)
    # Each finished race's record is in the row that finished it, as the session keeps it.
    assert [row.record for row in again.inputs if row.record is not None][-1] == live.records[-1]
    again.close()


def test_the_plans_reach_what_they_say() -> None:
    """The plans above are the races their comments name (so the round trips cover them)."""
    results = {p: play(step, session_of(p, PLANS[p][0]), PLANS[p][1]).sessions[-1].results for p in PLANS}
    assert [(r.winners, r.losers, r.rerun) for r in results["duel"]] == [((1,), (0,), False), ((1,), (), False),
                                                                       ((), (), True)]
    assert [(r.winners, r.rerun) for r in results["grab"]] == [((0,), False), ((2,), False), ((), True)]
    assert [(r.losers, r.rerun) for r in results["last-hand-down"]] == [((2,), False), ((), True), ((2,), False)]
    assert [r.winners for r in results["bell-slap"]] == [(0,), (1,)]


def test_refused_inputs_are_logged_and_refused_again(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    log, played = logged(db, "grab")
    assert log.count == len(played.inputs)
    refused = next(i for i, e in enumerate(played.inputs) if isinstance(e, Press) and e.player == 5)
    assert played.sessions[refused + 1] is played.sessions[refused]    # the press of seat 5 changed nothing
    s = log.session
    assert log.step(Tick(1.5))[0] is s                              # type: ignore[arg-type]
    assert log.count == len(played.inputs)                          # refused and unreadable: left out
    with pytest.raises(BadInputEvent, match=r"input 'tick' cannot be logged: give Start, Void, CallOff, Press, "
                                            "Release, Go, Tick, Restarted$"):
        log.step("tick")                                            # type: ignore[arg-type]
    log.close()
    again = open_log(db, "grab", 3)
    assert again.session == s and again.notices == ()
    again.close()


def test_a_shell_that_steps_its_own_session_records_through_the_log(tmp_path: Path) -> None:
    """``RaceApp(record=log.record)``: the shell records each input, then steps its own copy."""
    seats, plan = PLANS["duel"]
    log = open_log(tmp_path / "referee.db", "duel", seats)

    def shell_feed(s: Session, event: LogInput) -> tuple[Session, tuple[Any, ...]]:
        log.record(event)
        assert not isinstance(event, Restarted)
        return step(s, event)

    shell = play(shell_feed, log.session, plan)
    assert log.session == shell.sessions[-1] and log.count == len(plan)
    log.close()


# --- what the table log says, said for a session -------------------------------------------------

def test_a_torn_last_row_is_dropped_and_said(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    log, played = logged(db, "grab")
    log.close()
    n = len(played.inputs)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE steps SET body = substr(body, 1, 20) WHERE seq = ?", (n,))
    again = open_log(db, "grab", 3)
    assert again.notices == (f"the last record of {db} (step {n}) was torn (checksum mismatch) and was "
                             f"dropped; the session resumes after step {n - 1}",
                             # the torn row was the host's call-off: the race is called off again
                             "race 4 was armed when the rig stopped: it was called off without a result "
                             "(its presses stay in the log); start it again")
    assert again.session == resumed_as(played.sessions[n - 1])
    again.close()


def test_a_lost_wal_is_said_and_the_session_resumes_from_what_is_left(tmp_path: Path) -> None:
    """The log as a pulled plug leaves it (the steps after a reopen only in the WAL, no -shm),
    then without its WAL: the mirror says how many steps were lost."""
    db = tmp_path / "live" / "referee.db"
    db.parent.mkdir()
    seats, plan = PLANS["duel"]
    log, played = logged(db, "duel", plan[:4])    # the first race, checkpointed into the database
    log.close()
    log = open_log(db, "duel", seats)             # + the restart's row, then the rest: in the WAL
    play(by_log(log), log.session, plan[4:])
    image = tmp_path / "image"
    image.mkdir()
    for suffix in ("", "-wal", "-mirror"):       # -shm is memory: lost with the power
        shutil.copyfile(f"{db}{suffix}", image / f"referee.db{suffix}")
    game, count = log.game.hex(), log.count
    log.close()
    (image / "referee.db-wal").unlink()
    again = open_log(image / "referee.db", "duel", seats)
    assert again.notices == (f"{image / 'referee.db'} (session {game}) lost its last {count - 4} logged steps (its "
                             f"mirror counted {count}): the session resumes after step 4",)
    assert again.session == resumed_as(played.sessions[4])
    again.close()


def test_a_missing_mirror_is_said(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    log, played = logged(db, "last-hand-down")
    game = log.game.hex()
    log.close()
    Path(f"{db}-mirror").unlink()
    again = open_log(db, "last-hand-down", 3)
    assert again.notices == (f"the mirror of {db} (session {game}) is missing, so steps lost at the end cannot be "
                             f"ruled out: the session resumes after step {len(played.inputs)}",)
    again.close()


def test_no_corruption_of_a_referee_log_loses_an_input_silently(tmp_path: Path) -> None:
    """The table log's corruption campaign on a session's log: images taken as a pulled plug
    leaves them (early inputs in the database, later ones only in the WAL, no -shm), damaged
    one way at a time. Each must be refused in one line, or resume on an exact prefix of the
    inputs, saying so when it is shorter than what was logged."""
    rng = random.Random(14)
    live = tmp_path / "live" / "table.db"      # the corruption helpers name the log table.db
    live.parent.mkdir()
    seats, plan = PLANS["grab"]
    logs = [open_log(live, "grab", seats)]
    images: list[tuple[Path, int]] = []        # (files, rows logged in them)

    def step_and_copy(s: Session, event: LogInput) -> tuple[Session, tuple[Any, ...]]:
        out = logs[-1].step(event)
        if logs[-1].count == 6:                  # the rows so far go into the database file
            logs[-1].close()
            logs.append(open_log(live, "grab", seats))
        if logs[-1].count in (10, 18, len(plan) + 1):
            image = tmp_path / f"image-{logs[-1].count}"
            image.mkdir()
            for suffix in ("", "-wal", "-mirror"):
                shutil.copyfile(f"{live}{suffix}", image / f"table.db{suffix}")
            images.append((image, logs[-1].count))
        return out

    play(step_and_copy, logs[0].session, plan)
    logs[-1].close()
    assert len(images) == 3
    written = open_log(live, "grab", seats)
    reference = [row.input for row in written.inputs]
    written.close()
    figures: dict[str, collections.Counter[str]] = {k.__name__: collections.Counter() for k in CORRUPTIONS}
    for corrupt in CORRUPTIONS:
        for trial in range(6):
            index = trial % len(images)
            folder = tmp_path / f"{corrupt.__name__}-{trial}"
            shutil.copytree(images[index][0], folder)
            db = folder / "table.db"
            corrupt(db, rng, images[max(0, index - 1)][0])
            try:
                resumed = open_log(db, "grab", seats)
            except BadTableLog as exc:
                assert "\n" not in str(exc)
                figures[corrupt.__name__]["refused"] += 1
                continue
            got = [row.input for row in resumed.inputs]
            notices = resumed.notices
            resumed.close()
            assert got == reference[:len(got)], f"{corrupt.__name__}: not a prefix of the inputs"
            if len(got) < images[index][1]:
                assert any(f"resumes after step {len(got)}" in n or "a new session was started" in n
                           for n in notices), f"{corrupt.__name__}: {len(got)} of {images[index][1]} without a word"
                figures[corrupt.__name__]["recovered+notice"] += 1
            else:
                figures[corrupt.__name__]["intact"] += 1
    print("\nreferee log corruption campaign: " + "; ".join(f"{k}: {dict(v)}" for k, v in figures.items()))
    assert sum(sum(c.values()) for c in figures.values()) == 6 * len(CORRUPTIONS)
    # Each kind of loss the log is built to see is seen, not just survived.
    assert figures["wal_deleted"]["recovered+notice"] > 0
    assert figures["row_removed"]["intact"] == 0
    assert figures["mirror_deleted"]["intact"] == 6


# --- a race cut off -----------------------------------------------------------------------------

#: Logs grab's plan in a process that SIGKILLs itself once its input number ``argv[2]`` is on
#: disk (``RaceLog.step`` returned): what a pulled plug leaves between two inputs.
KILLER = r"""
import os, signal, sys
sys.path.insert(0, sys.argv[3])
import test_referee_race_log as t

log = t.open_log(t.Path(sys.argv[1]), "grab", 3)

def step(s, event):
    out = log.step(event)
    if log.count == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
    return out

t.play(step, log.session, t.PLANS["grab"][1])
"""


@pytest.mark.parametrize(("killed_after", "phase"), [(10, Phase.ARMED), (14, Phase.RUNNING)])
def test_a_race_cut_off_by_a_kill_is_called_off_and_the_session_goes_on(
        tmp_path: Path, killed_after: int, phase: Phase) -> None:
    db = tmp_path / "referee.db"
    proc = subprocess.run([sys.executable, "-c", KILLER, str(db), str(killed_after), str(HERE)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    pure = play(step, session_of("grab", 3), PLANS["grab"][1])
    cut = pure.sessions[killed_after]
    assert cut.phase is phase and cut.number == 2 and len(cut.records) == 1
    log = open_log(db, "grab", 3)
    assert log.notices == (f"race 2 was {phase.value} when the rig stopped: it was called off without a result "
                           "(its presses stay in the log); start it again",)
    assert log.called_off == 2 and log.count == killed_after + 2          # the CallOff and Restarted rows
    assert [type(row.input) for row in log.inputs] == [type(e) for e in pure.inputs[:killed_after]]
    s = log.session
    assert s == resumed_as(cut)
    assert s.phase is Phase.READY and s.race is None and s.results == cut.results and s.records == cut.records
    assert s.number == 2 and s.now_t_ns == cut.now_t_ns and s.held == ()
    # The session goes on: the next race is number 3, with a fore-period of its own.
    went_on = play(by_log(log), s, (("start",), ("go", 0), ("press", 1, 210), ("press", 2, 250), ("tick", 400)))
    after = went_on.sessions[-1]
    assert after.number == 3 and after.results[-1].winners == (1,) and len(after.records) == 2
    log.close()
    again = open_log(db, "grab", 3)
    assert again.notices == () and again.called_off is None
    assert again.session == resumed_as(after)             # the hands still down are forgotten again
    again.close()


def test_a_button_seen_held_before_a_restart_is_no_false_start_after_it(tmp_path: Path) -> None:
    """Seat 1's button was down when the power went; lifted while the rig was off, its release
    is lost. Kept as held, it would be a false start at the next GO."""
    db = tmp_path / "referee.db"
    log, played = logged(db, "grab", (("start",), ("go", 0), ("press", 0, 200), ("press", 1, 300), ("tick", 400)))
    assert log.session.held != ()
    log.close()
    again = open_log(db, "grab", 3)
    assert again.session.held == ()
    went_on = play(by_log(again), again.session, (("start",), ("go", 0), ("press", 2, 190), ("tick", 400)))
    result = went_on.sessions[-1].results[-1]
    assert result.winners == (2,) and result.false_starts == ()
    again.close()


def test_a_decided_race_stays_decided_and_voidable_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    seats, plan = PLANS["bell-slap"]
    log, played = logged(db, "bell-slap", plan[:4])
    log.close()
    again = open_log(db, "bell-slap", seats)
    s = again.session
    assert again.notices == () and s.phase is Phase.DECIDED and s.result is not None and s.result.winners == (2,)
    s, _ = again.step(Void(2, s.now_t_ns + S))
    assert s.result is not None and s.result.winners == (0,) and len(s.records) == 1
    again.close()


# --- the time line ------------------------------------------------------------------------------

def test_a_clock_that_started_again_is_shifted_past_the_logged_time(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    log, played = logged(db, "duel")
    logged_now = played.sessions[-1].now_t_ns
    log.close()
    log = open_log(db, "duel", 2)
    rebooted = 5 * S                                   # the new process's adapter clock
    shift = log.clock_shift_ns(rebooted)
    assert shift == logged_now - rebooted + S == clock_shift_ns(logged_now, rebooted)
    assert log.clock_shift_ns(logged_now + 1) == 0     # a clock already past it is left alone
    # The shell stamps everything through the shift (ClockShift): the adapter's raw GO and
    # press, 205 ms apart, are 205 ms apart on the session's line too, after its last time.
    s, fx = log.step(Start(rebooted + shift))
    (due,) = [e.t_ns for e in fx if isinstance(e, ScheduleGo)]
    raw_go = due - shift                               # the adapter reaches the due time on its own clock
    for event in (Go(raw_go + shift, CLOCK), Press(0, raw_go + 205 * MS + shift, CLOCK),
                  Tick(raw_go + 400 * MS + shift)):
        s, _ = log.step(event)
    assert s.race is not None and s.race.armed_t_ns > logged_now
    assert s.result is not None and s.result.winners == (0,) and s.result.places[0].reaction_ns == 205 * MS
    log.close()


# --- refusals -----------------------------------------------------------------------------------

def test_a_table_log_is_not_a_referee_log_and_the_other_way_round(tmp_path: Path) -> None:
    table = tmp_path / "table.db"
    table_logged(table, 3).close()
    with pytest.raises(BadTableLog, match=r"^" + str(table) + r" is a table game's log, not a referee session's log: "
                                          r"give another --db path$"):
        open_log(table, "duel", 2)
    referee = tmp_path / "referee.db"
    logged(referee, "duel")[0].close()
    with pytest.raises(BadTableLog, match=r"^" + str(referee) + r" is a referee session's log, not a table game's "
                                          r"log: give another --db path$"):
        TableLog.open(referee, TableSettings(seats=3, clock=CLOCK), 5, T0)
    assert len(rows(table)) == 3 and len(rows(referee)) == len(PLANS["duel"][1])   # neither was touched


def test_garbage_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    db.write_bytes(b"not a database at all" * 300)
    with pytest.raises(BadTableLog, match=r"is not a referee log this rig can read \(file is not a database\): "
                                          "give another --db path or remove the file$"):
        open_log(db, "duel", 2)
    db.unlink()
    with sqlite3.connect(db) as con:              # a database of something else
        con.execute("CREATE TABLE songs(title TEXT)")
    with pytest.raises(BadTableLog, match=r"is not a referee log \(no meta table\): give another --db path$"):
        open_log(db, "duel", 2)


def _rewrite_meta(db: Path, key: str, value: str) -> None:
    """Set one meta value and make the meta's own checksum match (a header written wrong, not
    damaged after): only the header's own checks can catch it."""
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        con.execute("UPDATE meta SET value = ? WHERE key = 'check'", (str(_meta_crc(meta)),))


@pytest.mark.parametrize(("key", "value", "why"), [
    ("seats", "x", r"has damaged settings \(invalid literal for int\(\) with base 10: 'x'\)"),
    ("preset", "[1]", r"has damaged settings \(the preset is a JSON list, not an object\)"),
    ("preset", "{}", r"has damaged settings \(the logged preset has no 'min-players'"),
    ("racers", "[0, 9]", r"has damaged settings \(eligible seat 9 is not a seat at a 2-player table: use 0 to 1\)"),
    ("version", "2", r"was written in referee log version 2, this rig reads version 1: finish that session with "
                     "the matching version or start a new log"),
])
def test_a_damaged_header_is_refused(tmp_path: Path, key: str, value: str, why: str) -> None:
    db = tmp_path / "referee.db"
    logged(db, "duel")[0].close()
    _rewrite_meta(db, key, value)
    with pytest.raises(BadTableLog, match=why) as info:
        open_log(db, "duel", 2)
    assert "\n" not in str(info.value)


def _rewrite_row(db: Path, seq: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite a row's body with a matching CRC (a row written wrong, not torn)."""
    with sqlite3.connect(db) as con:
        (body,) = con.execute("SELECT body FROM steps WHERE seq = ?", (seq,)).fetchone()
        data = json.loads(body)
        change(data)
        new = json.dumps(data, separators=(",", ":"))
        con.execute("UPDATE steps SET body = ?, crc = ? WHERE seq = ?", (new, zlib.crc32(new.encode()), seq))


def test_a_row_of_an_unknown_input_is_torn_at_the_end_and_refused_before(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    log, played = logged(db, "grab")
    n = len(played.inputs)
    log.close()
    _rewrite_row(db, 3, lambda row: row["input"].update(type="Jump"))
    with pytest.raises(BadTableLog, match=rf"step 3 of {db} is damaged \(record type 'Jump' is unknown: use a name "
                                          rf"such as 'Start'\) and {n - 3} steps follow it: the log cannot be "
                                          "resumed safely$"):
        open_log(db, "grab", 3)


def test_a_log_another_version_judged_differently_is_refused(tmp_path: Path) -> None:
    """The last row says it finished a race with other presses than its inputs give (its CRC and
    the mirror's made to match): replaying judges otherwise, and says so."""
    db = tmp_path / "referee.db"
    seats, plan = PLANS["grab"]
    log, played = logged(db, "grab", plan[:5])           # the first race, decided by the last press
    game = log.game
    log.close()
    _rewrite_row(db, 5, lambda row: row["record"]["judge"]["edges"].pop())
    set_mirror(db, Mirrored(game, 5, rows(db)[-1][2]))
    with pytest.raises(BadTableLog, match=rf"^step 5 of {db} \(Press\) recorded a race otherwise than this version "
                                          "judges it: the log was written by another version of the rig; finish "
                                          "the session with that version or start a new log$"):
        open_log(db, "grab", seats)


def test_a_bad_session_is_refused_before_any_file_is_made(tmp_path: Path) -> None:
    from game.errors import BadRace

    with pytest.raises(BadRace, match="3 players cannot play 'duel': it takes 2 to 2"):
        open_log(tmp_path / "referee.db", "duel", 3)
    assert list(tmp_path.iterdir()) == []


def test_a_session_asked_for_otherwise_is_named(tmp_path: Path) -> None:
    log, _ = logged(tmp_path / "referee.db", "duel")
    assert log.clash("duel", 2, CLOCK) == ""
    assert log.clash("grab", 2, "board") == (
        f"preset 'grab' and the board clock cannot go on in {log.path}: it holds a referee session with preset "
        "'duel' and the sim clock; go on with those, or give another --db path")
    log.close()


# --- re-judging ----------------------------------------------------------------------------------

def test_every_finished_race_is_exported_and_judged_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = 0
    for preset_id in sorted(PLANS):
        db = tmp_path / f"{preset_id}.db"
        logged(db, preset_id)[0].close()
        log = open_log(db, preset_id, PLANS[preset_id][0])
        session = log.session
        log.close()
        written = export_races(session.records, tmp_path / preset_id)
        assert [p.name for p in written] == [f"race-{n:03d}.json" for n in range(1, len(session.records) + 1)]
        preset = PRESETS.get(preset_id)
        for path, result in zip(written, session.results):
            capsys.readouterr()
            assert main(["judge", str(path)]) == 0
            verdict = json.loads(capsys.readouterr().out)
            # The judge finds the same evidence: the valid presses in order, the false starts.
            assert [(p["player"], p["t_ns"]) for p in verdict["ranking"]] == [
                (p.seat, p.t_ns) for p in sorted(result.places, key=lambda p: (p.t_ns, p.seat))]
            assert [(f["player"], f["t_ns"]) for f in verdict["false_starts"]] == [
                (e.seat, e.t_ns) for e in result.false_starts]
            # Where the judge decides too, it names the referee's winner (first wins) or its
            # loser as the slowest, or the one without a press (last loses). (A race the referee decided at its last
            # racer's press reads pending to the judge, whose settle window is still open.)
            if verdict["status"] == Status.DECIDED.value:
                verdicts += 1
                if preset.outcome is Outcome.FIRST_WINS:
                    assert verdict["winner"] == (result.winners[0] if result.winners else None)
                else:
                    slowest = verdict["no_press"] or [verdict["ranking"][-1]["player"]]
                    assert slowest == list(result.losers)
            # The whole record re-judges to the referee's own result.
            whole = json.loads(path.with_name(path.stem + ".referee.json").read_text(encoding="utf-8"))
            assert result_to_json(rejudge(whole)) == result_to_json(result)
    assert verdicts >= 5


def test_an_export_folder_that_holds_races_is_refused(tmp_path: Path) -> None:
    log, played = logged(tmp_path / "referee.db", "grab")
    records = played.sessions[-1].records
    log.close()
    export_races(records, tmp_path / "out")
    with pytest.raises(BadConfig, match=r"export folder '.*out' already holds race-001.json: give a new or empty "
                                        "folder, so that the races of two sessions do not mix$"):
        export_races(records, tmp_path / "out")
    (tmp_path / "file").write_text("")
    with pytest.raises(BadConfig, match=r"export folder '.*file' cannot be written \(File exists\): give a folder "
                                        "you can write to$"):
        export_races(records, tmp_path / "file")


def test_the_log_files_are_the_table_logs(tmp_path: Path) -> None:
    """One shape for both kinds: the same files beside the log, moved together."""
    db = tmp_path / "referee.db"
    log, _ = logged(db, "duel")
    assert {p.name for p in tmp_path.iterdir()} <= {f"referee.db{s}" for s in LOG_SUFFIXES}
    log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["referee.db", "referee.db-mirror"]
