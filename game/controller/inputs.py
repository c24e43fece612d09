"""What reaches the controller: button edges and GO from the input adapter, ticks of time, and
console taps (touch or keys). Every input carries ``t_ns`` on the table's clock."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from ..inputs import CaughtPress, CaughtRelease, Go, Press, Release
from ..variants import Rules


@dataclass(frozen=True, slots=True)
class Tick:
    """Time has passed: windows and race deadlines are checked against ``t_ns``."""

    t_ns: int


# --- console taps (touch, mouse or keys) --------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartGame:
    """Start with the seated players (3 to 5)."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class Configure:
    """New house rules; only between games."""

    rules: Rules
    t_ns: int


@dataclass(frozen=True, slots=True)
class Starter:
    """The card the guard flipped to start the discard pile."""

    card: Card
    t_ns: int


@dataclass(frozen=True, slots=True)
class Play:
    """The active player laid ``card``; ``last_card``: the table says it was their last card
    (the round ends, its action does not happen). Older table logs omit it: False."""

    card: Card
    t_ns: int
    last_card: bool = field(default=False, metadata={"omit_if_default": True})


@dataclass(frozen=True, slots=True)
class Draw:
    """The active player drew a card."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class GiveTo:
    """Spider: the giver gives to ``recipient`` (player index); None: only moths, nothing to give."""

    recipient: int | None
    t_ns: int


@dataclass(frozen=True, slots=True)
class Out:
    """``player`` has no cards left."""

    player: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class Laid:
    """The cockroach race winner laid ``card``."""

    card: Card
    t_ns: int


@dataclass(frozen=True, slots=True)
class Void:
    """The cockroach race winner has no matching card: the next in line wins."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class CallCaught:
    """``by`` calls Caught! from the console (only the guard's call counts)."""

    by: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class Accuse:
    """The guard accuses ``accused`` (console instead of pressing the accused's button)."""

    accused: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class Rule:
    """The console overrides the vote: guilty or not."""

    guilty: bool
    t_ns: int


@dataclass(frozen=True, slots=True)
class Cancel:
    """Drop the dispute or call off the race in progress.

    ``take_back``: the screen's Cancel of a race takes back the card that started it (the
    rules complete an action before the turn passes, so a race not run is a card not played:
    it goes back to the hand and the same player plays again). Without it (older table logs,
    the simulated table) the race is called off and the card stays, as before."""

    t_ns: int
    take_back: bool = field(default=False, metadata={"omit_if_default": True})


@dataclass(frozen=True, slots=True)
class Rearm:
    """Run the race in progress again from arming: its presses so far are void. For an input
    adapter that lost presses (a board unplugged mid-race) or an app restarted mid-race."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """Cards left in ``player``'s hand at round end."""

    player: int
    moths: int
    actions: int
    numbers: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class CorrectCount:
    """Round end: ``player`` drew cards the rig was not told about; their official count
    becomes ``cards`` (the screen offers it after a row counting more than the count)."""

    player: int
    cards: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class UndoLast:
    """Take back the last game command."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class Name:
    """Seat ``seat`` (physical) typed ``text`` as its player's name at the join screen; None:
    back to the seat's default name. Checked by the controller (controller/names.py)."""

    seat: int
    text: str | None
    t_ns: int


@dataclass(frozen=True, slots=True)
class NewGame:
    """After game over (or to abandon a game): back to seating."""

    t_ns: int


CONSOLE_TYPES = (StartGame, Configure, Starter, Play, Draw, GiveTo, Out, Laid, Void, CallCaught,
                 Accuse, Rule, Cancel, Rearm, Penalty, UndoLast, NewGame, Name, CorrectCount)
Console = (StartGame | Configure | Starter | Play | Draw | GiveTo | Out | Laid | Void | CallCaught
           | Accuse | Rule | Cancel | Rearm | Penalty | UndoLast | NewGame | Name
           | CorrectCount)
Hardware = Press | Release | CaughtPress | CaughtRelease | Go
INPUT_TYPES = (Press, Release, CaughtPress, CaughtRelease, Go, Tick, *CONSOLE_TYPES)
Input = Hardware | Tick | Console
