"""``cheating-moth staff-pin``: make the [staff] lines that set the staff menu's PIN (a salted
hash; the PIN itself is never stored)."""

from __future__ import annotations

import argparse
import getpass

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
        pin = getpass.getpass("New staff PIN (4 to 8 digits): ")
        if getpass.getpass("Again: ") != pin:
            fail("the two PINs differ: nothing changed")
    try:
        check_pin_format(pin)
    except GameError as exc:
        fail(str(exc))
    print("# Add these lines to /etc/cheating-moth/config.toml (replacing any [staff] pin lines):")
    print(new_pin_lines(pin), end="")
    return 0
