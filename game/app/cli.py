"""``cheating-moth``: one entry point, one module per subcommand.

Each ``game/app/cmd_<name>.py`` module is a subcommand. It defines ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``, and imports heavy or hardware libraries
inside ``run`` only, so ``cheating-moth --help`` stays fast and works without them.
Running with no subcommand runs ``play``, the rig's main job.

Every subcommand ends the same way when stopped from outside (here, in one place): SIGINT
(Ctrl-C) exits 130 and SIGTERM (systemd, ``kill``) exits 143, each after the command's own
``finally`` blocks have closed logs, stopped children and removed links, with one line on
stderr and no traceback; a reader that goes away (``| head``) ends it quietly (exit 141, as a
shell reports SIGPIPE); a question met by the end of a stdin that is not a terminal is one
line and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType, ModuleType
from typing import Any, NoReturn

import game.app

DEFAULT_SUBCOMMAND = "play"


def _subcommands() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(game.app.__path__), key=lambda i: i.name):
        if info.name.startswith("cmd_"):
            found[info.name.removeprefix("cmd_").replace("_", "-")] = importlib.import_module(f"game.app.{info.name}")
    return found


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the bad value (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cheating-moth",
        description="Referee rig for Cheating Moth. With no subcommand it runs 'play'.",
    )
    sub = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    for name, module in _subcommands().items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


EXIT_SIGINT = 128 + signal.SIGINT     # 130
EXIT_SIGTERM = 128 + signal.SIGTERM   # 143
EXIT_SIGPIPE = 128 + signal.SIGPIPE   # 141


class Terminated(BaseException):
    """SIGTERM arrived: unwinds the command like KeyboardInterrupt does for SIGINT (a
    BaseException, so that ``except Exception`` in a command does not swallow it)."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    _ignore_stops()  # the command's cleanup runs to its end; systemd's SIGKILL still ends it
    raise Terminated(signum)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _ignore_stops()
    raise KeyboardInterrupt


def _ignore_stops() -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)


@contextmanager
def stop_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise in the main thread (KeyboardInterrupt, :class:`Terminated`)
    while the command runs; the previous handlers come back after it (tests call ``main``).
    Installed before pygame starts, so that SDL keeps its hands off them: SDL turns a SIGTERM
    into a quit event, which a loop that reads no events (``kiosk --input sim``) never sees."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    before: dict[int, Any] = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    handlers: dict[int, Callable[[int, FrameType | None], None]] = {
        signal.SIGINT: _interrupt, signal.SIGTERM: _terminate}
    for sig, handler in handlers.items():
        if before[sig] is not signal.SIG_IGN:   # nohup and friends: ignored stays ignored
            signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in before.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)


def _quiet_stdout() -> None:
    """The reader of stdout is gone: what is still buffered goes nowhere, without a second
    BrokenPipeError when Python flushes stdout at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or args_list[0].startswith("-") and args_list[0] not in ("-h", "--help"):
        args_list.insert(0, DEFAULT_SUBCOMMAND)
    args = parser.parse_args(args_list)
    try:
        with stop_signals():
            result: int = args._run(args)
            sys.stdout.flush()
    except KeyboardInterrupt:
        print("cheating-moth: interrupted (Ctrl-C)", file=sys.stderr)
        return EXIT_SIGINT
    except Terminated:
        print("cheating-moth: stopped (SIGTERM)", file=sys.stderr)
        return EXIT_SIGTERM
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_SIGPIPE
    except EOFError:
        # A command that asks (doctor) met the end of a stdin that is not a terminal.
        print(f"cheating-moth: {args.subcommand} needed an answer but its input ended: run it on a "
              "terminal, or give the answers as options (see --help)", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
