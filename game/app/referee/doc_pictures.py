"""The README's referee-mode pictures (``docs/referee/*.png``): chosen moments of a quiz and of
the race presets, drawn by the screens the window shows (``draw_quiz``, ``draw_race``).

The quiz is the simulated one ``cheating-moth referee quiz --input sim`` plays (two teams,
first ring-in per team, a −5 wrong answer) at a fixed seed; the races are sessions fed chosen
timestamps (µs and ns in them, as a real table's), so each picture shows what its caption in
the README says: GO, a grab's photo finish with a false start, a bell slap's voidable winner,
last hand down and the statistics. ``python -m game.app.ui.gallery --all`` writes them; the
gallery test draws them again and compares pixels."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygame

from ...controller.effects import ScheduleGo
from ...controller.inputs import Tick
from ...inputs import Go, Press, Release
from ...referee.presets import load_presets
from ...referee.session import Phase, Session, Start, Void, new_session, step
from ..ui.fonts import Fonts
from ..ui.paint import Painter

MS = 1_000_000
S = 1_000_000_000
CLOCK = "sim"
T0_NS = 1_000 * S
RESOLUTION_NS = 100_000            # the simulated adapter's (race_demo.SIM_RESOLUTION_NS)
SIZE = (800, 480)
LANG = "en"
#: The quiz's seed: one whose six questions show every moment photographed, and whose wrong answer
#: passes from Dan to Ali with Cem and Bea locked out (the README's caption).
QUIZ_SEED = 5
QUIZ_QUESTIONS = 6


@dataclass(frozen=True)
class Moment:
    """One picture: what the screen shows and when (the quiz's state or a race session)."""

    kind: str                       # "quiz" or "race"
    state: object
    names: tuple[str, ...]
    now_ns: int
    stats: bool = False


def _names(seats: int) -> tuple[str, ...]:
    from ..cmd_referee import names_for

    return names_for(seats)


# -- the quiz ----------------------------------------------------------------------------------

@functools.cache
def quiz_moments() -> Mapping[str, Moment]:
    """Every moment the simulated quiz photographs, by file stem (quiz-start, quiz-armed, ...)."""
    from ..cmd_referee import quiz_settings
    from .quiz_demo import play_quiz

    options = argparse.Namespace(teams="red,red,blue,blue", first_per_team=True, buzz_window=0, answer_time=0,
                                 right=10, wrong=-5, early=0, early_lockout=False)
    settings = quiz_settings(options, 4, CLOCK)
    names = _names(4)
    seen: dict[str, Moment] = {}

    def keep(state: object, now_ns: int, name: str) -> None:
        seen.setdefault(name, Moment("quiz", state, names, now_ns))

    play_quiz(settings, QUIZ_SEED, QUIZ_QUESTIONS, keep, names)
    return seen


# -- the races ---------------------------------------------------------------------------------

def _feed(s: Session, *events: object) -> Session:
    for event in events:
        s, _ = step(s, event)  # type: ignore[arg-type]
    return s


def _arm(s: Session) -> tuple[Session, int]:
    """The host starts the next race 5 s after the last input; GO's time (the due time the
    session asked of the shell, or the arming for a table race)."""
    s, effects = step(s, Start(s.now_t_ns + 5 * S))
    due = [e.t_ns for e in effects if isinstance(e, ScheduleGo)]
    assert s.race is not None
    return s, (due[0] if due else s.race.armed_t_ns)


def _hands(presses: Mapping[int, int], zero_ns: int) -> list[Press | Release]:
    """Each seat's press ``presses[seat]`` ns after ``zero_ns`` (negative: before it) and its
    release 120 ms later, in time order."""
    edges: list[Press | Release] = []
    for seat, offset in presses.items():
        edges += [Press(seat, zero_ns + offset, CLOCK), Release(seat, zero_ns + offset + 120 * MS, CLOCK)]
    return sorted(edges, key=lambda e: e.t_ns)


def _race(s: Session, presses: Mapping[int, int], settle_ms: int | None = None) -> Session:
    """A race the rig starts: presses in ns from GO; ``settle_ms`` after GO the clock ticks
    (None: the moment just after the presses, the race still running)."""
    s, go_ns = _arm(s)
    edges = _hands(presses, go_ns)
    s = _feed(s, *(e for e in edges if e.t_ns < go_ns))
    if s.phase is not Phase.ARMED:
        return s
    s = _feed(s, Go(go_ns, CLOCK), *(e for e in edges if e.t_ns >= go_ns))
    return _feed(s, Tick(go_ns + settle_ms * MS)) if settle_ms is not None else s


def _table_race(s: Session, presses: Mapping[int, int], settle_ms: int) -> Session:
    """A race the table starts (a bell slapped when a match shows): presses in ns from arming."""
    s, armed_ns = _arm(s)
    return _feed(s, *_hands(presses, armed_ns), Tick(armed_ns + settle_ms * MS))


#: Three races before the one pictured, so the tally and the chart have data: per race, each
#: seat's reaction in ns (human-like: 170-420 ms, with µs and ns in them).
_HISTORY = (
    (183_412_907, 241_090_315, 302_777_041, 412_305_220, 258_640_118),
    (229_871_064, 192_330_559, 281_046_372, 389_512_903, 251_207_646),
    (204_118_730, 216_904_281, 327_455_019, 361_092_487, 243_381_905),
)


def _history(preset: str, seats: int) -> Session:
    s = new_session(load_presets().get(preset), seats, clock=CLOCK, resolution_ns=RESOLUTION_NS, seed=3, t_ns=T0_NS)
    for reactions in _HISTORY:
        if s.preset.go.value == "table":
            s = _table_race(s, {seat: 3 * S + reactions[seat] for seat in s.racers}, 9_000)
        else:
            s = _race(s, {seat: reactions[seat] for seat in s.racers}, 3_100)
        assert s.phase is Phase.DECIDED, (preset, s.result.reason if s.result else None)
    return s


@functools.cache
def race_moments() -> Mapping[str, Moment]:
    """The race presets' pictures by file stem."""
    duel = _race(_history("duel", 2), {})
    grab = _race(_history("grab", 3), {0: 199_412_336, 1: 240_087_519, 2: -212_904_331}, 600)
    bell = _table_race(_history("bell-slap", 3), {2: 3_982_114_093, 0: 4_150_660_218, 1: 4_402_918_457}, 4_600)
    voided = _feed(bell, Void(2, bell.now_t_ns + 2 * S))
    last = _race(_history("last-hand-down", 4), {1: 187_245_604, 0: 212_930_117, 2: 263_508_442, 3: 341_076_295},
                 3_100)
    stats = _race(_history("last-hand-down", 5),
                  {0: 201_337_480, 1: 176_805_213, 2: 290_114_957, 3: 268_451_632, 4: 355_920_318}, 3_100)
    made = {"race-duel-go": (duel, 2, False), "race-grab-photo": (grab, 3, False),
            "race-bell-slap-void": (voided, 3, False), "race-last-hand-down": (last, 4, False),
            "race-stats": (stats, 5, True)}
    return {name: Moment("race", s, _names(seats), s.now_t_ns, stats=on) for name, (s, seats, on) in made.items()}


# -- drawing -----------------------------------------------------------------------------------

def moments() -> dict[str, Moment]:
    """Every referee picture by file stem, the quiz's first."""
    return {**quiz_moments(), **race_moments()}


#: The file stems, in the order they are written (fixed here so a test can list them without
#: playing the quiz; a test checks they are the ones the moments give).
STEMS = ("quiz-start", "quiz-armed", "quiz-answering", "quiz-next-in-line", "quiz-early", "quiz-right", "quiz-scores",
         "race-duel-go", "race-grab-photo", "race-bell-slap-void", "race-last-hand-down", "race-stats")


def draw_picture(stem: str, fonts_of: Callable[[str], Fonts]) -> pygame.Surface:
    """The picture ``stem`` drawn on a new 800×480 surface in English."""
    from .quiz_screen import QuizView, draw_quiz
    from .race_screen import RaceView, draw_race

    moment = moments()[stem]
    surface = pygame.Surface(SIZE)
    painter = Painter(surface, fonts_of(LANG), LANG)
    if moment.kind == "quiz":
        draw_quiz(painter, QuizView(moment.state, moment.names, moment.now_ns))  # type: ignore[arg-type]
    else:
        draw_race(painter, RaceView(moment.state, moment.names, moment.now_ns, stats=moment.stats))  # type: ignore[arg-type]
    return surface
