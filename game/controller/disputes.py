"""Caught!: only the guard's call counts; the guard picks the accused, the judges vote, the
table is frozen until the verdict. Majority decides; a tie favours the accused."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Accuse, CancelDispute, Verdict
from .context import Ctx
from .effects import WakeAt
from .state import DisputeRun, Stage, VerdictTally

#: Stages in which the guard may call Caught! (the engine's turn and spider-gift phases).
CAN_CALL = (Stage.PLAY, Stage.SPIDER)


def call(ctx: Ctx, by: int | None) -> None:
    """Caught! from the red button (``by`` None: it travels with the Guard Bug) or the console."""
    t = ctx.table
    guard = t.game.guard
    if by is not None and by != guard:
        ctx.say("ignored_not_guard", guard=t.name(guard))
        return
    if t.stage not in CAN_CALL:
        ctx.say("ignored_caught_now")
        return
    deadline = t.now_t_ns + t.settings.pick_window_ns
    ctx.update(dispute=DisputeRun(guard=guard, deadline_t_ns=deadline), pending_out=None)
    ctx.sound("caught")
    ctx.effects.append(WakeAt(deadline))


def pick(ctx: Ctx, accused: int) -> None:
    t = ctx.table
    d = t.dispute
    assert d is not None and d.accused is None
    if accused == d.guard:
        ctx.say("ignored_self_accuse", guard=t.name(d.guard))
        return
    if ctx.engine(Accuse(d.guard, accused)):
        deadline = t.now_t_ns + t.settings.vote_window_ns
        ctx.update(dispute=replace(d, accused=accused, deadline_t_ns=deadline))
        ctx.effects.append(WakeAt(deadline))


def needed(judges: int) -> int:
    """Guilty votes that convict: a majority of the judges (silence counts as not guilty). The
    vote screen says this figure, so it comes from the rule the count uses."""
    return judges // 2 + 1


def judges(ctx: Ctx) -> tuple[int, ...]:
    d = ctx.table.dispute
    assert d is not None
    return tuple(p for p in range(ctx.table.players) if p not in (d.guard, d.accused))


def press(ctx: Ctx, player: int) -> None:
    """A seat button during the vote: a judge votes guilty; the accused admits it."""
    d = ctx.table.dispute
    assert d is not None and d.accused is not None
    if player == d.accused:
        rule(ctx, True, "plea")  # a plea of guilty
        return
    voters = judges(ctx)
    if player not in voters:
        ctx.say("ignored_not_judge", player=ctx.table.name(player))
        return
    if player in d.votes:
        return
    d = replace(d, votes=d.votes + (player,))
    ctx.update(dispute=d)
    if len(d.votes) >= needed(len(voters)) or len(d.votes) == len(voters):
        count(ctx)


def count(ctx: Ctx) -> None:
    """The vote is over: guilty only with a majority of the judges."""
    d = ctx.table.dispute
    assert d is not None
    rule(ctx, len(d.votes) >= needed(len(judges(ctx))), "vote")


def rule(ctx: Ctx, guilty: bool, how: str = "ruled") -> None:
    t = ctx.table
    d = t.dispute
    assert d is not None and d.accused is not None
    tally = VerdictTally(guilty, d.accused, d.guard, len(d.votes), len(judges(ctx)), how)
    if ctx.engine(Verdict(guilty)):
        names = {"guard": t.name(d.guard), "accused": t.name(d.accused)}
        ctx.say("verdict_guilty" if guilty else "verdict_not_guilty", **names)
        ctx.sound("guilty" if guilty else "not_guilty")
        ctx.update(dispute=None, last_verdict=tally)


def reopen(ctx: Ctx) -> None:
    """An undo led back into the engine's dispute (a verdict taken back): the accusation is
    open again and the judges vote afresh, with a new window (the old votes were counted)."""
    d = ctx.table.game.dispute
    assert d is not None
    deadline = ctx.table.now_t_ns + ctx.table.settings.vote_window_ns
    ctx.update(dispute=DisputeRun(guard=d.guard, deadline_t_ns=deadline, accused=d.accused))
    ctx.effects.append(WakeAt(deadline))


def drop(ctx: Ctx) -> None:
    """Cancel: before the pick nothing reached the engine; after it the engine drops the dispute."""
    d = ctx.table.dispute
    assert d is not None
    if d.accused is not None and not ctx.engine(CancelDispute()):
        return
    ctx.say("dispute_dropped")
    ctx.update(dispute=None)


def tick(ctx: Ctx) -> None:
    d = ctx.table.dispute
    assert d is not None
    if ctx.table.now_t_ns < d.deadline_t_ns:
        return
    if d.accused is None:
        drop(ctx)
    else:
        count(ctx)
