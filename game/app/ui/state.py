"""What the screen shows besides the controller's table: language, the settings and "who is
out" panels, the penalty form, how long a photo finish or a verdict stays up, recent notices and
event sentences. The console changes it; drawing only reads it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ...controller import Table
from ...engine import Event
from ...messages import Message

MS = 1_000_000
NOTICE_NS = 4_000 * MS
PHOTO_NS = 8_000 * MS
VERDICT_NS = 6_000 * MS
SUMMARY_NS = 10_000 * MS
GO_FLASH_NS = 600 * MS

PENALTY_FIELDS = ("moths", "actions", "numbers")


@dataclass(frozen=True, slots=True)
class VerdictShown:
    guilty: bool
    guard: str
    accused: str
    until_ns: int


@dataclass(frozen=True, slots=True)
class EventLine:
    """An engine event with the players' names at the time (rendered in the current language)."""

    event: Event
    names: tuple[str, ...]


@dataclass(slots=True)
class UiState:
    lang: str = "en"
    input_name: str = "keyboard"             # ui_input_<name>
    seat_keys: tuple[str, ...] = ()          # key names of the keyboard seats, by seat
    font_warning: str | None = None
    settings_open: bool = False
    out_menu: bool = False
    attract: bool = False
    pending_number: int | None = None        # keyboard card entry: the number typed
    penalty_form: dict[int, list[int]] = field(default_factory=dict)
    penalty_row: int = 0
    penalty_col: int = 0
    photo_until_ns: int = 0
    photo_go_ns: int | None = None           # GO of the race in the photo finish
    verdict: VerdictShown | None = None
    summary_until_ns: int = 0
    notices: deque[tuple[Message, int]] = field(default_factory=lambda: deque(maxlen=4))
    lines: deque[EventLine] = field(default_factory=lambda: deque(maxlen=8))

    def notice(self, now_ns: int) -> Message | None:
        """The newest notice still up at ``now_ns``."""
        for message, until in reversed(self.notices):
            if now_ns < until:
                return message
        return None

    def form(self, player: int) -> list[int]:
        return self.penalty_form.setdefault(player, [0, 0, 0])

    def overlay(self, table: Table, now_ns: int) -> str | None:
        """"verdict", "photo" or "summary" while one is up, else None."""
        if self.verdict is not None and now_ns < self.verdict.until_ns:
            return "verdict"
        if now_ns < self.summary_until_ns and table.game.scores:
            return "summary"
        if now_ns < self.photo_until_ns and table.last_race is not None and table.race is None:
            return "photo"
        return None

    def dismiss(self) -> None:
        self.verdict = None
        self.summary_until_ns = 0
        self.photo_until_ns = 0
