"""F11 on a display that cannot switch to full screen (SDL's dummy driver, some KMS/DRM set-ups)
is a notice, never a crash of the loop (a guest's USB keyboard used to end the table with
``pygame.error: That operation is not supported``); a café's kiosk ignores F11."""

from __future__ import annotations

import pygame
from glass_table import GlassTable

from game.i18n.lookup import text


def test_f11_on_a_display_that_cannot_switch_is_a_notice_and_the_game_goes_on() -> None:
    g = GlassTable()
    before = g.screen
    g.key(pygame.K_F11)        # the dummy driver raises "That operation is not supported"
    g.wait(300)
    assert g.screen == before
    assert [m.key for m, _ in g.app.ui.notices if m.key == "no_fullscreen"] == ["no_fullscreen"]
    assert text("en", "no_fullscreen") == "This screen cannot switch to full screen."


def test_f11_in_a_kiosk_does_nothing() -> None:
    g = GlassTable()
    g.app.ui.locked = True
    g.key(pygame.K_F11)
    assert not g.app.console.toggle_fullscreen
    assert all(m.key != "no_fullscreen" for m, _ in g.app.ui.notices)
