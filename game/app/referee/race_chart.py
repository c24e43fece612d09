"""The referee's statistics chart: per racer a bar to the median reaction, a box over the
middle half of the times, a dot at the best, and beside it the figures, the wins (or losses)
and the false starts. Part of the race screen (:mod:`.race_screen`, its "Statistics" view)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from ...referee.presets import GoSource, Outcome
from ...referee.stats import PlayerStats, quartile_ns, session_stats
from ..ui import theme
from ..ui.axis import axis_ticks
from ..ui.paint import Painter
from ..ui.screens_reactions import whole_ms

if TYPE_CHECKING:
    from .race_screen import RaceView

MS = 1_000_000
#: The chart's axis reaches at least this far, so one quick press is not drawn as slow.
CHART_MIN_NS = 300 * MS


@dataclass(frozen=True, slots=True)
class _Column:
    """A column of figures beside the chart: the chart's mark it reads ("best", "median",
    "spread"; "" for a count), its caption, a figure and an ink per racer, its width, and
    whether the mark sits above the caption (a caption on one line) or beside it (a caption
    that wraps)."""

    glyph: str
    caption: str
    figures: tuple[str, ...]
    inks: tuple[theme.RGB, ...]
    width: int
    above: bool = True


#: The chart beside the figures gets at least this much (480-px units) before anything else
#: gives way; with less, the names are cut and the figures set smaller, never left out.
CHART_ROOM = 200
#: The fewest px (480-px units) a name keeps beside the figures (cut with "…" below it).
NAME_MIN = 100


def _columns(p: Painter, v: RaceView, stats: Sequence[PlayerStats], timed: bool, figure_px: int,
             glyphs: bool = True) -> list[_Column]:
    """Every column, in every language: best, median and spread (timed races), the wins (or
    losses) and the false starts, at ``figure_px`` (px). Each is as wide as its widest figure
    or its caption needs: a caption wraps at its spaces, the chart's mark goes above a caption
    on one line and beside one that wraps (``glyphs``: the captions carry the marks)."""
    first_wins = v.session.preset.outcome is Outcome.FIRST_WINS
    made: list[tuple[str, str, list[str], list[theme.RGB]]] = []
    if timed:
        made += [("best", p.t("ref_best"), [whole_ms(st.best_ns) for st in stats], [theme.TEXT] * len(stats)),
                 ("median", p.t("ref_median"), [whole_ms(st.median_ns) for st in stats], [theme.TEXT] * len(stats)),
                 ("spread", p.t("ref_spread"), [whole_ms(st.iqr_ns) for st in stats], [theme.DIM] * len(stats))]
    made += [("", p.t("ref_tally" if first_wins else "ref_race_losses"),
              [str(st.wins if first_wins else st.losses) for st in stats], [theme.TEXT] * len(stats)),
             ("", p.t("ref_false_starts"), [str(st.false_starts) for st in stats],
              [theme.BAD if st.false_starts else theme.DIM for st in stats])]
    columns = []
    caption_px = p.px(20)
    for glyph, caption, figures, inks in made:
        glyph = glyph if glyphs else ""
        word = max(_ink_w(p, w, caption_px) for w in caption.split(" "))
        whole = _ink_w(p, caption, caption_px)
        # The mark above a caption on one line, or beside a caption that wraps, whichever is
        # narrower (the caption's cell has two lines).
        above = not glyph or whole <= word + p.px(18)
        caption_w = word if not glyph else whole if above else word + p.px(18)
        figure_w = max(_ink_w(p, f, figure_px) for f in figures)
        width = max(caption_w, figure_w) + p.px(14)
        columns.append(_Column(glyph, caption, tuple(figures), tuple(inks), width, above))
    return columns


def _ink_w(p: Painter, text: str, px: int) -> int:
    """How wide ``text`` is drawn at ``px``: its advance, or its ink where a glyph overhangs."""
    return max(p.fonts.size(p.typeset(text), px)[0], p.fonts.reach(p.typeset(text), px).width)


def draw_stats(p: Painter, v: RaceView, box: pygame.Rect) -> None:
    """Per racer: a bar to the median reaction, a box over the middle half of the times (the
    interquartile range: one slow, distracted press does not stretch it), a dot at the best;
    with the figures, the wins (or losses) and the false starts. The chart sits between the
    name and the figures on a wide screen, under them on a narrow one (a line of its own).
    Every column is drawn in every language: short of room the names are cut, then the
    figures set smaller, then the chart gets what is left."""
    s = v.session
    p.fill(theme.PANEL, box, radius=12)
    inner = box.inflate(-p.px(16), -p.px(10))
    if not s.results:
        p.text(p.t("ref_race_stats_none"), inner, 36, theme.DIM)
        return
    stats = [st for st in session_stats(s.results, s.racers) if st.seat in s.racers]
    timed = s.preset.go is GoSource.RIG
    # Portrait: the chart on a line of its own under each racer's figures, a key to its marks
    # above (the captions carry none). Landscape: beside them.
    under = timed and p.portrait
    figure_px = p.px(24)
    columns = _columns(p, v, stats, timed, figure_px, glyphs=not under)
    name_w = max(p.px(90), min(max(p.fonts.size(p.typeset(v.name(st.seat)), p.px(24))[0] for st in stats) + p.px(12),
                               inner.width // 4))
    gap = p.px(10)
    line_h = p.fonts.line_height(p.px(20))

    def chart_room(cols: list[_Column]) -> int:
        return inner.width - name_w - sum(c.width for c in cols) - 2 * gap

    if not under and chart_room(columns) < p.px(CHART_ROOM):
        # The names give up what the chart lacks, down to 100 px; then the figures get smaller.
        name_w = max(min(name_w, p.px(NAME_MIN)), inner.width - sum(c.width for c in columns) - 2 * gap
                     - p.px(CHART_ROOM))
        while chart_room(columns) < p.px(CHART_ROOM) and figure_px > p.min_px:
            figure_px -= 1
            columns = _columns(p, v, stats, timed, figure_px)
    top = inner.y
    if under:
        _key(p, pygame.Rect(inner.x, top, inner.width, line_h))
        top += line_h + p.px(6)
    cap_h = 2 * line_h + p.px(4)
    axis_h = line_h + p.px(6) if timed else 0
    rows_box = pygame.Rect(inner.x, top + cap_h, inner.width, inner.bottom - top - cap_h - axis_h)
    row_h = rows_box.height // max(1, len(stats))
    # Under the figures: three lines a racer (the name, the figures, the chart) when they fit,
    # else two: the figures, then the name (cut to a quarter of the width) beside its bar. The
    # figures are set smaller while they are wider than the screen.
    lines = 1
    if under:
        lines = 3 if row_h >= 3 * (p.fonts.line_height(p.min_px) + p.px(6)) else 2
        while sum(c.width for c in columns) > inner.width and figure_px > p.min_px:
            figure_px -= 1
            columns = _columns(p, v, stats, timed, figure_px, glyphs=False)
    figures_x = inner.right - sum(c.width for c in columns)
    x = figures_x
    for column in columns:
        cell = pygame.Rect(x, top, column.width, cap_h).inflate(-p.px(6), 0)
        if column.glyph and column.above:
            mark = pygame.Rect(0, 0, p.px(14), p.px(14))
            mark.center = (cell.centerx, cell.y + line_h // 2 + p.px(2))
            _glyph(p, column.glyph, mark)
            cell = pygame.Rect(cell.x, cell.bottom - line_h - p.px(2), cell.width, line_h + p.px(2))
        elif column.glyph:
            _glyph(p, column.glyph, pygame.Rect(cell.x, cell.bottom - line_h // 2 - p.px(8), p.px(14), p.px(16)))
            cell = pygame.Rect(cell.x + p.px(18), cell.y, cell.width - p.px(18), cell.height)
        p.text(column.caption, cell, 20, theme.DIM, valign="bottom")
        x += column.width
    if not timed:
        note = pygame.Rect(inner.x + name_w + gap, rows_box.y, figures_x - inner.x - name_w - 2 * gap, rows_box.height)
        p.text(p.t("ref_race_stats_no_times"), note, 26, theme.DIM)
    elif under and lines == 2:
        bars = pygame.Rect(inner.x + name_w + gap, rows_box.y, inner.right - inner.x - name_w - gap, rows_box.height)
        _chart(p, stats, bars, row_h, lines, None)
    elif under:
        _chart(p, stats, rows_box.inflate(-p.px(8), 0), row_h, lines, None)
    else:
        span = pygame.Rect(inner.x + name_w + gap, top, figures_x - inner.x - name_w - 2 * gap, cap_h)
        _chart(p, stats, pygame.Rect(span.x, rows_box.y, span.width, rows_box.height), row_h, 1, span)
    for i, st in enumerate(stats):
        line = row_h // lines
        y = rows_box.y + i * row_h
        name_box = pygame.Rect(inner.x, y, name_w, line)
        figures_y = y
        if lines == 3:
            name_box.width = inner.width
            figures_y = y + line
        elif lines == 2:
            name_box.y += line
        p.text(v.name(st.seat), name_box.inflate(0, -p.px(2)), 24, theme.seat_colour(st.seat), align="left",
               cut=True)
        x = figures_x
        for column in columns:
            cell = pygame.Rect(x, figures_y, column.width, line).inflate(-p.px(6), -p.px(2))
            p.text(column.figures[i], cell, figure_px / p.scale, column.inks[i], align="right", wrap=False)
            x += column.width


def _key(p: Painter, box: pygame.Rect) -> None:
    """The chart's three marks and what each shows, on one line."""
    x = box.x
    size = p.px(20)
    for glyph, key in (("best", "ref_best"), ("median", "ref_median"), ("spread", "ref_spread")):
        word = p.t(key)
        width = p.fonts.size(p.typeset(word), size)[0]
        if x + p.px(20) + width > box.right:
            return
        _glyph(p, glyph, pygame.Rect(x, box.centery - p.px(7), p.px(14), p.px(14)))
        p.text(word, pygame.Rect(x + p.px(20), box.y, width, box.height), 20, theme.DIM, align="left", wrap=False)
        x += p.px(20) + width + p.px(18)


def _chart(p: Painter, stats: Sequence[PlayerStats], area: pygame.Rect, row_h: int, lines: int,
           caption: pygame.Rect | None) -> None:
    """The bars in ``area`` (a row per racer, the bar on its last of ``lines``), the axis'
    labels below it and its unit in ``caption`` (the captions' two lines: a narrow chart wraps
    it), or at the axis' right end."""
    times = [t for st in stats for t in st.reactions_ns]
    hi = max([CHART_MIN_NS, *times])
    hi += hi // 20                       # a margin: the slowest press is not on the frame
    track = area.inflate(-2 * p.px(10), 0)
    line_h = p.fonts.line_height(p.px(20))

    def x_of(ns: int) -> int:
        return track.x + ns * track.width // hi

    ticks = axis_ticks(0, hi, track.width, lambda text: p.fonts.size(p.typeset(text), p.px(20))[0], unit_ns=MS,
                       gap_px=p.px(14), point="," if p.lang in ("de", "fr", "es") else ".")
    for tick in ticks:
        pygame.draw.line(p.surface, theme.PANEL_HI, (track.x + tick.x, track.y), (track.x + tick.x, track.bottom), 1)
        if tick.label is not None:
            label = pygame.Rect(track.x + tick.left, track.bottom + p.px(4), tick.right - tick.left, line_h)
            p.text(tick.label, label, 20, theme.DIM, wrap=False, min_px=20)
    unit = p.t("ui_axis")
    if caption is not None:
        p.text(unit, caption, 20, theme.DIM, align="left", valign="bottom")
    else:
        # At the axis' right end, after the last label, when there is room (else the header's
        # "ms" on every figure says the unit).
        last = max((track.x + t.right for t in ticks if t.label is not None), default=track.x)
        free = pygame.Rect(last + p.px(12), track.bottom + p.px(4), area.right - last - p.px(12), line_h)
        if free.width >= p.fonts.size(p.typeset(unit), p.px(20))[0]:
            p.text(unit, free, 20, theme.DIM, align="right", wrap=False)
    for i, st in enumerate(stats):
        if not st.reactions_ns:
            continue
        line = row_h // lines
        row = pygame.Rect(track.x, track.y + i * row_h + (lines - 1) * line, track.width, line)
        mid = row.centery
        bar_h = max(p.px(6), row.height * 3 // 10)
        median = st.median_ns if st.median_ns is not None else st.reactions_ns[0]
        p.fill(theme.seat_colour(st.seat), pygame.Rect(track.x, mid - bar_h // 2, max(1, x_of(median) - track.x),
                                                        bar_h), radius=3)
        if len(st.reactions_ns) >= 2:
            q1, q3 = quartile_ns(st.reactions_ns, 1), quartile_ns(st.reactions_ns, 3)
            box_h = max(p.px(12), row.height * 6 // 10)
            p.frame(theme.TEXT, pygame.Rect(x_of(q1), mid - box_h // 2, max(p.px(3), x_of(q3) - x_of(q1)), box_h),
                    2, radius=3)
        pygame.draw.line(p.surface, theme.TEXT, (x_of(median), mid - bar_h), (x_of(median), mid + bar_h),
                         max(2, p.px(3)))
        if st.best_ns is not None:
            radius = max(p.px(4), min(p.px(9), row.height // 5))
            pygame.draw.circle(p.surface, theme.WARN, (x_of(st.best_ns), mid), radius)
            pygame.draw.circle(p.surface, theme.BLACK, (x_of(st.best_ns), mid), radius, max(1, p.px(2)))


def _glyph(p: Painter, kind: str, box: pygame.Rect) -> None:
    """The chart's mark for a column: the best's dot, the median's bar end, the spread's box."""
    if kind == "best":
        radius = min(box.width, box.height) // 2
        pygame.draw.circle(p.surface, theme.WARN, box.center, radius)
        pygame.draw.circle(p.surface, theme.BLACK, box.center, radius, max(1, p.px(2)))
    elif kind == "median":
        p.fill(theme.DIM, pygame.Rect(box.x, box.centery - box.height // 6, box.width, box.height // 3))
        pygame.draw.line(p.surface, theme.TEXT, (box.right - 1, box.y), (box.right - 1, box.bottom), max(2, p.px(3)))
    else:
        p.frame(theme.TEXT, box, 2, radius=3)


