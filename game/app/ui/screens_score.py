"""Round end (penalty entry per hand, then the "cards that vanished" reveal: the official count
minus the cards entered) and game over (standings, the winner's crown, totals per round)."""

from __future__ import annotations

from collections.abc import Sequence

import math

import pygame

from ...cards import Kind
from ...engine.state import Penalty
from . import theme
from .actions import Act
from .common import Scene, continue_button, header
from .paint import Painter
from .screens_reactions import draw_reactions, shows_reactions
from .state import PENALTY_FIELDS

# The three fields get the width: each holds a − and a + a finger can hit (48 px at 800×480).
_COLS = (("ui_col_player", 0.10), ("ui_col_cards", 0.10), ("ui_col_moths", 0.19),
         ("ui_col_actions", 0.19), ("ui_col_numbers", 0.19), ("ui_col_points", 0.10),
         ("ui_col_vanished", 0.13))


#: Penalty points per card of each class (RULES.md "End of a round"; Kind.penalty), by column.
_POINTS_EACH = {"ui_col_moths": Kind.MOTH.penalty, "ui_col_actions": Kind.ANT.penalty,
                "ui_col_numbers": Kind.NUMBER.penalty}


def _columns(box: pygame.Rect) -> list[pygame.Rect]:
    xs = [box.x]
    for _, frac in _COLS:
        xs.append(xs[-1] + int(box.width * frac))
    xs[-1] = box.right
    return [pygame.Rect(xs[i], box.y, xs[i + 1] - xs[i], box.height) for i in range(len(_COLS))]


def points_of(form: Sequence[int]) -> int:
    return Penalty(*form).points


def draw_penalty(p: Painter, s: Scene) -> None:
    t = s.table
    g = t.game
    r = header(p, s, p.t("ui_round_over", round=g.round))
    body = r.body.inflate(-p.px(12), -p.px(8))
    body = _undo_row(p, s, body)
    if p.portrait:
        _penalty_blocks(p, s, body)
        return
    n = t.players
    row_h = min(p.px(56), body.height // (n + 1))
    head = pygame.Rect(body.x, body.y, body.width, row_h)
    for (key, _), cell in zip(_COLS, _columns(head)):
        # Column heads may go a little under the body text's minimum: the steppers need the width.
        each = _POINTS_EACH.get(key)
        if each is None:
            p.text(p.t(key), cell.inflate(-p.px(2), 0), 22, theme.DIM, min_px=16)
            continue
        # What a card of the class costs, read where the figures are entered.
        upper = pygame.Rect(cell.x + p.px(1), cell.y, cell.width - p.px(2), cell.height // 2)
        p.text(p.t(key), upper, 22, theme.DIM, min_px=16)
        p.text(p.t("ui_points_each", points=each), pygame.Rect(upper.x, upper.bottom, upper.width,
               cell.bottom - upper.bottom), 20, theme.DIM, min_px=19)
    for player in range(n):
        row = pygame.Rect(body.x, body.y + row_h * (player + 1), body.width, row_h)
        cells = _columns(row)
        seat = t.seated[player]
        entry = g.entries[player] if player < len(g.entries) else None
        focused = s.ui.penalty_row == player and entry is None
        if focused:
            p.fill(theme.PANEL_HI, row, radius=8)
        name = cells[0].inflate(-p.px(6), -p.px(6))
        p.chip(name, seat, t.name(player), px=24)
        official = g.hands[player] if player < len(g.hands) else 0
        p.text(str(official), cells[1], 28)
        if entry is not None:
            for i, value in enumerate((entry.moths, entry.actions, entry.numbers)):
                p.text(str(value), cells[2 + i], 28, theme.GOOD)
            p.text(str(entry.points), cells[5], 28, theme.GOOD)
            vanished = official - entry.cards
            p.text(str(vanished), cells[6], 30, theme.WARN if vanished else theme.DIM)
            continue
        form = s.ui.shown_form(player)
        for i, field in enumerate(PENALTY_FIELDS):
            _stepper(p, cells[2 + i].inflate(-p.px(4), 0), player, i, form[i],
                     focused and s.ui.penalty_col == i)
        p.text(str(points_of(form)), cells[5], 26, theme.DIM)
        p.button(cells[6], p.t("ui_ok"), Act("penalty_ok", player), colour=theme.GOOD, ink=theme.BLACK, px=24)


def _undo_row(p: Painter, s: Scene, body: pygame.Rect) -> pygame.Rect:
    """Undo along the bottom right: a confirmed row (or the card or "out" that ended the round)
    can be taken back from this screen. Beside it, after a row counting more cards than the
    official count, "Correct Bea's count to 16" (a draw the rig was not told about) while the
    form still holds that row. Returns the room left for the rows above it."""
    # A finger's height and no more: five players' rows of steppers still get 48 px at 800×480.
    height = p.px(48)
    offer = s.table.correction
    if offer is not None and sum(s.ui.shown_form(offer[0])) != offer[1]:
        offer = None         # the group changed the row: the offer answered the old one
    # The offer shares Undo's row (every other row is the steppers'), so Undo narrows for it.
    width = min(body.width // 3 if offer is not None else body.width, p.px(220))
    p.button(pygame.Rect(body.right - width, body.bottom - height, width, height), p.t("ui_undo"),
             Act("undo"), px=24)
    left = pygame.Rect(body.x, body.bottom - height, body.width - width - p.px(8), height)
    if offer is not None:
        player, cards = offer
        p.button(left, p.t("ui_correct_count", player=s.table.name(player), cards=cards),
                 Act("correct_count", offer), colour=theme.WARN, ink=theme.BLACK, px=24)
    elif p.portrait:
        # A narrow screen's blocks have no room for it under each field: what a card costs, once.
        p.text(p.t("ui_points_legend", moths=Kind.MOTH.penalty, actions=Kind.ANT.penalty,
                   numbers=Kind.NUMBER.penalty), left, 20, theme.DIM, align="left")
    return pygame.Rect(body.x, body.y, body.width, body.height - height)


def _penalty_blocks(p: Painter, s: Scene, body: pygame.Rect) -> None:
    """Portrait: a block per player, name and counts on top, the three fields below."""
    t = s.table
    g = t.game
    n = t.players
    block_h = min(p.px(190), body.height // n)
    for player in range(n):
        block = pygame.Rect(body.x, body.y + player * block_h, body.width, block_h - p.px(8))
        entry = g.entries[player] if player < len(g.entries) else None
        focused = s.ui.penalty_row == player and entry is None
        p.fill(theme.PANEL_HI if focused else theme.PANEL, block, radius=10)
        top = pygame.Rect(block.x, block.y, block.width, block.height * 2 // 5)
        official = g.hands[player] if player < len(g.hands) else 0
        p.chip(pygame.Rect(top.x + p.px(6), top.y + p.px(6), top.width * 2 // 5, top.height - p.px(12)),
               t.seated[player], t.name(player), px=26)
        values = (entry.moths, entry.actions, entry.numbers) if entry is not None else tuple(s.ui.shown_form(player))
        points = entry.points if entry is not None else points_of(list(values))
        summary = f"{p.t('ui_col_cards')}: {official}   {p.t('ui_col_points')}: {points}"
        if entry is not None:
            summary += f"   {p.t('ui_col_vanished')}: {official - entry.cards}"
        p.text(summary, pygame.Rect(top.x + top.width * 2 // 5 + p.px(12), top.y, top.width * 3 // 5 - p.px(18),
                                    top.height), 22, theme.WARN if entry is not None else theme.TEXT, align="left")
        lower = pygame.Rect(block.x + p.px(6), top.bottom, block.width - p.px(12), block.bottom - top.bottom - p.px(6))
        ok_w = lower.width // 9     # the steppers' − and + need the width more
        field_w = (lower.width - ok_w) // 3
        for i, key in enumerate(("ui_col_moths", "ui_col_actions", "ui_col_numbers")):
            cell = pygame.Rect(lower.x + i * field_w, lower.y, field_w, lower.height)
            label = pygame.Rect(cell.x, cell.y, cell.width, cell.height // 3)
            p.text(p.t(key), label, 20, theme.DIM)
            stepper = pygame.Rect(cell.x + p.px(4), label.bottom, cell.width - p.px(8), cell.height - label.height)
            if entry is None:
                _stepper(p, stepper, player, i, values[i], focused and s.ui.penalty_col == i)
            else:
                p.text(str(values[i]), stepper, 28, theme.GOOD)
        if entry is None:
            p.button(pygame.Rect(lower.right - ok_w, lower.y + lower.height // 3, ok_w, lower.height * 2 // 3),
                     p.t("ui_ok"), Act("penalty_ok", player), colour=theme.GOOD, ink=theme.BLACK, px=24)


def _stepper(p: Painter, box: pygame.Rect, player: int, field: int, value: int, focused: bool) -> None:
    bw = min(box.height, box.width // 3)
    minus = pygame.Rect(box.x, box.y, bw, box.height)
    plus = pygame.Rect(box.right - bw, box.y, bw, box.height)
    p.button(minus, "−", Act("penalty_add", (player, field, -1)), px=26, enabled=value > 0)
    p.button(plus, "+", Act("penalty_add", (player, field, 1)), px=26)
    middle = pygame.Rect(minus.right, box.y, plus.x - minus.right, box.height)
    if focused:
        p.frame(theme.WARN, middle, 3, radius=6)
    p.text(str(value), middle, 28)


def draw_summary(p: Painter, s: Scene) -> None:
    """The reveal after a round is scored: per hand, the cards that vanished."""
    t = s.table
    g = t.game
    last = g.scores[-1]
    r = header(p, s, p.t("ui_round_over", round=len(g.scores)), instruction=False)
    body = r.body.inflate(-p.px(16), -p.px(8))
    vanished = [max(0, (g.hands[q] if q < len(g.hands) else 0) - last[q].cards) for q in range(t.players)]
    total = sum(vanished)
    if p.portrait:                      # room below the table: the button along the bottom
        body = continue_button(p, body)
        button_w = -p.px(8)
    else:                               # beside the headline: the table needs every row it gets
        button_w = min(p.px(220), body.width // 3)
        continue_button(p, body, pygame.Rect(body.right - button_w, body.y + p.px(8), button_w, p.px(64)))
    title = pygame.Rect(body.x, body.y, body.width - button_w - p.px(8), p.px(44))
    p.text(p.t("ui_vanished_title"), title, 34, theme.WARN)
    line = pygame.Rect(body.x, title.bottom, title.width, p.px(36))
    p.text(p.t("ui_vanished_count", count=total) if total else p.t("ui_vanished_none"), line, 26)
    table = pygame.Rect(body.x, line.bottom + p.px(6), body.width, body.bottom - line.bottom - p.px(6))
    n = t.players
    row_h = min(p.px(52), table.height // (n + 1))
    cols = (("ui_col_player", 0.26), ("ui_col_cards", 0.17), ("ui_col_vanished", 0.23),
            ("ui_col_points", 0.16), ("ui_col_total", 0.18))
    xs = [table.x]
    for _, frac in cols:
        xs.append(xs[-1] + int(table.width * frac))
    for i, (key, _) in enumerate(cols):
        p.text(p.t(key), pygame.Rect(xs[i], table.y, xs[i + 1] - xs[i], row_h).inflate(-p.px(4), 0), 22, theme.DIM)
    totals = g.totals
    for q in range(n):
        y = table.y + row_h * (q + 1)
        cell = [pygame.Rect(xs[i], y, xs[i + 1] - xs[i], row_h) for i in range(len(cols))]
        p.chip(cell[0].inflate(-p.px(6), -p.px(6)), t.seated[q], t.name(q), px=24)
        p.text(str(g.hands[q] if q < len(g.hands) else 0), cell[1], 28)
        p.text(str(vanished[q]), cell[2], 32, theme.WARN if vanished[q] else theme.DIM)
        p.text(str(last[q].points), cell[3], 28)
        p.text(str(totals[q]), cell[4], 28)


def draw_game_over(p: Painter, s: Scene) -> None:
    """The winner celebrated (their name in a headline, confetti, the crown), the standings,
    each player's running total per round as a chart with a legend, and a new game."""
    t = s.table
    g = t.game
    r = header(p, s, p.t("ui_game_over"), instruction=False)  # the headline says it
    body = r.body.inflate(-p.px(16), -p.px(8))
    standings = g.standings()
    winners = [t.name(st.player) for st in standings if st.place == 1]
    headline = pygame.Rect(body.x, body.y, body.width, p.px(64 if p.portrait else 56))
    _celebrate(p, headline, winners, s.now_ns)
    button_h = p.px(56)
    rest = pygame.Rect(body.x, headline.bottom + p.px(6), body.width, body.bottom - headline.bottom - p.px(6))
    if p.portrait:
        table = pygame.Rect(rest.x, rest.y, rest.width, int(rest.height * 0.40))
        chart = pygame.Rect(rest.x, table.bottom + p.px(8), rest.width,
                            rest.bottom - table.bottom - button_h - p.px(16))
    else:
        table = pygame.Rect(rest.x, rest.y, int(rest.width * 0.48), rest.height - button_h - p.px(8))
        chart = pygame.Rect(table.right + p.px(16), rest.y, rest.right - table.right - p.px(16), table.height)
    if shows_reactions(s):
        # In turns with the standings and the chart: each player's reactions, one wide table.
        draw_reactions(p, s, pygame.Rect(rest.x, rest.y, rest.width, chart.bottom - rest.y))
        p.button(pygame.Rect(body.right - p.px(280), body.bottom - button_h, p.px(280), button_h),
                 p.t("ui_new_game"), Act("new_game"), colour=theme.GOOD, ink=theme.BLACK, px=26)
        return
    note_h = p.px(44 if p.portrait else 34)
    n = len(standings)
    row_h = min(p.px(58), (table.height - note_h) // (n + 1))
    cols = (("ui_col_place", 0.2), ("ui_col_player", 0.34), ("ui_col_points", 0.23), ("ui_col_moths", 0.23))
    xs = [table.x]
    for _, frac in cols:
        xs.append(xs[-1] + int(table.width * frac))
    for i, (key, _) in enumerate(cols):
        p.text(p.t(key), pygame.Rect(xs[i], table.y, xs[i + 1] - xs[i], row_h).inflate(-p.px(4), 0), 22, theme.DIM)
    for i, st in enumerate(standings):
        y = table.y + row_h * (i + 1)
        place = pygame.Rect(xs[0], y, xs[1] - xs[0], row_h)
        if st.place == 1:
            size = min(place.width, row_h) - p.px(12)
            p.crown(pygame.Rect(place.centerx - size // 2, place.centery - size // 3, size, size * 2 // 3))
        else:
            p.text(str(st.place), place, 30)
        p.chip(pygame.Rect(xs[1], y, xs[2] - xs[1], row_h).inflate(-p.px(6), -p.px(6)),
               t.seated[st.player], t.name(st.player), px=28)
        p.text(str(st.total), pygame.Rect(xs[2], y, xs[3] - xs[2], row_h), 32,
               theme.WARN if st.place == 1 else theme.TEXT)
        p.text(str(st.moths), pygame.Rect(xs[3], y, xs[4] - xs[3], row_h), 28)
    # What the Moths column is: a group asked.
    p.text(p.t("ui_moths_note"), pygame.Rect(table.x, table.y + row_h * (n + 1), table.width, note_h), 20,
           theme.DIM, min_px=18)
    chart_per_round(p, s, chart)
    p.button(pygame.Rect(body.right - p.px(280), body.bottom - button_h, p.px(280), button_h),
             p.t("ui_new_game"), Act("new_game"), colour=theme.GOOD, ink=theme.BLACK, px=26)


#: Confetti in the headline: (start x as a fraction, speed in band heights per second, colour).
_CONFETTI = tuple((((i * 37) % 100) / 100, 0.35 + ((i * 13) % 7) / 10, i % 5) for i in range(28))


def _celebrate(p: Painter, band: pygame.Rect, winners: list[str], now_ns: int) -> None:
    """The winner's name on a gold band with confetti falling through it, moved by the clock
    (not frames), so every screenshot at a chosen time is the same."""
    p.fill(theme.WARN, band, radius=14)
    seconds = now_ns / 1e9
    colours = [theme.seat_colour(i) for i in range(5)]
    size = max(3, p.px(7))
    for x_frac, speed, colour in _CONFETTI:
        fall = (seconds * speed + x_frac * 3.1) % 1.0
        x = band.x + int(band.width * x_frac) + int(math.sin(seconds * 2 + x_frac * 9) * p.px(6))
        y = band.y + int((band.height + size) * fall) - size
        piece = pygame.Rect(x, y, size, size * 2 // 3 if (x_frac * 100) % 2 else size).clip(band)
        if piece.width and piece.height:
            pygame.draw.rect(p.surface, colours[colour], piece)
    names = " & ".join(winners)
    key = "ui_winner_one" if len(winners) == 1 else "ui_winner_shared"
    p.text(p.t(key, name=names), band.inflate(-p.px(24), -p.px(6)), 40, theme.BLACK)


def chart_per_round(p: Painter, s: Scene, box: pygame.Rect) -> None:
    """Each player's running total after each round, one line per player in the seat's colour."""
    t = s.table
    g = t.game
    p.fill(theme.PANEL, box, radius=12)
    p.text(p.t("ui_chart"), pygame.Rect(box.x, box.y + p.px(4), box.width, p.px(32)), 22, theme.DIM)
    rounds = len(g.scores)
    if not rounds:
        return
    running = [[0] * (rounds + 1) for _ in range(g.players)]
    for r_i, row in enumerate(g.scores, start=1):
        for q in range(g.players):
            running[q][r_i] = running[q][r_i - 1] + row[q].points
    top = max(max(line) for line in running) or 1
    legend_h = p.px(30)
    plot = pygame.Rect(box.x + p.px(44), box.y + p.px(48), box.width - p.px(60),
                       box.height - p.px(84) - legend_h)
    _legend(p, s, pygame.Rect(box.x + p.px(8), box.bottom - legend_h - p.px(4), box.width - p.px(16), legend_h))
    pygame.draw.line(p.surface, theme.DIM, plot.bottomleft, plot.bottomright, 1)
    pygame.draw.line(p.surface, theme.DIM, plot.bottomleft, plot.topleft, 1)
    p.text(str(top), pygame.Rect(box.x + p.px(2), plot.y - p.px(8), p.px(40), p.px(24)), 20, theme.DIM)
    p.text("0", pygame.Rect(box.x + p.px(2), plot.bottom - p.px(12), p.px(40), p.px(28)), 20, theme.DIM)
    for r_i in range(1, rounds + 1):
        x = plot.x + plot.width * r_i // rounds
        p.text(str(r_i), pygame.Rect(x - p.px(20), plot.bottom + p.px(4), p.px(40), p.px(24)), 20, theme.DIM)
    for q in range(g.players):
        colour = theme.seat_colour(t.seated[q] if q < len(t.seated) else q)
        points = [(plot.x + plot.width * r_i // rounds, plot.bottom - plot.height * v // top)
                  for r_i, v in enumerate(running[q])]
        pygame.draw.lines(p.surface, colour, False, points, max(2, p.px(4)))
        for pt in points[1:]:
            pygame.draw.circle(p.surface, colour, pt, max(3, p.px(5)))


def _legend(p: Painter, s: Scene, box: pygame.Rect) -> None:
    """A colour swatch and a name per player, in one row under the chart."""
    t = s.table
    n = t.players
    if not n:
        return
    cell_w = box.width // n
    for q in range(n):
        cell = pygame.Rect(box.x + q * cell_w, box.y, cell_w, box.height)
        swatch = pygame.Rect(cell.x, cell.centery - p.px(3), p.px(18), p.px(6))
        pygame.draw.rect(p.surface, theme.seat_colour(t.seated[q]), swatch)
        p.text(t.name(q), pygame.Rect(swatch.right + p.px(4), cell.y, cell.right - swatch.right - p.px(8), cell.height),
               20, theme.TEXT, align="left", min_px=18, cut=True)
