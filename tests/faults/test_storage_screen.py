"""Issue 21, Build 1: while the log cannot be written the screen says so for as long as it
lasts -- under each step's own notices, which still show first, through screen changes -- in
every language; then that it is written again (or how many steps were lost)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from kiosk_play import start
from storage_faults import Disk, injected

from game.app.cmd_kiosk import _script_for
from game.app.ui.state import NOTICE_NS
from game.i18n import LANGUAGES
from game.i18n.lookup import text


def keys(app: object) -> list[str]:
    return [m.key for m, _ in app.ui.notices]   # type: ignore[attr-defined]


def test_the_screen_says_the_log_cannot_be_written_for_as_long_as_it_lasts(tmp_path: Path) -> None:
    disk = Disk(tmp_path)
    with injected(disk):
        kiosk, app, clock = start(tmp_path / "data")
        script, event = _script_for(app)

        def play(steps: int) -> None:
            nonlocal event
            for _ in range(steps):
                assert event is not None
                clock.t_ns = max(clock.t_ns, event.t_ns)
                made = app.feed(event)
                event = script.send(made)

        play(5)
        assert "ui_log_trouble" not in keys(app)
        disk.arm(len(disk.ops), errno.ENOSPC)
        screens = set()
        for _ in range(40):                     # through screen changes and the steps' own notices
            play(1)
            assert "ui_log_trouble" in keys(app), keys(app)
            screens.add(app.draw().screen)
            now = app.adapter.now_ns()
            shown = app.ui.notice(now)
            assert shown is not None
            # A step's own notice first; ours once the step's have gone by.
            later = app.ui.notice(now + NOTICE_NS + 1)
            assert later is not None and later.key == "ui_log_trouble"
        assert len(screens) > 1
        for lang in LANGUAGES:                  # it lays out in every language
            app.ui.lang = lang
            app.draw()
        app.ui.lang = "en"
        disk.clear()
        play(1)
        assert "ui_log_trouble" not in keys(app) and "ui_log_back" in keys(app)
        assert app.log is not None and app.log.in_memory == 0
        app.log.close()
        kiosk.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_storage_notices_are_in_every_language(lang: str) -> None:
    trouble = text(lang, "ui_log_trouble")
    assert "SD" in trouble and trouble != text("en", "ui_log_trouble") or lang == "en"
    assert text(lang, "ui_log_back") and "3" in text(lang, "ui_log_lost", count=3)


def test_a_game_over_whose_last_steps_wait_in_memory_is_written_and_filed_when_the_card_is_back(
        tmp_path: Path) -> None:
    from game.controller import Stage

    data = tmp_path / "data"
    disk = Disk(tmp_path)
    with injected(disk):
        kiosk, app, clock = start(data)
        script, event = _script_for(app)
        while app.table.stage is not Stage.GAME_OVER:
            assert event is not None
            clock.t_ns = max(clock.t_ns, event.t_ns)
            made = app.feed(event)
            if app.table.stage is not Stage.GAME_OVER:
                event = script.send(made)
                if app.log is not None and app.log.count >= 210 and disk.fail_from is None:
                    disk.arm(len(disk.ops), errno.ENOSPC)     # the card fills up for the game's last steps
        assert app.log is None and kiosk.finishing is not None and kiosk.finishing.in_memory > 0
        total = kiosk.finishing.count
        assert not list((data / "games").glob("game-*.db"))
        assert "ui_log_trouble" in keys(app)
        clock.t_ns += 6 * 10**9
        app.retry_storage(clock.t_ns)           # still full: nothing changes, nothing raised
        assert kiosk.finishing is not None
        disk.clear()
        clock.t_ns += 6 * 10**9
        app.retry_storage(clock.t_ns)           # nobody plays: the loop tries again by itself
        assert kiosk.finishing is None and "ui_log_back" in keys(app)
        [filed] = list((data / "games").glob("game-*.db"))
        kiosk.close()
    import sqlite3

    db = sqlite3.connect(filed)
    try:
        assert db.execute("SELECT count(*) FROM steps").fetchone()[0] == total
    finally:
        db.close()
