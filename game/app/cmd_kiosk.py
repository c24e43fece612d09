"""``cheating-moth kiosk``: the café rig, as systemd starts it on tty1.

Full screen (KMS/DRM), the café's config, a data folder with the game log (resumed after a crash
or a pulled plug, or moved aside with a message if it cannot be), the leaderboard, attract mode
when idle, the staff menu behind a PIN or a button combination, and systemd's watchdog fed from
the render loop. A bad config never leaves a dead screen: the rig starts on defaults and says so.

The table runs Cheating Moth or a referee race preset (``[kiosk] game``; staff switch it in the
menu, kept in ``staff.toml``). A switch ends the game's loop and the other game starts in its
place on the same input and screen (:func:`run_kiosk`); the card game's game in progress stays
in its log and is resumed when the table comes back to it. A game the config names that is not
there, or that the seats cannot play, is a notice, and the table runs Cheating Moth.

``--input sim`` plays whole logged games with simulated players (headless soak runs and tests).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import BadTableLog, GameError
from .options import count_arg, file_arg, folder_arg, seed_arg

if TYPE_CHECKING:
    from collections.abc import Callable

    import pygame

    from ..controller.inputs import Input
    from ..sim.presses import Script
    from .tablelog import TableLog
    from ..messages import Message
    from .kiosk import Kiosk, TableGame
    from .referee.kiosk_races import KioskRaces
    from .rigconfig import RigConfig
    from .sdnotify import Watchdog
    from .ui.adapters import Detected
    from .ui.fonts import Fonts
    from .ui.loop import App
    from .ui.sound import Sounds

HELP = "run the rig as a café kiosk (full screen, resumed games, leaderboard, staff menu, watchdog)"

S = 1_000_000_000
log = logging.getLogger("cheating-moth")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", type=file_arg, default="/etc/cheating-moth/config.toml",
                        help="the café's config file (default /etc/cheating-moth/config.toml); the "
                             "staff PIN is read from staff-pin.toml beside it")
    parser.add_argument("--data", metavar="DIR", type=folder_arg, default="/var/lib/cheating-moth",
                        help="game logs and the leaderboard (default /var/lib/cheating-moth)")
    parser.add_argument("--input", choices=("config", "auto", "board", "gpio", "keyboard", "sim"),
                        default="config", help="the input (default: as the config says)")
    parser.add_argument("--headless", action="store_true", help="no screen (SDL dummy driver)")
    parser.add_argument("--players", type=int, default=4, help="with --input sim: 3 to 5 (default 4)")
    parser.add_argument("--seed", type=seed_arg, default=None, help="seed of a new game")
    parser.add_argument("--games", type=count_arg, default=1, help="with --input sim: games to play (default 1)")
    parser.add_argument("--progress", action="store_true",
                        help="with --input sim: a 'progress: game G step N' line after every step")
    parser.add_argument("--draw-every", type=_positive, default=1, metavar="N",
                        help="with --input sim: draw the screen after every N-th step (default 1)")
    parser.add_argument("--no-poweroff", action="store_true",
                        help="'shut down' in the staff menu only quits (no systemctl poweroff)")


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: use 1 or more") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is too small: use 1 or more")
    return n


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(message)s")
    notes: list[str] = []
    config = load_config(args.config, notes)
    if args.headless or args.input == "sim":
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.input == "sim":
        return _sim(args, config, notes)
    return _kiosk(args, config, notes)


def load_config(path: str, notes: list[str]) -> RigConfig:
    """The café's config file, or the defaults with a sentence on ``notes`` saying why: a kiosk
    must reach a screen whatever the file holds."""
    from .rigconfig import MissingConfig, RigConfig, load_rig_config

    try:
        return load_rig_config(path)
    except MissingConfig:
        # No file is a normal kiosk; a symbolic link loop or a FIFO in its place is a note below.
        log.warning("no config file at %s: running on defaults", path)
        return RigConfig()
    except GameError as exc:
        notes.append(f"config problem, running on defaults: {exc}")
    except (ValueError, TypeError, KeyError, RecursionError, MemoryError) as exc:
        # A value that slipped past the checks: still a screen, and the file and the fault named.
        notes.append(f"config problem, running on defaults: {path} could not be used "
                     f"({type(exc).__name__}: {str(exc)[:120]})")
    log.error("%s", notes[-1])
    return RigConfig()


def _wall() -> datetime:
    return datetime.now().astimezone()


def _with_staff_changes(config: RigConfig, data: Path, notes: list[str]) -> RigConfig:
    """What staff changed in the menu (``DATA/staff.toml``) over the config file; a file that
    cannot be used is ignored with a sentence on ``notes``."""
    from .kiosk import load_staff_overrides
    from .rigconfig import with_changes

    try:
        return with_changes(config, **load_staff_overrides(data / "staff.toml", config, notes))
    except (GameError, ValueError, TypeError, KeyError, RecursionError) as exc:
        notes.append(f"staff settings ignored, running without them: {data / 'staff.toml'} could not be "
                     f"used ({type(exc).__name__}: {str(exc)[:120]})")
        return config


@dataclass
class Session:
    """A started kiosk: the game running on its first screen (the card game's ``App`` or a race
    preset's ``KioskRaces``), what it runs on, and what must be closed after it."""

    app: App | KioskRaces
    detected: Detected
    kiosk: Kiosk
    headless: bool
    surface: pygame.Surface | None = None
    fonts: Fonts | None = None
    sounds: Sounds | None = None
    seed: int = 0
    font_warning: str | None = None
    #: (the language asked for at start, the one its font can show): English when Korean was
    #: asked for and no Hangul font exists.
    font_lang: tuple[str, str] = ("en", "en")

    @property
    def lang(self) -> str:
        """The language to show: the config's (staff may have changed it), drawn by the fonts."""
        asked, shown = self.font_lang
        return shown if self.kiosk.config.lang == asked else self.kiosk.config.lang

    @property
    def game(self) -> str:
        """What the table runs now: ``cheating-moth`` or a race preset's id."""
        from .referee.kiosk_races import KioskRaces
        from .rigconfig import CHEATING_MOTH

        return self.app.game.id if isinstance(self.app, KioskRaces) else CHEATING_MOTH

    def play(self, game: TableGame) -> None:
        """Run ``game`` on this session's input, screen, fonts and sounds (Cheating Moth resumes
        its log; a race preset starts a fresh session)."""
        from .referee.kiosk_races import KioskRaces
        from .ui.loop import App
        from .ui.state import UiState

        kiosk, adapter = self.kiosk, self.detected.adapter
        assert self.surface is not None and self.fonts is not None and self.sounds is not None
        if game.preset is not None:
            self.app = KioskRaces(kiosk=kiosk, detected=self.detected, game=game, surface=self.surface,
                                  fonts=self.fonts, sounds=self.sounds, seed=self.seed, lang=self.lang,
                                  settle_ns=kiosk.config.settle_ms * 1_000_000)
            return
        config = kiosk.config
        settings = config.table_settings(adapter.seats, adapter.clock, adapter.resolution_ns)
        table_log = kiosk.start_log(settings, self.seed, adapter.now_ns())
        ui = UiState(lang=self.lang, input_name=self.detected.name, font_warning=self.font_warning)
        self.app = App(detected=self.detected, settings=settings, seed=self.seed, ui=ui, fonts=self.fonts,
                       surface=self.surface, sounds=self.sounds, log=table_log,
                       attract_after_ns=config.attract_after_s * S, kiosk=kiosk,
                       settle_ns=config.settle_ms * 1_000_000)

    def switch_wanted(self) -> bool:
        """The game stopped because staff chose another one (not a shutdown, not a closed window)."""
        return not self.kiosk.shutdown_requested and self.kiosk.config.game != self.game

    def switch(self) -> None:
        """Leave the game that stopped and run the one staff chose, with any new note on screen."""
        self.leave()
        seen = len(self.kiosk.notes)
        self.play(self.kiosk.table_game(self.detected.adapter.seats))
        now = self.detected.adapter.now_ns()
        for note in self.kiosk.notes[seen:]:
            log.warning("%s", note)
        for message, until in notices_for(self.kiosk.notes[seen:], now):
            self.app.ui.notices.append((message, until))
        log.info("the table now runs %s", self.game)

    def leave(self) -> None:
        """The game running stops: the card game's log is closed (its game stays in it for
        later), a race session's results are kept in memory."""
        from .referee.kiosk_races import KioskRaces

        if isinstance(self.app, KioskRaces):
            self.app.end()
        elif self.app.log is not None:
            self.kiosk.close_log(self.app.log)   # steps the card never took are said lost
            self.app.log = None

    def close(self) -> None:
        try:
            self.leave()
        finally:
            self.detected.close()
            self.kiosk.close()


#: Start-up notices on screen at once: the screen shows the newest notice still up, and keeps
#: four, so they come one after the other; more are joined into the last.
MAX_START_NOTICES = 3


def notices_for(notes: list[str], now_ns: int) -> list[tuple[Message, int]]:
    """Start-up notes as screen notices that show one after the other, the first note first,
    each for three notice times (ready for ``ui.notices.append`` in this order)."""
    from ..messages import Message
    from .ui.state import NOTICE_NS

    notes = list(dict.fromkeys(notes))            # once each, in order
    if len(notes) > MAX_START_NOTICES:
        notes[MAX_START_NOTICES - 1:] = ["; ".join(notes[MAX_START_NOTICES - 1:])]
    shown = [(Message.of("refused", reason=note), now_ns + 3 * NOTICE_NS * (i + 1))
             for i, note in enumerate(notes)]
    return shown[::-1]                            # the first note is the newest, so it shows first


def start(args: argparse.Namespace, config: RigConfig, notes: list[str]) -> Session:
    """Everything up to the first frame: staff changes, the input, the data folder (log,
    leaderboard, lock, race presets), pygame and the table game, with every note on screen as
    a notice."""
    import pygame

    from .kiosk import Kiosk
    from .pinfile import pin_file_for
    from .ui.adapters import detect
    from .ui.fonts import fonts_for
    from .ui.sound import Sounds, pre_init

    config = _with_staff_changes(config, Path(args.data), notes)
    detected = detect(config.input if args.input == "config" else args.input,
                      port=config.port or None, pins=config.pins or None, board_patience_s=config.board_patience_s)
    for note in detected.notes:
        log.info("%s", note)
    try:
        adapter = detected.adapter
        kiosk = Kiosk(Path(args.data), config, _wall, pin_file=pin_file_for(args.config))
        game = kiosk.table_game(adapter.seats)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        pre_init()
        pygame.init()
        if args.headless:
            surface = pygame.Surface((800, 480))
        else:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN if config.fullscreen else 0)
            pygame.mouse.set_visible(False)
        fonts, choice = fonts_for(config.lang)
        sounds = Sounds()
        sounds.set_volume(config.volume)
        session = Session(None, detected, kiosk, args.headless, surface=surface, fonts=fonts,  # type: ignore[arg-type]
                          sounds=sounds, seed=seed, font_warning=choice.warning,
                          font_lang=(config.lang, choice.lang))
        session.play(game)
    except BaseException:
        detected.close()
        raise
    now = detected.adapter.now_ns()
    for note in kiosk.notes:
        log.warning("%s", note)
    for message, until in notices_for(notes + detected.notes + kiosk.notes, now):
        session.app.ui.notices.append((message, until))
    return session


def watchdog_feeder(watchdog: Watchdog, now_ns: Callable[[], int] = time.monotonic_ns,
                    env: dict[str, str] | None = None) -> Callable[[object], None]:
    """The per-frame hook of whichever game runs: READY=1 after the first frame, then systemd's
    watchdog fed (every half period), so a switch between games never starves it. ``env``:
    where systemd's socket is named (the process's environment by default)."""
    from .sdnotify import notify

    ready = [False]

    def on_frame(_: object) -> None:
        if not ready[0]:
            notify("READY=1", env)
            ready[0] = True
        watchdog.kick(now_ns())

    return on_frame


def run_kiosk(session: Session, on_frame: Callable[[object], None]) -> None:
    """The table's games one after the other: run the game until it stops; if staff chose
    another one, switch to it and go on, else (shutdown, a closed window) return."""
    while True:
        session.app.run(on_frame=on_frame)
        if not session.switch_wanted():
            return
        session.switch()


def _kiosk(args: argparse.Namespace, config: RigConfig, notes: list[str]) -> int:
    import pygame

    from .sdnotify import Watchdog

    session = start(args, config, notes)
    log.info("kiosk up: %s input, data in %s, running %s%s", session.detected.name, args.data, session.game,
             ", resumed a game" if session.app.resumed else "")
    try:
        run_kiosk(session, watchdog_feeder(Watchdog()))
    finally:
        session.close()
        pygame.quit()
    if session.kiosk.shutdown_requested and not args.no_poweroff:
        log.warning("shutting down from the staff menu")
        subprocess.run(["systemctl", "poweroff"], check=False)
    return 0


class _SimClock:
    """The adapter of a scripted game: its clock is the script's, nothing is wired."""

    clock = "sim"
    resolution_ns = 100_000

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.t_ns = 0

    def now_ns(self) -> int:
        return self.t_ns

    def drain(self) -> list[object]:
        return []

    def arm(self, seats: object) -> object:
        return None

    def go(self, seats: object) -> object:
        raise AssertionError("a scripted game raises GO itself")

    def show(self, lights: object) -> None:
        return None

    def close(self) -> None:
        return None


def _script_for(app: App) -> tuple[Script, Input | None]:
    """The simulated players' script of the app's game, replayed over its logged steps (the
    players' clock starts with the game's log), and their next input."""
    from ..sim.presses import resume_script

    table = app.table
    if app.log is None:
        return resume_script(table.settings.seats, table.seed, table.settings, [])
    return resume_script(table.settings.seats, table.seed, table.settings, app.log.steps, app.log.t0_ns)


def _sim_races(args: argparse.Namespace, kiosk: Kiosk, game: TableGame, notes: list[str]) -> int:
    """The table runs a race preset (``[kiosk] game``): simulated players race through the
    session and its log in the data folder (``race.db``, resumed like the card game's), eight
    counted races a ``--games``; the transcript and the tally are printed."""
    from ..referee.presets import Outcome
    from .cmd_referee import names_for
    from .referee.race_demo import SIM_CLOCK, SIM_RESOLUTION_NS, T0_NS, play_races

    assert game.preset is not None
    players = game.players(kiosk.config.game_players)
    seed = args.seed if args.seed is not None else 1
    race_log = kiosk.open_race_log(game.preset, players, clock=SIM_CLOCK, resolution_ns=SIM_RESOLUTION_NS,
                                   seed=seed, t0_ns=T0_NS)
    for note in notes + kiosk.notes:
        print(f"note: {note}", flush=True)
    if race_log.inputs:
        print(f"Resumed the referee session in {kiosk.race_current} after {len(race_log.inputs)} logged "
              "inputs.", flush=True)
    names = names_for(players)
    try:
        run = play_races(game.preset, players, seed, 8 * args.games, lambda *_: None, names,
                         on_input=race_log.record, session=race_log.session)
    finally:
        race_log.close()
    for line in run.lines:
        print(line, flush=True)
    s = run.session
    first_wins = game.preset.outcome is Outcome.FIRST_WINS
    tally = ", ".join(f"{names[seat]} {s.wins(seat) if first_wins else s.losses(seat)}" for seat in s.racers)
    print(f"{game.preset.name('en')}: {len(s.decided)} races counted; {'wins' if first_wins else 'losses'}: {tally}")
    return 0


def _sim(args: argparse.Namespace, config: RigConfig, notes: list[str]) -> int:
    """Whole games by simulated players through the real app, kiosk session and logs."""
    import pygame

    from ..controller import Stage
    from ..controller import inputs as console
    from ..sim.presses import T0_NS
    from .kiosk import Kiosk
    from .ui.adapters import Detected
    from .ui.fonts import fonts_for
    from .ui.loop import App
    from .ui.sound import Sounds
    from .ui.state import UiState

    config = _with_staff_changes(config, Path(args.data), notes)
    if not 3 <= args.players <= 5:
        print(f"cheating-moth: --players {args.players} is not valid: use 3 to 5", file=sys.stderr)
        return 2
    clock = _SimClock(args.players)
    kiosk = Kiosk(Path(args.data), config, _wall)
    game = kiosk.table_game(args.players)
    if game.preset is not None:
        return _sim_races(args, kiosk, game, notes)
    settings = config.table_settings(args.players, clock.clock, clock.resolution_ns)
    seed = args.seed if args.seed is not None else 1
    table_log = kiosk.start_log(settings, seed, T0_NS)
    clock.t_ns = T0_NS
    pygame.init()
    fonts, choice = fonts_for(config.lang)

    def make_app(table_log: TableLog) -> App:
        return App(detected=Detected(clock, "sim"), settings=table_log.settings, seed=table_log.seed,  # type: ignore[arg-type]
                   ui=UiState(lang=choice.lang, input_name="sim"), fonts=fonts,
                   surface=pygame.Surface((800, 480)), sounds=Sounds(), log=table_log,
                   say=lambda s: print(s, flush=True), attract_after_ns=None, kiosk=kiosk, scripted=True)

    app = make_app(table_log)
    try:
        # The players' script, replayed over the logged steps: a log the script does not lead
        # to (another --players, another version's bots) is moved aside and a new game starts.
        script, event = _script_for(app)
    except BadTableLog as exc:
        assert app.log is not None
        app.log.close()
        moved = kiosk.set_aside(kiosk.current, str(exc))
        kiosk.notes.append(f"the simulated players cannot carry on the logged game ({exc}); "
                           f"it was moved to {moved} and a new game starts")
        app = make_app(kiosk.start_log(settings, seed, T0_NS))
        script, event = _script_for(app)
    for note in notes + kiosk.notes:
        print(f"note: {note}", flush=True)
    told = len(kiosk.notes)
    if app.resumed and app.log is not None:
        print(f"Resumed the game in {kiosk.current} after {len(app.log.steps)} logged steps.", flush=True)
    clock.t_ns = max(clock.t_ns, app.table.now_t_ns)
    played = 0
    try:
        while played < args.games:
            if app.log is None:  # the game is over (and filed): the next one, or stop
                played += 1
                if played >= args.games:
                    break
                app.feed(console.NewGame(clock.t_ns))
                script, event = _script_for(app)
            if event is None:
                raise AssertionError("the simulated players ran out of moves before the game ended")
            clock.t_ns = max(clock.t_ns, event.t_ns)
            made = app.feed(event)
            if app.table.stage is not Stage.GAME_OVER:
                event = script.send(made)
            if app.steps % args.draw_every == 0 or app.log is None:
                app.draw()
            if args.progress:
                print(f"progress: game {played + 1} step {app.steps}", flush=True)
    finally:
        if app.log is not None:
            kiosk.close_log(app.log)
        pygame.quit()
    last = kiosk.leaderboard.last()
    kiosk.close()
    for note in kiosk.notes[told:]:       # what the card did meanwhile (steps kept, filed late, lost)
        print(f"note: {note}", flush=True)
    if last is not None:
        print("Final standings: " + ", ".join(f"{n} {t}" for n, t in zip(last.names, last.totals)), flush=True)
    return 0
