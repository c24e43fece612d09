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
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..codec import dumps
from ..i18n import LANGUAGES
from .options import (
    SEED_MAX, add_config, check_output, fail, new_seed, players_arg, resume_clash, rules_from_args, seed_arg,
)

if TYPE_CHECKING:
    from ..controller import TableSettings
    from .tablelog import TableLog
    from .ui.adapters import Detected

HELP = "the table display with auto-detected buttons; with no display and no buttons, the simulated demo headless (the default)"

INPUTS = ("auto", "board", "gpio", "keyboard", "sim")
DEFAULT_WINDOW = (800, 480)
DEMO_PLAYERS = 4
LANG_ENV = "CHEATING_MOTH_LANG"


#: Sizes the screens lay out at, found by drawing every key screen in every language: the
#: shorter side at least 480 px and the longer at least 720 (720×480 fits; 700×480 and 640×480
#: overflow the Spanish game-over screen, 480×640 the German race screens, 400×400 most), either
#: orientation, up to 8K on a side.
MIN_SHORT_SIDE = 480
MIN_LONG_SIDE = 720
MAX_SIDE = 7680


def size_arg(text: str) -> tuple[int, int]:
    """argparse type for WIDTHxHEIGHT, refusing sizes the screens do not fit."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write WIDTHxHEIGHT, e.g. 800x480")
    w, h = int(parts[0]), int(parts[1])
    if not (MIN_SHORT_SIDE <= min(w, h) <= MAX_SIDE and MIN_LONG_SIDE <= max(w, h) <= MAX_SIDE):
        raise argparse.ArgumentTypeError(
            f"{text!r} is a size the screens do not fit: use at least {MIN_LONG_SIDE}x{MIN_SHORT_SIDE} "
            f"(or {MIN_SHORT_SIDE}x{MIN_LONG_SIDE} portrait), at most {MAX_SIDE} pixels a side")
    return w, h


#: The longest --attract-after, as for [display] attract-after-s in the kiosk's config.
ATTRACT_MAX_S = 3600


def attract_arg(text: str) -> float:
    """argparse type for --attract-after: seconds, 0 (at once) to ATTRACT_MAX_S."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds: use 0 to {ATTRACT_MAX_S}") from None
    if not 0 <= seconds <= ATTRACT_MAX_S:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"{text} seconds is out of range: use 0 to {ATTRACT_MAX_S}")
    return seconds


def settle_arg(text: str) -> int:
    """argparse type for --settle-ms: how long a new screen ignores taps and keys, in ms."""
    from .ui.glass import SETTLE_RANGE_MS

    low, high = SETTLE_RANGE_MS
    if not text.isdigit() or not low <= int(text) <= high:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of milliseconds: use {low} "
                                         f"to {high} (default 300)")
    return int(text)


def lang_arg(text: str) -> str:
    if text not in (*LANGUAGES, "all"):
        raise argparse.ArgumentTypeError(f"language {text!r} is not available: use one of {', '.join(LANGUAGES)} or all")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=players_arg, default=None,
                        help="players in the simulated demo: 3 to 5 (default 4)")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help=f"seed of the game, 0 to {SEED_MAX} (default: a new one, printed so it can be replayed)")
    parser.add_argument("--lang", type=lang_arg, default=None,
                        help=f"{', '.join(LANGUAGES)} (default ${LANG_ENV}, else en; an unknown ${LANG_ENV} is "
                             "refused like an unknown --lang, while the kiosk ignores it and takes [display] lang "
                             "from its config); 'all' takes the headless demo's screenshots in every language")
    parser.add_argument("--size", type=size_arg, default=None,
                        help=f"window or screenshot size WIDTHxHEIGHT, at least {MIN_LONG_SIDE}x{MIN_SHORT_SIDE} or "
                             f"{MIN_SHORT_SIDE}x{MIN_LONG_SIDE} portrait, at most {MAX_SIDE} a side "
                             "(default 800x480; full screen: the screen's)")
    parser.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    parser.add_argument("--headless", action="store_true", help="no window even where there is a display")
    parser.add_argument("--screenshots", metavar="DIR", help="where the headless demo writes its screenshots")
    parser.add_argument("--input", choices=INPUTS, default="auto",
                        help="auto: the buzzer board, else GPIO buttons, else keyboard seats; "
                             "sim: the simulated demo even with buttons")
    parser.add_argument("--log", metavar="FILE",
                        help="also write the game's log (JSON lines: every command and event, the table's or the "
                             "headless demo's, a resumed game's whole) here, for 'cheating-moth replay'")
    parser.add_argument("--db", metavar="PATH",
                        help="SQLite table log, the table's or the headless demo's: every input is written before "
                             "it takes effect; an unfinished game in it is resumed (its folder must exist)")
    parser.add_argument("--attract-after", type=attract_arg, default=60.0, metavar="SECONDS",
                        help=f"idle time at an empty table before attract mode plays a demo, 0 to {ATTRACT_MAX_S} "
                             "(default 60)")
    parser.add_argument("--settle-ms", type=settle_arg, default=300, metavar="MS",
                        help="how long a screen just shown ignores taps and keys, its buttons dimmed, so a double "
                             "tap or a tap aimed at the screen before never lands on it: 0 to 2000 (default 300)")
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
    lang = args.lang or env_lang(os.environ)
    langs = list(LANGUAGES) if lang == "all" else [lang]
    headless = args.headless or not display_available()
    _check_options(args, headless)
    seed = args.seed if args.seed is not None else new_seed()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from .ui.adapters import detect

    detected = None if args.input == "sim" else detect(args.input)
    if detected is not None and args.input in ("board", "gpio") and detected.name != args.input:
        # Asked for by name and not there: playing on keyboard seats (or the demo) instead would
        # look like a rig that works while every press on the real buttons goes nowhere.
        detected.close()
        fail(_not_found(args.input, detected.notes))
    for note in detected.notes if detected is not None else []:
        print(f"note: {note}", file=sys.stderr)
    if headless and (detected is None or detected.name == "keyboard"):
        if detected is not None:
            detected.close()
        return _headless_demo(args, seed, rules, langs)
    _check_table_options(args, detected)
    assert detected is not None or not headless
    return _app(args, seed, rules, langs[0], detected, headless)


def env_lang(environ: Mapping[str, str]) -> str:
    """The language ``$CHEATING_MOTH_LANG`` asks for (en when unset or empty), refused like a bad
    ``--lang``: a typo in a shell profile must not quietly give English. (The kiosk does not read
    it: its language is ``[display] lang`` in its config, where a bad value gives a notice on
    screen and English, because a kiosk must always start.)"""
    value = environ.get(LANG_ENV, "")
    if not value:
        return "en"
    if value not in (*LANGUAGES, "all"):
        fail(f"${LANG_ENV}={value!r} is not an available language: set it to one of "
             f"{', '.join(LANGUAGES)} or all, or unset it")
    return value


def _check_options(args: argparse.Namespace, headless: bool) -> None:
    """Refuse options the chosen mode would ignore (one line, exit 2), before anything starts."""
    if headless and args.input == "keyboard":
        fail("--input keyboard needs a window to read the keys from: run it where there is a "
             "display (without --headless), or use --input sim for the simulated demo")
    if headless and args.fullscreen:
        fail("--fullscreen needs a display: drop --fullscreen or --headless"
             if args.headless else "--fullscreen needs a display and none was found: drop --fullscreen")
    if args.log:
        check_output("--log", args.log, "give --log a new file name or a log to replace")


def _check_table_options(args: argparse.Namespace, detected: Detected | None) -> None:
    """The table (not the headless demo) is starting: refuse the demo's own options, which it
    would otherwise ignore."""
    demo_only = [name for name, given in (("--screenshots", args.screenshots),
                                          ("--lang all", args.lang == "all")) if given]
    if not demo_only:
        return
    if detected is not None:
        detected.close()
    what = f"{detected.name} input" if detected is not None else "the simulated table on screen"
    fail(f"{' and '.join(demo_only)} {'is' if len(demo_only) == 1 else 'are'} for the headless demo, "
         f"but the table is starting ({what}): drop {'it' if len(demo_only) == 1 else 'them'} "
         "(the table shows one --lang)")


def _not_found(requested: str, notes: Sequence[str]) -> str:
    why = "; ".join(n for n in notes) or "none found"
    if requested == "board":
        return (f"--input board: no buzzer board to play on ({why}; looked for a USB serial port with "
                "vendor id 0x2E8A): plug the board in and check it with 'cheating-moth board info', "
                "or use --input auto")
    return (f"--input gpio: the GPIO buttons could not be opened ({why}): run it on the Raspberry Pi "
            "with the buttons wired (check with 'cheating-moth doctor'), or use --input auto")


def _headless_demo(args: argparse.Namespace, seed: int, rules: object, langs: list[str]) -> int:
    import pygame

    from ..controller import TableSettings
    from ..errors import BadTableLog
    from ..sim.presses import T0_NS
    from ..variants import Rules
    from .tablelog import TableLog
    from .ui.fonts import choose
    from .ui.headless import run_demo

    assert isinstance(rules, Rules)
    players = args.players or DEMO_PLAYERS
    settings = TableSettings(seats=players, clock="sim", rules=rules)
    table_log = None
    if args.db:
        try:
            table_log = TableLog.open(args.db, settings, seed, T0_NS)
        except BadTableLog as exc:
            fail(str(exc))
        clash = resume_clash(args.db, args.seed, table_log.seed, args.players, table_log.settings.seats)
        if table_log.settings.clock != "sim" or table_log.t0_ns != T0_NS:
            clash = (f"{args.db} holds a game played at the table ({table_log.settings.clock} clock), not the "
                     "simulated demo's: resume it where it was played, or give another --db path")
        if clash:
            table_log.close()
            fail(clash)
        settings, seed, players = table_log.settings, table_log.seed, table_log.settings.seats
        for notice in table_log.notices:  # a loss is never quiet
            print(f"note: {notice}", file=sys.stderr, flush=True)
    pygame.font.init()
    shown = []
    for lang in langs:
        choice = choose(lang)
        if choice.warning:
            print(f"note: {choice.warning}", file=sys.stderr)
        shown.append(choice.lang)
    langs = list(dict.fromkeys(shown))
    folder = Path(args.screenshots) if args.screenshots else Path(tempfile.gettempdir()) / "cheating-moth-screens" / f"seed-{seed}"
    print(f"Cheating Moth — simulated table, {players} players, seed {seed}")
    print("No display and no buttons: the simulated demo plays headless.", flush=True)
    try:
        log = open(args.log, "w", encoding="utf-8") if args.log else None
    except OSError as exc:
        if table_log is not None:
            table_log.close()
        fail(f"--log {args.log!r} cannot be written ({exc.strerror or exc}): give a file in a folder that exists")
    try:
        run_demo(players=players, seed=seed, settings=settings, langs=langs,
                        size=args.size or DEFAULT_WINDOW, folder=folder, say=lambda s: print(s, flush=True),
                        log=log, table_log=table_log)
    except BadTableLog as exc:  # the log's steps are not this game's
        fail(str(exc))
    finally:
        if log is not None:
            log.close()
        if table_log is not None:
            table_log.close()
        pygame.quit()
    if args.log:
        print(f"Log written to {args.log}; check it with: cheating-moth replay {args.log}", file=sys.stderr)
    if table_log is not None and table_log.lost:
        print(f"note: {table_log.lost} step{'s' * (table_log.lost != 1)} could not be written to {args.db} and "
              f"{'are' if table_log.lost != 1 else 'is'} lost ({table_log.trouble}); {table_log.written} steps are "
              "in the log", file=sys.stderr)
        return 1
    if table_log is not None:
        print(f"Table log written to {args.db}: the whole game, {table_log.count} steps", file=sys.stderr)
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
    log = None
    start_over = None
    home_notes: list[str] = []
    if not args.db and not headless and detected.name != "sim":
        # A living room: the game is saved in the user's data folder and offered next time.
        log, start_over, home_notes = _home_log(settings, seed, adapter.now_ns())
    if args.db:  # before the window opens: a refusal is one line on a terminal, with nothing left open
        try:
            log = TableLog.open(args.db, settings, seed, adapter.now_ns())
        except BadTableLog as exc:
            detected.close()
            fail(str(exc))
        clash = resume_clash(args.db, args.seed, log.seed)
        if clash:
            log.close()
            detected.close()
            fail(clash)
    game_log = _open_game_log(args.log, log, detected)
    for note in home_notes:                     # said once every refusal above is past
        print(f"note: {note}", file=sys.stderr)
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
    app = App(detected=detected, settings=settings, seed=seed, ui=ui, fonts=fonts, surface=surface,
              sounds=sounds, log=log, say=(lambda s: print(s, flush=True)) if headless else None,
              attract_after_ns=attract_after, demo_players=args.players or DEMO_PLAYERS, start_over=start_over,
              settle_ns=args.settle_ms * 1_000_000,
              on_step=None if game_log is None else lambda made: _write_step(game_log, made.commands, made.events))
    print(f"Cheating Moth — {detected.name} input, seed {seed}"
          + ("" if headless else "; F1 settings, Esc quits"), flush=True)
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    finally:
        detected.close()
        if app.log is not None:
            app.log.close()
            if app.log.lost:
                print(f"note: {app.log.lost} step{'s' * (app.log.lost != 1)} of the game could not be saved in "
                      f"{app.log.path} and {'are' if app.log.lost != 1 else 'is'} lost ({app.log.trouble})",
                      file=sys.stderr)
        if game_log is not None:
            game_log.close()
        pygame.quit()
    if args.log:
        print(f"Log written to {args.log}; check it with: cheating-moth replay {args.log}", file=sys.stderr)
    if sounds.unknown:
        print(f"note: effects named sounds that do not exist: {', '.join(sounds.unknown)}", file=sys.stderr)
    return 0


def _home_log(settings: TableSettings, seed: int,
              t0_ns: int) -> tuple[TableLog | None, Callable[[], TableLog | None], list[str]]:
    """The living room's log (home.py), how to start over from it, and what to say about it
    (a game kept aside, a folder that cannot be written, a saved game the screen offers)."""
    from datetime import datetime

    from .home import data_dir, open_home, start_over

    home = open_home(data_dir(), settings, seed, t0_ns, datetime.now())
    notes = list(home.notes)
    if home.log is not None and home.log.steps:
        notes.append(f"an unfinished game is saved in {home.path}: the screen offers to carry on")
    told = len(home.notes)

    def again() -> TableLog | None:
        nonlocal told
        start_over(home, settings, seed, t0_ns, datetime.now())
        for note in home.notes[told:]:
            print(f"note: {note}", file=sys.stderr)
        told = len(home.notes)
        return home.log

    return home.log, again, notes


def _open_game_log(path: str | None, table_log: TableLog | None, detected: Detected) -> TextIO | None:
    """``--log FILE`` for the table: opened before the window (a bad path is one line on the
    terminal, with nothing left open), starting with the steps a resumed ``--db`` game already
    took, so the file holds the whole game for ``cheating-moth replay``."""
    if path is None:
        return None
    try:
        # Line-buffered: each step's lines are on disk as it is taken (a pulled plug keeps them).
        out = open(path, "w", encoding="utf-8", buffering=1)
    except OSError as exc:
        if table_log is not None:
            table_log.close()
        detected.close()
        fail(f"--log {path!r} cannot be written ({exc.strerror or exc}): give a file in a folder that exists")
    for entry in table_log.steps if table_log is not None else []:
        _write_step(out, entry.commands, entry.events)
    return out


def _write_step(out: TextIO, commands: Sequence[object], events: Sequence[object]) -> None:
    """One step's engine commands, then its events: the order ``cheating-moth replay`` checks."""
    out.writelines(dumps(record) + "\n" for record in (*commands, *events))
