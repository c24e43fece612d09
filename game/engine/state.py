"""The public state of a game: what the table can know, never the hidden hands."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..cards import Card, Kind
from ..race import RaceKind
from ..variants import Rules
from .commands import Command

#: Cards dealt to each player at the start of a round.
HAND_SIZE = 8
MIN_PLAYERS = 3
MAX_PLAYERS = 5


class Phase(enum.Enum):
    """Where the game is; :mod:`game.engine.phases` lists the commands each allows."""

    IDLE = "idle"                    # no game yet
    ROUND_SETUP = "round-setup"      # the guard deals and flips the starter
    TURN = "turn"                    # the active player plays or draws
    SPIDER_GIFT = "spider-gift"      # a spider was played: its player gives a card
    RACE = "race"                    # a cockroach or mosquito race is running
    DISPUTE = "dispute"              # "Caught!": nothing but a verdict or a cancel
    PENALTY_ENTRY = "penalty-entry"  # round over: cards left in each hand are entered
    GAME_OVER = "game-over"

    # Members are singletons compared by identity, so hashing by identity is consistent and,
    # unlike Enum's Python-level __hash__, runs at C speed (the engine looks phases up per command).
    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class Race:
    """A race in progress. ``anchor``: the turn passes to the left of this seat afterwards."""

    kind: RaceKind
    actor: int
    eligible: tuple[int, ...]
    number: int
    anchor: int


@dataclass(frozen=True, slots=True)
class Dispute:
    """An accusation in progress; ``resume`` is the phase the table returns to."""

    guard: int
    accused: int
    resume: Phase


@dataclass(frozen=True, slots=True)
class Penalty:
    """Cards left in one hand at round end, by penalty class."""

    moths: int = 0
    actions: int = 0
    numbers: int = 0

    @property
    def points(self) -> int:
        return (self.moths * Kind.MOTH.penalty + self.actions * Kind.ANT.penalty
                + self.numbers * Kind.NUMBER.penalty)

    @property
    def cards(self) -> int:
        return self.moths + self.actions + self.numbers


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    total: int
    moths: int
    place: int  # 1 = winner; tied players share a place


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the rig knows about the game, after the last command.

    ``hands`` are *official* counts (deals, draws, plays, gifts): cheating is invisible, so a
    player's real hand can be smaller. ``previous`` is the state before the last command (for
    undo) and ``command`` the command that made this state; both are left out of comparisons.
    """

    phase: Phase = Phase.IDLE
    players: int = 0
    oldest: int = 0
    rules: Rules = field(default_factory=Rules)
    round: int = 0
    guard: int = 0
    guard_changed: bool = False       # the Guard Bug changed hands during this round
    active: int = 0
    hands: tuple[int, ...] = ()
    draw_pile: int = 0
    discard: tuple[Card, ...] = ()
    race: Race | None = None
    dispute: Dispute | None = None
    gift_from: int | None = None
    anchor: int = 0                   # a pending spider gift passes the turn left of this seat
    out: tuple[int, ...] = ()
    # Per seat: has played, laid or given a card this round. A hand empties only that way
    # (cheating never takes the last card), so only such a player can be out of cards.
    shed: tuple[bool, ...] = ()
    entries: tuple[Penalty | None, ...] = ()
    scores: tuple[tuple[Penalty, ...], ...] = ()   # one row per finished round
    previous: GameState | None = field(default=None, compare=False, repr=False)
    command: Command | None = field(default=None, compare=False, repr=False)  # made this state

    @property
    def discard_top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def seats(self) -> range:
        return range(self.players)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(row[p].points for row in self.scores) for p in self.seats)

    @property
    def moths_taken(self) -> tuple[int, ...]:
        return tuple(sum(row[p].moths for row in self.scores) for p in self.seats)

    def standings(self) -> tuple[Standing, ...]:
        """Seats sorted best first (lowest total), with places per the top-tie variant."""
        from .scoring import standings

        return standings(self)
