"""Game over celebrates the winner: their name in a headline, confetti moved by the clock, the
chart with a legend naming every line, and what the Moths column counts."""

from __future__ import annotations

import dataclasses

import pygame
from display_helpers import fonts, scenes

from game.app.ui.render import draw
from game.i18n.lookup import text


def _frame(now_ns: int | None = None, lang: str = "en"):  # type: ignore[no-untyped-def]
    scene = scenes()["game-over"]
    if now_ns is not None:
        scene = dataclasses.replace(scene, now_ns=now_ns)
    surface = pygame.Surface((800, 480))
    return draw(surface, fonts(lang), scene, lang), surface, scene


def test_the_winner_is_named_in_a_headline_and_every_line_of_the_chart_in_the_legend() -> None:
    frame, _, scene = _frame()
    t = scene.table
    winners = [t.name(st.player) for st in t.game.standings() if st.place == 1]
    said = [s for s, _ in frame.texts]
    key = "ui_winner_one" if len(winners) == 1 else "ui_winner_shared"
    assert text("en", key, name=" & ".join(winners)) in said
    assert all(said.count(t.name(q)) >= 2 for q in range(t.players))     # standings and legend
    assert text("en", "ui_moths_note") in said
    assert render_message(scene) not in said                              # the headline says it


def render_message(scene) -> str:  # type: ignore[no-untyped-def]
    from game.i18n.lookup import render

    return render(scene.table.message, "en")


def test_the_confetti_moves_with_the_clock_and_only_with_it() -> None:
    def shot(t_ns: int) -> bytes:
        return pygame.image.tobytes(_frame(t_ns)[1], "RGB")

    assert shot(5_000_000_000) == shot(5_000_000_000)
    assert shot(5_000_000_000) != shot(5_250_000_000)
