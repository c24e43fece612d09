"""Attract mode in a café shows the leaderboard: today, this week and all time in turn, every
few seconds, from games recorded at chosen times; an empty board says so; at home (no kiosk)
there is no leaderboard."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from test_display_app import FakeRig
from test_display_staff import make_app

from game.app.kiosk import Kiosk
from game.app.leaderboard import FinishedGame
from game.app.rigconfig import RigConfig
from game.app.ui.loop import BOARD_NS, FIRST_BOARD_NS, App

S = 1_000_000_000
CAFE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 25, 20, 0, tzinfo=CAFE)       # a Wednesday evening


def at(when: datetime) -> int:
    return int(when.timestamp()) * S


def record(kiosk: Kiosk, when: datetime, names: tuple[str, ...], totals: tuple[int, ...]) -> None:
    best = min(totals)
    kiosk.leaderboard.record(FinishedGame(at(when), 1, names, totals,
                                          tuple(p for p, t in enumerate(totals) if t == best), key=f"{when}"))


def attracting(app: App) -> FakeRig:
    rig = app.adapter
    assert isinstance(rig, FakeRig)
    rig.t_ns += 5 * S
    app.attract(rig.t_ns)
    assert app.demo is not None
    if app.kiosk is not None:             # on to the board slide: attract mode opens on its title
        rig.t_ns += FIRST_BOARD_NS
        app.attract(rig.t_ns)
    return rig


def texts(app: App) -> list[str]:
    frame = app.draw()
    assert frame.screen == "attract" and frame.overflows == ()
    return [t for t, _ in frame.texts]


def test_the_board_rotates_today_this_week_all_time(tmp_path: Path) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(), wall_clock=lambda: NOW)
    record(kiosk, NOW - timedelta(hours=2), ("Ali", "Bea", "Cem"), (4, 9, 12))          # today: Ali wins
    record(kiosk, NOW - timedelta(days=2), ("Dora", "Bea", "Cem"), (20, 2, 7))          # Monday: Bea wins
    record(kiosk, NOW - timedelta(days=40), ("Eun-ji", "Flo", "Gus"), (1, 30, 30))      # last month
    app = make_app(kiosk, attract_after_ns=5 * S)
    rig = attracting(app)

    today = texts(app)
    assert "Best today" in today and "Ali" in today and "Dora" not in today
    i = len(today) - 1 - today[::-1].index("Ali")          # the board is drawn over the demo
    assert today[i - 1:i + 5] == ["1", "Ali", "1", "1", "4", "4.0"]       # rank, name, games, wins, best, average
    assert "Eun-ji" not in today

    rig.t_ns += BOARD_NS
    app.attract(rig.t_ns)
    week = texts(app)
    assert "Best this week" in week and "Dora" in week and "Eun-ji" not in week
    i = len(week) - 1 - week[::-1].index("Bea")
    assert week[i - 1:i + 5] == ["2", "Bea", "2", "1", "2", "5.5"]   # Ali (4.0) leads on average

    rig.t_ns += BOARD_NS
    app.attract(rig.t_ns)
    ever = texts(app)
    assert "Best of all time" in ever and "Eun-ji" in ever and ever[len(ever) - 1 - ever[::-1].index("Eun-ji") - 1] == "1"

    rig.t_ns += BOARD_NS
    app.attract(rig.t_ns)
    assert "Best today" in texts(app)


def test_an_empty_board_says_so_and_new_games_show_next_time(tmp_path: Path) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(lang="de"), wall_clock=lambda: NOW)
    app = make_app(kiosk, attract_after_ns=5 * S)
    rig = attracting(app)
    said = texts(app)
    assert "No game finished today yet: be the first!" in said
    app.ui.lang = "ko"
    assert "오늘 끝난 게임이 아직 없습니다. 첫 번째가 되세요!" in texts(app)
    app.ui.lang = "en"
    record(kiosk, NOW - timedelta(minutes=5), ("Ali", "Bea", "Cem"), (3, 5, 8))
    assert "Ali" not in texts(app)                    # read when attract mode starts, not every frame
    app.wake_up()
    rig.t_ns += 5 * S
    app.attract(rig.t_ns)
    rig.t_ns += FIRST_BOARD_NS
    app.attract(rig.t_ns)
    assert "Ali" in texts(app) and "Best today" in texts(app)


def test_a_long_name_is_cut_not_overflowing(tmp_path: Path) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(), wall_clock=lambda: NOW)
    record(kiosk, NOW, ("Maximiliane-Friederike von Hohenzollern", "Bea", "Cem"), (1, 2, 3))
    app = make_app(kiosk, attract_after_ns=5 * S)
    attracting(app)
    assert any(t.startswith("Maximiliane") and t.endswith("…") for t in texts(app))


def test_without_a_kiosk_there_is_no_leaderboard() -> None:
    app = make_app(None, attract_after_ns=5 * S)
    attracting(app)
    said = texts(app)
    assert app.board_at(app.adapter.now_ns()) is None
    assert "Press any button to play" in said and not any(t.startswith("Best") for t in said)
