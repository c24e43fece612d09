"""Events: what happened, in the past tense (frozen records the log, screen and sounds follow)."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..race import RaceKind
from ..variants import Rules
from .commands import Command


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: int
    oldest: int
    rules: Rules


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    guard: int
    hand_size: int
    draw_pile: int


@dataclass(frozen=True, slots=True)
class StarterFlipped:
    """The first card of the discard pile; an action card's action is not carried out."""

    card: Card


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardDrawn:
    player: int


@dataclass(frozen=True, slots=True)
class NothingToDraw:
    """``player`` had to draw but the draw and discard piles hold no card to draw."""

    player: int


@dataclass(frozen=True, slots=True)
class DiscardReshuffled:
    """The discard pile but its top became the new draw pile of ``cards`` cards."""

    cards: int


@dataclass(frozen=True, slots=True)
class GiftDue:
    """Spider: ``player`` must now give one card (never a moth) to another player."""

    player: int


@dataclass(frozen=True, slots=True)
class CardGiven:
    giver: int
    recipient: int


@dataclass(frozen=True, slots=True)
class GiftSkipped:
    """The giver held no card they may give."""

    player: int


@dataclass(frozen=True, slots=True)
class RaceArmed:
    kind: RaceKind
    actor: int
    eligible: tuple[int, ...]
    number: int


@dataclass(frozen=True, slots=True)
class RaceDecided:
    kind: RaceKind
    ranking: tuple[int, ...]
    winner: int | None
    loser: int | None
    card: Card | None
    tied: tuple[int, ...]
    false_starts: tuple[int, ...]
    voided: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RaceCancelled:
    kind: RaceKind


@dataclass(frozen=True, slots=True)
class Accused:
    guard: int
    accused: int


@dataclass(frozen=True, slots=True)
class AccusationUpheld:
    """Caught for real: the accused takes the card back, gets one from the guard, becomes guard."""

    guard: int
    accused: int


@dataclass(frozen=True, slots=True)
class AccusationRejected:
    """Wrong accusation: the guard draws one card and stays guard."""

    guard: int
    accused: int


@dataclass(frozen=True, slots=True)
class DisputeCancelled:
    guard: int
    accused: int


@dataclass(frozen=True, slots=True)
class GuardChanged:
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """``out``: the seats with no cards left (usually one)."""

    round: int
    out: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PenaltyEntered:
    player: int
    moths: int
    actions: int
    numbers: int
    points: int


@dataclass(frozen=True, slots=True)
class HandCorrected:
    """``player``'s official count went from ``old`` to ``new``: draws the rig was not told of."""

    player: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Undone:
    command: Command


Event = (
    GameStarted | RoundStarted | StarterFlipped | TurnStarted | CardPlayed | CardDrawn
    | NothingToDraw | DiscardReshuffled | GiftDue | CardGiven | GiftSkipped | RaceArmed
    | RaceDecided | RaceCancelled | Accused | AccusationUpheld | AccusationRejected
    | DisputeCancelled | GuardChanged | RoundEnded | PenaltyEntered | HandCorrected | RoundScored | GameOver
    | Undone
)

EVENT_TYPES: tuple[type[Event], ...] = (
    GameStarted, RoundStarted, StarterFlipped, TurnStarted, CardPlayed, CardDrawn,
    NothingToDraw, DiscardReshuffled, GiftDue, CardGiven, GiftSkipped, RaceArmed,
    RaceDecided, RaceCancelled, Accused, AccusationUpheld, AccusationRejected,
    DisputeCancelled, GuardChanged, RoundEnded, PenaltyEntered, HandCorrected, RoundScored, GameOver,
    Undone,
)
