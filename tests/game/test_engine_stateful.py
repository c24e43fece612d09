"""Random legal command sequences keep the engine's invariants (Hypothesis state machine)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from sizes import size

from game.cards import Card, Kind
from game.engine import (
    Command, DrawCard, GameState, NewGame, Phase, PlayCard, StartRound, Undo, apply, legal_commands,
)
from game.engine.events import TurnStarted
from game.errors import GameError
from game.variants import CockroachCard, CockroachRacers, GuardNextRound, Rules, TopTie

rules_strategy = st.builds(
    Rules,
    guard_next_round=st.sampled_from(GuardNextRound),
    cockroach_racers=st.sampled_from(CockroachRacers),
    cockroach_card=st.sampled_from(CockroachCard),
    top_tie=st.sampled_from(TopTie),
)

# Commands that are illegal in most states: each must raise and leave the state as it was.
PROBES: list[Command] = [
    PlayCard(0, Card(Kind.NUMBER, 1)), PlayCard(4, Card(Kind.MOTH, 3)), DrawCard(2),
    StartRound(Card(Kind.ANT, 2)), NewGame(9, 0),
]


class EngineMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state = GameState()
        self.history: list[GameState] = [self.state]
        self.round_points: list[tuple[int, ...]] = []

    @rule(players=st.integers(3, 5), data=st.data(), rules=rules_strategy)
    @precondition(lambda self: self.state.phase in (Phase.IDLE, Phase.GAME_OVER))
    def new_game(self, players: int, data: st.DataObject, rules: Rules) -> None:
        oldest = data.draw(st.integers(0, players - 1))
        self._apply(NewGame(players, oldest, rules))
        self.round_points = []

    @rule(data=st.data())
    @precondition(lambda self: self.state.phase not in (Phase.IDLE, Phase.GAME_OVER))
    def legal_step(self, data: st.DataObject) -> None:
        options = [c for c in legal_commands(self.state) if not isinstance(c, Undo)]
        assert options, f"no legal command in phase {self.state.phase}"
        event(f"phase {self.state.phase.value}")
        self._apply(data.draw(st.sampled_from(options)))

    @rule()
    @precondition(lambda self: len(self.history) > 1)
    def undo(self) -> None:
        before = self.history[-2]
        state, _ = apply(self.state, Undo())
        assert state == before
        self.history.pop()
        self.state = state

    @rule(probe=st.sampled_from(PROBES))
    def illegal_commands_change_nothing(self, probe: Command) -> None:
        before = self.state
        try:
            after, _ = apply(before, probe)
        except GameError:
            assert self.state == before
        else:
            self.history.append(after)
            self.state = after

    def _apply(self, command: Command) -> None:
        before = self.state
        state, events = apply(before, command)
        n = state.players
        # Turn order: a draw or a plain number card passes the turn to the left.
        passes = [e for e in events if isinstance(e, TurnStarted)]
        if isinstance(command, DrawCard) or (
                isinstance(command, PlayCard) and command.card.kind is Kind.NUMBER
                and state.phase is Phase.TURN):
            assert passes == [TurnStarted((command.player + 1) % n)]
        self.state = state
        self.history.append(state)

    @invariant()
    def one_guard_and_a_valid_turn(self) -> None:
        s = self.state
        if s.players:
            assert 0 <= s.guard < s.players
            assert 0 <= s.active < s.players

    @invariant()
    def piles_and_hands_never_negative(self) -> None:
        s = self.state
        assert s.draw_pile >= 0
        assert all(n >= 0 for n in s.hands)

    @invariant()
    def official_cards_are_conserved(self) -> None:
        # Cheating is invisible: officially every card is in a hand or on a pile.
        s = self.state
        if s.phase in (Phase.TURN, Phase.SPIDER_GIFT, Phase.RACE, Phase.DISPUTE, Phase.PENALTY_ENTRY):
            assert sum(s.hands) + s.draw_pile + len(s.discard) == s.rules.deck.size

    @invariant()
    def phase_records_match_the_phase(self) -> None:
        s = self.state
        assert (s.race is not None) == (s.phase is Phase.RACE)
        assert (s.dispute is not None) == (s.phase is Phase.DISPUTE)
        assert (s.gift_from is not None) == (s.phase is Phase.SPIDER_GIFT
                                             or (s.phase is Phase.DISPUTE and s.dispute is not None
                                                 and s.dispute.resume is Phase.SPIDER_GIFT))

    @invariant()
    def totals_are_the_sum_of_round_penalties(self) -> None:
        s = self.state
        assert s.totals == tuple(sum(row[p].points for row in s.scores) for p in s.seats)
        assert len(s.scores) <= s.round
        if s.phase is Phase.GAME_OVER:
            assert len(s.scores) == s.players == s.round

    @invariant()
    def out_players_have_no_penalty(self) -> None:
        s = self.state
        if s.phase is Phase.PENALTY_ENTRY:
            assert all(s.entries[p] is not None and s.entries[p].points == 0 for p in s.out)


EngineMachine.TestCase.settings = settings(
    max_examples=size(60, 150), stateful_step_count=80, deadline=None,   # 150 in the soak (tests/sizes.py)
    suppress_health_check=[HealthCheck.too_slow],
)
TestEngine = pytest.mark.soak(EngineMachine.TestCase)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_whole_game_is_reachable_by_legal_commands(players: int) -> None:
    """Always taking the first legal command that makes progress finishes a game."""
    state, _ = apply(GameState(), NewGame(players, 0))
    for _ in range(10_000):
        if state.phase is Phase.GAME_OVER:
            break
        options = [c for c in legal_commands(state) if not isinstance(c, Undo)]
        if state.phase is Phase.PENALTY_ENTRY:
            options = [c for c in options if state.entries[c.player] is None]  # type: ignore[union-attr]
        state, _ = apply(state, options[-1] if state.phase is Phase.TURN else options[0])
    assert state.phase is Phase.GAME_OVER
    assert len(state.scores) == players
