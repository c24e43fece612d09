"""``cheating-moth`` / ``cheating-moth play``: the rig's main job, the table display.

Where a display exists (X11/Wayland, or KMS/DRM on a Pi console) it opens the app in a window
(``--fullscreen`` for the whole screen) with auto-detected input: the buzzer board, else the
GPIO buttons, else keyboard seats. With no display and no buttons it plays the simulated demo
headless: the game told turn by turn, the final standings, and screenshots of every key screen
in a folder it names. pygame is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

from ..i18n import LANGUAGES
from .options import add_config, players_arg, rules_from_args

HELP = "the table display with auto-detected buttons; with no display and no buttons, the simulated demo headless (the default)"

INPUTS = ("auto", "board", "gpio", "keyboard", "sim")
DEFAULT_WINDOW = (800, 480)
LANG_ENV = "CHEATING_MOTH_LANG"


def size_arg(text: str) -> tuple[int, int]:
    """argparse type for WIDTHxHEIGHT."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write WIDTHxHEIGHT, e.g. 800x480")
    w, h = int(parts[0]), int(parts[1])
    if not (320 <= w <= 7680 and 320 <= h <= 7680):
        raise argparse.ArgumentTypeError(f"{text!r} is out of range: use 320 to 7680 pixels a side")
    return w, h


def lang_arg(text: str) -> str:
    if text not in (*LANGUAGES, "all"):
        raise argparse.ArgumentTypeError(f"language {text!r} is not available: use one of {', '.join(LANGUAGES)} or all")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=players_arg, default=4, help="players in the simulated demo: 3 to 5 (default 4)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the game (default: a new one, printed so it can be replayed)")
    parser.add_argument("--lang", type=lang_arg, default=None,
                        help=f"{', '.join(LANGUAGES)} (default ${LANG_ENV} or en); 'all' takes the headless "
                             "demo's screenshots in every language")
    parser.add_argument("--size", type=size_arg, default=None,
                        help="window or screenshot size WIDTHxHEIGHT (default 800x480; full screen: the screen's)")
    parser.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    parser.add_argument("--headless", action="store_true", help="no window even where there is a display")
    parser.add_argument("--screenshots", metavar="DIR", help="where the headless demo writes its screenshots")
    parser.add_argument("--input", choices=INPUTS, default="auto",
                        help="auto: the buzzer board, else GPIO buttons, else keyboard seats; "
                             "sim: the simulated demo even with buttons")
    parser.add_argument("--log", metavar="FILE", help="also write the game's log (JSON lines) here")
    parser.add_argument("--db", metavar="PATH", help="SQLite table log; an unfinished game in it is resumed")
    parser.add_argument("--attract-after", type=float, default=60.0, metavar="SECONDS",
                        help="idle time at an empty table before attract mode plays a demo (default 60)")
    add_config(parser)


def display_available() -> bool:
    """True where SDL can open a screen: a desktop session, or a KMS/DRM device on a console."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver:
        return driver not in ("dummy", "offscreen", "evdev")
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    if sys.platform in ("darwin", "win32"):
        return True
    return any(Path("/dev/dri").glob("card*"))


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    lang = args.lang or os.environ.get(LANG_ENV) or "en"
    if lang not in (*LANGUAGES, "all"):
        lang = "en"
    langs = list(LANGUAGES) if lang == "all" else [lang]
    headless = args.headless or not display_available()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from .ui.adapters import detect

    detected = None if args.input == "sim" else detect(args.input)
    for note in detected.notes if detected is not None else []:
        print(f"note: {note}", file=sys.stderr)
    if headless and (detected is None or detected.name == "keyboard"):
        return _headless_demo(args, seed, rules, langs)
    assert detected is not None or not headless
    return _app(args, seed, rules, langs[0], detected, headless)


def _headless_demo(args: argparse.Namespace, seed: int, rules: object, langs: list[str]) -> int:
    import pygame

    from ..controller import TableSettings
    from ..variants import Rules
    from .ui.fonts import choose
    from .ui.headless import run_demo

    assert isinstance(rules, Rules)
    pygame.font.init()
    shown = []
    for lang in langs:
        choice = choose(lang)
        if choice.warning:
            print(f"note: {choice.warning}", file=sys.stderr)
        shown.append(choice.lang)
    langs = list(dict.fromkeys(shown))
    folder = Path(args.screenshots) if args.screenshots else Path(tempfile.gettempdir()) / "cheating-moth-screens" / f"seed-{seed}"
    print(f"Cheating Moth — simulated table, {args.players} players, seed {seed}")
    print("No display and no buttons: the simulated demo plays headless.", flush=True)
    settings = TableSettings(seats=args.players, clock="sim", rules=rules)
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    try:
        run_demo(players=args.players, seed=seed, settings=settings, langs=langs,
                 size=args.size or DEFAULT_WINDOW, folder=folder, say=lambda s: print(s, flush=True), log=log)
    finally:
        if log is not None:
            log.close()
        pygame.quit()
    if args.log:
        print(f"Log written to {args.log}; check it with: cheating-moth replay {args.log}", file=sys.stderr)
    return 0


def _app(args: argparse.Namespace, seed: int, rules: object, lang: str, detected: object,
         headless: bool) -> int:
    import pygame

    from ..controller import TableSettings
    from ..errors import BadTableLog
    from ..variants import Rules
    from .options import fail
    from .tablelog import TableLog
    from .ui.adapters import Detected, KeyboardSeats
    from .ui.fonts import fonts_for
    from .ui.loop import App
    from .ui.sound import Sounds, pre_init
    from .ui.state import UiState

    assert isinstance(rules, Rules)
    if detected is None:  # --input sim with a display: the demo on screen at table speed
        detected = Detected(KeyboardSeats(), "sim")
        attract_after: int | None = 0
    else:
        attract_after = int(args.attract_after * 1e9)
    assert isinstance(detected, Detected)
    adapter = detected.adapter
    settings = TableSettings(seats=adapter.seats, clock=adapter.clock, resolution_ns=adapter.resolution_ns,
                             rules=rules)
    pre_init()
    pygame.init()
    flags = pygame.FULLSCREEN if args.fullscreen else 0
    size = args.size or ((0, 0) if args.fullscreen else DEFAULT_WINDOW)
    try:
        surface = pygame.display.set_mode(size, flags) if not headless else pygame.Surface(args.size or DEFAULT_WINDOW)
    except pygame.error as exc:
        print(f"note: no display ({exc}); running headless", file=sys.stderr)
        surface = pygame.Surface(args.size or DEFAULT_WINDOW)
        headless = True
    pygame.display.set_caption("Cheating Moth") if not headless else None
    fonts, choice = fonts_for(lang)
    ui = UiState(lang=choice.lang, input_name=detected.name, font_warning=choice.warning)
    if choice.warning:
        print(f"note: {choice.warning}", file=sys.stderr)
    sounds = Sounds()
    if sounds.note:
        print(f"note: {sounds.note}", file=sys.stderr)
    log = None
    if args.db:
        try:
            log = TableLog.open(args.db, settings, seed, adapter.now_ns())
        except BadTableLog as exc:
            fail(str(exc))
    app = App(detected=detected, settings=settings, seed=seed, ui=ui, fonts=fonts, surface=surface,
              sounds=sounds, log=log, say=(lambda s: print(s, flush=True)) if headless else None,
              attract_after_ns=attract_after, demo_players=args.players)
    print(f"Cheating Moth — {detected.name} input, seed {seed}"
          + ("" if headless else "; F1 settings, Esc quits"), flush=True)
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    finally:
        detected.close()
        if log is not None:
            log.close()
        pygame.quit()
    if sounds.unknown:
        print(f"note: effects named sounds that do not exist: {', '.join(sounds.unknown)}", file=sys.stderr)
    return 0
