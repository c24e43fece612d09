"""Leaderboard queries over games that span days and weeks, with chosen times."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from game.app.leaderboard import FinishedGame, Leaderboard, Period
from game.errors import BadTableLog

CAFE = timezone(timedelta(hours=1))
# Wednesday 2026-11-25, 20:00 in the café.
NOW = datetime(2026, 11, 25, 20, 0, tzinfo=CAFE)


def at(when: datetime) -> int:
    return int(when.timestamp()) * 1_000_000_000


def game(when: datetime, totals: tuple[int, ...], names: tuple[str, ...] = ("Ali", "Bea", "Cem")) -> FinishedGame:
    best = min(totals)
    return FinishedGame(at(when), 1, names, totals, tuple(p for p, t in enumerate(totals) if t == best))


@pytest.fixture
def board(tmp_path: Path) -> Leaderboard:
    b = Leaderboard(tmp_path / "board.db")
    b.record(game(NOW - timedelta(days=30), (5, 50, 60)))          # last month: Ali great
    b.record(game(NOW - timedelta(days=2), (40, 10, 30)))          # Monday of this week: Bea
    b.record(game(NOW.replace(hour=0, minute=30), (20, 30, 10)))   # today 00:30: Cem
    b.record(game(NOW - timedelta(hours=1), (25, 35, 15)))         # today 19:00: Cem
    b.record(game(NOW.replace(hour=0) - timedelta(minutes=1), (1, 2, 3)))  # yesterday 23:59
    return b


def names(rows: list) -> list[str]:  # type: ignore[type-arg]
    return [r.name for r in rows]


def test_today_counts_only_games_since_local_midnight(board: Leaderboard) -> None:
    rows = board.board(Period.TODAY, NOW)
    assert names(rows) == ["Cem", "Ali", "Bea"]
    cem = rows[0]
    assert (cem.games, cem.wins, cem.best, cem.average) == (2, 2, 10, 12.5)


def test_this_week_starts_on_monday(board: Leaderboard) -> None:
    rows = board.board(Period.WEEK, NOW)
    assert sum(r.games for r in rows) == 4 * 3            # Mon, Tue 23:59, and today's two
    assert {r.name: r.wins for r in rows} == {"Ali": 1, "Bea": 1, "Cem": 2}


def test_all_time_and_ties_by_wins(board: Leaderboard) -> None:
    rows = board.board(Period.ALL, NOW)
    assert sum(r.games for r in rows) == 15 and names(rows)[0] in {"Ali", "Cem"}
    assert board.last() is not None and board.last().totals == (25, 35, 15)  # type: ignore[union-attr]


def test_the_board_keeps_a_bounded_number_of_games(tmp_path: Path) -> None:
    b = Leaderboard(tmp_path / "small.db", max_games=3)
    for day in range(6):
        b.record(game(NOW - timedelta(days=day), (day, 10, 20)))
    kept = b.games()
    assert len(kept) == 3 and [g.totals[0] for g in kept] == [2, 1, 0]


def test_reset_empties_the_board(board: Leaderboard) -> None:
    board.reset()
    assert board.board(Period.ALL, NOW) == [] and board.last() is None


def test_now_must_carry_a_time_zone(board: Leaderboard) -> None:
    with pytest.raises(ValueError, match="has no time zone"):
        board.board(Period.TODAY, NOW.replace(tzinfo=None))


def test_a_file_that_is_not_a_leaderboard_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    path.write_text("not sqlite\n" * 200)
    with pytest.raises(BadTableLog, match="is not a leaderboard this rig can read"):
        Leaderboard(path)


def test_a_game_recorded_twice_is_kept_once(tmp_path: Path) -> None:
    b = Leaderboard(tmp_path / "board.db")
    g = FinishedGame(at(NOW), 3, ("Ali", "Bea", "Cem"), (1, 2, 3), (0,), key="seed-3-t0-5")
    b.record(g)
    b.record(g)             # the app died after recording, before it moved on
    assert len(b.games()) == 1 and b.integrity() == "ok"
