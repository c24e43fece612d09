"""A simulated table pressing buttons: a bot game (``simulate_game``) acted out as the presses,
ticks and console taps people would make, fed to the table controller.

``table_script`` is a generator: it yields the next input and is sent back the controller's
:class:`~game.controller.Step` for it (GO times and decisions come from the controller, as they
would from the real rig). It is deterministic for a seed, so a game killed half-way is resumed
by replaying the logged inputs through it and carrying on.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence

from ..controller import ScheduleGo, Step, TableSettings, Tick, new_table, step
from ..controller.resume import LoggedStep
from ..errors import BadTableLog
from ..controller import inputs as console
from ..controller.inputs import Input
from ..engine import (
    COMMAND_TYPES, Accuse, CancelRace, Command, DecideRace, DeclareOut, DrawCard, EnterPenalty, GiveCard, NewGame,
    PlayCard, StartRound, Verdict,
)
from ..inputs import CaughtPress, Go, Press, Release
from ..variants import Rules
from .play import simulate_game
from .reactions import Skill, early_ns, hold_ns, race_reactions, skills

MS = 1_000_000
#: Where the simulated clock starts: about 17 minutes of "uptime".
T0_NS = 1_000_000 * MS

Script = Generator[Input, Step, None]
Acting = Generator[Input, Step, None]


class ScriptError(AssertionError):
    """The controller did something other than what the bot game did: a bug, not bad input."""


def resume_script(players: int, seed: int, settings: TableSettings,
                  logged: Sequence[LoggedStep], t0_ns: int = T0_NS) -> tuple[Script, Input | None]:
    """The script of a game whose first inputs are already logged: it is replayed (on a table
    of its own, started at ``t0_ns`` like the log) up to the log's end, checking that the log is
    of this game. A log that begins with the console's ``NewGame`` (a kiosk's next game) has it
    replayed first: the players' inputs follow it. Returns the script and its next input (None
    when the game is over)."""
    script = table_script(players, seed, settings, t0_ns)
    table = new_table(settings, seed, t0_ns)
    event: Input | None = next(script)
    if logged and isinstance(logged[0].input, console.NewGame):
        table = step(table, logged[0].input).table
        logged = logged[1:]
    for number, entry in enumerate(logged, start=1):
        if event != entry.input:
            raise BadTableLog(f"step {number} of the log is {entry.input!r} but this game's players "
                              f"did {event!r} there: the log is of another game")
        made = step(table, event)
        table = made.table
        try:
            event = script.send(made)
        except StopIteration:
            event = None
    return script, event


def game_commands(players: int, seed: int, rules: Rules) -> list[Command]:
    """The engine commands of the bot game the table acts out."""
    report = simulate_game(players, seed, rules, keep_log=True)
    return [r for r in report.log if isinstance(r, COMMAND_TYPES)]


def table_script(players: int, seed: int, settings: TableSettings, t0_ns: int = T0_NS) -> Script:
    """Yield the inputs of a whole game whose table started at ``t0_ns``; expects each input's
    Step to be sent back. The players' clock starts with the table's: a table never goes back
    in time, so inputs stamped before its start would land late and miss its windows."""
    actor = _Actor(settings, t0_ns, presses_rng(seed), players)
    for command in game_commands(players, seed, settings.rules):
        actor.produced = []
        yield from actor.act(command)
        if not any(_same(command, made) for made in actor.produced):
            raise ScriptError(f"the table did not {command!r}; it did {actor.produced!r}")


def presses_rng(seed: int) -> random.Random:
    """The generator of a game's press timings: its own stream, from the game's seed, so the bot
    game's draws (play.py) and hence its decisions stay as they were."""
    return random.Random(f"cheating-moth presses {seed}")


def min_gap_ns(settings: TableSettings) -> int:
    """The closest two of the script's presses come: over the adapter's resolution, under which
    the judge would call them a tie the bot game did not have."""
    return settings.resolution_ns + settings.resolution_ns // 5 + 1


class _Actor:
    """The people at the simulated table: one clock, how quick each is, and what the controller
    last asked for."""

    def __init__(self, settings: TableSettings, t0_ns: int, rng: random.Random, players: int) -> None:
        self.s = settings
        self.rng = rng
        self.skills: tuple[Skill, ...] = skills(rng, players)
        self.t_ns = t0_ns
        self.go_t_ns: int | None = None     # GO time of the race the controller armed last
        self.armed_t_ns = t0_ns
        self.produced: list[Command] = []
        self.last: Step | None = None

    def after(self, ms: int) -> int:
        self.t_ns += ms * MS
        return self.t_ns

    def feed(self, event: Input) -> Acting:
        step = yield event
        self.last = step
        self.produced.extend(step.commands)
        for effect in step.effects:
            if isinstance(effect, ScheduleGo):
                self.go_t_ns, self.armed_t_ns = effect.t_ns, self.t_ns

    def tap(self, seat: int, hold_ms: int = 120) -> Acting:
        yield from self.feed(Press(seat, self.after(400), self.s.clock))
        yield from self.feed(Release(seat, self.after(hold_ms), self.s.clock))

    def act(self, command: Command) -> Acting:
        s = self.s
        if isinstance(command, NewGame):
            for seat in range(command.players):
                yield from self.tap(seat)
            yield from self.feed(console.StartGame(self.after(500)))
            yield from self.tap(command.oldest)
        elif isinstance(command, StartRound):
            yield from self.feed(console.Starter(command.starter, self.after(3_000)))
        elif isinstance(command, PlayCard):
            yield from self.feed(console.Play(command.card, self.after(1_500), command.last_card))
        elif isinstance(command, DrawCard):
            yield from self.tap(command.player)
        elif isinstance(command, GiveCard):
            if command.recipient is None:
                yield from self.feed(console.GiveTo(None, self.after(800)))
            else:
                yield from self.tap(command.recipient)
        elif isinstance(command, DecideRace):
            yield from self.race(command)
        elif isinstance(command, CancelRace):
            yield from self.feed(console.Cancel(self.after(300)))
        elif isinstance(command, Accuse):
            yield from self.feed(CaughtPress(self.after(700), s.clock))
            yield from self.tap(command.accused)
        elif isinstance(command, Verdict):
            yield from self.vote(command.guilty)
        elif isinstance(command, DeclareOut):
            yield from self.declare_out(command.player)
        elif isinstance(command, EnterPenalty):
            yield from self.feed(console.Penalty(command.player, command.moths, command.actions,
                                                 command.numbers, self.after(2_000)))
        else:
            raise ScriptError(f"no table action for {command!r}")

    def race(self, command: DecideRace) -> Acting:
        """False starters jump before GO; the others press after it in the bot game's order, at
        times drawn from their skills (reactions.py)."""
        s, rng = self.s, self.rng
        go_t = self.go_t_ns
        if go_t is None:
            raise ScriptError(f"{command!r} but the controller never scheduled GO")
        self.go_t_ns = None
        edges: list[Press | Release] = []
        room = go_t - self.armed_t_ns - MS   # a press at the very moment of arming would be stale
        for player in command.false_starts:
            # After arming, before GO, and let go before GO (a slapper slaps again after it).
            t = go_t - early_ns(rng, room)
            edges += [Press(player, t, s.clock), Release(player, t + hold_ns(rng, go_t - t - 1), s.clock)]
        reactions = race_reactions(rng, [self.skills[p] for p in command.ranking],
                                   deciding_first=command.winner is not None, min_gap_ns=min_gap_ns(s))
        for player, reaction in zip(command.ranking, reactions):
            t = go_t + reaction
            edges += [Press(player, t, s.clock), Release(player, t + hold_ns(rng), s.clock)]
        edges.sort(key=lambda e: e.t_ns)
        for edge in (e for e in edges if e.t_ns < go_t):
            yield from self.feed(edge)
        yield from self.feed(Go(go_t, s.clock))
        for edge in (e for e in edges if e.t_ns >= go_t):
            yield from self.feed(edge)
        self.t_ns = max(self.t_ns, go_t, *(e.t_ns for e in edges))
        if command.winner is not None:
            # A cockroach is decided once the settle window after the first press has passed;
            # then the winner shows the card they laid.
            yield from self.feed(Tick(self.after(s.settle_ns // MS + 1)))
            assert command.card is not None
            yield from self.feed(console.Laid(command.card, self.after(1_000)))
        elif not command.ranking or (command.loser is not None and command.loser not in command.ranking):
            # Nobody (else) pressed: the race is decided at its timeout.
            self.t_ns = max(self.t_ns, go_t + s.race_timeout_ns)
            yield from self.feed(Tick(self.after(1)))

    def vote(self, guilty: bool) -> Acting:
        """Guilty: just enough judges press for a majority. Not guilty: nobody votes in time."""
        if not guilty:
            self.t_ns += self.s.vote_window_ns
            yield from self.feed(Tick(self.after(1)))
            return
        yield from self.feed(Tick(self.after(1)))
        assert self.last is not None
        table = self.last.table
        dispute = table.dispute
        assert dispute is not None and dispute.accused is not None
        judges = [p for p in range(table.players) if p not in (dispute.guard, dispute.accused)]
        for judge in judges[: len(judges) // 2 + 1]:
            yield from self.tap(table.seated[judge], hold_ms=100)

    def declare_out(self, player: int) -> Acting:
        """A long press of one's own button, then a short press to confirm (the console while a
        spider gift is due, since a press then names the gift's recipient)."""
        yield from self.feed(Tick(self.after(300)))
        assert self.last is not None
        if self.last.table.stage.value == "spider":
            yield from self.feed(console.Out(player, self.after(500)))
            return
        yield from self.feed(Press(player, self.after(400), self.s.clock))
        yield from self.feed(Tick(self.after(self.s.long_press_ns // MS + 1)))
        yield from self.feed(Release(player, self.after(100), self.s.clock))
        yield from self.tap(player, hold_ms=100)


def _same(wanted: Command, made: Command) -> bool:
    """The controller's command does what the bot game's did (race evidence may differ)."""
    if isinstance(wanted, DecideRace) and isinstance(made, DecideRace):
        return (wanted.winner, wanted.loser, wanted.card) == (made.winner, made.loser, made.card)
    if isinstance(wanted, NewGame) and isinstance(made, NewGame):
        return (wanted.players, wanted.oldest) == (made.players, made.oldest)
    return wanted == made
