"""A table on the glass for tests: the card game's App on a fake rig whose clock the test moves,
driven through the real pygame event queue (SDL's dummy video driver) one loop turn at a time,
with every input the App feeds to the controller recorded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pygame
from display_helpers import fonts

from firmware_host.records import RigEvent
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.loop import App
from game.app.ui.render import Frame
from game.app.ui.sound import Sounds, pre_init
from game.app.ui.state import UiState
from game.controller import Step, TableSettings
from game.controller.inputs import Input, Tick
from game.inputs import Go, Press, Release

MS = 1_000_000
CLOCK = "fake"


class Rig:
    """The input adapter's shape on a clock the test moves (GO is stamped when asked)."""

    clock = CLOCK
    resolution_ns = 100_000
    seats = 5

    def __init__(self) -> None:
        self.t_ns = 1_000 * MS
        self.events: list[RigEvent] = []

    def now_ns(self) -> int:
        return self.t_ns

    def drain(self) -> list[RigEvent]:
        """The edges stamped by now (an edge is never delivered before it happened)."""
        taken = [e for e in self.events if getattr(e, "t_ns", 0) <= self.t_ns]
        self.events = [e for e in self.events if getattr(e, "t_ns", 0) > self.t_ns]
        return taken

    def arm(self, seats: Iterable[int]) -> object:
        return None

    def go(self, seats: Iterable[int]) -> Go:
        return Go(self.t_ns, self.clock)

    def show(self, lights: Mapping[int, object]) -> None:
        pass

    def close(self) -> None:
        pass


class GlassTable:
    """``fed``: every input the App gave the controller but ticks and GO, in order (the
    command log of the people at the table)."""

    def __init__(self, seed: int = 7, lang: str = "en", settle_ns: int | None = None) -> None:
        pre_init()
        pygame.init()
        pygame.display.set_mode((800, 480))
        pygame.event.clear()
        self.rig = Rig()
        settings = TableSettings(seats=5, clock=CLOCK, resolution_ns=self.rig.resolution_ns)
        extra = {} if settle_ns is None else {"settle_ns": settle_ns}
        self.fed: list[Input] = []
        self.app = App(detected=Detected(self.rig, "gpio"), settings=settings, seed=seed, ui=UiState(lang=lang),
                       fonts=fonts(lang), surface=pygame.Surface((800, 480)), sounds=Sounds(),
                       attract_after_ns=None, on_step=self._stepped, **extra)
        self._feed = self.app.feed
        self.app.feed = self._recorded  # type: ignore[method-assign]
        self.app.turn()

    def _recorded(self, event: Input) -> Step:
        if not isinstance(event, (Tick, Go)):      # the clock's own inputs are no one's gesture
            self.fed.append(event)
        return self._feed(event)

    def _stepped(self, made: Step) -> None:
        pass

    @property
    def frame(self) -> Frame:
        """The frame on the glass."""
        assert self.app.frame is not None
        return self.app.frame

    @property
    def screen(self) -> str:
        return self.frame.screen

    def wait(self, ms: int, step_ms: int = 100) -> None:
        """Time passes with the loop turning (a frame every ``step_ms`` of the fake clock)."""
        end = self.rig.t_ns + ms * MS
        while self.rig.t_ns < end:
            self.rig.t_ns = min(end, self.rig.t_ns + step_ms * MS)
            self.app.turn()

    def post(self, event_type: int, **attrs: object) -> None:
        pygame.event.post(pygame.event.Event(event_type, **attrs))

    def key(self, key: int, pause_ms: int = 600) -> None:
        """A person reads for ``pause_ms``, then presses and lets go of ``key``."""
        self.wait(pause_ms)
        self.post(pygame.KEYDOWN, key=key)
        self.app.turn()
        self.rig.t_ns += 90 * MS
        self.post(pygame.KEYUP, key=key)
        self.app.turn()

    def click_at(self, pos: tuple[int, int], hold_ms: int = 120) -> None:
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        self.app.turn()
        self.rig.t_ns += hold_ms * MS
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        self.app.turn()

    def spot(self, act: Act | str) -> tuple[int, int]:
        """The centre of the button for ``act`` (a kind, or a whole act) on the glass."""
        for hotspot in reversed(self.frame.hotspots):
            if hotspot.act == act or hotspot.act.kind == act:
                return hotspot.rect.center
        raise AssertionError(f"no {act!r} on the {self.screen} screen: "
                             f"{sorted({h.act.kind for h in self.frame.hotspots})}")

    def tap(self, act: Act | str, pause_ms: int = 600) -> None:
        self.wait(pause_ms)
        self.click_at(self.spot(act))

    def slap(self, seat: int, after_ms: int, hold_ms: int = 120) -> None:
        """A wired seat button pressed ``after_ms`` from now (stamped by the rig) and let go."""
        t = self.rig.t_ns + after_ms * MS
        self.rig.events += [Press(seat, t, CLOCK), Release(seat, t + hold_ms * MS, CLOCK)]

    # -- a game up to a mosquito --------------------------------------------------------------

    def seat_three(self) -> None:
        """Ali, Bea and Cem sit down; Bea is the oldest (she guards round 1)."""
        self.wait(500)                      # the screen comes up; people find their buttons
        for seat in (0, 1, 2):
            self.slap(seat, 100)
            self.wait(400)
        self.key(pygame.K_RETURN)
        self.slap(1, 300)
        self.wait(600)

    def keys(self, *keys: int) -> None:
        for key in keys:
            self.key(key)

    def race_to_photo(self) -> None:
        """GO, then every racer slaps, 180 ms, 260 ms… after it; the photo finish comes up."""
        table = self.app.table
        race = table.race
        assert race is not None, self.screen
        self.wait((race.go_due_t_ns - self.rig.t_ns) // MS + 1, step_ms=50)
        for i, player in enumerate(race.eligible):
            self.slap(table.seated[player], 180 + 80 * i)
        self.wait(600, step_ms=50)
        assert self.screen == "photo", self.screen
