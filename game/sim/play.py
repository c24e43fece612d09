"""One simulated game: real cards dealt, bots act, the engine referees, cards are checked.

The bots drive the engine through the same commands the table would send; the hidden table
follows the engine's events (a ``CardDrawn`` moves a real card, a ``DiscardReshuffled`` shuffles
the real pile), so a disagreement between the two is caught at the step that caused it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..cards import Kind
from ..engine import (
    HAND_SIZE, Accuse, CancelRace, Command, DecideRace, DeclareOut, DrawCard, EnterPenalty, Event, GameState,
    GiveCard, NewGame, Phase, PlayCard, StartRound, Verdict, apply,
)
from ..engine.events import (
    AccusationRejected, AccusationUpheld, CardDrawn, CardGiven, CardPlayed, DiscardReshuffled,
)
from ..race import RaceKind
from ..variants import DrawWhenPlayable, Rules
from .bots import Policy, best_to_shed, gift_choice, matching, playable
from .hidden import ConservationError, HiddenTable

#: A round that has not ended after this many commands is a bug, not a long game.
MAX_STEPS_PER_ROUND = 20_000

StepHook = Callable[[GameState, Command, tuple[Event, ...]], None]


@dataclass(frozen=True, slots=True)
class GameReport:
    """What happened in one simulated game, for statistics and the demo."""

    players: int
    seed: int
    turns: tuple[int, ...]            # per round: plays and draws by the active player
    slaps: tuple[int, ...]            # per round
    cockroaches: tuple[int, ...]      # per round
    accusations_right: int
    accusations_wrong: int
    cheats: int                       # cards made to vanish (including ones taken back)
    vanished: tuple[int, ...]         # per round: cards still vanished when it ended
    round_points: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    checks: int                       # conservation checks passed (one per command)
    log: tuple[Command | Event, ...] = field(default=(), repr=False)


def simulate_game(players: int, seed: int, rules: Rules | None = None, policy: Policy | None = None,
                  *, keep_log: bool = False, on_step: StepHook | None = None) -> GameReport:
    """Play one whole game with bots; raises :class:`ConservationError` if a card goes astray."""
    return _Game(players, seed, rules or Rules(), policy or Policy(), keep_log, on_step).run()


class _Game:
    def __init__(self, players: int, seed: int, rules: Rules, policy: Policy, keep_log: bool,
                 on_step: StepHook | None) -> None:
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.rules = rules
        self.policy = policy
        self.cards = rules.deck.cards()
        self.state = GameState()
        self.table: HiddenTable | None = None
        self.keep_log = keep_log
        self.log: list[Command | Event] = []
        self.on_step = on_step
        self.pending_play: int | None = None
        self.checks = 0
        self.turns: list[int] = []
        self.slaps: list[int] = []
        self.cockroaches: list[int] = []
        self.vanished: list[int] = []
        self.right = self.wrong = self.cheats = 0

    # --- driving ----------------------------------------------------------------------------

    def run(self) -> GameReport:
        self.do(NewGame(self.players, self.rng.randrange(self.players), self.rules))
        while self.state.phase is not Phase.GAME_OVER:
            self.play_round()
        s = self.state
        return GameReport(
            players=self.players, seed=self.seed, turns=tuple(self.turns), slaps=tuple(self.slaps),
            cockroaches=tuple(self.cockroaches), accusations_right=self.right,
            accusations_wrong=self.wrong, cheats=self.cheats, vanished=tuple(self.vanished),
            round_points=tuple(tuple(p.points for p in row) for row in s.scores),
            totals=s.totals, winners=tuple(x.player for x in s.standings() if x.place == 1),
            checks=self.checks, log=tuple(self.log),
        )

    def play_round(self) -> None:
        self.table = HiddenTable.deal(self.cards, self.players, HAND_SIZE, self.rng)
        self.turns.append(0)
        self.slaps.append(0)
        self.cockroaches.append(0)
        self.do(StartRound(self.table.top))
        for _ in range(MAX_STEPS_PER_ROUND):
            phase = self.state.phase
            if phase is Phase.TURN or phase is Phase.SPIDER_GIFT:
                self.step()
            elif phase is Phase.RACE:
                self.race()
            elif phase is Phase.PENALTY_ENTRY:
                self.vanished.append(len(self.table.vanished))
                self.enter_penalties()
                return
            else:
                raise AssertionError(f"simulation reached phase {phase.value!r} inside a round")
        raise RuntimeError(f"round {self.state.round} of seed {self.seed} did not end "
                           f"in {MAX_STEPS_PER_ROUND} steps")

    def do(self, command: Command) -> tuple[Event, ...]:
        state, events = apply(self.state, command)
        self.state = state
        for event in events:
            self.follow(event)
        self.check()
        if self.keep_log:
            self.log.append(command)
            self.log.extend(events)
        if self.on_step is not None:
            self.on_step(state, command, events)
        return events

    # --- one step of a turn: cheating, the guard's eye, then the active player ---------------

    def step(self) -> None:
        table = self.hidden
        # An empty hand ends the round at once, before anyone can cheat or be accused.
        empty = [p for p in range(self.players) if not table.hands[p]]
        if empty:
            self.do(DeclareOut(empty[0]))
            return
        self.cheat_and_watch()
        if self.state.phase not in (Phase.TURN, Phase.SPIDER_GIFT):
            return
        if self.state.phase is Phase.SPIDER_GIFT:
            self.spider_gift()
        else:
            self.take_turn()

    def cheat_and_watch(self) -> None:
        table, s, policy, rng = self.hidden, self.state, self.policy, self.rng
        cheaters = []
        for p in range(self.players):
            # Never the guard, never the last card, one card at a time.
            if p != s.guard and len(table.hands[p]) >= 2 and rng.random() < policy.cheat_p:
                table.vanish(p, best_to_shed(self.cards, table.hands[p]))
                self.cheats += 1
                cheaters.append(p)
        if cheaters:
            self.check()
        for p in cheaters:
            if rng.random() < policy.spot_p:
                self.accuse(p, guilty=True)
                return
        if rng.random() < policy.false_accuse_p:
            innocent = [p for p in range(self.players) if p != s.guard and p not in cheaters]
            self.accuse(rng.choice(innocent), guilty=False)

    def accuse(self, accused: int, guilty: bool) -> None:
        self.do(Accuse(self.state.guard, accused))
        self.do(Verdict(guilty))

    def take_turn(self) -> None:
        table, s = self.hidden, self.state
        player = s.active
        options = playable(self.cards, table.hands[player], table.top.number, player == s.guard)
        draw_anyway = (self.rules.draw_when_playable is DrawWhenPlayable.ALLOWED
                       and self.rng.random() < self.policy.draw_anyway_p)
        self.turns[-1] += 1
        if options and not draw_anyway:
            self.play(player, best_to_shed(self.cards, options))
        else:
            self.do(DrawCard(player))

    def play(self, player: int, card_id: int) -> None:
        self.pending_play = card_id
        # The real last card of a player who cheated (so the official count says more): the
        # table says so with the play, or the engine would carry out an action card's action
        # (RULES.md: the round ends the moment a hand is empty).
        last = len(self.hidden.hands[player]) == 1 and self.state.hands[player] > 1
        self.do(PlayCard(player, self.cards[card_id], last_card=last))

    def spider_gift(self) -> None:
        s = self.state
        giver = s.gift_from
        assert giver is not None
        if gift_choice(self.cards, self.hidden.hands[giver]) is None:
            self.do(GiveCard(giver, None))  # only moths left, and a moth is never given
            return
        # Give to whoever is officially closest to going out, to slow them down.
        others = [p for p in range(self.players) if p != giver]
        recipient = min(others, key=lambda p: (s.hands[p], self.rng.random()))
        self.do(GiveCard(giver, recipient))

    def race(self) -> None:
        s, rng, policy = self.state, self.rng, self.policy
        race = s.race
        assert race is not None
        if any(not hand for hand in self.hidden.hands):
            # Someone laid their last real card (they cheated earlier, so the official count
            # did not reach 0): the round is over before the race, which is called off.
            self.do(CancelRace())
            return
        times: dict[int, int] = {}
        false_starts: list[int] = []
        for p in race.eligible:
            if race.kind is RaceKind.COCKROACH and not matching(
                    self.cards, self.hidden.hands[p], race.number, p == s.guard):
                continue  # nothing to lay: this player does not race
            if rng.random() < policy.false_start_p:
                false_starts.append(p)
                if race.kind is RaceKind.COCKROACH:
                    continue  # a false start puts a player out of a cockroach race
                # In a slap the player must let go and slap again: slower by a whole reaction.
                times[p] = policy.reaction_ns(rng) + policy.reaction_ns(rng)
            else:
                times[p] = policy.reaction_ns(rng)
        ranking = tuple(sorted(times, key=lambda p: (times[p], p)))
        if race.kind is RaceKind.SLAP:
            self.slaps[-1] += 1
            slowest = [p for p in race.eligible if p not in times] or [ranking[-1]]
            self.do(DecideRace(ranking, loser=slowest[0], false_starts=tuple(false_starts),
                               tied=tuple(slowest) if len(slowest) > 1 else ()))
            return
        self.cockroaches[-1] += 1
        if not ranking:
            self.do(DecideRace((), false_starts=tuple(false_starts)))
            return
        winner = ranking[0]
        card_id = best_to_shed(self.cards, matching(
            self.cards, self.hidden.hands[winner], race.number, winner == s.guard))
        self.pending_play = card_id
        self.do(DecideRace(ranking, winner=winner, card=self.cards[card_id],
                           false_starts=tuple(false_starts)))

    def enter_penalties(self) -> None:
        for p in range(self.players):
            if p in self.state.out:
                continue
            hand = [self.cards[i].kind for i in self.hidden.hands[p]]
            moths = hand.count(Kind.MOTH)
            actions = sum(1 for k in hand if k.is_action)
            self.do(EnterPenalty(p, moths, actions, len(hand) - moths - actions))

    # --- the hidden table follows the engine -----------------------------------------------

    @property
    def hidden(self) -> HiddenTable:
        assert self.table is not None
        return self.table

    def follow(self, event: Event) -> None:
        table = self.table
        if table is None:
            return
        kind = type(event)
        if kind is CardDrawn:
            table.draw_to(event.player)  # type: ignore[union-attr]
        elif kind is CardPlayed:
            card_id = self.pending_play
            assert card_id is not None and self.cards[card_id] == event.card  # type: ignore[union-attr]
            table.play(event.player, card_id)  # type: ignore[union-attr]
            self.pending_play = None
        elif kind is CardGiven:
            self.give(event.giver, event.recipient)  # type: ignore[union-attr]
        elif kind is DiscardReshuffled:
            table.reshuffle(self.rng)
        elif kind is AccusationUpheld:
            table.take_back(event.accused)  # type: ignore[union-attr]
            self.right += 1
        elif kind is AccusationRejected:
            self.wrong += 1

    def give(self, giver: int, recipient: int) -> None:
        table = self.hidden
        card_id = gift_choice(self.cards, table.hands[giver])
        if card_id is None:
            # Forced to give (a mosquito, a caught cheater) while holding only moths: the texts
            # are silent; the card still moves so the count stays right, and a moth it is.
            card_id = table.hands[giver][0]
        table.give(giver, recipient, card_id)

    def check(self) -> None:
        """Every card in one place, and the engine's public view matches the real cards."""
        self.checks += 1
        table = self.table
        if table is None:
            return
        table.check_conservation()
        s = self.state
        if s.phase is Phase.ROUND_SETUP:
            return
        if s.draw_pile != len(table.draw) or len(s.discard) != len(table.discard):
            raise ConservationError(
                f"seed {self.seed}: engine piles draw={s.draw_pile} discard={len(s.discard)}, "
                f"real draw={len(table.draw)} discard={len(table.discard)}")
        if s.discard[-1] != table.top:
            raise ConservationError(f"seed {self.seed}: engine top {s.discard[-1]}, real top {table.top}")
        # The official count exceeds the real one by exactly the cards cheated away.
        expected = tuple(map(operator.add, map(len, table.hands), map(len, table.cheated)))
        if expected != s.hands:
            p = next(p for p in range(self.players) if expected[p] != s.hands[p])
            raise ConservationError(
                f"seed {self.seed}: seat {p} official {s.hands[p]}, real {len(table.hands[p])}, "
                f"cheated {len(table.cheated[p])}")

