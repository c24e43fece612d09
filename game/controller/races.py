"""Races at the table: arm, a seeded random fore-period, GO from the adapter, judge, decide.

From GO on, each edge is folded into a :class:`LiveJudge`, so a step costs the same with ten
edges in the race as with ten thousand (a chattering button cannot stall the table); the full
judge runs once, when the live verdict says the race is decided.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..cards import Card
from ..engine import CancelRace, DecideRace
from ..inputs import Go, Press, Release
from ..judge import RaceResult, RaceSpec, Status, format_ms
from ..judge_live import EdgeLog, LiveJudge
from ..race import RaceKind
from .context import Ctx
from .effects import Arm, ScheduleGo, WakeAt
from .state import RaceRun


#: A race run again counts down this long before its fore-period, said on the screen. A constant,
#: not a table setting: the settings are written into every table log, and a field added there
#: would make the logs of games in progress unreadable after an update.
RERUN_READY_NS = 3_000_000_000


def race_seed(seed: int, number: int) -> int:
    """The seed of race ``number`` of a session: its fore-period and any tie drawn by lot."""
    return random.Random(f"{seed}:race:{number}").getrandbits(64)


def arm(ctx: Ctx, run: int = 1, idle_reruns: int | None = None, ready: bool = False) -> None:
    """Arm the race the engine just started (or run it again after a tie).

    ``idle_reruns`` counts the runs in a row nobody answered; by default it starts again at 0,
    except when the table chose to re-run a race it was asked about: nobody answering that one
    either asks again at once. ``ready``: the race runs again (a tie, the table's Re-run, a
    result taken back, a resume): the screen counts down :data:`RERUN_READY_NS` before the
    fore-period, so that nobody is surprised by a GO within a second of the last result."""
    t = ctx.table
    if idle_reruns is None:
        idle_reruns = t.race.idle_reruns if t.race is not None and t.race.asking else 0
    race = t.game.race
    assert race is not None
    number = t.races + 1
    s = t.settings
    fore_ns = random.Random(race_seed(t.seed, number)).randint(s.fore_period_min_ns, s.fore_period_max_ns)
    # A button already down at arming is reported now and judged as held at GO if still down.
    held = [(player, t_ns) for seat, t_ns in t.held
            if (player := t.player_of(seat)) is not None and player in race.eligible]
    for player, _ in held:
        ctx.say("stuck", player=t.name(player))
    edges = tuple(Press(player, t_ns, s.clock) for player, t_ns in held)
    ready_until = t.now_t_ns + (RERUN_READY_NS if ready else 0)
    go_due = ready_until + fore_ns
    ctx.update(races=number, race=RaceRun(
        number=number, kind=race.kind, active=race.actor, eligible=race.eligible,
        armed_t_ns=t.now_t_ns, go_due_t_ns=go_due, log=EdgeLog.of(edges), run=run,
        idle_reruns=idle_reruns, ready_until_t_ns=ready_until))
    seats = tuple(t.seated[p] for p in race.eligible)
    ctx.effects += [Arm(number, seats), ScheduleGo(number, go_due, seats), WakeAt(go_due)]
    ctx.sound("ready")


def on_go(ctx: Ctx, go: Go) -> None:
    run = ctx.table.race
    if run is None or run.go_t_ns is not None or go.t_ns < run.armed_t_ns:
        ctx.say("ignored_input", what="GO")
        return
    run = replace(run, go_t_ns=go.t_ns)
    ctx.update(race=replace(run, live=LiveJudge.start(race_spec(ctx, run), run.log)))
    ctx.sound("go")
    ctx.effects.append(WakeAt(go.t_ns + ctx.table.settings.race_timeout_ns))
    decide(ctx)


def on_edge(ctx: Ctx, edge: Press | Release) -> None:
    """A seat's button edge during a race (seat numbers are physical; the judge gets players).

    A decided cockroach race keeps collecting edges while its winner shows the card: if the
    winner is voided, the next valid press (up to the timeout) wins, and the photo finish shows
    every press."""
    t = ctx.table
    run = t.race
    assert run is not None
    player = t.player_of(edge.player)
    if player is None or run.asking:
        return
    moved = type(edge)(player, edge.t_ns, edge.clock)
    if run.live is None:
        ctx.update(race=replace(run, log=run.log.add(moved)))
    else:
        ctx.update(race=replace(run, live=run.live.add(moved)))
    if run.result is None:
        decide(ctx)


def decide(ctx: Ctx) -> None:
    """Judge the race as it stands; act on a decision."""
    t = ctx.table
    run = t.race
    if run is None or run.live is None or run.result is not None or run.asking:
        return
    now = _now(ctx, run)
    verdict = run.live.verdict(now)
    false_starts = run.live.false_start_count(now)
    if false_starts > run.false_starts_heard:
        ctx.sound("false_start")
        run = replace(run, false_starts_heard=false_starts)
        ctx.update(race=run)
    if verdict.status is Status.PENDING:
        if verdict.recheck_t_ns is not None:
            ctx.effects.append(WakeAt(verdict.recheck_t_ns))
        return
    assert run.live is not None
    result = run.live.result(now)  # the full evidence, once: this step decides the race
    ctx.update(last_race=result, last_race_kind=run.kind)
    if result.rerace:
        _rerun(ctx, run, result)
        return
    if run.kind is RaceKind.SLAP:
        _decide_slap(ctx, result)
    elif result.winner is None:
        number = t.game.race.number if t.game.race is not None else 0
        ranking = tuple(p.player for p in result.ranking)
        if ctx.engine(DecideRace(ranking, false_starts=_false_starts(result), voided=run.voided)):
            ctx.say("cockroach_none", number=number)
            ctx.update(race=None)
    else:
        # The winner must now show the card: the console taps it, or voids the winner.
        ctx.update(race=replace(run, result=result))
        ctx.sound("cockroach")


def _rerun(ctx: Ctx, run: RaceRun, result: RaceResult) -> None:
    """A tie runs the race again; a second run in a row that nobody answered asks the table
    instead (re-run or call off), so a mosquito left alone cannot loop forever."""
    t = ctx.table
    idle = bool(result.no_press) and set(result.tied) <= set(result.no_press)
    if idle and run.idle_reruns >= 1:
        ctx.update(race=replace(run, asking=True))  # the screen asks (message "race_ask")
        return
    if idle:
        ctx.say("race_idle")        # a "tie" between hands that never pressed reads as nonsense
    else:
        ctx.say("race_tie", players=", ".join(t.name(p) for p in result.tied))
    arm(ctx, run=run.run + 1, idle_reruns=run.idle_reruns + 1 if idle else 0, ready=True)


def race_spec(ctx: Ctx, run: RaceRun) -> RaceSpec:
    s = ctx.table.settings
    assert run.go_t_ns is not None
    return RaceSpec(
        kind=run.kind, players=ctx.table.players, active=run.active, eligible=run.eligible,
        clock=s.clock, resolution_ns=s.resolution_ns, armed_t_ns=run.armed_t_ns, go_t_ns=run.go_t_ns,
        timeout_ns=s.race_timeout_ns, lockout_ns=s.lockout_ns, settle_ns=s.settle_ns,
        tie_policy=s.tie_policy, seed=race_seed(ctx.table.seed, run.number), voided=run.voided)


def _now(ctx: Ctx, run: RaceRun) -> int:
    assert run.go_t_ns is not None
    return max(ctx.table.now_t_ns, run.go_t_ns)


def _false_starts(result: RaceResult) -> tuple[int, ...]:
    return tuple(dict.fromkeys(f.player for f in result.false_starts))


def _decide_slap(ctx: Ctx, result: RaceResult) -> None:
    t = ctx.table
    loser = result.loser
    assert loser is not None
    ranking = tuple(p.player for p in result.ranking)
    command = DecideRace(ranking, loser=loser, tied=result.tied, false_starts=_false_starts(result))
    if ctx.engine(command):
        placing = next((p for p in result.ranking if p.player == loser), None)
        reaction = format_ms(placing.reaction_ns) if placing else "—"
        ctx.say("race_slap_result", loser=t.name(loser), reaction=reaction)
        ctx.sound("slap")
        ctx.update(race=None)


def laid(ctx: Ctx, card: Card) -> None:
    """The cockroach winner's card, tapped on the console."""
    run = ctx.table.race
    if run is None or run.result is None or run.result.winner is None:
        ctx.say("ignored_input", what="the card laid")
        return
    result = run.result
    winner = result.winner
    assert winner is not None and run.live is not None
    # The presses collected since the decision go into the record and the photo finish; the
    # winner stays the one the table was shown (only a press stamped before theirs but arriving
    # later could change it, and then the decision shown stands).
    latest = run.live.result(_now(ctx, run))
    if latest.status is Status.DECIDED and latest.winner == winner and latest.tied == result.tied:
        result = latest
    ranking = tuple(p.player for p in result.ranking)
    command = DecideRace(ranking, winner=winner, card=card, tied=result.tied,
                         false_starts=_false_starts(result), voided=run.voided)
    if ctx.engine(command):
        ctx.say("cockroach_result", winner=ctx.table.name(winner), card=str(card))
        ctx.update(race=None, last_race=result, last_race_kind=run.kind)


def void(ctx: Ctx) -> None:
    """The winner has no matching card: judge again without them; the next in line wins."""
    run = ctx.table.race
    if run is None or run.result is None or run.result.winner is None:
        ctx.say("ignored_input", what="void")
        return
    run = replace(run, voided=run.voided + (run.result.winner,), result=None)
    assert run.live is not None
    # Judged again from every edge collected so far, the voided seat's presses no longer count.
    ctx.update(race=replace(run, live=LiveJudge.start(race_spec(ctx, run), run.live.log)))
    decide(ctx)


def cancel(ctx: Ctx) -> None:
    if ctx.engine(CancelRace()):
        ctx.update(race=None)
