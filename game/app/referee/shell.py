"""What the referee screens' shells share: the input adapter's lights and link, tones, wake-ups,
the footer's notice, taps on the host's buttons and the frame loop. The quiz
(:mod:`.quiz_app`) and the races (:mod:`.race_app`) each add their own pure step, keys and
screen on top.

A buzzer board that goes away (a yanked cable) is said in the footer when the loop sees its link
down, and the shell keeps its state; when the board answers again (a new link session: a
replugged or restarted board shows nothing) the seat lights are sent to it whole.
"""

from __future__ import annotations

import heapq
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import pygame

from firmware_host.errors import AdapterError

from ...controller.effects import Effect, Leds, Light, Notice, PlaySound, WakeAt
from ...i18n.lookup import render
from ...inputs import Press, Release
from ...messages import Message
from ..ui.actions import Act, Hotspot
from ..ui.adapters import LIGHTS, Detected, InputAdapter
from ..ui.console import SEAT_KEYS
from ..ui.fonts import Fonts
from ..ui.sound import Sounds

S = 1_000_000_000
MS = 1_000_000
#: Keyboard seats: the table's seven keys and M for an eighth seat.
SEAT_KEYS_8: tuple[int, ...] = (*SEAT_KEYS, pygame.K_m)
NOTICE_NS = 4 * S


def dispatch(event: pygame.event.Event, surface: pygame.Surface, *, key: Callable[[int, bool], None],
             tap: Callable[[tuple[int, int]], None]) -> bool:
    """A pygame event to a screen: key edges to ``key``, a left click or a finger (in the
    surface's pixels) to ``tap``; True for the window being closed."""
    if event.type == pygame.QUIT:
        return True
    if event.type in (pygame.KEYDOWN, pygame.KEYUP):
        key(event.key, event.type == pygame.KEYDOWN)
    elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
        tap(event.pos)      # a touch also arrives as a FINGERDOWN: counted once
    elif event.type == pygame.FINGERDOWN:
        w, h = surface.get_size()
        tap((int(event.x * w), int(event.y * h)))
    return False


@dataclass(frozen=True, slots=True)
class Drawn:
    hotspots: tuple[Hotspot, ...]
    overflows: tuple[object, ...]


class RefereeShell(ABC):
    """The imperative parts around a referee screen's pure step. Subclasses give ``host`` (a
    tap or key as the host's act), ``key`` (a key edge), ``poll`` (edges, GO, ticks),
    ``draw`` and ``lights`` (the seat lights the state shows now)."""

    #: The catalog key of what a yanked board cable costs this screen, said in the footer.
    link_lost_key = "ref_board_gone_race"

    def __init__(self, *, detected: Detected, names: tuple[str, ...], lang: str, fonts: Fonts,
                 surface: pygame.Surface, sounds: Sounds, say: Callable[[str], None] | None = None) -> None:
        self.detected = detected
        self.adapter = detected.adapter
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

    # -- given by each screen ------------------------------------------------------------------

    @abstractmethod
    def host(self, act: Act) -> None: ...

    @abstractmethod
    def key(self, key: int, down: bool) -> None: ...

    @abstractmethod
    def poll(self) -> None: ...

    @abstractmethod
    def draw(self) -> Drawn: ...

    @abstractmethod
    def lights(self) -> Leds: ...

    def keyboard_seat(self, key: int, down: bool, seats: int, feed: Callable[[Press | Release], None]) -> bool:
        """Whether ``key`` is a keyboard seat's (on keyboard input only); if it is one of the
        ``seats`` seats, its edge, stamped now, goes to ``feed``."""
        if key not in SEAT_KEYS_8 or not self.keyboard_seats:
            return False
        seat = SEAT_KEYS_8.index(key)
        if seat < seats:
            now = self.adapter.now_ns()
            feed(Press(seat, now, self.adapter.clock) if down else Release(seat, now, self.adapter.clock))
        return True

    # -- effects -------------------------------------------------------------------------------

    def perform(self, effect: Effect) -> None:
        if isinstance(effect, Leds):
            lights = {seat: LIGHTS[light] for seat, light in enumerate(effect.seats) if seat < self.adapter.seats}
            try:
                self.adapter.show(lights)
                show_guard = getattr(self.adapter, "show_guard", None)
                if callable(show_guard):
                    show_guard(effect.caught is not Light.OFF)   # lit while the red button is the host's
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

    def notice_words(self, now: int) -> str:
        return self.notice[0] if self.notice is not None and now < self.notice[1] else ""

    def due_tick(self) -> int | None:
        """The time for a ``Tick`` when a wake-up fell due (all those due are used up), else None."""
        now = self.adapter.now_ns()
        if not self.wakes or self.wakes[0] > now:
            return None
        while self.wakes and self.wakes[0] <= now:
            heapq.heappop(self.wakes)
        return now

    def drain(self) -> list[object]:
        """The adapter's records; a yanked cable is said and gives none (the state is kept)."""
        try:
            return list(self.adapter.drain())
        except AdapterError as exc:
            self.note(str(exc))
            return []

    # -- the link ------------------------------------------------------------------------------

    def _session(self) -> object:
        """The adapter's link session (a board's; None for inputs without one)."""
        return getattr(getattr(self.adapter, "info", None), "session", None)

    def watch_link(self) -> None:
        """An input with a link (the buzzer board) that went down is said once, the state is
        kept; once it is up again, in a new session, the lights are sent to it whole."""
        connected = getattr(self.adapter, "wait_connected", None)
        if not callable(connected):
            return
        link = (bool(connected(0)), self._session())
        if link == self.link:
            return
        was_up, self.link = self.link[0], link
        if was_up and not link[0]:
            self.note(render(Message.of(self.link_lost_key), self.lang))
        elif link[0]:
            self.perform(self.lights())   # a replugged or restarted board shows nothing

    # -- pygame --------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if dispatch(event, self.surface, key=self.key, tap=self.tap):
            self.quit = True

    def tap(self, pos: tuple[int, int]) -> None:
        for spot in self.frame.hotspots:
            if spot.rect.collidepoint(pos):
                self.host(spot.act)
                return

    def next_due_ns(self) -> int | None:
        """When the state wants attention next (a tick), on the adapter's clock, or None."""
        return self.wakes[0] if self.wakes else None

    def run(self, *, fps: int = 60, max_frames: int | None = None) -> int:
        return frame_loop(self, fps=fps, max_frames=max_frames)


class FrameApp(Protocol):
    """What :func:`frame_loop` runs: a referee screen's shell, or the kiosk's races around one."""

    quit: bool
    surface: pygame.Surface
    adapter: InputAdapter

    def handle(self, event: pygame.event.Event) -> None: ...
    def poll(self) -> None: ...
    def draw(self) -> object: ...
    def next_due_ns(self) -> int | None: ...


def frame_loop(app: FrameApp, *, fps: int = 60, max_frames: int | None = None,
               on_frame: Callable[[], None] | None = None) -> int:
    """Events, ``poll``, a frame and ``on_frame`` (the kiosk's watchdog), until the app quits (or
    ``max_frames``); returns the frames drawn. Between frames it sleeps to the next one, or less
    when GO or a tick falls due sooner, so GO is not a frame late."""
    clock = pygame.time.Clock()
    frames = 0
    while not app.quit and (max_frames is None or frames < max_frames):
        for event in pygame.event.get():
            app.handle(event)
        app.poll()
        app.draw()
        if pygame.display.get_surface() is app.surface:
            pygame.display.flip()
        if on_frame is not None:
            on_frame()
        frames += 1
        if app.quit or (max_frames is not None and frames >= max_frames):
            break
        due = app.next_due_ns()
        if due is not None and due - app.adapter.now_ns() < S // fps:
            pygame.time.wait(max(0, (due - app.adapter.now_ns()) // MS))
        else:
            clock.tick(fps)
    return frames
