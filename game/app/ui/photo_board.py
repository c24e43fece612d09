"""What the photo finish shows, as a timing board would: one entry per racer with its place,
reaction, gap to the one before, badges (tie, false start and how early, no card, no press),
the decisive racer, and the deciding pair whose gap decided the race.

Pure: read from the judge's :class:`~game.judge.RaceResult` alone (no pygame), so the board's
facts are tested without drawing, and the drawing only lays them out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...inputs import Press
from ...judge import RaceResult
from ...race import RaceKind

#: Below this deciding gap the main axis cannot show it (1 ms is a pixel or less on a
#: 300 ms axis), so the board adds a close-up of the deciding pair.
CLOSE_UP_BELOW_NS = 1_000_000
#: How the judge marks the presses of a cockroach winner voided for having no matching card.
VOIDED = "voided"


@dataclass(frozen=True, slots=True)
class Entry:
    """One racer's line on the board. ``place`` is shared by a tie (1, 2, 2, 4); ``t_ns`` is
    the press drawn on the axis (the valid press, or the voided one); ``early_ns`` is how long
    before GO the first false start came (None: no false start; ``held_at_go``: the button was
    already down at GO)."""

    player: int
    place: int | None = None
    t_ns: int | None = None
    reaction_ns: int | None = None
    gap_ns: int | None = None
    early_ns: int | None = None
    held_at_go: bool = False
    tie: bool = False
    decisive: bool = False
    voided: bool = False
    no_press: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """The entries in board order (places first), the deciding pair (indices into
    ``entries``, or None when the decision was not a gap between two presses) and GO."""

    entries: tuple[Entry, ...]
    pair: tuple[int, int] | None
    go_t_ns: int | None

    @property
    def deciding_gap_ns(self) -> int | None:
        if self.pair is None:
            return None
        a, b = (self.entries[i].t_ns for i in self.pair)
        assert a is not None and b is not None
        return b - a

    @property
    def close_up(self) -> bool:
        gap = self.deciding_gap_ns
        return gap is not None and gap < CLOSE_UP_BELOW_NS


def go_of(result: RaceResult, go_t_ns: int | None) -> int | None:
    """GO on the race clock: as recorded, else recovered from a placing (press minus reaction)."""
    if go_t_ns is not None:
        return go_t_ns
    if result.ranking:
        first = result.ranking[0]
        return first.t_ns - first.reaction_ns
    return None


def board_of(result: RaceResult, kind: RaceKind, go_t_ns: int | None) -> Board:
    go = go_of(result, go_t_ns)
    decisive = result.loser if kind is RaceKind.SLAP else result.winner
    early: dict[int, tuple[int | None, bool]] = {}
    for f in result.false_starts:
        if f.player not in early:
            early[f.player] = (None if go is None else go - f.t_ns, f.held_at_go)
    entries: list[Entry] = []
    place = 0
    for i, pl in enumerate(result.ranking):
        before = result.ranking[i - 1] if i else None
        # A tie shares a place: the same instant, or within the judge's resolution (its tied).
        shares = before is not None and (
            before.t_ns == pl.t_ns or before.player in result.tied and pl.player in result.tied)
        place = place if shares else i + 1
        after = result.ranking[i + 1] if i + 1 < len(result.ranking) else None
        tie = shares or after is not None and (
            after.t_ns == pl.t_ns or after.player in result.tied and pl.player in result.tied)
        fs = early.get(pl.player, (None, False))
        entries.append(Entry(pl.player, place, pl.t_ns, pl.reaction_ns, pl.gap_ns if i else None,
                             fs[0], fs[1], tie or pl.player in result.tied, pl.player == decisive))
    shown = {e.player for e in entries}
    for press in _voided_presses(result):
        if press.player not in shown:
            shown.add(press.player)
            entries.append(Entry(press.player, t_ns=press.t_ns,
                                 reaction_ns=None if go is None else press.t_ns - go, voided=True))
    rest = [f.player for f in result.false_starts] + list(result.no_press)
    for player in dict.fromkeys(rest):
        if player in shown:
            continue
        fs = early.get(player, (None, False))
        entries.append(Entry(player, early_ns=fs[0], held_at_go=fs[1], decisive=player == decisive,
                             no_press=player in result.no_press, tie=player in result.tied))
    return Board(tuple(entries), _pair(result, kind), go)


def _voided_presses(result: RaceResult) -> list[Press]:
    return [i.edge for i in result.ignored if i.why == VOIDED and isinstance(i.edge, Press)]


def _pair(result: RaceResult, kind: RaceKind) -> tuple[int, int] | None:
    """The two placings whose gap decided: a slap's last two (when the slowest slapped at all),
    a cockroach's first two. Placings come first on the board, so these are board indices."""
    n = len(result.ranking)
    if n < 2:
        return None
    if kind is RaceKind.COCKROACH:
        return (0, 1) if result.winner is not None or result.tied else None
    pressed = {pl.player for pl in result.ranking}
    # The slowest slapped (alone, or in a tie settled by lot or by a re-race): the last two.
    # A loser who never slapped lost to the timeout, not to a gap.
    if result.loser is not None:
        decided = result.loser in pressed
    else:
        decided = bool(result.tied) and set(result.tied) <= pressed
    return (n - 2, n - 1) if decided else None
