"""``cheating-moth doctor``: the simulated rigs pass, broken ones fail with exit status 1, the
map check lists both builds, and bad options are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.app.cli import main


def test_doctor_passes_on_the_simulated_gpio_rig(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--sim"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("cheating-moth doctor: Raspberry Pi GPIO build, ")
    assert "Timing (loopback): ok, 40 of 40 test edges" in out
    assert "\nVerdict: PASS" in out


def test_doctor_passes_on_the_simulated_board(micropython: str, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MICROPYTHON", micropython)
    assert main(["doctor", "--sim", "--input", "board", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["build"] == "board" and doc["verdict"] == "pass" and doc["passed"] is True
    assert doc["timing"]["method"] == "board pulses" and doc["timing"]["jitter_ns"] == 0


def test_a_broken_simulated_rig_fails_with_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", "--sim", "--json", "--skip-timing", "--sim-fault", "swap:seat1,seat2",
                 "--sim-fault", "dark:guard"])
    assert code == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "fail" and doc["timing"] is None
    assert [f["text"].split(":")[0] for f in doc["findings"]] == [
        "Caught! light on GPIO 16 (pin 36) did not come on", "seat 1 and seat 2 buttons are swapped"]


def test_check_map_lists_both_builds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--check-map"]) == 0
    out = capsys.readouterr().out
    assert "  seat 0    button GPIO 17 (pin 11)     LED GPIO 27 (pin 13)\n" in out
    assert "  loopback  GPIO 20 (pin 38) -> GPIO 21 (pin 40) (the doctor's jumper)\n" in out
    assert "  seat 0    button GP2 (pin 4)          LED GP10 (pin 14)\n" in out
    assert "  sync      GP22 (pin 29) (wire nothing to it)\n" in out


def test_check_map_refuses_a_wrong_map_naming_the_pin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parents[2] / "hardware" / "pins.toml").read_text(encoding="utf-8")
    bad = tmp_path / "pins.toml"
    bad.write_text(text.replace("sync = 22 ", "sync = 16 "), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "--check-map", "--pins", str(bad)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "board.guard.led = GP16 in" in err and "already used by board.sync: the sync pin must be a pin of its own" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--answers", "yyx"], "--answers 'yyx' is not valid: use only y and n"),
    (["--press-timeout", "0"], "--press-timeout 0.0 is not valid: use 0.1 to 600 seconds"),
    (["--sim-fault", "stuck:seat0"], "--sim-fault needs --sim: it breaks the simulated rig, never a real one"),
    (["--port", "/dev/ttyACM0"], "--port is for the buzzer board: add --input board"),
    (["--sim", "--sim-fault", "melt:seat0"], "simulated fault 'melt:seat0' is not valid"),
    (["--input", "board", "--port", "/nonexistent/tty"], "port '/nonexistent/tty' does not exist"),
])
def test_bad_options_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["doctor", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_board_doctor_needs_a_board_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parents[2] / "hardware" / "pins.toml").read_text(encoding="utf-8")
    gpio_only = tmp_path / "gpio.toml"
    gpio_only.write_text(text[: text.index("\n[board]\n")], encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["doctor", "--input", "board", "--sim", "--pins", str(gpio_only)])
    assert "has no [board] part" in capsys.readouterr().err
