"""What an action card or a reshuffle just did, said on screen as it happens.

The engine's events reach the log and the footer's one-line ticker, which a group reading the
screen from across the table misses: "everyone else draws a card" must be the footer's message
(a notice), not only a log line. Races say their result where they are decided (races.py), and
their consequence before GO in the race's own instruction (table.py)."""

from __future__ import annotations

from ..cards import Kind
from ..engine import Command, Event, GiveCard
from ..engine.events import CardGiven, CardPlayed, DiscardReshuffled, GiftSkipped, RoundEnded
from .context import Ctx


def tell(ctx: Ctx, commands: list[Command], events: list[Event]) -> None:
    """One notice for the consequence of one step's ``commands`` and ``events``, if it has one."""
    name = ctx.table.name
    played = next((e for e in events if isinstance(e, CardPlayed)), None)
    reshuffled = next((e for e in events if isinstance(e, DiscardReshuffled)), None)
    ended = any(isinstance(e, RoundEnded) for e in events)
    # Only the spider's gift: a slap's loser and a guilty cheater also receive cards, and
    # their screens say so themselves.
    spider = any(isinstance(c, GiveCard) for c in commands)
    given = next((e for e in events if isinstance(e, (CardGiven, GiftSkipped))), None) if spider else None
    if played is not None and played.card.kind is Kind.ANT and not ended:
        # One notice for both: the footer shows only the newest, and the ant is the news.
        if reshuffled is not None:
            ctx.say("ant_drew_reshuffled", player=name(played.player), cards=reshuffled.cards)
        else:
            ctx.say("ant_drew", player=name(played.player))
    elif reshuffled is not None:
        ctx.say("reshuffled", cards=reshuffled.cards)
    elif isinstance(given, CardGiven):
        ctx.say("spider_given", giver=name(given.giver), recipient=name(given.recipient))
    elif isinstance(given, GiftSkipped):
        ctx.say("spider_skipped", player=name(given.player))
