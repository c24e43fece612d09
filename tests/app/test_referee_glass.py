"""The screen on the glass owns the input (game/app/referee/glass.py): a tap or key means what
the last frame drawn showed; a new screen (a photo finish, a verdict, GO) dims its buttons and
takes no taps or host keys for the settle time, on the adapter's clock; after one host act the
rest that came before the next frame is dropped; seat buttons and leaving keys are never held
back."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from display_helpers import fonts
from test_referee_keys import NAMES, PRESETS, Quiet, Rig8

from game.app.referee.glass import Glass
from game.app.referee.quiz_app import QuizApp
from game.app.referee.race_app import RaceApp
from game.app.referee.shell import SETTLE_NS, Drawn
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.inputs import CaughtPress, Press, Release
from game.referee.quiz import Phase as QuizPhase
from game.referee.quiz import QuizSettings
from game.referee.session import Phase, new_session

MS = 1_000_000


def race(preset: str = "grab", seats: int = 3, input_name: str = "board",
         **kwargs: object) -> tuple[RaceApp, Rig8]:
    rig = Rig8()
    session = new_session(PRESETS.get(preset), seats, clock=rig.clock, resolution_ns=rig.resolution_ns, seed=4,
                          t_ns=rig.t_ns)
    app = RaceApp(detected=Detected(rig, input_name), session=session, names=NAMES[:seats], lang="en",
                  fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=Quiet(), **kwargs)  # type: ignore[arg-type]
    return app, rig


def quiz(input_name: str = "board") -> tuple[QuizApp, Rig8]:
    rig = Rig8()
    settings = QuizSettings(seats=4, clock=rig.clock, resolution_ns=rig.resolution_ns)
    app = QuizApp(detected=Detected(rig, input_name), settings=settings, seed=1, names=NAMES[:4], lang="en",
                  fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=Quiet())
    return app, rig


def phase(app: RaceApp) -> Phase:
    """The session's phase now (a call, so a type checker does not carry an earlier check over)."""
    return app.session.phase


def quiz_phase(app: QuizApp) -> QuizPhase:
    return app.state.phase


def spot(frame: Drawn, kind: str) -> tuple[int, int]:
    (found,) = [s for s in frame.hotspots if s.act.kind == kind]
    return found.rect.center


def settled(app: RaceApp | QuizApp, rig: Rig8) -> Drawn:
    app.draw()
    rig.t_ns += SETTLE_NS
    frame = app.draw()
    assert frame.live
    return frame


def to_go(app: RaceApp, rig: Rig8) -> int:
    """Start a race on a settled frame's Start and move the clock until GO; GO's stamp."""
    app.tap(spot(settled(app, rig), "start"))
    assert app.session.phase is Phase.ARMED
    while app.session.phase is Phase.ARMED:
        rig.t_ns += 16 * MS
        app.poll()
    race_ = app.session.race
    assert race_ is not None and race_.go_t_ns is not None
    return race_.go_t_ns


def decided(app: RaceApp, rig: Rig8, winner: int = 1) -> None:
    go = to_go(app, rig)
    rig.t_ns = go + 400 * MS
    rig.events += [Press(winner, go + 200 * MS, rig.clock), Release(winner, go + 300 * MS, rig.clock)]
    app.poll()
    assert app.session.phase is Phase.DECIDED


def test_a_photo_finish_is_not_dismissed_by_a_tap_in_its_first_300_ms() -> None:
    app, rig = race()
    decided(app, rig)
    app.draw()                              # the GO screen's last frame ...
    frame = app.draw()                      # ... and the photo finish, first drawn now
    assert not frame.live and frame.screen != ("race", Phase.RUNNING)
    shown_ns = rig.t_ns
    app.tap(spot(frame, "start"))           # "Next race" under a finger still on its way
    app.key(pygame.K_SPACE, True)
    assert app.session.phase is Phase.DECIDED and app.session.number == 1 and app.notice is None
    rig.t_ns = shown_ns + SETTLE_NS - 1
    frame = app.draw()
    app.tap(spot(frame, "start"))
    assert not frame.live and app.session.phase is Phase.DECIDED
    rig.t_ns = shown_ns + SETTLE_NS
    frame = app.draw()
    assert frame.live
    app.tap(spot(frame, "start"))
    assert phase(app) is Phase.ARMED and app.session.number == 2


def test_a_settling_screens_buttons_are_drawn_dimmed() -> None:
    app, rig = race()
    decided(app, rig)
    settling = app.draw()
    centre = spot(settling, "start")
    dim = app.surface.get_at(centre)
    rig.t_ns += SETTLE_NS
    live = app.draw()
    bright = app.surface.get_at(spot(live, "start"))
    assert not settling.live and live.live
    assert [s.rect for s in settling.hotspots] == [s.rect for s in live.hotspots]   # same place, dimmed
    assert sum(dim[:3]) < sum(bright[:3]) - 60, (dim, bright)


def test_a_void_that_passes_the_race_to_the_next_hand_is_a_new_screen() -> None:
    app, rig = race("bell-slap")
    app.tap(spot(settled(app, rig), "start"))
    armed = rig.t_ns
    rig.t_ns += 5_000 * MS
    rig.events += [Press(2, armed + 4_000 * MS, rig.clock), Press(0, armed + 4_080 * MS, rig.clock)]
    app.poll()
    rig.t_ns += 200 * MS
    app.poll()
    frame = settled(app, rig)
    app.tap(spot(frame, "void"))            # Cem's wrong slap: Ali takes the race
    assert app.session.result is not None and app.session.result.winners == (0,)
    frame = app.draw()
    assert not frame.live and frame.keys[pygame.K_v] == Act("void", 0)
    app.key(pygame.K_v, True)               # a second V meant for Cem does not void Ali
    assert app.session.result.winners == (0,)


def test_one_host_act_per_frame_the_rest_was_aimed_at_a_screen_gone() -> None:
    app, rig = race()
    frame = settled(app, rig)
    app.tap(spot(frame, "start"))
    app.key(pygame.K_s, True)               # the statistics button of the frame still on the glass
    app.key(pygame.K_SPACE, True)
    assert app.session.phase is Phase.ARMED and not app.stats and app.notice is None
    settled(app, rig)
    app.key(pygame.K_s, True)
    assert app.stats


def test_a_key_means_the_drawn_screen_not_a_state_that_moved_on() -> None:
    app, rig = quiz()
    settled(app, rig)                       # no question open: S (skip) is not bound
    rig.events += [CaughtPress(rig.t_ns, rig.clock)]
    app.poll()                              # the red button arms: the state moved on, the glass did not
    assert app.state.phase is QuizPhase.ARMED
    app.key(pygame.K_s, True)
    assert app.state.phase is QuizPhase.ARMED
    settled(app, rig)
    app.key(pygame.K_s, True)
    assert quiz_phase(app) is QuizPhase.IDLE


def test_seat_keys_count_while_the_go_screen_settles() -> None:
    app, rig = race(input_name="keyboard")
    go = to_go(app, rig)
    frame = app.draw()
    assert not frame.live                   # GO! just drawn
    rig.t_ns = go + 150 * MS
    app.key(pygame.K_t, True)               # seat 2's key: race evidence, stamped now
    app.key(pygame.K_t, False)
    rig.t_ns += 100 * MS
    app.poll()
    result = app.session.result
    assert result is not None and result.winners == (1,) and result.places[0].reaction_ns == 150 * MS


def test_escape_asks_at_once_while_a_screen_settles_and_its_answer_waits_for_the_question() -> None:
    app, rig = race(out=[].append)
    decided(app, rig)
    assert not app.draw().live
    app.key(pygame.K_ESCAPE, True)          # leaving is never held back: the question comes at once
    assert app.asking and not app.quit
    frame = app.draw()
    assert frame.screen == "leave" and not frame.live
    app.key(pygame.K_RETURN, True)          # a bounced Enter cannot answer a question nobody read
    assert not app.quit
    rig.t_ns += SETTLE_NS
    app.draw()
    app.key(pygame.K_RETURN, True)
    assert app.quit


def test_the_first_frame_takes_input_at_once_and_settle_time_is_a_keyword() -> None:
    app, rig = race(settle_ns=0)
    frame = app.draw()                      # nothing was on the glass before: nothing to misread
    assert frame.live
    decided(app, rig)
    app.draw()
    frame = app.draw()
    assert frame.live                       # no settling asked for
    app.tap(spot(frame, "start"))
    assert app.session.phase is Phase.ARMED
    with pytest.raises(ValueError, match=r"^settle time -1 ns is negative: use 0 \(no settling\) or more$"):
        Glass(-1)


def test_the_kiosks_race_settles_after_the_staff_screens_but_its_gate_key_does_not(tmp_path: Path) -> None:
    from test_kiosk_referee import make_kiosk, races

    app = races(make_kiosk(tmp_path / "data", game="grab"), "grab")
    app.draw()
    app.key(pygame.K_F1, True)              # the staff gate: the PIN keypad over the race
    assert app.draw().screen == "pin"
    app.key(pygame.K_ESCAPE, True)
    frame = app.draw()
    assert frame.screen == "race" and not app.race.frame.live
    (start,) = [s for s in frame.hotspots if s.act.kind == "start"]
    app.tap(start.rect.center)              # a tap meant for the keypad's Back
    assert app.race.session.phase is Phase.READY
    app.key(pygame.K_TAB, True)             # leaving: never held back
    assert app.ui.pin_open
