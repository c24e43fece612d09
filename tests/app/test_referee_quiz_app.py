"""The quiz on the app's inputs (issue 14 point 2): edges from the input adapter are judged by
their stamps, the red button is the host's arm / next, taps and keys are the host's, lights go
to the adapter, and a yanked cable is said without losing the scores. A fake adapter on a clock
the test moves; the same QuizApp runs on the board or the GPIO rig."""

from __future__ import annotations

import pygame
from display_helpers import fonts
from test_display_app import FakeRig

from firmware_host.errors import AdapterError
from firmware_host.records import SeatLight
from game.app.referee.quiz_app import QuizApp
from game.app.referee.shell import SETTLE_NS
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.sound import Sounds
from game.inputs import CaughtPress, CaughtRelease, Press, Release
from game.referee.quiz import Phase, QuizSettings

MS = 1_000_000


class _Sounds(Sounds):
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


def _app(seats: int = 4, name: str = "board") -> tuple[QuizApp, FakeRig, _Sounds]:
    rig = FakeRig()
    sounds = _Sounds()
    settings = QuizSettings(seats=seats, clock=rig.clock, resolution_ns=rig.resolution_ns)
    app = QuizApp(detected=Detected(rig, name), settings=settings, seed=1, names=("Ali", "Bea", "Cem", "Dan"),
                  lang="en", fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=sounds)
    return app, rig, sounds


def _advance(app: QuizApp, rig: FakeRig, ms: int) -> None:
    rig.t_ns += ms * MS
    app.poll()


def test_the_red_button_arms_and_the_stamps_decide_who_is_in_front() -> None:
    app, rig, sounds = _app()
    rig.events += [CaughtPress(rig.t_ns, rig.clock), CaughtRelease(rig.t_ns + 80 * MS, rig.clock)]
    app.poll()
    assert app.state.phase is Phase.ARMED
    armed = rig.t_ns
    # Cem's press arrives after Bea's but was stamped first: Cem is in front.
    rig.t_ns += 400 * MS
    rig.events += [Press(1, armed + 350 * MS, rig.clock), Press(2, armed + 310 * MS, rig.clock)]
    app.poll()
    _advance(app, rig, 200)                         # past the settle window: the WakeAt's tick
    q = app.state.open
    assert app.state.phase is Phase.ANSWERING and q is not None and q.front == 2
    assert ("show", {0: SeatLight.OFF, 1: SeatLight.OFF, 2: SeatLight.GO, 3: SeatLight.OFF}) in rig.calls
    assert "seat_2" in sounds.played
    # The red button now passes to the next in line, without arming again.
    rig.events += [CaughtPress(rig.t_ns, rig.clock)]
    app.poll()
    q = app.state.open
    assert q is not None and q.front == 1 and q.wrong == (2,) and app.state.questions == 1


def _settled(app: QuizApp, rig: FakeRig) -> None:
    """A frame drawn, then another once its screen has settled: its buttons take taps."""
    app.draw()
    rig.t_ns += SETTLE_NS
    app.draw()
    assert app.frame.live


def test_host_taps_score_and_a_refusal_is_said_in_the_footer() -> None:
    app, rig, _ = _app()
    app.host(Act("right"))                         # nobody in front: refused, state kept
    assert app.state.phase is Phase.IDLE and app.notice is not None and "Right" in app.notice[0]
    app.draw()
    (arm,) = [h for h in app.frame.hotspots if h.act.kind == "arm"]
    app.tap(arm.rect.center)                       # the first frame: nothing to settle from
    rig.t_ns += 500 * MS
    rig.events += [Press(3, rig.t_ns - 100 * MS, rig.clock), Release(3, rig.t_ns, rig.clock)]
    _advance(app, rig, 200)
    _settled(app, rig)
    (plus,) = [h for h in app.frame.hotspots if h.act == Act("score", 10)]
    app.tap(plus.rect.center)
    assert app.state.scores == (0, 0, 0, 10)
    assert app.state.phase is Phase.ARMED           # a shortcut credits and arms the next question


def test_keyboard_seats_only_on_keyboard_input() -> None:
    app, rig, _ = _app(name="keyboard")
    app.draw()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a))
    rig.t_ns += 300 * MS
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t))     # seat 2's key (Bea)
    app.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_t))
    _advance(app, rig, 200)
    assert app.state.open is not None and app.state.open.front == 1
    _settled(app, rig)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r))
    assert app.state.scores[1] == 10
    board, rig2, _ = _app(name="board")                # on real buttons a key is not a seat
    board.draw()
    board.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a))
    board.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t))
    _advance(board, rig2, 200)
    assert board.state.phase is Phase.ARMED


def test_a_yanked_cable_is_said_and_the_quiz_keeps_its_scores() -> None:
    app, rig, _ = _app()
    app.host(Act("arm"))
    rig.t_ns += 300 * MS
    rig.events += [Press(0, rig.t_ns, rig.clock)]
    _advance(app, rig, 200)
    app.host(Act("right"))
    assert app.state.scores[0] == 10

    def unplugged() -> list[object]:
        raise AdapterError("the buzzer board went away (USB unplugged?): plug it back in")

    rig.drain = unplugged  # type: ignore[method-assign]
    app.poll()
    assert app.notice is not None and "went away" in app.notice[0]
    assert app.state.scores[0] == 10
    app.draw()
    assert app.frame.overflows == ()


def test_edges_the_board_lost_are_said() -> None:
    from firmware_host.boardlink.rig import RaceVoided

    app, rig, _ = _app()
    app.host(Act("arm"))
    rig.events += [RaceVoided(1, "the board was disconnected", None)]
    app.poll()
    assert app.notice is not None and "lost presses" in app.notice[0]
    assert app.state.phase is Phase.ARMED                  # the host decides: the question is kept
