"""The staff lock: a PIN (stored as a salted hash) with rate limiting, and the button
combination that opens the same menu. Pure: time comes in as arguments."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, replace

from .errors import BadConfig

NS_PER_S = 1_000_000_000
#: Wrong PINs allowed before the lock waits; then each further wrong PIN doubles the wait.
FREE_TRIES = 3
FIRST_WAIT_NS = 30 * NS_PER_S
MAX_WAIT_NS = 15 * 60 * NS_PER_S
_ITERATIONS = 100_000


def hash_pin(pin: str, salt: bytes) -> str:
    """PBKDF2 of the PIN, hex: what the config stores (never the PIN itself)."""
    check_pin_format(pin)
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, _ITERATIONS).hex()


def check_pin_format(pin: str) -> None:
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise BadConfig(f"staff PIN {'*' * len(pin)!r} ({len(pin)} characters) is not valid: "
                        "use 4 to 8 digits")


@dataclass(frozen=True, slots=True)
class StaffLock:
    """The PIN's hash and salt, and the record of wrong attempts."""

    pin_hash: str
    salt: bytes
    wrong: int = 0                 # wrong PINs since the last right one
    locked_until_ns: int = 0

    def try_pin(self, pin: str, now_ns: int) -> tuple[StaffLock, bool, int]:
        """``(lock, opened, wait_ns)``: ``wait_ns`` > 0 means the lock refused to check at all."""
        if now_ns < self.locked_until_ns:
            return self, False, self.locked_until_ns - now_ns
        ok = pin.isdigit() and hmac.compare_digest(
            hashlib.pbkdf2_hmac("sha256", pin.encode(), self.salt, _ITERATIONS).hex(), self.pin_hash)
        if ok:
            return replace(self, wrong=0, locked_until_ns=0), True, 0
        wrong = self.wrong + 1
        wait = 0
        if wrong >= FREE_TRIES:
            wait = min(FIRST_WAIT_NS << (wrong - FREE_TRIES), MAX_WAIT_NS)
        return replace(self, wrong=wrong, locked_until_ns=now_ns + wait), False, 0


@dataclass(frozen=True, slots=True)
class Combo:
    """Staff button combination: the Caught! button and seat 0's button held together.

    ``started_ns`` is when both went down; ``hold_ns`` how long they must stay down.
    """

    hold_ns: int = 5 * NS_PER_S
    caught_down: bool = False
    seat0_down: bool = False
    started_ns: int | None = None

    def update(self, now_ns: int, caught_down: bool | None = None,
               seat0_down: bool | None = None) -> tuple[Combo, bool]:
        """Feed button states and time; True once the combination has been held long enough."""
        c = self.caught_down if caught_down is None else caught_down
        s = self.seat0_down if seat0_down is None else seat0_down
        started = self.started_ns
        if c and s:
            started = now_ns if started is None else started
        else:
            started = None
        fired = started is not None and now_ns - started >= self.hold_ns
        new = replace(self, caught_down=c, seat0_down=s, started_ns=None if fired else started)
        return new, fired
