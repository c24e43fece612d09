"""``cheating-moth staff-pin``: set the staff menu's PIN. It writes the PIN file
(``/etc/cheating-moth/staff-pin.toml``: a salted PBKDF2-SHA256 hash, never the PIN itself),
readable by root and the kiosk's group only; the kiosk reads it at its next start.

On a terminal the PIN is asked for twice without echo. When stdin is not a terminal (a pipe,
a file: ``echo 418206 | sudo cheating-moth staff-pin``) its first line is the PIN, read once."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from ..errors import GameError
from ..staff import PIN_DIGITS, RECOMMENDED_DIGITS, VALID_PIN, check_pin_format
from .options import fail, file_arg
from .pinfile import DEFAULT_PATH, SERVICE_GROUP, check_pin_target, write_pin_file

HELP = "set the staff menu's PIN (writes a hash to /etc/cheating-moth/staff-pin.toml)"
_DIGITS = f"{PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits, {RECOMMENDED_DIGITS} recommended"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pin", help=f"the PIN: {VALID_PIN}; asked for when not given (safer: "
                                      "a PIN on the command line is seen by other users)")
    parser.add_argument("--file", metavar="FILE", type=file_arg, default=str(DEFAULT_PATH),
                        help=f"the PIN file (default {DEFAULT_PATH}: beside the kiosk's config file)")
    parser.add_argument("--group", default=SERVICE_GROUP,
                        help=f"run as root: the group that may read the file (default {SERVICE_GROUP})")


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        if args.pin is not None:
            check_pin_format(args.pin)
        # Before the PIN is asked for: a file that will be refused is said first.
        check_pin_target(path)
    except GameError as exc:
        fail(f"{exc}; nothing changed")
    except OSError as exc:
        fail(f"cannot look at the PIN file {str(path)!r} ({exc.strerror or exc}): run it as root "
             "(sudo cheating-moth staff-pin) or choose a file with --file; nothing changed")
    pin = args.pin
    if pin is None:
        pin = _read_pin()
    try:
        check_pin_format(pin)
        write_pin_file(path, pin, group=args.group)
    except GameError as exc:
        fail(f"{exc}; nothing changed")
    except OSError as exc:
        fail(f"cannot write the PIN file {str(path)!r} ({exc.strerror or exc}): run it as root "
             "(sudo cheating-moth staff-pin) or choose a file with --file; nothing changed")
    print(f"wrote {path} (mode 0640): the kiosk uses the new PIN from its next start "
          "(sudo systemctl restart cheating-moth)")
    return 0


def _read_pin() -> str:
    """The PIN from the terminal (twice, no echo), or the first line of a stdin that is not one."""
    if not sys.stdin.isatty():
        line = sys.stdin.readline(64)
        if not line.strip():
            fail("no PIN on stdin: pipe one line with the PIN (echo 418206 | cheating-moth staff-pin) "
                 "or pass --pin")
        return line.strip()
    try:
        pin = getpass.getpass(f"New staff PIN ({_DIGITS}): ")
        again = getpass.getpass("Again: ")
    except EOFError:
        fail("no PIN given (end of input): nothing changed")
    if again != pin:
        fail("the two PINs differ: nothing changed")
    return pin
