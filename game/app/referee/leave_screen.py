""""Leave?": the question Esc or the window's close box asks over a quiz or races with something
to lose (a score, a tally, a race armed). Its title, the words (what would end, where the
scores go) and the card game's two big answers (:func:`..ui.screens_ask.ask_body`): Leave on
the left, Keep playing on the right. A screen of its own, so that no tap or key meant for it
reaches the quiz or the race underneath. Draws a :class:`LeaveView`; changes nothing."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..ui import theme
from ..ui.actions import Act
from ..ui.paint import Painter
from ..ui.screens_ask import ask_body
from .keys import LEAVE, STAY

#: The question's screen, for the glass: a new screen when it comes up and when it goes.
LEAVE_SCREEN = "leave"


@dataclass(frozen=True, slots=True)
class LeaveView:
    """The question's title and its words, in the screen's language."""

    title: str
    question: str


def draw_leave(p: Painter, v: LeaveView) -> None:
    p.fill(theme.BG)
    head_h = p.px(56 if p.portrait else 48)
    header = pygame.Rect(0, 0, p.width, head_h)
    p.fill(theme.PANEL, header)
    pad = p.px(10)
    p.text(v.title, header.inflate(-2 * pad, 0), 26, theme.WARN, align="left")
    body = pygame.Rect(0, head_h, p.width, p.height - head_h).inflate(-p.px(24), -p.px(24))
    ask_body(p, body, v.question, (p.t("ui_quit_yes"), Act(LEAVE)), (p.t("ui_quit_no"), Act(STAY)))
