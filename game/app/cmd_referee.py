"""``cheating-moth referee [GAME]``: the rig as a referee for other games at the table.

``quiz`` is the quiz-show lockout: the host arms, the first press locks everyone out, the rest
ring in behind it with their gaps, Wrong passes to the next in line. With a display it opens
the screen on the buttons found (``--input``); with ``--input sim`` or no display it plays
simulated players headless, prints what happened and writes screenshots of the key moments.
A race preset (``--list`` lists them: ``game/data/referee/*.toml`` and a café's own folders)
is played the same way: on the screen with the buttons found, or headless with simulated
players, whose run prints its races, writes screenshots and a session report (HTML), and gives
the tally and per-player statistics as JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import LANGUAGES
from ..referee.presets import Outcome, Preset

if TYPE_CHECKING:
    from .referee.race_log import RaceLog
    from .ui.adapters import Detected
from .options import fail, new_seed, seed_arg

HELP = "referee mode: the quiz-show lockout ('quiz') or a race preset for another reaction game"

MIN_SEATS, MAX_SEATS = 2, 8
DEFAULT_SEATS = 4
DEFAULT_QUESTIONS = 6
DEFAULT_RACES = 8
SCREENSHOTS = Path("/tmp/cheating-moth-referee")
#: A café's own race presets (``*.toml``), beside the shipped ones; also the user's
#: ``~/.config/cheating-moth/referee`` and any ``--presets`` folder.
CAFE_PRESETS = Path("/etc/cheating-moth/referee")


def seats_arg(text: str) -> int:
    if not text.isdigit() or not MIN_SEATS <= int(text) <= MAX_SEATS:
        raise argparse.ArgumentTypeError(f"players {text!r} is not valid: referee mode takes {MIN_SEATS} to {MAX_SEATS}")
    return int(text)


def questions_arg(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 200:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of questions or races: use 1 to 200")
    return int(text)


def seconds_arg(text: str) -> int:
    """Whole seconds 0..600 as milliseconds (0: no limit)."""
    if not text.isdigit() or not 0 <= int(text) <= 600:
        raise argparse.ArgumentTypeError(f"{text!r} is not valid: use whole seconds, 0 (no limit) to 600")
    return int(text) * 1000


def points_arg(text: str) -> int:
    try:
        value = int(text.replace("−", "-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of points") from None
    if not -1000 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"{text!r} points is out of range: use -1000 to 1000")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .cmd_play import lang_arg, size_arg

    parser.add_argument("game", nargs="?", default="quiz",
                        help="quiz (default), or a race preset's name (see --list)")
    parser.add_argument("--list", action="store_true", help="list the race presets and exit")
    parser.add_argument("--presets", metavar="DIR", action="append",
                        help=f"a folder of the café's own presets (*.toml), besides {CAFE_PRESETS} and "
                             "~/.config/cheating-moth/referee; may be given more than once")
    parser.add_argument("--players", type=seats_arg, default=None,
                        help=f"seats, {MIN_SEATS} to {MAX_SEATS} (default {DEFAULT_SEATS}, within what a preset takes; "
                             "the buttons wired can limit it)")
    parser.add_argument("--input", choices=("auto", "board", "gpio", "keyboard", "sim"), default="auto",
                        help="auto: the buzzer board, else GPIO buttons, else keyboard seats; sim: simulated players, headless")
    parser.add_argument("--seed", type=seed_arg, default=None, help="seed of the simulated players (printed when not given)")
    parser.add_argument("--lang", type=lang_arg, default=None, help=f"{', '.join(LANGUAGES)} or all (screenshots in every language)")
    parser.add_argument("--size", type=size_arg, default=None, help="window or screenshot size WIDTHxHEIGHT (default 800x480)")
    parser.add_argument("--headless", action="store_true", help="no window even where there is a display")
    parser.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    parser.add_argument("--screenshots", metavar="DIR", help="where the simulated run writes its screenshots")
    parser.add_argument("--rounds", type=questions_arg, default=None, metavar="N",
                        help=f"questions (default {DEFAULT_QUESTIONS}) or counted races (default {DEFAULT_RACES}) "
                             "the simulated run plays")
    parser.add_argument("--json", action="store_true", help="the simulated run's outcome as JSON on stdout")
    parser.add_argument("--db", metavar="PATH",
                        help="a race preset's SQLite session log: every input is written before it takes effect, "
                             "and a session in it is resumed (its folder must exist)")
    parser.add_argument("--report", metavar="FILE",
                        help="after a race preset's session, write its report (HTML: tables and charts per "
                             "player) to FILE; the simulated run writes report.html beside its screenshots too")
    parser.add_argument("--export", metavar="DIR",
                        help="after a race preset's session, write each finished race into DIR for "
                             "'cheating-moth judge' (race-001.json, ...)")
    quiz = parser.add_argument_group("quiz")
    quiz.add_argument("--teams", metavar="T1,T2,...", help="a team name per seat, e.g. red,red,blue,blue")
    quiz.add_argument("--first-per-team", action="store_true",
                      help="the first of each team rings in, the rest of that team is locked out")
    quiz.add_argument("--buzz-window", type=seconds_arg, default=0, metavar="S", help="seconds to ring in after arming (0: no limit)")
    quiz.add_argument("--answer-time", type=seconds_arg, default=0, metavar="S", help="seconds to answer after a ring-in (0: no limit)")
    quiz.add_argument("--right", type=points_arg, default=10, metavar="N", help="points for a right answer (default 10)")
    quiz.add_argument("--wrong", type=points_arg, default=0, metavar="N", help="points for a wrong answer, 0 or below (default 0)")
    quiz.add_argument("--early", type=points_arg, default=0, metavar="N", help="points for a press before arming, 0 or below")
    quiz.add_argument("--early-lockout", action="store_true", help="a press before arming locks that seat out of the question")


def run(args: argparse.Namespace) -> int:
    from .cmd_play import display_available, env_lang

    if args.list or args.game != "quiz":
        return _presets(args)
    if args.db or args.export or args.report:
        option = "--db" if args.db else "--export" if args.export else "--report"
        fail(f"{option} is for a race preset's session (see --list): the quiz keeps no log")
    lang = args.lang or env_lang(os.environ)
    langs = list(LANGUAGES) if lang == "all" else [lang]
    headless = args.headless or args.input == "sim" or not display_available()
    if headless and args.input == "keyboard":
        fail("--input keyboard needs a display: run it where there is one, or use --input sim")
    seats = args.players or DEFAULT_SEATS
    settings = quiz_settings(args, seats, "sim" if headless else None)
    seed = args.seed if args.seed is not None else new_seed()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        return _simulated_quiz(args, settings, seed, langs)
    return _quiz_on_screen(args, seats, seed, langs[0])


def quiz_settings(args: argparse.Namespace, seats: int, clock: str | None, resolution_ns: int | None = None):  # type: ignore[no-untyped-def]
    """The quiz's settings from the options; a bad combination is one line, exit 2."""
    from ..errors import GameError
    from ..referee.quiz import QuizMode, QuizSettings

    teams: tuple[tuple[int, str], ...] = ()
    if args.teams:
        names = [t.strip() for t in args.teams.split(",")]
        if len(names) != seats or not all(names):
            fail(f"--teams {args.teams!r} names {len(names)} seats: give one team name per seat, {seats} in all "
                 "(e.g. red,red,blue,blue)")
        teams = tuple(enumerate(names))
    extra: dict[str, Any] = {} if clock is None else {"clock": clock}
    if resolution_ns is not None:
        extra["resolution_ns"] = resolution_ns
    try:
        return QuizSettings(seats=seats, teams=teams,
                            mode=QuizMode.FIRST_PER_TEAM if args.first_per_team else QuizMode.INDIVIDUAL,
                            buzz_window_ms=args.buzz_window, answer_ms=args.answer_time,
                            right_points=args.right, wrong_points=args.wrong, early_points=args.early,
                            early_lockout=args.early_lockout, **extra)
    except GameError as exc:
        fail(str(exc).replace("right_points", "--right").replace("wrong_points", "--wrong")
             .replace("early_points", "--early"))


def screenshot_folder(args: argparse.Namespace, default: str) -> Path:
    """--screenshots, or ``default`` under the shared screenshots folder, made if missing; a
    folder that cannot be made is one line, exit 2."""
    folder = Path(args.screenshots) if args.screenshots else SCREENSHOTS / default
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--screenshots {str(folder)!r} cannot be created ({exc.strerror}): give a folder you can write to")
    return folder


def names_for(seats: int) -> tuple[str, ...]:
    from ..controller.settings import DEFAULT_NAMES

    names = (*DEFAULT_NAMES, "Ida")
    return tuple(names[i] for i in range(seats))


def _simulated_quiz(args: argparse.Namespace, settings: object, seed: int, langs: list[str]) -> int:
    import pygame

    from .referee.quiz_demo import play_quiz
    from .referee.quiz_screen import QuizView, draw_quiz
    from .ui.fonts import fonts_for
    from .ui.paint import Painter

    folder = screenshot_folder(args, f"quiz-seed-{seed}")
    size = args.size or (800, 480)
    names = names_for(settings.seats)  # type: ignore[attr-defined]
    pygame.init()
    run = None
    shots: list[Path] = []
    for lang in langs:
        fonts, choice = fonts_for(lang)
        suffix = f"-{choice.lang}" if len(langs) > 1 else ""

        def draw(state, now_ns, name, fonts=fonts, lang=choice.lang, suffix=suffix):  # type: ignore[no-untyped-def]
            surface = pygame.Surface(size)
            draw_quiz(Painter(surface, fonts, lang), QuizView(state, names, now_ns))
            path = folder / f"{name}{suffix}.png"
            pygame.image.save(surface, str(path))
            return path

        # The same seed in every language: the same quiz, photographed in each.
        run = play_quiz(settings, seed, args.rounds or DEFAULT_QUESTIONS, draw, names)  # type: ignore[arg-type]
        shots += run.shots
    assert run is not None
    state = run.state
    scores = {names[seat]: points for seat, points in enumerate(state.scores)}
    if args.json:
        print(json.dumps({"game": "quiz", "seed": seed, "seats": settings.seats,  # type: ignore[attr-defined]
                          "questions": state.questions, "scores": scores,
                          "teams": dict(state.team_scores), "log": run.lines,
                          "screenshots": [str(p) for p in shots]}, ensure_ascii=False))
        return 0
    print(f"Quiz — simulated players, seed {seed}")
    for line in run.lines:
        print(line)
    print("Scores: " + ", ".join(f"{name} {points}" for name, points in scores.items()))
    if state.team_scores:
        print("Teams: " + ", ".join(f"{team} {points}" for team, points in state.team_scores))
    print(f"Screenshots: {folder}")
    return 0


def _quiz_on_screen(args: argparse.Namespace, seats: int, seed: int, lang: str) -> int:
    import pygame

    from .referee.quiz_app import QuizApp
    from .ui.fonts import fonts_for
    from .ui.sound import Sounds, pre_init

    detected = _detect(args, seats)
    settings = quiz_settings(args, seats, detected.adapter.clock, detected.adapter.resolution_ns)
    pre_init()
    pygame.init()
    flags = pygame.FULLSCREEN if args.fullscreen else 0
    surface = pygame.display.set_mode(args.size or ((0, 0) if args.fullscreen else (800, 480)), flags)
    pygame.display.set_caption("Cheating Moth — referee")
    fonts, choice = fonts_for(lang)
    app = QuizApp(detected=detected, settings=settings, seed=seed, names=names_for(seats), lang=choice.lang,
                  fonts=fonts, surface=surface, sounds=Sounds(), say=lambda s: print(s, file=sys.stderr))
    print(f"Quiz — {detected.name} input, {seats} seats; A arms, R right, X wrong, S skip, Esc leaves "
          "(asking first once there are scores)", flush=True)
    try:
        app.run()
    finally:
        app.say_final()     # the scores, if leaving did not print them (Ctrl-C, SIGTERM)
        detected.close()
        pygame.quit()
    return 0


def preset_dirs(args: argparse.Namespace, notices: list[str] | None = None) -> list[Path]:
    """Where a café's own presets are looked for, after the shipped ones (a later folder's file
    with the same id wins): the system's, the user's, then each ``--presets`` folder. Without a
    home folder to be found (no ``$HOME`` and no entry in the user database) the user's is left
    out with a sentence on ``notices``; a folder that cannot be read is said by ``load_presets``."""
    theirs = [Path(d) for d in args.presets or ()]
    config_home = os.environ.get("XDG_CONFIG_HOME")
    if not config_home:
        try:
            config_home = str(Path.home() / ".config")
        except (RuntimeError, KeyError, OSError):    # Path.home(): "Could not determine home directory"
            if notices is not None:
                notices.append("the user's referee presets (~/.config/cheating-moth/referee) are not read: "
                               "there is no home folder; set HOME or XDG_CONFIG_HOME")
            return [CAFE_PRESETS, *theirs]
    return [CAFE_PRESETS, Path(config_home) / "cheating-moth" / "referee", *theirs]


def _detect(args: argparse.Namespace, seats: int) -> Detected:
    """The input asked for, with at least ``seats`` seats; else one line and exit 2."""
    from .ui.adapters import detect

    detected = detect(args.input, seats)
    if args.input in ("board", "gpio") and detected.name != args.input:
        detected.close()
        fail(f"--input {args.input}: not found ({'; '.join(detected.notes) or 'nothing answered'}): "
             "check the wiring with 'cheating-moth doctor', or use --input auto")
    if detected.adapter.seats < seats:
        detected.close()
        fail(f"--players {seats}: the {detected.name} input has {detected.adapter.seats} seats: "
             f"use --players {detected.adapter.seats} or fewer")
    return detected


def _presets(args: argparse.Namespace) -> int:
    """--list: the race presets (shipped and the café's; a bad file is left out and said on
    stderr). A preset named: played on the screen, or simulated headless."""
    from ..referee.presets import load_presets

    notices: list[str] = []
    found = load_presets(preset_dirs(args, notices))
    for notice in (*notices, *found.notices):
        print(f"note: {notice}", file=sys.stderr)
    lang = args.lang if args.lang and args.lang != "all" else "en"
    if args.list:
        for preset in found.presets:
            print(f"{preset.id}: {preset.name(lang)} ({preset.min_players}–{preset.max_players} players) — "
                  f"{preset.screen(lang)}")
        return 0
    ids = ", ".join(p.id for p in found.presets)
    if args.game not in found.ids:
        fail(f"game {args.game!r} is not a referee game: use quiz, or one of the race presets ({ids})")
    return _race(args, found.get(args.game))


def _race(args: argparse.Namespace, preset: Preset) -> int:
    from .cmd_play import display_available, env_lang

    if args.players is not None and not preset.min_players <= args.players <= preset.max_players:
        fail(f"--players {args.players} cannot play {preset.id!r}: it takes {preset.min_players} to "
             f"{preset.max_players} players")
    seats = args.players or min(max(DEFAULT_SEATS, preset.min_players), preset.max_players)
    lang = args.lang or env_lang(os.environ)
    langs = list(LANGUAGES) if lang == "all" else [lang]
    headless = args.headless or args.input == "sim" or not display_available()
    if headless and args.input == "keyboard":
        fail("--input keyboard needs a display: run it where there is one, or use --input sim")
    seed = args.seed if args.seed is not None else new_seed()
    if args.export:
        _export(args, None)     # a folder that cannot take the races is said before they are played
    if args.report:
        _check_report(args)     # so is a --report name that cannot take the report (a FIFO, a device...)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        return _simulated_races(args, preset, seats, seed, langs)
    return _races_on_screen(args, preset, seats, seed, langs[0])


def _simulated_races(args: argparse.Namespace, preset: Preset, seats: int, seed: int, langs: list[str]) -> int:
    import pygame

    from .referee.report_file import write_report
    from ..referee.stats import session_stats, stats_to_json
    from .referee.race_demo import SIM_CLOCK, SIM_RESOLUTION_NS, T0_NS, play_races
    from .referee.race_screen import RaceView, draw_race
    from .ui.fonts import fonts_for
    from .ui.paint import Painter

    folder = screenshot_folder(args, f"{preset.id}-seed-{seed}")
    size = args.size or (800, 480)
    log = _open_log(args, preset, seats, seed, clock=SIM_CLOCK, resolution_ns=SIM_RESOLUTION_NS, t0_ns=T0_NS)
    resumed = log.session if log is not None else None
    if resumed is not None:
        seats = resumed.seats
    names = names_for(seats)
    pygame.init()
    run = None
    shots: list[Path] = []
    for lang in langs:
        fonts, choice = fonts_for(lang)
        suffix = f"-{choice.lang}" if len(langs) > 1 else ""

        def draw(session, now_ns, name, stats, fonts=fonts, lang=choice.lang, suffix=suffix):  # type: ignore[no-untyped-def]
            surface = pygame.Surface(size)
            draw_race(Painter(surface, fonts, lang), RaceView(session, names, now_ns, stats=stats))
            path = folder / f"{name}{suffix}.png"
            pygame.image.save(surface, str(path))
            return path

        # The same seed in every language: the same races, photographed in each (and logged once).
        logging = log if lang == langs[0] else None
        try:
            run = play_races(preset, seats, seed, args.rounds or DEFAULT_RACES, draw, names,
                             on_input=logging.record if logging else None, session=resumed)
        finally:
            if logging is not None:
                logging.close()
        shots += run.shots
    assert run is not None
    session = run.session
    exported = _export(args, session)
    reports = [write_report(folder / (f"report-{lang}.html" if len(langs) > 1 else "report.html"), session, names,
                            lang) for lang in langs]
    if args.report:
        reports.append(_report(args, session, names, langs[0]))
    tally = {names[seat]: (session.wins(seat) if preset.outcome is Outcome.FIRST_WINS else session.losses(seat))
             for seat in session.racers}
    what = "wins" if preset.outcome is Outcome.FIRST_WINS else "losses"
    if args.json:
        print(json.dumps({"game": preset.id, "seed": seed, "seats": seats, "races": len(session.decided),
                          "reruns": len(session.results) - len(session.decided), "tally": what, what: tally,
                          "stats": stats_to_json(session_stats(session.results, session.racers), names),
                          "log": run.lines, "screenshots": [str(p) for p in shots],
                          "report": [str(p) for p in reports], "exported": [str(p) for p in exported]},
                         ensure_ascii=False))
        return 0
    print(f"{preset.name('en')} — simulated players, seed {seed}")
    for line in run.lines:
        print(line)
    print(f"{what.capitalize()}: " + ", ".join(f"{name} {count}" for name, count in tally.items()))
    print(f"Screenshots and report: {folder}")
    return 0


def _races_on_screen(args: argparse.Namespace, preset: Preset, seats: int, seed: int, lang: str) -> int:
    import pygame

    from ..errors import GameError
    from ..referee.session import new_session
    from .referee.race_app import RaceApp
    from .ui.adapters import ClockShift
    from .ui.fonts import fonts_for
    from .ui.sound import Sounds, pre_init

    detected = _detect(args, seats)
    adapter = detected.adapter
    try:
        log = _open_log(args, preset, seats, seed, clock=adapter.clock, resolution_ns=adapter.resolution_ns,
                        t0_ns=adapter.now_ns())
        if log is not None:
            session, seats = log.session, log.session.seats
            shift = log.clock_shift_ns(adapter.now_ns())
            if shift:   # a rebooted Pi or a replugged board counts from zero again: carry the time line on
                detected.adapter = ClockShift(adapter, shift)
        else:
            session = new_session(preset, seats, clock=adapter.clock, resolution_ns=adapter.resolution_ns,
                                  seed=seed, t_ns=adapter.now_ns())
    except GameError as exc:
        detected.close()
        fail(str(exc))
    except SystemExit:      # a log that cannot go on, said by _open_log
        detected.close()
        raise
    pre_init()
    pygame.init()
    flags = pygame.FULLSCREEN if args.fullscreen else 0
    surface = pygame.display.set_mode(args.size or ((0, 0) if args.fullscreen else (800, 480)), flags)
    pygame.display.set_caption(f"Cheating Moth — referee: {preset.name(lang)}")
    fonts, choice = fonts_for(lang)
    app = RaceApp(detected=detected, session=session, names=names_for(seats), lang=choice.lang, fonts=fonts,
                  surface=surface, sounds=Sounds(), say=lambda s: print(s, file=sys.stderr),
                  record=log.record if log else None)
    app.perform(app.lights())   # a resumed session's lights (the seats may show anything after a restart)
    print(f"{preset.name('en')} — {detected.name} input, {seats} seats; Space starts, V voids the winner, "
          "C calls a race off, S statistics, Esc leaves (asking first once there is a tally)", flush=True)
    try:
        app.run()
    finally:
        app.say_final()     # the tally, if leaving did not print it (Ctrl-C, SIGTERM)
        detected.close()
        if log is not None:
            log.close()
        pygame.quit()
    _export(args, app.session)
    if args.report:
        print(f"Report: {_report(args, app.session, app.names, app.lang)}")
    return 0


def _report(args: argparse.Namespace, session, names: tuple[str, ...], lang: str) -> Path:  # type: ignore[no-untyped-def]
    """--report: the session's HTML report (one line, exit 2, if it cannot be written)."""
    from datetime import datetime

    from .referee.report_file import write_report
    from .writefile import BadTarget

    try:
        return write_report(args.report, session, names, lang, datetime.now())
    except BadTarget as exc:
        fail(f"--report: {exc}")
    except OSError as exc:
        fail(f"--report {args.report!r} cannot be written ({exc.strerror}): give a file in a folder you can write to")


def _check_report(args: argparse.Namespace) -> None:
    """--report looked at before the session: a name that is not a file is one line, exit 2."""
    from .referee.report_file import check_report_target
    from .writefile import BadTarget

    try:
        check_report_target(args.report)
    except BadTarget as exc:
        fail(f"--report: {exc}")
    except OSError as exc:
        fail(f"--report {args.report!r} cannot be written ({exc.strerror}): give a file in a folder you can write to")


def _open_log(args: argparse.Namespace, preset: Preset, seats: int, seed: int, *, clock: str, resolution_ns: int,
              t0_ns: int) -> RaceLog | None:
    """The session log of ``--db``, new or resumed (its notices said on stderr), or None
    without ``--db``; a log that cannot be resumed, or holds another game, is one line."""
    from ..errors import BadRace, BadTableLog
    from .referee.race_log import RaceLog

    if not args.db:
        return None
    try:
        log = RaceLog.open(args.db, preset, seats, clock=clock, resolution_ns=resolution_ns, seed=seed, t0_ns=t0_ns)
    except (BadTableLog, BadRace) as exc:
        fail(str(exc))
    # An existing log goes on with its own seats unless --players asks for others (refused).
    clash = log.clash(preset.id, args.players or log.setup.seats, clock)
    if clash:
        log.close()
        fail(clash)
    for notice in log.notices:
        print(f"note: {notice}", file=sys.stderr)
    return log


def _export(args: argparse.Namespace, session) -> tuple[Path, ...]:  # type: ignore[no-untyped-def]
    """--export: every finished race as a ``cheating-moth judge`` document (``session`` None:
    only check that the folder can take them)."""
    from ..errors import BadConfig
    from .referee.race_log import export_races

    if not args.export:
        return ()
    try:
        written = export_races(session.records if session is not None else (), args.export)
    except BadConfig as exc:
        fail(str(exc))
    if session is None:         # the check before a session: nothing to write yet
        return ()
    if not args.json:
        print(f"{len(written)} races written to {args.export} (re-judge one: cheating-moth judge "
              f"{written[0] if written else 'FILE'})")
    return written
