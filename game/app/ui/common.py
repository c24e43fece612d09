"""The frame around every screen (header with the round and the guard, footer with the
instruction and the latest notice) and pieces several screens share (the players panel)."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ...controller import Stage, Table
from ...i18n.events import event_text
from ...i18n.lookup import render
from . import theme
from .actions import Act, Hotspot
from .art.badges import guard_bug
from .paint import Painter
from .screen_name import screen_of
from .state import UiState
from .theme import RGB


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything a screen draws from: the controller's table, the screen's own state, the time
    on the input adapter's clock."""

    table: Table
    ui: UiState
    now_ns: int


@dataclass(frozen=True, slots=True)
class Regions:
    header: pygame.Rect
    body: pygame.Rect
    footer: pygame.Rect


def regions(p: Painter) -> Regions:
    w, h = p.width, p.height
    # Landscape 800×480: 48 + 86 leaves the body 346 px, room for the guard's five card rows
    # and two rows of actions at a finger's 48 px each (the header's Settings is one too).
    head_h = p.px(64 if p.portrait else 48)
    foot_h = p.px(150 if p.portrait else 86)
    return Regions(pygame.Rect(0, 0, w, head_h),
                   pygame.Rect(0, head_h, w, h - head_h - foot_h),
                   pygame.Rect(0, h - foot_h, w, foot_h))


def rounds_of(table: Table) -> int:
    return table.game.players or table.players


def header(p: Painter, s: Scene, title: str | None = None, instruction: bool = True,
           said: str | None = None) -> Regions:
    """Header and footer; returns the regions so the screen can fill the body. ``instruction``
    False: the screen says itself what to do now (a photo finish, a verdict, a picker), so the
    footer shows no instruction of the table's, which would be the next step's. ``said``: a
    sentence the body shows in large, which the footer does not repeat as a notice."""
    r = regions(p)
    p.fill(theme.BG)
    p.fill(theme.PANEL, r.header)
    g = s.table.game
    pad = p.px(10)
    settings_w = p.px(160)
    left = pygame.Rect(pad, r.header.y, (r.header.width - settings_w) // 3, r.header.height)
    if g.players and s.table.stage not in (Stage.JOIN, Stage.OLDEST):
        if screen_of(s) == "summary":
            shown = len(g.scores)      # the round just revealed, as the title says, not the next
        else:
            shown = g.round + 1 if s.table.stage is Stage.DEAL else g.round
        # One line: in portrait "Round 2 / of 4" wrapped; the short form fits ("Round 2/4").
        key = "ui_round_short" if p.portrait else "ui_round"
        p.text(p.t(key, round=shown, rounds=rounds_of(s.table)), left, 26, align="left", wrap=False)
    else:
        p.text(p.t("ui_title"), left, 26, theme.WARN, align="left")
    middle = pygame.Rect(left.right + pad, r.header.y + p.px(6),
                         r.header.width - settings_w - left.width - 3 * pad, r.header.height - p.px(12))
    if title is not None:
        p.text(title, middle, 28, cut=True)   # a long name in "Round 1: Maximiliane-Anna deals"
    elif g.players and s.table.stage not in (Stage.JOIN, Stage.OLDEST, Stage.GAME_OVER):
        guard_seat = s.table.seated[g.guard]
        bug = pygame.Rect(middle.x, r.header.y, r.header.height, r.header.height)
        guard_bug(p, bug.inflate(-p.px(4), -p.px(4)))
        chip = pygame.Rect(bug.right, middle.y, middle.right - bug.right, middle.height)
        p.chip(chip, guard_seat, f"{p.t('ui_guard')}: {s.table.name(g.guard)}", px=24)
    if screen_of(s) != "settings":
        # On the settings screen its own title says "Settings"; a gear there would say it twice.
        gear = pygame.Rect(r.header.right - settings_w, r.header.y, settings_w, r.header.height)
        p.button(gear, p.t("ui_settings"), Act("settings"), px=20)
    footer(p, s, r.footer, instruction, said)
    return r


def footer(p: Painter, s: Scene, box: pygame.Rect, instruction: bool = True,
           said: str | None = None) -> None:
    p.fill(theme.PANEL, box)
    pad = p.px(10)
    line_h = p.px(28)
    note_box = pygame.Rect(box.x + pad, box.y + p.px(2), box.width - 2 * pad, line_h)
    message = _footer_message(p, s, instruction, said)
    line = s.ui.lines[-1] if s.ui.lines else None
    ticker = None
    if line is not None and line.screen in ("", screen_of(s)):
        # The ticker: the latest event, only under the screen it happened on (after the screen
        # changed it is stale).
        ticker = event_text(line.event, lambda i: line.names[i] if i < len(line.names) else str(i), p.lang)
    if ticker:
        # On two lines when it needs them and the message below still fits (a portrait footer
        # has the room; a German or French sentence is longer than its English), else on one
        # line cut with "…" (the terminal has it all).
        two = pygame.Rect(note_box.x, note_box.y, note_box.width, 2 * line_h)
        lines, _, fits = p.layout_text(ticker, two, p.px(22))
        rest = pygame.Rect(box.x + pad, two.bottom, box.width - 2 * pad, box.bottom - two.bottom - p.px(4))
        if fits and len(lines) > 1 and (message is None or _fits_as_large(p, message[0], note_box, rest, box)):
            p.text(ticker, two, 22, theme.DIM, align="left", valign="top")
            note_box = two
        else:
            p.line(ticker, note_box, 22, theme.DIM)
    message_box = pygame.Rect(box.x + pad, note_box.bottom, box.width - 2 * pad,
                              box.bottom - note_box.bottom - p.px(4))
    if message is not None:
        p.text(message[0], message_box, 28, message[1])


def _fits_as_large(p: Painter, message: str, note_box: pygame.Rect, rest: pygame.Rect,
                   box: pygame.Rect) -> bool:
    """Whether ``message`` fits in ``rest`` as large as under a one-line ticker: the
    instruction (what to do now) matters more than the ticker's second line."""
    under_one = pygame.Rect(rest.x, note_box.bottom, rest.width, box.bottom - note_box.bottom - p.px(4))
    _, size, fits = p.layout_text(message, under_one, p.px(28))
    return fits and p.layout_text(message, rest, p.px(28), size)[2]


def _footer_message(p: Painter, s: Scene, instruction: bool, said: str | None) -> tuple[str, RGB] | None:
    """What the footer says under the ticker, and in what colour: a number typed and waiting
    for its kind, a notice, or the table's instruction."""
    notice = s.ui.notice(s.now_ns)
    top = s.ui.result(s.table, s.now_ns)
    if top is not None and top.said and screen_of(s) == top.screen:
        # A result screen says what it means for the table for as long as it is up (a timed
        # notice would leave its footer blank while the group still reads it).
        notice = top.said[-1]
    if s.ui.pending_number is not None and s.table.stage in (Stage.DEAL, Stage.PLAY, Stage.RACE):
        # The first key of a card typed on a keyboard ("4"): say it was heard and what comes
        # next, or the typist cannot tell a number waiting from a key lost.
        return p.t("ui_pending_kind", number=s.ui.pending_number), theme.WARN
    if notice is not None and render(notice, p.lang) != said:
        # A notice answers what someone just did; the instruction is back a few seconds later.
        return render(notice, p.lang), theme.WARN
    if instruction:
        return render(s.table.message, p.lang), theme.TEXT
    return None


def players_panel(p: Painter, s: Scene, box: pygame.Rect) -> None:
    """Name (in the seat's colour; the active player lit), guard, official hand count, total."""
    t = s.table
    g = t.game
    n = t.players
    if not n:
        return
    row_h = min(p.px(52), box.height // (n + 1))
    cols = (0.36, 0.32, 0.32)
    xs = [box.x]
    for frac in cols:
        xs.append(xs[-1] + int(box.width * frac))
    head = pygame.Rect(box.x, box.y, box.width, row_h)
    labels = ("ui_col_player", "ui_col_cards", "ui_col_points")
    for i, key in enumerate(labels):
        cell = pygame.Rect(xs[i] + p.px(4), head.y, xs[i + 1] - xs[i] - p.px(8), row_h)
        p.text(p.t(key), cell, 20, theme.DIM, align="left" if i == 0 else "center")
    totals = g.totals if g.scores else (0,) * n
    playing = t.stage in (Stage.PLAY, Stage.SPIDER, Stage.RACE, Stage.PICK, Stage.VOTE)
    for player in range(n):
        y = box.y + row_h * (player + 1)
        seat = t.seated[player]
        name_box = pygame.Rect(xs[0], y + p.px(3), xs[1] - xs[0] - p.px(4), row_h - p.px(6))
        active = playing and player == g.active
        label = t.name(player)
        if g.players and player == g.guard:
            name_box.width -= row_h // 2
            # A little larger than the room taken from the name: it may reach into the
            # hand-count column, whose number is centred far from its left edge.
            bug = pygame.Rect(0, 0, row_h * 3 // 4, row_h * 3 // 4)
            bug.center = (name_box.right + row_h // 4, y + row_h // 2)
            guard_bug(p, bug)
        if active:
            p.chip(name_box, seat, label, px=26)
        else:
            p.fill(theme.PANEL, name_box, radius=8)
            pygame.draw.rect(p.surface, theme.seat_colour(seat),
                             pygame.Rect(name_box.x, name_box.y, p.px(8), name_box.height))
            p.text(label, name_box.inflate(-p.px(12), -p.px(4)).move(p.px(5), 0), 26,
                   theme.seat_colour(seat), align="left", cut=True)
        # While the cards are dealt the hands are about to be new: last round's counts (or the
        # zeros before the first deal) would only mislead; the deal says how many each gets.
        dealing = t.stage is Stage.DEAL
        hands = str(g.hands[player]) if player < len(g.hands) and not dealing else "–"
        p.text(hands, pygame.Rect(xs[1], y, xs[2] - xs[1], row_h), 28)
        p.text(str(totals[player]), pygame.Rect(xs[2], y, xs[3] - xs[2], row_h), 28)


def seconds_left(s: Scene, deadline_ns: int) -> int:
    return max(0, -(-(deadline_ns - s.now_ns) // 1_000_000_000))


def countdown(p: Painter, s: Scene, box: pygame.Rect, deadline_ns: int, window_ns: int) -> None:
    """A bar that empties as the window runs out, with the seconds left."""
    left_ns = max(0, deadline_ns - s.now_ns)
    frac = min(1.0, left_ns / window_ns) if window_ns else 0.0
    p.fill(theme.PANEL_HI, box, radius=6)
    bar = pygame.Rect(box.x, box.y, int(box.width * frac), box.height)
    p.fill(theme.WARN if frac > 0.3 else theme.BAD, bar, radius=6)
    p.text(p.t("ui_seconds_left", seconds=seconds_left(s, deadline_ns)), box, 24, theme.BLACK)


def continue_button(p: Painter, body: pygame.Rect, corner: pygame.Rect | None = None) -> pygame.Rect:
    """The Continue button of a photo finish, a verdict or a round's reveal (each stays until
    it times out, a seat button, a tap or this): along the bottom right of ``body``, or filling
    ``corner`` when the screen has room for it there. A tap anywhere else on ``body`` continues
    too. Returns what is left of ``body`` for the screen."""
    if corner is None:
        height = p.px(60)
        row = pygame.Rect(body.x, body.bottom - height, body.width, height)
        width = min(row.width, p.px(300))
        corner = pygame.Rect(row.right - width, row.y, width, row.height)
        rest = pygame.Rect(body.x, body.y, body.width, row.y - body.y - p.px(6))
    else:
        rest = body
    p.hotspots.append(Hotspot(rest, Act("dismiss")))
    p.button(corner, p.t("ui_continue"), Act("dismiss"), colour=theme.GOOD, ink=theme.BLACK, px=28)
    return rest
