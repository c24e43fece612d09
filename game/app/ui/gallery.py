"""The screenshot gallery (``docs/screens/``): every key screen the headless demo photographs,
attract mode's three slides and the staff screens, in the five languages at three sizes, with an
index of thumbnails (``README.md`` in the same folder). With ``--all`` it remakes every picture
of the repository the program draws: the gallery, the README's photo finish
(``docs/screens/photo-finish-en-1280x720.png``), referee mode's pictures (``docs/referee/``)
and the creatures' contact sheet (``docs/art/creatures.png``), and records the library
versions that drew them (``docs/screens/made-with.json``).

    python -m game.app.ui.gallery --all
    python -m game.app.ui.gallery docs/screens
    python -m game.app.ui.gallery OUT --screens photo,play --langs en --sizes 800x480

The default set is every language at 800×480, 1920×1080 and 720×1280 (405 PNGs, about
33 MiB); ``--langs`` and ``--sizes`` take every pairing of the ones given instead.

Nothing here draws on its own: the scenes are the ones the headless demo and the display tests
use (``demo.collect`` over the same simulated games, ``demo.KEY_SCREENS``), drawn by
``render.draw`` as the app draws a frame. The staff screens are the play scene with the PIN
keypad or a staff page open; attract mode is drawn at chosen times into its slides. The index
lists every gallery file in the folder, so a run for a few screens keeps the others listed.
``tests/app/test_gallery_current.py`` draws every picture of :func:`pictures` again and fails
on a pixel that differs from the checked-in file.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Headless: SDL's dummy drivers unless told otherwise (read when pygame starts, not on import).
for _key, _value in (("SDL_VIDEODRIVER", "dummy"), ("SDL_AUDIODRIVER", "dummy"), ("PYGAME_HIDE_SUPPORT_PROMPT", "1")):
    os.environ.setdefault(_key, _value)

#: Where the demo's scenes come from: the display tests' games (tests/app/display_helpers.py).
PLAYERS = 4
SEEDS = range(1, 40)
SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1920, 1080), (720, 1280))
SIZE_NOTES = {(800, 480): "7\" panel", (1920, 1080): "full HD", (720, 1280): "portrait"}
THUMB_PX = 200     # a thumbnail's longer side in the index


@dataclass(frozen=True)
class Shot:
    """One screen of the gallery: ``name`` is its file stem, ``title`` and ``about`` its
    heading and sentence in the index."""

    name: str
    title: str
    about: str
    scene: object                       # a common.Scene
    attract_ns: int | None = None       # attract mode, this long after it began
    board: object | None = None         # attract mode's leaderboard slide (a state.BoardView)


#: (file stem, title, sentence) in the order the index shows them; a key screen of
#: demo.KEY_SCREENS missing here is shown after the game's screens under its own name.
_WRITTEN: tuple[tuple[str, str, str], ...] = (
    ("attract-title", "Attract mode: title", "The idle rig: the moth hovers, the creatures parade, the invitation pulses."),
    ("attract-demo", "Attract mode: a game playing", "A simulated game in a framed window."),
    ("attract-board", "Attract mode: leaderboard", "In a café: the best players (today, this week, all time in turn)."),
    ("settings", "Settings", "House rules and language, between games."),
    ("join", "Join", "Press your button to take a seat."),
    ("keyboard", "Join: name keyboard", "A seated player types their name (or skips: the seat's name stays)."),
    ("oldest", "Oldest player", "The oldest player presses their button and guards round 1."),
    ("deal", "Deal", "The starter card is named on screen."),
    ("play", "Play", "A turn: the big discard card, the card grid, hand counts, the guard."),
    ("spider", "Spider", "A spider's player picks who gets a card."),
    ("out", "Out", "Who is out (the out picker over the turn)."),
    ("race-ready", "Race: get ready", "A mosquito or cockroach armed the race: what is at stake."),
    ("race-go", "Race: GO", "GO over the whole screen, seen from across the table."),
    ("race-live", "Race: live", "Presses as they come."),
    ("race-card", "Race: the card laid", "The cockroach's winner names the card they laid."),
    ("photo", "Photo finish", "The timing board and the lanes: a tie, a false start, the close-up in µs."),
    ("pick", "Caught!: pick", "The guard picks the accused; no cheating now."),
    ("vote", "Caught!: vote", "The judges vote; the countdown runs."),
    ("verdict", "Verdict", "Who was caught or cleared, how, and what to do now."),
    ("penalty", "Round end: penalties", "Each player's cards, entered row by row."),
    ("summary", "Round end: vanished cards", "The cards that vanished this round."),
    ("game-over", "Game over", "The winner's band, the standings, the chart per round."),
    ("pin", "Staff: PIN", "The staff PIN keypad."),
    ("staff-menu", "Staff: menu", "The staff menu."),
    ("staff-timings", "Staff: timings", "Race timings."),
    ("staff-deck", "Staff: seats and deck", "The seats and the deck in use."),
    ("staff-confirm", "Staff: confirm", "A step that cannot be undone asks first (ending the game)."),
)


def _screens() -> tuple[tuple[str, str, str], ...]:
    from .demo import KEY_SCREENS

    known = {name for name, _, _ in _WRITTEN}
    extra = tuple((name, name.replace("-", " ").capitalize(), "")
                  for name in KEY_SCREENS if name != "attract" and name not in known)
    staff = next(i for i, (name, _, _) in enumerate(_WRITTEN) if name == "pin")
    return _WRITTEN[:staff] + extra + _WRITTEN[staff:]


SCREENS = _screens()
NAMES = tuple(name for name, _, _ in SCREENS)
_FILE = re.compile(r"^(?P<name>[a-z-]+?)-(?P<lang>[a-z]{2})-(?P<w>\d+)x(?P<h>\d+)\.png$")


def file_name(name: str, lang: str, size: tuple[int, int]) -> str:
    return f"{name}-{lang}-{size[0]}x{size[1]}.png"


def sample_board() -> object:
    """A café's all-time leaderboard for the attract slide (made-up players)."""
    from ..leaderboard import Row
    from .state import BoardView

    rows = (("Ali", 12, 5, 3, 7.25), ("Bea", 9, 3, 4, 8.5), ("Cem", 30, 11, 0, 9.0),
            ("Dani", 7, 1, 6, 13.4), ("Eun-ji", 4, 2, 5, 14.0), ("Flo", 3, 0, 11, 15.7))
    return BoardView("all", tuple(Row(*row) for row in rows))


def shots(scenes: dict[str, object], only: Iterable[str] | None = None) -> list[Shot]:
    """The gallery's screens from the demo's key scenes (``demo.collect``), in index order."""
    from ..rigconfig import RigConfig
    from .common import Scene
    from .screens_attract import SLIDE_NS
    from .state import UiState

    wanted = set(NAMES if only is None else only)
    unknown = wanted - set(NAMES)
    if unknown:
        raise ValueError(f"no screen {', '.join(sorted(unknown))} in the gallery: "
                         f"choose from {', '.join(NAMES)}")
    staff_ui: dict[str, dict[str, object]] = {
        "pin": {"pin_open": True, "pin_entry": "12"},
        "staff-menu": {"staff_page": "menu"}, "staff-timings": {"staff_page": "timings"},
        "staff-deck": {"staff_page": "deck"}, "staff-confirm": {"staff_page": "confirm-end"},
    }
    made: list[Shot] = []
    for name, title, about in SCREENS:
        if name not in wanted:
            continue
        if name.startswith("attract-"):
            turn = ("title", "demo", "board").index(name.removeprefix("attract-"))
            # Half-way through the slide: the parade is on screen, the demo has moved on.
            made.append(Shot(name, title, about, scenes["attract"], attract_ns=turn * SLIDE_NS + SLIDE_NS // 2,
                             board=sample_board()))
        elif name in staff_ui:
            base = scenes["play"]
            ui = copy.deepcopy(base.ui)  # type: ignore[attr-defined]
            assert isinstance(ui, UiState)
            ui.locked, ui.rig, ui.volume = True, RigConfig(), 70
            for key, value in staff_ui[name].items():
                setattr(ui, key, value)
            made.append(Shot(name, title, about, Scene(base.table, ui, base.now_ns)))  # type: ignore[attr-defined]
        elif name in scenes:
            made.append(Shot(name, title, about, scenes[name]))
    return made


def shown_in(scene: Any, lang: str) -> Any:
    """``scene`` (a common.Scene) as a table set to ``lang`` shows it: screens are drawn with
    ``lang=`` while the scene's own ``ui.lang`` stays English, and the name keyboard opens on
    the language's own layout (Hangul in Korean), which drawing with ``lang=`` alone does not
    change. A keyboard already on a layout that is not its language's own keeps it."""
    from .common import Scene
    from .state import own_layout

    if scene.ui.keyboard_seat is None or scene.ui.keyboard_layout != own_layout(scene.ui.lang):
        return scene
    ui = copy.deepcopy(scene.ui)
    ui.lang, ui.keyboard_layout = lang, own_layout(lang)
    return Scene(scene.table, ui, scene.now_ns)


def render_shot(shot: Shot, fonts: object, lang: str, size: tuple[int, int]) -> object:
    """The shot drawn on a new surface of ``size``, as the app draws that frame."""
    import pygame

    from .render import draw

    surface = pygame.Surface(size)
    draw(surface, fonts, shown_in(shot.scene, lang), lang=lang, attract=shot.attract_ns is not None,  # type: ignore[arg-type]
         board=shot.board if shot.name == "attract-board" else None,  # type: ignore[arg-type]
         attract_ns=shot.attract_ns or 0)
    return surface


def plan(langs: Sequence[str] | None, sizes: Sequence[tuple[int, int]] | None) -> list[tuple[str, tuple[int, int]]]:
    """(language, size) pairs to draw: the default set, or every pairing of those given."""
    from ...i18n import LANGUAGES

    return [(lang, size) for lang in (langs or LANGUAGES) for size in (sizes or SIZES)]


def write(folder: Path, shots_: Sequence[Shot], pairs: Sequence[tuple[str, tuple[int, int]]],
          say: Callable[[str], None] = print) -> list[Path]:
    """Draw every shot for every (language, size) into ``folder``; then the index."""
    import pygame

    from .fonts import fonts_for

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for lang in dict.fromkeys(lang for lang, _ in pairs):
        fonts, choice = fonts_for(lang)
        if choice.lang != lang:
            say(f"note: {choice.warning}; skipping {lang}")
            continue
        for size in [s for l, s in pairs if l == lang]:
            for shot in shots_:
                path = folder / file_name(shot.name, lang, size)
                pygame.image.save(render_shot(shot, fonts, lang, size), str(path))  # type: ignore[arg-type]
                written.append(path)
    (folder / "README.md").write_text(index(folder), encoding="utf-8")
    return written


def index(folder: Path) -> str:
    """The index of every gallery file in ``folder``: a section per screen, a table per
    section with a row per language and a column per size, thumbnails linking the PNGs."""
    from ...i18n import LANGUAGE_NAMES, LANGUAGES

    have: dict[str, dict[tuple[str, tuple[int, int]], str]] = {}
    for path in sorted(folder.glob("*.png")):
        m = _FILE.match(path.name)
        if m and m["name"] in NAMES and m["lang"] in LANGUAGES:
            have.setdefault(m["name"], {})[(m["lang"], (int(m["w"]), int(m["h"])))] = path.name
    sizes = [s for s in SIZES if any(s == size for files in have.values() for _, size in files)]
    sizes += sorted({size for files in have.values() for _, size in files} - set(sizes))
    lines = [
        "# Screens",
        "",
        "Every screen of the rig as it draws it: the key screens of the headless demo, attract",
        "mode's slides and the staff screens, from the same simulated games the demo and the display",
        f"tests play ({PLAYERS} players, seeds {SEEDS.start}–{SEEDS.stop - 1}), drawn headless with SDL's dummy driver.",
        f"Made by `{COMMAND}`, which remakes every picture the program draws (this gallery,",
        "the README's photo finish, `docs/referee/` and `docs/art/`); `python -m game.app.ui.gallery DIR`",
        "with `--langs`, `--sizes` and `--screens` draws a part into DIR. Do not edit by hand:",
        "`tests/app/test_gallery_current.py` draws every picture again and fails where a pixel differs",
        "from the checked-in file, naming the file and the command.",
        *_versions_lines(folder),
        "Click a thumbnail for the full-size PNG.",
        "",
        " · ".join(f"[{title}](#{_anchor(title)})" for name, title, _ in SCREENS if name in have),
        "",
    ]
    for name, title, about in SCREENS:
        files = have.get(name)
        if not files:
            continue
        cols = [s for s in sizes if any(size == s for _, size in files)]
        lines += [f"## {title}", "", *([about, ""] if about else []),
                  "| | " + " | ".join(f"{w}×{h}" + (f" ({SIZE_NOTES[(w, h)]})" if (w, h) in SIZE_NOTES else "")
                                      for w, h in cols) + " |",
                  "| --- |" + " --- |" * len(cols)]
        for lang in LANGUAGES:
            if not any(l == lang for l, _ in files):
                continue
            cells = []
            for size in cols:
                file = files.get((lang, size))
                if file is None:
                    cells.append("")
                    continue
                w, h = size
                attr = f'width="{THUMB_PX}"' if w >= h else f'height="{THUMB_PX}"'
                cells.append(f'[<img src="{file}" {attr} alt="{title}, {LANGUAGE_NAMES[lang]}, {w}×{h}">]({file})')
            lines.append(f"| {LANGUAGE_NAMES[lang]} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


# -- every picture of the repository the program draws (--all) ---------------------------------

#: The command that remakes every picture; the gallery test names it when a picture is stale.
COMMAND = "python -m game.app.ui.gallery --all"
#: The repository's root (the pictures' paths are relative to it).
ROOT = Path(__file__).resolve().parents[3]
#: The library versions that drew the pictures, beside the gallery's index.
MANIFEST = "docs/screens/made-with.json"
#: The README's hero picture: the demo's photo finish in English at 1280×720 (in docs/screens,
#: but not one of the gallery's sizes, so the index leaves it out).
HERO = "docs/screens/photo-finish-en-1280x720.png"

#: fonts_of(lang): the fonts to draw a language with (the writer's own, or a test's).
FontsOf = Callable[[str], Any]


@dataclass(frozen=True)
class Picture:
    """A checked-in picture: ``path`` from the repository's root, ``share`` the part of the
    check it belongs to (one per language and size of the gallery, so test workers split the
    work), ``draw(fonts_of)`` a new surface with what the program draws there now."""

    path: str
    share: str
    draw: Callable[[FontsOf], Any]


@functools.cache
def demo_scenes() -> dict[str, object]:
    """The demo's key scenes from the gallery's simulated games (played once per process)."""
    from ...controller import TableSettings
    from .demo import collect

    return collect(PLAYERS, list(SEEDS), TableSettings(seats=5, clock="sim"))  # type: ignore[return-value]


@functools.cache
def _shot(name: str) -> Shot:
    made = {shot.name: shot for shot in shots(demo_scenes())}
    if name not in made:
        raise LookupError(f"no simulated game showed {name}: the gallery's seeds {SEEDS.start}-{SEEDS.stop - 1} "
                          "need another game that does")
    return made[name]


def _draw_screen(name: str, lang: str, size: tuple[int, int], fonts_of: FontsOf) -> object:
    return render_shot(_shot(name), fonts_of(lang), lang, size)


def _draw_referee(stem: str, fonts_of: FontsOf) -> object:
    from ..referee.doc_pictures import draw_picture

    return draw_picture(stem, fonts_of)


def _draw_creatures(fonts_of: FontsOf) -> object:
    from .art.sheet import contact_sheet

    return contact_sheet()


def pictures() -> tuple[Picture, ...]:
    """Every picture of the repository the program draws, and how (listed without drawing)."""
    from ...i18n import LANGUAGES
    from ..referee.doc_pictures import STEMS

    made = [Picture(f"docs/screens/{file_name(name, lang, size)}", f"screens-{lang}-{size[0]}x{size[1]}",
                    functools.partial(_draw_screen, name, lang, size))
            for lang in LANGUAGES for size in SIZES for name in NAMES]
    made.append(Picture(HERO, "hero", functools.partial(_draw_screen, "photo", "en", (1280, 720))))
    made += [Picture(f"docs/referee/{stem}.png", "referee", functools.partial(_draw_referee, stem)) for stem in STEMS]
    made.append(Picture("docs/art/creatures.png", "art", _draw_creatures))
    return tuple(made)


def made_with() -> dict[str, str]:
    """The versions whose drawing the pictures' pixels depend on: pygame-ce and the SDL,
    SDL_ttf and FreeType it runs (glyphs are rasterised by FreeType; the bundled Latin font
    ships in the pygame-ce wheel, the Hangul one in this repository), and the machine's
    architecture (SDL blends alpha with the processor's own vector code, which may round
    differently on another)."""
    import platform

    import pygame
    import pygame.freetype

    pygame.font.init()
    pygame.freetype.init()

    def dotted(version: tuple[int, ...]) -> str:
        return ".".join(str(part) for part in version)

    return {"pygame-ce": pygame.version.ver, "SDL": dotted(pygame.get_sdl_version()),
            "SDL_ttf": dotted(pygame.font.get_sdl_ttf_version()),
            "FreeType": dotted(pygame.freetype.get_version()), "machine": platform.machine()}


def recorded(root: Path = ROOT) -> dict[str, str] | None:
    """The versions the checked-in pictures were drawn with (None before the first --all)."""
    path = root / MANIFEST
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def versions_text(versions: dict[str, str]) -> str:
    return ", ".join(f"{name} {version}" for name, version in versions.items())


def write_all(root: Path = ROOT, say: Callable[[str], None] = print) -> list[Path]:
    """Draw every picture of :func:`pictures` to its path under ``root``, then the versions
    and the gallery's index; say any PNG in docs/ that nothing draws any more."""
    import pygame

    from .fonts import fonts_for

    pygame.font.init()
    fonts_of = functools.cache(lambda lang: fonts_for(lang)[0])
    written: list[Path] = []
    for picture in pictures():
        path = root / picture.path
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(picture.draw(fonts_of), str(path))
        written.append(path)
    (root / MANIFEST).write_text(json.dumps(made_with(), indent=2) + "\n", encoding="utf-8")
    screens = root / "docs" / "screens"
    (screens / "README.md").write_text(index(screens), encoding="utf-8")
    for orphan in sorted(set((root / "docs").rglob("*.png")) - set(written)):
        say(f"note: nothing draws {orphan.relative_to(root)} any more: delete it if no page shows it")
    return written


def _versions_lines(folder: Path) -> list[str]:
    """The index's sentence on the versions that drew the pictures (from made-with.json)."""
    path = folder / Path(MANIFEST).name
    if not path.is_file():
        return []
    versions = json.loads(path.read_text(encoding="utf-8"))
    return [f"Drawn with {versions_text(versions)} ({path.name}). Glyphs rasterise differently under",
            "other versions, so the test skips, saying so, where the running ones differ: pyproject's pygame-ce",
            "pin must name the recorded version for CI to compare.", ""]


def _anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)x(\d+)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"size {text!r}: write it as WIDTHxHEIGHT, such as 800x480")
    return int(m[1]), int(m[2])


def main(argv: Sequence[str] | None = None) -> int:
    from ...i18n import LANGUAGES

    parser = argparse.ArgumentParser(prog="python -m game.app.ui.gallery", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", help="where the PNGs and README.md go (docs/screens)")
    parser.add_argument("--all", action="store_true",
                        help="remake every picture the program draws in the repository (docs/screens, docs/referee, "
                             "docs/art) and record the versions that drew them")
    parser.add_argument("--screens", help=f"comma-separated, from: {', '.join(NAMES)} (default all)")
    parser.add_argument("--langs", help=f"comma-separated, from: {', '.join(LANGUAGES)}")
    parser.add_argument("--sizes", help="comma-separated WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    if args.all:
        if args.folder or args.screens or args.langs or args.sizes:
            parser.error("--all remakes every picture in its place: give no folder, --screens, --langs or --sizes with it")
        if not (ROOT / "docs").is_dir():
            parser.error(f"--all writes into the repository's docs folder and {ROOT / 'docs'} is not one: "
                         "run it from a clone of the repository")
        written = write_all(ROOT, lambda line: print(line, file=sys.stderr))
        total = sum(p.stat().st_size for p in written)
        print(f"{len(written)} pictures ({total / 2**20:.1f} MiB), the index and {MANIFEST} written under {ROOT}")
        print(f"drawn with {versions_text(made_with())}")
        return 0
    if args.folder is None:
        parser.error("give the folder to write into (docs/screens), or --all to remake every picture in its place")
    langs = args.langs.split(",") if args.langs else None
    if langs and set(langs) - set(LANGUAGES):
        parser.error(f"--langs {args.langs}: choose from {', '.join(LANGUAGES)}")
    try:
        sizes = [_size(s) for s in args.sizes.split(",")] if args.sizes else None
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    only = args.screens.split(",") if args.screens else None
    if only and set(only) - set(NAMES):
        parser.error(f"--screens {args.screens}: choose from {', '.join(NAMES)}")
    import pygame

    pygame.font.init()
    chosen = shots(demo_scenes(), only)
    missing = [name for name in (only or NAMES) if name not in {s.name for s in chosen}]
    if missing:
        print(f"note: no simulated game showed {', '.join(missing)}", file=sys.stderr)
    written = write(args.folder, chosen, plan(langs, sizes))
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} screenshots ({total / 2**20:.1f} MiB) and the index written to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
