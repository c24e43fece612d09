"""A question with two big answers, over the screen it is about: "Leave the game?" (Esc or the
window's close box on a game being played) and "Take back the result?" (Undo on a photo finish).
Each is a screen of its own, so that no tap or key meant for it reaches the one underneath."""

from __future__ import annotations

import pygame

from . import theme
from .actions import Act
from .common import Scene, header
from .paint import Painter

#: The screen, its title, its question, and the labels of its two answers (catalog keys).
ASKS = {
    "quit": ("ui_quit_title", "ui_quit_ask", "ui_quit_yes", "ui_quit_no", "yes", "no"),
    "undo-race": ("ui_undo_race_title", "ui_undo_race_ask", "ui_run_again", "ui_no", "undo_yes", "undo_no"),
    "resume": ("ui_resume_title", "ui_resume_ask", "ui_resume_yes", "ui_resume_no", "resume_yes", "resume_no"),
}


def ask_body(p: Painter, body: pygame.Rect, question: str, yes: tuple[str, Act], no: tuple[str, Act],
             yes_colour: theme.RGB = theme.BAD) -> None:
    """The question and two big answers in ``body``: the one that changes something on the
    left in ``yes_colour``, the one that leaves things as they are on the right, in green
    (a saved game's "Carry on" is the safe one too: both green)."""
    button_h = p.px(90 if p.portrait else 70)
    question_box = pygame.Rect(body.x, body.y, body.width, body.height - button_h - p.px(12))
    p.text(question, question_box, 32)
    w = min(p.px(300), body.width // 2 - p.px(10))
    y = body.bottom - button_h
    p.button(pygame.Rect(body.centerx - w - p.px(10), y, w, button_h), yes[0], yes[1], colour=yes_colour, px=28)
    p.button(pygame.Rect(body.centerx + p.px(10), y, w, button_h), no[0], no[1],
             colour=theme.GOOD, ink=theme.BLACK, px=28)


def draw_ask(p: Painter, s: Scene, screen: str) -> None:
    title, question, yes, no, yes_act, no_act = ASKS[screen]
    r = header(p, s, p.t(title), instruction=False)
    t = s.table
    # The saved game, so the group knows which one it is: its round and its players.
    said = p.t(question, round=max(1, t.game.round), names=", ".join(t.name(q) for q in range(t.players)))
    ask_body(p, r.body.inflate(-p.px(24), -p.px(12)), said, (p.t(yes), Act(yes_act)), (p.t(no), Act(no_act)),
             yes_colour=theme.GOOD if screen == "resume" else theme.BAD)
