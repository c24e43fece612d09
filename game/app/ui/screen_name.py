"""Which screen a scene shows: the one fact the drawing, the footer's ticker and the screen's
observer all need, so it lives apart from all three."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...controller import Stage

if TYPE_CHECKING:
    from .common import Scene


def screen_of(scene: Scene) -> str:
    """The name of the screen this scene shows."""
    ui, table = scene.ui, scene.table
    if ui.quit_ask:
        return "quit"
    if ui.resume_ask:
        return "resume"
    if ui.pin_open:
        return "pin"
    if ui.settings_open:
        return "settings"
    if ui.staff_page is not None:
        page = ui.staff_page
        return "staff" if page == "menu" else "staff-confirm" if page.startswith("confirm-") else f"staff-{page}"
    overlay = ui.overlay(table, scene.now_ns)
    if overlay == "photo" and ui.undo_ask:
        return "undo-race"
    if overlay is not None:
        return overlay
    stage = table.stage
    if stage in (Stage.JOIN, Stage.OLDEST) and ui.keyboard_seat in table.seated:
        return "keyboard"
    if stage in (Stage.PLAY, Stage.SPIDER) and ui.out_menu:
        return "out"
    return stage.value
