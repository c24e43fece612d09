"""Resume a table from its logged steps: replay every input and check it does the same again.

A step that produces other commands or events than the log recorded means the log was written
by a different version of the rules or the controller; it is refused, never misread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..engine import Command, Event
from ..errors import BadTableLog
from .inputs import Input
from .settings import TableSettings
from .state import Table
from .table import Step, new_table, step


@dataclass(frozen=True, slots=True)
class LoggedStep:
    """One input as logged, with the engine commands and events it caused."""

    input: Input
    commands: tuple[Command, ...]
    events: tuple[Event, ...]


def resume(settings: TableSettings, seed: int, t0_ns: int, steps: Iterable[LoggedStep]) -> Table:
    """The table after replaying ``steps`` from a new table; raises :class:`BadTableLog`."""
    table = new_table(settings, seed, t0_ns)
    for number, logged in enumerate(steps, start=1):
        made: Step = step(table, logged.input)
        if made.commands != logged.commands or made.events != logged.events:
            raise BadTableLog(
                f"step {number} of the log ({type(logged.input).__name__}) recorded "
                f"{len(logged.events)} events but this version produces {len(made.events)} "
                f"different ones: the log was written by another version of the rig; "
                f"finish it with that version or start a new game")
        table = made.table
    return table
