"""``step(table, input) -> Step``: one input in; the new table, engine commands and events, and
effects out. Stages follow the engine's phase, plus what only the table has: seating, the
oldest player's press, a race being run, the guard picking whom to accuse."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cards import neighbours
from ..engine import (
    DecideRace, DeclareOut, DrawCard, GameState, GiveCard, NewGame, Phase, PlayCard, StartRound, Undo,
)
from ..engine import Command, Event
from ..i18n.events import undone
from ..inputs import CaughtPress, CaughtRelease, Go, Press, Release
from ..messages import Message
from ..race import RaceKind
from ..variants import CockroachCard
from . import consequences, disputes, inputs as console, names, penalties, races, reactions
from .context import Ctx
from .effects import Effect, Leds, Light, Show, WakeAt
from .inputs import Input, Tick
from .settings import TableSettings
from .state import Stage, Table

MIN_PLAYERS, MAX_PLAYERS = 3, 5

_STAGE_OF_PHASE = {
    Phase.ROUND_SETUP: Stage.DEAL,
    Phase.TURN: Stage.PLAY,
    Phase.SPIDER_GIFT: Stage.SPIDER,
    Phase.RACE: Stage.RACE,
    Phase.DISPUTE: Stage.VOTE,
    Phase.PENALTY_ENTRY: Stage.PENALTY,
    Phase.GAME_OVER: Stage.GAME_OVER,
}


@dataclass(frozen=True, slots=True)
class Step:
    table: Table
    effects: tuple[Effect, ...]
    commands: tuple[Command, ...]
    events: tuple[Event, ...]


def new_table(settings: TableSettings, seed: int, t_ns: int = 0) -> Table:
    """An empty table waiting for players to take their seats."""
    table = Table(settings=settings, seed=seed, stage=Stage.JOIN, now_t_ns=t_ns, seated=(),
                  game=GameState(), message=Message.of("join", count=0))
    return replace(table, message=_message(table))


def step(table: Table, event: Input) -> Step:
    """Apply one input. Never raises on bad input: it is ignored with a notice instead."""
    ctx = Ctx(table)
    clock = getattr(event, "clock", None)
    if clock is not None and clock != table.settings.clock:
        ctx.say("ignored_clock", clock=str(clock), expected=table.settings.clock)
        return _finish(table, ctx)
    ctx.update(now_t_ns=max(table.now_t_ns, event.t_ns))
    if table.correction is not None and isinstance(event, console.CONSOLE_TYPES):
        ctx.update(correction=None)  # the offer answers the row just refused, nothing later
    _dispatch(ctx, event)
    consequences.tell(ctx, ctx.commands, ctx.events)
    return _finish(table, ctx)


# --- dispatch -------------------------------------------------------------------------------

def _dispatch(ctx: Ctx, event: Input) -> None:
    t = ctx.table
    if isinstance(event, Press):
        _press(ctx, event)
    elif isinstance(event, Release):
        _release(ctx, event)
    elif isinstance(event, Tick):
        _tick(ctx)
    elif isinstance(event, Go):
        if t.stage is Stage.RACE:
            races.on_go(ctx, event)
    elif isinstance(event, CaughtPress):
        disputes.call(ctx, None)
    elif isinstance(event, CaughtRelease):
        pass
    elif isinstance(event, console.NewGame):
        ctx.update(stage=Stage.JOIN, game=GameState(), race=None, dispute=None, pending_out=None)
    elif isinstance(event, console.UndoLast):
        _undo(ctx)
    elif isinstance(event, console.Name):
        names.rename(ctx, event.seat, event.text)
    elif isinstance(event, console.CallCaught):
        disputes.call(ctx, event.by)
    elif isinstance(event, console.Cancel) and t.stage in (Stage.PICK, Stage.VOTE):
        disputes.drop(ctx)
    elif isinstance(event, console.Cancel) and t.stage is Stage.RACE:
        if event.take_back and isinstance(t.game.command, PlayCard):
            _undo(ctx)  # the card that armed this race goes back to the hand; says so
        else:
            races.cancel(ctx)
    elif isinstance(event, console.Rearm) and t.stage is Stage.RACE and t.race is not None:
        ctx.say("race_rearmed")
        races.arm(ctx, run=t.race.run + 1, ready=True)
    else:
        _console(ctx, event)


def _console(ctx: Ctx, event: Input) -> None:
    """Console taps that belong to one stage; elsewhere they are ignored with a notice."""
    t = ctx.table
    g = t.game
    stage = t.stage
    if stage is Stage.JOIN and isinstance(event, console.StartGame):
        _start(ctx)
    elif stage in (Stage.JOIN, Stage.OLDEST) and isinstance(event, console.Configure):
        ctx.update(settings=replace(t.settings, rules=event.rules))
    elif stage is Stage.DEAL and isinstance(event, console.Starter):
        ctx.engine(StartRound(event.card))
    elif stage is Stage.PLAY and isinstance(event, console.Play):
        ctx.engine(PlayCard(g.active, event.card, event.last_card))
    elif stage is Stage.PLAY and isinstance(event, console.Draw):
        ctx.engine(DrawCard(g.active))
    elif stage is Stage.SPIDER and isinstance(event, console.GiveTo):
        assert g.gift_from is not None
        ctx.engine(GiveCard(g.gift_from, event.recipient))
    elif stage in (Stage.PLAY, Stage.SPIDER) and isinstance(event, console.Out):
        _declare_out(ctx, event.player)
    elif stage is Stage.RACE and isinstance(event, console.Laid):
        races.laid(ctx, event.card)
    elif stage is Stage.RACE and isinstance(event, console.Void):
        races.void(ctx)
    elif stage is Stage.PICK and isinstance(event, console.Accuse):
        disputes.pick(ctx, event.accused)
    elif stage is Stage.VOTE and isinstance(event, console.Rule):
        disputes.rule(ctx, event.guilty)
    elif stage is Stage.PENALTY and isinstance(event, console.Penalty):
        penalties.enter(ctx, event)
    elif stage is Stage.PENALTY and isinstance(event, console.CorrectCount):
        penalties.correct(ctx, event)
    else:
        ctx.say("ignored_input", what=type(event).__name__)


# --- buttons --------------------------------------------------------------------------------

def _press(ctx: Ctx, press: Press) -> None:
    t = ctx.table
    seat = press.player
    if seat >= t.settings.seats:
        ctx.say("ignored_input", what=f"seat {seat + 1}")
        return
    ctx.update(held=tuple((s, x) for s, x in t.held if s != seat) + ((seat, press.t_ns),),
               consumed=tuple(s for s in t.consumed if s != seat))
    stage = t.stage
    if stage in (Stage.JOIN, Stage.PLAY, Stage.SPIDER):
        ctx.effects.append(WakeAt(press.t_ns + t.settings.long_press_ns))  # a long press?
    player = t.player_of(seat)
    if stage not in (Stage.JOIN, Stage.PLAY) and not (stage is Stage.SPIDER and player == t.game.gift_from):
        # This press is used now (a race edge, a pick, a vote, a recipient): its release must
        # not count as a short press once the table has moved on.
        ctx.update(consumed=ctx.table.consumed + (seat,))
    if stage is Stage.JOIN:
        _join(ctx, seat)
    elif player is None:
        return  # an empty seat's button does nothing once the game has started
    elif stage is Stage.OLDEST:
        ctx.engine(NewGame(t.players, player, t.settings.rules))
    elif stage is Stage.RACE:
        races.on_edge(ctx, press)
    elif stage is Stage.PICK:
        disputes.pick(ctx, player)
    elif stage is Stage.VOTE:
        disputes.press(ctx, player)
    elif stage is Stage.SPIDER and player != t.game.gift_from:
        ctx.engine(GiveCard(t.game.gift_from, player))  # type: ignore[arg-type]
    # In PLAY (and the giver in SPIDER) a press means something only once we know whether it
    # was short (draw / confirm) or long (declare out): decided on release or by a tick.


def _release(ctx: Ctx, release: Release) -> None:
    t = ctx.table
    seat = release.player
    started = dict(t.held).get(seat)
    fired = seat in t.consumed
    ctx.update(held=tuple((s, x) for s, x in t.held if s != seat),
               consumed=tuple(s for s in t.consumed if s != seat))
    if t.stage is Stage.RACE:
        races.on_edge(ctx, release)
        return
    if started is None or fired:
        return
    if release.t_ns - started >= t.settings.long_press_ns:
        _long_press(ctx, seat)
    else:
        _short_press(ctx, seat)


def _short_press(ctx: Ctx, seat: int) -> None:
    t = ctx.table
    player = t.player_of(seat)
    if player is None:
        return
    if t.pending_out is not None and t.pending_out[0] == player:
        ctx.update(pending_out=None)
        _declare_out(ctx, player)
    elif t.stage is Stage.PLAY and player == t.game.active:
        ctx.engine(DrawCard(player))


def _long_press(ctx: Ctx, seat: int) -> None:
    t = ctx.table
    ctx.update(consumed=t.consumed + (seat,))
    player = t.player_of(seat)
    if t.stage is Stage.JOIN and player is not None:
        _start(ctx)
    elif t.stage in (Stage.PLAY, Stage.SPIDER) and player is not None:
        if not _may_be_out(ctx, player):
            return  # said so now, rather than after a confirming press
        deadline = t.now_t_ns + t.settings.confirm_out_ns
        ctx.update(pending_out=(player, deadline))
        ctx.effects.append(WakeAt(deadline))


def _tick(ctx: Ctx) -> None:
    t = ctx.table
    for seat, started in t.held:
        if seat not in ctx.table.consumed and t.now_t_ns - started >= t.settings.long_press_ns:
            if t.stage is not Stage.RACE:
                _long_press(ctx, seat)
    t = ctx.table
    if t.pending_out is not None and t.now_t_ns >= t.pending_out[1]:
        ctx.update(pending_out=None)
    if t.stage is Stage.RACE:
        races.decide(ctx)
    elif t.stage in (Stage.PICK, Stage.VOTE):
        disputes.tick(ctx)


def _may_be_out(ctx: Ctx, player: int) -> bool:
    """False, with a notice naming the player, if they have not played, laid or given a card
    this round: their hand cannot be empty (the engine refuses it too, but by seat number)."""
    t = ctx.table
    if type(player) is not int or not 0 <= player < t.players or t.game.shed[player]:
        return True  # a seat that is not at the table is the engine's to refuse
    ctx.say("out_not_yet", player=t.name(player))
    ctx.sound("refused")
    return False


def _declare_out(ctx: Ctx, player: int) -> None:
    if _may_be_out(ctx, player):
        ctx.engine(DeclareOut(player))


def _join(ctx: Ctx, seat: int) -> None:
    t = ctx.table
    if seat in t.seated:
        return
    if t.players >= MAX_PLAYERS:
        ctx.say("join_full")
        return
    ctx.update(seated=tuple(sorted(t.seated + (seat,))))
    ctx.sound(f"seat_{seat}")


def _start(ctx: Ctx) -> None:
    t = ctx.table
    if t.players < MIN_PLAYERS:
        ctx.say("join_too_few", count=t.players)
        return
    ctx.update(stage=Stage.OLDEST)


def _undo(ctx: Ctx) -> None:
    if ctx.table.stage in (Stage.JOIN, Stage.OLDEST) and ctx.table.game.previous is None:
        ctx.say("ignored_input", what="undo")
        return
    command = ctx.table.game.command
    if ctx.engine(Undo()):
        ctx.rerun = isinstance(command, DecideRace)   # the race runs again: after a countdown
        ctx.update(race=None, dispute=None, pending_out=None)
        g = ctx.table.game
        if g.phase is Phase.DISPUTE:
            disputes.reopen(ctx)         # a verdict taken back: the vote runs again
        elif g.phase is Phase.IDLE:
            ctx.update(stage=Stage.OLDEST)   # the new game taken back: who is the oldest?
        assert command is not None  # the engine undid it
        key, params = undone(command, ctx.table.name)
        ctx.say(key, **params)


# --- after every input: stage, race arming, screen and LEDs ----------------------------------

def _finish(before: Table, ctx: Ctx) -> Step:
    _sync_stage(ctx)
    times = reactions.track(ctx.table.race_times, ctx.table.last_race, ctx.commands, ctx.events)
    if times != ctx.table.race_times:
        ctx.update(race_times=times)
    t = ctx.table
    message = _message(t)
    if t.stage is not before.stage or message != before.message:
        ctx.effects.append(Show(t.stage.value, message))
        ctx.update(message=message)
    leds = _leds(ctx.table)
    if leds != _leds(before):
        ctx.effects.append(leds)
    return Step(ctx.table, tuple(ctx.effects), tuple(ctx.commands), tuple(ctx.events))


def _sync_stage(ctx: Ctx) -> None:
    t = ctx.table
    phase = t.game.phase
    if phase is Phase.IDLE or (t.stage in (Stage.JOIN, Stage.OLDEST) and phase is Phase.GAME_OVER):
        return  # seating and the oldest player's press come before the engine's game
    if t.dispute is not None and t.dispute.accused is None and phase in (Phase.TURN, Phase.SPIDER_GIFT):
        stage = Stage.PICK
    else:
        stage = _STAGE_OF_PHASE[phase]
        if t.dispute is not None and phase is not Phase.DISPUTE:
            ctx.update(dispute=None)
    if stage is Stage.PENALTY and t.stage is not Stage.PENALTY:
        ctx.sound("round_over")
    if stage is Stage.GAME_OVER and t.stage is not Stage.GAME_OVER:
        ctx.sound("game_won")
    if stage is not t.stage:
        # A button held across a change of stage belongs to the old stage: its release is not
        # a press in the new one.
        ctx.update(consumed=tuple(seat for seat, _ in t.held))
    ctx.update(stage=stage)
    if stage is Stage.RACE and ctx.table.race is None:
        races.arm(ctx, ready=ctx.rerun)
    if stage is not Stage.RACE and ctx.table.race is not None:
        ctx.update(race=None)


def _message(t: Table) -> Message:
    g = t.game
    stage = t.stage
    if stage is Stage.JOIN:
        return Message.of("join", count=t.players)
    if stage is Stage.OLDEST:
        return Message.of("oldest")
    if stage is Stage.DEAL:
        return Message.of("deal", round=g.round + 1, guard=t.name(g.guard))
    if stage is Stage.PLAY:
        if t.pending_out is not None:
            return Message.of("confirm_out", player=t.name(t.pending_out[0]))
        top = g.discard[-1].number
        up, down = neighbours(top)
        key = "turn_guard" if g.active == g.guard else "turn"
        return Message.of(key, player=t.name(g.active), up=up, down=down, top=top)
    if stage is Stage.SPIDER:
        assert g.gift_from is not None
        return Message.of("spider", player=t.name(g.gift_from))
    if stage is Stage.RACE:
        run = t.race
        if run is not None and run.result is not None and run.result.winner is not None:
            from ..judge import format_ms

            winner = run.result.winner
            placing = next(p for p in run.result.ranking if p.player == winner)
            number = g.race.number if g.race is not None else 0
            # The house rule for the card being laid, said while it is tapped.
            key = "cockroach_card_chain" if g.rules.cockroach_card is CockroachCard.CHAIN else "cockroach_card"
            return Message.of(key, winner=t.name(winner),
                              reaction=format_ms(placing.reaction_ns), number=number)
        if run is not None and run.asking:
            return Message.of("race_ask")
        if run is not None and run.go_t_ns is not None:
            return Message.of("race_go")
        # What the race decides, said before GO: the group reads what is at stake while waiting.
        if g.race is not None and g.race.kind is RaceKind.COCKROACH:
            return Message.of("race_ready_cockroach", number=g.race.number)
        actor = g.race.actor if g.race is not None else g.active
        return Message.of("race_ready_slap", actor=t.name(actor))
    if stage is Stage.PICK:
        return Message.of("caught_pick", guard=t.name(g.guard))
    if stage is Stage.VOTE:
        d = t.dispute
        accused = d.accused if d is not None and d.accused is not None else 0
        guard = d.guard if d is not None else g.guard
        return Message.of("caught_vote", guard=t.name(guard), accused=t.name(accused))
    if stage is Stage.PENALTY:
        return Message.of("penalty", round=g.round, out=", ".join(t.name(p) for p in g.out))
    standings = g.standings()
    winners = [s for s in standings if s.place == 1]
    return Message.of("game_over", winners=" & ".join(t.name(s.player) for s in winners),
                      verb="wins" if len(winners) == 1 else "share the win",
                      points=winners[0].total if winners else 0)


def _leds(t: Table) -> Leds:
    lights = [Light.OFF] * t.settings.seats
    g = t.game
    stage = t.stage

    def set_player(player: int, light: Light) -> None:
        lights[t.seated[player]] = light

    caught = Light.OFF
    if stage is Stage.JOIN:
        for seat in t.seated:
            lights[seat] = Light.ON
    elif stage is Stage.OLDEST:
        for p in range(t.players):
            set_player(p, Light.VOTING)
    elif stage in (Stage.DEAL, Stage.PLAY, Stage.SPIDER, Stage.PENALTY):
        set_player(g.guard, Light.SLOW)
        if stage is Stage.PLAY:
            set_player(g.active, Light.ON)
            caught = Light.ON
        elif stage is Stage.SPIDER:
            for p in range(t.players):
                set_player(p, Light.VOTING)
            assert g.gift_from is not None
            set_player(g.gift_from, Light.ON)
            caught = Light.ON
        if t.pending_out is not None:
            set_player(t.pending_out[0], Light.VOTING)
    elif stage is Stage.RACE and t.race is not None:
        run = t.race
        for p in run.eligible:
            # While the table is asked whether to re-run, no button is live: all stay dark.
            if not run.asking:
                set_player(p, Light.ON if run.go_t_ns is not None else Light.ARMED)
        if run.result is not None and run.result.winner is not None:
            set_player(run.result.winner, Light.WINNER)
    elif stage is Stage.PICK:
        for p in range(t.players):
            set_player(p, Light.VOTING)
        set_player(g.guard, Light.SLOW)
        caught = Light.VOTING
    elif stage is Stage.VOTE and t.dispute is not None and t.dispute.accused is not None:
        d = t.dispute
        accused = t.dispute.accused
        for p in range(t.players):
            set_player(p, Light.OFF if p in d.votes else Light.VOTING)
        set_player(d.guard, Light.SLOW)
        set_player(accused, Light.LOSER)
        caught = Light.VOTING
    elif stage is Stage.GAME_OVER:
        for s in g.standings():
            if s.place == 1:
                set_player(s.player, Light.WINNER)
    return Leds(tuple(lights), caught)
