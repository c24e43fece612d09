"""``cheating-moth staff-pin``: make the [staff] lines that set the staff menu's PIN (a salted
hash; the PIN itself is never stored).

On a terminal the PIN is asked for twice without echo. When stdin is not a terminal (a pipe,
a file: ``echo 123456 | cheating-moth staff-pin``) its first line is the PIN, read once."""

from __future__ import annotations

import argparse
import getpass
import sys

from ..errors import GameError
from ..staff import check_pin_format
from .kiosk import new_pin_lines
from .options import fail

HELP = "make the config lines that set the staff menu's PIN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pin", help="the PIN (4 to 8 digits); asked for when not given")


def run(args: argparse.Namespace) -> int:
    pin = args.pin
    if pin is None:
        pin = _read_pin()
    try:
        check_pin_format(pin)
    except GameError as exc:
        fail(str(exc))
    print("# Add these lines to /etc/cheating-moth/config.toml (replacing any [staff] pin lines):")
    print(new_pin_lines(pin), end="")
    return 0


def _read_pin() -> str:
    """The PIN from the terminal (twice, no echo), or the first line of a stdin that is not one."""
    if not sys.stdin.isatty():
        line = sys.stdin.readline()
        if not line.strip():
            fail("no PIN on stdin: pipe one line with the PIN (echo 123456 | cheating-moth staff-pin) "
                 "or pass --pin")
        return line.strip()
    try:
        pin = getpass.getpass("New staff PIN (4 to 8 digits): ")
        again = getpass.getpass("Again: ")
    except EOFError:
        fail("no PIN given (end of input): nothing changed")
    if again != pin:
        fail("the two PINs differ: nothing changed")
    return pin
