"""Races: get ready, the GO flash, live presses, and the photo finish's screen (the board and
photo themselves are drawn by screens_photo)."""

from __future__ import annotations

import pygame

from ...cards import Kind
from ...engine import DecideRace, GameState
from ...controller import RaceRun
from ...inputs import Press
from ...judge import RaceResult, format_ms
from ...i18n.lookup import decimal, kind_name
from ...race import RaceKind
from ...variants import CockroachCard
from . import theme
from .actions import Act
from .art.badges import flank
from .common import Scene, continue_button, countdown, header
from .paint import Painter
from .screens_photo import photo_finish
from .screens_table import PLAYABLE_KINDS, card_grid
from .state import GO_FLASH_NS


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
    if (run is not None and run.result is None and not run.asking and run.go_t_ns is not None
            and s.now_ns - run.go_t_ns < GO_FLASH_NS and not pressed_after_go(run)):
        # The whole screen, header and footer too, and nothing else: GO must be seen from
        # across the table, in the corner of an eye watching the other players' hands (the
        # "go" sound plays at the same moment). Nothing is tappable under it.
        whole = p.surface.get_rect()
        p.fill(theme.GO_GREEN, whole)
        p.text(p.t("ui_go"), whole.inflate(-p.px(20), -p.px(20)), whole.height * 0.55 / p.scale, theme.BLACK)
        return
    r = header(p, s, race_title(p, kind, number))
    body = r.body.inflate(-p.px(16), -p.px(10))
    if run is None:
        return
    go = run.go_t_ns
    if run.result is not None:
        _cockroach_card(p, s, body, in_line(run, max(s.now_ns, t.now_t_ns)), number or 1, go)
        return
    if run.asking:
        _ask_table(p, body)
        return
    cockroach = kind is RaceKind.COCKROACH
    status_h = int(body.height * 0.36)
    banner = pygame.Rect(body.x, body.y, body.width, status_h)
    p.fill(theme.WARN if go is None else theme.GO_GREEN, banner, radius=16)
    # The race's creature at both ends (the words between them): which race it is at a glance.
    status = flank(p, (Kind.MOSQUITO if kind is RaceKind.SLAP else Kind.COCKROACH).value, banner)
    if go is None:
        p.text(p.t("ui_get_ready"), status.inflate(-p.px(20), -status_h // 3).move(0, -status_h // 8),
               60, theme.BLACK)
        hint = pygame.Rect(status.x, status.bottom - status_h // 3, status.width, status_h // 3)
        left_ns = run.ready_until_t_ns - s.now_ns
        # A race run again counts down first: its GO never follows the last result unannounced.
        said = p.t("ui_rerun_count", seconds=-(-left_ns // 1_000_000_000)) if left_ns > 0 else p.t("ui_hands_off")
        p.text(said, hint.inflate(-p.px(20), 0), 26, theme.BLACK)
    else:
        p.text(p.t("ui_go"), status, 70, theme.BLACK)
    top = banner.bottom + p.px(8)
    if cockroach:
        rule = pygame.Rect(body.x, top, body.width, p.px(30))
        p.text(cockroach_rule(p, t.game), rule, 22, theme.WARN)
        top = rule.bottom + p.px(4)
    lanes = pygame.Rect(body.x, top, body.width, body.bottom - top - p.px(62))
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
    # The race's time window: said before GO, counted down after it (presses later than this
    # do not count, so a slow group should see the time running out).
    window_ns = t.settings.race_timeout_ns
    left = pygame.Rect(body.x, cancel.y, cancel.x - body.x - p.px(12), cancel.height)
    if go is None:
        p.text(p.t("ui_race_window", seconds=seconds(p, window_ns)), left, 22, theme.DIM)
    elif s.now_ns < go + window_ns:
        # Run out, nothing: "0 s" left reads as a window still open.
        countdown(p, s, left.inflate(0, -p.px(12)), go + window_ns, window_ns)


def seconds(p: Painter, ns: int) -> str:
    """A duration in seconds as the language writes it: "3", "2.5" or "2,5"."""
    return decimal(p.lang, f"{ns / 1e9:g}")


def cockroach_rule(p: Painter, g: GameState) -> str:
    """What a card laid on the cockroach does under this game's house rule."""
    chain = g.rules.cockroach_card is CockroachCard.CHAIN
    return p.t("ui_cockroach_chain" if chain else "ui_cockroach_number_only")


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


def in_line(run: RaceRun, now_ns: int) -> RaceResult:
    """A decided cockroach race as it stands now: every press in line with its time, the ones
    after the decision too (the next in line if the winner is voided), never "no press" for a
    hand that has pressed. The winner stays the decided one: should the evidence now name
    another (a late stamp from before), the screen keeps the decision it acts on."""
    decided = run.result
    assert decided is not None
    if run.live is None or run.go_t_ns is None:
        return decided
    now = max(now_ns, run.go_t_ns)
    standing = run.live.result(now)
    return standing if standing.winner == decided.winner else decided


def _cockroach_card(p: Painter, s: Scene, body: pygame.Rect, result: RaceResult, number: int,
                    go_t_ns: int | None) -> None:
    t = s.table
    if p.portrait:
        strip = pygame.Rect(body.x, body.y, body.width, int(body.height * 0.55))
        console = pygame.Rect(body.x, strip.bottom + p.px(8), body.width, body.bottom - strip.bottom - p.px(8))
    else:
        strip = pygame.Rect(body.x, body.y, int(body.width * 0.62), body.height)
        console = pygame.Rect(strip.right + p.px(12), body.y, body.right - strip.right - p.px(12), body.height)
    photo_finish(p, s.table, strip, result, RaceKind.COCKROACH, go_t_ns)
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
    r = header(p, s, f"{p.t('ui_photo_finish')} · {race_title(p, kind, None)}", instruction=False)
    whole = r.body.inflate(-p.px(16), -p.px(10))
    body = continue_button(p, whole)
    if isinstance(t.game.command, DecideRace):
        # The decision this photo shows can still be taken back: the race then runs again.
        row = pygame.Rect(whole.x, body.bottom + p.px(6), min(p.px(220), whole.width // 3),
                          whole.bottom - body.bottom - p.px(6))
        p.button(row, p.t("ui_undo"), Act("undo"), px=24)
    if result is not None:
        photo_finish(p, s.table, body, result, kind, s.ui.photo_go_ns)

