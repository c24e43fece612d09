"""``cheating-moth simulate``: statistics, the JSON keys the README documents, bad arguments."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from game.app.cli import main
from game.app.progress import Progress

DOCUMENTED_KEYS = {
    "players", "games", "seed", "rounds", "turns_per_round", "races_per_round", "slaps_per_round",
    "cockroaches_per_round", "accusations_right", "accusations_wrong", "mean_penalty_per_player",
    "mean_penalty_per_player_round", "cards_vanished", "cards_vanished_per_round", "cheats",
    "conservation_checks", "all_cards_conserved", "conservation_failures", "rules", "seconds",
    "games_per_second",
}


def test_json_statistics_report_every_card_conserved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "5", "--games", "20", "--seed", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == DOCUMENTED_KEYS
    assert out["all_cards_conserved"] is True and out["conservation_failures"] == []
    assert out["games"] == 20 and out["rounds"] == 100 and out["players"] == 5
    assert out["turns_per_round"] > 0 and out["races_per_round"] > 0
    assert out["rules"]["guard-next-round"] == "rotate-left"


def test_the_same_seed_gives_the_same_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        main(["simulate", "--players", "3", "--games", "5", "--seed", "3", "--json"])
        out = json.loads(capsys.readouterr().out)
        out.pop("seconds"), out.pop("games_per_second")
        runs.append(out)
    assert runs[0] == runs[1]


def test_text_output_names_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "4", "--games", "3"]) == 0
    out = capsys.readouterr().out
    for label in ("turns per round", "races per round", "accusations right", "cards vanished",
                  "games per second", "all cards conserved"):
        assert label in out
    assert "all cards conserved                True" in out


def test_a_config_file_sets_the_variants(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "rig.toml"
    config.write_text('[rules]\nguard-next-round = "keep"\ntop-tie = "fewest-moths"\n')
    assert main(["simulate", "--games", "2", "--json", "--config", str(config)]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    assert rules["guard-next-round"] == "keep" and rules["top-tie"] == "fewest-moths"


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "6"], "6 players cannot play: use 3 to 5"),
    (["--players", "five"], "'five' is not a number: use 3 to 5"),
    (["--games", "0"], "0 is too small: use 1 or more"),
])
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", *args])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_a_bad_config_exits_2_naming_the_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "rig.toml"
    config.write_text('[rules]\ntop-tie = "coin"\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--config", str(config)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "top-tie is 'coin': use one of 'shared-win', 'fewest-moths'" in err


class Terminal(io.StringIO):
    """A stderr that says it is a terminal, as a person running the command sees it."""

    def isatty(self) -> bool:
        return True


def test_a_long_run_shows_one_updating_progress_line_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["simulate", "--players", "3", "--games", "4", "--seed", "1", "--json"]) == 0
    shown = terminal.getvalue()
    assert shown.split("\r")[1:] == [f"simulated games: {n}/4 ({n * 25}%)" for n in range(1, 5)] + ["\x1b[K"]
    assert "\n" not in shown  # one line, rewritten in place, and cleared at the end
    assert json.loads(capsys.readouterr().out)["games"] == 4  # stdout stays the JSON alone


def test_no_progress_line_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3", "--games", "3", "--seed", "1", "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_redraws_only_at_each_whole_percent() -> None:
    terminal = Terminal()
    progress = Progress(terminal, 1000, "games:")
    for done in range(1, 1001):
        progress.update(done)
    progress.finish()
    assert terminal.getvalue().count("\r") == 102  # 0% to 100%, then the clearing
    assert "\rgames: 1000/1000 (100%)" in terminal.getvalue()
