"""Names and the fastest slaps on the leaderboard: a finished game keeps its typed names and
each player's best reaction; the board names the fastest slap of the day, week and all time;
a leaderboard file from before reaction times were kept is migrated and keeps working."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pygame
from display_helpers import boards, fonts, scenes
from test_display_leaderboard import CAFE, NOW, S, at, attracting, texts
from test_display_staff import make_app
from test_layout import LAYOUT_SIZES

from game.app.kiosk import Kiosk
from game.app.leaderboard import Fastest, FinishedGame, Leaderboard, Period, fastest
from game.app.rigconfig import RigConfig
from game.app.tablelog import TableLog
from game.app.ui.loop import BOARD_NS
from game.app.ui.render import draw
from game.app.ui.screens_attract import SLIDE_NS
from game.app.ui.screens_staff import tenths_ms
from game.controller import TableSettings
from game.controller.reactions import stats

MS = 1_000_000
OLD_SCHEMA = ("CREATE TABLE games(id INTEGER PRIMARY KEY AUTOINCREMENT, finished_unix_ns INTEGER NOT NULL, "
              "seed INTEGER NOT NULL, names TEXT NOT NULL, totals TEXT NOT NULL, winners TEXT NOT NULL, key TEXT)")


def game(when: datetime, names: tuple[str, ...], best: tuple[int | None, ...], key: str) -> FinishedGame:
    return FinishedGame(at(when), 1, names, (5,) * len(names), (0,), key=key, best_ns=best)


def test_a_leaderboard_from_before_reaction_times_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.db"
    db = sqlite3.connect(path)
    db.execute(OLD_SCHEMA)
    db.execute("INSERT INTO games(finished_unix_ns, seed, names, totals, winners, key) VALUES (?, 1, ?, ?, ?, 'old')",
               (at(NOW - timedelta(hours=1)), json.dumps(["Ali", "Bea", "Cem"]), "[3, 7, 9]", "[0]"))
    db.commit()
    db.close()
    board = Leaderboard(path)
    old = board.games()
    assert [g.names for g in old] == [("Ali", "Bea", "Cem")] and old[0].best_ns == () and board.skipped == 0
    assert board.fastest(Period.TODAY, NOW) == []                   # no times: no fastest
    board.record(game(NOW, ("Ali", "Zoë"), (201 * MS, 187 * MS), "new"))
    board.close()
    again = Leaderboard(path)                                       # opened twice: migrated once
    assert [g.best_ns for g in again.games()] == [(), (201 * MS, 187 * MS)]
    assert again.fastest(Period.TODAY, NOW) == [Fastest("Zoë", 187 * MS, 1), Fastest("Ali", 201 * MS, 1)]
    assert [r.name for r in again.board(Period.TODAY, NOW)][:1] == ["Ali"]    # the old game counts
    assert again.integrity() == "ok"
    again.close()


def test_a_row_with_damaged_times_is_left_out_and_counted(tmp_path: Path) -> None:
    board = Leaderboard(tmp_path / "lb.db")
    board.record(game(NOW, ("Ali", "Bea"), (200 * MS, None), "a"))
    board.record(game(NOW, ("Cem", "Dan"), (190 * MS, 210 * MS), "b"))
    board._db.execute("UPDATE games SET best_ns = '[1, 2, 3]' WHERE key = 'b'")    # wrong length
    assert [g.key for g in board.games()] == ["a"] and board.skipped == 1
    board._db.execute("UPDATE games SET best_ns = '[\"fast\", null]' WHERE key = 'b'")
    assert [g.key for g in board.games()] == ["a"] and board.skipped == 1
    board.close()


def test_the_fastest_slap_is_each_names_best_over_the_period(tmp_path: Path) -> None:
    games = [game(NOW - timedelta(days=1), ("Ali", "Bea", "Cem"), (250 * MS, 199 * MS, None), "1"),
             game(NOW, ("Bea", "Ali", "Dan"), (230 * MS, 180 * MS, 260 * MS), "2"),
             game(NOW, ("Eva", "Ali", "Cem"), (None, 300 * MS, None), "3")]
    assert fastest(games) == [Fastest("Ali", 180 * MS, 3), Fastest("Bea", 199 * MS, 2), Fastest("Dan", 260 * MS, 1)]
    assert fastest(games, limit=1) == [Fastest("Ali", 180 * MS, 3)]
    board = Leaderboard(tmp_path / "lb.db")
    old = game(NOW - timedelta(days=20), ("Gus", "Ali", "Bea"), (90 * MS, 400 * MS, 400 * MS), "old")
    for g in (*games, old):
        board.record(g)
    assert board.fastest(Period.WEEK, NOW)[0] == Fastest("Ali", 180 * MS, 3)     # Monday on: Gus was long ago
    assert board.fastest(Period.ALL, NOW)[0] == Fastest("Gus", 90 * MS, 1)
    board.close()


def test_a_finished_game_keeps_its_typed_names_and_best_reactions(tmp_path: Path) -> None:
    over = scenes()["game-over"]
    typed = tuple((seat, name) for seat, name in zip(over.table.seated, ("Zoë", "민준", "Jean-Luc", "O'Neil")))
    table = dataclasses.replace(over.table, names=typed)
    kiosk = Kiosk(tmp_path, RigConfig(), wall_clock=lambda: NOW)
    log = kiosk.start_log(TableSettings(seats=5, clock="sim"), table.seed, 10**12)
    kiosk.finish(table, log)  # type: ignore[arg-type]
    recorded = kiosk.leaderboard.games()[-1]
    assert recorded.names == tuple(table.name(p) for p in range(table.players))
    assert set(recorded.names) == {"Zoë", "민준", "Jean-Luc", "O'Neil"}
    assert recorded.best_ns == tuple(st.best_ns for st in stats(table.race_times, table.players))
    assert all(ns is not None for ns in recorded.best_ns)
    fastest_now = kiosk.fastest(Period.WEEK)
    assert fastest_now and fastest_now[0].best_ns == min(ns for ns in recorded.best_ns if ns is not None)
    assert isinstance(log, TableLog)


def test_the_board_names_the_fastest_slap_of_the_week(tmp_path: Path) -> None:
    kiosk = Kiosk(tmp_path, RigConfig(), wall_clock=lambda: NOW)
    kiosk.leaderboard.record(game(NOW - timedelta(days=1), ("Ali", "Bea", "Cem"), (201_049_999, 183_456_789, None), "w"))
    app = make_app(kiosk, attract_after_ns=5 * S)
    rig = attracting(app)
    today = texts(app)
    assert "Best today" in today and not any(t.startswith("Fastest slap") for t in today)   # none today
    rig.t_ns += BOARD_NS
    app.attract(rig.t_ns)
    said = texts(app)
    assert "Best this week" in said and "Fastest slap this week: Bea 183.5 ms · Ali 201.0 ms" in said


def test_the_fastest_line_reads_in_every_language_and_fits() -> None:
    board = boards()["fastest-week"]
    starts = {"en": "Fastest slap this week: Maximiliane-Anna 183.5 ms · 하늘빛 별님이 190.0 ms",
              "de": "Schnellster Schlag diese Woche: Maximiliane-Anna 183,5 ms",
              "fr": "Tape la plus rapide de la semaine\u00a0: Maximiliane-Anna 183,5 ms",
              "es": "Manotazo más rápido de la semana: Maximiliane-Anna 183,5 ms",
              "ko": "이번 주 가장 빠른 손: Maximiliane-Anna 183.5 ms"}
    on_board = 2 * SLIDE_NS + 1                   # title, demo, then the board slide
    for lang, start in starts.items():
        for size in LAYOUT_SIZES:
            frame = draw(pygame.Surface(size), fonts(lang), scenes()["attract"], lang, attract=True,
                         board=board, attract_ns=on_board)  # type: ignore[arg-type]
            assert frame.overflows == (), (lang, size)
            drawn = [b for b in frame.boxes if b.covered.width and b.covered.height]
            assert all(b.box.contains(b.covered) for b in drawn), (lang, size)
            assert any(t.startswith(start) for t, _ in frame.texts), (lang, size)
    assert tenths_ms(183_449_999) == "183.4 ms" and tenths_ms(183_450_000) == "183.5 ms"
    assert CAFE.utcoffset(None) == timezone(timedelta(hours=1)).utcoffset(None)
