"""The main command with no display and no buttons: the simulated demo runs headless to the
end, prints the game and the standings, and writes screenshots of every key screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.app.cli import main
from game.app.cmd_play import display_available
from game.app.ui.demo import KEY_SCREENS


def test_no_display_under_the_dummy_driver() -> None:
    assert not display_available()


def test_the_headless_demo_runs_to_the_end_and_writes_its_screenshots(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shots = tmp_path / "shots"
    assert main(["--players", "4", "--seed", "11", "--screenshots", str(shots)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Cheating Moth — simulated table, 4 players, seed 11\n")
    assert "No display and no buttons" in out
    assert "Game over:" in out and "Final standings after 4 rounds" in out
    assert f"written to {shots}" in out
    names = sorted(p.name for p in shots.glob("*.png"))
    assert names == [f"{KEY_SCREENS.index(n):02d}-{n}-en.png" for n in KEY_SCREENS]
    assert all(p.stat().st_size > 5_000 for p in shots.glob("*.png"))


def test_the_demo_in_every_language_and_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--seed", "2", "--lang", "all", "--size", "720x1280",
                 "--screenshots", str(tmp_path), "--headless"]) == 0
    out = capsys.readouterr().out
    assert "in en, de, fr, es, ko" in out and "720×1280" in out
    for lang in ("en", "de", "fr", "es", "ko"):
        assert len(list(tmp_path.glob(f"*-{lang}.png"))) == len(KEY_SCREENS)


def test_the_demo_speaks_the_chosen_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "3", "--seed", "4", "--lang", "de", "--screenshots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Spielende:" in out and "Runde 1:" in out


@pytest.mark.parametrize("bad, message", [
    (["--size", "800by480"], "is not a size: write WIDTHxHEIGHT"),
    (["--lang", "xx"], "language 'xx' is not available: use one of en, de, fr, es, ko or all"),
    (["--input", "wifi"], "invalid choice: 'wifi'"),
])
def test_bad_arguments_are_one_line(bad: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", *bad])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
