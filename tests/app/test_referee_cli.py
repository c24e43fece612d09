"""``cheating-moth referee quiz`` (issue 14): the simulated quiz runs headless from the command
line, replays from its seed, writes its screenshots; bad options are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.app.cli import main

MS = 1_000_000


def _quiz(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    assert main(["referee", "quiz", "--input", "sim", "--seed", "3", "--json",
                 "--screenshots", str(tmp_path), *extra]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_the_simulated_quiz_writes_its_screenshots_and_replays_from_its_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _quiz(tmp_path / "a", capsys)
    again = _quiz(tmp_path / "b", capsys)
    assert first["log"] == again["log"] and first["scores"] == again["scores"]
    assert first["seed"] == 3 and first["questions"] == 6
    assert sum(first["scores"].values()) > 0  # type: ignore[union-attr]
    shots = [Path(p) for p in first["screenshots"]]  # type: ignore[union-attr]
    assert {p.stem for p in shots} >= {"quiz-start", "quiz-armed", "quiz-early", "quiz-scores"}
    for path in shots:
        assert pygame.image.load(str(path)).get_size() == (800, 480)


def test_teams_and_every_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _quiz(tmp_path, capsys, "--players", "6", "--teams", "red,blue,red,blue,red,blue",
                "--first-per-team", "--wrong", "-5", "--lang", "all", "--size", "720x1280")
    assert set(out["teams"]) == {"red", "blue"}  # type: ignore[arg-type]
    assert sum(out["teams"].values()) == sum(out["scores"].values())  # type: ignore[union-attr]
    stems = {Path(p).stem for p in out["screenshots"]}  # type: ignore[union-attr]
    assert {"quiz-scores-en", "quiz-scores-ko"} <= stems


def test_the_transcript_names_the_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "--input", "sim", "--seed", "3", "--screenshots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Quiz — simulated players, seed 3")
    assert "question 1: " in out and "rang in first" in out and "Scores: Ali " in out


@pytest.mark.parametrize("argv, says", [
    (["--players", "9"], "players '9' is not valid: referee mode takes 2 to 8"),
    (["--teams", "a,b"], "--teams 'a,b' names 2 seats: give one team name per seat, 4 in all"),
    (["--first-per-team"], "mode 'first-per-team' needs teams"),
    (["--right", "0"], "--right 0 is not valid: use a whole number, 1 or more"),
    (["--wrong", "5"], "--wrong 5 is not valid: a penalty is a whole number, 0 or below"),
    (["--answer-time", "1.5"], "'1.5' is not valid: use whole seconds, 0 (no limit) to 600"),
    (["--input", "keyboard", "--headless"], "--input keyboard needs a display"),
    (["--db", "x.db"], "--db is for a race preset's session (see --list): the quiz keeps no log"),
])
def test_bad_options_are_one_line(argv: list[str], says: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["referee", "quiz", "--input", "sim", "--screenshots", str(tmp_path), *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err and "Traceback" not in err


def test_presets_are_listed_and_an_unknown_game_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert {line.split(":")[0] for line in listed} >= {"bell-slap", "grab", "last-hand-down", "duel"}
    with pytest.raises(SystemExit) as exit_:
        main(["referee", "nope", "--input", "sim"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "is not a referee game: use quiz, or one of the race presets" in err and "\n" not in err


def _race(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, *extra: str) -> dict[str, Any]:
    assert main(["referee", game, "--input", "sim", "--seed", "4", "--json", "--rounds", "4",
                 "--screenshots", str(tmp_path), *extra]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game, players, shots", [
    ("duel", 2, {"duel-ready", "duel-armed", "duel-go", "duel-result", "duel-stats"}),
    ("grab", 4, {"grab-ready", "grab-armed", "grab-go", "grab-result", "grab-stats"}),
    ("bell-slap", 5, {"bell-slap-ready", "bell-slap-result", "bell-slap-stats"}),
    ("last-hand-down", 4, {"last-hand-down-ready", "last-hand-down-go", "last-hand-down-result",
                           "last-hand-down-stats"}),
])
def test_every_preset_runs_headless_and_writes_screenshots_and_a_report(
        game: str, players: int, shots: set[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _race(tmp_path, capsys, game, *(["--players", str(players)] if players != 4 else []))
    assert out["game"] == game and out["seats"] == players and out["races"] == 4
    tally = out[out["tally"]]
    assert len(tally) == players and sum(tally.values()) >= 4      # a shared tie may count twice
    assert {Path(p).stem for p in out["screenshots"]} >= shots
    for path in out["screenshots"]:
        assert pygame.image.load(path).get_size() == (800, 480)
    stats = {p["name"]: p for p in out["stats"]["players"]}
    assert set(stats) == set(tally)
    for name, player in stats.items():
        assert player["wins"] == (tally[name] if out["tally"] == "wins" else player["wins"])
        if player["reactions"] and game != "bell-slap":      # a table's event gives no reaction time
            assert player["best_ns"] <= player["median_ns"] and 100 * MS < player["best_ns"] < 2_000 * MS
    (report,) = out["report"]
    html = Path(report).read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "Ali" in html
    assert sum(line.startswith("race ") for line in out["log"]) == 4 + out["reruns"]
    # The seed replays the same session.
    assert _race(tmp_path / "again", capsys, game, "--players", str(players))["log"] == out["log"]


def test_a_preset_run_in_every_language_and_a_bad_player_count(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = _race(tmp_path, capsys, "grab", "--lang", "all", "--players", "3")
    stems = {Path(p).stem for p in out["screenshots"]}
    assert {"grab-result-en", "grab-result-ko", "grab-stats-de"} <= stems
    assert len(out["report"]) == 5
    with pytest.raises(SystemExit) as exit_:
        main(["referee", "duel", "--input", "sim", "--players", "3", "--screenshots", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--players 3 cannot play 'duel': it takes 2 to 2 players" in err and "\n" not in err


CAFE_PRESET = """
min-players = 2
max-players = 6
outcome = "first-wins"
places = 1
false-start = "void"
lockout = "first-press"
timeout-ms = 4000
tie = "shared"
go = "rig"
go-min-ms = 1500
go-max-ms = 3000

[name]
en = "Spoons"
de = "Löffel"

[screen]
en = "Grab a spoon on GO."
de = "Schnapp dir bei GO einen Löffel."
"""


def test_a_cafe_preset_file_appears_and_plays_without_code_changes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "config" / "cheating-moth" / "referee"
    folder.mkdir(parents=True)
    (folder / "spoons.toml").write_text(CAFE_PRESET, encoding="utf-8")
    (folder / "broken.toml").write_text("outcome = 'first-wins'\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert main(["referee", "--list", "--lang", "de"]) == 0
    captured = capsys.readouterr()
    assert "spoons: Löffel (2–6 players) — Schnapp dir bei GO einen Löffel." in captured.out.splitlines()
    assert "broken.toml" in captured.err                      # the bad file is named, the others load
    out = _race(tmp_path / "shots", capsys, "spoons", "--players", "3")
    assert out["game"] == "spoons" and out["races"] == 4
    # --presets adds a folder too.
    other = tmp_path / "more"
    other.mkdir()
    (other / "spoons-duel.toml").write_text(CAFE_PRESET.replace("max-players = 6", "max-players = 2"),
                                             encoding="utf-8")
    assert main(["referee", "--list", "--presets", str(other)]) == 0
    assert any(line.startswith("spoons-duel: Spoons (2–2 players)") for line in capsys.readouterr().out.splitlines())


def test_a_logged_session_resumes_and_its_races_are_rejudged_by_cheating_moth_judge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "grab.db"
    first = _race(tmp_path / "a", capsys, "grab", "--players", "3", "--db", str(db))
    assert first["races"] == 4
    # Run again on the same log: the session goes on (its seats kept), four more races counted.
    again = _race(tmp_path / "b", capsys, "grab", "--db", str(db), "--export", str(tmp_path / "races"))
    assert again["seats"] == 3 and again["races"] == 8
    numbers = [int(line.split(":")[0].split()[1]) for line in again["log"] if line.startswith("race ")]
    assert numbers[0] == len([line for line in first["log"] if line.startswith("race ")]) + 1
    exported = [Path(p) for p in again["exported"]]
    assert len(exported) == 8 + again["reruns"] and exported[0].name == "race-001.json"
    assert main(["judge", str(exported[-1])]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] in ("decided", "pending")
    # Another preset, or other seats, on that log are refused in one line.
    for extra, says in ((["duel"], "preset 'duel' cannot go on in"), (["grab", "--players", "4"], "4 seats cannot go on")):
        with pytest.raises(SystemExit) as exit_:
            main(["referee", *extra, "--input", "sim", "--db", str(db), "--screenshots", str(tmp_path / "c")])
        assert exit_.value.code == 2
        err = capsys.readouterr().err.strip()
        assert says in err and "\n" not in err


def test_a_preset_opens_on_the_screen_with_keyboard_seats_and_logs_what_it_was_fed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The windowed path (SDL's dummy video driver stands in for the screen): the app is made
    on the input found, a key press starts a race, Esc asks first (a race is armed) and a second
    close leaves, printing the tally; the log then resumes that race called off, and the tally
    is kept."""
    from game.app import cmd_play
    from game.app.referee import race_app
    from game.app.referee.race_log import RaceLog
    from game.referee.presets import load_presets

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setattr(cmd_play, "display_available", lambda: True)
    ran: list[race_app.RaceApp] = []

    def run(app: race_app.RaceApp, **_: object) -> int:
        ran.append(app)
        app.draw()                               # the first frame: its keys take at once
        app.key(pygame.K_SPACE, True)
        app.draw()
        app.key(pygame.K_ESCAPE, True)
        assert app.asking and not app.quit       # a race is armed: "Leave the races?"
        app.draw()
        app.handle(pygame.event.Event(pygame.QUIT))   # the close box while it asks: leave
        return 1

    monkeypatch.setattr(race_app.RaceApp, "run", run)
    db = tmp_path / "duel.db"
    assert main(["referee", "duel", "--input", "keyboard", "--players", "2", "--db", str(db),
                 "--report", str(tmp_path / "duel.html")]) == 0
    out = capsys.readouterr().out
    assert "Reaction duel — keyboard input, 2 seats" in out and f"Report: {tmp_path / 'duel.html'}" in out
    assert "Reaction duel: 0 races decided; the race under way does not count\nWins: Ali 0, Bea 0\n" in out
    assert "Reaction duel" in (tmp_path / "duel.html").read_text(encoding="utf-8")
    (app,) = ran
    assert app.session.number == 1 and app.quit and app.frame.overflows == ()
    log = RaceLog.open(db, load_presets().get("duel"), 2, clock="monotonic", resolution_ns=1_000_000)
    assert log.called_off == 1 and log.session.number == 1
    log.close()


def test_cheating_moth_judge_rejudges_a_referee_record_under_its_preset_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The duel's false start loses before GO: the plain judge (cockroach rules) cannot say
    that, the referee record's own rules do."""
    out = _race(tmp_path, capsys, "duel", "--players", "2", "--rounds", "6", "--seed", "11",
                "--export", str(tmp_path / "races"))
    races = sorted((tmp_path / "races").glob("race-*.referee.json"))
    assert len(races) == len(out["exported"])
    verdicts = []
    for path in races:
        assert main(["judge", str(path)]) == 0
        verdicts.append(json.loads(capsys.readouterr().out))
    assert all(v["preset"] == "duel" and v["status"] == "decided" for v in verdicts)
    lost_early = [v for v in verdicts if v["false_starts"] and v["losers"]]
    assert lost_early, "seed 11 has a false start in its duel"
    assert lost_early[0]["losers"] == [lost_early[0]["false_starts"][0]["seat"]]
    assert main(["judge", str(races[0]), "--text"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split() == ["place", "seat", "reaction", "gap"]
    # A record whose rules were edited into nonsense: one line, exit 2.
    doc = json.loads(races[0].read_text(encoding="utf-8"))
    doc["referee"]["rules"]["outcome"] = "slowest-wins"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["judge", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "outcome" in err and "\n" not in err


def test_an_export_folder_that_cannot_take_the_races_is_said_before_they_are_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "races").mkdir()
    (tmp_path / "races" / "race-001.json").write_text("{}", encoding="utf-8")   # another session's
    with pytest.raises(SystemExit) as exit_:
        main(["referee", "grab", "--input", "sim", "--export", str(tmp_path / "races"),
              "--screenshots", str(tmp_path / "shots")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "already holds race-001.json" in err and "\n" not in err
    assert not list((tmp_path / "shots").glob("*.png"))           # nothing was played
