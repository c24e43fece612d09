"""Which screen to draw for a scene, and one frame of it: draw(surface, fonts, scene) ->
Frame (the hotspots to tap and any text that did not fit). Drawing never changes the table."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from .actions import Hotspot
from .common import Scene
from .state import BoardView
from .fonts import Fonts
from .paint import Overflow, Painter, TextBox
from .screens_dispute import draw_dispute, draw_verdict
from .screens_keyboard import draw_keyboard
from .screen_name import screen_of
from .screens_ask import draw_ask
from .screens_attract import draw_attract
from .screens_misc import draw_settings
from .screens_race import draw_photo, draw_race
from .screens_staff import draw_pin, draw_staff
from .screens_score import draw_game_over, draw_penalty, draw_summary
from .screens_table import draw_deal, draw_join, draw_oldest, draw_play

SCREENS = ("attract", "quit", "undo-race", "resume", "pin", "staff", "staff-timings", "staff-deck", "staff-confirm", "settings", "keyboard", "join", "oldest", "deal", "play", "spider", "out", "race",
           "photo", "pick", "vote", "verdict", "penalty", "summary", "game-over")


@dataclass(frozen=True, slots=True)
class Frame:
    screen: str
    hotspots: tuple[Hotspot, ...]
    overflows: tuple[Overflow, ...]
    texts: tuple[tuple[str, int], ...]
    boxes: tuple[TextBox, ...] = ()


def draw(surface: pygame.Surface, fonts: Fonts, scene: Scene, lang: str | None = None,
         attract: bool = False, board: BoardView | None = None, attract_ns: int = 0) -> Frame:
    """One frame of ``scene``. ``attract``: attract mode instead, ``attract_ns`` after it began,
    with ``scene`` (the simulated game) in its demo window and ``board`` (the leaderboard,
    kiosk mode only) as one of its slides."""
    p = Painter(surface, fonts, lang or scene.ui.lang)
    if attract:
        def draw_demo(window: pygame.Surface) -> None:
            # A miniature: its hotspots are not tappable and its fit is not the screen's.
            _DRAW[screen_of(scene)](Painter(window, fonts, p.lang), scene)

        draw_attract(p, attract_ns, draw_demo, board)
        return Frame("attract", (), tuple(p.overflows), tuple(p.texts), tuple(p.boxes))
    name = screen_of(scene)
    _DRAW[name](p, scene)
    return Frame(name, tuple(p.hotspots), tuple(p.overflows), tuple(p.texts), tuple(p.boxes))


_DRAW = {
    "quit": lambda p, s: draw_ask(p, s, "quit"), "undo-race": lambda p, s: draw_ask(p, s, "undo-race"),
    "resume": lambda p, s: draw_ask(p, s, "resume"),
    "pin": draw_pin, "staff": draw_staff, "staff-timings": draw_staff, "staff-deck": draw_staff,
    "staff-confirm": draw_staff, "settings": draw_settings, "verdict": draw_verdict, "summary": draw_summary, "photo": draw_photo,
    "keyboard": draw_keyboard, "join": draw_join, "oldest": draw_oldest, "deal": draw_deal, "play": draw_play, "spider": draw_play,
    "out": draw_play, "race": draw_race, "pick": draw_dispute, "vote": draw_dispute,
    "penalty": draw_penalty, "game-over": draw_game_over,
}
