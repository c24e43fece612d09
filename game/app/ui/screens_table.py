"""Seating, the oldest player, the deal and the table itself (the discard top, whose turn it
is, the guard, the piles, hand counts and scores), the spider's gift and "who is out"."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from ...cards import Card, Kind, neighbours
from ...controller import Stage
from ...controller.table import MIN_PLAYERS
from ...engine import GameState
from ...i18n.lookup import kind_name
from . import theme
from .actions import Act
from .art.badges import token_left, token_side
from .art.card import draw_card
from .common import Scene, header, players_panel
from .paint import Painter

PLAYABLE_KINDS = (Kind.NUMBER, Kind.ANT, Kind.SPIDER, Kind.COCKROACH, Kind.MOSQUITO, Kind.MOTH)


def card_grid(p: Painter, box: pygame.Rect, numbers: Sequence[int], kinds: Sequence[Kind],
              act: str, used_up: Callable[[Card], bool] = lambda card: False) -> None:
    """Rows of kinds (named on the left), a button per number: tapping one names that card. A
    card ``used_up`` says cannot be in anyone's hand (every copy lies face up on the discard
    pile) is drawn greyed and takes no tap."""
    rows = len(kinds)
    row_h = min(p.px(56), box.height // max(rows, 1))
    label_w = int(box.width * (0.6 if len(numbers) <= 2 else 0.36))
    cell_w = (box.width - label_w) // max(len(numbers), 1)
    pad = p.px(3)
    side = token_side(p, [kind_name(p.lang, k) for k in kinds], label_w - p.px(4), row_h - p.px(4), pad)
    for r, kind in enumerate(kinds):
        y = box.y + r * row_h
        face, ink = theme.KIND_COLOURS[kind]
        label = pygame.Rect(box.x, y + p.px(2), label_w - p.px(4), row_h - p.px(4))
        p.fill(face, label, radius=8)
        words = token_left(p, kind.value, label, side, pad)
        p.text(kind_name(p.lang, kind), words.inflate(-p.px(10), -p.px(4)), 24, ink)
        for c, number in enumerate(numbers):
            cell = pygame.Rect(box.x + label_w + c * cell_w, y, cell_w, row_h)
            card = Card(kind, number)
            p.button(cell, str(number), Act(act, card), colour=face, ink=ink, px=30, enabled=not used_up(card))


def used_up(g: GameState, card: Card) -> bool:
    """Every copy of ``card`` the deck has lies on the discard pile: nobody can play it now."""
    return g.discard.count(card) >= g.rules.deck.count(card.kind, card.number)


def draw_join(p: Painter, s: Scene) -> None:
    t = s.table
    r = header(p, s, p.t("ui_join_title"))
    body = r.body.inflate(-p.px(20), -p.px(16))
    seats = t.settings.seats
    cols = 2 if p.portrait else min(seats, 4)
    rows = -(-seats // cols)
    button_h = p.px(60)
    grid = pygame.Rect(body.x, body.y, body.width, body.height - button_h - p.px(10))
    tile_w, tile_h = grid.width // cols, min(p.px(110), grid.height // rows)
    for seat in range(seats):
        cell = pygame.Rect(grid.x + (seat % cols) * tile_w, grid.y + (seat // cols) * tile_h, tile_w, tile_h)
        tile = cell.inflate(-p.px(10), -p.px(10))
        key = s.ui.seat_keys[seat] if seat < len(s.ui.seat_keys) else ""
        seated = seat in t.seated
        label = t.seat_name(seat) if seated else p.t("ui_seat", seat=seat + 1)
        if key:
            label += f"  [{key}]"
        if not seated:
            p.chip(tile, seat, label, px=28, lit=False, act=Act("seat", seat))
            continue
        # A seated tile: the name on top, and under it the button that types another name.
        half = cell.height // 2
        p.chip(pygame.Rect(tile.x, tile.y, tile.width, half - p.px(5)), seat, label, px=28,
               act=Act("seat", seat), hit=pygame.Rect(cell.x, cell.y, cell.width, half))
        p.button(pygame.Rect(cell.x, cell.y + half, cell.width, cell.height - half), p.t("ui_name"),
                 Act("keyboard", seat), px=22)
    bottom = pygame.Rect(body.x, body.bottom - button_h, body.width, button_h)
    count = pygame.Rect(bottom.x, bottom.y, bottom.width // 2 - p.px(10), bottom.height)
    _seated_or_starting(p, s, count)
    start = pygame.Rect(bottom.centerx, bottom.y, bottom.width // 2, bottom.height)
    p.button(start, p.t("ui_start"), Act("start"), colour=theme.GOOD, ink=theme.BLACK, px=30,
             enabled=t.players >= 3)


def _seated_or_starting(p: Painter, s: Scene, box: pygame.Rect) -> None:
    """How many sit, or, while a seated button is held to start, a bar filling up to the long
    press that starts the game: the player sees the hold is counted and how long is left."""
    t = s.table
    held = [x for seat, x in t.held if seat in t.seated and seat not in t.consumed]
    # A tap is no hold: the bar shows once a button has been down a quarter of the way.
    if not held or t.players < MIN_PLAYERS or s.now_ns - min(held) < t.settings.long_press_ns // 4:
        p.text(p.t("ui_seated", count=t.players), box, 30, align="left")
        return
    frac = min(1.0, max(0, s.now_ns - min(held)) / t.settings.long_press_ns)
    # The words above a bar of their own: read in one colour whatever the bar has filled.
    bar = pygame.Rect(box.x, box.bottom - p.px(16), box.width, p.px(14))
    p.text(p.t("ui_hold_start"), pygame.Rect(box.x, box.y, box.width, bar.y - box.y), 26, align="left")
    p.fill(theme.PANEL_HI, bar, radius=6)
    p.fill(theme.GOOD, pygame.Rect(bar.x, bar.y, max(1, int(bar.width * frac)), bar.height), radius=6)


def draw_oldest(p: Painter, s: Scene) -> None:
    t = s.table
    r = header(p, s, p.t("ui_oldest_title"))
    body = r.body.inflate(-p.px(20), -p.px(16))
    n = t.players
    cols = 2 if p.portrait else min(n, 3)
    rows = -(-n // cols)
    tile_w, tile_h = body.width // cols, min(p.px(110), body.height // rows)
    for player in range(n):
        tile = pygame.Rect(body.x + (player % cols) * tile_w, body.y + (player // cols) * tile_h,
                           tile_w, tile_h).inflate(-p.px(10), -p.px(10))
        p.chip(tile, t.seated[player], t.name(player), px=34, act=Act("seat", t.seated[player]))


def _split(p: Painter, body: pygame.Rect, left_frac: float) -> tuple[pygame.Rect, pygame.Rect]:
    if p.portrait:
        top_h = int(body.height * 0.42)
        return (pygame.Rect(body.x, body.y, body.width, top_h),
                pygame.Rect(body.x, body.y + top_h, body.width, body.height - top_h))
    left_w = int(body.width * left_frac)
    return (pygame.Rect(body.x, body.y, left_w, body.height),
            pygame.Rect(body.x + left_w, body.y, body.width - left_w, body.height))


def _card_box(p: Painter, area: pygame.Rect) -> pygame.Rect:
    h = min(area.height, int(area.width * 1.4))
    w = int(h / 1.4)
    return pygame.Rect(area.centerx - w // 2, area.y, w, h)


def _actions(p: Painter, box: pygame.Rect, acts: Sequence[tuple[str, Act, theme.RGB]]) -> None:
    """A row (or two) of action buttons."""
    if not acts:
        return
    per_row = len(acts) if len(acts) <= 2 or box.height < p.px(80) else -(-len(acts) // 2)
    rows = -(-len(acts) // per_row)
    w, h = box.width // per_row, box.height // rows
    for i, (label, act, colour) in enumerate(acts):
        cell = pygame.Rect(box.x + (i % per_row) * w, box.y + (i // per_row) * h, w, h)
        ink = theme.BLACK if colour in (theme.GOOD, theme.WARN) else theme.BUTTON_TEXT
        p.button(cell, label, act, colour=colour, ink=ink, px=24)


def draw_deal(p: Painter, s: Scene) -> None:
    t = s.table
    g = t.game
    r = header(p, s, p.t("ui_deal_title", round=g.round + 1, guard=t.name(g.guard)))
    body = r.body.inflate(-p.px(16), -p.px(12))
    left, right = _split(p, body, 0.34)
    # Undo (after the first round) goes under the players: the six rows of starters need the
    # whole right side to be a finger's height each.
    actions_h = p.px(56) if g.scores else 0
    players_panel(p, s, pygame.Rect(left.x + p.px(4), left.y, left.width - p.px(8), left.height - actions_h))
    hint = pygame.Rect(right.x + p.px(8), right.y, right.width - p.px(8), p.px(30))
    p.text(p.t("ui_tap_starter"), hint, 24, theme.DIM)
    grid = pygame.Rect(hint.x, hint.bottom, hint.width, right.bottom - hint.bottom)
    card_grid(p, grid, (1, 2, 3, 4, 5), PLAYABLE_KINDS, "starter")
    if actions_h:
        acts = pygame.Rect(left.x + p.px(4), left.bottom - actions_h, left.width - p.px(8), actions_h)
        _actions(p, acts, [(p.t("ui_undo"), Act("undo"), theme.BUTTON)])


def draw_play(p: Painter, s: Scene) -> None:
    t = s.table
    g = t.game
    r = header(p, s, instruction=not s.ui.out_menu)  # the out picker asks its own question
    body = r.body.inflate(-p.px(16), -p.px(10))
    top = g.discard_top
    seat = t.seated[g.active]
    toggle_h = p.px(56)  # "That was my last card": a touch target of at least 48 px
    # The guard's six rows of cards (moths too) and the action buttons must all get a finger's
    # height: in landscape Out and Undo go under the card, in portrait all four share one row.
    side: pygame.Rect | None = None
    if p.portrait:
        upper = pygame.Rect(body.x, body.y, body.width, int(body.height * 0.24))
        card_area = pygame.Rect(upper.x, upper.y, upper.width // 2, upper.height)
        info = pygame.Rect(card_area.right, upper.y, upper.width - card_area.width, upper.height - toggle_h)
        toggle = pygame.Rect(info.x, info.bottom, info.width, toggle_h)
        middle = pygame.Rect(body.x, upper.bottom + p.px(6), body.width, int(body.height * 0.31))
        console = pygame.Rect(body.x, middle.bottom, body.width, body.bottom - middle.bottom)
    else:
        card_col = pygame.Rect(body.x, body.y, int(body.width * 0.28), body.height)
        info_h = p.px(70)  # pile counts, or three lines of the last-card hint; the card gets the rest
        side_h = p.px(52)
        card_area = pygame.Rect(card_col.x, card_col.y, card_col.width,
                                card_col.height - info_h - toggle_h - side_h)
        side = pygame.Rect(card_col.x, card_area.bottom + p.px(4), card_col.width, side_h - p.px(4))
        info = pygame.Rect(card_col.x, side.bottom, card_col.width, info_h)
        toggle = pygame.Rect(card_col.x, info.bottom, card_col.width, toggle_h)
        middle = pygame.Rect(card_col.right + p.px(10), body.y, int(body.width * 0.33), body.height)
        console = pygame.Rect(middle.right + p.px(10), body.y, body.right - middle.right - p.px(10), body.height)
    draw_card(p, _card_box(p, card_area.inflate(-p.px(8), -p.px(4))), top)
    last_on = _last_card_toggle(p, s, toggle)
    if last_on:
        p.text(p.t("ui_last_card_hint", player=t.name(g.active)), info.inflate(-p.px(4), -p.px(4)), 22,
               theme.WARN)
    else:
        piles = (f"{p.t('ui_draw_pile')}: {g.draw_pile}\n{p.t('ui_discard_pile')}: {len(g.discard)}")
        p.text(piles, info.inflate(-p.px(4), -p.px(4)), 22, theme.DIM)
    turn_h = p.px(52)
    turn = pygame.Rect(middle.x, middle.y, middle.width, turn_h)
    p.chip(turn, seat, p.t("ui_turn", player=t.name(g.active)), px=32)
    players_panel(p, s, pygame.Rect(middle.x, turn.bottom + p.px(6), middle.width,
                                    middle.bottom - turn.bottom - p.px(6)))
    if s.ui.out_menu:
        draw_out_menu(p, s, console)
        return
    actions_h = p.px(48)
    grid = pygame.Rect(console.x, console.y, console.width, console.height - actions_h)
    if top is not None and t.stage is Stage.PLAY:
        up, down = neighbours(top.number)
        kinds = PLAYABLE_KINDS if g.active == g.guard else PLAYABLE_KINDS[:-1]
        card_grid(p, grid, (up, down), kinds, "play", lambda card: used_up(g, card))
        if last_on:  # the next card tapped is the player's last: say so around the cards too
            p.frame(theme.WARN, grid.inflate(p.px(4), p.px(4)), 3, radius=10)
    elif t.stage is Stage.SPIDER:
        draw_spider_choice(p, s, grid)
    acts = pygame.Rect(console.x, console.bottom - actions_h, console.width, actions_h)
    buttons = [(p.t("ui_draw"), Act("draw"), theme.GOOD)] if t.stage is Stage.PLAY else []
    buttons += [(p.t("ui_caught"), Act("caught"), theme.CAUGHT)]
    more = [(p.t("ui_out"), Act("out_menu"), theme.BUTTON), (p.t("ui_undo"), Act("undo"), theme.BUTTON)]
    if side is None:
        _actions(p, acts, buttons + more)
    else:
        _actions(p, acts, buttons)
        # Each word gets room by its length ("Sin cartas" and "Deshacer", "Fertig" and
        # "Rückgängig"): an even split cuts the longer one in some language.
        wide = [p.fonts.size(p.typeset(label), p.px(24))[0] for label, _, _ in more]
        out_w = int(side.width * min(0.65, max(0.35, wide[0] / sum(wide))))
        _actions(p, pygame.Rect(side.x, side.y, out_w, side.height), more[:1])
        _actions(p, pygame.Rect(side.x + out_w, side.y, side.width - out_w, side.height), more[1:])


def _last_card_toggle(p: Painter, s: Scene, box: pygame.Rect) -> bool:
    """"That was my last card": when on, the next card tapped is played as the player's last,
    so the round ends and an action card's action does not happen (a player who cheated holds
    fewer cards than the rig counts, so only the table can say so). Greyed out for a guard who
    has held the Guard Bug all round: they cannot have cheated, so the count tells. Only on the
    play screen; returns whether it is on."""
    t = s.table
    g = t.game
    if t.stage is not Stage.PLAY:
        return False  # a spider's gift: the card was played, and not as the last
    usable = not (g.active == g.guard and not g.guard_changed)
    on = usable and s.ui.last_card
    p.button(box, p.t("ui_last_card"), Act("last_card"), colour=theme.WARN if on else theme.BUTTON,
             ink=theme.BLACK if on else theme.BUTTON_TEXT, px=22, enabled=usable)
    return on


def draw_spider_choice(p: Painter, s: Scene, box: pygame.Rect) -> None:
    t = s.table
    giver = t.game.gift_from
    assert giver is not None
    title = pygame.Rect(box.x, box.y, box.width, p.px(44))
    p.text(p.t("ui_spider_title", player=t.name(giver)), title, 26, cut=True)
    others = [q for q in range(t.players) if q != giver]
    # Two columns: four recipients and "only moths" fit at a finger's height.
    cols = 1 if len(others) < 3 else 2
    rows = -(-len(others) // cols) + 1
    row_h = min(p.px(64), (box.bottom - title.bottom) // rows)
    col_w = box.width // cols
    for i, q in enumerate(others):
        row = pygame.Rect(box.x + (i % cols) * col_w, title.bottom + (i // cols) * row_h, col_w, row_h)
        p.chip(row.inflate(-p.px(8), -p.px(6)), t.seated[q], t.name(q), px=28, act=Act("give", q), hit=row)
    last = pygame.Rect(box.x, title.bottom + (rows - 1) * row_h, box.width, row_h)
    p.button(last, p.t("ui_only_moths"), Act("give", None), px=24)


def draw_out_menu(p: Painter, s: Scene, box: pygame.Rect) -> None:
    t = s.table
    if s.ui.out_confirm is not None and s.ui.out_confirm < t.players:
        _confirm_out(p, s, box, s.ui.out_confirm)
        return
    title = pygame.Rect(box.x, box.y, box.width, p.px(50))
    p.text(p.t("ui_who_is_out"), title, 26)
    rows = t.players + 1
    row_h = min(p.px(54), (box.bottom - title.bottom) // rows)
    for q in range(t.players):
        tile = pygame.Rect(box.x, title.bottom + q * row_h, box.width, row_h).inflate(-p.px(8), -p.px(6))
        p.chip(tile, t.seated[q], t.name(q), px=28, act=Act("out", q), hit=tile.inflate(p.px(8), p.px(6)))
    back = pygame.Rect(box.x, title.bottom + t.players * row_h, box.width, row_h)
    p.button(back, p.t("ui_back"), Act("back"), px=24)


def _confirm_out(p: Painter, s: Scene, box: pygame.Rect, player: int) -> None:
    """"Bea is out: end round 2?": going out ends the round for everyone, so it is asked."""
    t = s.table
    row_h = min(p.px(60), box.height // 4)
    question = pygame.Rect(box.x, box.y, box.width, box.height - 2 * row_h)
    p.text(p.t("ui_out_confirm", player=t.name(player), round=t.game.round), question, 28)
    yes = pygame.Rect(box.x, question.bottom, box.width, row_h)
    p.button(yes, p.t("ui_yes"), Act("out_yes"), colour=theme.GOOD, ink=theme.BLACK, px=26)
    no = pygame.Rect(box.x, yes.bottom, box.width, row_h)
    p.button(no, p.t("ui_no"), Act("out_no"), px=26)
