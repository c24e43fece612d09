"""After each controller step: what the screen keeps from it (notices, event sentences, the
photo finish, the verdict, the round's reveal, the penalty form's cursor)."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from ...controller import Notice, Stage, Step, Table
from ...messages import Message
from ...engine import EnterPenalty
from ...engine.events import (
    AccusationRejected, AccusationUpheld, PenaltyEntered, RoundScored, TurnStarted, Undone,
)
from .common import Scene
from .screen_name import screen_of
from .state import NOTICE_NS, EventLine, UiState, VerdictShown


def _about(told: tuple[Message, ...], *prefixes: str) -> tuple[Message, ...]:
    """What a result screen keeps saying: its own consequence, not what else the step said
    (a round ending on a race says "round over" too; the photo still says who gives whom)."""
    return tuple(m for m in told if m.key.startswith(prefixes)) or told


def observe(ui: UiState, before: Table, made: Step, now_ns: int) -> None:
    table = made.table
    names = tuple(table.name(p) for p in range(table.players))
    was = screen_of(Scene(before, ui, now_ns))
    told = tuple(effect.message for effect in made.effects if isinstance(effect, Notice))
    for message in told:
        ui.notices.append((message, now_ns + NOTICE_NS))
    said: list[EventLine] = []
    ui.prune(table, now_ns)
    if table.last_race is not before.last_race and table.race is None and table.last_race is not None:
        # First the photo finish, then what the race led to (a round's reveal after it). The
        # photo says what the race means (everyone gives the slowest a card…) while it is up.
        ui.show("photo", now_ns, race=table.races, said=_about(told, "race_", "cockroach_"))
        ui.photo_go_ns = before.race.go_t_ns if before.race is not None else None
    restored: int | None = None              # the penalty row an undo brought back
    for event in made.events:
        if isinstance(event, TurnStarted):
            continue
        said.append(EventLine(event, names))
        if isinstance(event, (AccusationUpheld, AccusationRejected)):
            tally = table.last_verdict
            ui.verdict = VerdictShown(isinstance(event, AccusationUpheld), names[event.guard],
                                      names[event.accused],
                                      *((tally.votes, tally.judges, tally.how) if tally is not None else ()))
            ui.results = [s for s in ui.results if s.screen != "verdict"]
            ui.show("verdict", now_ns, said=_about(told, "verdict_"))
        elif isinstance(event, RoundScored):
            ui.show("summary", now_ns, said=told)
            ui.penalty_form.clear()
        elif isinstance(event, PenaltyEntered):
            ui.penalty_form.pop(event.player, None)
        elif isinstance(event, Undone) and isinstance(event.command, EnterPenalty):
            # An undone row comes back with what was entered, not zeros: usually one figure
            # was wrong, and the group should not count the whole hand again.
            c = event.command
            ui.penalty_form[c.player] = [c.moths, c.actions, c.numbers]
            restored = c.player
    if table.stage not in (Stage.PLAY, Stage.SPIDER):
        ui.out_menu = False
        ui.out_confirm = None
    if table.stage not in (Stage.JOIN, Stage.OLDEST):
        ui.keyboard_seat = None   # the name keyboard belongs to seating: a new game's starts closed
    if table.stage is Stage.GAME_OVER and before.stage is not Stage.GAME_OVER:
        ui.game_over_at_ns = now_ns   # game over's panels take turns from here, standings first
    if table.stage is Stage.PENALTY:
        open_rows = [q for q, e in enumerate(table.game.entries) if e is None]
        if restored is not None:
            ui.penalty_row = restored
        elif open_rows and (ui.penalty_row not in open_rows or before.stage is not Stage.PENALTY):
            # Each round's entry starts on its first open row: last round's cursor is stale.
            ui.penalty_row, ui.penalty_col = open_rows[0], 0
    if table.stage is not before.stage:
        ui.pending_number = None
    if table.stage is not before.stage or table.game.active != before.game.active:
        ui.last_card = False  # "That was my last card" belongs to the turn it was set in
    # Each line remembers the screen it led to: once the screen changes, the ticker stops
    # showing it (the previous race's result under a new "Caught!" was stale).
    shown = screen_of(Scene(table, ui, now_ns))
    ui.lines.extend(replace(line, screen=shown) for line in said)
    if shown != was:
        # A new screen says only what this step told: an earlier action's notice under a
        # "Get ready" or the Caught! pick screen would answer a question nobody asked there.
        ui.notices = deque(((m, until) for m, until in ui.notices if until == now_ns + NOTICE_NS and m in told),
                           maxlen=ui.notices.maxlen)
