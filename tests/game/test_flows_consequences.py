"""Issue 13 point 9: an action card's consequence is the footer's message (a notice or the
race's instruction) when it happens, in words, not only a log line."""

from __future__ import annotations

import pytest
from table_helpers import Rig, card

from game.controller import Notice, Show
from game.controller import inputs as console
from game.i18n import LANGUAGES
from game.i18n.lookup import render


@pytest.fixture
def rig() -> Rig:
    """Ali (guard), Bea and Cem at seats 0, 1, 2; Ali plays first on a 3."""
    r = Rig()
    r.seat(0, 1, 2, oldest=0)
    r.starter("number 3")
    return r


def _notices(rig: Rig) -> list[str]:
    return [e.message.render() for e in rig.last.effects if isinstance(e, Notice)]  # type: ignore[union-attr]


def _shown(rig: Rig) -> str:
    return [e.message.render() for e in rig.effects if isinstance(e, Show)][-1]


def test_an_ant_says_everyone_else_draws(rig: Rig) -> None:
    rig.play("ant 4")
    assert _notices(rig) == ["Ant: everyone but Ali draws a card."]


def test_an_ant_that_empties_the_draw_pile_says_both(rig: Rig) -> None:
    for _ in range(rig.table.game.draw_pile - 1):
        rig.draw()
    rig.play("number 4")                    # the discard pile: 3, 4
    rig.play("ant 5")                       # one card left to draw, two players draw
    assert _notices(rig) == ["Ant: everyone but " + rig.table.name((rig.table.game.active - 1) % 3)
                             + " draws a card; the draw pile ran out, so the discard pile but its top "
                             "became a new draw pile of 2 cards."]


def test_a_draw_that_reshuffles_says_so(rig: Rig) -> None:
    for _ in range(rig.table.game.draw_pile):
        rig.draw()
    rig.play("number 4")
    rig.play("number 5")
    rig.draw()
    assert _notices(rig) == ["The draw pile ran out: the discard pile but its top was shuffled into "
                             "a new draw pile of 2 cards."]


def test_a_plain_card_or_draw_says_nothing(rig: Rig) -> None:
    rig.play("number 4")
    assert _notices(rig) == []
    rig.draw()
    assert _notices(rig) == []


def test_a_last_ant_ends_the_round_and_does_not_say_its_action(rig: Rig) -> None:
    rig.play("number 4")                    # Ali (the guard) cannot cheat: Bea plays the last card
    rig.feed(console.Play(card("ant 5"), rig.at(300), True))
    assert rig.table.game.phase.value == "penalty-entry"
    assert not any("Ant:" in n for n in _notices(rig))


def test_a_spider_gift_says_who_gave_whom(rig: Rig) -> None:
    rig.play("spider 4")
    rig.press(2)                            # Cem receives Ali's card (on the press)
    assert _notices(rig) == ["Spider: Ali gave a card to Cem."]


def test_a_spider_with_only_moths_says_nothing_moves(rig: Rig) -> None:
    rig.play("spider 4")
    rig.tap_console(console.GiveTo, None)
    assert _notices(rig) == ["Spider: Ali holds only moths, so no card changes hands."]


def test_a_mosquito_says_what_the_slowest_gets_before_go(rig: Rig) -> None:
    rig.play("mosquito 4")
    assert _shown(rig) == ("Mosquito! At GO everyone but Ali slaps: the slowest receives one card "
                           "from every other player. Hands off the buttons until GO.")


def test_a_cockroach_says_only_the_fastest_card_stays(rig: Rig) -> None:
    rig.play("cockroach 4")
    assert _shown(rig) == ("Cockroach! At GO race to lay a 4: only the fastest card stays, the "
                           "others go back. Hands off the buttons until GO.")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_consequences_read_in_every_language(rig: Rig, lang: str) -> None:
    rig.play("ant 4")
    said = [e.message for e in rig.last.effects if isinstance(e, Notice)]  # type: ignore[union-attr]
    assert len(said) == 1 and "Ali" in render(said[0], lang) and "{" not in render(said[0], lang)
