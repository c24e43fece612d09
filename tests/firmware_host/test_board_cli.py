"""``cheating-moth board flash|info|test|sim`` and ``race --input board``, against a simulated
board on a pty (the firmware under MicroPython), a fake mpremote, and missing ports."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.boardlink.sim import SimBoard
from game.app import cmd_board
from game.app.cli import main


@pytest.fixture
def sim(micropython: str, tmp_path: Path) -> Iterator[SimBoard]:
    board = SimBoard(tmp_path / "ttyBOARD", interpreter="micropython", micropython=micropython)
    board.plug()
    board.control("players 7 150 350")  # simulated players press after every GO
    yield board
    board.close()


def test_board_test_runs_one_race_on_the_simulated_board(sim: SimBoard, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "test", "--port", str(sim.link), "--seed", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "decided" and result["loser"] in (1, 2)
    assert all(p["reaction_ns"] % 16 == 0 for p in result["ranking"])  # board ticks, 16 ns each


def test_race_input_board(sim: SimBoard, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["race", "--input", "board", "--port", str(sim.link), "--players", "3", "--kind", "cockroach",
                 "--seed", "2", "--show-ms", "0"]) == 0
    out = capsys.readouterr().out
    assert "Cockroach race, 3 players" in out and "(board, seed 2)" in out and "under 16 ns apart tie" in out


def test_board_info(sim: SimBoard, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "info", "--port", str(sim.link), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["protocol"], doc["tick_hz"], doc["buttons"]) == ("1.1", 62_500_000, 7)
    assert doc["status"]["state"] == "idle" and doc["link"]["bad_frames"] == 0
    # numbers are JSON numbers, the held buttons a list (issue 21: every value was a string)
    status = doc["status"]
    assert all(type(status[k]) is int for k in ("race", "drops", "bad", "naks", "errors", "ticks", "uptime_ms")), status
    assert status["held"] == [] and status["ticks"] > 0
    assert {k: doc["link"][k] for k in ("protocol_errors", "stamp_faults", "board_restarts", "last_fault")} == {
        "protocol_errors": 0, "stamp_faults": 0, "board_restarts": 0, "last_fault": None}
    assert doc["time_scale"] == 1.0
    if doc["chip"] is None:  # the firmware before it names its hardware
        assert doc["identity"].startswith("not reported (")
    assert main(["board", "info", "--port", str(sim.link), "--board-time-scale", "3"]) == 0
    out = capsys.readouterr().out
    assert "16 ns a tick" in out and "0 protocol errors, 0 impossible stamps, 0 board restarts" in out
    assert "hardware: " in out and "time scale: 3 wall seconds per board second" in out


def test_status_values_are_json_numbers_lists_and_words() -> None:
    from game.app.cmd_board import status_values

    assert status_values({"re": "3", "state": "racing", "race": "12", "held": "0,2,6", "ticks": "1234567890123",
                          "drops": "0", "bad": "-", "x": "-5"}) == {
        "state": "racing", "race": 12, "held": [0, 2, 6], "ticks": 1234567890123, "drops": 0, "bad": "-", "x": -5}
    assert status_values({"held": "-"}) == {"held": []}


def test_board_info_says_what_an_old_or_a_refused_board_is(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from firmware_host.boardlink import link as board_link
    from test_link_faults import FakeBoard

    port = tmp_path / "ttyACM0"
    port.touch()
    boards = {"old": FakeBoard(proto="1.0"), "pico2": FakeBoard(extra_hello=[("chip", "RP2350"), ("board", "pico2")])}
    which = "old"
    monkeypatch.setattr(board_link, "open_serial", lambda _path: boards[which])
    assert main(["board", "info", "--port", str(port)]) == 0
    assert "hardware: not reported (old firmware (protocol 1.0) does not name its chip and board)" in capsys.readouterr().out
    which = "pico2"
    with pytest.raises(SystemExit) as exit_:
        main(["board", "info", "--port", str(port)])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        f"cheating-moth: the board on {str(port)!r} is a Raspberry Pi Pico 2 (RP2350), which this rig does not "
        "support: use a plain Raspberry Pi Pico (RP2040)\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["board", "info", "--board-time-scale", "0"], "--board-time-scale '0' is not valid: use a positive finite number"),
    (["board", "test", "--board-time-scale", "inf"], "--board-time-scale 'inf' is not valid: use a positive finite number"),
    (["race", "--input", "board", "--players", "3", "--board-time-scale", "x"], "--board-time-scale 'x' is not valid"),
    (["race", "--input", "sim", "--players", "3", "--board-time-scale", "2"],
     "--board-time-scale is only for --input board: drop it or use --input board"),
])
def test_a_bad_board_time_scale_is_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    port = tmp_path / "ttyACM0"
    port.touch()
    with pytest.raises(SystemExit) as exit_:
        main([*argv] + (["--port", str(port)] if argv[0] == "board" else []))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cheating-moth: {message}") and err.count("\n") == 1


def test_a_bad_time_scale_in_the_environment_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setenv("CHEATING_MOTH_BOARD_TIME_SCALE", "-1")
    port = tmp_path / "ttyACM0"
    port.touch()
    with pytest.raises(SystemExit) as exit_:
        main(["board", "info", "--port", str(port)])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith("cheating-moth: CHEATING_MOTH_BOARD_TIME_SCALE '-1' is not valid: use a positive")


@pytest.mark.parametrize("argv", [
    ["board", "info"], ["board", "test"], ["board", "flash"], ["race", "--input", "board", "--players", "3"],
])
def test_an_absent_port_is_one_line(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gone = str(tmp_path / "ttyACM9")
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--port", gone])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == f"cheating-moth: port {gone!r} does not exist: plug the board in, or name its port with --port (e.g. /dev/ttyACM0)\n"


def test_flash_copies_the_firmware_with_mpremote_and_resets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "argv.json"
    fake = tmp_path / "fake_mpremote.py"
    # records its arguments and the pins module it was given (a temporary file, gone afterwards)
    fake.write_text(
        "import json, sys\n"
        "pins = [a for a in sys.argv if a.endswith('board_pins.py')]\n"
        f"open({str(log)!r}, 'w').write(json.dumps([sys.argv[1:], open(pins[0]).read() if pins else None]))\n"
    )
    monkeypatch.setattr(cmd_board, "find_mpremote", lambda: [sys.executable, str(fake)])
    port = tmp_path / "ttyACM0"
    port.touch()
    assert main(["board", "flash", "--port", str(port)]) == 0
    argv, pins = json.loads(log.read_text())
    files = [str(cmd_board.BOARD_DIR / f) for f in cmd_board.FIRMWARE_FILES]
    assert argv[:4] == ["connect", str(port), "fs", "cp"] and argv[-3:] == [":", "+", "reset"]
    copied = argv[4:-3]
    assert [f for f in copied if not f.endswith("board_pins.py")] == files
    # the pins module goes before hw_rp2.py, which imports it; main.py last: a cut-short copy
    # never boots half a firmware
    assert [Path(f).name for f in copied][-3:] == ["board_pins.py", "hw_rp2.py", "main.py"]
    assert "BUTTON_PINS = (2, 3, 4, 5, 6, None, 8)\n" in pins and "SYNC_PIN = 22\n" in pins
    assert "flashed fastcrc.py, protocol.py" in capsys.readouterr().out


def test_flash_refuses_a_map_without_a_board_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cmd_board, "find_mpremote", lambda: pytest.fail("nothing may be copied"))
    text = Path(cmd_board.BOARD_DIR.parents[1] / "hardware" / "pins.toml").read_text(encoding="utf-8")
    gpio_only = tmp_path / "gpio.toml"
    gpio_only.write_text(text[: text.index("\n[board]\n")], encoding="utf-8")
    port = tmp_path / "ttyACM0"
    port.touch()
    with pytest.raises(SystemExit) as exit_:
        main(["board", "flash", "--port", str(port), "--pins", str(gpio_only)])
    assert exit_.value.code == 2
    assert "has no [board] part: add [board] with the Pico's GP numbers" in capsys.readouterr().err


def test_flash_reports_mpremote_failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "fail.py"
    fake.write_text("import sys\nprint('could not enter raw repl', file=sys.stderr)\nsys.exit(1)\n")
    monkeypatch.setattr(cmd_board, "find_mpremote", lambda: [sys.executable, str(fake)])
    port = tmp_path / "ttyACM0"
    port.touch()
    with pytest.raises(SystemExit) as exit_:
        main(["board", "flash", "--port", str(port)])
    assert exit_.value.code == 1
    assert "mpremote failed on" in capsys.readouterr().err


def test_flash_without_mpremote_or_without_a_board(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cmd_board, "find_mpremote", lambda: None)
    with pytest.raises(SystemExit) as exit_:
        main(["board", "flash"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "cheating-moth: mpremote is not installed: pip install mpremote (cheating-moth's dependencies include it)\n"
    monkeypatch.setattr(cmd_board, "find_mpremote", lambda: ["mpremote"])
    monkeypatch.setattr("firmware_host.boardlink.link.find_board_ports", lambda: [])
    with pytest.raises(SystemExit):
        main(["board", "flash"])
    assert "no board found (USB id 2E8A:0005)" in capsys.readouterr().err
    monkeypatch.setattr("firmware_host.boardlink.link.find_board_ports", lambda: ["/dev/ttyACM0", "/dev/ttyACM1"])
    with pytest.raises(SystemExit):
        main(["board", "flash"])
    assert ("2 Picos running MicroPython are plugged in (/dev/ttyACM0, /dev/ttyACM1): name the one to flash with --port"
            in capsys.readouterr().err)


def test_find_mpremote_uses_the_installed_module() -> None:
    assert cmd_board.find_mpremote() == [sys.executable, "-m", "mpremote"]


def test_board_sim_command_starts_and_stops(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "simboard"
    assert main(["board", "sim", "--link", str(link), "--interpreter", "cpython", "--seconds", "0.3"]) == 0
    assert f"simulated board (cpython) on {link}" in capsys.readouterr().out
    assert not link.exists()  # unplugged on the way out


def test_board_input_turns_a_voided_race_into_an_error_the_race_command_reruns() -> None:
    import queue

    from firmware_host.boardlink.errors import RaceVoidedError
    from firmware_host.boardlink.rig import RaceVoided
    from firmware_host.records import ArmReport
    from game.app.cmd_race import BoardInput
    from game.inputs import Press

    class VoidingRig:
        clock = "board"
        resolution_ns = 16
        time_scale = 1.0
        events: queue.Queue[object] = queue.Queue()

        def drain(self) -> list[object]:
            return []

        def now_ns(self) -> int:
            return 0

        def arm(self, seats: object) -> ArmReport:
            return ArmReport(t_ns=0, clock="board", held=(), race=3)

    rig = VoidingRig()
    inp = BoardInput(rig, 3, 0.0)  # type: ignore[arg-type]
    inp.arm([0, 1])
    # A void of an earlier race (told already, e.g. by go() raising) is no news for race 3.
    rig.events.put(RaceVoided(2, "the board was disconnected", None))
    rig.events.put(Press(1, 5, "board"))
    assert inp.wait(10**9) == []  # the old void is passed over (this fake's drain gives nothing more)
    assert inp.wait(10**9) == [Press(1, 5, "board")]
    rig.events.put(RaceVoided(3, "the board was disconnected", None))
    with pytest.raises(RaceVoidedError, match="race voided: the board was disconnected"):
        inp.wait(10**9)


@pytest.mark.parametrize("bad", ["0", "nan", "soon", "601"])
def test_a_board_patience_out_of_range_is_refused_in_one_sentence(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["race", "--input", "board", "--players", "3", "--board-patience-s", bad])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (f"cheating-moth: --board-patience-s {bad!r} is not valid: use a number of "
                                       f"seconds from 1 to 600\n")
    with pytest.raises(SystemExit):
        main(["race", "--input", "sim", "--players", "3", "--board-patience-s", "5"])
    assert "--board-patience-s is only for --input board" in capsys.readouterr().err


def test_a_race_is_judged_on_every_edge_that_arrived_not_only_those_already_read() -> None:
    """On a loaded machine GO can come back when the board's clock is already past GO + the
    timeout, the presses queued behind it: run_race judged at once with the edges it had read
    (none) and decided 'no slap within the timeout' (issue 21, the restart campaign under load)."""
    from game.app.cmd_race import RaceSettings, run_race
    from game.inputs import Go, Press
    from game.judge import Status
    from game.race import RaceKind

    ms = 1_000_000

    class LateInput:
        clock = "board"
        resolution_ns = 16

        def __init__(self) -> None:
            self.t = 0
            self.queued: list[Press] = []

        def now_ns(self) -> int:
            return self.t

        def arm(self, seats: object) -> int:
            return 0

        def held_seats(self, seats: object) -> tuple[int, ...]:
            return ()

        def go(self, seats: object) -> Go:
            go = 1_000 * ms
            self.queued = [Press(1, go + 150 * ms, "board"), Press(2, go + 230 * ms, "board")]
            self.t = go + 5_000 * ms  # the board's clock ran on while this computer was busy
            return Go(go, "board")

        def wait(self, until_t_ns: int) -> list[Press]:
            self.t = max(self.t, until_t_ns)
            taken, self.queued = self.queued, []
            return taken

        def show_result(self, result: object, spec: object) -> None:
            return None

    race = RaceSettings(kind=RaceKind.SLAP, players=3, active=0, seed=1, fore_period_ns=1_000 * ms, timeout_ns=3_000 * ms)
    done = run_race(LateInput(), race, lambda _m: None)  # type: ignore[arg-type]
    assert done.result.status is Status.DECIDED and done.result.loser == 2, done.result.reason
