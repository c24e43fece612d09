"""Kiosk mode: the staff gate (a PIN keypad), the staff menu and its pages (race timings,
seats and deck, confirmations, the table game), the same gate and a smaller menu over a race
preset the table runs instead, and the leaderboard over attract mode's demo game.

Drawing only reads: the café's settings come in ``UiState.rig`` (the kiosk's config), the table
games in ``UiState.games``, the leaderboard in a :class:`~.state.BoardView`."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ...cards import NUMBERS, Kind
from ...i18n import LANGUAGE_NAMES
from ...i18n.lookup import decimal, kind_name, render
from ..leaderboard import Row
from ..rigconfig import RigConfig
from . import theme
from .actions import Act
from .common import Scene, header, regions
from .paint import Painter
from .screens_ask import ask_body
from .state import DIAL_DELETE, DIAL_SEAT, KEEP_SEAT, PIN_DIGITS, STAFF_TIMINGS, VOLUME_STEP, BoardView, UiState

S = 1_000_000_000


def rig_of(s: Scene) -> RigConfig:
    return s.ui.rig if s.ui.rig is not None else RigConfig()


def seconds_text(p: Painter, ms: int) -> str:
    figure = f"{ms / 1000:.2f}".rstrip("0").rstrip(".")
    return p.t("ui_secs", value=decimal(p.lang, figure))


def _bottom_row(p: Painter, body: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """(the note's box, the back button's box) along the bottom of ``body``."""
    h = p.px(90 if p.portrait else 56)
    back_w = p.px(180)
    note = pygame.Rect(body.x, body.bottom - h, body.width - back_w - p.px(10), h)
    back = pygame.Rect(body.right - back_w, body.bottom - h, back_w, h)
    return note, back


# -- the gate ----------------------------------------------------------------------------------

def draw_pin(p: Painter, s: Scene) -> None:
    """Digits 0-9, clear and OK; the digits typed as dots; why the last PIN did not open."""
    r = header(p, s, p.t("ui_staff_pin"), instruction=False)   # the game's turn is not staff's business
    pin_pad(p, s.ui, s.now_ns, r.body.inflate(-p.px(16), -p.px(12)))


def pin_pad(p: Painter, ui: UiState, now_ns: int, body: pygame.Rect) -> None:
    """The keypad, what was typed and the note beside it, in ``body`` (any screen's frame)."""
    if ui.pin_buttons:
        button_pad(p, ui, now_ns, body)
        return
    waiting = now_ns < ui.pin_until_ns
    if p.portrait:
        info = pygame.Rect(body.x, body.y, body.width, body.height * 2 // 5)
        pad = pygame.Rect(body.x, info.bottom + p.px(10), body.width, body.bottom - info.bottom - p.px(10))
    else:
        pad_w = min(body.width // 2, p.px(400))
        pad = pygame.Rect(body.x, body.y, pad_w, body.height)
        info = pygame.Rect(pad.right + p.px(16), body.y, body.right - pad.right - p.px(16), body.height)
    # the keypad: 1 2 3 / 4 5 6 / 7 8 9 / clear 0 OK
    keys: list[tuple[str, Act, bool]] = [(str(d), Act("pin_digit", d), True) for d in range(1, 10)]
    keys += [(p.t("ui_pin_clear"), Act("pin_clear"), True), ("0", Act("pin_digit", 0), True),
             (p.t("ui_ok"), Act("pin_ok"), bool(ui.pin_entry) and not waiting)]
    cw, ch = pad.width // 3, pad.height // 4
    for i, (label, act, enabled) in enumerate(keys):
        cell = pygame.Rect(pad.x + (i % 3) * cw, pad.y + (i // 3) * ch, cw, ch)
        ok = act.kind == "pin_ok"
        p.button(cell, label, act, colour=theme.GOOD if ok else theme.BUTTON,
                 ink=theme.BLACK if ok else theme.BUTTON_TEXT, px=34 if len(label) == 1 else 22,
                 enabled=enabled)
    # what was typed, the hint or what went wrong, back
    line_h = p.px(60)
    entry = pygame.Rect(info.x, info.y, info.width, line_h)
    p.fill(theme.PANEL, entry, radius=8)
    # one dot per digit typed (drawn: the fonts have no bullet)
    gap = min(p.px(34), entry.width // (PIN_DIGITS + 1))
    x0 = entry.centerx - gap * (len(ui.pin_entry) - 1) // 2
    for i in range(len(ui.pin_entry)):
        pygame.draw.circle(p.surface, theme.WARN, (x0 + i * gap, entry.centery), max(3, gap // 3))
    back_h = p.px(90 if p.portrait else 56)
    back = pygame.Rect(info.right - p.px(180), info.bottom - back_h, p.px(180), back_h)
    note = pygame.Rect(info.x, entry.bottom, info.width, back.y - entry.bottom)
    said, colour = pin_note(p, ui, now_ns)
    p.text(said, note.inflate(-p.px(4), -p.px(8)), 24, colour)
    p.button(back, p.t("ui_back"), Act("back"), px=24)


def pin_note(p: Painter, ui: UiState, now_ns: int) -> tuple[str, tuple[int, int, int]]:
    """Why the last PIN did not open (or the wait still running), else the hint, and its ink."""
    if now_ns < ui.pin_until_ns:
        seconds = max(0, -(-(ui.pin_until_ns - now_ns) // S))
        return p.t("ui_pin_wait", seconds=seconds), theme.BAD
    if ui.pin_note == "ui_pin_wrong":
        return p.t("ui_pin_wrong"), theme.BAD
    if ui.pin_note in ("ui_pin_none", "ui_pin_none_off"):
        return p.t(ui.pin_note), theme.WARN      # never says which buttons: guests read it
    return p.t("ui_pin_hint"), theme.DIM


def button_pad(p: Painter, ui: UiState, now_ns: int, body: pygame.Rect) -> None:
    """The keypad the button combination opened, for a rig that may have no touchscreen: what
    was typed (a dot per digit kept, then the dial), one row per button saying what it does
    (seat 1 turns the dial, seat 2 keeps its digit, the Caught! button is OK or back), why the
    last PIN did not open or how long the wait still runs, and Back for a finger. While the
    wait runs the seat rows are greyed out: the keypad takes nothing."""
    waiting = now_ns < ui.pin_until_ns
    gap = p.px(6)
    bottom_h = p.px(90 if p.portrait else 56)
    row_h = (body.height - bottom_h - 4 * gap) // 4
    entry = pygame.Rect(body.x, body.y, body.width, row_h)
    p.fill(theme.PANEL, entry, radius=8)
    # The digits kept as dots (never shown), then the dial's digit (or Delete) in a box.
    dial = p.t("ui_key_delete") if ui.pin_dial == DIAL_DELETE else str(ui.pin_dial)
    dial_w = max(min(entry.height, p.px(80)), p.px(200) if ui.pin_dial == DIAL_DELETE else 0)
    dot_gap = min(p.px(34), (entry.width - dial_w) // (PIN_DIGITS + 2))
    dots_w = dot_gap * len(ui.pin_entry)
    x0 = entry.centerx - (dots_w + dial_w) // 2
    for i in range(len(ui.pin_entry)):
        pygame.draw.circle(p.surface, theme.WARN, (x0 + i * dot_gap + dot_gap // 2, entry.centery),
                           max(3, dot_gap // 3))
    box = pygame.Rect(x0 + dots_w, entry.y, dial_w, entry.height).inflate(-p.px(6), -p.px(6))
    p.fill(theme.PANEL_HI if not waiting else theme.PANEL, box, radius=8)
    p.frame(theme.DIM if waiting else theme.WARN, box, radius=8)
    p.text(dial, box.inflate(-p.px(8), -p.px(4)), 34 if ui.pin_dial != DIAL_DELETE else 24,
           theme.DIM if waiting else theme.WARN)
    # One row per button: the button's name on its colour, then what it does here.
    delete = p.t("ui_key_delete")
    rows = ((theme.seat_colour(DIAL_SEAT), p.t("ui_seat", seat=DIAL_SEAT + 1), p.t("ui_pad_dial", delete=delete),
             not waiting),
            (theme.seat_colour(KEEP_SEAT), p.t("ui_seat", seat=KEEP_SEAT + 1), p.t("ui_pad_keep", delete=delete),
             not waiting),
            (theme.CAUGHT, p.t("ui_caught"), p.t("ui_pad_back" if waiting else "ui_pad_ok"), True))
    label_w = min(p.px(180), body.width // 3)
    for i, (colour, name, does, on) in enumerate(rows):
        row = pygame.Rect(body.x, entry.bottom + gap + i * (row_h + gap), body.width, row_h)
        chip = pygame.Rect(row.x, row.y, label_w, row.height)
        p.fill(colour if on else theme.PANEL_HI, chip, radius=8)
        p.text(name, chip.inflate(-p.px(8), -p.px(4)), 24, theme.BLACK if on else theme.DIM, cut=True)
        p.text(does, pygame.Rect(chip.right + p.px(12), row.y, row.right - chip.right - p.px(12), row.height),
               22, theme.TEXT if on else theme.DIM, align="left")
    note, back = _bottom_row(p, pygame.Rect(body.x, body.bottom - bottom_h, body.width, bottom_h))
    said, colour = pin_note(p, ui, now_ns)
    p.text(said, note.inflate(-p.px(4), -p.px(4)), 22, colour, align="left")
    p.button(back, p.t("ui_back"), Act("back"), px=24)


# -- the staff menu ----------------------------------------------------------------------------

def draw_staff(p: Painter, s: Scene) -> None:
    page = s.ui.staff_page or "menu"
    if page == "timings":
        draw_timings(p, s)
    elif page == "deck":
        draw_deck(p, s)
    elif page.startswith("confirm-"):
        draw_confirm(p, s, page.removeprefix("confirm-"))
    else:
        draw_staff_menu(p, s)


def draw_staff_menu(p: Painter, s: Scene) -> None:
    r = header(p, s, p.t("ui_staff_menu"), instruction=False)
    body = r.body.inflate(-p.px(16), -p.px(8))
    cells = _menu_cells(p, body, cells=8)
    p.button(cells[0], p.t("ui_staff_rules"), Act("settings"), px=24)
    p.button(cells[1], p.t("ui_staff_timings"), Act("staff_page", "timings"), px=24)
    p.button(cells[2], p.t("ui_staff_deck"), Act("staff_page", "deck"), px=24)
    volume_cell(p, cells[3], s.ui)
    p.button(cells[4], p.t("ui_end_game"), Act("staff_page", "confirm-end"), px=24)
    p.button(cells[5], p.t("ui_reset_board"), Act("staff_page", "confirm-reset"), px=24)
    p.button(cells[6], p.t("ui_shutdown"), Act("staff_page", "confirm-shutdown"), colour=theme.BAD, px=24)
    p.button(cells[7], p.t("ui_back"), Act("back"), colour=theme.GOOD, ink=theme.BLACK, px=24)
    game_row(p, cells[-1], s.ui)


def _menu_cells(p: Painter, body: pygame.Rect, cells: int) -> list[pygame.Rect]:
    """A staff menu's ``cells`` buttons, two to a row in landscape and one in portrait, under
    the table game's two rows across the top (the last of the list)."""
    cols = 1 if p.portrait else 2
    game_rows = 2
    rows = -(-cells // cols) + game_rows
    ch = body.height // rows
    cw = body.width // cols
    top = body.y + game_rows * ch
    out = [pygame.Rect(body.x + (i % cols) * cw, top + (i // cols) * ch, cw, ch) for i in range(cells)]
    return [*out, pygame.Rect(body.x, body.y, body.width, game_rows * ch)]


def stepper(p: Painter, box: pygame.Rect, label: str, act: str, step: int, can_lower: bool, can_raise: bool) -> None:
    """- [label] + in one cell: ``Act(act, -step)`` and ``Act(act, step)``."""
    step_w = min(box.height + p.px(10), box.width // 4)
    p.button(pygame.Rect(box.x, box.y, step_w, box.height), "−", Act(act, -step), px=32, enabled=can_lower)
    p.button(pygame.Rect(box.right - step_w, box.y, step_w, box.height), "+", Act(act, step), px=32,
             enabled=can_raise)
    middle = pygame.Rect(box.x + step_w, box.y, box.width - 2 * step_w, box.height).inflate(-p.px(8), -p.px(8))
    p.fill(theme.PANEL, middle, radius=8)
    p.text(label, middle.inflate(-p.px(8), -p.px(4)), 24)


def volume_cell(p: Painter, box: pygame.Rect, ui: UiState) -> None:
    stepper(p, box, p.t("ui_volume", volume=ui.volume), "staff_volume", VOLUME_STEP, ui.volume > 0, ui.volume < 100)


def game_row(p: Painter, box: pygame.Rect, ui: UiState) -> None:
    """"Table game": ‹ and › look through what the table can run (Cheating Moth and every race
    preset), each with the players it takes on this rig or why the seats wired cannot play it;
    Switch runs the one shown (greyed out for the one running and for one the seats cannot play)."""
    game = ui.shown_game()
    name = game.name(p.lang) if game is not None else p.t("ui_title")
    running = game is None or game.id == ui.game
    if game is None:
        detail, ink = "", theme.DIM
    elif not game.playable:
        detail, ink = p.t("ui_game_needs", players=game.low, seats=game.wired), theme.BAD
    elif game.low == game.high:
        detail, ink = p.t("ui_game_players_one", players=game.low), theme.DIM
    else:
        detail, ink = p.t("ui_game_players", low=game.low, high=game.high), theme.DIM
    can_switch = game is not None and not running and game.playable
    label = p.t("ui_game_running" if running else "ui_game_switch")
    many = len(ui.games) > 1
    # Two lines: ‹ the game › on top; what it takes on this rig (or why not) and Switch under it.
    top = pygame.Rect(box.x, box.y, box.width, box.height // 2)
    bottom = pygame.Rect(box.x, top.bottom, box.width, box.bottom - top.bottom)
    step_w = min(top.height + p.px(10), top.width // 5)
    switch_w = max(p.px(150), bottom.width // 4) if not p.portrait else bottom.width * 2 // 5
    p.button(pygame.Rect(top.x, top.y, step_w, top.height), "‹", Act("staff_game", -1), px=32, enabled=many)
    p.button(pygame.Rect(top.right - step_w, top.y, step_w, top.height), "›", Act("staff_game", 1), px=32,
             enabled=many)
    panel = pygame.Rect(top.x + step_w, top.y, top.width - 2 * step_w, top.height).inflate(-p.px(8), -p.px(8))
    p.fill(theme.PANEL, panel, radius=8)
    p.text(f"{p.t('ui_table_game')}: {name}", panel.inflate(-p.px(10), -p.px(4)), 24,
           theme.TEXT if running else theme.WARN, cut=True)
    words = pygame.Rect(bottom.x, bottom.y, bottom.width - switch_w, bottom.height)
    p.text(detail, words.inflate(-p.px(16), -p.px(4)), 22, ink, align="left")
    p.button(pygame.Rect(words.right, bottom.y, switch_w, bottom.height), label,
             Act("staff_switch", game.id if game is not None else None), colour=theme.GOOD, ink=theme.BLACK, px=24,
             enabled=can_switch)


def draw_timings(p: Painter, s: Scene) -> None:
    """One row per timing: its name, -, the value in seconds, +."""
    r = header(p, s, p.t("ui_staff_timings"), instruction=False)
    body = r.body.inflate(-p.px(16), -p.px(8))
    rig = rig_of(s)
    note, back = _bottom_row(p, body)
    line_h = (note.y - body.y - p.px(6)) // len(STAFF_TIMINGS)
    for i, (name, step) in enumerate(STAFF_TIMINGS):
        y = body.y + i * line_h
        if p.portrait:
            label = pygame.Rect(body.x, y, body.width, line_h // 2)
            controls = pygame.Rect(body.x + body.width // 4, y + line_h // 2, body.width * 3 // 4, line_h // 2)
        else:
            label = pygame.Rect(body.x, y, int(body.width * 0.55), line_h)
            controls = pygame.Rect(label.right, y, body.right - label.right, line_h)
        p.text(p.t(f"ui_timing_{name}"), label.inflate(-p.px(4), 0), 22, align="left")
        step_w = min(controls.height + p.px(24), controls.width // 4)
        p.button(pygame.Rect(controls.x, controls.y, step_w, controls.height), "−",
                 Act("staff_timing", (name, -step)), px=28)
        p.button(pygame.Rect(controls.right - step_w, controls.y, step_w, controls.height), "+",
                 Act("staff_timing", (name, step)), px=28)
        value = pygame.Rect(controls.x + step_w, controls.y, controls.width - 2 * step_w, controls.height)
        p.text(seconds_text(p, getattr(rig, name)), value.inflate(-p.px(8), -p.px(4)), 26, theme.WARN)
    p.text(p.t("ui_timings_note"), note, 20, theme.DIM, align="left")
    p.button(back, p.t("ui_back"), Act("back"), colour=theme.GOOD, ink=theme.BLACK, px=24)


def draw_deck(p: Painter, s: Scene) -> None:
    """The deck in play (cards per kind and number, and totals) and the seat buttons wired."""
    r = header(p, s, p.t("ui_staff_deck"), instruction=False)
    body = r.body.inflate(-p.px(16), -p.px(8))
    deck = s.table.settings.rules.deck
    note, back = _bottom_row(p, body)
    grid = pygame.Rect(body.x, body.y, body.width, note.y - body.y - p.px(6))
    row_h = grid.height // (len(Kind) + 1)
    # Portrait is narrow: each kind's total goes after its name instead of in a column.
    total_col = not p.portrait
    name_w = int(grid.width * (0.34 if p.portrait else 0.3))
    cols = len(NUMBERS) + (2 if total_col else 1)
    col_w = (grid.width - name_w) // (cols - 1)
    heads = [p.t("ui_col_kind"), *(str(n) for n in NUMBERS), p.t("ui_col_total")]
    for row in range(len(Kind) + 1):
        y = grid.y + row * row_h
        if row % 2 == 0:
            p.fill(theme.PANEL, pygame.Rect(grid.x, y, grid.width, row_h))
        for col in range(cols):
            x = grid.x if col == 0 else grid.x + name_w + (col - 1) * col_w
            box = pygame.Rect(x + p.px(6), y, name_w - p.px(8), row_h) if col == 0 else pygame.Rect(
                x + p.px(2), y, col_w - p.px(4), row_h)
            if row == 0:
                p.text(heads[col], box, 20, theme.DIM, align="left" if col == 0 else "center")
                continue
            kind = list(Kind)[row - 1]
            if col == 0:
                ink = theme.KIND_COLOURS[kind][0] if kind is Kind.NUMBER else theme.TEXT
                label = kind_name(p.lang, kind) if total_col else f"{kind_name(p.lang, kind)} ({deck.total(kind)})"
                p.text(label, box, 22, ink, align="left")
            elif col <= len(NUMBERS):
                p.text(str(deck.count(kind, col)), box, 22)
            else:
                p.text(str(deck.total(kind)), box, 22, theme.WARN)
    lines = [p.t("ui_seats_wired", seats=s.table.settings.seats),
             f"{p.t('ui_deck_size', cards=deck.size)} · {p.t('ui_input')}: {p.t('ui_input_' + s.ui.input_name)}"]
    p.text("\n".join(lines), note, 20, theme.DIM, align="left")
    p.button(back, p.t("ui_back"), Act("back"), colour=theme.GOOD, ink=theme.BLACK, px=24)


def draw_confirm(p: Painter, s: Scene, what: str) -> None:
    """Reset the leaderboard, end the game, shut down: asked once more."""
    r = header(p, s, p.t(CONFIRM_TITLES[what]), instruction=False)
    confirm_body(p, r.body.inflate(-p.px(24), -p.px(12)), what)


CONFIRM_TITLES = {"reset": "ui_reset_board", "end": "ui_end_game", "shutdown": "ui_shutdown"}


def confirm_body(p: Painter, body: pygame.Rect, what: str) -> None:
    """The question and its two answers in ``body``, each saying what it does: the act itself
    ("End the game", as the menu's button and the title say it) and Back. A bare Yes / No
    under a question of two sentences ("End the game? It will not count…") made the staff
    read the question again to know which one ends the game (the German and Korean review)."""
    ask_body(p, body, p.t(f"ui_confirm_{what}"), (p.t(CONFIRM_TITLES[what]), Act("staff_yes")),
             (p.t("ui_back"), Act("back")))


# -- the staff screens over a race preset -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class RacesStaffView:
    """The kiosk's staff screens while the table runs a race preset: the gate's and the menu's
    state (``ui``), the time on the input's clock, and the players racing with the range the
    preset and the seats wired allow."""

    ui: UiState
    now_ns: int
    players: int
    low: int
    high: int


def draw_races_staff(p: Painter, v: RacesStaffView) -> str:
    """The PIN keypad, the staff menu or its confirmation, in a frame of their own (the race
    screen's is the table's); returns the screen's name as ``screen_of`` would."""
    ui = v.ui
    if ui.pin_open:
        pin_pad(p, ui, v.now_ns, staff_frame(p, v, p.t("ui_staff_pin")))
        return "pin"
    page = ui.staff_page or "menu"
    if page.startswith("confirm-"):
        what = page.removeprefix("confirm-")
        confirm_body(p, staff_frame(p, v, p.t(CONFIRM_TITLES[what])).inflate(-p.px(8), -p.px(4)), what)
        return "staff-confirm"
    body = staff_frame(p, v, p.t("ui_staff_menu"))
    cells = _menu_cells(p, body, cells=6 if not p.portrait else 5)
    stepper(p, cells[0], p.t("ui_players_count", players=v.players), "staff_players", 1, v.players > v.low,
            v.players < v.high)
    volume_cell(p, cells[1], ui)
    p.button(cells[2], f"{p.t('ui_language')}: {LANGUAGE_NAMES[p.lang]}", Act("staff_lang"), px=24)
    p.button(cells[3], p.t("ui_shutdown"), Act("staff_page", "confirm-shutdown"), colour=theme.BAD, px=24)
    # Back under Shut down in landscape (the cell beside it left empty), the last in portrait.
    p.button(cells[5] if not p.portrait else cells[4], p.t("ui_back"), Act("back"), colour=theme.GOOD,
             ink=theme.BLACK, px=24)
    game_row(p, cells[-1], ui)
    return "staff"


def staff_frame(p: Painter, v: RacesStaffView, title: str) -> pygame.Rect:
    """The table screens' proportions (header, body, footer) with the title and the latest
    notice; returns the body with its margins."""
    r = regions(p)
    p.fill(theme.BG)
    p.fill(theme.PANEL, r.header)
    pad = p.px(10)
    p.text(title, r.header.inflate(-2 * pad, -p.px(6)), 28, cut=True)
    p.fill(theme.PANEL, r.footer)
    notice = v.ui.notice(v.now_ns)
    if notice is not None:
        p.text(render(notice, p.lang), r.footer.inflate(-2 * pad, -p.px(8)), 28, theme.WARN)
    return r.body.inflate(-p.px(16), -p.px(12))


# -- the leaderboard in attract mode -----------------------------------------------------------

def draw_board(p: Painter, board: BoardView, box: pygame.Rect) -> None:
    """Rank, name, games, wins, best and average total (lowest first); "be the first" when empty."""
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((10, 12, 18, 242))
    p.surface.blit(shade, box.topleft)
    pad = p.px(10)
    inner = box.inflate(-2 * pad, -2 * pad)
    title_h = p.px(40)
    p.text(p.t(f"ui_board_{board.period}"), pygame.Rect(inner.x, inner.y, inner.width, title_h), 30, theme.WARN)
    area = pygame.Rect(inner.x, inner.y + title_h, inner.width, inner.height - title_h)
    if board.fastest:
        # The fastest slaps of the period along the bottom ("Fastest slap this week: Bea 183.4 ms").
        strip_h = p.px(64 if p.portrait else 40)      # two lines in portrait, one in landscape
        area.height -= strip_h
        slaps = " · ".join(f"{f.name} {decimal(p.lang, tenths_ms(f.best_ns))}" for f in board.fastest)
        p.text(p.t(f"ui_fastest_{board.period}", slaps=slaps),
               pygame.Rect(area.x, area.bottom + p.px(6), area.width, strip_h - p.px(6)), 24, theme.WARN, cut=True)
    if not board.rows:
        p.text(p.t(f"ui_board_empty_{board.period}"), area, 28)
        return
    fracs = (0.08, 0.36, 0.14, 0.14, 0.14, 0.14)
    xs = [area.x]
    for frac in fracs:
        xs.append(xs[-1] + int(area.width * frac))
    heads = ("#", p.t("ui_col_player"), p.t("ui_col_games"), p.t("ui_col_wins"), p.t("ui_col_best"),
             p.t("ui_col_average"))
    if p.portrait:
        _board_portrait(p, board, area, heads)
        return
    row_h = p.px(38)
    shown = board.rows[: max(1, area.height // row_h - 1)]
    for i, head in enumerate(heads):
        cell = pygame.Rect(xs[i] + p.px(4), area.y, xs[i + 1] - xs[i] - p.px(8), row_h)
        p.text(head, cell, 20, theme.DIM, align="left" if i == 1 else "center")
    for n, row in enumerate(shown):
        y = area.y + row_h * (n + 1)
        if n % 2 == 0:
            p.fill(theme.PANEL, pygame.Rect(area.x, y, area.width, row_h), radius=6)
        colour = theme.WARN if n == 0 else theme.TEXT
        for i, value in enumerate(_cells(p, n, board.rows[n])):
            cell = pygame.Rect(xs[i] + p.px(4), y, xs[i + 1] - xs[i] - p.px(8), row_h)
            if i == 1:
                p.line(value, cell, 26, colour)
            else:
                p.text(value, cell, 26, colour)


def tenths_ms(ns: int) -> str:
    """A reaction to a tenth of a millisecond ("183.4 ms", rounded half up)."""
    tenths = (ns + 50_000) // 100_000
    return f"{tenths // 10}.{tenths % 10} ms"


def _cells(p: Painter, n: int, row: Row) -> tuple[str, ...]:
    return (str(n + 1), row.name, str(row.games), str(row.wins), str(row.best), decimal(p.lang, f"{row.average:.1f}"))


def _board_portrait(p: Painter, board: BoardView, area: pygame.Rect, heads: tuple[str, ...]) -> None:
    """Narrow screens: each entry on two lines, the rank and name, then its figures in the
    order the legend on top names them."""
    line_h = p.px(36)
    legend = pygame.Rect(area.x, area.y, area.width, line_h * 2)
    p.text(" · ".join(heads[2:]), legend, 20, theme.DIM)
    entry_h = line_h * 2 + p.px(6)
    room = area.bottom - legend.bottom
    for n, row in enumerate(board.rows[: max(1, room // entry_h)]):
        y = legend.bottom + n * entry_h
        if n % 2 == 0:
            p.fill(theme.PANEL, pygame.Rect(area.x, y, area.width, entry_h), radius=6)
        colour = theme.WARN if n == 0 else theme.TEXT
        cells = _cells(p, n, row)
        p.line(f"{cells[0]}  {cells[1]}", pygame.Rect(area.x + p.px(10), y + p.px(3), area.width - p.px(20), line_h),
               26, colour)
        p.text(" · ".join(cells[2:]), pygame.Rect(area.x + p.px(10), y + p.px(3) + line_h, area.width - p.px(20),
                                                   line_h), 24, colour)
