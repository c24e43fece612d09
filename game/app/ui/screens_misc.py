"""Settings (language, house rules, input) and the attract banner over a demo game (with the
café's leaderboard in kiosk mode)."""

from __future__ import annotations

from dataclasses import fields

import pygame

from ...controller import Stage
from ...i18n import LANGUAGE_NAMES, LANGUAGES
from ...variants import Rules
from . import theme
from .actions import Act
from .common import Scene, header
from .paint import Painter

VARIANTS = ("guard_next_round", "cockroach_racers", "cockroach_card", "draw_when_playable", "top_tie")


def variant_value_key(rules: Rules, name: str) -> str:
    value = getattr(rules, name).value
    return f"val_{value.replace('-', '_')}"


def rules_editable(s: Scene) -> bool:
    return s.table.stage in (Stage.JOIN, Stage.OLDEST)


def draw_settings(p: Painter, s: Scene) -> None:
    r = header(p, s, p.t("ui_settings"), instruction=False)   # a turn's instruction is stale here
    body = r.body.inflate(-p.px(16), -p.px(8))
    row_h = p.px(48)
    # languages
    if p.portrait:
        p.text(p.t("ui_language"), pygame.Rect(body.x, body.y, body.width, row_h), 24, theme.DIM, align="left")
        lang_row = pygame.Rect(body.x, body.y + row_h, body.width, row_h)
        label_w = 0
    else:
        lang_row = pygame.Rect(body.x, body.y, body.width, row_h)
        label_w = int(body.width * 0.3)
        p.text(p.t("ui_language"), pygame.Rect(lang_row.x, lang_row.y, label_w, row_h), 24, theme.DIM,
               align="left")
    lang_w = (body.width - label_w) // len(LANGUAGES)
    for i, code in enumerate(LANGUAGES):
        cell = pygame.Rect(lang_row.x + label_w + i * lang_w, lang_row.y, lang_w, row_h)
        chosen = code == p.lang   # the language on screen (ui.lang can lag a --lang or kiosk default)
        p.button(cell, LANGUAGE_NAMES[code], Act("lang", code), colour=theme.WARN if chosen else theme.BUTTON,
                 ink=theme.BLACK if chosen else theme.BUTTON_TEXT, px=22)
    # house rules, one row each; changeable only between games
    rules = s.table.settings.rules
    assert set(VARIANTS) == {f.name for f in fields(Rules)} - {"deck"}
    editable = rules_editable(s)
    bottom_h = p.px(90 if p.portrait else 56)
    line_h = min(p.px(100 if p.portrait else 44), (body.bottom - bottom_h - lang_row.bottom - p.px(8)) // len(VARIANTS))
    label_w = int(body.width * 0.55)
    y = lang_row.bottom + p.px(8)
    for name in VARIANTS:
        if p.portrait:
            label = pygame.Rect(body.x, y, body.width, line_h // 2)
            value = pygame.Rect(body.x + body.width // 3, y + line_h // 2, body.width * 2 // 3, line_h // 2)
        else:
            label = pygame.Rect(body.x, y, label_w, line_h)
            value = pygame.Rect(body.x + label_w, y, body.width - label_w, line_h)
        p.text(p.t(f"var_{name}"), label.inflate(-p.px(4), 0), 22, align="left")
        if editable:
            p.button(value, p.t(variant_value_key(rules, name)), Act("variant", name), px=22)
        else:
            p.text(p.t(variant_value_key(rules, name)), value.inflate(-p.px(12), -p.px(4)), 22, theme.DIM)
        y += line_h
    # input, keys, what to install
    back_w = p.px(180)
    info = pygame.Rect(body.x, body.bottom - bottom_h, body.width - back_w - p.px(10), bottom_h)
    lines = [f"{p.t('ui_input')}: {p.t('ui_input_' + s.ui.input_name)}"]
    if s.ui.seat_keys:
        lines[0] += f" · {p.t('ui_seat_keys')}: {' '.join(s.ui.seat_keys)}"
    if not editable:
        lines.append(p.t("ui_rules_locked"))
    if s.ui.font_warning:
        lines.append(p.t("ui_font_missing"))
    p.text("\n".join(lines), info, 20, theme.DIM, align="left")
    back = pygame.Rect(body.right - back_w, body.bottom - bottom_h, back_w, bottom_h)
    p.button(back, p.t("ui_back"), Act("back"), colour=theme.GOOD, ink=theme.BLACK, px=24)
