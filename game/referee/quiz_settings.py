"""How a quiz-show lockout behaves: seats, teams, timers, points. Fixed for a session.

Points are signed amounts added to a seat's score (``wrong_points=-5`` takes five off), so a
penalty and a shortcut read the same way on the screen and in the log.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.errors import BadConfig
from game.judge import DEFAULT_LOCKOUT_NS, DEFAULT_SETTLE_NS

MS = 1_000_000
MIN_SEATS, MAX_SEATS = 2, 8


class QuizMode(enum.Enum):
    """``INDIVIDUAL``: every seat rings in for itself (teams, if any, only add up points).
    ``FIRST_PER_TEAM``: the first of each team rings in; the rest of that team is locked out."""

    INDIVIDUAL = "individual"
    FIRST_PER_TEAM = "first-per-team"


@dataclass(frozen=True, slots=True)
class QuizSettings:
    """A quiz's rules. Constructing one validates it, so settings that exist can be played."""

    seats: int = 4
    #: (seat, team name) for every seat, or () for no teams. A mapping is accepted too and
    #: kept as pairs sorted by seat, so equal settings compare and hash equal.
    teams: tuple[tuple[int, str], ...] = ()
    mode: QuizMode = QuizMode.INDIVIDUAL
    buzz_window_ms: int = 0        # ring-ins are taken this long after arming; 0: no limit
    answer_ms: int = 0             # the seat in front answers within this, else it is wrong; 0: no limit
    right_points: int = 10
    wrong_points: int = 0          # added on a wrong answer: 0 or a penalty below 0
    early_points: int = 0          # added on a seat's first early press of a question: 0 or below
    early_lockout: bool = False    # an early press locks the seat out of that question
    shortcuts: tuple[int, ...] = (10, -5)   # Score(points) may credit only these
    clock: str = "monotonic"       # the input adapter's clock domain; edges of another are refused
    resolution_ns: int = 100_000   # ring-ins closer than this are a tie (the adapter's resolution)
    settle_ns: int = DEFAULT_SETTLE_NS   # the adapter delivers every edge within this of its stamp
    bounce_ns: int = DEFAULT_LOCKOUT_NS  # a seat's edges this close to its last counted edge are bounce

    def __post_init__(self) -> None:
        teams: object = self.teams
        if isinstance(teams, dict):
            teams = tuple(teams.items())
        if isinstance(teams, (tuple, list)):
            # Sorted pairs: the same teams given in another order are the same settings.
            try:
                teams = tuple(sorted((tuple(pair) for pair in teams), key=lambda pair: pair[0]))
            except (TypeError, IndexError):
                pass  # _check_teams names the malformed value
        object.__setattr__(self, "teams", teams)
        _check_numbers(self)
        _check_teams(self)
        _check_points(self)

    @property
    def buzz_window_ns(self) -> int:
        return self.buzz_window_ms * MS

    @property
    def answer_ns(self) -> int:
        return self.answer_ms * MS

    def team_of(self, seat: int) -> str | None:
        """The team ``seat`` plays for, or None when the quiz has no teams."""
        for s, team in self.teams:
            if s == seat:
                return team
        return None

    @property
    def team_names(self) -> tuple[str, ...]:
        """Every team once, in the order of its lowest seat."""
        names: list[str] = []
        for _, team in self.teams:
            if team not in names:
                names.append(team)
        return tuple(names)


def _is_int(value: object) -> bool:
    return type(value) is int  # bool is an int subclass; True as a count is always a mistake


def _check_numbers(s: QuizSettings) -> None:
    if not _is_int(s.seats) or not MIN_SEATS <= s.seats <= MAX_SEATS:
        raise BadConfig(f"seats {s.seats!r} is not valid: a quiz has {MIN_SEATS} to {MAX_SEATS} seats")
    if not isinstance(s.mode, QuizMode):
        raise BadConfig(f"mode {s.mode!r} is not valid: use QuizMode.INDIVIDUAL or QuizMode.FIRST_PER_TEAM")
    for name, minimum in (("buzz_window_ms", 0), ("answer_ms", 0), ("resolution_ns", 1),
                          ("settle_ns", 0), ("bounce_ns", 0)):
        value = getattr(s, name)
        if not _is_int(value) or value < minimum:
            raise BadConfig(f"{name} {value!r} is not valid: use a whole number, {minimum} or more")
    if not isinstance(s.clock, str) or not s.clock:
        raise BadConfig(f"clock {s.clock!r} is not valid: name the clock domain, e.g. 'monotonic'")
    if not isinstance(s.early_lockout, bool):
        raise BadConfig(f"early_lockout {s.early_lockout!r} is not valid: use True or False")


def _check_teams(s: QuizSettings) -> None:
    teams = s.teams
    seats = f"0 to {s.seats - 1}"
    if not isinstance(teams, tuple) or not all(
        isinstance(pair, tuple) and len(pair) == 2 and _is_int(pair[0])
        and isinstance(pair[1], str) and pair[1].strip() for pair in teams
    ):
        raise BadConfig(f"teams {teams!r} is not valid: give (seat, team name) pairs, one for each seat {seats}")
    if not teams:
        if s.mode is QuizMode.FIRST_PER_TEAM:
            raise BadConfig("mode 'first-per-team' needs teams: give every seat "
                            f"{seats} a team name, or use mode 'individual'")
        return
    given = [seat for seat, _ in teams]
    if given != list(range(s.seats)):
        raise BadConfig(f"teams name seats {given!r}: give every seat {seats} exactly one team")
    if s.mode is QuizMode.FIRST_PER_TEAM and len(s.team_names) < 2:
        raise BadConfig(f"teams {s.team_names!r} are one team: first-per-team needs at least two teams")


def _check_points(s: QuizSettings) -> None:
    if not _is_int(s.right_points) or s.right_points < 1:
        raise BadConfig(f"right_points {s.right_points!r} is not valid: use a whole number, 1 or more")
    for name in ("wrong_points", "early_points"):
        value = getattr(s, name)
        if not _is_int(value) or value > 0:
            raise BadConfig(f"{name} {value!r} is not valid: a penalty is a whole number, 0 or below (e.g. -5)")
    shortcuts = s.shortcuts
    if (not isinstance(shortcuts, tuple) or not all(_is_int(p) and p != 0 for p in shortcuts)
            or len(set(shortcuts)) != len(shortcuts)):
        raise BadConfig(f"shortcuts {shortcuts!r} are not valid: give distinct whole numbers other than 0, e.g. (10, -5)")
