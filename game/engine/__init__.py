"""The rules engine: pure, standard library only, no clock reads, no global random.

``apply(state, command) -> (state, events)``; ``check`` raises what ``apply`` would;
``can_apply`` says yes or no; ``legal_commands`` lists what is allowed now.
"""

from __future__ import annotations

from .commands import (
    COMMAND_TYPES, Accuse, CancelDispute, CancelRace, Command, CorrectHand, DecideRace, DeclareOut, DrawCard,
    EnterPenalty, GiveCard, NewGame, PlayCard, StartRound, Undo, Verdict,
)
from .events import EVENT_TYPES, Event
from .legal import legal_commands
from .phases import ALLOWED
from .rules import apply, can_apply, check
from .state import HAND_SIZE, Dispute, GameState, Penalty, Phase, Race, Standing

__all__ = [
    "ALLOWED", "COMMAND_TYPES", "EVENT_TYPES", "HAND_SIZE", "Accuse", "CancelDispute", "CancelRace",
    "Command", "CorrectHand", "DecideRace", "DeclareOut", "Dispute", "DrawCard", "EnterPenalty", "Event",
    "GameState", "GiveCard", "NewGame", "Penalty", "Phase", "PlayCard", "Race", "Standing",
    "StartRound", "Undo", "Verdict", "apply", "can_apply", "check", "legal_commands",
]
