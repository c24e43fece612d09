"""The staff lock refuses without the PIN and rate-limits wrong PINs; the combo needs a hold."""

from __future__ import annotations

import pytest

from game.errors import BadConfig
from game.staff import FIRST_WAIT_NS, MAX_WAIT_NS, NS_PER_S, Combo, StaffLock, hash_pin

SALT = b"0123456789abcdef"


def lock() -> StaffLock:
    return StaffLock(hash_pin("2468", SALT), SALT)


def test_the_right_pin_opens_and_a_wrong_one_does_not() -> None:
    assert lock().try_pin("2468", 0)[1] is True
    assert lock().try_pin("1357", 0)[1] is False
    assert lock().try_pin("", 0)[1] is False


def test_wrong_pins_are_rate_limited_with_growing_waits() -> None:
    s = lock()
    t = 10 * NS_PER_S
    for _ in range(2):
        s, opened, wait = s.try_pin("0000", t)
        assert not opened and wait == 0
    s, opened, _ = s.try_pin("0000", t)                  # the third wrong PIN starts a wait
    assert s.locked_until_ns == t + FIRST_WAIT_NS
    s, opened, wait = s.try_pin("2468", t + 1)           # even the right PIN is not checked now
    assert not opened and wait == FIRST_WAIT_NS - 1
    s, opened, _ = s.try_pin("1111", t + FIRST_WAIT_NS)  # fourth wrong: the wait doubles
    assert s.locked_until_ns == t + 3 * FIRST_WAIT_NS
    later = s.locked_until_ns
    s, opened, _ = s.try_pin("2468", later)
    assert opened and s.wrong == 0 and s.locked_until_ns == 0


def test_the_wait_never_exceeds_the_cap() -> None:
    s = lock()
    t = 0
    for _ in range(20):
        t = max(t, s.locked_until_ns)
        s, _, _ = s.try_pin("0000", t)
    assert s.locked_until_ns - t == MAX_WAIT_NS


@pytest.mark.parametrize("pin", ["12", "123456789", "12a4", "    "])
def test_a_bad_pin_format_is_refused_without_echoing_it(pin: str) -> None:
    with pytest.raises(BadConfig, match=r"staff PIN '\*+' \(\d characters\) is not valid: use 4 to 8 digits"):
        hash_pin(pin, SALT)


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
