"""The name keyboard of the join screen: the name typed so far (the seat's own name, dimmed,
while nothing is typed: Skip keeps it), the character keys of the layout (keyboard.py) and a
row of Case, the layout switch, Space, Delete, Skip and OK. A refused name is the footer's
notice; the keyboard stays up with the text so it can be mended."""

from __future__ import annotations

import pygame

from ...controller.names import MAX_NAME
from . import keyboard, theme
from .actions import Act
from .common import Scene, header
from .paint import Painter


def draw_keyboard(p: Painter, s: Scene) -> None:
    ui = s.ui
    t = s.table
    seat = ui.keyboard_seat if ui.keyboard_seat is not None else 0
    r = header(p, s, p.t("ui_name_title", seat=seat + 1), instruction=False)
    body = r.body.inflate(-p.px(16), -p.px(8))
    field_h = p.px(50)
    field = pygame.Rect(body.x, body.y, body.width, field_h - p.px(4))
    _field(p, field, seat, ui.keyboard_text, t.settings.name(seat))
    rows = keyboard.rows(ui.keyboard_layout, p.portrait)
    # Portrait is too narrow for six action buttons in a row ("Überspringen"): two rows of three.
    action_rows = 2 if p.portrait else 1
    row_h = min(p.px(72), (body.bottom - body.y - field_h) // (len(rows) + action_rows))
    keys_top = body.bottom - row_h * (len(rows) + action_rows)   # at the bottom, under the thumbs
    key_w = body.width // max(len(row) for row in rows)
    for r_i, row in enumerate(rows):
        y = keys_top + r_i * row_h
        x0 = body.x + (body.width - key_w * len(row)) // 2
        for k_i, key in enumerate(row):
            cell = pygame.Rect(x0 + k_i * key_w, y, key_w, row_h)
            p.button(cell, keyboard.shown(key, ui.keyboard_text, ui.keyboard_shift), Act("key", key), px=26)
    _actions(p, pygame.Rect(body.x, keys_top + len(rows) * row_h, body.width, row_h * action_rows), s,
             action_rows)
    if ui.notice(s.now_ns) is None:
        # Where the table's instruction goes (the footer's notice, such as a refusal, wins).
        foot = r.footer.inflate(-p.px(20), 0)
        hint = pygame.Rect(foot.x, foot.y + p.px(30), foot.width, foot.bottom - foot.y - p.px(34))
        p.text(p.t("ui_name_hint", most=MAX_NAME, default=t.settings.name(seat)), hint, 24, theme.DIM)


def _field(p: Painter, box: pygame.Rect, seat: int, text: str, default: str) -> None:
    """The name so far on a panel with the seat's colour at its left, and a cursor after it."""
    p.fill(theme.PANEL, box, radius=8)
    pygame.draw.rect(p.surface, theme.seat_colour(seat), pygame.Rect(box.x, box.y, p.px(10), box.height),
                     border_top_left_radius=p.px(8), border_bottom_left_radius=p.px(8))
    inner = box.inflate(-p.px(40), -p.px(6))
    covered = p.text(text or default, inner, 30, theme.TEXT if text else theme.DIM, align="left", wrap=False)
    # The cursor: where the next letter goes (before the dimmed default, which is not typed).
    x = covered.right + p.px(3) if text else inner.x
    pygame.draw.line(p.surface, theme.WARN, (x, inner.y + p.px(4)), (x, inner.bottom - p.px(4)), max(2, p.px(3)))


def _actions(p: Painter, box: pygame.Rect, s: Scene, lines: int) -> None:
    ui = s.ui
    latin = ui.keyboard_layout == "latin"
    switch = keyboard.LAYOUT_NAMES["hangul" if latin else "latin"]
    # (label, act, width weight, colour): Space the widest, OK where the thumb ends.
    acts: list[tuple[str, Act, float, theme.RGB]] = []
    if latin:
        acts.append((p.t("ui_key_case"), Act("key_case"), 1.0, theme.WARN if ui.keyboard_shift else theme.BUTTON))
    acts += [(switch, Act("key_layout"), 1.0, theme.BUTTON),
             (p.t("ui_key_space"), Act("key", " "), 2.0, theme.BUTTON),
             (p.t("ui_key_delete"), Act("key_delete"), 1.5, theme.BUTTON),
             (p.t("ui_key_skip"), Act("key_skip"), 1.5, theme.BUTTON),
             (p.t("ui_ok"), Act("key_ok"), 1.2, theme.GOOD)]
    per_line = -(-len(acts) // lines)
    row_h = box.height // lines
    for line in range(lines):
        part = acts[line * per_line:(line + 1) * per_line]
        total = sum(weight for _, _, weight, _ in part)
        x, y = box.x, box.y + line * row_h
        for i, (label, act, weight, colour) in enumerate(part):
            width = box.right - x if i == len(part) - 1 else int(box.width * weight / total)
            ink = theme.BLACK if colour in (theme.GOOD, theme.WARN) else theme.BUTTON_TEXT
            p.button(pygame.Rect(x, y, width, row_h), label, act, colour=colour, ink=ink, px=22)
            x += width
