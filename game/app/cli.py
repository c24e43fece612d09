"""``cheating-moth``: one entry point, one module per subcommand.

Each ``game/app/cmd_<name>.py`` module is a subcommand. It defines ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``, and imports heavy or hardware libraries
inside ``run`` only, so ``cheating-moth --help`` stays fast and works without them.
Running with no subcommand runs ``play``, the rig's main job.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

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


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or args_list[0].startswith("-") and args_list[0] not in ("-h", "--help"):
        args_list.insert(0, DEFAULT_SUBCOMMAND)
    args = parser.parse_args(args_list)
    result: int = args._run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
