"""Game over's reaction statistics: each player's points, races, best and median reaction to
GO and false starts (controller/reactions.py), one wide table in standings order. It takes turns
with the standings and the points chart (PANEL_NS each, moved by the clock like the confetti):
at 800×480 there is no room for all of it at once, and the table reads the one, then the other."""

from __future__ import annotations

import pygame

from ...controller.reactions import stats
from . import theme
from .common import Scene
from .paint import Painter

PANEL_NS = 8_000_000_000


def shows_reactions(s: Scene) -> bool:
    """Whether game over shows the reactions now (else the standings and the chart): those
    first from when game over came up, then in turns; never for a game without a decided race."""
    return bool(s.table.race_times) and ((s.now_ns - s.ui.game_over_at_ns) // PANEL_NS) % 2 == 1


def whole_ms(ns: int | None) -> str:
    """A reaction in whole milliseconds ("183 ms", rounded half up), or a dash for none."""
    return "–" if ns is None else f"{(ns + 500_000) // 1_000_000} ms"


def draw_reactions(p: Painter, s: Scene, box: pygame.Rect) -> None:
    """A row per player in standings order (in portrait a column per player: a narrow screen
    has room for five short columns of figures, not for six words side by side)."""
    t = s.table
    p.fill(theme.PANEL, box, radius=12)
    title = pygame.Rect(box.x, box.y + p.px(4), box.width, p.px(32))
    p.text(p.t("ui_reactions"), title, 22, theme.DIM)
    per_player = stats(t.race_times, t.players)
    order = [st.player for st in t.game.standings()] or list(range(t.players))
    known = [st.best_ns for st in per_player if st.best_ns is not None]
    fastest = min(known) if known else None
    rows: list[tuple[str, list[str]]] = []          # (label key, a figure per player in order)
    for key, figure in (("ui_col_points", lambda q: str(t.game.totals[q]) if q < len(t.game.totals) else "0"),
                        ("ui_col_races", lambda q: str(per_player[q].races)),
                        ("ui_col_best", lambda q: whole_ms(per_player[q].best_ns)),
                        ("ui_col_median", lambda q: whole_ms(per_player[q].median_ns)),
                        ("ui_col_false_starts", lambda q: str(per_player[q].false_starts))):
        rows.append((key, [figure(q) for q in order]))
    # The fastest slap of the game in gold.
    gold = {(2, n) for n, q in enumerate(order) if fastest is not None and per_player[q].best_ns == fastest}
    inner = pygame.Rect(box.x + p.px(8), title.bottom, box.width - p.px(16), box.bottom - title.bottom - p.px(6))
    names = [(t.name(q), theme.seat_colour(t.seated[q])) for q in order]
    if p.portrait:
        _by_column(p, inner, rows, names, gold)
    else:
        _by_row(p, inner, rows, names, gold)


def _by_row(p: Painter, inner: pygame.Rect, rows: list[tuple[str, list[str]]],
            names: list[tuple[str, theme.RGB]], gold: set[tuple[int, int]]) -> None:
    head_h = p.px(44)
    row_h = min(p.px(48), (inner.height - head_h) // max(1, len(names)))
    fracs = (0.25, 0.13, 0.13, 0.16, 0.16, 0.17)
    xs = [inner.x]
    for frac in fracs:
        xs.append(xs[-1] + int(inner.width * frac))
    p.text(p.t("ui_col_player"), pygame.Rect(xs[0], inner.y, xs[1] - xs[0], head_h).inflate(-p.px(4), 0), 20,
           theme.DIM, align="left")
    for c, (key, _) in enumerate(rows, start=1):
        p.text(p.t(key), pygame.Rect(xs[c], inner.y, xs[c + 1] - xs[c], head_h).inflate(-p.px(4), 0), 20, theme.DIM)
    for n, (name, colour) in enumerate(names):
        y = inner.y + head_h + n * row_h
        p.text(name, pygame.Rect(xs[0], y, xs[1] - xs[0], row_h).inflate(-p.px(4), -p.px(2)), 24, colour,
               align="left", cut=True)
        for c, (_, figures) in enumerate(rows, start=1):
            ink = theme.WARN if (c - 1, n) in gold else theme.TEXT
            p.text(figures[n], pygame.Rect(xs[c], y, xs[c + 1] - xs[c], row_h).inflate(-p.px(4), -p.px(2)), 24, ink)


def _by_column(p: Painter, inner: pygame.Rect, rows: list[tuple[str, list[str]]],
               names: list[tuple[str, theme.RGB]], gold: set[tuple[int, int]]) -> None:
    label_w = int(inner.width * 0.3)
    col_w = (inner.width - label_w) // max(1, len(names))
    row_h = min(p.px(64), inner.height // (len(rows) + 1))
    for n, (name, colour) in enumerate(names):
        cell = pygame.Rect(inner.x + label_w + n * col_w, inner.y, col_w, row_h).inflate(-p.px(4), -p.px(4))
        p.text(name, cell, 22, colour, cut=True)
    for r, (key, figures) in enumerate(rows):
        y = inner.y + (r + 1) * row_h
        p.text(p.t(key), pygame.Rect(inner.x, y, label_w, row_h).inflate(-p.px(4), -p.px(2)), 20, theme.DIM,
               align="left")
        for n, figure in enumerate(figures):
            ink = theme.WARN if (r, n) in gold else theme.TEXT
            cell = pygame.Rect(inner.x + label_w + n * col_w, y, col_w, row_h).inflate(-p.px(4), -p.px(2))
            p.text(figure, cell, 24, ink)
