"""Commands: what someone at the table does or tells the rig (verbs, frozen records).

Seats are 0-based and clockwise; "left" is the next seat up. Cards are only named where the
table sees them (a card laid on the discard pile); hands stay hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from ..variants import Rules


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start a game for ``players`` seats; ``oldest`` is the guard of round 1."""

    players: int
    oldest: int
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True, slots=True)
class StartRound:
    """The guard has dealt 8 cards each and flipped ``starter`` onto the discard pile."""

    starter: Card


@dataclass(frozen=True, slots=True)
class PlayCard:
    """The active player lays ``card`` on the discard pile.

    ``last_card``: the table says it was the player's last card (they cheated earlier, so the
    official count cannot tell). The round ends at once and the card's action does not happen.
    Logs written before this field existed omit it (the codec reads it as False).
    """

    player: int
    card: Card
    last_card: bool = field(default=False, metadata={"omit_if_default": True})


@dataclass(frozen=True, slots=True)
class DrawCard:
    """The active player draws one card instead of playing; the turn ends."""

    player: int


@dataclass(frozen=True, slots=True)
class GiveCard:
    """Spider: ``player`` gives one card to ``recipient``.

    ``recipient`` None means the giver holds nothing they may give (only moths), so no card moves.
    """

    player: int
    recipient: int | None


@dataclass(frozen=True, slots=True)
class DecideRace:
    """The race judge's decision for the race in progress.

    ``ranking``: seats with a valid press, fastest first. ``tied``: seats tied for the deciding
    place (reported). ``false_starts``: seats that started early. Slap: ``loser`` is the seat that
    receives a card from everyone. Cockroach: ``winner`` laid ``card`` (None: no match);
    ``voided`` lists faster seats the table voided (no matching card), so the winner is the
    first ranked seat not voided, or one of the seats tied for that place.
    """

    ranking: tuple[int, ...]
    winner: int | None = None
    loser: int | None = None
    card: Card | None = None
    tied: tuple[int, ...] = ()
    false_starts: tuple[int, ...] = ()
    voided: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CancelRace:
    """Abandon the race in progress: no penalty, no card laid; the turn passes on."""


@dataclass(frozen=True, slots=True)
class Accuse:
    """The guard calls "Caught!" on ``accused``."""

    guard: int
    accused: int


@dataclass(frozen=True, slots=True)
class Verdict:
    """The table's verdict on the accusation in progress."""

    guilty: bool


@dataclass(frozen=True, slots=True)
class CancelDispute:
    """Drop the accusation in progress without a verdict."""


@dataclass(frozen=True, slots=True)
class DeclareOut:
    """``player`` has no cards left: the round ends."""

    player: int


@dataclass(frozen=True, slots=True)
class EnterPenalty:
    """Cards left in ``player``'s hand at round end, by penalty class."""

    player: int
    moths: int
    actions: int
    numbers: int


@dataclass(frozen=True, slots=True)
class CorrectHand:
    """The table forgot to tell the rig about draws: ``player``'s official count becomes
    ``cards`` (more than it was), the cards taken from the draw pile as those draws took them.

    Only at round end, where it shows: a penalty row counting more cards than the official
    count is otherwise refused forever, since cheating only ever makes a hand smaller.
    """

    player: int
    cards: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last command."""


Command = (
    NewGame | StartRound | PlayCard | DrawCard | GiveCard | DecideRace | CancelRace | Accuse
    | Verdict | CancelDispute | DeclareOut | EnterPenalty | CorrectHand | Undo
)

COMMAND_TYPES: tuple[type[Command], ...] = (
    NewGame, StartRound, PlayCard, DrawCard, GiveCard, DecideRace, CancelRace, Accuse,
    Verdict, CancelDispute, DeclareOut, EnterPenalty, CorrectHand, Undo,
)
