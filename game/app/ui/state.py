"""What the screen shows besides the controller's table: language, the settings and "who is
out" panels, the penalty form, how long a photo finish or a verdict stays up, recent notices and
event sentences; in a café (kiosk mode) also the staff gate (PIN keypad), the staff menu's page
and the leaderboard shown in attract mode. The console changes it; drawing only reads it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...controller import Table
from ...engine import Event
from ...messages import Message
from ..leaderboard import Fastest, Row
from ..rigconfig import CHEATING_MOTH, RigConfig

if TYPE_CHECKING:
    from ..kiosk import TableGame

MS = 1_000_000
NOTICE_NS = 4_000 * MS
PHOTO_NS = 8_000 * MS
VERDICT_NS = 6_000 * MS
SUMMARY_NS = 10_000 * MS
GO_FLASH_NS = 600 * MS
#: A seat button continues past a photo finish, verdict or summary only once it has been up
#: this long: a slap's late bounce or a second slap must not wipe the photo finish unseen.
CONTINUE_AFTER_NS = 1_500 * MS
#: The result screens: each stays up until Continue (a tap, Enter or a seat button) wherever
#: people play. They went by themselves once, and a tap meant for Continue then landed on the
#: screen underneath (issue 20); only the unattended demo and a scripted game let them time out.
RESULT_SCREENS = ("photo", "verdict", "summary")
#: How long a result screen stays up in the demo and in scripted games (``UiState.auto_continue``).
RESULT_NS = {"photo": PHOTO_NS, "verdict": VERDICT_NS, "summary": SUMMARY_NS}

PENALTY_FIELDS = ("moths", "actions", "numbers")
#: The staff menu's pages (``UiState.staff_page``); the rules and language page is the
#: settings screen (``settings_open``) reached from the menu.
STAFF_PAGES = ("menu", "timings", "deck", "confirm-reset", "confirm-end", "confirm-shutdown")
PIN_DIGITS = 8
#: The PIN keypad without a touchscreen (opened by the button combination): seat 1's button
#: turns a dial through the digits 0-9 and then "Delete" (DIAL_DELETE), seat 2's button keeps
#: the digit shown (or, on Delete, erases the last one kept), the Caught! button is OK. Three
#: buttons every rig has, each press one step, no timing: staff can do it slowly and carefully.
DIAL_SEAT, KEEP_SEAT = 0, 1
DIAL_DELETE = 10
#: The race timings staff may change (RigConfig fields) and the step of one tap on - or +.
STAFF_TIMINGS: tuple[tuple[str, int], ...] = (
    ("fore_period_min_ms", 100), ("fore_period_max_ms", 100), ("race_timeout_ms", 250),
    ("pick_window_ms", 1_000), ("vote_window_ms", 1_000))
VOLUME_STEP = 10


@dataclass(frozen=True, slots=True)
class BoardView:
    """The leaderboard as attract mode shows it: one period ("today", "week", "all")."""

    period: str
    rows: tuple[Row, ...]
    fastest: tuple[Fastest, ...] = ()        # the period's fastest slaps, fastest first


@dataclass(frozen=True, slots=True)
class Shown:
    """A result screen waiting for Continue: which one, when it went up and, for a photo
    finish, the number of the race it shows (the screen goes if that race is taken back)."""

    screen: str                              # one of RESULT_SCREENS
    at_ns: int
    race: int = 0
    said: tuple[Message, ...] = ()           # what it means for the table, said for as long as it is up


@dataclass(frozen=True, slots=True)
class VerdictShown:
    guilty: bool
    guard: str
    accused: str
    votes: int = 0                           # judges who pressed for guilty
    judges: int = 0
    how: str = "vote"                        # "vote", "plea" or "ruled" (controller.VerdictTally)


def own_layout(lang: str) -> str:
    """The name keyboard's layout for ``lang``: Hangul for Korean, Latin for the others. The
    keyboard opens on it, and turns to it when the language changes while it is up."""
    return "hangul" if lang == "ko" else "latin"


@dataclass(frozen=True, slots=True)
class EventLine:
    """An engine event with the players' names at the time (rendered in the current language)."""

    event: Event
    names: tuple[str, ...]
    screen: str = ""        # the screen it happened under: the ticker shows it only there


@dataclass(slots=True)
class UiState:
    lang: str = "en"
    input_name: str = "keyboard"             # ui_input_<name>
    seat_keys: tuple[str, ...] = ()          # key names of the keyboard seats, by seat
    font_warning: str | None = None
    settings_open: bool = False
    out_menu: bool = False
    out_confirm: int | None = None           # the out picker's player, waiting for Yes or No
    last_card: bool = False                  # "That was my last card" is on for the next card
    attract: bool = False
    # -- the name keyboard (join screen): whose name, what is typed, which keys ---------------
    keyboard_seat: int | None = None         # the physical seat typing its name; None: closed
    keyboard_text: str = ""
    keyboard_layout: str = "latin"           # "latin" or "hangul" (keyboard.LAYOUTS); own_layout(lang) on opening
    keyboard_shift: bool = False             # the next letter's case flipped (keyboard.capital)
    game_over_at_ns: int = 0                 # when game over came up (screens_reactions takes turns)
    pending_number: int | None = None        # keyboard card entry: the number typed
    penalty_form: dict[int, list[int]] = field(default_factory=dict)
    penalty_row: int = 0
    penalty_col: int = 0
    results: list[Shown] = field(default_factory=list)   # result screens waiting, oldest first
    auto_continue: bool = False              # the demo, a scripted game: results go by themselves
    photo_go_ns: int | None = None           # GO of the race in the photo finish
    verdict: VerdictShown | None = None
    undo_ask: bool = False                   # the photo finish asks "Take back the result?"
    quit_ask: bool = False                   # Esc or the close box on a game: "Leave the game?"
    resume_ask: bool = False                 # a saved game at start: "Carry on the last game?"
    resume_choice: bool | None = None        # the answer, for the app to act on (True: carry on)
    notices: deque[tuple[Message, int]] = field(default_factory=lambda: deque(maxlen=4))
    lines: deque[EventLine] = field(default_factory=lambda: deque(maxlen=8))
    # -- kiosk mode ------------------------------------------------------------------------
    locked: bool = False                     # settings only through the staff gate
    pin_open: bool = False                   # the PIN keypad is up
    pin_entry: str = ""                      # digits typed (shown as dots)
    pin_note: str | None = None              # catalog key: why the last PIN did not open
    pin_until_ns: int = 0                    # wrong PINs: no PIN is checked before this
    pin_buttons: bool = False                # the keypad was opened by the button combination: seats type
    pin_dial: int = 0                        # the digit seat 1 turns to (DIAL_DELETE: erase)
    staff_page: str | None = None            # one of STAFF_PAGES while the staff menu is open
    rig: RigConfig | None = None             # the café's config as the staff menu shows it
    volume: int = 80                         # percent
    board: BoardView | None = None           # attract mode's leaderboard (None: not shown)
    games: tuple[TableGame, ...] = ()        # what the table can run (the staff menu's "Table game")
    game: str = CHEATING_MOTH                # the game running
    game_choice: str | None = None           # the menu's choice, not yet switched to (None: the running)

    @property
    def staff_open(self) -> bool:
        return self.staff_page is not None

    def close_staff(self) -> None:
        self.staff_page = None
        self.settings_open = False
        self.pin_open = False
        self.pin_entry = ""
        self.pin_note = None
        self.pin_buttons = False
        self.pin_dial = 0
        self.game_choice = None

    def shown_game(self) -> TableGame | None:
        """The table game the staff menu shows: the one chosen, else the one running."""
        wanted = self.game_choice or self.game
        return next((g for g in self.games if g.id == wanted), self.games[0] if self.games else None)

    def cycle_game(self, step: int) -> None:
        """The staff menu's ‹ and ›: the previous or next table game (switched to only by
        "Switch", so that looking through them changes nothing)."""
        shown = self.shown_game()
        if shown is None:
            return
        ids = [g.id for g in self.games]
        self.game_choice = ids[(ids.index(shown.id) + step) % len(ids)]

    def notice(self, now_ns: int) -> Message | None:
        """The newest notice still up at ``now_ns``."""
        for message, until in reversed(self.notices):
            if now_ns < until:
                return message
        return None

    def form(self, player: int) -> list[int]:
        """The penalty row being entered for ``player``, to change (made on first use)."""
        return self.penalty_form.setdefault(player, [0, 0, 0])

    def shown_form(self, player: int) -> tuple[int, int, int]:
        """The same row as the screen shows it: drawing never changes the screen's state."""
        m, a, n = self.penalty_form.get(player, (0, 0, 0))
        return m, a, n

    def show(self, screen: str, now_ns: int, race: int = 0, said: tuple[Message, ...] = ()) -> None:
        """A result screen goes up after those already waiting (a round-ending race: its
        photo finish first, then the round's reveal)."""
        self.results.append(Shown(screen, now_ns, race, said))

    def result(self, table: Table, now_ns: int) -> Shown | None:
        """The result screen on top now, or None. Pure: drawing asks it every frame."""
        for shown in self.results:
            if self._holds(shown, table, now_ns):
                return shown
        return None

    def _holds(self, shown: Shown, table: Table, now_ns: int) -> bool:
        if self.auto_continue and now_ns >= shown.at_ns + RESULT_NS[shown.screen]:
            return False
        if shown.screen == "verdict":
            return self.verdict is not None
        if shown.screen == "summary":
            return bool(table.game.scores)
        # A photo finish shows the table's last race while no other runs; an undone decision
        # (the race runs again) or a later race takes it down.
        return table.race is None and table.last_race is not None and table.races == shown.race

    def prune(self, table: Table, now_ns: int) -> None:
        """Forget the result screens that no longer hold (taken back, or timed out where
        they may): a long demo must not pile them up."""
        self.results = [s for s in self.results if self._holds(s, table, now_ns)]

    def overlay(self, table: Table, now_ns: int) -> str | None:
        """"verdict", "photo" or "summary" while one is up, else None."""
        shown = self.result(table, now_ns)
        return None if shown is None else shown.screen

    def dismiss(self, table: Table | None = None, now_ns: int = 0) -> None:
        """Continue: the result screen on top goes (with any that no longer hold before it).
        Without a table, every result screen goes (a game ended, a new one started)."""
        self.undo_ask = False
        top = None if table is None else self.result(table, now_ns)
        if top is None:
            self.results.clear()
            self.verdict = None
            return
        index = self.results.index(top)
        del self.results[:index + 1]
        if top.screen == "verdict":
            self.verdict = None
