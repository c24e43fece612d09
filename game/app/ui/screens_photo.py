"""The photo finish as a timing board: for each racer the place, the name in the seat's colour,
the reaction in ms with three decimals, the gap to the one before, and badges (the slowest or
fastest, a tie, a false start and how early it was, no card, no press); beside it (below it on
a narrow box) the photo itself, one lane per racer on an axis in ms from GO. The deciding pair
is framed on the board and in the photo; a close-up of the pair is added when their gap is
under 1 ms, which the main axis cannot show.

Text and photo never share space: the board's columns and the photo's lanes are separate
rectangles, so a press marker cannot cover a time (it did when the times sat over the lanes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import pygame

from ...judge import RaceResult, format_gap, format_ms
from ...race import RaceKind
from . import theme
from .paint import Painter
from .photo_board import Board, Entry, board_of
from .photo_drawn import Drawn, Sheet, localized, put, r4, text_w
from .photo_lanes import close_up, draw_lanes
from .theme import RGB

MS = 1_000_000
#: The decisive racer's row: the loser of a slap on a dark red, the winner of a cockroach on a
#: dark green (dark, so the seat colours and white figures on it stay readable).
LOSER_ROW: RGB = (112, 34, 34)
WINNER_ROW: RGB = (26, 96, 52)
#: Below this width (in 480-px units) the photo goes under the board instead of beside it.
SIDE_BY_SIDE_MIN = 640
#: The thinnest lane worth drawing (480-px units): its dot is still a dot at 1.5 m.
LANE_MIN = 18


def place_text(p: Painter, place: int) -> str:
    return p.t(f"ui_place_{place}") if 1 <= place <= 8 else f"{place}."  # referee mode: 8 seats


class Racers(Protocol):
    """Whose lanes a photo finish shows: a Cheating Moth table, or a referee session."""

    @property
    def players(self) -> int: ...
    @property
    def seated(self) -> tuple[int, ...]: ...   # each player's seat (their colour)
    def name(self, player: int) -> str: ...


def photo_finish(p: Painter, racers: Racers, box: pygame.Rect, result: RaceResult, kind: RaceKind,
                 go_t_ns: int | None, axis: str | None = None) -> Drawn:
    """The board and the photo of ``result`` in ``box``; ``axis``: what the photo's axis counts
    (default "ms after GO"; a race the table starts itself has no GO, its zero is the start)."""
    t = racers
    board = board_of(result, kind, go_t_ns)
    drawn = Sheet()
    p.fill(theme.PANEL, box, radius=12)
    if not board.entries:
        return drawn.done()
    inner = box.inflate(-p.px(12), -p.px(10))
    side = not p.portrait and inner.width >= p.px(SIDE_BY_SIDE_MIN)
    axis_h = p.fonts.line_height(p.px(20)) + p.px(4)
    names = [t.name(e.player) if e.player < t.players else str(e.player) for e in board.entries]
    seats = [t.seated[e.player] if e.player < len(t.seated) else e.player for e in board.entries]
    n = len(board.entries)
    gap = p.px(8)
    cap_h = p.px(24)
    inset_h = p.px(124) if board.close_up else 0
    if side:
        board_w = int(inner.width * 0.66)
        rows_box = pygame.Rect(inner.x, inner.y, board_w, inner.height - axis_h)
        photo_box = pygame.Rect(inner.x + board_w + p.px(12), inner.y,
                                inner.width - board_w - p.px(12), inner.height)
    else:
        # Under the board. Room goes first to rows of two readable lines and lanes of the
        # thinnest kind, then to rows up to 72 px, lanes up to 40 px, rows up to 120 px. With
        # no room even for the thinnest lanes the photo is left out (the close-up kept if it
        # fits) and the rows take its place.
        least = 2 * p.fonts.line_height(p.min_px) + p.px(4)   # two lines of the smallest text
        close = inset_h + gap if inset_h else 0
        budget = inner.height - gap - cap_h - axis_h - close
        if budget - n * least >= n * p.px(LANE_MIN):
            rows_h = max(n * least, min(budget - n * p.px(LANE_MIN), n * p.px(72)))
            lanes_h = min(budget - rows_h, n * p.px(40))
            rows_h = min(budget - lanes_h, n * p.px(120))
        else:
            spare = inner.height - n * least - gap
            rows_h = inner.height - (close if spare >= p.px(96) + gap else 0) - gap
            rows_h = min(n * p.px(120), max(n * least, rows_h), inner.height)
        rows_box = pygame.Rect(inner.x, inner.y, inner.width, rows_h)
        photo_box = pygame.Rect(inner.x, rows_box.bottom + gap, inner.width,
                                max(0, inner.bottom - rows_box.bottom - gap))
    row_h = min(rows_box.height // n, p.px(120))
    if side:
        # Few racers: the rows (and the lanes level with them) sit in the middle, not at the top.
        rows_box.y += (rows_box.height - row_h * n) // 2
    rows = [pygame.Rect(rows_box.x, rows_box.y + i * row_h, rows_box.width, row_h) for i in range(n)]
    cols = _columns(p, board, kind, rows[0], [_reading(p, e)[0] for e in board.entries], names)
    for entry, name, seat, row in zip(board.entries, names, seats, rows):
        _row(p, drawn, kind, entry, name, seat, row, cols)
    if board.pair is not None:
        pair_box = rows[board.pair[0]].union(rows[board.pair[1]])
        p.frame(theme.WARN, pair_box.inflate(-p.px(2), 0), 3, radius=10)
        drawn.framed = tuple(board.entries[i].player for i in board.pair)
    drawn.rows = [(e.player, r4(r)) for e, r in zip(board.entries, rows)]
    if side and not inset_h:
        # Beside the board, each lane level with its racer's row; the axis' unit under the board.
        lanes = [pygame.Rect(photo_box.x, r.y, photo_box.width, r.height) for r in rows]
        lanes_box = pygame.Rect(photo_box.x, rows_box.y, photo_box.width, row_h * n)
        caption = pygame.Rect(rows_box.x, lanes_box.bottom, rows_box.width - gap, axis_h)
        drawn.photo = r4(photo_box)
        draw_lanes(p, drawn, board, seats, lanes_box, lanes, axis_h, caption, axis)
        return drawn.done()
    top = photo_box.y
    room = photo_box.height - cap_h - axis_h - (inset_h + gap if inset_h else 0)
    if room >= n * p.px(LANE_MIN):
        lane_h = room // n
        caption = pygame.Rect(photo_box.x, photo_box.y, photo_box.width - gap, cap_h)
        lanes_box = pygame.Rect(photo_box.x, caption.bottom, photo_box.width, lane_h * n)
        lanes = [pygame.Rect(lanes_box.x, lanes_box.y + i * lane_h, lanes_box.width, lane_h)
                 for i in range(n)]
        drawn.photo = r4(photo_box)
        draw_lanes(p, drawn, board, seats, lanes_box, lanes, axis_h, caption, axis)
        top = lanes_box.bottom + axis_h + gap
    # else a short, narrow box (the strip beside the cockroach's card console with five racers
    # at 800×480): the board says it all, a squashed photo would not be read. The close-up,
    # when there is one, is what the race turned on, so it keeps what room there is.
    if inset_h and photo_box.bottom - top >= p.px(96):
        inset = pygame.Rect(photo_box.x, top, photo_box.width, min(inset_h, photo_box.bottom - top))
        close_up(p, drawn, board, seats, inset)
    return drawn.done()


# -- the board -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Columns:
    """The board's text sizes (px) and column widths, the same for every row; ``shorten``: how
    many times each false start's badge is cut for room (its time to the µs, to the ms, then
    the word alone)."""

    small: int
    big: int
    top_h: int
    place_w: int
    time_w: int
    shorten: int = 0


@dataclass(frozen=True, slots=True)
class _Plan:
    """How one row fits without leaving anything out: the badge moved beside the name (a
    slowest false starter in German: line two has no room for both badges and the gap) and its
    size, the badges left on line two and that line's size."""

    beside: tuple[_Pill, ...]
    beside_px: int
    pills: tuple[_Pill, ...]
    size: int


def _columns(p: Painter, board: Board, kind: RaceKind, row: pygame.Rect, readings: list[str],
             names: list[str]) -> _Columns:
    """The sizes every row fits at, every figure whole: the gaps (the deciding one above all),
    each time and each false start's time. The board is the same in every language; a longer
    word is made room for, in this order: line two in smaller text and the decisive badge
    beside the name (in :func:`_plan`), the names and times in smaller text (down to the
    smallest size), then the false start's time to the whole ms, then its word alone."""
    inner = row.inflate(-2 * p.px(8), -p.px(2))
    # Two lines: name and time as large as the row allows, badges and the gap under them (the
    # smaller line gets its share first, so five racers at 800×480 still read at 20 px).
    small = p.px(_px_for(p, int(inner.height * 0.42), 24))
    top_h = inner.height - p.fonts.line_height(small)
    natural = p.px(_px_for(p, top_h, 40))
    places = [place_text(p, e.place) for e in board.entries if e.place is not None] or [""]

    def made(big: int, shorten: int) -> _Columns:
        place_w = max(text_w(p, text, big) for text in places) + p.px(6)
        # The widest time sets the column, but never more than 40% of the row: at the smallest
        # size a long reading then shrinks to fit rather than squeezing the names out.
        time_w = min(max(text_w(p, text, big) for text in readings) + p.px(4), int(inner.width * 0.4))
        # Line two never in larger text than the names and times above it.
        return _Columns(min(small, big), big, top_h, min(place_w, int(inner.width * 0.16)), time_w, shorten)

    # Every figure whole first: names and times in smaller text down to 28 px with each name
    # cut to a third of its box at worst; then down to the smallest size with a name cut to
    # three letters; only then a false start's time shortened (to the ms, then the word alone).
    floor = min(natural, max(p.min_px, p.px(28)))
    least = min(natural, p.min_px)
    for shorten, lowest, hard in ((0, floor, False), (0, least, True), (1, least, True), (2, least, True)):
        big = natural
        while True:
            cols = made(big, shorten)
            if all(_plan(p, kind, e, name, row, cols, hard) is not None for e, name in zip(board.entries, names)):
                return cols
            if big <= lowest:
                break
            big = max(lowest, big - max(1, big // 16))
    return made(natural, 2)


def _boxes(p: Painter, row: pygame.Rect, cols: _Columns) -> tuple[pygame.Rect, ...]:
    """A row's place, seat bar, name, time and second line."""
    pad = p.px(8)
    inner = row.inflate(-2 * pad, -p.px(2))
    top_h = cols.top_h
    place_box = pygame.Rect(inner.x, inner.y, cols.place_w, inner.height)
    bar = pygame.Rect(place_box.right, inner.y + p.px(4), p.px(6), inner.height - p.px(8))
    name_x = bar.right + pad
    name_box = pygame.Rect(name_x, inner.y, inner.right - cols.time_w - pad - name_x, top_h)
    time_box = pygame.Rect(inner.right - cols.time_w, inner.y, cols.time_w, top_h)
    line2 = pygame.Rect(name_box.x, inner.y + top_h, inner.right - name_box.x, inner.height - top_h)
    return place_box, bar, name_box, time_box, line2


def _plan(p: Painter, kind: RaceKind, entry: Entry, name: str, row: pygame.Rect,
          cols: _Columns, hard: bool = True) -> _Plan | None:
    """How ``entry``'s row fits at ``cols``, every badge and the gap whole; None if it cannot.
    Line two gets smaller text first; then its first badges go beside the name (the name
    whole if that leaves room, else cut to a third of its box, or, ``hard``, to three letters)."""
    _, _, name_box, _, line2 = _boxes(p, row, cols)
    pills = [pill.shorter(cols.shorten) for pill in _pills(p, kind, entry)]
    note = _gap_note(p, entry)

    def line_two(rest: list[_Pill]) -> int | None:
        for size in range(cols.small, p.min_px - 1, -1):
            if _line_need(p, entry, rest, size, note) <= line2.width and _pills_fit(p, rest, size, line2.height):
                return size
        return None

    size = line_two(pills)
    if size is not None:
        return _Plan((), cols.small, tuple(pills), size)
    # The first badges beside the name (the decisive one first), one more while line two is
    # still too full.
    pad = p.px(8)
    name_w = text_w(p, name, cols.big)
    for k in range(1, len(pills) + 1):
        rest = line_two(pills[k:])
        if rest is None:
            continue
        # The name whole, else cut to a third of its box, else (a 16-letter name beside a long
        # badge) to its first three letters: the seat's colour beside it says whose row it is.
        least = min(name_w, text_w(p, name[:3] + "…", cols.big))
        for keep in (name_w, min(name_w, name_box.width // 3), least if hard else name_w):
            for beside_px in range(cols.small, p.min_px - 1, -1):
                if name_box.width - sum(_pill_w(p, pill, beside_px) + pad for pill in pills[:k]) >= keep and \
                    _pills_fit(p, pills[:k], beside_px, name_box.height):
                    return _Plan(tuple(pills[:k]), beside_px, tuple(pills[k:]), rest)
    return None


def _row(p: Painter, drawn: Sheet, kind: RaceKind, entry: Entry, name: str, seat: int,
         row: pygame.Rect, cols: _Columns) -> None:
    colour = theme.seat_colour(seat)
    if entry.decisive:
        # The one the race was about, readable from across the table: the loser of a slap on
        # red, the winner of a cockroach on green.
        p.fill(LOSER_ROW if kind is RaceKind.SLAP else WINNER_ROW,
               row.inflate(-p.px(2), -p.px(2)), radius=10)
    pad = p.px(8)
    big = cols.big / p.scale
    place_box, bar, name_box, time_box, line2 = _boxes(p, row, cols)
    if entry.place is not None:
        put(p, drawn, "place", place_text(p, entry.place), place_box, big, theme.TEXT, "left")
    pygame.draw.rect(p.surface, colour, bar, border_radius=p.px(3))
    plan = _plan(p, kind, entry, name, row, cols)
    if plan is None:
        # No room even at the smallest sizes (a board narrower than any the rig has): line two
        # at the smallest size, every badge cut to its shortest, the gap still drawn.
        plan = _Plan((), p.min_px, tuple(pill.shorter(2) for pill in _pills(p, kind, entry)), p.min_px)
    name_box.width -= sum(_pill_w(p, pill, plan.beside_px) + pad for pill in plan.beside)
    covered = put(p, drawn, "name", name, name_box, big, colour, "left", cut=True)
    x = covered.right
    for pill in plan.beside:
        x = _draw_pill(p, drawn, entry.player, pill, plan.beside_px, x + pad, name_box.y, cols.top_h)
    reading, ink = _reading(p, entry)
    put(p, drawn, "time", reading, time_box, big, ink, "right")
    _second_line(p, drawn, entry, list(plan.pills), line2, plan.size)


@dataclass(frozen=True, slots=True)
class _Pill:
    """A badge; ``texts`` from the fullest to the shortest it may be cut to for room (a false
    start: its time to the µs, to the ms, then the word alone)."""

    key: str
    texts: tuple[str, ...]
    fill: RGB
    ink: RGB

    @property
    def text(self) -> str:
        return self.texts[0]

    def shorter(self, times: int = 1) -> _Pill:
        """Cut ``times`` times, never past the shortest."""
        return replace(self, texts=self.texts[min(times, len(self.texts) - 1):])


def _pills(p: Painter, kind: RaceKind, entry: Entry) -> list[_Pill]:
    """The entry's badges, the decisive one first; a false start says how early it came."""
    pills: list[_Pill] = []
    if entry.decisive:
        key = "ui_slowest" if kind is RaceKind.SLAP else "ui_fastest"
        pills.append(_Pill(key, (p.t(key).upper(),), theme.WARN, theme.BLACK))
    if entry.tie:
        pills.append(_Pill("ui_tie", (p.t("ui_tie").upper(),), theme.WARN, theme.BLACK))
    word = p.t("ui_false_start").upper()
    if entry.held_at_go:
        pills.append(_Pill("ui_false_start", (f"{word} · {p.t('ui_held_at_go')}", word), theme.BAD, theme.TEXT))
    elif entry.early_ns is not None:
        # A true minus sign (U+2212): the fonts draw it in every language (Korean borrows it).
        exact = localized(p, format_ms(-entry.early_ns)).replace("-", "\u2212", 1)
        whole = localized(p, f"\u2212{(entry.early_ns + MS // 2) // MS} ms")
        pills.append(_Pill("ui_false_start", (f"{word} {exact}", f"{word} {whole}", word), theme.BAD,
                           theme.TEXT))
    if entry.voided:
        pills.append(_Pill("ui_voided", (p.t("ui_voided").upper(),), theme.PANEL_HI, theme.TEXT))
    if entry.no_press and entry.early_ns is None and not entry.held_at_go:
        pills.append(_Pill("ui_no_press", (p.t("ui_no_press").upper(),), theme.PANEL_HI, theme.TEXT))
    return pills


def _pill_w(p: Painter, pill: _Pill, size: int) -> int:
    return text_w(p, pill.text, size) + 2 * p.px(6)


def _pill_h(p: Painter, pill: _Pill, size: int) -> int:
    """A badge's height: its line and a margin, or its ink's (an accented capital, "É", reaches
    above the line)."""
    return max(p.fonts.line_height(size), p.fonts.reach(p.typeset(pill.text), size).height) + p.px(2)


def _pills_fit(p: Painter, pills: Sequence[_Pill], size: int, height: int) -> bool:
    """Each badge's ink fits a line of ``height`` at ``size``."""
    return all(p.fonts.reach(p.typeset(pill.text), size).height <= height for pill in pills)


def _draw_pill(p: Painter, drawn: Sheet, player: int, pill: _Pill, size: int, x: int, y: int,
               height: int) -> int:
    """A badge at ``x``, centred in the line from ``y`` of ``height``; returns its right end."""
    pill_h = min(height, _pill_h(p, pill, size))
    box = pygame.Rect(x, y + (height - pill_h) // 2, _pill_w(p, pill, size), pill_h)
    p.fill(pill.fill, box, radius=pill_h // 2)
    p.text(pill.text, box, size / p.scale, pill.ink, wrap=False, min_px=size / p.scale)
    drawn.badges.append((player, pill.key, r4(box)))
    return box.right


def _second_line(p: Painter, drawn: Sheet, entry: Entry, pills: list[_Pill], box: pygame.Rect,
                 size: int) -> None:
    """Badges from the left, the gap to the one before on the right, at ``size`` (the plan's:
    :func:`_plan` has checked they fit). The gap is never left out: the deciding one is what
    the race turned on."""
    note = _gap_note(p, entry)
    gap = p.px(6)
    if note:
        note_w = text_w(p, note, size)
        ink = theme.TEXT if entry.tie or entry.decisive else theme.DIM
        put(p, drawn, "note", note, pygame.Rect(box.right - note_w, box.y, note_w, box.height),
            size / p.scale, ink, "right")
    x = box.x
    for pill in pills:
        x = _draw_pill(p, drawn, entry.player, pill, size, x, box.y, box.height) + gap


def _gap_note(p: Painter, entry: Entry) -> str:
    """The gap to the one before; none beside a tie's badge when the two pressed at the same
    instant ("+0 ns" read as a measured lead of nothing: the badge says the tie), the tie
    itself where a gap of 0 has no badge."""
    if entry.gap_ns is None:
        return ""
    if entry.gap_ns == 0:
        return "" if entry.tie else p.t("ui_tie")
    return "+" + localized(p, format_gap(entry.gap_ns))


def _line_need(p: Painter, entry: Entry, pills: list[_Pill], size: int, note: str | None = None) -> int:
    """The width line two needs for ``pills`` and the gap ``note`` (the entry's own if None)."""
    note = _gap_note(p, entry) if note is None else note
    badges = sum(_pill_w(p, pill, size) + p.px(6) for pill in pills)
    return badges + (text_w(p, note, size) if note else 0)


def _reading(p: Painter, entry: Entry) -> tuple[str, RGB]:
    """The big figure: the reaction (dim when voided), or a dash for a racer with no valid press."""
    if entry.reaction_ns is not None:
        return localized(p, format_ms(entry.reaction_ns)), theme.DIM if entry.voided else theme.TEXT
    return "—", theme.DIM


def _px_for(p: Painter, height: int, cap: float) -> float:
    """The text size (in 480-px units) whose line fits ``height``: at most ``cap``, never below
    the minimum text size."""
    size = p.px(cap)
    while size > p.min_px and p.fonts.line_height(size) > height:
        size -= 1
    return size / p.scale
