"""The end of a round: going out, penalty entry checked against the counts and the deck,
scoring, the next guard, game over."""

from __future__ import annotations

from ..cards import Kind
from ..errors import BadPenalty, IllegalCommand
from ..variants import GuardNextRound
from . import steps
from .commands import CorrectHand, DeclareOut, EnterPenalty
from .events import DiscardReshuffled, GameOver, GuardChanged, HandCorrected, PenaltyEntered, RoundScored
from .scoring import winners
from .state import GameState, Penalty, Phase

def declare_out(state: GameState, d: steps.Draft, c: DeclareOut) -> None:
    player = steps.check_seat(state, c.player, "player")
    if player == state.guard and not state.guard_changed:
        # This guard has held the Guard Bug all round and cannot have cheated, so the
        # official count is the real one.
        raise IllegalCommand(f"seat {player} is the guard and still holds {state.hands[player]} "
                             "cards: the guard cannot cheat, so must play them all to go out")
    if not state.shed[player]:
        # Cheating never takes the last card, so a hand empties only through a play, a laid
        # card or a gift; a player who has done none of these since the deal still holds cards.
        raise IllegalCommand(f"seat {player} cannot be out of cards: they have not played, laid or "
                             "given a card since the deal and the last card can never be cheated "
                             "away; a player goes out with a play, a laid card or a gift")
    steps.end_round(d, (player,))


def enter_penalty(state: GameState, d: steps.Draft, c: EnterPenalty) -> None:
    player = steps.check_seat(state, c.player, "player")
    if player in state.out:
        raise BadPenalty(f"seat {player} went out this round and scores 0: enter penalties for seats "
                         f"{steps.seat_list(tuple(p for p in state.seats if p not in state.out))}")
    counts = {"moths": c.moths, "actions": c.actions, "numbers": c.numbers}
    for name, value in counts.items():
        if type(value) is not int or value < 0:
            raise BadPenalty(f"{name} {value!r} for seat {player} is not valid: enter a whole number 0 or more")
    penalty = Penalty(c.moths, c.actions, c.numbers)
    official = state.hands[player]
    if penalty.cards > official:
        raise BadPenalty(f"seat {player} cannot hold {penalty.cards} cards: officially they hold "
                         f"{official} (cheating only makes a hand smaller)")
    if player == state.guard and not state.guard_changed and penalty.cards != official:
        raise BadPenalty(f"seat {player} was the guard all round and cannot have cheated: enter "
                         f"exactly {official} cards, not {penalty.cards}")
    require_within_deck(state, player, penalty)
    entries = list(state.entries)
    entries[player] = penalty
    d.entries = tuple(entries)
    d.events.append(PenaltyEntered(player, c.moths, c.actions, c.numbers, penalty.points))
    if all(e is not None for e in d.entries):
        score_round(state, d)


def correct_hand(state: GameState, d: steps.Draft, c: CorrectHand) -> None:
    """Raise ``c.player``'s official count to ``c.cards``: the table forgot to tell the rig
    about draws. The cards come off the draw pile as those draws took them, through a reshuffle
    of the discard pile but its top if the draw pile ran out, so every card stays counted."""
    player = steps.check_seat(state, c.player, "player")
    if player in state.out:
        raise IllegalCommand(f"seat {player} went out this round: an empty hand has no count to correct")
    if state.entries[player] is not None:
        raise IllegalCommand(f"seat {player}'s penalty row is already entered: undo it before "
                             "correcting their count")
    official = state.hands[player]
    # Two piles can feed forgotten draws: the draw pile, then the discard pile but its top.
    reshuffle = max(len(state.discard) - 1, 0)
    most = official + state.draw_pile + reshuffle
    if type(c.cards) is not int or not official < c.cards <= most:
        raise IllegalCommand(f"cannot correct seat {player}'s count to {c.cards!r}: a correction adds "
                             f"draws the rig was not told about, so enter {official + 1} to {most} "
                             f"(officially they hold {official}; fewer cards are explained by cheating)")
    extra = c.cards - official
    if extra > d.draw_pile:
        # The draws emptied the draw pile, then the discard pile but its top became the new one.
        d.draw_pile += reshuffle
        d.discard = state.discard[-1:]
        d.events.append(DiscardReshuffled(reshuffle))
    d.draw_pile -= extra
    d.hands[player] = c.cards
    d.events.append(HandCorrected(player, official, c.cards))


def class_room(state: GameState, player: int) -> tuple[tuple[str, int, int, int], ...]:
    """Per penalty class: (name, cards in the deck, on the discard pile, entered for the other
    players). A hand can hold at most the deck minus the other two of a class."""
    deck = state.rules.deck
    pile = state.discard
    return tuple(
        (name, in_deck, on_pile,
         sum(getattr(e, name) for p, e in enumerate(state.entries) if e is not None and p != player))
        for name, in_deck, on_pile in (
            ("moths", deck.moths, sum(1 for card in pile if card.kind is Kind.MOTH)),
            ("actions", deck.actions, sum(1 for card in pile if card.kind.is_action)),
            ("numbers", deck.numbers, sum(1 for card in pile if card.kind is Kind.NUMBER)),
        ))


def require_within_deck(state: GameState, player: int, penalty: Penalty) -> None:
    """All hands together cannot hold more of a class than the deck minus the discard pile."""
    for name, in_deck, on_pile, others in class_room(state, player):
        mine = getattr(penalty, name)
        left = in_deck - on_pile - others
        if mine > left:
            raise BadPenalty(f"{name} {mine} for seat {player} is too many: the deck has {in_deck}, "
                             f"{on_pile} {'is' if on_pile == 1 else 'are'} on the discard pile and "
                             f"{others} {'is' if others == 1 else 'are'} entered for other "
                             f"players, so at most {max(left, 0)} remain")


def score_round(state: GameState, d: steps.Draft) -> None:
    row = tuple(e if e is not None else Penalty() for e in d.entries)
    d.scores = state.scores + (row,)
    finished = GameState(players=state.players, rules=state.rules, scores=d.scores)
    totals = finished.totals
    d.events.append(RoundScored(d.round, tuple(e.points for e in row), totals))
    if d.round >= d.players:
        d.phase = Phase.GAME_OVER
        d.events.append(GameOver(totals, winners(finished)))
        return
    d.phase = Phase.ROUND_SETUP
    if state.rules.guard_next_round is GuardNextRound.ROTATE_LEFT:
        new_guard = (d.guard + 1) % d.players
        d.events.append(GuardChanged(d.guard, new_guard))
        d.guard = new_guard
    d.active = d.guard
