"""Options and helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from ..config import load_rules
from ..engine.state import MAX_PLAYERS, MIN_PLAYERS
from ..errors import GameError
from ..variants import Rules


def players_arg(text: str) -> int:
    """argparse type for a player count (3-5)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number: use {MIN_PLAYERS} to {MAX_PLAYERS}") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{n} players cannot play: use {MIN_PLAYERS} to {MAX_PLAYERS}")
    return n


def count_arg(text: str) -> int:
    """argparse type for a positive count."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: use 1 or more") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is too small: use 1 or more")
    return n


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="TOML file with [rules] variants and an optional [deck] spread")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules from --config, or the defaults; a bad config exits with status 2 and one line."""
    if args.config is None:
        return Rules()
    try:
        return load_rules(args.config)
    except GameError as exc:
        fail(str(exc))


def fail(message: str, status: int = 2) -> NoReturn:
    """Print one line to stderr and exit: how every subcommand reports bad input."""
    print(f"cheating-moth: {message}", file=sys.stderr)
    raise SystemExit(status)
