"""Issue 13 point 9.2: an undo says what it took back in words ("Undone: Bea's ant 3"), in
the footer's notice and the ticker's sentence, never a command's class name."""

from __future__ import annotations

import pytest
from table_helpers import Rig, card

from game.cards import Card
from game.controller import Notice
from game.controller import inputs as console
from game.engine import (
    COMMAND_TYPES, Accuse, CancelDispute, CancelRace, CorrectHand, DecideRace, DeclareOut, DrawCard, EnterPenalty,
    GiveCard, NewGame, PlayCard, StartRound, Verdict,
)
from game.engine.events import Undone
from game.i18n import LANGUAGES
from game.i18n.events import event_text
from game.i18n.lookup import render

NAMES = ("Ali", "Bea", "Cem")
EVERY_COMMAND = (
    NewGame(3, 0), StartRound(card("ant 3")), PlayCard(1, card("ant 3")), DrawCard(1),
    GiveCard(1, 2), GiveCard(1, None), DecideRace((1, 2), loser=2), CancelRace(), Accuse(0, 2),
    Verdict(True), Verdict(False), CancelDispute(), DeclareOut(1), EnterPenalty(1, 0, 1, 2),
    CorrectHand(1, 9),
)


def test_every_command_is_covered() -> None:
    from game.engine import Undo

    assert {type(c) for c in EVERY_COMMAND} | {Undo} == set(COMMAND_TYPES)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", EVERY_COMMAND, ids=lambda c: type(c).__name__)
def test_no_undo_sentence_names_a_command_class(lang: str, command: object) -> None:
    said = event_text(Undone(command), lambda p: NAMES[p], lang)  # type: ignore[arg-type]
    assert said and "{" not in said
    assert not any(t.__name__ in said for t in COMMAND_TYPES if t.__name__ != "Undo"), said


def test_the_english_sentences() -> None:
    def said(command: object) -> str | None:
        return event_text(Undone(command), lambda p: NAMES[p])  # type: ignore[arg-type]

    assert said(PlayCard(1, card("ant 3"))) == "Undone: Bea's ant 3."
    assert said(DeclareOut(1)) == "Undone: Bea going out."
    assert said(GiveCard(1, 2)) == "Undone: Bea's card to Cem."
    assert said(Accuse(0, 2)) == "Undone: Ali's accusation of Cem."
    assert said(EnterPenalty(2, 1, 0, 0)) == "Undone: Cem's penalty row."


def test_the_card_is_named_in_each_language() -> None:
    said = event_text(Undone(PlayCard(1, Card.parse("mosquito 4"))), lambda p: NAMES[p], "de")
    assert said == "Rückgängig: Mücke 4 von Bea."


@pytest.fixture
def rig() -> Rig:
    r = Rig()
    r.seat(0, 1, 2, oldest=0)
    r.starter("number 3")
    return r


def _notice(rig: Rig) -> Notice:
    return [e for e in rig.last.effects if isinstance(e, Notice)][-1]  # type: ignore[union-attr]


def test_the_controllers_undo_notice_says_what(rig: Rig) -> None:
    rig.play("number 4")
    rig.play("ant 5")                       # Bea
    rig.tap_console(console.UndoLast)
    assert _notice(rig).message.render() == "Undone: Bea's ant 5."
    assert render(_notice(rig).message, "es") == "Deshecho: la carta hormiga 5 de Bea."
    rig.tap_console(console.UndoLast)
    assert _notice(rig).message.render() == "Undone: Ali's number 4."


def test_undoing_a_declared_out_says_who(rig: Rig) -> None:
    rig.play("number 4")
    rig.play("number 5")                    # Bea may now be out (Ali guards: he cannot cheat)
    rig.tap_console(console.Out, 1)
    rig.tap_console(console.UndoLast)
    assert _notice(rig).message.render() == "Undone: Bea going out."
