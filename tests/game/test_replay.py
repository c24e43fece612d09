"""Replaying a log: same standings as the game itself; a bad line stops it and is named."""

from __future__ import annotations

import json

import pytest

from game.codec import dumps, is_command
from game.errors import BadLogLine
from game.replay import replay
from game.sim import simulate_game


def _log_lines(seed: int = 11, players: int = 4, events: bool = True) -> list[str]:
    log = simulate_game(players, seed, keep_log=True).log
    return [dumps(r) for r in log if events or is_command(r)]


def test_a_replay_reaches_the_games_standings() -> None:
    report = simulate_game(4, 11, keep_log=True)
    result = replay(dumps(r) for r in report.log)
    assert result.state.totals == report.totals
    assert result.commands == sum(1 for r in report.log if is_command(r))
    assert result.events == len(report.log) - result.commands


def test_a_log_of_commands_alone_replays_too() -> None:
    full = replay(_log_lines())
    bare = replay(_log_lines(events=False))
    assert bare.state == full.state and bare.events == 0


def test_blank_lines_are_skipped() -> None:
    lines = _log_lines()
    assert replay(["", *lines, "   "]).state == replay(lines).state


def test_a_bad_line_stops_the_replay_with_its_number() -> None:
    lines = _log_lines(events=False)
    lines.insert(5, '{"type": "DrawCard", "player": "x"}')
    with pytest.raises(BadLogLine, match=r"^line 6: DrawCard.player is 'x': expected a whole number") as info:
        replay(lines)
    # Nothing after the bad line was applied: the state is the one after line 5.
    assert info.value.commands == 5
    assert info.value.state == replay(lines[:5]).state


def test_an_illegal_command_is_named_with_its_line() -> None:
    lines = _log_lines(events=False)[:3]
    lines.append('{"type": "StartRound", "starter": "ant 3"}')
    with pytest.raises(BadLogLine, match=r"line 4: StartRound cannot be applied: StartRound is not "
                                         r"allowed in phase 'turn'"):
        replay(lines)


def test_an_event_that_the_rules_did_not_produce_is_caught() -> None:
    lines = _log_lines()
    i = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "CardDrawn")
    record = json.loads(lines[i])
    record["player"] = (record["player"] + 1) % 4
    lines[i] = json.dumps(record)
    with pytest.raises(BadLogLine, match=rf"line {i + 1}: event CardDrawn\(player=\d\) is not what the "
                                         r"rules produce here: expected CardDrawn"):
        replay(lines)


def test_an_extra_event_is_caught() -> None:
    lines = _log_lines()[:2]  # NewGame and its GameStarted event
    lines.append(lines[1])
    with pytest.raises(BadLogLine, match=r"line 3: event GameStarted does not follow from the command"):
        replay(lines)
