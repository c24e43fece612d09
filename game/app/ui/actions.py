"""What a tap, a click or a key asks for: an :class:`Act` (data). The console turns acts into
controller inputs (stamped on the input adapter's clock) or into changes of what the screen
shows (language, settings, the penalty form)."""

from __future__ import annotations

from dataclasses import dataclass

import pygame


@dataclass(frozen=True, slots=True)
class Act:
    """``kind`` names the act; ``value`` is its argument (a card, a player, a field...).

    Kinds: start, new_game, draw, caught, undo, cancel, void, rearm, play (Card), starter (Card),
    laid (Card), give (player | None), out (player: asks first), out_yes, out_no, out_menu, last_card (the next card played
    was the player's last), accuse (player), rule (bool),
    seat (physical seat: a tap of its button), penalty_add ((player, field, delta)),
    penalty_ok (player), correct_count ((player, cards): a forgotten draw, then the row again), settings, back, lang (code), variant (name), dismiss.
    """

    kind: str
    value: object = None


@dataclass(frozen=True, slots=True)
class Hotspot:
    """A touch/click area drawn on this frame and what it does."""

    rect: pygame.Rect
    act: Act
