"""The referee screens' keys, as data: for each screen and state, every key to the one action it
performs there. The shells dispatch keys from these tables only, so what a key does can be read
here, checked by a test (``tests/app/test_referee_keys.py``) and shown on screen.

No host key is a keyboard seat's key (:data:`SEAT_KEYS_8`, Q T P Z B J W M) for any number of
seats: a seat's press is race evidence and must never also start, void or toggle anything.
Each key means one action in every state of its screen; in a state without that action's
button the key is simply not bound. The "Leave?" question (:data:`LEAVE_KEYS`) is a screen of
its own over the quiz or the races.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pygame

from ...referee.quiz import QuizState
from ...referee.session import Phase as RacePhase
from ...referee.session import Session
from ..ui.actions import Act
from ..ui.console import SEAT_KEYS

#: Keyboard seats: the table's seven keys and M for an eighth seat.
SEAT_KEYS_8: tuple[int, ...] = (*SEAT_KEYS, pygame.K_m)

QUIT = "quit"
SETTINGS = "settings"
#: Actions that leave the screen rather than act on what it shows (Esc: quitting, or asking
#: first; the kiosk's staff gate): a key for one is not held back while a new screen settles.
LEAVING = frozenset({QUIT, SETTINGS})
#: The answers to "Leave?" (:mod:`.leave_screen`): ordinary acts, held back while the question
#: settles, so a second Esc or a bounced Enter cannot answer a question nobody read.
LEAVE = "leave"
STAY = "stay"

_QUIT_KEYS = {pygame.K_ESCAPE: QUIT}
_DIGITS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8,
           pygame.K_9)
#: 1 to 9: the quiz's score shortcuts, in the order of their buttons.
_SHORTCUTS = {key: f"shortcut_{n}" for n, key in enumerate(_DIGITS, start=1)}


def _table(**states: Mapping[int, str]) -> Mapping[str, Mapping[int, str]]:
    return MappingProxyType({state: MappingProxyType(dict(keys)) for state, keys in states.items()})


#: The quiz: per phase, key -> action (the phase's buttons: Arm; Skip; Right, Wrong, the
#: shortcuts and Skip).
QUIZ_KEYS = _table(
    idle={pygame.K_a: "arm", pygame.K_SPACE: "arm", **_QUIT_KEYS},
    armed={pygame.K_s: "skip", **_QUIT_KEYS},
    settling={pygame.K_s: "skip", **_QUIT_KEYS},
    answering={pygame.K_r: "right", pygame.K_x: "wrong", pygame.K_s: "skip", **_SHORTCUTS, **_QUIT_KEYS},
)

_START = {pygame.K_SPACE: "start", pygame.K_RETURN: "start", pygame.K_KP_ENTER: "start"}
_CALL_OFF = {pygame.K_c: "call_off", pygame.K_BACKSPACE: "call_off"}
# S for statistics (Statistik, statistiques): T, its key before, is seat 2's button.
_STATS = {pygame.K_s: "stats"}

#: The races: per phase, key -> action (Esc or, in a kiosk, the staff gate are added by
#: :func:`race_keys`).
RACE_KEYS = _table(
    ready={**_START, **_STATS},
    armed={**_CALL_OFF, **_STATS},
    running={**_CALL_OFF, **_STATS},
    decided={**_START, pygame.K_v: "void_winner", **_STATS},
)
#: A café's kiosk: F1 or Tab open the staff gate (the PIN keypad), and no key quits.
KIOSK_KEYS: Mapping[int, str] = MappingProxyType({pygame.K_F1: SETTINGS, pygame.K_TAB: SETTINGS})
#: A race screen on its own: Esc quits (asking first when something would be lost).
QUIT_KEYS: Mapping[int, str] = MappingProxyType(dict(_QUIT_KEYS))
#: "Leave?", asked over a quiz or races with something to lose: a screen of its own, so Enter
#: (the races' start) and Esc (the quit key under it) answer it here and nothing underneath.
#: Enter or Y leaves; Esc or N stays (as the card game's "Leave the game?").
LEAVE_KEYS: Mapping[int, str] = MappingProxyType({
    pygame.K_RETURN: LEAVE, pygame.K_KP_ENTER: LEAVE, pygame.K_y: LEAVE,
    pygame.K_ESCAPE: STAY, pygame.K_n: STAY,
})


def quiz_actions(state: QuizState) -> Mapping[int, str]:
    """The quiz's key -> action table for the phase ``state`` is in."""
    return QUIZ_KEYS[state.phase.value]


def quiz_keys(state: QuizState) -> dict[int, Act]:
    """What each key does on the quiz screen drawn from ``state``: only the acts it shows."""
    shortcuts = state.settings.shortcuts
    keys: dict[int, Act] = {}
    for key, action in quiz_actions(state).items():
        if action.startswith("shortcut_"):
            index = int(action.removeprefix("shortcut_")) - 1
            if index < len(shortcuts):
                keys[key] = Act("score", shortcuts[index])
        else:
            keys[key] = Act(action)
    return keys


def race_actions(session: Session, *, kiosk: bool) -> Mapping[int, str]:
    """The races' key -> action table for the session's phase, with the kiosk's gate or Esc."""
    return {**RACE_KEYS[session.phase.value], **(KIOSK_KEYS if kiosk else QUIT_KEYS)}


def race_keys(session: Session, *, kiosk: bool) -> dict[int, Act]:
    """What each key does on the race screen drawn from ``session``: only the acts it shows (V
    voids the first winner, where the preset lets the table void and there is one)."""
    result = session.result
    winners = result.winners if result is not None and session.phase is RacePhase.DECIDED else ()
    keys: dict[int, Act] = {}
    for key, action in race_actions(session, kiosk=kiosk).items():
        if action == "void_winner":
            if session.preset.table_may_void and winners:
                keys[key] = Act("void", winners[0])
        else:
            keys[key] = Act(action)
    return keys


def leave_keys() -> dict[int, Act]:
    """What each key does on the "Leave?" question: its two answers."""
    return {key: Act(action) for key, action in LEAVE_KEYS.items()}
