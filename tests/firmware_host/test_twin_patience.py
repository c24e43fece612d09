"""A pulled cable has the documented time (issue 21, defect 8), on the firmware twin with the
real boot: MicroPython's start and main.py's BOOTSEL window make power-up to HELLO 1.3 s of board
time (as measured on the emulated Pico), and the port appears only after a USB enumeration delay.

Before, the race wait kept its own limit (the remaining fore-period + 2 s of board time) and
``race --input board`` / ``board test`` ended with "the board stopped reporting its time" before
the 10 s it promised a board that is gone was ever consulted: a cable out for more than about half
a second ended the command. Now one patience (the rig's, 10 s by default) is honoured: back within
it, the race runs again (one notice); past it, one sentence.

Every host wait is board time times SCALE and the twin is paced to 1/SCALE of real time, so a
loaded machine makes everything later, never a limit shorter; the cable-out time is the scenario's
input, in the same board time.
"""

from __future__ import annotations

import random
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.boardlink.errors import BoardGone  # noqa: E402
from firmware_host.twin.board import Policy, TwinBoard  # noqa: E402
from firmware_host.twin.table import SYS_HZ, Table  # noqa: E402
from game.app.cmd_race import RaceRun, RaceSettings, run_board_race  # noqa: E402
from game.judge import Status  # noqa: E402
from game.race import RaceKind  # noqa: E402

MS = 1_000_000
SCALE = 2.0  # wall seconds per board second for every host wait; the twin runs at most 1/SCALE real time
WAIT_S = 120.0  # only a hang
BOOT_S = 1.3  # power-up to HELLO on the real rp2 port (FACTS.md): the twin's boot_us + the BOOTSEL window
ENUMERATION_S = 0.5  # board seconds from power-up to the port appearing on the host
SEAT_PINS = (2, 3, 4)
RACE = RaceSettings(kind=RaceKind.SLAP, players=3, active=0, seed=1, fore_period_ns=2_000 * MS, timeout_ns=3_000 * MS)


class Table0:
    """Each boot's table: two players who react to every GO, and an event at every arming."""

    def __init__(self) -> None:
        self.armed: list[threading.Event] = []  # per boot: set at its first ARM (SYNC's second rise)

    def __call__(self, boot: int) -> Table:
        table = Table.for_board()
        rng = random.Random(boot)
        for pin in SEAT_PINS[1:]:  # seats 1 and 2 race (seat 0 laid the card)
            table.add_player(pin, rng, bouncy=False)
        armed = threading.Event()
        self.armed.append(armed)
        rises = [0]

        def sync(_cycle: int) -> None:
            rises[0] += 1
            if rises[0] == 2:  # the first rise is the loggers' start at power-up
                armed.set()

        table.on_rise(table.sync_pin, sync, keep=True)
        return table


@pytest.fixture
def tables() -> Table0:
    return Table0()


@pytest.fixture
def twin(micropython: str, tmp_path: Path, tables: Table0) -> Iterator[TwinBoard]:
    board = TwinBoard(tmp_path / "ttyTWIN", policy=Policy(speed=1 / SCALE), micropython=micropython,
                      make_table=tables, enumeration_s=ENUMERATION_S * SCALE)
    board.plug()
    assert board.published.wait(WAIT_S)  # enumerated: the port is there
    yield board
    board.close()


class Race(threading.Thread):
    """``race --input board`` on the twin, in a thread: its notices, its run or its error."""

    def __init__(self, twin: TwinBoard, patience_s: float) -> None:
        super().__init__(daemon=True)
        self.port = str(twin.link)
        self.patience_s = patience_s
        self.notes: list[str] = []
        self.done: RaceRun | None = None
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.done, _bad = run_board_race(self.port, RACE, 0.0, self.notes.append, SCALE, self.patience_s)
        except BaseException as exc:  # the test reads it
            self.error = exc

    def result(self) -> RaceRun:
        self.join(WAIT_S)
        assert not self.is_alive(), "the race command hung"
        assert self.error is None, "".join(traceback.format_exception(self.error))
        assert self.done is not None
        return self.done


@pytest.mark.parametrize("fault", ["unplug for 4 s", "reset"])
def test_a_board_back_within_the_patience_reruns_the_race_once(twin: TwinBoard, tables: Table0, fault: str) -> None:
    race = Race(twin, 10.0)
    assert tables.armed[0].wait(WAIT_S)  # the race is armed; its 2 s fore-period runs
    if fault == "reset":
        twin.reset()  # a watchdog reset or a power dip: the Pico leaves USB and comes back after its boot
    else:
        twin.unplug()
        threading.Event().wait(4.0 * SCALE)  # the cable is out 4 s of board time: past the old 2 s limit
        twin.plug()
    done = race.result()
    assert done.result.status is Status.DECIDED and done.result.loser in (1, 2)
    assert len(race.notes) == 1, race.notes  # voided once: one notice, one of the three re-runs
    assert "the board was disconnected" in race.notes[0] and race.notes[0].endswith(": running the race again")
    assert len(twin.boots) == 2 and done.spec.armed_t_ns > 0
    # the new board took the real boot: its loggers start (just before its HELLO) 1.3 s after power-up
    first_sync = next(c for pin, level, c in twin.boot.outputs if pin == twin.boot.table.sync_pin and level == 1)
    assert first_sync >= BOOT_S * SYS_HZ


def test_a_board_gone_past_the_patience_ends_the_race_with_one_sentence(twin: TwinBoard, tables: Table0) -> None:
    race = Race(twin, 3.0)
    assert tables.armed[0].wait(WAIT_S)
    twin.unplug()  # and it stays out
    race.join(WAIT_S)
    assert isinstance(race.error, BoardGone), race.error
    assert str(race.error) == "the buzzer board has been gone for 3 s: check its USB cable and plug it in again"
    assert race.notes == []
