"""Races through the whole host side on the firmware twin: BoardRig and BoardLink open the twin's
pty like a Pico's port, the adversarial timer and GC pauses run on the board, and every press
the rig reports is where the chip model logged it, to the tick, relative to GO."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.board.ticks import word_count, word_level  # noqa: E402
from firmware_host.boardlink.rig import BOARD_CLOCK, BoardRig  # noqa: E402
from firmware_host.twin.board import TwinBoard  # noqa: E402
from firmware_host.twin.table import Table  # noqa: E402
from game.inputs import Press, Release  # noqa: E402
from twin_races import ADVERSARIAL, policy  # noqa: E402

MS = 1_000_000
WAIT_S = 10.0
NS_PER_TICK = 16
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8)
GO_SM = 7


@pytest.fixture
def twin(micropython: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TwinBoard]:
    monkeypatch.setenv("CHEATING_MOTH_BOARD_TIME_SCALE", "4")  # a loaded PC may run the twin slower than real time
    board = TwinBoard(tmp_path / "ttyTWIN", policy=policy(7, ADVERSARIAL), micropython=micropython)
    board.plug()
    yield board
    board.close()


def test_thirty_races_through_the_board_rig_are_stamped_where_the_chip_logged_them(twin: TwinBoard) -> None:
    rng = random.Random(7)
    rig = BoardRig(str(twin.link), timeout_ns=40 * MS)
    try:
        for _ in range(30):
            seats = sorted(rng.sample(range(6), rng.randint(2, 4)))
            offsets = {s: rng.randint(0, 40) * 2 + rng.choice((0, 1_250_000)) for s in seats}  # cycles after GO

            def script(table: Table, _now: int, offsets: dict[int, int] = offsets) -> None:
                for seat, at in offsets.items():
                    table.after_go(BUTTON_PINS[seat], 0, at)
                    table.after_go(BUTTON_PINS[seat], 1, at + 2_500_000)

            twin.script(script)
            mark = len(twin.boot.pushes)
            rig.arm(seats)
            go = rig.go(seats, delay_ns=rng.randint(0, 3) * MS)
            events = [rig.events.get(timeout=WAIT_S * rig.time_scale) for _ in range(2 * len(seats))]
            presses = {e.player: e.t_ns for e in events if isinstance(e, Press)}
            assert all(isinstance(e, (Press, Release)) and e.clock == BOARD_CLOCK for e in events)
            with twin.lock:
                pushes = twin.boot.pushes[mark:]
            go_count = next(word_count(w) for _c, sm, w in pushes if sm == GO_SM and word_level(w) == 1)
            logged = {sm: word_count(w) for _c, sm, w in pushes if sm < 6 and word_level(w) == 0}
            assert presses == {s: go.t_ns + (logged[s] - go_count) * NS_PER_TICK for s in seats}
    finally:
        rig.close()
    assert twin.hangs == 0 and twin.watchdog_resets == 0 and twin.rxstall_drops == 0
