"""Shared for the display tests: pygame on SDL's dummy drivers, key scenes from simulated games."""

from __future__ import annotations

import os
from functools import cache

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.app.ui.common import Scene  # noqa: E402
from game.app.ui.demo import collect  # noqa: E402
from game.app.ui.fonts import Fonts, fonts_for  # noqa: E402
from game.controller import TableSettings  # noqa: E402

SIZES = ((800, 480), (1920, 1080), (720, 1280))


@cache
def scenes() -> dict[str, Scene]:
    """One example of every key screen, from simulated 4-player games."""
    return collect(4, list(range(1, 40)), TableSettings(seats=5, clock="sim"))


def in_language(scene: Scene, lang: str) -> Scene:
    """``scene`` as a table set to ``lang`` shows it (the gallery draws it so too)."""
    from game.app.ui.gallery import shown_in

    return shown_in(scene, lang)  # type: ignore[no-any-return]


def scenes_in(lang: str) -> dict[str, Scene]:
    """:func:`scenes` as a table set to ``lang`` shows them (:func:`in_language`)."""
    return {name: in_language(scene, lang) for name, scene in scenes().items()}


_FONTS: dict[str, Fonts] = {}


def fonts(lang: str) -> Fonts:
    """The fonts for ``lang``, made again if a test (the CLI) quit pygame since."""
    pygame.font.init()
    made = _FONTS.get(lang)
    if made is not None:
        try:
            made.size("x", 20)
            if made.fallback is not None:
                made.fallback.size("가", 20)
            return made
        except pygame.error:
            pass
    _FONTS[lang] = fonts_for(lang)[0]
    return _FONTS[lang]


def staff_scenes() -> dict[str, Scene]:
    """The kiosk's staff screens (PIN keypad in its states, the staff menu and its pages) over
    a game in progress."""
    import copy

    from game.app.rigconfig import RigConfig

    base = scenes()["play"]
    made: dict[str, Scene] = {}

    def add(name: str, **fields: object) -> None:
        ui = copy.deepcopy(base.ui)
        ui.locked, ui.rig, ui.volume = True, RigConfig(), 70
        for key, value in fields.items():
            setattr(ui, key, value)
        made[name] = Scene(base.table, ui, base.now_ns)

    add("pin", pin_open=True)
    add("pin-typed", pin_open=True, pin_entry="1234")
    add("pin-wrong", pin_open=True, pin_note="ui_pin_wrong")
    add("pin-wait", pin_open=True, pin_note="ui_pin_wait", pin_until_ns=base.now_ns + 30 * 10**9)
    add("pin-none", pin_open=True, pin_note="ui_pin_none")
    for page in ("menu", "timings", "deck", "confirm-reset", "confirm-end", "confirm-shutdown"):
        add(f"staff-{page}", staff_page=page)
    add("staff-rules", staff_page="menu", settings_open=True)
    return made


def ask_scenes() -> dict[str, Scene]:
    """The questions asked over a game (issue 20): leave the game, take back a photo finish's
    result, carry on a saved game."""
    import copy

    made: dict[str, Scene] = {}
    for name, base, flag in (("quit", "play", "quit_ask"), ("undo-race", "photo", "undo_ask"),
                             ("resume", "play", "resume_ask")):
        scene = scenes()[base]
        ui = copy.deepcopy(scene.ui)
        setattr(ui, flag, True)
        made[name] = Scene(scene.table, ui, scene.now_ns)
    return made


def name_scenes() -> dict[str, Scene]:
    """The name keyboard in its states (Hangul, a full name shifted, a refusal in the footer)
    and the join screen while a seated button is held to start."""
    import copy
    import dataclasses

    from game.messages import Message

    made: dict[str, Scene] = {}
    base = scenes()["keyboard"]     # Latin, as an English table opens it; Hangul below

    def add(name: str, scene: Scene = base, **fields: object) -> None:
        ui = copy.deepcopy(scene.ui)
        for key, value in fields.items():
            setattr(ui, key, value)
        made[name] = Scene(scene.table, ui, scene.now_ns)

    add("keyboard-hangul", keyboard_layout="hangul", keyboard_text="민ㅈ")
    add("keyboard-full", keyboard_text="Maximiliane-Anna", keyboard_shift=True)
    add("keyboard-empty", keyboard_text="")
    refused = copy.deepcopy(base.ui)
    refused.notices.append((Message.of("name_char", name="Zoë_", char="_"), base.now_ns + 10**9))
    made["keyboard-refused"] = Scene(base.table, refused, base.now_ns)
    join = scenes()["join"]
    seat = join.table.seated[0]
    held = dataclasses.replace(join.table, held=((seat, join.now_ns - 500_000_000),), consumed=())
    made["join-held"] = Scene(held, copy.deepcopy(join.ui), join.now_ns)
    from game.app.ui.screens_reactions import PANEL_NS

    over = scenes()["game-over"]      # its reactions' turn (the standings and chart come first)
    made["game-over-reactions"] = Scene(over.table, copy.deepcopy(over.ui), over.ui.game_over_at_ns + PANEL_NS)
    return made


def boards() -> dict[str, object]:
    """Leaderboards for attract mode: empty, short, full, with long names."""
    from game.app.leaderboard import Fastest, Row
    from game.app.ui.state import BoardView

    rows = tuple(Row(name, games, wins, best, avg) for name, games, wins, best, avg in (
        ("Ali", 12, 5, 3, 7.25), ("Bea", 9, 3, 4, 8.5), ("Maximiliane-Friederike", 30, 11, 0, 9.0),
        ("Cem", 2, 0, 10, 12.0), ("Dani", 7, 1, 6, 13.4), ("Eun-ji", 4, 2, 5, 14.0),
        ("Flo", 3, 0, 11, 15.7), ("Gus", 1, 0, 20, 20.0), ("Hana", 1, 0, 22, 22.0), ("Ivo", 1, 0, 30, 30.0)))
    return {"empty-today": BoardView("today", ()), "empty-week": BoardView("week", ()),
            "empty-all": BoardView("all", ()), "short-week": BoardView("week", rows[:2]),
            "full-all": BoardView("all", rows),
            "fastest-week": BoardView("week", rows[:4], (Fastest("Maximiliane-Anna", 183_456_789, 4),
                                                         Fastest("하늘빛 별님이", 190_000_000, 2),
                                                         Fastest("Jean-Christophe", 201_049_999, 1)))}
