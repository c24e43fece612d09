"""Races: get ready, the GO flash, live presses, and the photo finish — every racer's press on
a microsecond axis from GO, reaction times in ms with three decimals, ties and false starts
marked, the deciding player highlighted."""

from __future__ import annotations

import pygame

from ...cards import Kind
from ...controller import RaceRun
from ...inputs import Press
from ...judge import RaceResult, format_ms
from ...i18n.lookup import decimal, kind_name
from ...race import RaceKind
from . import theme
from .actions import Act, Hotspot
from .art.badges import flank
from .common import Scene, header
from .paint import Painter
from .screens_table import PLAYABLE_KINDS, card_grid
from .state import GO_FLASH_NS

NICE_STEPS_US = (100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000,
                 500_000, 1_000_000)


def race_title(p: Painter, kind: RaceKind, number: int | None) -> str:
    name = kind_name(p.lang, Kind.MOSQUITO if kind is RaceKind.SLAP else Kind.COCKROACH)
    return f"{name} {number}!" if number is not None else name


def ms(p: Painter, ns: int) -> str:
    """``183.456 ms`` in the language's decimals, never broken across lines."""
    return decimal(p.lang, format_ms(ns)).replace(" ", "\u00a0")


def pressed_after_go(run: RaceRun) -> bool:
    return run.go_t_ns is not None and any(
        isinstance(e, Press) and e.t_ns >= run.go_t_ns for e in run.edges)


def draw_race(p: Painter, s: Scene) -> None:
    t = s.table
    run = t.race
    g = t.game
    number = g.race.number if g.race is not None else None
    kind = run.kind if run is not None else RaceKind.SLAP
    r = header(p, s, race_title(p, kind, number))
    body = r.body.inflate(-p.px(16), -p.px(10))
    if run is None:
        return
    go = run.go_t_ns
    if run.result is not None:
        _cockroach_card(p, s, body, run.result, number or 1, go)
        return
    if run.asking:
        _ask_table(p, body)
        return
    if go is not None and s.now_ns - go < GO_FLASH_NS and not pressed_after_go(run):
        p.fill(theme.GO_GREEN, body, radius=16)
        p.text(p.t("ui_go"), body, body.height * 0.6 / p.scale, theme.BLACK)
        return
    status_h = int(body.height * 0.36)
    banner = pygame.Rect(body.x, body.y, body.width, status_h)
    p.fill(theme.WARN if go is None else theme.GO_GREEN, banner, radius=16)
    # The race's creature at both ends (the words between them): which race it is at a glance.
    status = flank(p, (Kind.MOSQUITO if kind is RaceKind.SLAP else Kind.COCKROACH).value, banner)
    if go is None:
        p.text(p.t("ui_get_ready"), status.inflate(-p.px(20), -status_h // 3).move(0, -status_h // 8),
               60, theme.BLACK)
        hint = pygame.Rect(status.x, status.bottom - status_h // 3, status.width, status_h // 3)
        p.text(p.t("ui_hands_off"), hint.inflate(-p.px(20), 0), 26, theme.BLACK)
    else:
        p.text(p.t("ui_go"), status, 70, theme.BLACK)
    lanes = pygame.Rect(body.x, status.bottom + p.px(10), body.width, body.bottom - status.bottom - p.px(70))
    n = len(run.eligible)
    cols = 1 if p.portrait else min(n, 3)
    rows = -(-n // cols)
    w, h = lanes.width // cols, min(p.px(64), lanes.height // rows)
    edges = run.edges  # one copy of the log per frame, not one per lane
    for i, player in enumerate(run.eligible):
        tile = pygame.Rect(lanes.x + (i % cols) * w, lanes.y + (i // cols) * h, w, h).inflate(-p.px(8), -p.px(6))
        presses = [e.t_ns for e in edges if isinstance(e, Press) and e.player == player]
        early = go is not None and any(x < go for x in presses) or go is None and bool(presses)
        after = [x for x in presses if go is not None and x >= go]
        label = t.name(player)
        if after and go is not None:
            label += f"  {ms(p, after[0] - go)}"
        elif early:
            label += f"  {p.t('ui_false_start')}"
        lit = bool(after)
        p.chip(tile, t.seated[player], label, px=26, lit=lit or early)
        if early:
            p.frame(theme.BAD, tile, 4, radius=8)
    cancel = pygame.Rect(body.right - p.px(220), body.bottom - p.px(56), p.px(220), p.px(56))
    p.button(cancel, p.t("ui_cancel"), Act("cancel"), px=24)


def _ask_table(p: Painter, body: pygame.Rect) -> None:
    """Nobody slapped the mosquito twice in a row: the table re-runs it or calls it off."""
    question = pygame.Rect(body.x, body.y, body.width, int(body.height * 0.6))
    p.fill(theme.WARN, question, radius=16)
    p.text(p.t("race_ask"), question.inflate(-p.px(40), -p.px(20)), 40, theme.BLACK)
    row = pygame.Rect(body.x, question.bottom + p.px(20), body.width, p.px(80))
    half = row.width // 2
    p.button(pygame.Rect(row.x, row.y, half, row.height), p.t("ui_run_again"), Act("rearm"),
             colour=theme.GO_GREEN, ink=theme.BLACK, px=30)
    p.button(pygame.Rect(row.x + half, row.y, row.width - half, row.height), p.t("ui_call_off"),
             Act("cancel"), px=30)


def _cockroach_card(p: Painter, s: Scene, body: pygame.Rect, result: RaceResult, number: int,
                    go_t_ns: int | None) -> None:
    t = s.table
    if p.portrait:
        strip = pygame.Rect(body.x, body.y, body.width, int(body.height * 0.55))
        console = pygame.Rect(body.x, strip.bottom + p.px(8), body.width, body.bottom - strip.bottom - p.px(8))
    else:
        strip = pygame.Rect(body.x, body.y, int(body.width * 0.62), body.height)
        console = pygame.Rect(strip.right + p.px(12), body.y, body.right - strip.right - p.px(12), body.height)
    photo_finish(p, s, strip, result, RaceKind.COCKROACH, go_t_ns)
    winner = result.winner
    kinds = PLAYABLE_KINDS if winner == t.game.guard else PLAYABLE_KINDS[:-1]
    actions_h = p.px(56)
    card_grid(p, pygame.Rect(console.x, console.y, console.width, console.height - actions_h), (number,),
              kinds, "laid")
    half = console.width // 2
    p.button(pygame.Rect(console.x, console.bottom - actions_h, half, actions_h), p.t("ui_void"),
             Act("void"), colour=theme.WARN, ink=theme.BLACK, px=24)
    p.button(pygame.Rect(console.x + half, console.bottom - actions_h, console.width - half, actions_h),
             p.t("ui_cancel"), Act("cancel"), px=24)


def draw_photo(p: Painter, s: Scene) -> None:
    """The photo finish of the last race, full screen (tap to go on)."""
    t = s.table
    result = t.last_race
    kind = t.last_race_kind or RaceKind.SLAP
    r = header(p, s, f"{p.t('ui_photo_finish')} · {race_title(p, kind, None)}")
    body = r.body.inflate(-p.px(16), -p.px(10))
    if result is not None:
        photo_finish(p, s, body, result, kind, s.ui.photo_go_ns)
    p.hotspots.append(Hotspot(body, Act("dismiss")))


def _go_of(result: RaceResult, go_t_ns: int | None) -> int | None:
    if go_t_ns is not None:
        return go_t_ns
    if result.ranking:
        first = result.ranking[0]
        return first.t_ns - first.reaction_ns
    return None


def photo_finish(p: Painter, s: Scene, box: pygame.Rect, result: RaceResult, kind: RaceKind,
                 go_t_ns: int | None) -> None:
    """Lanes of racers on a µs axis from GO; names left, reaction times right."""
    t = s.table
    go = _go_of(result, go_t_ns)
    ranked = [pl.player for pl in result.ranking]
    false_only = [f.player for f in result.false_starts if f.player not in ranked]
    lanes = ranked + [q for q in dict.fromkeys(false_only + list(result.no_press)) if q not in ranked]
    if not lanes:
        return
    early_us = [(f.t_ns - go) // 1000 for f in result.false_starts if go is not None]
    late_us = [pl.reaction_ns // 1000 for pl in result.ranking]
    lo_us = min([0, *early_us])
    hi_us = max([100_000, *late_us])
    span = hi_us - lo_us
    lo_us -= span // 20
    hi_us += span // 10
    span = hi_us - lo_us
    p.fill(theme.PANEL, box, radius=12)
    axis_h = p.px(46)
    name_w = int(box.width * 0.2)
    time_w = int(box.width * 0.32)
    track = pygame.Rect(box.x + name_w, box.y + p.px(6), box.width - name_w - time_w,
                        box.height - axis_h - p.px(6))
    lane_h = track.height // len(lanes)

    def x_of(us: int) -> int:
        return track.x + int((us - lo_us) * track.width / span)

    # axis: ticks in µs
    step = next((st for st in NICE_STEPS_US if span / st <= 5), NICE_STEPS_US[-1])
    first = -(-lo_us // step) * step
    axis_y = track.bottom + p.px(4)
    pygame.draw.line(p.surface, theme.DIM, (track.x, axis_y), (track.right, axis_y), max(1, p.px(2)))
    tick = first
    while tick <= hi_us:
        x = x_of(tick)
        pygame.draw.line(p.surface, theme.PANEL_HI, (x, track.y), (x, axis_y), 1)
        label = pygame.Rect(x - p.px(50), axis_y + p.px(2), p.px(100), p.px(28))
        if track.x <= label.centerx <= track.right:
            p.text(f"{tick:,}".replace(",", " "), label, 20, theme.DIM)
        tick += step
    p.text(p.t("ui_axis"), pygame.Rect(track.right + p.px(8), axis_y, time_w - p.px(14), axis_h - p.px(4)),
           20, theme.DIM, align="right")
    go_x = x_of(0)
    pygame.draw.line(p.surface, theme.GO_GREEN, (go_x, track.y), (go_x, axis_y), max(2, p.px(3)))
    decisive = result.loser if kind is RaceKind.SLAP else result.winner
    placing = {pl.player: pl for pl in result.ranking}
    for i, player in enumerate(lanes):
        lane = pygame.Rect(box.x, track.y + i * lane_h, box.width, lane_h)
        seat = t.seated[player] if player < len(t.seated) else player
        colour = theme.seat_colour(seat)
        if player == decisive:
            p.fill(theme.PANEL_HI, lane.inflate(-p.px(4), -p.px(2)), radius=8)
        name_box = pygame.Rect(lane.x + p.px(8), lane.y, name_w - p.px(12), lane_h)
        p.text(t.name(player) if player < t.players else str(player), name_box, 26, colour, align="left")
        mid = lane.centery
        notes: list[str] = []
        for f in result.false_starts:
            if f.player == player and go is not None:
                fx = x_of((f.t_ns - go) // 1000)
                pygame.draw.circle(p.surface, theme.BAD, (fx, mid), max(4, lane_h // 5))
                notes.append(p.t("ui_false_start"))
        pl = placing.get(player)
        time_box = pygame.Rect(track.right + p.px(8), lane.y, time_w - p.px(14), lane_h)
        if pl is not None:
            px_ = x_of(pl.reaction_ns // 1000)
            pygame.draw.line(p.surface, colour, (go_x, mid), (px_, mid), max(3, lane_h // 6))
            pygame.draw.circle(p.surface, colour, (px_, mid), max(5, lane_h // 4))
            pygame.draw.circle(p.surface, theme.BLACK, (px_, mid), max(5, lane_h // 4), max(1, p.px(2)))
            if player in result.tied:
                notes.append(p.t("ui_tie"))
            if player == decisive:
                notes.append(p.t("ui_slowest" if kind is RaceKind.SLAP else "ui_fastest"))
            reading = ms(p, pl.reaction_ns)
        else:
            reading = "—"
            if player in result.no_press:
                notes.append(p.t("ui_no_press"))
        lines = reading + ("\n" + ", ".join(notes) if notes else "")
        ink = theme.WARN if player == decisive else (theme.BAD if notes and pl is None else theme.TEXT)
        p.text(lines, time_box, 24, ink, align="right")

