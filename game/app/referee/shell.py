"""What the referee screens' shells share: the input adapter's lights and link, tones, wake-ups,
the footer's notice, the host's taps and keys and the frame loop. The quiz (:mod:`.quiz_app`)
and the races (:mod:`.race_app`) each add their own pure step, key table (:mod:`.keys`) and
screen on top.

The screen on the glass owns the input: a tap is hit-tested against the frame last drawn and a
key looked up in that frame's key table, never in a state that moved on since. After one host
act, the rest of what came before the next frame is dropped (it was aimed at a screen that is
no longer true). When a frame shows a new screen (a photo finish, a verdict, GO), its buttons
are drawn dimmed and taps and host keys are ignored for ``settle_ns`` (300 ms), so one input
cannot dismiss a result and act on the next screen unseen. Seat buttons are never held back:
a press is race evidence, stamped by the input.

A buzzer board that goes away (a yanked cable) is said in the footer when the loop sees its link
down, and the shell keeps its state; when the board answers again (a new link session: a
replugged or restarted board shows nothing) the seat lights are sent to it whole.

Nothing is lost to one key: Esc or the window's close box, while the session has something to
lose (``at_stake``: a score, a tally, a race armed), puts up "Leave?" (:mod:`.leave_screen`):
Enter or Y (or its Leave button) leaves, Esc or N (or Keep playing) stays, and a second close
while it asks is the person insisting. Leaving prints the final scores or tally to the
terminal (``final_lines``, once) before the loop ends. Under the question the session goes on:
seat edges are race evidence, and GO and ticks come when due; only the host's acts wait.
"""

from __future__ import annotations

import heapq
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from typing import Protocol

import pygame

from firmware_host.errors import AdapterError

from ...controller.effects import Effect, Leds, Light, Notice, PlaySound, WakeAt
from ...i18n.lookup import render
from ...inputs import Press, Release
from ...messages import Message
from ..ui.actions import Act
from ..ui.adapters import LIGHTS, Detected, InputAdapter
from ..ui.fonts import Fonts
from ..ui.paint import Painter
from ..ui.sound import Sounds
from ..ui.glass import SETTLE_NS
from .glass import COVERED, Drawn, Glass
from .keys import LEAVE, QUIT, SEAT_KEYS_8, SETTINGS, STAY, leave_keys
from .leave_screen import LEAVE_SCREEN, LeaveView, draw_leave

S = 1_000_000_000
MS = 1_000_000
NOTICE_NS = 4 * S

__all__ = ["COVERED", "SEAT_KEYS_8", "SETTLE_NS", "Drawn", "RefereeShell", "dispatch", "frame_loop"]


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


class RefereeShell(ABC):
    """The imperative parts around a referee screen's pure step. Subclasses give ``host`` (the
    host's act, applied), ``feed`` (a keyboard seat's edge), ``seat_count``, ``poll`` (edges,
    GO, ticks), ``screen``, ``keys`` and ``paint`` (what the state shows now) and ``lights``
    (the seat lights it shows now), ``at_stake``, ``leave_view`` and ``final_lines`` (what
    leaving would lose, the question that asks first, the scores printed on leaving); taps and
    keys reach ``host`` only through the frame on the glass (:mod:`.glass`). ``out`` takes the
    lines printed on leaving (stdout when not given)."""

    #: The catalog key of what a yanked board cable costs this screen, said in the footer.
    link_lost_key = "ref_board_gone_race"

    def __init__(self, *, detected: Detected, names: tuple[str, ...], lang: str, fonts: Fonts,
                 surface: pygame.Surface, sounds: Sounds, say: Callable[[str], None] | None = None,
                 settle_ns: int = SETTLE_NS, gate: Callable[[Act], None] | None = None,
                 out: Callable[[str], None] | None = None) -> None:
        self.detected = detected
        self.adapter = detected.adapter
        self.names = names
        self.lang = lang
        self.fonts = fonts
        self.surface = surface
        self.sounds = sounds
        self.say = say
        self.gate = gate            # the kiosk's staff gate, for a Settings tap or F1/Tab
        self.wakes: list[int] = []
        self.notice: tuple[str, int] | None = None
        self.glass = Glass(settle_ns)
        self.quit = False
        self.asking = False         # "Leave?" is up (Esc or the close box with something to lose)
        self.out = out
        self.said_final = False     # the final scores went to the terminal (they go once)
        self.keyboard_seats = detected.name == "keyboard"
        self.link: tuple[bool, object] = (True, self._session())   # (up, session) as last seen

    @property
    def frame(self) -> Drawn:
        """The frame on the glass."""
        return self.glass.frame

    # -- given by each screen ------------------------------------------------------------------

    @abstractmethod
    def host(self, act: Act) -> None: ...

    @abstractmethod
    def feed(self, event: Press | Release) -> None: ...

    @abstractmethod
    def seat_count(self) -> int: ...

    @abstractmethod
    def poll(self) -> None: ...

    @abstractmethod
    def screen(self) -> Hashable:
        """Which screen the state shows: when this changes, the next frame settles."""

    @abstractmethod
    def keys(self) -> Mapping[int, Act]:
        """The key table of the screen the state shows (:mod:`.keys`)."""

    @abstractmethod
    def paint(self, p: Painter, now: int) -> None: ...

    @abstractmethod
    def lights(self) -> Leds: ...

    @abstractmethod
    def at_stake(self) -> bool:
        """Whether leaving now would lose something (a score, a tally, a race armed): Esc and
        the close box then ask first."""

    @abstractmethod
    def leave_view(self) -> LeaveView:
        """The "Leave?" question in the screen's language (what leaving ends)."""

    @abstractmethod
    def final_lines(self) -> list[str]:
        """The final scores or tally, printed to the terminal on leaving (one short block)."""

    # -- the host's taps and keys --------------------------------------------------------------

    def key(self, key: int, down: bool) -> None:
        """A key edge: a keyboard seat's (never held back), else the frame's host key."""
        if self.keyboard_seat(key, down):
            return
        if down:
            act = self.glass.key(key)
            if act is not None:
                self.apply(act)

    def tap(self, pos: tuple[int, int]) -> None:
        """A tap or click, hit-tested against the frame on the glass."""
        act = self.glass.tap(pos)
        if act is not None:
            self.apply(act)

    def apply(self, act: Act) -> None:
        """An act from the glass: Esc (asking first when something would be lost), the
        question's answers, the kiosk's gate, or the host's act on the state."""
        if act.kind == QUIT:
            if self.asking:
                return          # an Esc read from the frame before the question: it is on its way
            if self.at_stake():
                self.ask()
            else:
                self.leave()
        elif act.kind == LEAVE:
            self.leave()
        elif act.kind == STAY:
            self.asking = False
        elif act.kind == SETTINGS:
            if self.gate is not None:
                self.gate(act)
        else:
            self.host(act)

    def ask(self) -> None:
        """Put up "Leave?"; what else came before its frame was aimed at the screen under it."""
        self.asking = True
        self.glass.acted = True

    def close_box(self) -> None:
        """The window's close box: asks as Esc does; a second close while asking leaves."""
        if self.asking or not self.at_stake():
            self.leave()
        else:
            self.ask()

    def player(self, seat: int) -> str:
        """The seat's player's name (a seat without one: its number, from 1)."""
        return self.names[seat] if seat < len(self.names) else str(seat + 1)

    def leave(self) -> None:
        """The session ends: its final scores to the terminal, then the loop stops."""
        self.say_final()
        self.quit = True

    def say_final(self) -> None:
        """The final scores or tally to the terminal, once, when there is anything to say (the
        command calls it too, so an interrupted session is not lost from sight either)."""
        if self.said_final or not self.at_stake():
            return
        self.said_final = True
        out = self.out if self.out is not None else (lambda line: print(line, flush=True))
        for line in self.final_lines():
            out(line)

    def keyboard_seat(self, key: int, down: bool) -> bool:
        """Whether ``key`` is a keyboard seat's (on keyboard input only); if it is one of this
        screen's seats, its edge, stamped now, is fed."""
        if key not in SEAT_KEYS_8 or not self.keyboard_seats:
            return False
        seat = SEAT_KEYS_8.index(key)
        if seat < self.seat_count():
            now = self.adapter.now_ns()
            self.feed(Press(seat, now, self.adapter.clock) if down else Release(seat, now, self.adapter.clock))
        return True

    # -- output --------------------------------------------------------------------------------

    def draw(self) -> Drawn:
        """Paint the state's screen, or "Leave?" over it, and put it on the glass (dimmed while
        a new screen settles)."""
        now = self.adapter.now_ns()
        screen = LEAVE_SCREEN if self.asking else self.screen()
        live = self.glass.live(screen, now)
        p = Painter(self.surface, self.fonts, self.lang)
        if self.asking:
            draw_leave(p, self.leave_view())
            keys = leave_keys()
        else:
            self.paint(p, now)
            keys = dict(self.keys())
        return self.glass.present(Drawn(tuple(p.hotspots), tuple(p.overflows), keys, screen, live, now), self.surface)

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
            self.close_box()

    def next_due_ns(self) -> int | None:
        """When the state wants attention next (a tick), on the adapter's clock, or None."""
        return self.wakes[0] if self.wakes else None

    def run(self, *, fps: int = 60, max_frames: int | None = None, wait: Callable[[int], None] | None = None) -> int:
        return frame_loop(self, fps=fps, max_frames=max_frames, wait=wait)


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
               on_frame: Callable[[], None] | None = None, wait: Callable[[int], None] | None = None) -> int:
    """Events, ``poll``, a frame and ``on_frame`` (the kiosk's watchdog), until the app quits (or
    ``max_frames``); returns the frames drawn. Between frames it sleeps to the next one, or less
    when GO or a tick falls due sooner, so GO is not a frame late. ``wait`` (a test's virtual
    clock) is given the nanoseconds to the next frame instead of sleeping them."""
    clock = pygame.time.Clock() if wait is None else None     # a virtual clock reads no real one
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
        if wait is not None:
            wait(S // fps if due is None else max(0, min(S // fps, due - app.adapter.now_ns())))
        elif due is not None and due - app.adapter.now_ns() < S // fps:
            pygame.time.wait(max(0, (due - app.adapter.now_ns()) // MS))
        elif clock is not None:
            clock.tick(fps)
    return frames
