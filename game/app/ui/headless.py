"""The demo without a screen: a simulated game through the controller, told in the terminal,
with screenshots of every key screen drawn off-screen (SDL's dummy driver)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import pygame

from ...codec import dumps
from ...controller import Stage, Table, TableSettings
from ...i18n.events import event_text
from ...narrate import standings_table
from .common import Scene
from .demo import KEY_SCREENS, Demo, key_scenes
from .fonts import Fonts, fonts_for
from .render import draw

if TYPE_CHECKING:
    from ..tablelog import TableLog

#: Extra simulated games played (silently) for key screens the main game did not show.
EXTRA_GAMES = 20


class Shooter:
    """Draws key screens off-screen and saves them as ``NN-screen-lang.png``."""

    def __init__(self, folder: Path, langs: Sequence[str], size: tuple[int, int]) -> None:
        self.folder = folder
        self.langs = list(langs)
        self.surface = pygame.Surface(size)
        self.fonts: dict[str, Fonts] = {lang: fonts_for(lang)[0] for lang in self.langs}
        self.have: dict[str, Scene] = {}
        self.files: list[Path] = []
        folder.mkdir(parents=True, exist_ok=True)

    def offer(self, scene: Scene) -> None:
        for name, shown in key_scenes(scene, self.have):
            self.have[name] = Scene(shown.table, copy.deepcopy(shown.ui), shown.now_ns)
            self.shoot(name, self.have[name])

    def shoot(self, name: str, scene: Scene) -> None:
        for lang in self.langs:
            draw(self.surface, self.fonts[lang], scene, lang=lang, attract=name == "attract")
            path = self.folder / f"{KEY_SCREENS.index(name):02d}-{name}-{lang}.png"
            pygame.image.save(self.surface, str(path))
            if path not in self.files:
                self.files.append(path)

    @property
    def missing(self) -> list[str]:
        return [n for n in KEY_SCREENS if n not in self.have]


def run_demo(*, players: int, seed: int, settings: TableSettings, langs: Sequence[str],
             size: tuple[int, int], folder: Path, say: Callable[[str], None],
             log: TextIO | None = None, table_log: TableLog | None = None) -> Demo:
    """Play one simulated game to the end; returns it (its table holds the standings).
    ``log`` gets the game's commands and events as JSON lines; ``table_log`` every input, before
    it takes effect, and the game it already holds is picked up where it stopped (raises
    BadTableLog if those steps are not this game's)."""
    lang = langs[0]
    logged = table_log.steps if table_log is not None else []
    demo = Demo(players, seed, settings, lang, logged)
    shooter = Shooter(folder, langs, size)
    if table_log is not None and logged and demo.done:
        say(f"The game in {table_log.path} is already over ({len(logged)} logged steps): its standings "
            "follow; give another --db path for a new game.")
    elif table_log is not None and logged:
        say(f"Resumed the game in {table_log.path} after {len(logged)} logged steps (round {demo.table.game.round}).")
    if log is not None:  # the JSON-lines log holds the whole game, its resumed part too
        for entry in logged:
            log.writelines(dumps(r) + "\n" for r in (*entry.commands, *entry.events))
    while not demo.done:
        event = demo.next_input
        made = demo.step()
        if table_log is not None:
            assert event is not None
            table_log.append(event, made)  # on disk before it is told or drawn
        if log is not None:
            log.writelines(dumps(c) + "\n" for c in made.commands)
            log.writelines(dumps(e) + "\n" for e in made.events)
        table = made.table
        names = tuple(table.name(p) for p in range(table.players))
        for happened in made.events:
            line = event_text(happened, lambda i: names[i] if i < len(names) else str(i), lang)
            if line:
                say(("  " if table.game.round else "") + line)
        shooter.offer(demo.scene())
    shooter.offer(demo.scene())
    extra = seed
    while shooter.missing and extra < seed + EXTRA_GAMES:
        extra += 1
        more = Demo(players, extra, settings, lang)
        while not more.done:
            more.step()
            shooter.offer(more.scene())
        shooter.offer(more.scene())
    shown = [n for n in KEY_SCREENS if n in shooter.have]
    say("")
    say(f"Screenshots of {len(shown)} screens in {', '.join(langs)} "
        f"({len(shooter.files)} PNG files, {size[0]}×{size[1]}) written to {folder}")
    if shooter.missing:
        say(f"(no simulated game showed: {', '.join(shooter.missing)})")
    game = demo.table.game
    say("")
    say(f"Final standings after {len(game.scores)} rounds (penalty points, lowest wins):")
    say(standings_text(demo.table))
    assert demo.table.stage is Stage.GAME_OVER
    return demo


def standings_text(table: Table) -> str:
    """The final standings as a terminal table: each player by name and seat (from 1)."""
    return standings_table(table.game, table.name, lambda p: table.seated[p] + 1)
