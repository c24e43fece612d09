"""Issue 20.4: a game played on the screen is logged by default in the user's data folder, and
the next start offers to carry it on; nothing in that folder ever stops a game from starting."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pygame
from display_helpers import fonts
from glass_table import CLOCK, MS, GlassTable, Rig

from game.app.home import data_dir, open_home, start_over
from game.app.ui.adapters import Detected
from game.app.ui.loop import App
from game.app.ui.sound import Sounds
from game.app.ui.state import UiState
from game.controller import Stage, TableSettings
from game.inputs import Press, Release

NOW = datetime(2026, 12, 3, 20, 15, 0)
SETTINGS = TableSettings(seats=5, clock=CLOCK, resolution_ns=Rig.resolution_ns)


def test_the_data_folder_follows_xdg_and_falls_back_to_home() -> None:
    assert data_dir({"XDG_DATA_HOME": "/srv/data", "HOME": "/home/bea"}) == Path("/srv/data/cheating-moth")
    assert data_dir({"HOME": "/home/bea"}) == Path("/home/bea/.local/share/cheating-moth")
    # A relative XDG_DATA_HOME is invalid by the spec and ignored.
    assert data_dir({"XDG_DATA_HOME": "rel", "HOME": "/home/bea"}) == Path("/home/bea/.local/share/cheating-moth")


def _app_on(folder: Path, rig: Rig) -> App:
    home = open_home(folder, SETTINGS, 7, rig.now_ns(), NOW)
    pygame.init()
    return App(detected=Detected(rig, "gpio"), settings=SETTINGS, seed=7, ui=UiState(), fonts=fonts("en"),
               surface=pygame.Surface((800, 480)), sounds=Sounds(), log=home.log, attract_after_ns=None,
               start_over=lambda: start_over(home, SETTINGS, 7, rig.now_ns(), NOW).log)


def _seat_three(app: App, rig: Rig) -> None:
    for seat in (0, 1, 2):
        rig.t_ns += 400 * MS
        rig.events += [Press(seat, rig.t_ns, CLOCK), Release(seat, rig.t_ns + 100 * MS, CLOCK)]
        rig.t_ns += 200 * MS
        app.poll()


def test_a_game_left_mid_way_is_offered_at_the_next_start_and_carries_on(tmp_path: Path) -> None:
    rig = Rig()
    first = _app_on(tmp_path, rig)
    _seat_three(first, rig)
    assert first.table.seated == (0, 1, 2) and first.log is not None
    first.log.close()                                 # the window closed (or the plug was pulled)

    again = _app_on(tmp_path, Rig())
    assert again.draw().screen == "resume" and again.table.seated == (0, 1, 2)
    texts = " ".join(t for t, _ in again.draw().texts)
    assert "Ali, Bea, Cem" in texts
    again.answer_resume(True)
    assert again.draw().screen == "join" and again.table.seated == (0, 1, 2)


def test_new_game_on_the_offer_keeps_the_old_one_in_games(tmp_path: Path) -> None:
    rig = Rig()
    first = _app_on(tmp_path, rig)
    _seat_three(first, rig)
    assert first.log is not None
    first.log.close()
    again = _app_on(tmp_path, Rig())
    again.answer_resume(False)
    assert again.table.seated == () and again.table.stage is Stage.JOIN
    assert again.log is not None and not again.log.steps
    kept = list((tmp_path / "games").glob("game-*.db"))
    assert len(kept) == 1


def test_a_log_played_on_other_buttons_is_kept_and_a_new_game_starts(tmp_path: Path) -> None:
    rig = Rig()
    first = _app_on(tmp_path, rig)
    _seat_three(first, rig)
    assert first.log is not None
    first.log.close()
    board = TableSettings(seats=5, clock="board", resolution_ns=16)
    home = open_home(tmp_path, board, 7, 0, NOW)
    assert home.log is not None and not home.log.steps
    assert any("played on other buttons" in n for n in home.notes)
    assert len(list((tmp_path / "games").glob("game-*.db"))) == 1


def test_a_damaged_log_is_set_aside_and_a_new_game_starts(tmp_path: Path) -> None:
    (tmp_path / "table.db").write_bytes(b"this is not SQLite at all" * 100)
    home = open_home(tmp_path, SETTINGS, 7, 0, NOW)
    assert home.log is not None and not home.log.steps
    assert any("could not be resumed" in n for n in home.notes), home.notes
    assert len(list((tmp_path / "aside").glob("table-*.db"))) == 1


def test_a_folder_that_cannot_be_made_means_no_saving_not_no_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    home = open_home(blocker / "cheating-moth", SETTINGS, 7, 0, NOW)
    assert home.log is None and home.notes and "not saved" in home.notes[0]


def test_the_offer_and_the_quit_question_own_their_keys() -> None:
    # On the offer, N is "New game" (not a number card), Enter is "Carry on".
    g = GlassTable()
    g.app.ui.resume_ask = True
    g.wait(500)
    assert g.screen == "resume"
    g.app.start_over = lambda: None
    g.key(pygame.K_RETURN)
    assert g.screen == "join" and not g.app.ui.resume_ask and g.fed == []
