"""``cheating-moth table``: whole games from simulated presses; the SQLite log survives crashes."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from sizes import size

from game.app.cli import main
from game.sim import simulate_game

REPO = Path(__file__).resolve().parents[2]


def table_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["table", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def totals(summary: dict[str, Any]) -> dict[int, int]:
    return {s["player"]: s["total"] for s in summary["standings"]}


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (5, 11)])
def test_presses_alone_reach_the_bot_games_standings(players: int, seed: int,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    summary = table_json(capsys, "--players", str(players), "--seed", str(seed))
    assert summary["stage"] == "game-over" and summary["rounds"] == players
    report = simulate_game(players, seed)
    assert totals(summary) == dict(enumerate(report.totals))


def test_text_output_tells_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Cheating Moth table, 3 simulated players, seed 2")
    assert "Mosquito! Everyone but" in out and "Final standings" in out


# --- the log -------------------------------------------------------------------------------

def steps(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT body, crc FROM steps ORDER BY seq").fetchall()


def event_log(db: Path) -> list[Any]:
    return [json.loads(body)["events"] for body, _ in steps(db)]


def test_a_logged_game_resumes_and_a_finished_one_says_so(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    first = table_json(capsys, "--players", "4", "--seed", "5", "--db", str(db))
    assert main(["table", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "is already over" in out and f"({first['steps']} logged steps)" in out


def _cut(db: Path, keep: int) -> None:
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM steps WHERE seq > (SELECT MIN(seq) FROM steps) + ?", (keep - 1,))


def test_a_cut_log_resumes_to_the_same_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full, cut = tmp_path / "full.db", tmp_path / "cut.db"
    whole = table_json(capsys, "--players", "5", "--seed", "6", "--db", str(full))
    table_json(capsys, "--players", "5", "--seed", "6", "--db", str(cut))
    _cut(cut, 333)
    again = table_json(capsys, "--db", str(cut))
    assert again["standings"] == whole["standings"]
    assert event_log(cut) == event_log(full)


def test_a_torn_last_record_is_reported_and_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full, torn = tmp_path / "full.db", tmp_path / "torn.db"
    table_json(capsys, "--players", "3", "--seed", "7", "--db", str(full))
    table_json(capsys, "--players", "3", "--seed", "7", "--db", str(torn))
    _cut(torn, 120)
    with sqlite3.connect(torn) as con:  # the last write was cut off half-way
        seq, body = con.execute("SELECT seq, body FROM steps ORDER BY seq DESC LIMIT 1").fetchone()
        con.execute("UPDATE steps SET body = ? WHERE seq = ?", (body[: len(body) // 2], seq))
    assert main(["table", "--db", str(torn), "--json"]) == 0
    err = capsys.readouterr().err   # on stderr, with --json too
    assert "note: the last record of" in err and "(step 120) was torn (checksum mismatch)" in err
    assert "the game resumes after step 119" in err
    assert event_log(torn) == event_log(full)


def test_a_damaged_record_before_the_last_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    table_json(capsys, "--players", "3", "--seed", "7", "--db", str(db))
    _cut(db, 50)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE steps SET crc = crc + 1 WHERE seq = (SELECT MIN(seq) FROM steps) + 9")
    with pytest.raises(SystemExit) as exit_info:
        main(["table", "--db", str(db)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "step 10 of" in err and "is damaged (checksum mismatch) and 40 steps follow it" in err


def test_a_log_of_another_version_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    table_json(capsys, "--players", "3", "--seed", "7", "--db", str(db))
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
    with pytest.raises(SystemExit):
        main(["table", "--db", str(db)])
    assert "was written in table log version 99, this rig reads version 2" in capsys.readouterr().err


def test_a_log_whose_events_this_version_would_not_produce_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    table_json(capsys, "--players", "3", "--seed", "7", "--db", str(db))
    _cut(db, 60)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT seq, body FROM steps ORDER BY seq").fetchall()
        seq, body = next((s, b) for s, b in rows if json.loads(b)["events"])
        data = json.loads(body)
        data["events"] = data["events"][:-1]  # as if an older rig produced one event fewer
        prev = data["prev"]
        for later, old in rows[[s for s, _ in rows].index(seq):]:   # a whole new chain from there
            data = data if later == seq else json.loads(old)
            data["prev"] = prev
            new = json.dumps(data, separators=(",", ":"))
            prev = zlib.crc32(new.encode())
            con.execute("UPDATE steps SET body = ?, crc = ? WHERE seq = ?", (new, prev, later))
    Path(f"{db}-mirror").unlink()   # it would not match the new chain
    with pytest.raises(SystemExit):
        main(["table", "--db", str(db)])
    err = capsys.readouterr().err
    assert "the mirror of" in err and "is missing, so steps lost at the end cannot be ruled out" in err
    assert "the log was written by another version of the rig" in err


def test_something_that_is_not_a_log_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "notes.db"
    db.write_text("shopping list\n" * 100)
    with pytest.raises(SystemExit) as exit_info:
        main(["table", "--db", str(db)])
    assert exit_info.value.code == 2
    assert "is not a table log this rig can read" in capsys.readouterr().err


# --- pulled plugs --------------------------------------------------------------------------

def _run_until_killed(db: Path, players: int, seed: int, kill_after_lines: int | None) -> bool:
    """Run the table in a subprocess; SIGKILL it after that many output lines. True if killed."""
    cmd = [sys.executable, "-m", "game.app.cli", "table", "--players", str(players),
           "--seed", str(seed), "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    lines = 0
    for _ in proc.stdout:
        lines += 1
        if kill_after_lines is not None and lines >= kill_after_lines:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
    assert proc.wait() == 0, proc.stderr.read() if proc.stderr else ""
    return False


@pytest.mark.soak
def test_killed_games_resume_to_the_same_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SIGKILL a logged game at random moments (50+ times over 10 seeds); each resumed game
    ends with the standings and the event log of the same game played without a crash."""
    rng = random.Random(2026)
    kills = 0
    for seed in range(size(3, 10)):   # 10 games in the soak (tests/sizes.py)
        players = 3 + seed % 3
        clean = tmp_path / f"clean-{seed}.db"
        whole = table_json(capsys, "--players", str(players), "--seed", str(seed), "--db", str(clean))
        crashed = tmp_path / f"crashed-{seed}.db"
        for attempt in range(20):
            kill_at = rng.randint(1, 60) if attempt < 7 else None
            if not _run_until_killed(crashed, players, seed, kill_at):
                break
            kills += 1
        resumed = table_json(capsys, "--db", str(crashed))
        assert resumed["standings"] == whole["standings"], f"seed {seed}"
        assert event_log(crashed) == event_log(clean), f"seed {seed}"
    assert kills >= size(15, 50)


def test_a_seed_or_players_other_than_the_logged_game_are_refused(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "game.db"
    table_json(capsys, "--players", "4", "--seed", "5", "--db", str(db))
    with pytest.raises(SystemExit) as exit_info:
        main(["table", "--db", str(db), "--seed", "6"])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"cheating-moth: --seed 6 cannot apply: {db} holds a game with seed 5, which "
                                 "--db resumes; drop it, or give another --db path for a new game\n")
    # The logged game's own values are no clash.
    assert main(["table", "--db", str(db), "--seed", "5", "--players", "4"]) == 0
    assert "is already over" in capsys.readouterr().out
