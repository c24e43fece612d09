"""The quiz-show screen: who is in front (big, in the seat's colour, with the answer timer),
the ring-in order of everyone else with the gap to the one before, early presses, the points
per seat (and team), and the host's buttons. Draws a :class:`QuizView`; changes nothing."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ...i18n.lookup import decimal
from ...judge import format_gap, format_ms
from ...referee.quiz import Phase, QuizState, RingInRow, Status, early_rows, ring_in_order
from ..ui import theme
from ..ui.actions import Act
from ..ui.paint import Painter
from .race_screen import KEY_SEPARATOR

S = 1_000_000_000

#: Each status's badge: (catalog key, badge colour, ink).
BADGES: dict[Status, tuple[str, theme.RGB, theme.RGB]] = {
    Status.FRONT: ("ref_status_front", theme.WARN, theme.BLACK),
    Status.WAITING: ("ref_status_waiting", theme.PANEL_HI, theme.TEXT),
    Status.WRONG: ("ref_status_wrong", theme.BAD, theme.BLACK),
    Status.LOCKED: ("ref_status_locked", theme.PANEL_HI, theme.DIM),
    Status.EARLY: ("ref_status_early", theme.BAD, theme.BLACK),
    Status.RIGHT: ("ref_status_right", theme.GOOD, theme.BLACK),
}


@dataclass(frozen=True, slots=True)
class QuizView:
    """What the quiz screen draws: the quiz, the players' names, the time on the input's clock
    and the latest notice (a refusal, in the footer)."""

    state: QuizState
    names: tuple[str, ...]
    now_ns: int
    notice: str = ""


def draw_quiz(p: Painter, v: QuizView) -> None:
    p.fill(theme.BG)
    head_h = p.px(64 if p.portrait else 48)
    foot_h = p.px(110 if p.portrait else 64)
    header = pygame.Rect(0, 0, p.width, head_h)
    footer = pygame.Rect(0, p.height - foot_h, p.width, foot_h)
    _header(p, v, header)
    if p.portrait:
        # Portrait: the line, the points under it, the host's buttons in a row above the footer.
        rows = len(_layout(len(_acts(None, v)), portrait=True))
        buttons = pygame.Rect(0, footer.y - p.px(60) * rows, p.width, p.px(60) * rows)
        body = pygame.Rect(0, head_h, p.width, buttons.y - head_h).inflate(-p.px(16), -p.px(12))
        line_box = pygame.Rect(body.x, body.y, body.width, int(body.height * 0.64))
        score_box = pygame.Rect(body.x, line_box.bottom + p.px(8), body.width, body.bottom - line_box.bottom - p.px(8))
        _buttons(p, v, buttons.inflate(-p.px(12), -p.px(4)))
    else:
        # Landscape: the line takes the whole height on the left (eight seats' rows need it);
        # the points and, under them, the host's buttons on the right.
        body = pygame.Rect(0, head_h, p.width, footer.y - head_h).inflate(-p.px(16), -p.px(12))
        line_box = pygame.Rect(body.x, body.y, int(body.width * 0.64), body.height)
        side = pygame.Rect(line_box.right + p.px(12), body.y, body.right - line_box.right - p.px(12), body.height)
        rows = _button_rows(v)
        buttons_h = rows * p.px(56)
        score_box = pygame.Rect(side.x, side.y, side.width, side.height - buttons_h - (p.px(8) if rows else 0))
        _buttons(p, v, pygame.Rect(side.x, side.bottom - buttons_h, side.width, buttons_h))
    _line(p, v, line_box)
    _scores(p, v, score_box)
    p.fill(theme.PANEL, footer)
    room = footer.inflate(-p.px(20), -p.px(8))
    if v.notice:
        p.text(v.notice, room, 26, theme.WARN)
    else:
        p.text(_footer(p, v, room), room, 26, theme.TEXT, min_px=20)


def _header(p: Painter, v: QuizView, box: pygame.Rect) -> None:
    s = v.state
    p.fill(theme.PANEL, box)
    pad = p.px(10)
    left = pygame.Rect(pad, box.y, box.width * (11 if p.portrait else 8) // 20, box.height)
    title = p.t("ref_quiz_title")
    if s.questions:
        title += " · " + p.t("ref_question", number=s.questions)
    p.text(title, left, 26, theme.WARN, align="left", wrap=False)
    right = pygame.Rect(left.right + pad, box.y + p.px(4), box.right - left.right - 2 * pad, box.height - p.px(8))
    countdown = _countdown(p, v)
    if countdown is not None:
        words, left_ns, total_ns = countdown
        p.fill(theme.PANEL_HI, right, radius=8)
        filled = right.copy()
        filled.width = max(0, right.width * left_ns // max(1, total_ns))
        if filled.width:
            p.fill(theme.WARN, filled, radius=8)
        p.text(words, right.inflate(-p.px(8), -p.px(4)), 24, theme.BLACK if filled.width > right.width // 2 else theme.TEXT)


def _countdown(p: Painter, v: QuizView) -> tuple[str, int, int] | None:
    s = v.state
    for deadline, total, key in ((s.buzz_deadline_t_ns, s.settings.buzz_window_ns, "ref_buzz_left"),
                                 (s.answer_deadline_t_ns, s.settings.answer_ns, "ref_answer_left")):
        if deadline is not None and total:
            left = deadline - v.now_ns
            # Run out, the window is over: "0 s to buzz" ("Noch 0 s") says the opposite of
            # what the next frame shows, so nothing is shown until the quiz moves on.
            return (p.t(key, seconds=-(-left // S)), left, total) if left > 0 else None
    return None


def _name(v: QuizView, seat: int) -> str:
    return v.names[seat] if seat < len(v.names) else str(seat + 1)


def _line(p: Painter, v: QuizView, box: pygame.Rect) -> None:
    """The big banner (armed, who answers, how the question ended) over the ring-in rows."""
    s = v.state
    p.fill(theme.PANEL, box, radius=12)
    inner = box.inflate(-p.px(12), -p.px(10))
    banner = pygame.Rect(inner.x, inner.y, inner.width, min(p.px(80), inner.height // 4))
    q = s.open
    if s.phase is Phase.ARMED:
        p.fill(theme.GOOD, banner, radius=12)
        p.text(p.t("ref_armed"), banner.inflate(-p.px(12), -p.px(6)), 56, theme.BLACK)
    elif s.phase is Phase.SETTLING:
        p.fill(theme.WARN, banner, radius=12)
        p.text(p.t("ref_settling"), banner.inflate(-p.px(12), -p.px(6)), 40, theme.BLACK)
    elif s.phase is Phase.ANSWERING and q is not None and q.front is not None:
        p.fill(theme.seat_colour(q.front), banner, radius=12)
        p.text(p.t("ref_answering", player=_name(v, q.front)), banner.inflate(-p.px(12), -p.px(6)), 56,
               theme.BLACK, cut=True)
    else:
        p.fill(theme.PANEL_HI, banner, radius=12)
        p.text(_ended(p, v), banner.inflate(-p.px(12), -p.px(6)), 40, theme.TEXT)
    rows = ring_in_order(s) if s.open is not None or s.last is not None else ()
    if s.open is None:
        rows = tuple(rows) + early_rows(s)
    area = pygame.Rect(inner.x, banner.bottom + p.px(8), inner.width, inner.bottom - banner.bottom - p.px(8))
    caption = pygame.Rect(area.x, area.y, area.width * 3 // 4, p.fonts.line_height(p.px(20)))
    more = pygame.Rect(caption.right, caption.y, area.right - caption.right, caption.height)
    p.text(p.t("ref_line"), caption, 20, theme.DIM, align="left")
    area = pygame.Rect(area.x, caption.bottom + p.px(2), area.width, area.bottom - caption.bottom - p.px(2))
    if not rows:
        p.text(p.t("ref_nobody_yet"), area, 24, theme.DIM)
        return
    # Rows of at least two lines' height each; what does not fit is counted in the caption (a
    # line of eight is read from the top: the ones at its end answer last, if ever).
    row_h = min(p.px(60), max(p.px(40), area.height // max(1, len(rows))))
    shown = max(1, area.height // row_h)
    if shown < len(rows):
        p.text(f"+{len(rows) - shown}", more, 20, theme.DIM, align="right")
    for i, row in enumerate(rows[:shown]):
        _row(p, v, row, pygame.Rect(area.x, area.y + i * row_h, area.width, row_h - p.px(4)), i)


def _row(p: Painter, v: QuizView, row: RingInRow, box: pygame.Rect, index: int) -> None:
    """One ring-in on one line: name, time after arming, gap to the one before, status."""
    key, colour, ink = BADGES[row.status]
    closed = v.state.open is None
    if row.status in (Status.FRONT, Status.RIGHT):
        p.frame(theme.WARN, box, 3, radius=8)
    pad = p.px(4)
    inner = box.inflate(-2 * pad, -2 * pad)
    chip = pygame.Rect(inner.x, inner.y, int(inner.width * 0.26), inner.height)
    p.chip(chip, row.seat, _name(v, row.seat), px=24, lit=row.status is not Status.LOCKED)
    badge = pygame.Rect(inner.right - int(inner.width * 0.28), inner.y, int(inner.width * 0.28), inner.height)
    # Between questions nobody is "next" any more: the line is history, its badges only say
    # who was right, wrong, locked out or early.
    if not (closed and row.status is Status.WAITING):
        p.fill(colour, badge, radius=8)
        p.text(p.t(key), badge.inflate(-p.px(6), -p.px(2)), 20, ink, wrap=False)
    times = pygame.Rect(chip.right + p.px(6), inner.y, badge.x - chip.right - p.px(12), inner.height)
    if row.status is Status.EARLY:
        if row.since_arm_ns is not None:
            p.text(p.t("ref_early_by", ms=decimal(p.lang, format_ms(-row.since_arm_ns))), times, 22, theme.BAD, wrap=False)
        return
    # As lockout boards show it: the first ring-in's time after arming, then each one's gap to
    # the one before (a tie within the input's resolution in the warning colour).
    if row.gap_ns is not None:
        # Rung in at the same instant: the tie said, not "+0 ns".
        gap = "+" + decimal(p.lang, format_gap(row.gap_ns)) if row.gap_ns else p.t("ui_tie")
        p.text(gap, times, 22, theme.WARN if row.tie else theme.DIM,
               align="right", wrap=False)
    elif row.since_arm_ns is not None:
        p.text(decimal(p.lang, format_ms(row.since_arm_ns)), times, 24, theme.TEXT, align="right", wrap=False)


def _ended(p: Painter, v: QuizView) -> str:
    last = v.state.last
    if last is None:
        return p.t("ref_idle_first")
    if last.ended in ("right", "score") and last.right is not None:
        gained = v.state.settings.right_points
        return p.t("ref_ended_right", player=_name(v, last.right), points=gained) if last.ended == "right" \
            else p.t("ref_question", number=last.number)
    return p.t({"wrong": "ref_ended_wrong", "window": "ref_ended_window", "skip": "ref_ended_skip",
                "reset": "ref_ended_reset"}.get(last.ended or "", "ref_ended_skip"))


def _scores(p: Painter, v: QuizView, box: pygame.Rect) -> None:
    s = v.state
    p.fill(theme.PANEL, box, radius=12)
    inner = box.inflate(-p.px(12), -p.px(10))
    teams = s.team_scores
    caption_h = p.fonts.line_height(p.px(20))
    p.text(p.t("ref_points"), pygame.Rect(inner.x, inner.y, inner.width, caption_h), 20, theme.DIM, align="left")
    area = pygame.Rect(inner.x, inner.y + caption_h + p.px(2), inner.width, inner.height - caption_h - p.px(2))
    entries: list[tuple[int | None, str, int]] = [(seat, _name(v, seat), s.scores[seat]) for seat in range(s.settings.seats)]
    if teams:
        entries += [(None, team, points) for team, points in teams]
    # One column while rows of 40 px fit, else two (eight seats and their teams).
    cols = 1 if area.height // max(1, len(entries)) >= p.px(40) else 2
    per_col = -(-len(entries) // cols)
    row_h = min(p.px(52), area.height // max(1, per_col))
    col_w = area.width // cols
    front = s.open.front if s.open is not None else None
    for i, (seat, name, points) in enumerate(entries):
        x = area.x + (i // per_col) * col_w
        y = area.y + (i % per_col) * row_h
        row = pygame.Rect(x, y, col_w - p.px(6), row_h - p.px(4))
        points_w = max(p.px(56), row.width // 3)
        label = pygame.Rect(row.x, row.y, row.width - points_w - p.px(6), row.height)
        if seat is None:
            p.fill(theme.PANEL_HI, label, radius=8)
            p.text(name, label.inflate(-p.px(8), -p.px(4)), 22, theme.TEXT, cut=True)
        else:
            p.chip(label, seat, name, px=22, lit=front is None or seat == front)
        figure = pygame.Rect(label.right + p.px(6), row.y, points_w, row.height)
        p.text(signed(points), figure, 28, theme.WARN if seat is not None and seat == front else theme.TEXT, align="right", wrap=False)


def signed(points: int) -> str:
    """Points as the screen shows them: a true minus sign (−5), not a hyphen."""
    return f"−{-points}" if points < 0 else str(points)


def _acts(p: Painter | None, v: QuizView) -> list[tuple[str, Act, theme.RGB, theme.RGB]]:
    s = v.state
    t = (lambda key: key) if p is None else p.t
    acts: list[tuple[str, Act, theme.RGB, theme.RGB]] = []
    if s.phase is Phase.IDLE:
        acts.append((t("ref_arm"), Act("arm"), theme.GOOD, theme.BLACK))
    if s.phase is Phase.ANSWERING:
        acts.append((t("ref_right"), Act("right"), theme.GOOD, theme.BLACK))
        acts.append((t("ref_wrong"), Act("wrong"), theme.BAD, theme.BLACK))
        for points in s.settings.shortcuts:
            acts.append((("+" if points > 0 else "") + signed(points), Act("score", points), theme.BUTTON,
                         theme.BUTTON_TEXT))
    if s.phase in (Phase.ARMED, Phase.SETTLING, Phase.ANSWERING):
        acts.append((t("ref_skip"), Act("skip"), theme.BUTTON, theme.BUTTON_TEXT))
    return acts


def _layout(count: int, portrait: bool) -> list[int]:
    """Buttons per row: one row in portrait; beside the line, Right and Wrong side by side and
    the shortcuts and Skip under them, three to a row."""
    if count <= 2 or portrait and count <= 3:
        return [count] if count else []
    if portrait:   # Right and Wrong wide enough for "Incorrecto": the rest on a second row
        return [2, count - 2]
    rows = [2]
    rest = count - 2
    while rest > 0:
        rows.append(min(3, rest))
        rest -= rows[-1]
    return rows


def _button_rows(v: QuizView) -> int:
    return len(_layout(len(_acts(None, v)), portrait=False))


def _buttons(p: Painter, v: QuizView, box: pygame.Rect) -> None:
    acts = _acts(p, v)
    rows = _layout(len(acts), p.portrait)
    if not rows:
        return
    h = box.height // len(rows)
    i = 0
    for r, in_row in enumerate(rows):
        w = box.width // in_row
        for col in range(in_row):
            label, act, colour, ink = acts[i]
            i += 1
            p.button(pygame.Rect(box.x + col * w, box.y + r * h, w, h), label, act, colour=colour, ink=ink, px=26)


def _footer(p: Painter, v: QuizView, room: pygame.Rect) -> str:
    """The host's next step and Esc (which asks before leaving a quiz with scores): beside it
    where both fit at full size, else on a line of its own where that fits at 20 px, else the
    step alone."""
    words = _instruction(p, v)
    # The key hint whole, and held to the step before it: a line never ends in the dot nor
    # breaks inside "Esc: beenden".
    esc = p.t("ref_race_keys_quit").replace(" ", "\u00a0")
    for joined, floor in ((f"{words}{KEY_SEPARATOR}{esc}", 26), (f"{words}\n{esc}", 20)):
        if p.layout_text(joined, room, p.px(26), p.px(floor))[2]:
            return joined
    return words


def _instruction(p: Painter, v: QuizView) -> str:
    s = v.state
    if s.phase is Phase.IDLE:
        return p.t("ref_idle" if s.questions else "ref_idle_first")
    if s.phase is Phase.ANSWERING:
        return p.t("ref_answering_hint")
    return p.t("ref_armed_hint")
