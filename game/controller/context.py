"""The working context of one controller step: the table as it changes, and what the step
produced (engine commands and events, effects). Shared by the flow modules."""

from __future__ import annotations

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
            self.say("refused", reason=str(exc))
            self.sound("refused")
            return False
        self.table = replace(self.table, game=game)
        self.commands.append(command)
        self.events.extend(events)
        return True
