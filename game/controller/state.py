"""The controller's state: the engine's game plus what only the table knows (seats, the race
being run, the dispute being voted, buttons held down)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..engine import GameState
from ..inputs import Press, Release
from ..judge import RaceResult
from ..judge_live import EMPTY_LOG, EdgeLog, LiveJudge
from ..messages import Message
from ..race import RaceKind
from .reactions import RaceTimes
from .settings import TableSettings


class Stage(enum.Enum):
    JOIN = "join"                  # press your button to take a seat
    OLDEST = "oldest"              # the oldest player presses
    DEAL = "deal"                  # the guard deals and flips the starter
    PLAY = "play"                  # a turn: play (tap the card) or draw (press)
    SPIDER = "spider"              # the spider's recipient presses
    RACE = "race"                  # armed, GO, presses, judged
    PICK = "pick"                  # Caught!: the guard presses the accused's button
    VOTE = "vote"                  # the judges vote guilty by pressing
    PENALTY = "penalty"            # round over: cards left per hand
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class RaceRun:
    """One run of a race (a tie re-runs it with ``run`` + 1). Seats here are player indices."""

    number: int                        # races armed so far this session: seeds the fore-period
    kind: RaceKind
    active: int
    eligible: tuple[int, ...]
    armed_t_ns: int
    go_due_t_ns: int
    go_t_ns: int | None = None
    log: EdgeLog = EMPTY_LOG           # the edges before GO (from GO on, ``live`` keeps them)
    live: LiveJudge | None = None      # the race judged edge by edge, from GO on
    voided: tuple[int, ...] = ()
    result: RaceResult | None = None   # a decided cockroach race waiting for the card laid
    run: int = 1
    false_starts_heard: int = 0        # false starts already announced with a sound
    idle_reruns: int = 0               # runs in a row that nobody answered (a slap re-run)
    asking: bool = False               # nobody answered again: the table says re-run or call off
    ready_until_t_ns: int = 0          # a re-run: the screen counts down to this, then the fore-period

    @property
    def edges(self) -> tuple[Press | Release, ...]:
        """Every edge of this run so far, in the order they arrived (a copy: for the screen and
        the tests; the controller's steps only ever add to the log)."""
        return tuple(self.live.log if self.live is not None else self.log)


@dataclass(frozen=True, slots=True)
class DisputeRun:
    """Caught!: the guard picks, then the judges vote. Seats are player indices."""

    guard: int
    deadline_t_ns: int
    accused: int | None = None
    votes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class VerdictTally:
    """How the last dispute was decided, for the verdict screen: the table should see who was
    found guilty and why (a majority of the judges, silence counting as not guilty)."""

    guilty: bool
    accused: int
    guard: int
    votes: int          # judges who pressed for guilty
    judges: int
    how: str            # "vote" (the judges' buttons or the vote ran out), "plea" (the accused
                        # admitted), "ruled" (a Guilty / Not guilty tap on the screen)


@dataclass(frozen=True, slots=True)
class Table:
    """Everything the controller knows after the last input."""

    settings: TableSettings
    seed: int
    stage: Stage
    now_t_ns: int
    seated: tuple[int, ...]                     # physical seats, clockwise; player i sits at seated[i]
    game: GameState
    message: Message
    race: RaceRun | None = None
    dispute: DisputeRun | None = None
    held: tuple[tuple[int, int], ...] = ()      # (physical seat, press t_ns) of buttons held down
    consumed: tuple[int, ...] = ()              # physical seats whose current hold was already used
    pending_out: tuple[int, int] | None = None  # (player, deadline) waiting for confirmation
    last_race: RaceResult | None = None         # the latest decided race, for the photo finish
    last_race_kind: RaceKind | None = None
    races: int = 0                              # races armed this session
    last_verdict: VerdictTally | None = None    # the latest dispute's outcome, for the verdict screen
    # (player, cards): a penalty row counted more than the official count; the screen offers to
    # correct the count to it (a draw the rig was not told about) until the next console input.
    correction: tuple[int, int] | None = None
    names: tuple[tuple[int, str], ...] = ()     # (physical seat, name typed at join), by seat
    race_times: tuple[RaceTimes, ...] = ()      # this game's decided races (reactions.py)

    @property
    def players(self) -> int:
        return len(self.seated)

    def player_of(self, seat: int) -> int | None:
        """The player index of a physical seat, or None if nobody sits there."""
        try:
            return self.seated.index(seat)
        except ValueError:
            return None

    def name(self, player: int) -> str:
        return self.seat_name(self.seated[player])

    def seat_name(self, seat: int) -> str:
        """The name typed at ``seat`` (controller/names.py), else the seat's default name."""
        for typed_seat, name in self.names:
            if typed_seat == seat:
                return name
        return self.settings.name(seat)
