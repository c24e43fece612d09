"""The staff lock: a PIN (stored as a salted PBKDF2 hash) with rate limiting, and the button
combination that opens the same menu. Pure: time and the stored hash come in as arguments
(the PIN file is ``game/app/pinfile.py``, the saved count of wrong PINs ``game/app/pinwait.py``)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, replace

from .errors import BadConfig
from .inputs import CaughtPress, CaughtRelease, Press, Release

NS_PER_S = 1_000_000_000
#: Wrong PINs allowed before the lock waits; then each further wrong PIN doubles the wait.
FREE_TRIES = 3
FIRST_WAIT_NS = 30 * NS_PER_S
MAX_WAIT_NS = 15 * 60 * NS_PER_S
#: OWASP's 2023 advice for PBKDF2-HMAC-SHA256 on a low-entropy secret; about 0.5 s on a Pi 4.
#: The count is stored beside each hash, so a later release can raise it and still read old files.
ITERATIONS = 600_000
#: A stored count outside this range is refused: below it a PIN falls to brute force in seconds,
#: above it one check would freeze the keypad for minutes.
ITERATIONS_RANGE = (1_000, 10_000_000)
PIN_DIGITS = (6, 8)
RECOMMENDED_DIGITS = 6


#: PINs guessed first that no rule below catches (lists of leaked PINs put these near the top):
#: mirrored and paired runs, keypad columns and diagonals.
COMMON_PINS = frozenset({
    "112233", "123321", "654456", "147258", "147852", "159753", "159357", "258369", "789456", "456789",
    "102030", "11223344", "12344321", "14725836", "11112222", "12121234",
})
#: What a valid PIN is, as every refusal and the staff-pin command's help say it.
VALID_PIN = (f"{PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits ({RECOMMENDED_DIGITS} recommended), not one "
             "digit repeated, a run such as 123456 or 987654, or a pattern repeated such as 121212")


def trivial_pin(pin: str) -> bool:
    """A PIN guessed in the first tries: one digit repeated (000000), a run up or down with or
    without wrapping past 9 (123456, 654321, 890123), a short pattern repeated (121212,
    123123, 12341234), or one of :data:`COMMON_PINS`. The back-off allows a few tries only, so
    refusing these is what makes 6 digits worth their million."""
    steps = {(int(b) - int(a)) % 10 for a, b in zip(pin, pin[1:])}
    if steps in ({0}, {1}, {9}):
        return True
    repeats = any(len(pin) % n == 0 and pin == pin[:n] * (len(pin) // n) for n in range(1, len(pin) // 2 + 1))
    return repeats or pin in COMMON_PINS


def check_pin_format(pin: str) -> None:
    """6 to 8 ASCII digits, and not a PIN guessed first (:func:`trivial_pin`); the refusal
    never repeats the PIN (it may be nearly right, or the one staff use elsewhere)."""
    low, high = PIN_DIGITS
    hidden = "*" * min(len(pin), 40)
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise BadConfig(f"staff PIN {hidden!r} ({len(pin)} characters) is not valid: "
                        f"use {low} to {high} digits ({RECOMMENDED_DIGITS} recommended)")
    if trivial_pin(pin):
        raise BadConfig(f"staff PIN {hidden!r} is among the first any guest would try: use {VALID_PIN}")


@dataclass(frozen=True, slots=True)
class PinHash:
    """What the PIN file keeps: PBKDF2-HMAC-SHA256 of the PIN, its salt and iteration count."""

    digest: bytes
    salt: bytes
    iterations: int

    @classmethod
    def of(cls, pin: str, salt: bytes, iterations: int = ITERATIONS) -> PinHash:
        check_pin_format(pin)
        return cls(_pbkdf2(pin, salt, iterations), salt, iterations)

    def matches(self, pin: str) -> bool:
        # Only well-formed PINs are hashed: a pasted megabyte costs nothing.
        if not (pin.isascii() and pin.isdigit() and len(pin) <= PIN_DIGITS[1]):
            return False
        return hmac.compare_digest(_pbkdf2(pin, self.salt, self.iterations), self.digest)


def _pbkdf2(pin: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)


def wait_after(wrong: int) -> int:
    """The wait (ns) after ``wrong`` wrong PINs in a row: none for the free tries, then doubling
    up to the cap (the shift is bounded, so a huge saved count costs nothing)."""
    if wrong < FREE_TRIES:
        return 0
    return min(FIRST_WAIT_NS << min(wrong - FREE_TRIES, 32), MAX_WAIT_NS)


@dataclass(frozen=True, slots=True)
class StaffLock:
    """The PIN's hash and the record of wrong attempts.

    ``wrong`` survives restarts (the kiosk saves it in the data folder); ``locked_until_ns`` is on
    the kiosk's monotonic clock, which starts again at every boot, so a lock made from a saved
    count has it ``None`` until the first attempt, when the count's whole wait starts. A restart
    therefore never shortens a wait (it may lengthen it), and no wall clock is trusted: the Pi
    has no RTC, so its wall time at boot can be anything.
    """

    pin: PinHash
    wrong: int = 0                       # wrong PINs since the last right one
    locked_until_ns: int | None = 0      # None: not known since a restart (see above)

    def settled(self, now_ns: int) -> StaffLock:
        """The lock with its wait placed on this boot's clock."""
        if self.locked_until_ns is not None:
            return self
        wait = wait_after(self.wrong)
        return replace(self, locked_until_ns=now_ns + wait if wait else 0)

    def wait_ns(self, now_ns: int) -> int:
        """How long the lock still refuses to check a PIN (0: it checks)."""
        until = self.settled(now_ns).locked_until_ns or 0
        return max(0, until - now_ns)

    def try_pin(self, pin: str, now_ns: int) -> tuple[StaffLock, bool, int]:
        """``(lock, opened, wait_ns)``: ``wait_ns`` is how long the keypad now waits (the rest of
        a running wait, which this attempt did not count, or the one this wrong PIN started)."""
        lock = self.settled(now_ns)
        waiting = lock.wait_ns(now_ns)
        if waiting:
            return lock, False, waiting
        if lock.pin.matches(pin):
            return replace(lock, wrong=0, locked_until_ns=0), True, 0
        wrong = lock.wrong + 1
        wait = wait_after(wrong)
        return replace(lock, wrong=wrong, locked_until_ns=now_ns + wait if wait else 0), False, wait


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

    def seen(self, edge: object, now_ns: int | None = None) -> tuple[Combo, bool]:
        """:meth:`update` from an input record: the Caught! button's or seat 0's edge at its
        stamp, or (any other record, or none) just the time ``now_ns``; an edge of another seat
        without a time changes nothing."""
        if isinstance(edge, (CaughtPress, CaughtRelease)):
            return self.update(edge.t_ns, caught_down=isinstance(edge, CaughtPress))
        if isinstance(edge, (Press, Release)) and edge.player == 0:
            return self.update(edge.t_ns, seat0_down=isinstance(edge, Press))
        if now_ns is not None:
            return self.update(now_ns)
        return self, False
