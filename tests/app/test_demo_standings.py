"""The headless demo's final standings in the terminal: each player by name, their seat counted
from 1, the total and moths, and each round's points under its own heading, in columns that
line up even for names in wide letters."""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.ui.demo import Demo
from game.app.ui.headless import standings_text
from game.narrate import _width
from game.controller import Table, TableSettings

HARD_NAMES = ("Ömer", "김민준", "Ñuria", "Zoë")


@cache
def finished(names: tuple[str, ...] = HARD_NAMES, seed: int = 3) -> Table:
    demo = Demo(4, seed, TableSettings(seats=4, clock="sim", names=names))
    while not demo.done:
        demo.step()
    return demo.table


def rows(text: str, rounds: int) -> list[str]:
    """The table's rows, once its heading is checked: a label over every column."""
    head, *lines = text.splitlines()
    assert re.split(r"\s{2,}", head) == ["place", "player", "seat", "points", "moths",
                                *(f"round {n}" for n in range(1, rounds + 1))], head
    return lines


def test_each_row_names_the_player_and_their_seat_from_1() -> None:
    table = finished()
    game = table.game
    lines = rows(standings_text(table), len(game.scores))
    assert len(lines) == 4 == len(game.scores)
    for line, st in zip(lines, game.standings()):
        place, name, seat, points, moths, *rounds = line.split()
        assert (int(place), name, int(seat)) == (st.place, table.name(st.player), table.seated[st.player] + 1)
        assert (int(points), int(moths)) == (st.total, st.moths)
        assert [int(r) for r in rounds] == [row[st.player].points for row in game.scores]
    assert {line.split()[1] for line in lines} == set(HARD_NAMES)


def test_the_seat_is_the_players_physical_seat_not_their_index() -> None:
    table = finished()
    moved = dataclasses.replace(table, seated=(2, 0, 3, 1))   # player 0 at seat 3, and so on
    for line, st in zip(rows(standings_text(moved), len(moved.game.scores)), moved.game.standings()):
        _, name, seat, *_ = line.split()
        assert int(seat) == moved.seated[st.player] + 1 and name == HARD_NAMES[moved.seated[st.player]]


def test_the_columns_line_up_in_a_terminal_with_wide_and_accented_names() -> None:
    text = standings_text(finished())
    head, *lines = text.splitlines()
    seat_end = _width(head[:head.index("seat") + len("seat")])
    for line in lines:
        name = next(n for n in HARD_NAMES if n in line)
        after = line.index(name) + len(name)
        seat = line[after:].split()[0]
        # The seat figure ends in the same terminal column as its heading.
        assert _width(line[:line.index(seat, after) + len(seat)]) == seat_end, line
    assert _width("김민준") == 6 and _width("Zoe\u0308") == 3 == _width("Zoë")


def test_the_headless_demo_prints_the_named_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--seed", "4", "--screenshots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    table = out[out.index("Final standings after 3 rounds"):].splitlines()[1:]
    assert table[0].split()[:5] == ["place", "player", "seat", "points", "moths"] and "round 3" in table[0]
    assert sorted(line.split()[1] for line in table[1:4]) == ["Ali", "Bea", "Cem"]
    assert sorted(int(line.split()[2]) for line in table[1:4]) == [1, 2, 3]
