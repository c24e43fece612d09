"""The quiz-show lockout on a screen: the imperative shell around :func:`game.referee.quiz.step`.

Inputs: button edges from the input adapter (the board's or the kernel's stamps; keyboard seats
stamped when the loop reads them), the host's taps and keys, and ticks when a timer falls due.
Effects: seat lights (``Leds``) to the adapter, tones to the speaker, ``WakeAt`` to the tick
queue, ``Notice`` (a refusal) to the footer for a few seconds.

A buzzer board that goes away (a yanked cable) is said in the footer when the loop sees its link
down, and the quiz keeps its state; when the board answers again (a new link session: a replugged
or restarted board shows nothing) the seat lights are sent to it whole.

Host controls: the touch screen's buttons; keys A or Space arm, R right, X wrong, S skip, 1–9
the score shortcuts in order, Esc quits; the red Caught! button arms when no question is open
and passes to the next in line ("wrong") while a seat answers.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from firmware_host.errors import AdapterError

from ...controller.effects import Effect, Leds, Light, Notice, PlaySound, WakeAt
from ...i18n.lookup import render
from ...inputs import CaughtPress, Press, Release
from ...referee.quiz import (
    Arm, Phase, QuizInput, QuizSettings, QuizState, Right, Score, Skip, Tick, Wrong, leds, new_quiz, step,
)
from ..ui.actions import Act, Hotspot
from ..ui.adapters import LIGHTS, Detected
from ..ui.console import SEAT_KEYS
from ..ui.fonts import Fonts
from ..ui.paint import Painter
from ..ui.sound import Sounds
from .quiz_screen import QuizView, draw_quiz

S = 1_000_000_000
MS = 1_000_000
NOTICE_NS = 4 * S
#: Keyboard seats: the table's seven keys and M for an eighth seat.
QUIZ_SEAT_KEYS: tuple[int, ...] = (*SEAT_KEYS, pygame.K_m)


@dataclass(frozen=True, slots=True)
class Drawn:
    hotspots: tuple[Hotspot, ...]
    overflows: tuple[object, ...]


class QuizApp:
    def __init__(self, *, detected: Detected, settings: QuizSettings, seed: int, names: tuple[str, ...],
                 lang: str, fonts: Fonts, surface: pygame.Surface, sounds: Sounds,
                 say: Callable[[str], None] | None = None) -> None:
        self.detected = detected
        self.adapter = detected.adapter
        self.state: QuizState = new_quiz(settings, seed, self.adapter.now_ns())
        self.names = names
        self.lang = lang
        self.fonts = fonts
        self.surface = surface
        self.sounds = sounds
        self.say = say
        self.wakes: list[int] = []
        self.notice: tuple[str, int] | None = None
        self.frame = Drawn((), ())
        self.quit = False
        self.keyboard_seats = detected.name == "keyboard"
        self.link: tuple[bool, object] = (True, self._session())   # (up, session) as last seen

    # -- inputs --------------------------------------------------------------------------------

    def feed(self, event: QuizInput) -> None:
        self.state, effects = step(self.state, event)
        for effect in effects:
            self.perform(effect)

    def perform(self, effect: Effect) -> None:
        if isinstance(effect, Leds):
            lights = {seat: LIGHTS[light] for seat, light in enumerate(effect.seats) if seat < self.adapter.seats}
            try:
                self.adapter.show(lights)
                show_guard = getattr(self.adapter, "show_guard", None)
                if callable(show_guard):
                    show_guard(effect.caught is not Light.OFF)   # lit while the red button can arm
            except AdapterError as exc:
                self.note(f"{exc}")
        elif isinstance(effect, PlaySound):
            self.sounds.play(effect.name)
        elif isinstance(effect, WakeAt):
            heapq.heappush(self.wakes, effect.t_ns)
        elif isinstance(effect, Notice):
            self.note(render(effect.message, self.lang))

    def note(self, words: str) -> None:
        self.notice = (words, self.adapter.now_ns() + NOTICE_NS)
        if self.say is not None:
            self.say(f"note: {words}")

    def host(self, act: Act) -> None:
        """A host's tap or key, stamped now on the input's clock."""
        now = self.adapter.now_ns()
        made: QuizInput | None = {
            "arm": Arm(now), "right": Right(now), "wrong": Wrong(now), "skip": Skip(now),
        }.get(act.kind)
        if act.kind == "score" and isinstance(act.value, int):
            made = Score(act.value, now)
        if made is not None:
            self.feed(made)

    def red_button(self) -> None:
        """The guard's Caught! button as the host's: arm, or pass to the next in line."""
        phase = self.state.phase
        if phase is Phase.IDLE:
            self.host(Act("arm"))
        elif phase is Phase.ANSWERING:
            self.host(Act("wrong"))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.quit = True
        elif event.type in (pygame.KEYDOWN, pygame.KEYUP):
            self._key(event.key, event.type == pygame.KEYDOWN)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
            self.tap(event.pos)
        elif event.type == pygame.FINGERDOWN:
            w, h = self.surface.get_size()
            self.tap((int(event.x * w), int(event.y * h)))

    def tap(self, pos: tuple[int, int]) -> None:
        for spot in self.frame.hotspots:
            if spot.rect.collidepoint(pos):
                self.host(spot.act)
                return

    def _key(self, key: int, down: bool) -> None:
        if key in QUIZ_SEAT_KEYS and self.keyboard_seats:
            seat = QUIZ_SEAT_KEYS.index(key)
            if seat < self.state.settings.seats:
                now = self.adapter.now_ns()
                self.feed(Press(seat, now, self.adapter.clock) if down else Release(seat, now, self.adapter.clock))
            return
        if not down:
            return
        if key == pygame.K_ESCAPE:
            self.quit = True
        elif key in (pygame.K_a, pygame.K_SPACE):
            self.host(Act("arm")) if self.state.phase is Phase.IDLE else None
        elif key == pygame.K_r:
            self.host(Act("right"))
        elif key == pygame.K_x:
            self.host(Act("wrong"))
        elif key == pygame.K_s:
            self.host(Act("skip"))
        elif pygame.K_1 <= key <= pygame.K_9:
            shortcuts = self.state.settings.shortcuts
            index = key - pygame.K_1
            if index < len(shortcuts):
                self.host(Act("score", shortcuts[index]))

    def _session(self) -> object:
        """The adapter's link session (a board's; None for inputs without one)."""
        return getattr(getattr(self.adapter, "info", None), "session", None)

    def watch_link(self) -> None:
        """An input with a link (the buzzer board) that went down is said once, the quiz keeps
        its state; once it is up again, in a new session, the lights are sent to it whole."""
        connected = getattr(self.adapter, "wait_connected", None)
        if not callable(connected):
            return
        link = (bool(connected(0)), self._session())
        if link == self.link:
            return
        was_up, self.link = self.link[0], link
        if was_up and not link[0]:
            self.note("the buzzer board is not answering (is its cable out?): the quiz keeps its "
                      "scores and its line, and presses count again when the board is back")
        elif link[0]:
            self.perform(leds(self.state))   # a replugged or restarted board shows nothing

    def poll(self) -> None:
        """Edges from the adapter (the red button is the host's), then ticks that fell due."""
        self.watch_link()
        try:
            records = self.adapter.drain()
        except AdapterError as exc:   # a yanked cable: said, and the quiz keeps its state
            self.note(str(exc))
            records = []
        for record in records:
            if isinstance(record, (Press, Release)):
                if record.player < self.state.settings.seats:
                    self.feed(record)
            elif isinstance(record, CaughtPress):
                self.red_button()
        now = self.adapter.now_ns()
        if self.wakes and self.wakes[0] <= now:
            while self.wakes and self.wakes[0] <= now:
                heapq.heappop(self.wakes)
            self.feed(Tick(max(now, self.state.now_t_ns)))

    # -- output --------------------------------------------------------------------------------

    def draw(self) -> Drawn:
        now = self.adapter.now_ns()
        words = self.notice[0] if self.notice is not None and now < self.notice[1] else ""
        p = Painter(self.surface, self.fonts, self.lang)
        draw_quiz(p, QuizView(self.state, self.names, now, words))
        self.frame = Drawn(tuple(p.hotspots), tuple(p.overflows))
        return self.frame

    def run(self, *, fps: int = 60, max_frames: int | None = None) -> int:
        clock = pygame.time.Clock()
        frames = 0
        while not self.quit and (max_frames is None or frames < max_frames):
            for event in pygame.event.get():
                self.handle(event)
            self.poll()
            self.draw()
            if pygame.display.get_surface() is self.surface:
                pygame.display.flip()
            frames += 1
            clock.tick(fps)
        return frames
