"""What the rig says: a message is a key and its parameters, rendered per language.

The controller and the engine's narration produce :class:`Message` records, never finished
sentences, so the display can say the same thing in every language it supports.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    """``key`` names a template; ``params`` fills it (names, numbers, card names)."""

    key: str
    params: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, key: str, **params: str | int) -> Message:
        return cls(key, tuple(sorted(params.items())))

    def render(self, catalog: dict[str, str] | None = None) -> str:
        """The sentence in ``catalog``'s language (English when none is given)."""
        template = (catalog or ENGLISH).get(self.key) or ENGLISH[self.key]
        return template.format(**dict(self.params))


#: English templates. Names are player names; {card} is e.g. "mosquito 3".
ENGLISH: dict[str, str] = {
    "join": "Press your button to take a seat ({count} seated). Hold a seated button to start with 3 to 5 players.",
    "join_full": "The table is full: 5 players at most.",
    "join_too_few": "{count} seated: at least 3 players are needed to start.",
    "oldest": "Oldest player: press your button. You guard the first round.",
    "deal": "Round {round}: {guard} deals 8 cards to everyone and flips the top card of the draw pile. Tap that card.",
    "turn": "{player}'s turn: play a {up} or a {down} on the {top} and tap it, or press your button to draw.",
    "turn_guard": "{player}'s turn (the guard): play a {up} or a {down} on the {top} and tap it, or press your button to draw.",
    "confirm_out": "{player}: press your button again to confirm you have no cards left.",
    "spider": "{player} gives one card (never a moth) to another player: that player presses their button.",
    "race_ready": "{kind_name}! Get ready… hands off the buttons until GO.",
    "race_go": "GO!",
    "race_slap_result": "{loser} was slowest ({reaction}): everyone gives {loser} one card.",
    "race_tie": "Tie between {players}: the race runs again.",
    "race_rearmed": "The race runs again from the start.",
    "cockroach_card": "{winner} was fastest ({reaction}): tap the card {winner} laid on the {number}, or void if it does not match.",
    "cockroach_none": "Nobody laid a {number}: play goes on.",
    "cockroach_result": "{winner}'s {card} stays; everyone else takes their card back.",
    "caught_pick": "Caught! {guard}: press the button of the player you accuse. No cheating now!",
    "caught_vote": "Caught! {guard} accuses {accused}. Judges, press your button for guilty. {accused} may press to admit. No cheating now!",
    "verdict_guilty": "Guilty: {accused} takes the card back and one card from {guard}; {accused} is the guard.",
    "verdict_not_guilty": "Not guilty: {guard} draws a card and stays the guard.",
    "dispute_dropped": "The accusation is dropped.",
    "penalty": "Round {round} is over: {out} has no cards left. Enter the cards left in each hand.",
    "next_round": "Round {round} is scored.",
    "game_over": "Game over: {winners} {verb} with {points} penalty points.",
    "ignored_not_guard": "Ignored: only the guard ({guard}) may call Caught!",
    "ignored_caught_now": "Ignored: Caught! cannot be called now.",
    "ignored_self_accuse": "Ignored: {guard}, press the accused's button, not your own.",
    "ignored_not_judge": "Ignored: {player} does not vote in this dispute.",
    "ignored_clock": "Ignored: input from clock {clock}, the table runs on {expected}.",
    "ignored_input": "Ignored: {what} is not used now.",
    "stuck": "{player}'s button is held down: let go of it.",
    "refused": "Not accepted: {reason}",
    "undone": "Undone.",
}
