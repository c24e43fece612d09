"""Issue 21, defect 1 and Build 1 ("degrade, never die"): a full, read-only or failing SD card
at ANY write of a kiosk game -- the data folder, the leaderboard, the log's creation, every
step's commit and mirror, the filing of a finished game, the next game's log -- gives no
traceback and loses no committed step.

A clean game lists the injection points (each kind of write, file and function where it is
first made, and a step's writes also at the game's last step: :func:`points`). At each point
faults that can hit it (ENOSPC, EROFS, EIO; a SQLite statement failing before or after it
took effect), the same game is played again with every write failing from that point on:

- **the card comes back** (three steps after the first failure, or after the game): the whole
  game is on the card afterwards, every step in its chain, equal to the clean game's; the
  steps made meanwhile were kept in memory and written in order;
- **it never does**: every step the log once had on disk is still there, and the steps that
  could not be written are said lost (the kiosk's notes, the screen).

Either way the game is on the leaderboard once (when the card came back), or that it is not
is said.

After each game the kiosk is started again on the folder (the card working): a game over
that could not be filed is filed, and nothing escapes. In the suite each point gets two of
the faults, in turns (seconds); the soak command (``CHEATING_MOTH_SOAK=1``, tests/sizes.py)
tries every fault both ways at every point (about a minute), and ``CHEATING_MOTH_FAULTS=all``
at every single write of the game (about 3,300 games: tens of minutes)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from kiosk_play import Played, board_keys, logged_games, play, restart
from sizes import SOAK
from storage_faults import CAN_FAIL, Disk, Op, injected

FAULTS = (errno.ENOSPC, errno.EROFS, errno.EIO)
#: Steps played while the card fails, before it works again.
FAILING_STEPS = 3


@pytest.fixture(scope="module")
def clean(ram: Path) -> tuple[list[dict[str, object]], list[Op]]:
    """The clean game's steps and the operations it made (the injection points come from them)."""
    disk = Disk(ram / "clean")
    with injected(disk):
        played = play(ram / "clean" / "data", disk, None)
    assert played.error is None, played.error
    games = [g for g in logged_games(ram / "clean") if g and g[0]["input"]["type"] != "NewGame"]
    assert len(games) == 1 and len(games[0]) > 100
    return games[0], list(disk.ops)


def points(ops: list[Op]) -> list[Op]:
    """Each kind of write (its kind, file and function) where it is first made, and a step's
    writes also at the game's last step (its game over)."""
    first: dict[tuple[str, str, str], Op] = {}
    for op in ops:
        first.setdefault(op.signature, op)
    end = next(op.index for op in ops if op.site == "leaderboard.record")
    last_step = {op.signature: op for op in ops[:end] if op.site.endswith("._flush")}
    return sorted({*first.values(), *last_step.values()}, key=lambda op: op.index)


def cases(ops: list[Op], scope: str) -> list[tuple[int, int, bool, int | None]]:
    """(operation, fault, after, clear_after) to try. In the suite each point gets two of the
    faults that can hit it, taking turns (one the card recovers from, one it never does), and
    a SQLite write an I/O error reported after it took effect; ``points``: every fault at every
    point, both ways; ``all``: every fault at every single operation, both ways."""
    chosen = ops if scope == "all" else points(ops)
    out = []
    for turn, op in enumerate(chosen):
        faults = [f for f in FAULTS if op.kind in CAN_FAIL[f]]
        if scope == "suite":
            pairs = [(faults[turn % len(faults)], FAILING_STEPS), (faults[(turn + 1) % len(faults)], None)]
        else:
            pairs = [(f, clear) for f in faults for clear in (FAILING_STEPS, None)]
        out += [(op.index, fault, False, clear) for fault, clear in pairs]
        if op.kind == "sql":
            out.append((op.index, errno.EIO, True, FAILING_STEPS))
    return out


def check(played: Played, games: list[list[dict[str, object]]], steps: list[dict[str, object]],
          cleared: bool, board: list[str]) -> str | None:
    """What went wrong in one faulty game (None: nothing)."""
    if played.error is not None:
        return played.error
    if not played.first_frame:
        return "no first frame"
    best = 0
    for game in games:
        if game and game[0]["input"]["type"] == "NewGame":
            continue
        if game != steps[:len(game)]:
            return f"a log of {len(game)} steps is not the game's first steps"
        best = max(best, len(game))
    if cleared and best != len(steps):
        return f"{len(steps) - best} of {len(steps)} steps are not on the card after it came back"
    if best < played.written:
        return f"{played.written - best} committed steps were lost ({best} on the card, {played.written} written)"
    if best < len(steps) and not any("lost" in note for note in played.notes):
        return f"{len(steps) - best} steps were not written and that was not said"
    if len(board) > 1:
        return f"the game is {len(board)} times on the leaderboard"
    if cleared and not board:
        return "the game is not on the leaderboard after the card came back"
    if not board and not any("leaderboard" in note for note in played.notes):
        return "the game is not on the leaderboard and that was not said"
    return None


def campaign(ram: Path, clean: tuple[list[dict[str, object]], list[Op]], scope: str) -> None:
    steps, ops = clean
    failures: list[str] = []
    runs = cases(ops, scope)
    for n, (index, fault, after, clear_after) in enumerate(runs):
        folder = ram / f"run-{n}"
        disk = Disk(folder)
        disk.arm(index, fault, after=after)
        with injected(disk):
            played = play(folder / "data", disk, clear_after)
        again = restart(folder / "data")
        problem = check(played, logged_games(folder), steps, clear_after is not None,
                        board_keys(folder / "data")) or again
        if problem is not None:
            failures.append(f"{ops[index]} {errno.errorcode[fault]}{' after' if after else ''} "
                            f"{'clears' if clear_after is not None else 'stays'}: {problem}")
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    print(f"storage fault campaign: {len(runs)} faulty games over {len({r[0] for r in runs})} injection points "
          f"({len(ops)} writes in the game); {len(failures)} failed")
    assert not failures, "\n\n".join(failures[:5])


@pytest.mark.soak
def test_a_fault_at_any_write_path_of_a_kiosk_game_loses_nothing_and_raises_nothing(
        ram: Path, clean: tuple[list[dict[str, object]], list[Op]]) -> None:
    campaign(ram, clean, os.environ.get("CHEATING_MOTH_FAULTS") or ("points" if SOAK else "suite"))
