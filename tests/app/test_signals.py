"""No traceback from any command: SIGINT ends it with 130 and SIGTERM with 143 after its own
cleanup (children stopped, links removed), a reader that goes away ends it quietly, a stdin
that is not a terminal is read as documented or refused in one line. And the simulated kiosk
behaves like the real one: it stops on SIGTERM, resumes after it (in any game of a run), and
plays a long run of games without its players losing their place.

Every test waits on the command's own output (a line, with a timeout), never on wall time."""

from __future__ import annotations

import grp
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game.app.cli import main
from sizes import only_in_soak

REPO = Path(__file__).resolve().parents[2]
#: Only catches a hang: a loaded machine (load 15 on two cores) took over a minute to start a kiosk.
TIMEOUT_S = 600.0
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "GPIOZERO_PIN_FACTORY": "mock"}


@dataclass
class Cmd:
    """A command in its own session, its stdout and stderr lines on queues as they come."""

    proc: subprocess.Popen[str]
    lines: queue.Queue[tuple[str, str | None]] = field(default_factory=queue.Queue)
    err: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, *args: str, stdin: int | None = subprocess.DEVNULL) -> Cmd:
        proc = subprocess.Popen([sys.executable, "-m", "game.app.cli", *args], stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=ENV,
                                start_new_session=True)
        cmd = cls(proc)
        for name, stream in (("out", proc.stdout), ("err", proc.stderr)):
            threading.Thread(target=cmd._pump, args=(name, stream), daemon=True).start()
        return cmd

    def _pump(self, name: str, stream: object) -> None:
        assert hasattr(stream, "readline")
        for line in iter(stream.readline, ""):
            if name == "err":
                self.err.append(line)
            self.lines.put((name, line))
        self.lines.put((name, None))

    def wait_for(self, text: str, count: int = 1) -> None:
        """Until ``count`` lines (stdout or stderr) contain ``text``."""
        seen = 0
        while seen < count:
            try:
                _, line = self.lines.get(timeout=TIMEOUT_S)
            except queue.Empty:
                raise AssertionError(f"no {text!r} within {TIMEOUT_S} s; stderr: {''.join(self.err)[-2000:]}") from None
            if line is None:
                continue
            seen += text in line
            if self.proc.poll() is not None and self.lines.empty() and seen < count:
                raise AssertionError(f"ended ({self.proc.returncode}) before {text!r}: {''.join(self.err)[-2000:]}")

    def finish(self) -> tuple[int, str]:
        rc = self.proc.wait(timeout=TIMEOUT_S)
        ends = 0
        while ends < 2:   # both streams read to their end
            _, line = self.lines.get(timeout=TIMEOUT_S)
            ends += line is None
        return rc, "".join(self.err)


@pytest.fixture()
def cleanup() -> Iterator[list[Cmd]]:
    started: list[Cmd] = []
    yield started
    for cmd in started:
        if cmd.proc.poll() is None:
            cmd.proc.kill()
            cmd.proc.wait()


def sim_kiosk(data: Path, *more: str) -> tuple[str, ...]:
    return ("kiosk", "--input", "sim", "--data", str(data), "--config", str(data / "none.toml"),
            "--progress", *more)


# --- the simulated kiosk -----------------------------------------------------------------------

def test_the_simulated_kiosk_stops_on_sigterm_with_143_and_resumes(tmp_path: Path, cleanup: list[Cmd]) -> None:
    cmd = Cmd.start(*sim_kiosk(tmp_path, "--seed", "4"))
    cleanup.append(cmd)
    cmd.wait_for("progress: ", 40)
    cmd.proc.send_signal(signal.SIGTERM)          # SDL used to swallow it: the game played on
    rc, err = cmd.finish()
    assert rc == 143 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == "cheating-moth: stopped (SIGTERM)"
    again = Cmd.start(*sim_kiosk(tmp_path, "--seed", "4"))
    cleanup.append(again)
    again.wait_for("Resumed the game")
    again.wait_for("Final standings")
    assert again.finish()[0] == 0


def test_ctrl_c_in_the_simulated_kiosk_is_one_line_and_130(tmp_path: Path, cleanup: list[Cmd]) -> None:
    cmd = Cmd.start(*sim_kiosk(tmp_path))
    cleanup.append(cmd)
    cmd.wait_for("progress: ", 10)
    cmd.proc.send_signal(signal.SIGINT)
    rc, err = cmd.finish()
    assert rc == 130 and "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1] == "cheating-moth: interrupted (Ctrl-C)"


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_kiosk_stopped_in_its_second_game_resumes_that_game(tmp_path: Path, cleanup: list[Cmd],
                                                             stop: signal.Signals) -> None:
    """The second game's log begins with the console's NewGame: its players used to refuse it
    ("the log is of another game") on every restart after."""
    cmd = Cmd.start(*sim_kiosk(tmp_path, "--seed", "6", "--games", "3", "--players", "3"))
    cleanup.append(cmd)
    cmd.wait_for("progress: game 2 step", 30)
    cmd.proc.send_signal(stop)
    cmd.finish()
    again = Cmd.start(*sim_kiosk(tmp_path, "--seed", "6", "--games", "2", "--players", "3"))
    cleanup.append(again)
    again.wait_for("Resumed the game")
    again.wait_for("Final standings")
    rc, err = again.finish()
    assert rc == 0 and "Traceback" not in err and "another game" not in err, err


@pytest.mark.soak
@only_in_soak
def test_the_default_seed_plays_past_forty_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 41st game used to end in ScriptError (the players' clock restarted at the first
    game's start, behind the table's, so their vote window never closed in time)."""
    assert main(["kiosk", "--input", "sim", "--data", str(tmp_path), "--config", str(tmp_path / "none.toml"),
                 "--games", "42", "--draw-every", "1000"]) == 0
    assert "Final standings" in capsys.readouterr().out


# --- every command ---------------------------------------------------------------------------

def test_ctrl_c_and_sigterm_in_the_kiosk_end_it_cleanly(tmp_path: Path, cleanup: list[Cmd]) -> None:
    for stop, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        cmd = Cmd.start("kiosk", "--headless", "--input", "keyboard", "--data", str(tmp_path),
                        "--config", str(tmp_path / "none.toml"))
        cleanup.append(cmd)
        cmd.wait_for("kiosk up")
        cmd.proc.send_signal(stop)
        rc, err = cmd.finish()
        assert rc == code and "Traceback" not in err, err


def test_play_into_a_closed_pipe_ends_quietly() -> None:
    """``cheating-moth play | head -2``."""
    proc = subprocess.Popen([sys.executable, "-m", "game.app.cli", "play", "--headless", "--seed", "3"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=REPO, env=ENV, start_new_session=True)
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = [proc.stdout.readline() for _ in range(2)]
        proc.stdout.close()                       # head has what it wanted
        rc = proc.wait(timeout=TIMEOUT_S)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert all(first)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    assert rc in (0, 141)


def test_sigterm_in_play_is_143(cleanup: list[Cmd]) -> None:
    cmd = Cmd.start("play", "--headless", "--seed", "3")
    cleanup.append(cmd)
    cmd.wait_for("")
    cmd.proc.send_signal(signal.SIGTERM)
    rc, err = cmd.finish()
    assert rc in (0, 143) and "Traceback" not in err, err   # 0: it had finished already


def test_staff_pin_reads_a_piped_pin(cleanup: list[Cmd], tmp_path: Path) -> None:
    pin_file = tmp_path / "staff-pin.toml"
    group = grp.getgrgid(os.getgid()).gr_name
    proc = subprocess.run([sys.executable, "-m", "game.app.cli", "staff-pin", "--file", str(pin_file),
                           "--group", group], input="418206\n", text=True,
                          capture_output=True, cwd=REPO, env=ENV, timeout=TIMEOUT_S, start_new_session=True)
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {pin_file}" in proc.stdout and "Traceback" not in proc.stderr
    assert 'hash = "' in pin_file.read_text()


def test_staff_pin_with_nothing_on_stdin_is_one_line(tmp_path: Path) -> None:
    # A file in a folder that exists: staff-pin checks where it will write before it reads the PIN.
    proc = subprocess.run([sys.executable, "-m", "game.app.cli", "staff-pin", "--file", str(tmp_path / "pin.toml")],
                          input="", text=True,
                          capture_output=True, cwd=REPO, env=ENV, timeout=TIMEOUT_S, start_new_session=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("cheating-moth: no PIN on stdin"), proc.stderr


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("stop, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_board_sim_stopped_stops_its_board_and_removes_its_link(tmp_path: Path, cleanup: list[Cmd],
                                                               stop: signal.Signals, code: int) -> None:
    link = tmp_path / "board"
    cmd = Cmd.start("board", "sim", "--link", str(link), "--interpreter", "cpython")
    cleanup.append(cmd)
    cmd.wait_for("simulated board")
    board = children(cmd.proc.pid)
    assert board and link.is_symlink()
    cmd.proc.send_signal(stop)
    rc, err = cmd.finish()
    assert rc == code and "Traceback" not in err, err
    assert not any(alive(pid) for pid in board), board
    assert not link.is_symlink() and not link.exists()


def test_a_question_met_by_the_end_of_stdin_is_one_line() -> None:
    """The doctor asks whether each light is on; with stdin closed it used to raise EOFError."""
    proc = subprocess.run([sys.executable, "-m", "game.app.cli", "doctor", "--input", "gpio", "--skip-timing",
                           "--skip-buttons"], stdin=subprocess.DEVNULL, text=True, capture_output=True, cwd=REPO,
                          env=ENV, timeout=TIMEOUT_S, start_new_session=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "doctor needed an answer but its input ended" in proc.stderr
