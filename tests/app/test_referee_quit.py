"""Nothing quits a referee session by accident (issue 20 point 4): Esc or the window's close box
on a quiz or races with something to lose (a score, a tally, a race armed) asks "Leave?" first,
drawn with the card game's question (``ask_body``); Enter or Y (or Leave) leaves and prints the
final scores or tally to the terminal, Esc or N (or Keep playing) stays, and a second close
while it asks leaves. An untouched session quits at once; a café's kiosk is never quit by Esc.
A fake adapter on a clock the test moves; nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from display_helpers import fonts
from test_referee_glass import decided, phase, quiz, race, settled, spot, to_go
from test_referee_keys import NAMES, PRESETS, Quiet, Rig8

from game.app.referee.leave_screen import LEAVE_SCREEN, LeaveView, draw_leave
from game.app.referee.quiz_app import QuizApp
from game.app.referee.race_app import RaceApp
from game.app.referee.shell import SETTLE_NS, frame_loop
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.paint import Painter
from game.i18n import LANGUAGES
from game.inputs import CaughtPress, Press, Release
from game.referee.quiz import Phase as QuizPhase
from game.referee.quiz import QuizSettings
from game.referee.session import Phase, new_session

MS = 1_000_000
NBSP = "\u00a0"


def key(app: QuizApp | RaceApp, k: int) -> None:
    """A key pressed and let go, as the loop's events bring it."""
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k))


def close_box(app: QuizApp | RaceApp) -> None:
    app.handle(pygame.event.Event(pygame.QUIT))


def scored_quiz() -> tuple[QuizApp, Rig8, list[str]]:
    """A quiz whose first question Bea answered right: 10 points to lose."""
    app, rig = quiz()
    said: list[str] = []
    app.out = said.append
    app.host(Act("arm"))
    rig.t_ns += 100 * MS
    rig.events.append(Press(1, rig.t_ns, rig.clock))
    app.poll()
    rig.t_ns += 200 * MS                        # past the settle window: Bea answers
    app.poll()
    app.host(Act("right"))
    assert app.state.scores == (0, 10, 0, 0) and app.state.phase is QuizPhase.IDLE
    return app, rig, said


def test_esc_asks_esc_again_stays_and_enter_leaves_printing_the_scores() -> None:
    app, rig, said = scored_quiz()
    settled(app, rig)
    key(app, pygame.K_ESCAPE)
    assert app.asking and not app.quit
    frame = settled(app, rig)
    assert frame.screen == LEAVE_SCREEN and {k: a.kind for k, a in frame.keys.items()} == {
        pygame.K_RETURN: "leave", pygame.K_KP_ENTER: "leave", pygame.K_y: "leave",
        pygame.K_ESCAPE: "stay", pygame.K_n: "stay"}
    # On the screen a name is never parted from its points (a no-break space between them).
    assert app.leave_view() == LeaveView("Leave the quiz?", (
        f"Points so far: Ali{NBSP}0 · Bea{NBSP}10 · Cem{NBSP}0 · Dan{NBSP}0. Leaving ends the quiz; the final "
        "scores are printed in the terminal."))
    key(app, pygame.K_ESCAPE)                   # Esc on the question: stay
    assert not app.asking and not app.quit and said == []
    frame = app.draw()
    assert frame.screen == app.screen() and not frame.live  # back on the quiz, a new screen: it settles
    assert app.state.scores == (0, 10, 0, 0) and app.state.questions == 1
    key(app, pygame.K_ESCAPE)
    settled(app, rig)
    key(app, pygame.K_RETURN)
    assert app.quit
    assert said == ["Quiz over after 1 question", "Scores: Ali 0, Bea 10, Cem 0, Dan 0"]
    app.say_final()                             # the command's own call after the loop: said once
    assert len(said) == 2


def test_y_and_n_answer_and_so_do_the_two_big_buttons() -> None:
    app, rig, said = scored_quiz()
    settled(app, rig)
    key(app, pygame.K_ESCAPE)
    settled(app, rig)
    key(app, pygame.K_n)
    assert not app.asking
    settled(app, rig)
    key(app, pygame.K_ESCAPE)
    app.tap(spot(settled(app, rig), "stay"))    # Keep playing
    assert not app.asking and not app.quit
    settled(app, rig)
    key(app, pygame.K_ESCAPE)
    app.tap(spot(settled(app, rig), "leave"))   # Leave
    assert app.quit and said[0] == "Quiz over after 1 question"
    app2, rig2, said2 = scored_quiz()
    settled(app2, rig2)
    key(app2, pygame.K_ESCAPE)
    settled(app2, rig2)
    key(app2, pygame.K_y)
    assert app2.quit and len(said2) == 2


def test_the_close_box_asks_then_leaves_on_a_second_close_printing_the_tally() -> None:
    app, rig = race("grab", seats=3)
    said: list[str] = []
    app.out = said.append
    decided(app, rig, winner=1)
    close_box(app)
    assert app.asking and not app.quit
    assert app.leave_view() == LeaveView("Leave the races?", f"Wins: Ali{NBSP}0 · Bea{NBSP}1 · Cem{NBSP}0. Leaving "
                                                             "ends the session; the tally is printed in the terminal.")
    app.draw()
    close_box(app)                              # a second close while it asks: the person insists
    assert app.quit
    assert said == ["Grab: 1 race decided", "Wins: Ali 0, Bea 1, Cem 0"]


def test_nothing_is_asked_when_nothing_would_be_lost() -> None:
    app, rig = quiz()
    said: list[str] = []
    app.out = said.append
    rig.events.append(Press(2, rig.t_ns, rig.clock))   # an early press costs nothing here
    app.poll()
    app.draw()
    key(app, pygame.K_ESCAPE)
    assert app.quit and not app.asking and said == []
    for closing in (lambda a: key(a, pygame.K_ESCAPE), close_box):
        races, _ = race("duel", seats=2)
        races.out = said.append
        races.draw()
        closing(races)
        assert races.quit and not races.asking and said == []


def test_a_race_armed_is_something_to_lose_and_the_log_is_said_to_keep_it() -> None:
    app, rig = race("duel", seats=2, record=lambda event: None)
    said: list[str] = []
    app.out = said.append
    app.tap(spot(settled(app, rig), "start"))
    assert app.session.phase is Phase.ARMED and app.session.results == ()
    key(app, pygame.K_ESCAPE)
    assert app.asking
    assert app.leave_view().question == (
        f"Wins: Ali{NBSP}0 · Bea{NBSP}0. Leaving ends the session; the tally is printed in the terminal. Its log (--db) "
        "keeps it: the next start with the same log carries on. The race under way does not count.")
    settled(app, rig)
    key(app, pygame.K_KP_ENTER)
    assert app.quit and said == ["Reaction duel: 0 races decided; the race under way does not count",
                                 "Wins: Ali 0, Bea 0"]


def test_under_the_question_the_race_goes_on_and_only_the_hosts_acts_wait() -> None:
    app, rig = race("grab", seats=3)
    go = to_go(app, rig)
    settled(app, rig)
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_c)                        # the same batch: aimed at the race, dropped
    key(app, pygame.K_ESCAPE)                   # read from the race's frame: the question stays
    assert app.asking and app.session.phase is Phase.RUNNING
    app.draw()
    rig.t_ns = go + 400 * MS                    # seat presses are race evidence: judged under it
    rig.events += [Press(2, go + 180 * MS, rig.clock), Release(2, go + 260 * MS, rig.clock)]
    app.poll()
    assert phase(app) is Phase.DECIDED
    rig.events.append(CaughtPress(rig.t_ns, rig.clock))     # the host's start waits for the answer
    app.poll()
    assert phase(app) is Phase.DECIDED and app.session.number == 1
    app.tap(spot(settled(app, rig), "stay"))
    frame = settled(app, rig)                   # the photo finish the question covered
    assert frame.screen == app.screen() and app.session.decided[0].winners == (2,)


def test_a_quiz_under_the_question_takes_no_red_button() -> None:
    app, rig, _ = scored_quiz()
    settled(app, rig)
    key(app, pygame.K_ESCAPE)
    rig.events.append(CaughtPress(rig.t_ns, rig.clock))
    app.poll()
    assert app.state.phase is QuizPhase.IDLE and app.state.questions == 1


def test_the_kiosk_is_never_quit_by_esc(tmp_path: Path) -> None:
    from test_kiosk_referee import make_kiosk, races

    app = races(make_kiosk(tmp_path / "data", game="grab"), "grab")
    for _ in range(2):
        app.draw()
        app.adapter.t_ns += SETTLE_NS           # type: ignore[attr-defined]
        key(app, pygame.K_ESCAPE)               # type: ignore[arg-type]
        assert not app.quit and not app.race.asking and app.draw().screen == "race"
        app.race.host(Act("start"))             # a race armed: still nothing to ask, no Esc at all
    assert app.race.session.phase is Phase.ARMED


def test_the_loop_ends_on_leave_and_not_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through :func:`frame_loop` with real pygame events: Esc, then Enter once the question has
    settled; the loop stops on that frame."""
    pygame.display.init()
    try:
        surface = pygame.display.set_mode((800, 480))
        app, rig, said = scored_quiz()
        app.surface = surface
        plan = {2: pygame.K_ESCAPE, 4: pygame.K_RETURN, 30: pygame.K_RETURN}
        frames = [0]

        def wait(ns: int) -> None:
            rig.t_ns += ns
            frames[0] += 1
            if frames[0] in plan:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=plan[frames[0]]))

        pygame.event.clear()
        drawn = frame_loop(app, wait=wait, max_frames=100)
        assert app.quit and drawn == 31 and said[1] == "Scores: Ali 0, Bea 10, Cem 0, Dan 0"
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_question_fits_in_every_language(lang: str) -> None:
    rig = Rig8()
    quiz_app = QuizApp(detected=Detected(rig, "board"),
                       settings=QuizSettings(seats=8, clock=rig.clock, resolution_ns=rig.resolution_ns,
                                             teams=tuple(enumerate(("red", "blue") * 4))),
                       seed=1, names=NAMES, lang=lang, fonts=fonts(lang), surface=pygame.Surface((800, 480)),
                       sounds=Quiet())
    session = new_session(PRESETS.get("grab"), 8, clock=rig.clock, resolution_ns=rig.resolution_ns, t_ns=rig.t_ns)
    race_app = RaceApp(detected=Detected(rig, "board"), session=session, names=NAMES, lang=lang, fonts=fonts(lang),
                       surface=pygame.Surface((800, 480)), sounds=Quiet(), record=lambda event: None)
    race_app.host(Act("start"))
    for view in (quiz_app.leave_view(), race_app.leave_view()):
        for size in ((800, 480), (480, 800), (1280, 800)):
            p = Painter(pygame.Surface(size), fonts(lang), lang)
            draw_leave(p, view)
            assert p.overflows == [], (lang, size, view)
            assert sorted(spot.act.kind for spot in p.hotspots) == ["leave", "stay"]
