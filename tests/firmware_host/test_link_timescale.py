"""One time scale for the host's waits on the board (issue 11, item 6): the argument, else
``CHEATING_MOTH_BOARD_TIME_SCALE``, else 1; validated; every wait multiplied by it. A slow board
is a scripted board whose answers come late (a timer on its side, never a sleep in the test)."""

from __future__ import annotations

import threading

import pytest

from firmware_host.boardlink.errors import BadTimeScale, BoardTimeout
from firmware_host.boardlink.link import BoardLink
from firmware_host.boardlink.rig import BoardRig
from firmware_host.boardlink.timescale import TIME_SCALE_ENV, parse_time_scale, resolve_time_scale
from test_link_faults import FakeBoard

MS = 1_000_000


@pytest.mark.parametrize("bad", ["abc", "nan", "inf", "-inf", "0", "-2", "", None, True, float("nan")])
def test_a_time_scale_must_be_a_positive_finite_number(bad: object) -> None:
    with pytest.raises(BadTimeScale, match=(
            rf"^--board-time-scale {bad!r} is not valid: use a positive finite number of wall seconds per board "
            rf"second, e\.g\. 1 or 20$").replace("(", r"\(").replace(")", r"\)")):
        parse_time_scale(bad, "--board-time-scale")


def test_the_argument_beats_the_environment_which_beats_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TIME_SCALE_ENV, raising=False)
    assert resolve_time_scale() == 1.0
    monkeypatch.setenv(TIME_SCALE_ENV, "12.5")
    assert resolve_time_scale() == 12.5 and resolve_time_scale(3) == 3.0
    assert BoardLink("/dev/x").time_scale == 12.5 and BoardLink("/dev/x", time_scale=2).time_scale == 2.0
    monkeypatch.setenv(TIME_SCALE_ENV, "fast")
    with pytest.raises(BadTimeScale, match=f"^{TIME_SCALE_ENV} 'fast' is not valid: use a positive finite number"):
        BoardLink("/dev/x")


class SlowBoard(FakeBoard):
    """Answers PING ``delay_s`` (wall) after it arrives, as a board slower than real time would."""

    delay_s = 0.3

    def answer(self, seq: int, verb: str, fields: dict[str, str]) -> None:
        if verb == "PING":
            threading.Timer(self.delay_s, lambda: super(SlowBoard, self).answer(seq, verb, fields)).start()
        else:
            super().answer(seq, verb, fields)


def test_reply_waits_are_board_time_times_the_scale() -> None:
    fast = BoardLink("/dev/slow", opener=lambda _p: SlowBoard(), reply_timeout_s=0.05, tries=1, time_scale=1)
    fast.start()
    try:
        with pytest.raises(BoardTimeout, match="did not answer PING after 1 tries"):
            fast.request("PING", [])
    finally:
        fast.close()
    scaled = BoardLink("/dev/slow", opener=lambda _p: SlowBoard(), reply_timeout_s=0.05, tries=1, time_scale=40)
    scaled.start()
    try:
        assert scaled.request("PING", []).verb == "PONG"  # 0.05 board s = 2 wall s at scale 40
    finally:
        scaled.close()


def test_wait_until_and_the_silence_limit_follow_the_scale() -> None:
    board = FakeBoard(ticks=1_000)
    link = BoardLink("/dev/fake", opener=lambda _p: board, reply_timeout_s=0.2, time_scale=0.05, silence_s=40.0)
    rig = BoardRig(link=link)
    try:
        assert rig.time_scale == 0.05
        # What the rig asks its condition to wait, not how long the machine took: a loaded
        # machine may run the wait late, but the scaled timeout is the fact under test.
        waits: list[float | None] = []
        real_wait_for = rig._cond.wait_for

        def recording_wait_for(predicate, timeout=None):  # type: ignore[no-untyped-def]
            waits.append(timeout)
            return real_wait_for(predicate, timeout)

        rig._cond.wait_for = recording_wait_for  # type: ignore[method-assign]
        assert not rig.wait_until(rig.now_ns() + MS, 2.0)  # 2 board s = 0.1 wall s
        assert waits == [pytest.approx(0.1)]
        threading.Timer(0.05, lambda: board.send("TIME", [("ticks", 1_000 + 62_500)])).start()
        assert rig.wait_until(16_000 + MS, 20.0)  # 20 board s = 1 wall s: the TIME came
        assert waits[1] == pytest.approx(1.0)
        # The race wait keeps no stall limit of its own (issue 21): a silent board is the link's
        # to find (40 board s = 2 wall s here), then it is gone and has the rig's patience.
        assert link.connected and link.silence_s * link.time_scale == pytest.approx(2.0)
    finally:
        rig.close()
