"""Defect 1 of issue 11 on the firmware twin: races through the unmodified main.py/hw_rp2.py with
the timer placed adversarially and GC pauses at chosen points, every reported edge checked
against the word the chip model logged (see twin_races.py).

Each test failed on the firmware before the fix (commit 9b6124d, where they were marked
xfail(strict=True)): the timer drain between rx_fifo() and get() blocked the main loop into a
watchdog reset within 8 races; a pause after a pop unwrapped words 2**31 ticks wrong (3 in 221
races) and broke TIME's promise; every arming was stamped 500 cycles before SYNC rose.

TWIN_RACES sets the acceptance run's race count (default 600; 10,000 in the soak, tests/sizes.py),
spread over TWIN_WORKERS processes (default 2).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the test extra")

from firmware_host.twin.board import Policy  # noqa: E402
from sizes import size  # noqa: E402
from twin_races import ADVERSARIAL, Check, policy, race_twin  # noqa: E402



def _summary(result: Check) -> str:
    return f"{result.races} races, {result.edges} edges, faults {result.faults}: " + "; ".join(result.examples)


def test_a_timer_drain_between_rx_fifo_and_get_never_blocks_the_main_loop(tmp_path: Path, micropython: str) -> None:
    """The 1 ms timer's drain runs right after the main loop's rx_fifo() whenever it can."""
    pol = Policy(seed=11, timer_hold_us=1000, timer={"rx": 1_000_000})
    result = race_twin(tmp_path / "tty", 300, 11, pol, micropython)
    assert result.races >= 300 and (result.hangs, result.resets, result.lost, result.nogo) == (0, 0, 0, 0), _summary(result)


def test_a_gc_pause_between_two_pops_never_unwraps_a_word_a_wrap_wrong(tmp_path: Path, micropython: str) -> None:
    """A 10 ms pause right after a get(): the PIO logs on, the later words are newer than the
    time the drain read before it started."""
    pol = Policy(seed=12, gc={"get": 150_000}, gc_gap_us=0)  # pauses as often as the chance says
    result = race_twin(tmp_path / "tty", 300, 12, pol, micropython)
    assert result.races >= 300 and (result.wrapped, result.misstamped, result.time_broken) == (0, 0, 0), _summary(result)


def test_an_arming_is_stamped_after_sync_rises_and_keeps_the_time_promise(tmp_path: Path, micropython: str) -> None:
    """SYNC's stamp may not precede the rise (every edge of the arming would be early), and a
    pause between the stamp and the rise may not break TIME's promise."""
    pol = Policy(seed=13, gc={"timerl": 30_000, "timerh": 30_000, "sync": 100_000}, gc_gap_us=0)
    result = race_twin(tmp_path / "tty", 200, 13, pol, micropython)
    assert result.races >= 200 and (result.sync_early, result.sync_late, result.time_broken) == (0, 0, 0), _summary(result)
    assert result.rearmed > 0  # pauses between the two timer reads did happen: the loggers were armed again


def _share(args: tuple[str, int, int, str]) -> Check:
    link, races, seed, mpy = args
    return race_twin(Path(link), races, seed, policy(seed, ADVERSARIAL), mpy)


@pytest.mark.soak
def test_adversarial_races_lose_and_misstamp_nothing(tmp_path: Path, micropython: str) -> None:
    """Ten thousand races in the soak (600 in every run): random presses with bounce bursts, the timer at adversarial points, 10 ms pauses after
    pops, between timer reads and around SYNC: 0 hangs, 0 resets, 0 lost or mis-stamped edges."""
    races = int(os.environ.get("TWIN_RACES", size(600, 10_000)))
    workers = max(1, int(os.environ.get("TWIN_WORKERS", "2")))
    shares = [races // workers + (1 if k < races % workers else 0) for k in range(workers)]
    jobs = [(str(tmp_path / f"tty{k}"), n, 1000 + k, micropython) for k, n in enumerate(shares)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_share, jobs))
    total = Check()
    for r in results:
        for name in total.__slots__:
            value = getattr(r, name)
            if isinstance(value, int):
                setattr(total, name, getattr(total, name) + value)
            else:
                total.examples.extend(value[:3])
    assert total.races >= races and total.gc > 0 and total.faults == {}, _summary(total)
