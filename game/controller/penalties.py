"""Round end: a penalty row checked before the engine sees it, so a refusal names the player and
says what to do in the table's language, and a row counting more cards than the official count
offers to correct the count (the group forgot to tell the rig about a draw) instead of refusing
forever. The engine still checks every row; these checks only choose the words."""

from __future__ import annotations

from ..engine import CorrectHand, EnterPenalty, GameState, Penalty, apply, can_apply
from ..engine.round_end import class_room
from .context import Ctx
from .inputs import CorrectCount
from .inputs import Penalty as PenaltyInput


def enter(ctx: Ctx, row: PenaltyInput) -> None:
    """A confirmed row of the round-end form."""
    command = EnterPenalty(row.player, row.moths, row.actions, row.numbers)
    g = ctx.table.game
    if not can_apply(g, command) and _explain(ctx, g, command):
        ctx.sound("refused")
        return
    ctx.engine(command)  # accepted, or refused in the engine's words (a row the form cannot make)


def correct(ctx: Ctx, event: CorrectCount) -> None:
    """The screen's "Correct Bea's count to 16": the forgotten draws, told now."""
    before = ctx.table.game
    if ctx.engine(CorrectHand(event.player, event.cards)):
        official = before.hands[event.player]
        ctx.say("hand_corrected", player=ctx.table.name(event.player), cards=event.cards,
                extra=event.cards - official)


def _explain(ctx: Ctx, g: GameState, c: EnterPenalty) -> bool:
    """Say why the row is refused, naming the player; False if the form cannot have made it
    (a seat not at the table, a row already scored, a negative figure): the engine says so."""
    p = c.player
    if type(p) is not int or not 0 <= p < g.players or p in g.out or g.entries[p] is not None:
        return False
    if any(type(v) is not int or v < 0 for v in (c.moths, c.actions, c.numbers)):
        return False
    name = ctx.table.name(p)
    official = g.hands[p]
    cards = c.moths + c.actions + c.numbers
    if cards > official:
        fix = CorrectHand(p, cards)
        if can_apply(g, fix) and can_apply(apply(g, fix)[0], c):
            ctx.say("penalty_over_count", player=name, official=official, cards=cards)
            ctx.update(correction=(p, cards))
        else:
            ctx.say("penalty_too_many", player=name, official=official, cards=cards)
        return True
    if p == g.guard and not g.guard_changed and cards != official:
        ctx.say("penalty_guard_exact", player=name, official=official, cards=cards)
        return True
    left = _class_left(g, p, Penalty(c.moths, c.actions, c.numbers))
    if left is None:
        return False
    key, params = left
    ctx.say(key, player=name, **params)
    return True


def _class_left(g: GameState, p: int, row: Penalty) -> tuple[str, dict[str, int]] | None:
    """The first class the row holds more of than the hands can still hold, as a catalog key
    and its figures (the engine's own count: :func:`game.engine.round_end.class_room`)."""
    for name, in_deck, on_pile, others in class_room(g, p):
        mine = getattr(row, name)
        left = max(in_deck - on_pile - others, 0)
        if mine > left:
            return f"penalty_{name}_left", {"count": mine, "deck": in_deck, "pile": on_pile,
                                            "others": others, "left": left}
    return None
