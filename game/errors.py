"""Errors of the core. Every message is one sentence naming the bad value and what would be valid.

Each error inherits from :class:`GameError` and from the builtin that fits, so callers can catch
either (the gpiozero habit).
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the core raises on bad input."""


class IllegalCommand(GameError, ValueError):
    """A command that the rules do not allow in this state; the state is unchanged."""


class WrongPhase(IllegalCommand):
    """The command is not one the current phase allows."""


class NotYourTurn(IllegalCommand):
    """The command names a player who may not act now."""


class CardDoesNotFit(IllegalCommand):
    """The card cannot go on the discard pile now."""


class BadPenalty(IllegalCommand):
    """A penalty entry that cannot be true given the official counts and the deck."""


class NothingToUndo(IllegalCommand):
    """Undo with no command before it."""


class BadDeck(GameError, ValueError):
    """A deck spread whose kinds, numbers or totals are wrong."""


class BadConfig(GameError, ValueError):
    """A malformed configuration value."""


class BadRecord(GameError, ValueError):
    """A command or event record (JSON) that cannot be decoded."""


class BadLogLine(GameError, ValueError):
    """A log line that cannot be decoded or applied; ``line`` is 1-based.

    ``state`` is the game state after the last good line and ``commands`` how many commands
    were applied before it, so a caller can show how far the log was good.
    """

    def __init__(self, line: int, problem: str, state: object, commands: int) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.state = state
        self.commands = commands


class BadInputEvent(GameError, ValueError):
    """A press, release or GO record with impossible fields."""


class BadRace(GameError, ValueError):
    """A race description the judge cannot judge (unknown seat, missing GO time, ...)."""


class BadTableLog(GameError, ValueError):
    """A table log (SQLite) that cannot be resumed: another version, another game, or damaged."""
