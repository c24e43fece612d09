"""Re-apply a JSON-lines log of commands (and, optionally, the events they caused).

Event lines, where present, must be exactly what the rules produce for the command before
them, so a log that was edited or written by a different rule set is caught at its first
wrong line. A bad line stops the replay: nothing after it is applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .codec import Record, is_command, loads
from .engine import Command, Event, GameState, apply
from .errors import BadLogLine, GameError


@dataclass(frozen=True, slots=True)
class Replayed:
    state: GameState
    commands: int
    events: int


def replay(lines: Iterable[str]) -> Replayed:
    """Apply every command of a log from a fresh game; raise :class:`BadLogLine` at the first bad line."""
    state = GameState()
    expected: list[Event] = []
    commands = events = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record: Record = loads(line)
        except GameError as exc:
            raise BadLogLine(number, str(exc), state, commands) from None
        if is_command(record):
            command: Command = record  # type: ignore[assignment]
            try:
                state, produced = apply(state, command)
            except GameError as exc:
                raise BadLogLine(number, f"{type(command).__name__} cannot be applied: {exc}",
                                 state, commands) from None
            expected = list(produced)
            commands += 1
            continue
        if not expected:
            raise BadLogLine(number, f"event {type(record).__name__} does not follow from the "
                             "command before it: the rules produced no further event", state, commands)
        want = expected.pop(0)
        if record != want:
            raise BadLogLine(number, f"event {record!r} is not what the rules produce here: "
                             f"expected {want!r}", state, commands)
        events += 1
    return Replayed(state, commands, events)
