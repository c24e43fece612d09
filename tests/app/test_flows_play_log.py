"""Issue 13 point 9.7: ``play --log FILE`` in windowed play writes the game's log (every engine
command and event, JSON lines, as each step is taken), which ``cheating-moth replay`` accepts;
a resumed ``--db`` game's log holds the whole game; an unwritable FILE is refused before the
window opens. The window is SDL's dummy one, the seats a keyboard adapter on a chosen clock, and
the group's taps are fed to the app where its event loop would."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.app import cmd_play
from game.app.cli import main
from game.app.ui import adapters
from game.app.ui.adapters import Detected, KeyboardSeats
from game.app.ui.loop import App
from game.cards import Card
from game.codec import loads
from game.controller import inputs as console
from game.engine import CorrectHand, EnterPenalty, Phase, PlayCard, Undo
from game.inputs import Press, Release
from game.replay import replay

MS = 1_000_000


class ChosenClock(KeyboardSeats):
    """Keyboard seats whose clock moves 1 ms at every reading: the times are the test's."""

    def __init__(self) -> None:
        super().__init__(5)
        self.t_ns = 1_000 * MS

    def now_ns(self) -> int:
        self.t_ns += MS
        return self.t_ns


def _taps_to_round_end(app: App) -> None:
    """Ali, Bea and Cem sit; Ali is the oldest; Bea goes out; the rows, a correction, an undo."""
    clock, name = app.adapter.now_ns, app.adapter.clock
    for seat in range(3):
        app.feed(Press(seat, clock(), name))
        app.feed(Release(seat, clock(), name))
    app.feed(console.StartGame(clock()))
    app.feed(Press(0, clock(), name))
    app.feed(Release(0, clock(), name))
    for made in (console.Starter(Card.parse("number 3"), clock()), console.Play(Card.parse("number 4"), clock()),
                 console.Play(Card.parse("number 5"), clock()), console.Out(1, clock())):
        app.feed(made)


def _rest_of_round(app: App) -> None:
    clock = app.adapter.now_ns
    app.feed(console.Penalty(0, 0, 0, 7, clock()))
    app.feed(console.UndoLast(clock()))
    app.feed(console.Penalty(0, 0, 0, 7, clock()))
    app.feed(console.CorrectCount(2, 9, clock()))      # Cem drew a card nobody told the rig about
    app.feed(console.Penalty(2, 0, 1, 8, clock()))


@pytest.fixture
def window(monkeypatch: pytest.MonkeyPatch) -> list[App]:
    """A window where there is none (SDL's dummy driver), keyboard seats on a chosen clock, and
    App.run replaced by the group's taps. Returns the apps that ran."""
    ran: list[App] = []
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setattr(cmd_play, "display_available", lambda: True)
    monkeypatch.setattr(adapters, "detect", lambda requested: Detected(ChosenClock(), "keyboard"))

    def taps(app: App, **_: object) -> int:
        ran.append(app)
        (_taps_to_round_end if len(ran) == 1 else _rest_of_round)(app)
        return 0

    monkeypatch.setattr(App, "run", taps)
    return ran


def _records(path: Path) -> list[object]:
    return [loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_windowed_play_writes_the_games_log_and_replay_takes_it(
        window: list[App], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "5", "--log", str(log)]) == 0
    assert len(window) == 1
    assert f"Log written to {log}" in capsys.readouterr().err
    records = _records(log)
    assert PlayCard(0, Card.parse("number 4")) in records and PlayCard(1, Card.parse("number 5")) in records
    done = replay(log.read_text(encoding="utf-8").splitlines())
    assert done.state.phase is Phase.PENALTY_ENTRY and done.state.out == (1,)
    assert done.state == window[0].table.game


def test_a_resumed_games_log_holds_the_whole_game(
        window: list[App], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, first, second = tmp_path / "table.db", tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert main(["play", "--seed", "5", "--db", str(db), "--log", str(first)]) == 0
    assert main(["play", "--db", str(db), "--log", str(second)]) == 0
    assert len(window) == 2
    records = _records(second)
    assert _records(first) == records[:len(_records(first))]          # the resumed part first
    assert Undo() in records and CorrectHand(2, 9) in records and EnterPenalty(2, 0, 1, 8) in records
    done = replay(second.read_text(encoding="utf-8").splitlines())
    assert done.state == window[1].table.game
    assert done.state.phase is Phase.ROUND_SETUP and done.state.scores[0][2].cards == 9
    capsys.readouterr()


def test_a_log_that_cannot_be_written_is_refused_before_the_window(
        window: list[App], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--log", str(tmp_path / "missing" / "game.jsonl")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be written" in err and "missing" in err
    assert window == []
