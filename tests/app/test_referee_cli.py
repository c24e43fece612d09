"""``cheating-moth referee quiz`` (issue 14): the simulated quiz runs headless from the command
line, replays from its seed, writes its screenshots; bad options are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.app.cli import main


def _quiz(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    assert main(["referee", "quiz", "--input", "sim", "--seed", "3", "--json",
                 "--screenshots", str(tmp_path), *extra]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_the_simulated_quiz_writes_its_screenshots_and_replays_from_its_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _quiz(tmp_path / "a", capsys)
    again = _quiz(tmp_path / "b", capsys)
    assert first["log"] == again["log"] and first["scores"] == again["scores"]
    assert first["seed"] == 3 and first["questions"] == 6
    assert sum(first["scores"].values()) > 0  # type: ignore[union-attr]
    shots = [Path(p) for p in first["screenshots"]]  # type: ignore[union-attr]
    assert {p.stem for p in shots} >= {"quiz-start", "quiz-armed", "quiz-early", "quiz-scores"}
    for path in shots:
        assert pygame.image.load(str(path)).get_size() == (800, 480)


def test_teams_and_every_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _quiz(tmp_path, capsys, "--players", "6", "--teams", "red,blue,red,blue,red,blue",
                "--first-per-team", "--wrong", "-5", "--lang", "all", "--size", "720x1280")
    assert set(out["teams"]) == {"red", "blue"}  # type: ignore[arg-type]
    assert sum(out["teams"].values()) == sum(out["scores"].values())  # type: ignore[union-attr]
    stems = {Path(p).stem for p in out["screenshots"]}  # type: ignore[union-attr]
    assert {"quiz-scores-en", "quiz-scores-ko"} <= stems


def test_the_transcript_names_the_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "--input", "sim", "--seed", "3", "--screenshots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Quiz — simulated players, seed 3")
    assert "question 1: " in out and "rang in first" in out and "Scores: Ali " in out


@pytest.mark.parametrize("argv, says", [
    (["--players", "9"], "players '9' is not valid: referee mode takes 2 to 8"),
    (["--teams", "a,b"], "--teams 'a,b' names 2 seats: give one team name per seat, 4 in all"),
    (["--first-per-team"], "mode 'first-per-team' needs teams"),
    (["--right", "0"], "--right 0 is not valid: use a whole number, 1 or more"),
    (["--wrong", "5"], "--wrong 5 is not valid: a penalty is a whole number, 0 or below"),
    (["--answer-time", "1.5"], "'1.5' is not valid: use whole seconds, 0 (no limit) to 600"),
    (["--input", "keyboard", "--headless"], "--input keyboard needs a display"),
])
def test_bad_options_are_one_line(argv: list[str], says: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["referee", "quiz", "--input", "sim", "--screenshots", str(tmp_path), *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err and "Traceback" not in err


def test_presets_are_listed_and_one_not_playable_here_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert {line.split(":")[0] for line in listed} >= {"bell-slap", "grab", "last-hand-down", "duel"}
    for game, says in (("grab", "cannot be played from the command line yet"),
                       ("nope", "is not a referee game: use quiz, or one of the race presets")):
        with pytest.raises(SystemExit) as exit_:
            main(["referee", game, "--input", "sim"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err.strip()
        assert says in err and "\n" not in err
