"""What is on the glass: the frame a referee shell presented last, and whether it takes input.

A tap is hit-tested against this frame and a key looked up in its key table, so an input always
means what the player saw. Two rules keep a result from being dismissed and acted through by
one input:

* after one host act, the rest of the inputs that came before the next frame are dropped:
  they were aimed at a screen that is no longer true;
* a frame that shows a new screen (a photo finish, a verdict, GO) takes no taps or host keys for
  ``settle_ns``, and its buttons are drawn dimmed meanwhile. The first frame a shell ever draws
  settles nothing: no earlier screen was there to be misread.

Keys that leave the screen (Esc, the kiosk's staff gate) are never held back. Seat buttons are
not the glass's: a press is race evidence, stamped by the input.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

import pygame

from ..ui.actions import Act, Hotspot
from ..ui.glass import SETTLE_NS
from ..ui.paint import dim
from .keys import LEAVING

MS = 1_000_000
#: The screen of a shell's last frame while another screen covers it (the kiosk's staff
#: screens): the next frame it draws is then a new screen.
COVERED: Hashable = ("covered",)


@dataclass(frozen=True, slots=True)
class Drawn:
    """A frame as presented: its tap targets, texts that did not fit, its key table, which
    screen it shows (``None``: nothing drawn yet), whether its buttons take input yet, and when
    it was drawn on the input's clock."""

    hotspots: tuple[Hotspot, ...]
    overflows: tuple[object, ...]
    keys: Mapping[int, Act] = field(default_factory=dict)
    screen: Hashable = None
    live: bool = True
    t_ns: int = 0

    def act_at(self, pos: tuple[int, int]) -> Act | None:
        """The act of the tap target under ``pos`` in this frame, or None."""
        for spot in self.hotspots:
            if spot.rect.collidepoint(pos):
                return spot.act
        return None


class Glass:
    """The last frame presented and the two rules above; ``settle_ns`` as the shell was given."""

    def __init__(self, settle_ns: int = SETTLE_NS) -> None:
        if settle_ns < 0:
            raise ValueError(f"settle time {settle_ns!r} ns is negative: use 0 (no settling) or more")
        self.settle_ns = settle_ns
        self.frame = Drawn((), ())
        self.settle_until_ns = 0
        self.acted = False

    def live(self, screen: Hashable, now_ns: int) -> bool:
        """Whether a frame of ``screen`` drawn now takes input (a new screen starts settling)."""
        shown = self.frame.screen
        if shown is not None and screen != shown:
            self.settle_until_ns = now_ns + self.settle_ns
        return now_ns >= self.settle_until_ns

    def present(self, frame: Drawn, surface: pygame.Surface) -> Drawn:
        """``frame`` is on the glass now (its buttons veiled while it settles)."""
        if not frame.live:
            dim(surface, [spot.rect for spot in frame.hotspots])   # as the card game's screens
        self.frame = frame
        self.acted = False
        return frame

    def cover(self, now_ns: int) -> None:
        """Another screen is on the glass (the kiosk's staff screens over the race)."""
        self.frame = Drawn((), (), screen=COVERED, live=False, t_ns=now_ns)

    def tap(self, pos: tuple[int, int]) -> Act | None:
        """The act a tap at ``pos`` performs now: the frame's, unless it settles or an act
        already went since it was drawn."""
        if not self.frame.live or self.acted:
            return None
        return self.took(self.frame.act_at(pos))

    def key(self, key: int) -> Act | None:
        """The act a key performs now: the frame's, on the same terms as a tap, except that a
        key leaving the screen always goes."""
        act = self.frame.keys.get(key)
        if act is None or act.kind in LEAVING:
            return act
        if not self.frame.live or self.acted:
            return None
        return self.took(act)

    def took(self, act: Act | None) -> Act | None:
        if act is not None:
            self.acted = True
        return act
