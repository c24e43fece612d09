"""Every command the rules allow now — the generator the UI, bots and tests share.

Cards are hidden, so for a play the engine lists every kind that could carry a fitting number
and is still left in the deck, each as a normal play and as the player's last card. Two commands are listed by outcome rather than in full, because
their detail is the judge's evidence, not a choice: a race decision is listed once per possible
loser (slap) or winner and card (cockroach) with the ranking that implies it, and a penalty
entry once per (moths, actions, numbers) the official count and the deck allow.
"""

from __future__ import annotations

from ..cards import Card, Kind, neighbours
from ..race import RaceKind
from .commands import (
    Accuse, CancelDispute, CancelRace, Command, CorrectHand, DecideRace, DeclareOut, DrawCard,
    EnterPenalty, GiveCard, PlayCard, StartRound, Undo, Verdict,
)
from .rules import can_apply
from .state import GameState, Phase

#: Largest number of players a legal NewGame lists an example for (all of 3..5 with oldest 0).
_NEW_GAME_EXAMPLES = (3, 4, 5)


def legal_commands(state: GameState) -> tuple[Command, ...]:
    """All commands :func:`~game.engine.rules.apply` accepts in ``state`` (see module doc)."""
    candidates = list(_candidates(state))
    if state.previous is not None:
        candidates.append(Undo())
    return tuple(c for c in candidates if can_apply(state, c))


def _candidates(state: GameState) -> list[Command]:
    phase = state.phase
    seats = state.seats
    if phase in (Phase.IDLE, Phase.GAME_OVER):
        from .commands import NewGame

        return [NewGame(n, oldest) for n in _NEW_GAME_EXAMPLES for oldest in range(n)]
    if phase is Phase.ROUND_SETUP:
        return [StartRound(card) for card in _distinct_cards(state)]
    if phase is Phase.TURN:
        top = state.discard[-1].number
        plays: list[Command] = [
            PlayCard(state.active, Card(kind, number), last_card)
            for number in neighbours(top)
            for kind in Kind
            for last_card in (False, True)
        ]
        return plays + [DrawCard(state.active)] + _accusations(state) + [DeclareOut(p) for p in seats]
    if phase is Phase.SPIDER_GIFT:
        giver = state.gift_from
        assert giver is not None
        gifts: list[Command] = [GiveCard(giver, p) for p in seats if p != giver]
        return gifts + [GiveCard(giver, None)] + _accusations(state) + [DeclareOut(p) for p in seats]
    if phase is Phase.RACE:
        return _race_decisions(state) + [CancelRace()]
    if phase is Phase.DISPUTE:
        return [Verdict(True), Verdict(False), CancelDispute()]
    if phase is Phase.PENALTY_ENTRY:
        return _penalty_entries(state)
    raise AssertionError(f"unknown phase {phase!r}")


def _distinct_cards(state: GameState) -> list[Card]:
    return sorted(set(state.rules.deck.cards()), key=lambda c: (list(Kind).index(c.kind), c.number))


def _accusations(state: GameState) -> list[Command]:
    return [Accuse(state.guard, p) for p in state.seats if p != state.guard]


def _race_decisions(state: GameState) -> list[Command]:
    race = state.race
    assert race is not None
    eligible = race.eligible
    if race.kind is RaceKind.SLAP:
        return [
            DecideRace(ranking=tuple(p for p in eligible if p != loser) + (loser,), loser=loser)
            for loser in eligible
        ]
    decisions: list[Command] = [DecideRace(ranking=())]
    for winner in eligible:
        for kind in Kind:
            decisions.append(DecideRace(ranking=(winner,), winner=winner, card=Card(kind, race.number)))
    return decisions


def _penalty_entries(state: GameState) -> list[Command]:
    entries: list[Command] = []
    for p in state.seats:
        if p in state.out:
            continue
        n = state.hands[p]
        for moths in range(n + 1):
            for actions in range(n + 1 - moths):
                for numbers in range(n + 1 - moths - actions):
                    entries.append(EnterPenalty(p, moths, actions, numbers))
    # One forgotten draw per open row, listed after the entries: the usual case, and a caller
    # taking the first command still enters rows rather than correcting counts forever.
    return entries + [CorrectHand(p, state.hands[p] + 1) for p in state.seats
                      if p not in state.out and state.entries[p] is None]
