"""The one table of which commands each phase allows."""

from __future__ import annotations

from collections.abc import Mapping

from .commands import (
    Accuse, CancelDispute, CancelRace, Command, CorrectHand, DecideRace, DeclareOut, DrawCard,
    EnterPenalty, GiveCard, NewGame, PlayCard, StartRound, Undo, Verdict,
)
from .state import Phase

ALLOWED: Mapping[Phase, tuple[type[Command], ...]] = {
    Phase.IDLE: (NewGame, Undo),
    Phase.ROUND_SETUP: (StartRound, Undo),
    Phase.TURN: (PlayCard, DrawCard, Accuse, DeclareOut, Undo),
    Phase.SPIDER_GIFT: (GiveCard, Accuse, DeclareOut, Undo),
    # A race is left only by its decision or a cancel (or undoing the card that started it).
    Phase.RACE: (DecideRace, CancelRace, Undo),
    # Nobody may cheat, play or draw while an accusation is resolved.
    Phase.DISPUTE: (Verdict, CancelDispute, Undo),
    # A count the table forgot to raise (a draw not told) shows only here, at round end.
    Phase.PENALTY_ENTRY: (EnterPenalty, CorrectHand, Undo),
    Phase.GAME_OVER: (NewGame, Undo),
}


def allowed_names(phase: Phase) -> str:
    return ", ".join(t.__name__ for t in ALLOWED[phase])
