"""After each controller step: what the screen keeps from it (notices, event sentences, the
photo finish, the verdict, the round's reveal, the penalty form's cursor)."""

from __future__ import annotations

from ...controller import Notice, Stage, Step, Table
from ...engine.events import (
    AccusationRejected, AccusationUpheld, PenaltyEntered, RoundScored, TurnStarted,
)
from .state import NOTICE_NS, PHOTO_NS, SUMMARY_NS, VERDICT_NS, EventLine, UiState, VerdictShown


def observe(ui: UiState, before: Table, made: Step, now_ns: int) -> None:
    table = made.table
    names = tuple(table.name(p) for p in range(table.players))
    for effect in made.effects:
        if isinstance(effect, Notice):
            ui.notices.append((effect.message, now_ns + NOTICE_NS))
    for event in made.events:
        if isinstance(event, TurnStarted):
            continue
        ui.lines.append(EventLine(event, names))
        if isinstance(event, (AccusationUpheld, AccusationRejected)):
            ui.verdict = VerdictShown(isinstance(event, AccusationUpheld), names[event.guard],
                                      names[event.accused], now_ns + VERDICT_NS)
        elif isinstance(event, RoundScored):
            ui.summary_until_ns = now_ns + SUMMARY_NS
            ui.penalty_form.clear()
        elif isinstance(event, PenaltyEntered):
            ui.penalty_form.pop(event.player, None)
    if table.last_race is not before.last_race and table.race is None and table.last_race is not None:
        ui.photo_until_ns = now_ns + PHOTO_NS
        ui.photo_go_ns = before.race.go_t_ns if before.race is not None else None
    if table.stage not in (Stage.PLAY, Stage.SPIDER):
        ui.out_menu = False
    if table.stage is Stage.PENALTY:
        open_rows = [q for q, e in enumerate(table.game.entries) if e is None]
        if open_rows and ui.penalty_row not in open_rows:
            ui.penalty_row = open_rows[0]
    if table.stage is not before.stage:
        ui.pending_number = None
    if table.stage is not before.stage or table.game.active != before.game.active:
        ui.last_card = False  # "That was my last card" belongs to the turn it was set in
