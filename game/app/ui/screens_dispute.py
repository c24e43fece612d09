"""Caught!: the freeze banner, the guard's pick, the judges' vote with its countdown, and the
verdict with what to do."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ...controller import Stage
from ...controller.disputes import needed
from ...i18n.lookup import render
from ...messages import Message
from . import theme
from .actions import Act
from .common import Scene, continue_button, countdown, header
from .paint import Painter
from .state import VerdictShown


def _freeze(p: Painter, body: pygame.Rect) -> pygame.Rect:
    """The "no cheating now" banner across the top of the body; returns what is left below."""
    band = pygame.Rect(body.x, body.y, body.width, p.px(50))
    p.banner(band, p.t("ui_no_cheating"), theme.CAUGHT, px=36)
    return pygame.Rect(body.x, band.bottom + p.px(8), body.width, body.bottom - band.bottom - p.px(8))


def draw_dispute(p: Painter, s: Scene) -> None:
    t = s.table
    d = t.dispute
    r = header(p, s, p.t("ui_caught"))
    rest = _freeze(p, r.body.inflate(-p.px(16), -p.px(8)))
    if d is None:
        return
    settings = t.settings
    clock_h = p.px(44)
    actions_h = p.px(60)
    title = pygame.Rect(rest.x, rest.y, rest.width, p.px(56))
    clock = pygame.Rect(rest.x, rest.bottom - actions_h - clock_h - p.px(8), rest.width, clock_h)
    tiles = pygame.Rect(rest.x, title.bottom + p.px(4), rest.width, clock.y - title.bottom - p.px(8))
    actions = pygame.Rect(rest.x, rest.bottom - actions_h, rest.width, actions_h)
    if t.stage is Stage.PICK or d.accused is None:
        # The accused's tiles are what the guard taps: they get the room, the countdown shares
        # the bottom row with Cancel.
        title = pygame.Rect(rest.x, rest.y, rest.width, p.px(46))
        p.text(p.t("ui_pick_accused", guard=t.name(d.guard)), title, 32)
        tiles = pygame.Rect(rest.x, title.bottom + p.px(4), rest.width, actions.y - title.bottom - p.px(12))
        others = [q for q in range(t.players) if q != d.guard]
        _tiles(p, s, tiles, others, lambda q: Act("accuse", q), lambda q: t.name(q))
        cancel_w = actions.width * 2 // 5
        if s.now_ns < d.deadline_t_ns:      # run out: no "0 s" (the table moves on)
            countdown(p, s, pygame.Rect(actions.x, actions.y + p.px(8), actions.width - cancel_w - p.px(8),
                                        actions.height - p.px(16)), d.deadline_t_ns, settings.pick_window_ns)
        p.button(pygame.Rect(actions.right - cancel_w, actions.y, cancel_w, actions.height), p.t("ui_cancel"),
                 Act("cancel"), px=26)
        return
    accused = d.accused
    p.text(p.t("ui_accuses", guard=t.name(d.guard), accused=t.name(accused)), title, 38, theme.WARN)
    judges = [q for q in range(t.players) if q not in (d.guard, accused)]
    votes_line = pygame.Rect(tiles.x, tiles.y, tiles.width, p.px(34))
    p.text(p.t("ui_votes", votes=len(d.votes), judges=len(judges)), votes_line, 28)
    # What wins, said while the judges decide (not only in the verdict): a group asked.
    rule_line = pygame.Rect(tiles.x, votes_line.bottom, tiles.width, p.px(52 if p.portrait else 28))
    p.text(p.t("ui_vote_rule", needed=needed(len(judges))), rule_line, 22, theme.DIM)
    rest_tiles = pygame.Rect(tiles.x, rule_line.bottom, tiles.width, tiles.bottom - rule_line.bottom)
    # The judges in one row on a wide screen (three at most): the line saying what wins took
    # the height a second row would need.
    _tiles(p, s, rest_tiles, judges, lambda q: None,
           lambda q: (t.name(q), p.t('ui_voted' if q in d.votes else 'ui_waiting')),
           lit=lambda q: q in d.votes, cols=1 if p.portrait else max(1, len(judges)))
    if s.now_ns < d.deadline_t_ns:          # run out: no "0 s" (the verdict comes next)
        countdown(p, s, clock, d.deadline_t_ns, settings.vote_window_ns)
    third = actions.width // 3
    p.button(pygame.Rect(actions.x, actions.y, third, actions.height), p.t("ui_guilty"),
             Act("rule", True), colour=theme.BAD, px=26)
    p.button(pygame.Rect(actions.x + third, actions.y, third, actions.height), p.t("ui_not_guilty"),
             Act("rule", False), colour=theme.GOOD, ink=theme.BLACK, px=26)
    p.button(pygame.Rect(actions.x + 2 * third, actions.y, actions.width - 2 * third, actions.height),
             p.t("ui_cancel"), Act("cancel"), px=26)


def _tiles(p: Painter, s: Scene, box: pygame.Rect, players: list[int],
           act: Callable[[int], Act | None], label: Callable[[int], str | tuple[str, str]],
           lit: Callable[[int], bool] | None = None, cols: int | None = None) -> None:
    """A chip per player; a label (name, what they did) reads "Ali: voted guilty"."""
    t = s.table
    if not players:
        return
    if cols is None:
        cols = 1 if p.portrait else min(len(players), 2)
    rows = -(-len(players) // cols)
    w, h = box.width // cols, min(p.px(64), box.height // rows)
    for i, q in enumerate(players):
        cell = pygame.Rect(box.x + (i % cols) * w, box.y + (i // cols) * h, w, h)
        chip = cell.inflate(-p.px(8), -p.px(6))
        said = label(q)
        words = said if isinstance(said, str) else _judge_label(p, *said, chip.inflate(-p.px(8), -p.px(4)))
        p.chip(chip, t.seated[q], words, px=28, lit=True if lit is None else lit(q), act=act(q), hit=cell)


def _judge_label(p: Painter, name: str, did: str, box: pygame.Rect) -> str:
    """"Ali: voted guilty" in ``box``; short of room even at the smallest size, the name is cut
    ("Maximilia…: voted guilty"), never what the judge did (the chip's own cut would take the
    end off, "Maximiliane-Anna: vote…")."""
    label = f"{name}: {did}"
    if p.layout_text(label, box, p.px(28))[2]:
        return label
    shown = name
    while len(shown) > 1 and not p.layout_text(f"{shown.rstrip()}…: {did}", box, p.min_px)[2]:
        shown = shown[:-1]
    return f"{shown.rstrip()}…: {did}"


def draw_verdict(p: Painter, s: Scene) -> None:
    """GUILTY or NOT GUILTY in a colour seen across the table, who it was about, how it was
    decided (the tally, a plea, or a tap), what to do now, and a way on."""
    v = s.ui.verdict
    assert v is not None
    todo = render(Message.of("verdict_guilty" if v.guilty else "verdict_not_guilty", guard=v.guard,
                             accused=v.accused), p.lang)
    r = header(p, s, p.t("ui_caught"), instruction=False, said=todo)   # said once, in the body
    body = continue_button(p, r.body.inflate(-p.px(16), -p.px(12)))
    big = pygame.Rect(body.x, body.y, body.width, int(body.height * 0.42))
    colour = theme.BAD if v.guilty else theme.GOOD
    p.fill(colour, big, radius=16)
    inner = big.inflate(-p.px(20), -p.px(10))
    verdict_box = pygame.Rect(inner.x, inner.y, inner.width, inner.height * 3 // 5)
    p.text(p.t("ui_verdict_guilty" if v.guilty else "ui_verdict_not_guilty"), verdict_box, 80, theme.BLACK)
    who = pygame.Rect(inner.x, verdict_box.bottom, inner.width, inner.bottom - verdict_box.bottom)
    p.text(p.t("ui_verdict_caught" if v.guilty else "ui_verdict_cleared", accused=v.accused), who, 34, theme.BLACK)
    tally_box = pygame.Rect(body.x, big.bottom + p.px(8), body.width, p.px(64 if p.portrait else 40))
    p.text(_tally(p, v), tally_box, 24, theme.DIM)
    rest = pygame.Rect(body.x, tally_box.bottom + p.px(4), body.width, body.bottom - tally_box.bottom - p.px(4))
    p.text(todo, rest, 32)


def _tally(p: Painter, v: VerdictShown) -> str:
    if v.how == "plea":
        return p.t("ui_tally_plea", accused=v.accused)
    if v.how == "ruled" or v.judges == 0:
        return p.t("ui_tally_ruled")
    return p.t("ui_tally_vote", votes=v.votes, judges=v.judges, needed=needed(v.judges))
