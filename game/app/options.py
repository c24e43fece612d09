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


def folder_arg(text: str) -> str:
    """argparse type for a folder the command writes into (``--data``): an empty name (or only
    spaces) is refused; ``Path("")`` is the current folder, where a kiosk would then write its
    logs and leaderboard wherever it was started."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder: name one, e.g. /var/lib/cheating-moth "
                                         "(use . for the current folder)")
    return text


def file_arg(text: str) -> str:
    """argparse type for a file name (``--config``, ``--file``): an empty name is refused rather
    than read as the current folder (or, for the kiosk, as a missing config run on defaults)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not a file name: name one, e.g. "
                                         "/etc/cheating-moth/config.toml")
    return text


#: Seeds every command takes: what a chosen seed is drawn from (``randrange(2**32)``), so a
#: seed printed by one command can be given to any other, and folders named after a seed
#: (``seed-N``) never read ``seed--5``.
SEED_MAX = 2**32 - 1


def seed_arg(text: str) -> int:
    """argparse type for a seed (0 to SEED_MAX), the same for every command taking --seed."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number: use 0 to {SEED_MAX}") from None
    if not 0 <= n <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"seed {n} is out of range: use 0 to {SEED_MAX}")
    return n


def new_seed() -> int:
    """A fresh seed from the system's entropy (never the global random), in seed_arg's range."""
    import random

    return random.SystemRandom().randrange(SEED_MAX + 1)


def resume_clash(db: str, asked_seed: int | None, seed: int, asked_players: int | None = None,
                 players: int | None = None) -> str:
    """Why --seed or --players cannot apply to the table log ``db`` that --db resumes ('' when
    they can): the log's game goes on with its own seed and players, and options asking for
    others are refused rather than quietly overruled."""
    clashes = []
    if asked_seed is not None and asked_seed != seed:
        clashes.append((f"--seed {asked_seed}", f"seed {seed}"))
    if asked_players is not None and players is not None and asked_players != players:
        clashes.append((f"--players {asked_players}", f"{players} players"))
    if not clashes:
        return ""
    return (f"{' and '.join(c[0] for c in clashes)} cannot apply: {db} holds a game with "
            f"{' and '.join(c[1] for c in clashes)}, which --db resumes; drop "
            f"{'it' if len(clashes) == 1 else 'them'}, or give another --db path for a new game")


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


def check_output(option: str, path: str, instead: str) -> None:
    """An output file named on the command line (``--log``, ``--record``), looked at before
    anything runs: a FIFO (writing would wait forever for a reader), a device, a folder, a
    symbolic link or a missing folder is one line, exit 2 (game/app/writefile.py)."""
    from .writefile import BadTarget, check_target

    try:
        check_target(path, f"the {option} file", instead)
    except BadTarget as exc:
        fail(f"{option}: {exc}")
    except OSError as exc:
        fail(f"{option} {path!r} cannot be written ({exc.strerror or exc}): {instead}")


def fail(message: str, status: int = 2) -> NoReturn:
    """Print one line to stderr and exit: how every subcommand reports bad input."""
    print(f"cheating-moth: {message}", file=sys.stderr)
    raise SystemExit(status)
