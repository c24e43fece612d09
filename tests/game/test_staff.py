"""The staff lock refuses without the PIN and rate-limits wrong PINs (also from a count saved
before a restart); PINs are 6 to 8 digits hashed with PBKDF2-SHA256 at >= 600,000 iterations;
the combo needs a hold. Hashes here use few iterations (the count is stored with each hash)
except the one test of the default."""

from __future__ import annotations

import hashlib

import pytest

from game.errors import BadConfig
from game.staff import (FIRST_WAIT_NS, FREE_TRIES, ITERATIONS, MAX_WAIT_NS, NS_PER_S, Combo, PinHash,
                        StaffLock, wait_after)

SALT = b"0123456789abcdef"
PIN = "246813"
FAST = 1_000


def lock() -> StaffLock:
    return StaffLock(PinHash.of(PIN, SALT, FAST))


def test_the_right_pin_opens_and_a_wrong_one_does_not() -> None:
    assert lock().try_pin(PIN, 0)[1] is True
    assert lock().try_pin("135791", 0)[1] is False
    assert lock().try_pin("", 0)[1] is False
    assert lock().try_pin(PIN + "0", 0)[1] is False


def test_the_default_is_at_least_600000_iterations_and_stored_with_the_hash() -> None:
    assert ITERATIONS >= 600_000
    stored = PinHash.of(PIN, SALT)
    assert stored.iterations == ITERATIONS
    assert stored.digest == hashlib.pbkdf2_hmac("sha256", PIN.encode(), SALT, ITERATIONS)


def test_a_hash_is_checked_with_its_own_iteration_count() -> None:
    # A file written with an older, smaller count still opens after the default rises.
    old = PinHash(hashlib.pbkdf2_hmac("sha256", PIN.encode(), SALT, 2_000), SALT, 2_000)
    assert old.matches(PIN) and not old.matches("246814")


def test_wrong_pins_are_rate_limited_with_growing_waits() -> None:
    s = lock()
    t = 10 * NS_PER_S
    for _ in range(FREE_TRIES - 1):
        s, opened, wait = s.try_pin("000000", t)
        assert not opened and wait == 0
    s, opened, wait = s.try_pin("000000", t)             # the third wrong PIN starts a wait
    assert s.locked_until_ns == t + FIRST_WAIT_NS and wait == FIRST_WAIT_NS
    s, opened, wait = s.try_pin(PIN, t + 1)              # even the right PIN is not checked now
    assert not opened and wait == FIRST_WAIT_NS - 1
    s, opened, _ = s.try_pin("111111", t + FIRST_WAIT_NS)  # fourth wrong: the wait doubles
    assert s.locked_until_ns == t + 3 * FIRST_WAIT_NS
    later = s.locked_until_ns
    s, opened, _ = s.try_pin(PIN, later)
    assert opened and s.wrong == 0 and s.locked_until_ns == 0


def test_the_wait_never_exceeds_the_cap() -> None:
    s = lock()
    t = 0
    for _ in range(20):
        t = max(t, s.locked_until_ns or 0)
        s, _, _ = s.try_pin("000000", t)
    assert s.locked_until_ns - t == MAX_WAIT_NS


def test_a_saved_count_waits_again_from_the_first_attempt_after_a_restart() -> None:
    # After a restart the monotonic clock starts again: the count's whole wait starts at the first
    # attempt on the new clock, and even the right PIN is not checked before it has passed.
    restarted = StaffLock(lock().pin, wrong=FREE_TRIES, locked_until_ns=None)
    t = 5 * NS_PER_S
    s, opened, wait = restarted.try_pin(PIN, t)
    assert not opened and wait == FIRST_WAIT_NS and s.wrong == FREE_TRIES
    s, opened, wait = s.try_pin(PIN, t + FIRST_WAIT_NS)
    assert opened and s.wrong == 0
    # Below the free tries a restart adds no wait, and the count goes on from where it was.
    s, opened, wait = StaffLock(lock().pin, wrong=FREE_TRIES - 1, locked_until_ns=None).try_pin("000000", t)
    assert not opened and wait == FIRST_WAIT_NS and s.wrong == FREE_TRIES


def test_a_huge_saved_count_costs_nothing_and_waits_the_cap() -> None:
    assert wait_after(10**12) == MAX_WAIT_NS
    assert wait_after(FREE_TRIES - 1) == 0 and wait_after(FREE_TRIES) == FIRST_WAIT_NS


@pytest.mark.parametrize("pin", ["1234", "12345", "123456789", "12a456", "      ", "١٢٣٤٥٦", "１２３４５６"])
def test_a_bad_pin_format_is_refused_without_echoing_it(pin: str) -> None:
    with pytest.raises(BadConfig, match=r"staff PIN '\*+' \(\d characters\) is not valid: "
                                        r"use 6 to 8 digits \(6 recommended\)"):
        PinHash.of(pin, SALT, FAST)


@pytest.mark.parametrize("pin", ["246813", "2468135", "24681357", "471100", "135791"])
def test_six_to_eight_digits_are_accepted(pin: str) -> None:
    assert PinHash.of(pin, SALT, FAST).matches(pin)


def test_a_huge_or_foreign_entry_is_not_hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = lock().pin

    def no_hashing(*args: object) -> bytes:
        raise AssertionError("hashed an entry that cannot be a PIN")

    monkeypatch.setattr(hashlib, "pbkdf2_hmac", no_hashing)
    assert not stored.matches("9" * 10_000_000) and not stored.matches("١٢٣٤٥٦")


def test_the_combination_must_be_held() -> None:
    c = Combo(hold_ns=5 * NS_PER_S)
    c, fired = c.update(0, caught_down=True)
    c, fired = c.update(1 * NS_PER_S, seat0_down=True)
    assert not fired
    c, fired = c.update(5 * NS_PER_S)
    assert not fired                                     # 4 s so far
    c, fired = c.update(6 * NS_PER_S)
    assert fired
    c, fired = c.update(7 * NS_PER_S, seat0_down=False)  # letting go resets
    c, fired = c.update(8 * NS_PER_S, seat0_down=True)
    c, fired = c.update(12 * NS_PER_S)
    assert not fired
