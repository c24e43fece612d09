"""The working context of one controller step: the table as it changes, and what the step
produced (engine commands and events, effects). Shared by the flow modules."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..engine import Command, Event, apply
from ..errors import GameError
from ..messages import Message
from .effects import Effect, Notice, PlaySound
from .state import Table


class Ctx:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.effects: list[Effect] = []
        self.commands: list[Command] = []
        self.events: list[Event] = []
        #: A race is armed again in this step (a decided race taken back): it counts down first.
        self.rerun = False

    def update(self, **changes: Any) -> None:
        self.table = replace(self.table, **changes)

    def say(self, key: str, **params: str | int) -> None:
        self.effects.append(Notice(Message.of(key, **params)))

    def sound(self, name: str) -> None:
        self.effects.append(PlaySound(name))

    def engine(self, command: Command) -> bool:
        """Apply an engine command; a refused one becomes a notice and changes nothing."""
        try:
            game, events = apply(self.table.game, command)
        except GameError as exc:
            self.say("refused", reason=named(str(exc), self.table))
            self.sound("refused")
            return False
        self.table = replace(self.table, game=game)
        self.commands.append(command)
        self.events.extend(events)
        return True


_SEATS = re.compile(r"\bseats? (\d+(?:(?:, | and | or )\d+)*)")


def named(reason: str, table: Table) -> str:
    """The engine's refusal with each seat number (0-based, the log's words) replaced by the
    player's name: the table reads "Bea", never "seat 1". A number that is not a player stays."""

    def names(match: re.Match[str]) -> str:
        seats = re.findall(r"\d+", match.group(1))
        if any(int(s) >= table.players for s in seats):
            return match.group(0)
        return re.sub(r"\d+", lambda m: table.name(int(m.group(0))), match.group(1))

    return _SEATS.sub(names, reason)
