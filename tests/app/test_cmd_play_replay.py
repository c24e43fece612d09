"""The main job tells a game and writes its log; ``replay`` re-applies the log to the same result."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.app.cli import main


def test_the_main_job_tells_a_game_and_ends_with_standings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seed", "5", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Cheating Moth — simulated table, 3 players, seed 5")
    assert "Round 1: " in out and "Round 3 is over" in out
    assert "Final standings after 3 rounds" in out
    assert "Game over:" in out


def test_no_arguments_at_all_runs_the_main_job() -> None:
    out = subprocess.run([sys.executable, "-m", "game.app.cli"], capture_output=True, text=True,
                         check=True).stdout
    assert "simulated table, 4 players, seed" in out and "Final standings" in out


def test_play_then_replay_gives_the_same_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "21", "--players", "5", "--log", str(log)]) == 0
    told = capsys.readouterr().out
    assert main(["replay", str(log)]) == 0
    replayed = capsys.readouterr().out
    assert replayed.startswith("Replayed ") and "phase game-over, round 5" in replayed
    assert figures(replayed) == figures(told)


def figures(out: str) -> list[tuple[str, ...]]:
    """The standings' place, points, moths and each round's points, best first (the demo's
    table names each player; replay's log holds no names, so it says "player N"). Columns are
    two spaces apart; a name may hold one."""
    lines = out[out.index("place  player"):].splitlines()
    rows = [(cells[0], *cells[3:]) for cells in (re.split(r" {2,}", line.strip()) for line in lines[1:])
            if cells and cells[0].isdigit()]
    assert len(rows) == 5
    return rows


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    main(["play", "--seed", "8", "--log", str(log)])
    capsys.readouterr()
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is True and out["round"] == 4
    assert [s["place"] for s in out["standings"]] == sorted(s["place"] for s in out["standings"])
    assert out["winners"] == [s["player"] for s in out["standings"] if s["place"] == 1]


def test_replay_reads_stdin(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    main(["play", "--seed", "8", "--log", str(log)])
    out = subprocess.run([sys.executable, "-m", "game.app.cli", "replay", "-", "--json"],
                         input=log.read_text(), capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["complete"] is True


def test_a_bad_line_stops_the_replay_and_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    main(["play", "--seed", "8", "--log", str(log)])
    capsys.readouterr()
    lines = log.read_text().splitlines()
    lines[9] = '{"type": "PlayCard", "player": 0, "card": "wasp 2"}'
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(log)])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "line 10: unknown card kind 'wasp'" in captured.err
    assert "replay stopped" in captured.err


@pytest.mark.parametrize("content", [b"\xff\xfe garbage", None])
def test_unreadable_logs_exit_2(tmp_path: Path, content: bytes | None,
                                capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "missing.jsonl"
    if content is not None:
        log.write_bytes(content)
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(log)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert ("cannot read log" in err) if content is None else ("is not UTF-8 text" in err)


@pytest.mark.parametrize("content", ["", "\n\n  \n"], ids=["empty", "blank-lines"])
def test_a_log_with_no_commands_is_refused(tmp_path: Path, content: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(log)])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"{log} holds no commands: a game log is JSON lines" in err and "play --log FILE" in err


def test_a_log_cut_inside_a_line_is_refused_at_that_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    main(["play", "--seed", "8", "--log", str(log)])
    capsys.readouterr()
    text = log.read_text()
    log.write_text(text[:text.index("\n", 400) - 5])  # the writer stopped in the middle of a record
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(log)])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "replay stopped" in err
