"""A name typed at the join screen is in the table log, so a game resumed after a pulled plug
has the names it had."""

from __future__ import annotations

from pathlib import Path

from game.app.tablelog import TableLog
from game.controller import TableSettings, new_table, step
from game.controller import inputs as console
from game.controller.resume import resume
from game.inputs import Press, Release

SETTINGS = TableSettings(seats=4, clock="sim")
T0 = 10**12
MS = 10**6


def test_names_typed_at_join_come_back_with_the_log(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    log = TableLog.open(db, SETTINGS, 5, T0)
    table = new_table(SETTINGS, 5, T0)
    inputs: list[object] = []
    for n, seat in enumerate((0, 1, 3)):
        inputs += [Press(seat, T0 + (10 + n) * 100 * MS, "sim"), Release(seat, T0 + (10 + n) * 100 * MS + MS, "sim")]
    inputs += [console.Name(3, "Łucja", T0 + 2_000 * MS), console.Name(1, "  하 늘 ", T0 + 2_500 * MS),
               console.Name(0, "łUCJA", T0 + 3_000 * MS)]          # refused: Łucja is at the table
    for event in inputs:
        made = step(table, event)  # type: ignore[arg-type]
        log.append(event, made)  # type: ignore[arg-type]
        table = made.table
    log.close()
    again = TableLog.open(db, SETTINGS, 5, T0)
    assert [s.input for s in again.steps] == inputs
    resumed = resume(again.settings, again.seed, again.t0_ns, again.steps)
    again.close()
    assert [resumed.name(p) for p in range(3)] == ["Ali", "하 늘", "Łucja"]
    assert resumed.names == table.names
