"""Soak: ``cheating-moth kiosk --input sim`` plays at least 200 games (40 outside the soak) on one data folder while
it is stopped at random moments, by SIGTERM (exit 143, log closed) or SIGKILL, and restarted.
Kill points are counted in steps from the kiosk's own progress lines (seeded), never in wall
time. Every run must start healthy (resume the game, or start one, saying why if something was
set aside), never print a traceback, and the folder must end healthy: a last run plays on."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.app.leaderboard import Leaderboard
from sizes import size

REPO = Path(__file__).resolve().parents[2]
SEED = 4242
#: 200 games in the soak (tests/sizes.py), 40 in every run.
GAMES = size(40, 200)
#: Runs allowed for the games (about a quarter of GAMES are needed): a kiosk that stops making progress fails
#: the test by count, not by the machine's speed.
MAX_RUNS = GAMES
#: About how many steps a simulated game of 3 or 4 players takes.
STEPS_PER_GAME = 300
#: A run's output must appear within this long (a hung kiosk fails the test instead of CI).
LINE_TIMEOUT_S = 600.0


@pytest.fixture()
def data(tmp_path: Path) -> Iterator[Path]:
    """The data folder, in RAM when there is one: the log syncs to disk on every step, which on
    a shared CI disk is most of the time; the code and the signals are the same."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        folder = Path(tempfile.mkdtemp(prefix="kiosk-soak-", dir=shm))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        yield tmp_path


@dataclass
class Run:
    rc: int
    out: list[str]
    err: str
    steps: int


def run(data: Path, games: int, players: int, stop: tuple[signal.Signals, int] | None, seed: int = 1) -> Run:
    """One kiosk run; ``stop`` is (signal, the progress line after which it is sent)."""
    cmd = [sys.executable, "-m", "game.app.cli", "kiosk", "--input", "sim", "--data", str(data),
           "--config", str(data / "none.toml"), "--games", str(games), "--players", str(players),
           "--seed", str(seed), "--progress", "--draw-every", "16"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None and proc.stderr is not None
    out: list[str] = []
    steps = 0
    try:
        for line in proc.stdout:
            if line.startswith("progress: "):
                steps += 1
                if stop is not None and steps == stop[1]:
                    proc.send_signal(stop[0])
                    break
            else:
                out.append(line.rstrip("\n"))
        rest, err = proc.communicate(timeout=LINE_TIMEOUT_S)
        out += [line for line in rest.splitlines() if not line.startswith("progress: ")]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return Run(proc.returncode, out, err, steps)


def finished_games(data: Path) -> int:
    board = Leaderboard(data / "leaderboard.db")
    try:
        return len(board.games())
    finally:
        board.close()


@pytest.mark.soak
def test_games_with_random_sigterm_and_sigkill_restarts_end_healthy(data: Path) -> None:
    rng = random.Random(SEED)
    started = time.monotonic()
    stops: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    runs = 0
    while (done := finished_games(data) if (data / "leaderboard.db").exists() else 0) < GAMES:
        assert runs < MAX_RUNS, f"{done} games after {runs} runs: the kiosk stopped making progress"
        kind = rng.choice(("SIGTERM", "SIGKILL", "SIGTERM", "SIGKILL", "none"))
        games = min(8, GAMES - done)
        # Anywhere in the run: in a game, between games, right after a restart.
        stop = None if kind == "none" else (signal.Signals[kind], rng.randint(1, games * STEPS_PER_GAME))
        # A new seed for each run's new games (a game resumed from the log keeps its own): the
        # leaderboard keeps a replayed game once, by its seed and start.
        result = run(data, games=games, players=rng.choice((3, 4)), stop=stop, seed=rng.randrange(1, 2**31))
        runs += 1
        said = "\n".join(result.out) + result.err
        assert "Traceback" not in said and "Error" not in result.err, said[-2_000:]
        if stop is None or result.steps < stop[1]:   # it ended before the kill point
            assert result.rc == 0, said[-2_000:]
            stops["played to the end"] += 1
        elif kind == "SIGTERM":
            assert result.rc == 143 and "stopped (SIGTERM)" in result.err, (result.rc, said[-2_000:])
            stops["SIGTERM"] += 1
        else:
            assert result.rc == -signal.SIGKILL, (result.rc, said[-2_000:])
            stops["SIGKILL"] += 1
        notes = [line for line in result.out if line.startswith("note: ")]
        starts["resumed" if any(line.startswith("Resumed the game") for line in result.out)
               else "anew with a notice" if notes else "anew"] += 1
        assert not any("another game" in line for line in result.out), notes
    final = run(data, games=1, players=3, stop=None)
    assert final.rc == 0 and "Traceback" not in final.err, final.err[-2_000:]
    assert any(line.startswith(("Resumed the game", "New game", "Final standings")) for line in final.out)
    took = time.monotonic() - started
    print(f"soak: {finished_games(data)} games in {runs} runs + a final one, {took:.1f} s; "
          f"stops {dict(stops)}; starts {dict(starts)}")
    assert stops["SIGTERM"] >= GAMES // 16 and stops["SIGKILL"] >= GAMES // 16
