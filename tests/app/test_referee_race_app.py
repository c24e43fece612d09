"""Referee races on the app's inputs (issue 14 point 3): the red button starts a race, GO is
asked of the adapter when the session's fore-period ends and judged at the adapter's stamp,
edges are judged by their stamps, taps and keys are the host's, a GO the adapter cannot give
calls the race off, and every input reaches the log in the order it was fed. A fake adapter on
a clock the test moves; the same RaceApp runs on the board or the GPIO rig."""

from __future__ import annotations

import pygame
from display_helpers import fonts
from test_display_app import FakeRig

from firmware_host.errors import AdapterError
from firmware_host.records import SeatLight
from game.app.referee.race_app import RaceApp
from game.app.referee.shell import SETTLE_NS
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.sound import Sounds
from game.inputs import CaughtPress, CaughtRelease, Go, Press, Release
from game.referee.presets import load_presets
from game.referee.session import Phase, new_session, step

MS = 1_000_000
NAMES = ("Ali", "Bea", "Cem", "Dan")


class _Sounds(Sounds):
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


class _Rig(FakeRig):
    """A rig whose GO can fail (a yanked cable) and that stamps GO ``go_late_ns`` late."""

    go_fails = False
    go_late_ns = 2 * MS
    armed = 0

    def arm(self, seats):  # type: ignore[no-untyped-def]
        """As the board: each arming has a number of its own, which its RaceVoided names."""
        from firmware_host.records import ArmReport

        self.armed += 1
        self.calls.append(("arm", tuple(seats)))
        return ArmReport(self.t_ns, self.clock, (), race=100 + self.armed)

    def finish(self) -> None:
        self.calls.append(("finish", None))

    def go(self, seats):  # type: ignore[no-untyped-def]
        if self.go_fails:
            raise AdapterError("the buzzer board is not answering")
        self.calls.append(("go", tuple(seats)))
        return Go(self.t_ns + self.go_late_ns, self.clock)


def _app(preset: str, seats: int = 4) -> tuple[RaceApp, _Rig, _Sounds, list[object]]:
    rig = _Rig()
    sounds = _Sounds()
    logged: list[object] = []
    session = new_session(load_presets().get(preset), seats, clock=rig.clock, resolution_ns=rig.resolution_ns,
                          seed=5, t_ns=rig.t_ns)
    app = RaceApp(detected=Detected(rig, "board"), session=session, names=NAMES[:seats], lang="en",
                  fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=sounds, record=logged.append)
    return app, rig, sounds, logged


def _until_go(app: RaceApp, rig: _Rig) -> int:
    """Move the clock a frame at a time until the app has given GO; GO's stamp."""
    for _ in range(400):
        rig.t_ns += 16 * MS
        app.poll()
        if app.session.phase is not Phase.ARMED:
            break
    race = app.session.race
    assert race is not None and race.go_t_ns is not None
    return race.go_t_ns


def test_the_red_button_starts_and_go_is_stamped_by_the_adapter() -> None:
    app, rig, sounds, logged = _app("grab")
    rig.events += [CaughtPress(rig.t_ns, rig.clock), CaughtRelease(rig.t_ns + 80 * MS, rig.clock)]
    app.poll()
    assert app.session.phase is Phase.ARMED and ("arm", (0, 1, 2, 3)) in rig.calls
    assert "ready" in sounds.played
    due = app.go.t_ns if app.go else None
    go = _until_go(app, rig)
    assert due is not None and go >= due and ("go", (0, 1, 2, 3)) in rig.calls
    # Cem's press arrives after Bea's but was stamped first: Cem wins, timed from GO's stamp.
    rig.t_ns = go + 400 * MS
    rig.events += [Press(1, go + 250 * MS, rig.clock), Press(2, go + 205 * MS, rig.clock),
                   Release(1, go + 350 * MS, rig.clock), Release(2, go + 300 * MS, rig.clock)]
    app.poll()
    assert app.session.phase is Phase.DECIDED
    result = app.session.result
    assert result is not None and result.winners == (2,) and result.places[0].reaction_ns == 205 * MS
    assert ("show", {0: SeatLight.OFF, 1: SeatLight.OFF, 2: SeatLight.WINNER, 3: SeatLight.OFF}) in rig.calls
    assert app.session.wins(2) == 1
    # Everything fed was logged, in order: replayed, it gives the same session.
    replayed = new_session(app.session.preset, 4, clock=rig.clock, resolution_ns=rig.resolution_ns, seed=5,
                           t_ns=1_000 * MS)
    for event in logged:
        replayed, _ = step(replayed, event)  # type: ignore[arg-type]
    assert replayed == app.session


def test_a_go_the_adapter_cannot_give_calls_the_race_off() -> None:
    app, rig, _, _ = _app("duel", seats=2)
    app.host(Act("start"))
    rig.go_fails = True
    for _ in range(400):
        rig.t_ns += 16 * MS
        app.poll()
        if app.session.phase is not Phase.ARMED:
            break
    assert app.session.phase is Phase.READY and app.session.results == ()
    assert app.notice is not None and "called off" in app.notice[0]
    rig.go_fails = False
    app.host(Act("start"))
    go = _until_go(app, rig)
    rig.t_ns = go + 500 * MS
    rig.events += [Press(0, go + 190 * MS, rig.clock), Press(1, go + 260 * MS, rig.clock)]
    app.poll()
    assert app.session.result is not None and app.session.result.winners == (0,) and app.session.number == 2


def test_bell_slap_the_host_voids_a_wrong_slap_with_a_tap() -> None:
    app, rig, sounds, _ = _app("bell-slap")
    app.host(Act("start"))
    armed = rig.t_ns
    assert app.session.phase is Phase.RUNNING and app.go is None    # the table's GO: no GO asked of the rig
    rig.t_ns += 5_000 * MS
    rig.events += [Press(3, armed + 4_000 * MS, rig.clock), Press(0, armed + 4_080 * MS, rig.clock)]
    app.poll()
    rig.t_ns += 200 * MS
    app.poll()
    assert app.session.result is not None and app.session.result.winners == (3,)
    app.draw()
    (void,) = [h for h in app.frame.hotspots if h.act.kind == "void"]
    assert void.act.value == 3
    app.tap(void.rect.center)
    assert app.session.result.winners == (0,) and "guilty" in sounds.played


def _key(app: RaceApp, rig: _Rig, key: int) -> None:
    """A key on a settled frame (drawn, then drawn again once its screen settled)."""
    app.draw()
    rig.t_ns += SETTLE_NS
    app.draw()
    app.key(key, True)


def test_keys_start_call_off_and_show_the_statistics() -> None:
    app, rig, sounds, _ = _app("grab")
    _key(app, rig, pygame.K_v)                               # no void button shown: V is not bound
    assert app.notice is None and sounds.played == [] and app.session.phase is Phase.READY
    _key(app, rig, pygame.K_SPACE)
    assert app.session.phase is Phase.ARMED
    _key(app, rig, pygame.K_c)
    assert app.session.phase is Phase.READY and app.session.number == 1 and app.session.results == ()
    _key(app, rig, pygame.K_RETURN)                          # race 2, called off with a tap this time
    (call_off,) = [h for h in app.draw().hotspots if h.act.kind == "call_off"]
    rig.t_ns += SETTLE_NS
    app.draw()
    app.tap(call_off.rect.center)
    assert app.session.phase is Phase.READY and app.session.number == 2 and app.session.results == ()
    _key(app, rig, pygame.K_t)                               # seat 2's key, never the statistics
    assert not app.stats
    _key(app, rig, pygame.K_s)
    assert app.stats
    app.draw()
    assert app.frame.overflows == ()
    app.key(pygame.K_ESCAPE, True)                           # leaving: not held back while the chart settles
    assert app.quit


def test_a_host_act_the_session_refuses_is_said_in_the_footer() -> None:
    app, rig, sounds, _ = _app("grab")
    app.host(Act("void", 0))                                 # however it comes: refused, said
    assert app.notice is not None and "does not let the table void" in app.notice[0]
    assert "refused" in sounds.played and app.session.phase is Phase.READY


def test_keyboard_seats_press_on_keyboard_input_only() -> None:
    app, rig, _, _ = _app("grab")
    app.key(pygame.K_q, True)                                 # a board: Q is not a seat
    assert app.session.held == ()
    kb, kb_rig, _, _ = _app("grab")
    kb.keyboard_seats = True
    kb.key(pygame.K_q, True)
    assert kb.session.held == ((0, kb_rig.t_ns),)


def test_a_session_logged_by_the_app_resumes_after_a_pulled_plug(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from game.app.referee.race_log import RaceLog

    rig = _Rig()
    preset = load_presets().get("grab")
    log = RaceLog.open(tmp_path / "grab.db", preset, 4, clock=rig.clock, resolution_ns=rig.resolution_ns, seed=5,
                       t0_ns=rig.t_ns)
    app = RaceApp(detected=Detected(rig, "board"), session=log.session, names=NAMES, lang="en", fonts=fonts("en"),
                  surface=pygame.Surface((800, 480)), sounds=_Sounds(), record=log.record)
    app.host(Act("start"))
    go = _until_go(app, rig)
    rig.t_ns = go + 600 * MS
    rig.events += [Press(1, go + 180 * MS, rig.clock), Release(1, go + 300 * MS, rig.clock)]
    app.poll()
    assert app.session.result is not None and app.session.result.winners == (1,)
    app.host(Act("start"))                       # race 2 armed ... and the plug is pulled
    assert app.session.phase is Phase.ARMED
    log.close()
    again = RaceLog.open(tmp_path / "grab.db", preset, 4, clock=rig.clock, resolution_ns=rig.resolution_ns)
    assert again.called_off == 2 and any("race 2" in n for n in again.notices)
    s = again.session
    assert s.phase is Phase.READY and s.wins(1) == 1 and len(s.decided) == 1
    assert again.clock_shift_ns(rig.t_ns + 5 * MS) == 0      # the same clock, moved on: nothing to shift
    again.close()


def test_a_race_the_board_lost_edges_of_is_called_off_and_said() -> None:
    """The buzzer board's RaceVoided (the link dropped mid-race, edges may be lost): the race
    on screen counts for nothing, the footer says why, the next start runs a fresh one."""
    from firmware_host.boardlink.rig import RaceVoided

    app, rig, _, _ = _app("grab")
    app.host(Act("start"))
    go = _until_go(app, rig)
    rig.t_ns = go + 100 * MS
    rig.events += [Press(0, go + 90 * MS, rig.clock), RaceVoided(101, "the board was disconnected", None)]
    app.poll()
    assert app.session.phase is Phase.READY and app.session.results == ()
    assert app.notice is not None and "lost presses" in app.notice[0]
    app.host(Act("start"))
    assert app.session.phase is Phase.ARMED and app.session.number == 2


def test_the_board_is_told_a_race_is_over_and_a_late_void_of_it_changes_nothing() -> None:
    from firmware_host.boardlink.rig import RaceVoided

    app, rig, _, _ = _app("grab")
    app.host(Act("start"))
    go = _until_go(app, rig)
    rig.t_ns = go + 500 * MS
    rig.events += [Press(2, go + 190 * MS, rig.clock), Release(2, go + 290 * MS, rig.clock)]
    app.poll()
    assert app.session.phase is Phase.DECIDED and rig.calls[-1] == ("finish", None)
    app.host(Act("start"))                          # race 2: the board's arming 102
    assert app.session.phase is Phase.ARMED
    rig.events += [RaceVoided(101, "the board was disconnected", None)]   # race 1's, come late
    app.poll()
    assert app.session.phase is Phase.ARMED and app.notice is None
    rig.events += [RaceVoided(102, "the board was disconnected", None)]
    app.poll()
    assert app.session.phase is Phase.READY and app.notice is not None


def test_a_preset_on_the_gpio_rig_with_kernel_stamps() -> None:
    """The same app on the GPIO adapter (gpiozero's MockFactory with the kernel's stamps, the
    lgpio factory's float seconds): GO stamped on the factory clock when it fell due, presses
    at their kernel stamps, edge directions inferred as on a Pi, the early hand out."""
    from firmware_host.gpio import GpioRig
    from firmware_host.mockpins import ClockedMockFactory
    from firmware_host.pinmap import load_pinmap

    factory = ClockedMockFactory()
    pinmap = load_pinmap()
    rig = GpioRig(pinmap, pin_factory=factory)
    try:
        factory.set_now_ns(2_000 * 10**9)
        session = new_session(load_presets().get("grab"), 4, clock=rig.clock, resolution_ns=rig.resolution_ns,
                              seed=5, t_ns=rig.now_ns())
        app = RaceApp(detected=Detected(rig, "gpio"), session=session, names=NAMES, lang="en", fonts=fonts("en"),
                      surface=pygame.Surface((800, 480)), sounds=_Sounds())
        app.host(Act("start"))
        assert app.go is not None
        due = app.go.t_ns
        button = lambda seat: factory.stamped_pin(pinmap.seats[seat].button)   # noqa: E731
        button(3).press(due - 300 * MS)                     # Dan's hand moves before GO
        button(3).release(due - 200 * MS)
        app.poll()
        factory.set_now_ns(due + 1_000)                     # the loop wakes 1 µs after GO fell due
        app.poll()
        race = app.session.race
        assert app.session.phase is Phase.RUNNING and race is not None and race.go_t_ns == due + 1_000
        for seat, ms in ((1, 231), (0, 248), (2, 260)):
            button(seat).press(due + 1_000 + ms * MS)
            button(seat).release(due + 1_000 + (ms + 90) * MS)
        factory.set_now_ns(due + 900 * MS)
        app.poll()
        app.poll()                                          # the settle window's tick
        result = app.session.result
        assert app.session.phase is Phase.DECIDED and result is not None and result.winners == (1,)
        # Decided once Bea's press had settled (Ann's edges came in the same drain): Cem's later
        # press is after the result (grab's lockout: the first hand takes it).
        assert [(p.seat, p.reaction_ns) for p in result.places] == [(1, 231 * MS), (0, 248 * MS)]
        assert [f.seat for f in result.false_starts] == [3]
    finally:
        rig.close()
