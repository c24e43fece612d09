"""A buzzer board gone for the rig's whole patience (issue 21): the card game's loop and the
referee's race screen say so in one sentence (the rig's BoardAway record), in the table's
language, instead of "the board lost presses"; the table waits on for the board. Before, a
BoardAway did not exist: the game loop said nothing past the patience, and any other record
from the board read as lost presses."""

from __future__ import annotations

import pygame
from test_loop_board_errors import FlakyBoard, armed_app, notices
from test_referee_race_app import _app, _until_go

from firmware_host.boardlink.rig import BoardAway, gone_message
from game.app.ui.actions import Act
from game.i18n.lookup import render
from game.messages import Message
from game.referee.session import Phase

MS = 1_000_000


class GoneBoard(FlakyBoard):
    """A FlakyBoard whose records (the rig's BoardAway) come through drain()."""

    def __init__(self, seats: int) -> None:
        super().__init__(seats)
        self.records: list[object] = []

    def drain(self) -> list[object]:
        taken, self.records = self.records, []
        return taken


def test_the_card_game_says_the_board_is_gone_past_the_patience_and_waits() -> None:
    board = GoneBoard(4)
    app = armed_app(board)
    board.up = False                               # pulled out during the fore-period; time stands still
    board.records.append(BoardAway(gone_message(None, 10.0), 10.0))
    app.poll()
    assert "ref_board_gone_long" in notices(app) and "ui_race_voided" not in notices(app), notices(app)
    message = next(m for m, _ in app.ui.notices if m.key == "ref_board_gone_long")
    assert render(message, "en") == "The buzzer board has been gone for 10 s: check its USB cable and plug it in again."
    assert app.table.race is not None and app.table.race.result is None  # the game is untouched: it waits
    app.draw()
    pygame.quit()


def test_the_referee_calls_the_race_off_and_says_the_board_is_gone() -> None:
    app, rig, _, _ = _app("grab")
    app.host(Act("start"))
    go = _until_go(app, rig)
    rig.t_ns = go + 50 * MS
    rig.events += [BoardAway(gone_message(None, 7.0), 7.0)]  # type: ignore[list-item]
    app.poll()
    assert app.session.phase is Phase.READY and app.session.results == ()
    assert app.notice is not None and app.notice[0] == render(Message.of("ref_board_gone_long", seconds="7"), "en")
    assert "has been gone for 7 s" in app.notice[0]
