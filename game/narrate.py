"""One English sentence per event, for the terminal (the display issue adds the languages)."""

from __future__ import annotations

from collections.abc import Callable

from .engine import Event, GameState
from .engine.events import (
    AccusationRejected, AccusationUpheld, Accused, CardDrawn, CardGiven, CardPlayed,
    DiscardReshuffled, DisputeCancelled, GameOver, GameStarted, GiftDue, GiftSkipped,
    GuardChanged, NothingToDraw, PenaltyEntered, RaceArmed, RaceCancelled, RaceDecided,
    RoundEnded, RoundScored, RoundStarted, StarterFlipped, TurnStarted, Undone,
)
from .race import RaceKind


def seat_name(p: int) -> str:
    return f"seat {p}"


def describe(event: Event, name: Callable[[int], str] = seat_name) -> str | None:
    """A sentence for ``event``, or None for events too small to narrate (a turn starting).

    ``name`` turns a seat into what the table calls that player.
    """
    seat = name
    match event:
        case GameStarted(players=n, oldest=o, rules=rules):
            house = ", ".join(f"{k} {v}" for k, v in rules.variants().items())
            return f"New game for {n} players; {seat(o)} is the oldest and guards round 1 ({house})."
        case RoundStarted(round=r, guard=g, hand_size=h, draw_pile=d):
            return f"Round {r}: {seat(g)} is the guard and deals {h} cards each; {d} cards in the draw pile."
        case StarterFlipped(card=c):
            return f"The starter is {c}" + (" (its action does not happen)." if c.kind.is_action else ".")
        case TurnStarted():
            return None
        case CardPlayed(player=p, card=c):
            return f"{seat(p)} plays {c}."
        case CardDrawn(player=p):
            return f"{seat(p)} draws a card."
        case NothingToDraw(player=p):
            return f"{seat(p)} should draw, but there is no card left to draw."
        case DiscardReshuffled(cards=n):
            return f"The draw pile is empty: the discard pile but its top is shuffled into a new draw pile of {n}."
        case GiftDue(player=p):
            return f"Spider! {seat(p)} gives one card (never a moth) to another player."
        case CardGiven(giver=g, recipient=r):
            return f"{seat(g)} gives a card to {seat(r)}."
        case GiftSkipped(player=p):
            return f"{seat(p)} holds only moths and has nothing they may give."
        case RaceArmed(kind=RaceKind.SLAP, actor=a, eligible=e):
            return f"Mosquito! Everyone but {seat(a)} slaps at GO: {', '.join(map(seat, e))}."
        case RaceArmed(kind=RaceKind.COCKROACH, number=n):
            return f"Cockroach! Race to lay a {n} at GO."
        case RaceDecided(kind=RaceKind.SLAP, loser=l, tied=t):
            tie = f" after a tie between seats {', '.join(map(str, t))}" if t else ""
            return f"{seat(l or 0)} was slowest{tie} and receives one card from every other player."
        case RaceDecided(kind=RaceKind.COCKROACH, winner=None):
            return "Nobody could lay a matching card; play goes on."
        case RaceDecided(kind=RaceKind.COCKROACH, winner=w):
            return f"{seat(w or 0)} was fastest: their card stays on the cockroach; the others take theirs back."
        case RaceCancelled():
            return "The race is called off."
        case Accused(guard=g, accused=a):
            return f"Caught! The guard ({seat(g)}) accuses {seat(a)}. No cheating now."
        case AccusationUpheld(guard=g, accused=a):
            return f"Guilty: {seat(a)} takes the card back and one card from {seat(g)}, and becomes the guard."
        case AccusationRejected(guard=g, accused=a):
            return f"Not guilty: {seat(a)} was wrongly accused; the guard ({seat(g)}) draws a card."
        case DisputeCancelled():
            return "The accusation is dropped."
        case GuardChanged(old=o, new=n):
            return f"The Guard Bug passes from {seat(o)} to {seat(n)}."
        case RoundEnded(round=r, out=out):
            return f"Round {r} is over: {', '.join(map(seat, out))} has no cards left."
        case PenaltyEntered(player=p, moths=m, actions=a, numbers=n, points=pts):
            return f"{seat(p)} holds {m} moths, {a} action cards and {n} number cards: {pts} penalty points."
        case RoundScored(round=r, totals=t):
            return f"After round {r} the totals are {', '.join(f'{seat(p)} {x}' for p, x in enumerate(t))}."
        case GameOver(winners=w):
            return f"Game over: {' and '.join(map(seat, w))} {'wins' if len(w) == 1 else 'share the win'}."
        case Undone(command=c):
            return f"Undone: {type(c).__name__}."
    raise AssertionError(f"no sentence for {event!r}")


def standings_table(state: GameState) -> str:
    """The final standings as a small text table, best first."""
    rows = [f"{'place':>5}  {'seat':>4}  {'points':>6}  {'moths':>5}  rounds"]
    for s in state.standings():
        per_round = " ".join(f"{row[s.player].points:>3}" for row in state.scores)
        rows.append(f"{s.place:>5}  {s.player:>4}  {s.total:>6}  {s.moths:>5}  {per_round}")
    return "\n".join(rows)
