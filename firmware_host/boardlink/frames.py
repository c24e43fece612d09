"""What the board link hands out and keeps: decoded frames, the board's HELLO, the link's
counters, the board's sequence numbers as received, and how a ``LOST`` range is read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..board import protocol as P


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded frame. ``seq`` is -1 for a frame the host made up (a ``LOST`` it detected);
    ``session`` is the link session it arrived in (0: not from a link)."""

    seq: int
    verb: str
    fields: Mapping[str, str]
    session: int = 0

    def get_int(self, key: str, low: int = 0, high: int = 2**63) -> int:
        return P.get_int(dict(self.fields), key, low, high)

    def get_ints(self, key: str, high: int = 63) -> list[int]:
        return P.get_list(dict(self.fields), key, 0, high, high + 1)


def decode_frame(line: bytes) -> Frame:
    """A frame from one line; raises ``protocol.ProtocolError`` (a ValueError) and nothing else."""
    seq, verb, fields = P.decode(line)
    return Frame(seq, verb, fields)


@dataclass(slots=True)
class LinkCounters:
    """What went over the link and what went wrong, since the link was made."""

    frames_in: int = 0
    frames_out: int = 0
    bad_frames: int = 0
    bad_by_reason: dict[str, int] = field(default_factory=dict)
    ignored_before_hello: int = 0
    gaps: int = 0
    missing_frames: int = 0
    recovered_frames: int = 0
    lost_frames: int = 0
    duplicates: int = 0
    naks_sent: int = 0
    naks_received: int = 0
    retries: int = 0
    connects: int = 0
    disconnects: int = 0
    read_errors: int = 0
    callback_errors: int = 0
    unmatched_replies: int = 0
    protocol_errors: int = 0  # frames that are well-formed but break the protocol (LOST backwards, ...)
    stamp_faults: int = 0  # impossible PRESS/RELEASE/GO stamps (counted by the race adapter)
    board_restarts: int = 0  # sessions that found a new board clock (another boot id, or a power-up HELLO)
    last_fault: str | None = None  # the latest protocol or stamp fault, as reported

    def copy(self) -> LinkCounters:
        return replace(self, bad_by_reason=dict(self.bad_by_reason))


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """The board's HELLO. ``chip`` and ``board`` are None from firmware of protocol 1.0;
    ``session`` is the link session that this HELLO started."""

    port: str
    proto: tuple[int, int]
    fw: str
    tick_hz: int
    buttons: int
    boot: str
    chip: str | None = None
    board: str | None = None
    uptime_ms: int | None = None
    session: int = 0
    solicited: bool = True  # False: the board's own power-up HELLO under an open port

    @property
    def reports_identity(self) -> bool:
        return self.chip is not None or self.board is not None


# A frame this far behind the highest number received cannot be a resend (the board keeps its
# last 64 frames) nor a cached reply to a retried request (a few seconds of 10 ms heartbeats at
# most): the board restarted and its power-up HELLO did not arrive readable.
BEHIND_LIMIT = 4096


class SeqTracker:
    """The board's sequence numbers as received: gaps, late (resent) frames and duplicates."""

    def __init__(self) -> None:
        self.highest: int | None = None
        self.missing: dict[int, float] = {}  # seq -> when it was found missing

    def reset(self, seq: int) -> None:
        self.highest = seq
        self.missing.clear()

    def accept(self, seq: int, now_s: float) -> tuple[str, int]:
        """("new", gap) with the number of frames skipped, ("late", 0), ("duplicate", 0), or
        ("behind", n): n frames behind, further than BEHIND_LIMIT (nothing is changed)."""
        if self.highest is None:
            self.highest = seq
            return "new", 0
        ahead = P.seq_after(seq, self.highest)
        if ahead > 0:
            for k in range(1, min(ahead, 1024)):
                self.missing[(self.highest + k) % P.SEQ_MOD] = now_s
            self.highest = seq
            return "new", ahead - 1
        if seq in self.missing:
            del self.missing[seq]
            return "late", 0
        if -ahead > BEHIND_LIMIT:
            return "behind", -ahead
        return "duplicate", 0

    def last_in_order(self) -> int:
        """The last sequence number before the first missing one (what a NAK names)."""
        assert self.highest is not None
        if not self.missing:
            return self.highest
        first = min(self.missing, key=lambda s: P.seq_after(s, self.highest or 0))
        return (first - 1) % P.SEQ_MOD

    def expire(self, now_s: float, after_s: float) -> list[int]:
        gone = [s for s, t in self.missing.items() if now_s - t >= after_s]
        for s in gone:
            del self.missing[s]
        return gone


def lost_range(frame: Frame) -> tuple[int, str | None]:
    """``(frames lost, None)`` for a ``LOST from=A to=B``, or ``(0, why)`` for a protocol fault.

    Sequence numbers wrap (65535 is followed by 0), so the range is read forwards from A:
    ``from=65530 to=5`` is 12 frames. B must be at most half the sequence space (32767) after A;
    a B that is before A that way (``from=100 to=10``) is a fault, never a negative count."""
    try:
        first = frame.get_int("from", 0, P.SEQ_MOD - 1)
        last = frame.get_int("to", 0, P.SEQ_MOD - 1)
    except P.ProtocolError as exc:
        return 0, f"the board sent a LOST that names no frames ({exc}): the lost range is unknown"
    ahead = P.seq_after(last, first)
    if ahead < 0:
        return 0, (
            f"the board sent LOST from={first} to={last}, whose end is before its start: the lost range is unknown"
        )
    return ahead + 1, None
