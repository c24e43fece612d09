"""The screenshot gallery (``docs/screens/``): every key screen the headless demo photographs,
attract mode's three slides and the staff screens, in the five languages at three sizes, with an
index of thumbnails (``README.md`` in the same folder).

    python -m game.app.ui.gallery docs/screens
    python -m game.app.ui.gallery OUT --screens photo,play --langs en --sizes 800x480

The default set is every language at 800×480, 1920×1080 and 720×1280 (405 PNGs, about
33 MiB); ``--langs`` and ``--sizes`` take every pairing of the ones given instead.

Nothing here draws on its own: the scenes are the ones the headless demo and the display tests
use (``demo.collect`` over the same simulated games, ``demo.KEY_SCREENS``), drawn by
``render.draw`` as the app draws a frame. The staff screens are the play scene with the PIN
keypad or a staff page open; attract mode is drawn at chosen times into its slides. The index
lists every gallery file in the folder, so a run for a few screens keeps the others listed.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

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
            made.append(Shot(name, title, about, type(base)(base.table, ui, base.now_ns)))  # type: ignore[attr-defined]
        elif name in scenes:
            made.append(Shot(name, title, about, scenes[name]))
    return made


def render_shot(shot: Shot, fonts: object, lang: str, size: tuple[int, int]) -> object:
    """The shot drawn on a new surface of ``size``, as the app draws that frame."""
    import pygame

    from .render import draw

    surface = pygame.Surface(size)
    draw(surface, fonts, shot.scene, lang=lang, attract=shot.attract_ns is not None,  # type: ignore[arg-type]
         board=shot.board if shot.name == "attract-board" else None,  # type: ignore[arg-type]
         attract_ns=shot.attract_ns or 0)
    return surface


def plan(langs: Sequence[str] | None, sizes: Sequence[tuple[int, int]] | None) -> list[tuple[str, tuple[int, int]]]:
    """(language, size) pairs to draw: the default set, or every pairing of those given."""
    from ...i18n import LANGUAGES

    return [(lang, size) for lang in (langs or LANGUAGES) for size in (sizes or SIZES)]


def write(folder: Path, shots_: Sequence[Shot], pairs: Sequence[tuple[str, tuple[int, int]]],
          say=print) -> list[Path]:  # type: ignore[no-untyped-def]
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
        "Made by `python -m game.app.ui.gallery docs/screens` (every language at three sizes;",
        "`--langs`, `--sizes` and `--screens` choose others); do not edit by hand.",
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
    parser.add_argument("folder", type=Path, help="where the PNGs and README.md go (docs/screens)")
    parser.add_argument("--screens", help=f"comma-separated, from: {', '.join(NAMES)} (default all)")
    parser.add_argument("--langs", help=f"comma-separated, from: {', '.join(LANGUAGES)}")
    parser.add_argument("--sizes", help="comma-separated WIDTHxHEIGHT")
    args = parser.parse_args(argv)
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

    from ...controller import TableSettings
    from .demo import collect

    pygame.font.init()
    scenes = collect(PLAYERS, list(SEEDS), TableSettings(seats=5, clock="sim"))
    chosen = shots(scenes, only)  # type: ignore[arg-type]
    missing = [name for name in (only or NAMES) if name not in {s.name for s in chosen}]
    if missing:
        print(f"note: no simulated game showed {', '.join(missing)}", file=sys.stderr)
    written = write(args.folder, chosen, plan(langs, sizes))
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} screenshots ({total / 2**20:.1f} MiB) and the index written to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
