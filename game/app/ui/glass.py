"""What is on the glass, and so whose each input is.

A person reacts to the screen they see, not to the state the controller has moved on to since.
So the app keeps a short history of the screens it presented (when each came up, on the input
adapter's clock) and hands every input to the screen that was on the glass when it happened:

- taps and keys go to the frame last presented, and to nothing while a screen is still
  settling (``settle_ns`` after it came up: a tap aimed at the screen before must not land on
  the new one, whose buttons are drawn dimmed meanwhile);
- a seat button's or the Caught! button's press is placed by its own hardware stamp: one made
  while an earlier screen was up, or while this one settled, is dropped (with its release);
  on a result screen (photo finish, verdict, round's reveal) a press is only Continue; on the
  staff gate and the settings it is nothing; elsewhere it is the game's. A race owns every
  edge while it runs: the judge needs them all, and a false start is judged on GO, not on
  what the screen showed.

The model is Tuxemon's state stack: each event to the state on top, and to no other.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum

from ...controller import Table
from ...inputs import CaughtPress, CaughtRelease, Press, Release
from .state import CONTINUE_AFTER_NS, RESULT_SCREENS, UiState

MS = 1_000_000
#: How long a screen just shown ignores taps and keys (a setting: ``--settle-ms``).
SETTLE_NS = 300 * MS
#: The settle time's bounds, for the option's and the config's error messages.
SETTLE_RANGE_MS = (0, 2_000)
#: Screens on which a seat button or Caught! means nothing: the game under them is not shown.
QUIET_SCREENS = frozenset({"pin", "staff", "staff-timings", "staff-deck", "staff-confirm", "settings",
                           "quit", "undo-race", "resume"})
#: The Caught! button's key in ``Glass.held`` (seats are 0…N-1).
CAUGHT = -1

Edge = Press | Release | CaughtPress | CaughtRelease


class Owner(Enum):
    """Where a button's press went, so that its release goes there too."""

    GAME = "game"           # the controller has it (its release must follow)
    SCREEN = "screen"       # the screen used it (Continue) or dropped it: the release is dropped


@dataclass(frozen=True, slots=True)
class Presented:
    """A screen as it came onto the glass. ``identity`` changes when what its buttons mean
    changes (another screen, another turn, another race), not when a timer or a notice does."""

    serial: int
    screen: str
    identity: tuple[object, ...]
    since_ns: int


class Glass:
    """The screens presented lately and the buttons held; see the module's docstring."""

    def __init__(self, settle_ns: int = SETTLE_NS) -> None:
        self.settle_ns = settle_ns
        self.shown: deque[Presented] = deque(maxlen=32)
        self.held: dict[int, Owner] = {}

    @property
    def top(self) -> Presented | None:
        return self.shown[-1] if self.shown else None

    def present(self, screen: str, identity: tuple[object, ...], now_ns: int) -> Presented:
        """The frame about to go on the glass; a new screen starts its settle time."""
        top = self.top
        if top is not None and top.identity == identity:
            return top
        shown = Presented((top.serial + 1) if top else 1, screen, identity, now_ns)
        self.shown.append(shown)
        return shown

    def live(self, now_ns: int) -> bool:
        """Whether the screen on the glass takes taps and keys yet (it has settled)."""
        top = self.top
        return top is None or now_ns - top.since_ns >= self.settle_ns

    def at(self, t_ns: int) -> Presented | None:
        """The screen that was on the glass at ``t_ns`` (None: before any we remember)."""
        for shown in reversed(self.shown):
            if shown.since_ns <= t_ns:
                return shown
        return None

    def press(self, edge: Press | CaughtPress, racing: bool) -> str:
        """Where a button's press goes: "game", "continue" (a result screen's Continue) or
        "drop". ``racing``: a race is armed or running, and takes every edge."""
        key = edge.player if isinstance(edge, Press) else CAUGHT
        verdict = self._place(edge.t_ns, racing)
        self.held[key] = Owner.GAME if verdict == "game" else Owner.SCREEN
        return verdict

    def release(self, edge: Release | CaughtRelease) -> bool:
        """True when a release goes to the game: its press did (or it was never seen here, as
        after a restart with the button held)."""
        key = edge.player if isinstance(edge, Release) else CAUGHT
        return self.held.pop(key, Owner.GAME) is Owner.GAME

    def _place(self, t_ns: int, racing: bool) -> str:
        if racing:
            return "game"
        top = self.top
        shown = self.at(t_ns)
        if top is None:
            return "game"              # nothing presented yet (a headless table)
        if shown is None or shown.serial != top.serial:
            return "drop"              # pressed at a screen that has gone since
        up_ns = t_ns - shown.since_ns
        if shown.screen in RESULT_SCREENS:
            # A slap's late bounce or a second slap must not wipe the photo finish unseen.
            return "continue" if up_ns >= max(self.settle_ns, CONTINUE_AFTER_NS) else "drop"
        if up_ns < self.settle_ns or shown.screen in QUIET_SCREENS:
            return "drop"
        return "game"


def identity(screen: str, table: Table, ui: UiState, now_ns: int) -> tuple[object, ...]:
    """What a screen's buttons mean: the screen, and the facts of the table that change what
    the same button does (whose turn, which race, which result, which penalty row...)."""
    g = table.game
    top = ui.result(table, now_ns)
    race = table.race
    dispute = table.dispute
    return (screen, table.stage, g.round, g.active, g.guard, len(g.scores), table.races,
            None if top is None else (top.screen, top.at_ns),
            None if race is None else (race.run, race.result is not None, race.asking),
            None if dispute is None else dispute.accused,
            sum(e is not None for e in g.entries), ui.out_confirm, ui.keyboard_seat, ui.staff_page,
            ui.pin_open, ui.settings_open, ui.quit_ask, ui.resume_ask)
