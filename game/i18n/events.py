"""One sentence per engine event, in any of the five languages (:mod:`game.narrate` is the
English of this). Events too small to tell (a turn starting) give None."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields

from ..engine import (
    Accuse, CancelDispute, CancelRace, Command, CorrectHand, DecideRace, DeclareOut, DrawCard,
    EnterPenalty, Event, GiveCard, NewGame, PlayCard, StartRound, Verdict,
)
from ..engine.events import (
    AccusationRejected, AccusationUpheld, Accused, CardDrawn, CardGiven, CardPlayed,
    DiscardReshuffled, DisputeCancelled, GameOver, GameStarted, GiftDue, GiftSkipped,
    GuardChanged, HandCorrected, NothingToDraw, PenaltyEntered, RaceArmed, RaceCancelled, RaceDecided,
    RoundEnded, RoundScored, RoundStarted, StarterFlipped, TurnStarted, Undone,
)
from ..cards import Card
from ..race import RaceKind
from ..variants import Rules
from .lookup import card_name, text


def house_rules(rules: Rules, lang: str) -> str:
    """The variants that differ from the standard game, in words ("standard rules" if none):
    the table should read what changed, not every setting in its config spelling."""
    standard = Rules()
    changed = [f.name for f in fields(Rules) if f.name != "deck" and getattr(rules, f.name) != getattr(standard, f.name)]
    if not changed:
        return text(lang, "ev_rules_standard")
    return "; ".join(f"{text(lang, 'var_' + name)}: {text(lang, 'val_' + getattr(rules, name).value.replace('-', '_'))}"
                     for name in changed)


def seat_name(p: int) -> str:
    return f"seat {p}"


def event_text(event: Event, name: Callable[[int], str] = seat_name, lang: str = "en") -> str | None:
    """A sentence for ``event`` in ``lang``; ``name`` turns a seat into what the table calls
    that player. Raises AssertionError for an event it does not know."""
    key_params = _key_params(event, name, lang)
    if key_params is None:
        return None
    key, params = key_params
    return text(lang, key, **params)


def _listed(lang: str, names: Iterable[str]) -> str:
    """Names as a sentence lists them: "Bea, Cem and Dan" ("Bea, Cem und Dan"; Korean lists
    with commas only)."""
    *rest, last = names
    return f"{', '.join(rest)}{text(lang, 'word_and')}{last}" if rest else last


def _card(lang: str, card: Card) -> str:
    return str(card) if lang == "en" else card_name(lang, card)


def _key_params(event: Event, seat: Callable[[int], str], lang: str) -> tuple[str, dict[str, str | int]] | None:
    match event:
        case GameStarted(players=n, oldest=o, rules=rules):
            return "ev_game_started", {"players": n, "oldest": seat(o), "house": house_rules(rules, lang)}
        case RoundStarted(round=r, guard=g, hand_size=h, draw_pile=d):
            return "ev_round_started", {"round": r, "guard": seat(g), "hand": h, "draw": d}
        case StarterFlipped(card=c):
            return ("ev_starter_action" if c.kind.is_action else "ev_starter"), {"card": _card(lang, c)}
        case TurnStarted():
            return None
        case CardPlayed(player=p, card=c):
            return "ev_played", {"player": seat(p), "card": _card(lang, c)}
        case CardDrawn(player=p):
            return "ev_drawn", {"player": seat(p)}
        case NothingToDraw(player=p):
            return "ev_nothing_to_draw", {"player": seat(p)}
        case DiscardReshuffled(cards=n):
            return "ev_reshuffled", {"cards": n}
        case GiftDue(player=p):
            return "ev_gift_due", {"player": seat(p)}
        case CardGiven(giver=g, recipient=r):
            return "ev_given", {"giver": seat(g), "recipient": seat(r)}
        case GiftSkipped(player=p):
            return "ev_gift_skipped", {"player": seat(p)}
        case RaceArmed(kind=RaceKind.SLAP, actor=a, eligible=e):
            return "ev_slap_armed", {"actor": seat(a), "players": _listed(lang, map(seat, e))}
        case RaceArmed(kind=RaceKind.COCKROACH, number=n):
            return "ev_cockroach_armed", {"number": n}
        case RaceDecided(kind=RaceKind.SLAP, loser=l, tied=t):
            if t:
                return "ev_slap_decided_tie", {"loser": seat(l or 0), "seats": _listed(lang, map(seat, t))}
            return "ev_slap_decided", {"loser": seat(l or 0)}
        case RaceDecided(kind=RaceKind.COCKROACH, winner=None):
            return "ev_cockroach_nobody", {}
        case RaceDecided(kind=RaceKind.COCKROACH, winner=w):
            return "ev_cockroach_decided", {"winner": seat(w or 0)}
        case RaceCancelled():
            return "ev_race_cancelled", {}
        case Accused(guard=g, accused=a):
            return "ev_accused", {"guard": seat(g), "accused": seat(a)}
        case AccusationUpheld(guard=g, accused=a):
            return "ev_upheld", {"guard": seat(g), "accused": seat(a)}
        case AccusationRejected(guard=g, accused=a):
            return "ev_rejected", {"guard": seat(g), "accused": seat(a)}
        case DisputeCancelled():
            return "ev_dispute_cancelled", {}
        case GuardChanged(old=o, new=n):
            return "ev_guard_changed", {"old": seat(o), "new": seat(n)}
        case RoundEnded(round=r, out=out):
            return "ev_round_ended", {"round": r, "out": _listed(lang, map(seat, out))}
        case PenaltyEntered(player=p, moths=m, actions=a, numbers=n, points=pts):
            return "ev_penalty", {"player": seat(p), "moths": m, "actions": a, "numbers": n, "points": pts}
        case HandCorrected(player=p, old=o, new=n):
            return "ev_hand_corrected", {"player": seat(p), "old": o, "new": n}
        case RoundScored(round=r, totals=t):
            return "ev_round_scored", {"round": r, "totals": ", ".join(f"{seat(p)} {x}" for p, x in enumerate(t))}
        case GameOver(winners=w):
            key = "ev_game_over_one" if len(w) == 1 else "ev_game_over_many"
            return key, {"winners": _listed(lang, map(seat, w))}
        case Undone(command=c):
            return undone(c, seat, lambda card: _card(lang, card))
    raise AssertionError(f"no sentence for {event!r}")


def undone(command: Command, seat: Callable[[int], str],
           card: Callable[[Card], str] = str) -> tuple[str, dict[str, str | int]]:
    """The catalog key and parameters saying what an undo took back, in words: the table
    reads "Undone: Bea's ant 3", never the command's class name. The controller's notice and
    the event's sentence both come from here."""
    match command:
        case PlayCard(player=p, card=c):
            return "undone_play", {"player": seat(p), "card": card(c)}
        case DrawCard(player=p):
            return "undone_draw", {"player": seat(p)}
        case GiveCard(player=p, recipient=None):
            return "undone_give_none", {"player": seat(p)}
        case GiveCard(player=p, recipient=r):
            return "undone_give", {"player": seat(p), "recipient": seat(r)}
        case DeclareOut(player=p):
            return "undone_out", {"player": seat(p)}
        case EnterPenalty(player=p):
            return "undone_penalty", {"player": seat(p)}
        case CorrectHand(player=p):
            return "undone_correct", {"player": seat(p)}
        case DecideRace():
            return "undone_race", {}
        case CancelRace():
            return "undone_race_off", {}
        case Accuse(guard=g, accused=a):
            return "undone_accuse", {"guard": seat(g), "accused": seat(a)}
        case Verdict(guilty=True):
            return "undone_guilty", {}
        case Verdict():
            return "undone_not_guilty", {}
        case CancelDispute():
            return "undone_dispute_off", {}
        case StartRound(starter=c):
            return "undone_starter", {"card": card(c)}
        case NewGame():
            return "undone_new_game", {}
    raise AssertionError(f"no sentence for undoing {command!r}")
