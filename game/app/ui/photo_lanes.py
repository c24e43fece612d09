"""The photo itself: one lane per racer on an axis in ms from GO (the GO line, each press a
dot in the seat's colour, a false start a red cross, or an arrow when earlier than the axis
reaches, a voided press a hollow ring, the deciding pair framed), and the close-up of the pair
in ns or µs when their gap is under 1 ms."""

from __future__ import annotations

import pygame

from ...judge import format_gap
from . import theme
from .axis import Tick, axis_ticks
from .paint import Painter
from .photo_board import Board
from .photo_drawn import Rect4, Sheet, localized, put, r4, text_w

MS = 1_000_000
#: The axis always shows at least this much after GO, so a lone quick press is not stretched
#: across the whole photo as if it were slow.
MIN_AXIS_NS = 100 * MS
#: How far before GO the axis reaches for a false start, as a share of the time after GO; an
#: earlier false start is drawn as an arrow at the left end (its time is on the board).
EARLY_SHARE = 0.35


def draw_lanes(p: Painter, drawn: Sheet, board: Board, seats: list[int], lanes_box: pygame.Rect,
               lanes: list[pygame.Rect], axis_h: int, caption: pygame.Rect, axis: str | None = None) -> None:
    """The board's entries as ``lanes`` (in board order) in ``lanes_box``, the axis' labels in
    the ``axis_h`` under it, its unit in ``caption``: ``axis``, else "ms after GO"."""
    go = board.go_t_ns
    late = [e.reaction_ns for e in board.entries if e.reaction_ns is not None]
    hi = max([MIN_AXIS_NS, *late])
    early = [e.early_ns for e in board.entries if e.early_ns is not None and not e.held_at_go]
    lo = -min(max(early), int(hi * EARLY_SHARE)) if early else 0
    r = max(p.px(5), min(p.px(12), (lanes[0].height if lanes else 0) // 3))
    track = pygame.Rect(lanes_box.x + r + p.px(6), lanes_box.y, lanes_box.width - 2 * (r + p.px(6)),
                        lanes_box.height)
    span = hi - lo
    # Margins so the first and last presses are not on the frame.
    lo -= span // 25
    hi += span // 25
    span = hi - lo

    def x_of(ns: int) -> int:
        return track.x + (ns - lo) * track.width // span

    p.fill(theme.BG, lanes_box.inflate(0, p.px(2)), radius=8)
    ticks = axis_ticks(lo, hi, track.width, lambda text: text_w(p, text, p.px(20)),
                       unit_ns=MS, gap_px=p.px(14), point="," if p.lang in ("de", "fr", "es") else ".")
    axis_y = lanes_box.bottom
    for tick in ticks:
        pygame.draw.line(p.surface, theme.PANEL_HI, (track.x + tick.x, lanes_box.y),
                         (track.x + tick.x, axis_y), 1)
    pygame.draw.line(p.surface, theme.DIM, (lanes_box.x, axis_y), (lanes_box.right, axis_y),
                     max(1, p.px(2)))
    _labels(p, drawn.axis_labels, ticks, track.x, pygame.Rect(track.x, axis_y + p.px(2), track.width,
                                                              axis_h - p.px(2)))
    go_x = x_of(0)
    pygame.draw.line(p.surface, theme.GO_GREEN, (go_x, lanes_box.y), (go_x, axis_y), max(2, p.px(3)))
    put(p, drawn, "axis", p.t("ui_axis") if axis is None else axis, caption, 20, theme.DIM, "right")
    xs: dict[int, int] = {}
    for i, (entry, seat, lane) in enumerate(zip(board.entries, seats, lanes)):
        colour = theme.seat_colour(seat)
        mid = lane.centery
        drawn.lanes.append((entry.player, r4(lane)))
        if entry.early_ns is not None and not entry.held_at_go:
            fx = x_of(-entry.early_ns)
            mark = _arrow_left(p, (track.x, mid), r) if fx < track.x else _cross(p, (fx, mid), r)
            drawn.marks.append((entry.player, "false start", r4(mark)))
        elif entry.held_at_go:
            drawn.marks.append((entry.player, "false start", r4(_cross(p, (go_x, mid), r))))
        if entry.reaction_ns is None or go is None:
            continue
        x = x_of(entry.reaction_ns)
        xs[i] = x
        if entry.voided:
            ring = pygame.draw.circle(p.surface, theme.DIM, (x, mid), r, max(2, p.px(3)))
            drawn.marks.append((entry.player, "voided", r4(ring)))
            continue
        pygame.draw.line(p.surface, colour, (go_x, mid), (x, mid), max(3, r // 2))
        dot = pygame.draw.circle(p.surface, colour, (x, mid), r)
        pygame.draw.circle(p.surface, theme.BLACK, (x, mid), r, max(1, p.px(2)))
        drawn.marks.append((entry.player, "press", r4(dot)))
    if board.pair is not None and all(i in xs for i in board.pair):
        a, b = (xs[i] for i in board.pair)
        la, lb = (lanes[i] for i in board.pair)
        frame = pygame.Rect(min(a, b) - r - p.px(4), min(la.y, lb.y) + p.px(2),
                            abs(b - a) + 2 * r + p.px(8), la.height + lb.height - p.px(4))
        p.frame(theme.WARN, frame, 3, radius=8)


def _labels(p: Painter, into: list[tuple[str, Rect4]], ticks: tuple[Tick, ...], x0: int,
            row: pygame.Rect) -> None:
    for tick in ticks:
        if tick.label is None:
            continue
        box = pygame.Rect(x0 + tick.left, row.y, tick.right - tick.left, row.height)
        covered = p.text(tick.label, box, 20, theme.DIM, wrap=False, min_px=20)
        into.append((tick.label, r4(covered)))


def close_up(p: Painter, drawn: Sheet, board: Board, seats: list[int], box: pygame.Rect) -> None:
    """The deciding pair magnified: their gap (down to one 16 ns board tick) in ns or µs."""
    assert board.pair is not None
    first, second = (board.entries[i] for i in board.pair)
    assert first.t_ns is not None and second.t_ns is not None
    gap = second.t_ns - first.t_ns
    drawn.inset = r4(box)
    p.fill(theme.BG, box, radius=8)
    p.frame(theme.WARN, box, 2, radius=8)
    axis_h = p.fonts.line_height(p.px(20)) + p.px(4)
    margin = max(gap // 2, 10)
    lo, hi = -margin, gap + margin
    # The axis' unit goes in the caption, so its tick labels are bare numbers ("0 200 400"):
    # with the unit on each, a narrow close-up had room for one label only.
    unit, unit_name = (1, "ns") if hi - lo < 2_000 else (1_000, "µs")
    # The pair at the same instant is a tie, said as one (not "+0 ns").
    figure = "+" + localized(p, format_gap(gap)) if gap else p.t("ui_tie").upper()
    label = f"{p.t('ui_close_up')} · {unit_name}"
    line_h = p.fonts.line_height(p.px(22))
    width = box.width - p.px(16)
    label_w = text_w(p, label, p.px(20))
    figure_w = text_w(p, figure, p.px(22))
    # The caption and the gap on one line, or (a narrow photo in German) on two.
    one_line = label_w + p.px(12) + figure_w <= width
    cap = pygame.Rect(box.x + p.px(8), box.y + p.px(2), width, line_h * (1 if one_line else 2))
    put(p, drawn, "close-up", label, pygame.Rect(cap.x, cap.y, width, line_h), 20, theme.DIM, "left")
    figure_box = pygame.Rect(cap.x, cap.bottom - line_h, width, line_h)
    put(p, drawn, "close-up gap", figure, figure_box, 22, theme.WARN, "right")
    r = p.px(9)
    lanes_box = pygame.Rect(box.x + p.px(8), cap.bottom, box.width - p.px(16),
                            box.bottom - cap.bottom - axis_h - p.px(4))
    track = lanes_box.inflate(-2 * (r + p.px(4)), 0)
    ticks = axis_ticks(lo, hi, track.width, lambda text: text_w(p, text, p.px(20)),
                       unit_ns=unit, gap_px=p.px(14),
                       point="," if p.lang in ("de", "fr", "es") else ".")
    for tick in ticks:
        pygame.draw.line(p.surface, theme.PANEL_HI, (track.x + tick.x, lanes_box.y),
                         (track.x + tick.x, lanes_box.bottom), 1)
    pygame.draw.line(p.surface, theme.DIM, (lanes_box.x, lanes_box.bottom), (lanes_box.right, lanes_box.bottom),
                     max(1, p.px(2)))
    _labels(p, drawn.inset_labels, ticks, track.x,
            pygame.Rect(track.x, lanes_box.bottom + p.px(2), track.width, axis_h))
    lane_h = lanes_box.height // 2
    for k, entry in enumerate((first, second)):
        seat = seats[board.pair[k]]
        assert entry.t_ns is not None
        x = track.x + (entry.t_ns - first.t_ns - lo) * track.width // (hi - lo)
        mid = lanes_box.y + k * lane_h + lane_h // 2
        pygame.draw.line(p.surface, theme.seat_colour(seat), (lanes_box.x, mid), (x, mid), max(3, r // 2))
        dot = pygame.draw.circle(p.surface, theme.seat_colour(seat), (x, mid), r)
        pygame.draw.circle(p.surface, theme.BLACK, (x, mid), r, max(1, p.px(2)))
        drawn.marks.append((entry.player, "close-up", r4(dot)))


def _cross(p: Painter, centre: tuple[int, int], r: int) -> pygame.Rect:
    """A false start: a red cross where the button went down."""
    x, y = centre
    w = max(3, r // 2)
    one = pygame.draw.line(p.surface, theme.BAD, (x - r, y - r), (x + r, y + r), w)
    return one.union(pygame.draw.line(p.surface, theme.BAD, (x - r, y + r), (x + r, y - r), w))


def _arrow_left(p: Painter, tip: tuple[int, int], r: int) -> pygame.Rect:
    """A false start earlier than the axis reaches: a red arrow pointing off its left end."""
    x, y = tip
    return pygame.draw.polygon(p.surface, theme.BAD, [(x - r, y), (x + r, y - r), (x + r, y + r)])
