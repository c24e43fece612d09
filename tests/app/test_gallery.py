"""The screenshot gallery (docs/screens/): the script runs, writes real PNGs of what the app
draws and an index that links them, and covers every key screen the headless demo shoots."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from display_helpers import fonts, scenes

from game.app.ui import gallery
from game.app.ui.demo import KEY_SCREENS
from game.app.ui.render import draw


def test_the_script_draws_one_screen_and_indexes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gallery.main([str(tmp_path), "--screens", "photo", "--langs", "en", "--sizes", "800x480"]) == 0
    png = tmp_path / "photo-en-800x480.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pygame.image.load(str(png)).get_size() == (800, 480)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "photo-en-800x480.png"]
    index = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert '[<img src="photo-en-800x480.png" width="200"' in index
    assert "](photo-en-800x480.png)" in index
    assert "## Photo finish" in index and "| English |" in index
    assert "1 screenshots" in capsys.readouterr().out


def test_the_png_is_the_frame_the_app_draws(tmp_path: Path) -> None:
    shot, = gallery.shots(scenes(), ["verdict"])
    gallery.write(tmp_path, [shot], [("fr", (720, 1280))])
    app = pygame.Surface((720, 1280))
    draw(app, fonts("fr"), scenes()["verdict"], "fr")
    saved = pygame.image.load(str(tmp_path / "verdict-fr-720x1280.png"))
    assert pygame.image.tobytes(saved, "RGB") == pygame.image.tobytes(app, "RGB")


def test_every_key_screen_of_the_demo_is_in_the_gallery() -> None:
    assert {name for name in KEY_SCREENS if name != "attract"} <= set(gallery.NAMES)
    assert {"attract-title", "attract-demo", "attract-board", "pin", "staff-menu"} <= set(gallery.NAMES)
    made = gallery.shots(scenes())
    assert [s.name for s in made] == list(gallery.NAMES)  # the collected games show every one


def test_the_index_keeps_files_of_earlier_runs(tmp_path: Path) -> None:
    join, = gallery.shots(scenes(), ["join"])
    board, = gallery.shots(scenes(), ["attract-board"])
    gallery.write(tmp_path, [join], [("en", (800, 480))])
    (tmp_path / "photo-finish-en-1280x720.png").write_bytes(b"")   # not a gallery file: left out
    gallery.write(tmp_path, [board], [("ko", (1920, 1080))])
    index = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "](join-en-800x480.png)" in index and "](attract-board-ko-1920x1080.png)" in index
    assert "photo-finish" not in index


@pytest.mark.parametrize("argv", [["--langs", "xx"], ["--sizes", "800"], ["--screens", "nope"]])
def test_bad_choices_are_refused(tmp_path: Path, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        gallery.main([str(tmp_path), *argv])
    assert exc.value.code == 2
    assert not any(tmp_path.iterdir())
