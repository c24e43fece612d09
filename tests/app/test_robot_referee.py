"""A robot group plays the quiz and every race preset through the shell's own pygame loop
(:func:`game.app.referee.shell.frame_loop`, SDL's dummy video driver) on a virtual clock: real
pygame events (a mouse button down and up 80–300 ms apart, key down and up, keyboard seats)
after seeded reading pauses of 0.2–15 s, and now and then two inputs at once.

The oracle, after every gesture: the host acts applied are exactly those of the last frame
presented when the input came — the act of the tap target under the pointer at mouse-down
(from that frame's own hit map), or of the key in that frame's key table — or nothing while
that frame's screen was settling (the robot keeps its own account of when each screen first
appeared), nothing where no target was, and nothing after one act until the next frame. Seat
keys are fed, stamped at once, settling or not. At the end the robot presses Esc: a session with
something to lose asks "Leave?" first, and the robot answers Enter once it has read it (an
Enter while the question settles is dropped, and tried again). Nothing here sleeps or reads a
real clock: ``frame_loop``'s ``wait`` moves the fake adapter's clock instead."""

from __future__ import annotations

import heapq
import itertools
import math
import random
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pygame
import pytest
from display_helpers import fonts
from test_referee_keys import NAMES, PRESETS, Quiet, Rig8

from game.app.referee.glass import Drawn
from game.app.referee.keys import LEAVE, LEAVING, QUIT_KEYS, QUIZ_KEYS, RACE_KEYS, SEAT_KEYS_8, STAY
from game.app.referee.leave_screen import LEAVE_SCREEN
from game.app.referee.quiz_app import QuizApp
from game.app.referee.race_app import RaceApp
from game.app.referee.shell import SETTLE_NS, RefereeShell, frame_loop
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.inputs import Press, Release
from game.referee.quiz import Phase as QuizPhase
from game.referee.quiz import QuizSettings
from game.referee.session import Phase, new_session

MS = 1_000_000
S = 1_000 * MS
FRAME_NS = S // 60
COARSE_NS = 250 * MS            # frames while nobody touches anything: a quarter second apart
GESTURES = 32                   # per run; then Esc (and Enter, if it asks)
SEEDS = range(8)
#: Every host key any referee screen binds, and Esc: what a robot may press.
HOST_KEYS = sorted({k for table in (*QUIZ_KEYS.values(), *RACE_KEYS.values()) for k in table} - set(QUIT_KEYS))


@dataclass(frozen=True, slots=True, order=True)
class Planned:
    """One pygame event the robot will post at ``t_ns`` (a gesture is one or more of these)."""

    t_ns: int
    order: int
    event: pygame.event.Event = field(compare=False)


@dataclass
class Tally:
    """What the runs did, to show they tested something."""

    applied: int = 0                # host acts the oracle expected and saw
    settling: int = 0               # taps or keys on a shown button dropped while its screen settled
    after_act: int = 0              # inputs dropped after another act in the same frame
    missed: int = 0                 # taps where no target was
    seat_edges: int = 0
    phases: set[object] = field(default_factory=set)    # the phases of the screens shown
    asked: int = 0                  # runs whose Esc asked "Leave?" first


class Robot:
    """Plans gestures from the frame it sees, posts their events when the virtual clock gets
    there, and checks each against the frame that was on the glass."""

    def __init__(self, app: RefereeShell, rig: Rig8, seats: int, seed: int, tally: Tally) -> None:
        self.app, self.rig, self.seats, self.tally = app, rig, seats, tally
        self.rng = random.Random(seed)
        self.where = f"{type(app).__name__} seed {seed}"
        self.queue: list[Planned] = []
        self.order = itertools.count()
        self.gestures = 0
        self.started_ns = rig.t_ns              # when the last gesture began
        self.held = 0                           # buttons or keys down, posted
        self.acts: list[Act] = []               # host acts applied (the spy's)
        self.edges: list[Press | Release] = []  # seat edges fed (the spy's)
        self.expected_acts: list[Act] = []
        self.expected_edges: list[Press | Release] = []
        self.expect_quit = False
        self.screen: Hashable = None            # the screen of the last frame seen
        self.since_ns: int | None = None        # when it first appeared (None: the first screen)
        host, feed = app.host, app.feed

        def spy_host(act: Act) -> None:
            self.acts.append(act)
            host(act)

        def spy_feed(event: object) -> None:
            if isinstance(event, (Press, Release)):
                self.edges.append(event)
            feed(event)  # type: ignore[arg-type]

        app.host = spy_host  # type: ignore[method-assign]
        app.feed = spy_feed  # type: ignore[method-assign]

    # -- the oracle's own account of the glass ---------------------------------------------------

    def live(self, frame: Drawn) -> bool:
        """Whether ``frame`` takes taps: its screen has been up for the settle time, or it is
        the first screen ever shown."""
        return self.since_ns is None or frame.t_ns - self.since_ns >= SETTLE_NS

    def on_frame(self) -> None:
        frame = self.app.frame
        if self.screen is not None and frame.screen != self.screen:
            self.since_ns = frame.t_ns
        self.screen = frame.screen
        if isinstance(frame.screen, tuple):
            self.tally.phases.add(frame.screen[1])
        assert frame.live == self.live(frame), f"{self.where}: {frame.screen} live {frame.live} at {frame.t_ns}"
        assert self.acts == self.expected_acts, f"{self.where}: applied {self.acts}, the glass showed {self.expected_acts}"
        assert self.edges == self.expected_edges, f"{self.where}: fed {self.edges}, keys were {self.expected_edges}"
        assert self.app.quit == self.expect_quit
        self.tally.applied += len(self.acts)
        self.tally.seat_edges += len(self.edges)
        self.acts, self.edges, self.expected_acts, self.expected_edges = [], [], [], []
        if not self.queue and not self.app.quit:
            self.plan(frame)

    # -- gestures ----------------------------------------------------------------------------

    def at(self, t_ns: int, event_type: int, **attrs: Any) -> None:
        heapq.heappush(self.queue, Planned(t_ns, next(self.order), pygame.event.Event(event_type, **attrs)))

    def pause_ns(self) -> int:
        """A reading pause: 0.2 to 15 s, log-uniform (short glances as likely as long reads)."""
        return int(math.exp(self.rng.uniform(math.log(0.2), math.log(15.0))) * S)

    def plan(self, frame: Drawn) -> None:
        """The next gesture, chosen from what the robot sees now, done a reading pause after the
        last one began (a player reads on while a finger lifts), at the earliest a frame from now."""
        t = max(self.rig.t_ns + FRAME_NS, self.started_ns + self.pause_ns())
        self.started_ns = t
        hold = self.rng.randrange(80, 301) * MS
        if self.gestures >= GESTURES:
            if frame.screen == LEAVE_SCREEN:    # "Leave?": Enter leaves
                self.at(t, pygame.KEYDOWN, key=pygame.K_RETURN)
                self.at(t + hold, pygame.KEYUP, key=pygame.K_RETURN)
            else:
                self.at(t, pygame.KEYDOWN, key=pygame.K_ESCAPE)
            return
        self.gestures += 1
        roll = self.rng.random()
        if roll < 0.45:
            self.tap(t, hold, frame)
        elif roll < 0.55:
            self.at(t, pygame.MOUSEBUTTONDOWN, button=1, pos=self.anywhere(), touch=False)
            self.at(t + hold, pygame.MOUSEBUTTONUP, button=1, pos=self.anywhere(), touch=False)
        elif roll < 0.7:
            shown = [k for k in frame.keys if k not in QUIT_KEYS]
            key = self.rng.choice(shown if shown and self.rng.random() < 0.7 else HOST_KEYS)
            self.at(t, pygame.KEYDOWN, key=key)
            self.at(t + hold, pygame.KEYUP, key=key)
        elif roll < 0.92:
            # The whole group racing (each hand at its own speed), or one to three seats,
            # sometimes one not seated (its key feeds nothing).
            group = self.rng.random() < 0.4
            seats = range(self.seats) if group else self.rng.sample(range(8), self.rng.choice((1, 1, 2, 3)))
            for seat in seats:
                down = t + self.rng.randrange(0, 400 if group else 40) * MS
                self.at(down, pygame.KEYDOWN, key=SEAT_KEYS_8[seat])
                self.at(down + hold, pygame.KEYUP, key=SEAT_KEYS_8[seat])
        else:
            # Two inputs at once (a double fire): the second is aimed at a screen already gone.
            self.tap(t, hold, frame)
            shown = [k for k in frame.keys if k not in QUIT_KEYS]
            key = self.rng.choice(shown or HOST_KEYS)
            self.at(t, pygame.KEYDOWN, key=key)
            self.at(t + hold, pygame.KEYUP, key=key)

    def tap(self, t: int, hold: int, frame: Drawn) -> None:
        """A tap somewhere inside a target the robot sees (or anywhere, if none)."""
        if frame.hotspots:
            rect = self.rng.choice(frame.hotspots).rect
            pos = (self.rng.randrange(rect.left, rect.right), self.rng.randrange(rect.top, rect.bottom))
        else:
            pos = self.anywhere()
        self.at(t, pygame.MOUSEBUTTONDOWN, button=1, pos=pos, touch=False)
        self.at(t + hold, pygame.MOUSEBUTTONUP, button=1, pos=pos, touch=False)

    def anywhere(self) -> tuple[int, int]:
        w, h = self.app.surface.get_size()
        return self.rng.randrange(w), self.rng.randrange(h)

    # -- the clock and the events -----------------------------------------------------------

    def wait(self, ns: int) -> None:
        """The loop's sleep until its next frame, on the virtual clock: a frame while something
        is held or about to happen, else up to a quarter second (never past GO, a tick or the
        robot's next event); then the events that fell due are posted."""
        now = self.rig.t_ns
        step = ns
        nxt = self.queue[0].t_ns if self.queue else None
        if self.held == 0 and (nxt is None or nxt - now > 2 * FRAME_NS):
            due = self.app.next_due_ns()
            horizon = min(t for t in (now + COARSE_NS, None if nxt is None else nxt - FRAME_NS, due) if t is not None)
            step = max(step, horizon - now)
        target = now + step if nxt is None else min(now + step, nxt)
        self.rig.t_ns = target
        self.post_due()

    def post_due(self) -> None:
        frame = self.app.frame
        acted = False
        while self.queue and self.queue[0].t_ns <= self.rig.t_ns:
            event = heapq.heappop(self.queue).event
            pygame.event.post(event)
            acted = self.expect(frame, event, acted)

    def expect(self, frame: Drawn, event: pygame.event.Event, acted: bool) -> bool:
        """What ``event`` must do on ``frame``; whether a host act was due by then."""
        now = self.rig.t_ns
        if event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key in SEAT_KEYS_8:
            down = event.type == pygame.KEYDOWN
            self.held += 1 if down else -1
            seat = SEAT_KEYS_8.index(event.key)
            if seat < self.seats:
                edge = Press if down else Release
                self.expected_edges.append(edge(seat, now, self.rig.clock))
            return acted
        if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYUP):
            self.held -= 1
            return acted
        self.held += 1
        if event.type == pygame.KEYDOWN:
            act = frame.keys.get(event.key)
            if act is not None and act.kind in LEAVING:
                self.held -= 1                  # Esc's key-up is never posted
                if self.app.at_stake():
                    self.tally.asked += 1       # "Leave?" first: the next frame is the question
                else:
                    self.expect_quit = True     # nothing to lose: the run ends
                return acted
        else:
            act = next((spot.act for spot in frame.hotspots if spot.rect.collidepoint(event.pos)), None)
            self.tally.missed += act is None
        if act is None:
            return acted
        if not self.live(frame):
            self.tally.settling += 1
        elif acted:
            self.tally.after_act += 1
        elif act.kind in (LEAVE, STAY):         # the question's answers are the shell's, not the host's
            self.expect_quit = act.kind == LEAVE
            return True
        else:
            self.expected_acts.append(act)
            return True
        return acted


def run(app: RefereeShell, rig: Rig8, seats: int, seed: int, tally: Tally) -> None:
    robot = Robot(app, rig, seats, seed, tally)
    pygame.event.clear()
    frames = frame_loop(app, on_frame=robot.on_frame, wait=robot.wait, max_frames=20_000)
    assert app.quit and robot.gestures == GESTURES, f"{robot.where}: {frames} frames, {robot.gestures} gestures"


@pytest.fixture()
def window() -> Iterator[pygame.Surface]:
    """The dummy video driver's window (conftest.py sets SDL_VIDEODRIVER=dummy): frames are
    flipped to it and events come from its queue, as on a real screen."""
    pygame.display.init()
    yield pygame.display.set_mode((800, 480))
    pygame.display.quit()


def shows_it_was_tested(tally: Tally) -> None:
    """Every kind of input the oracle judges happened, over the seeds."""
    assert tally.applied >= len(SEEDS) * 3, tally
    assert tally.settling >= 5 and tally.after_act >= 3 and tally.missed >= 5 and tally.seat_edges >= 20, tally
    assert tally.asked >= 1, tally            # some run had something to lose: Esc asked first


def test_a_robot_group_plays_the_quiz(window: pygame.Surface) -> None:
    tally = Tally()
    for seed in SEEDS:
        rng = random.Random(seed)
        seats = rng.randrange(2, 9)
        rig = Rig8()
        settings = QuizSettings(seats=seats, clock=rig.clock, resolution_ns=rig.resolution_ns,
                                answer_ms=rng.choice((0, 8000)), buzz_window_ms=rng.choice((0, 10_000)))
        app = QuizApp(detected=Detected(rig, "keyboard"), settings=settings, seed=seed, names=NAMES[:seats],
                      lang="en", fonts=fonts("en"), surface=window, sounds=Quiet())
        run(app, rig, seats, seed, tally)
    shows_it_was_tested(tally)
    assert tally.phases == set(QuizPhase)


@pytest.mark.parametrize("preset_id", sorted(PRESETS.ids))
def test_a_robot_group_plays_each_race_preset(window: pygame.Surface, preset_id: str) -> None:
    tally = Tally()
    preset = PRESETS.get(preset_id)
    for seed in SEEDS:
        seats = random.Random(seed).randrange(preset.min_players, preset.max_players + 1)
        rig = Rig8()
        session = new_session(preset, seats, clock=rig.clock, resolution_ns=rig.resolution_ns, seed=seed,
                              t_ns=rig.t_ns)
        app = RaceApp(detected=Detected(rig, "keyboard"), session=session, names=NAMES[:seats], lang="en",
                      fonts=fonts("en"), surface=window, sounds=Quiet())
        run(app, rig, seats, seed, tally)
    shows_it_was_tested(tally)
    assert {Phase.RUNNING, Phase.DECIDED} <= tally.phases, tally.phases
