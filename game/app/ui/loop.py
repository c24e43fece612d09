"""The app: the imperative shell around the table controller. Inputs (button edges from the
adapter, console taps and keys, ticks) go into ``step``; the step's effects are executed:

- ``Leds`` → the adapter's seat lights (only the seats that change) and the Caught! light;
- ``PlaySound`` → the preloaded sound;
- ``Arm`` → ``adapter.arm(seats)``;
- ``ScheduleGo`` → at that time on the adapter's clock, ``adapter.go(seats)``, and the ``Go``
  it stamps is fed back (dropped if the race was called off meanwhile);
- ``WakeAt`` → a ``Tick`` once the adapter's clock reaches it;
- ``Show`` and ``Notice`` → the screen, which draws the table (and keeps notices a while).

Every input is written to the table log (if any) before its effects run. Every tap, key and
button edge goes to the screen that was on the glass when it happened (``glass.py``): the loop
presents each frame to the glass, and a result screen stays up until Continue. When nobody has sat
down for a while, attract mode plays a simulated game on screen until a button is pressed.

In a café (``kiosk``) the settings are behind the staff gate: F1, Tab and the settings button
open a PIN keypad (``kiosk.try_pin``, rate-limited), and the Caught! button held together with
seat 1's button (seat 0) for ``combo_hold_ms`` opens the same keypad, typed with the seat
buttons (a rig may have no touchscreen), or the staff menu itself when no PIN is set (those
presses still reach the controller); ``[staff] combo = false`` turns the combination off.
Staff changes go to ``kiosk.change`` (kept in ``staff.toml``); timings
apply from the next game. Staff may switch the table to a referee race preset ("Table game"):
the loop ends and the kiosk runs the preset in its place (``cmd_kiosk.run_kiosk``), the game in
progress kept in its log for when the table comes back. Attract mode shows the leaderboard,
today / this week / all time.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, replace

import pygame

from firmware_host.errors import AdapterError
from firmware_host.records import SeatLight

from ...controller import (
    Arm, Leds, Light, PlaySound, ScheduleGo, Stage, Step, Table, TableSettings, Tick, WakeAt, new_table,
    step,
)
from ...controller.inputs import Input
from ...controller.resume import resume
from ...errors import GameError
from ...i18n.events import event_text
from ...controller import inputs as console
from ...inputs import CaughtPress, CaughtRelease, Press, Release
from ...messages import Message
from ...staff import Combo
from ..kiosk import Kiosk, setting_range
from ..leaderboard import Period
from ..tablelog import TableLog, clock_shift_ns
from .actions import Act
from .adapters import LIGHTS, ClockShift, Detected
from .common import Scene
from .console import Console, seat_pad_act
from .demo import Demo
from .fonts import Fonts
from .glass import SETTLE_NS, Glass, Presented, identity
from .observe import observe
from .paint import dim
from .render import Frame, draw
from .screens_attract import SLIDE_NS, slides
from .sound import Sounds
from .state import NOTICE_NS, STAFF_TIMINGS, BoardView, UiState

MS = 1_000_000
S = 1_000_000_000
#: Attract mode's board slide shows one period each time it comes round, in this order: the
#: first board slide comes FIRST_BOARD_NS after attract mode began, the next BOARD_NS later.
BOARD_PERIODS = (Period.TODAY, Period.WEEK, Period.ALL)
FIRST_BOARD_NS = slides(True).index("board") * SLIDE_NS
BOARD_NS = len(slides(True)) * SLIDE_NS
#: The staff menu closes by itself after this long without a tap or a key.
STAFF_IDLE_NS = 180 * S
#: After the input failed (a buzzer board unplugged mid-race), the race is armed again once the
#: input answers, checked this often.
RETRY_NS = 1 * S
#: While the log cannot be written, the steps kept in memory are tried again at every step and,
#: with nobody playing (attract mode, a game over), this often.
STORAGE_RETRY_NS = 5 * S


@dataclass(frozen=True, slots=True)
class PendingGo:
    race: int
    t_ns: int
    seats: tuple[int, ...]


def pin_ok(kiosk: Kiosk, ui: UiState, now: int) -> bool:
    """The PIN keypad's OK: the digits typed go to the kiosk's lock (rate-limited, the count
    of wrong PINs kept over restarts); True when the PIN opens the staff menu. Shared by the
    card game and the kiosk's race presets, so there is one gate."""
    entry, ui.pin_entry = ui.pin_entry, ""
    if now < ui.pin_until_ns:
        ui.pin_note = "ui_pin_wait"          # refused without checking
        return False
    if kiosk.lock is None:
        ui.pin_note = "ui_pin_none" if kiosk.config.staff_combo else "ui_pin_none_off"
        return False
    seen = len(kiosk.notes)
    opened, wait = kiosk.try_pin(entry, now)
    for note in kiosk.notes[seen:]:   # the count could not be kept on the card: said at the keypad
        ui.notices.append((Message.of("refused", reason=note), now + 3 * NOTICE_NS))
    if opened:
        ui.pin_until_ns = 0
        return True
    ui.pin_until_ns = now + wait if wait else 0   # a wait this PIN started, or one kept over a restart
    ui.pin_note = "ui_pin_wait" if ui.pin_until_ns else "ui_pin_wrong"
    return False


def open_keypad(kiosk: Kiosk, ui: UiState) -> None:
    """The button combination held with a PIN set: the PIN keypad, typed with the seat buttons
    (``console.seat_pad_act``), never the menu itself. A wait of wrong PINs already running is
    shown at once (the keypad checks nothing until it is over). The staff menu already open
    stays open, and a keypad already up keeps what was typed. Shared by both kiosk games."""
    if ui.staff_open:
        return
    if not ui.pin_open:
        ui.close_staff()
        ui.pin_open = True
    ui.pin_buttons = True
    lock = kiosk.lock
    if lock is not None and lock.locked_until_ns:
        ui.pin_until_ns = max(ui.pin_until_ns, lock.locked_until_ns)


def change_volume(kiosk: Kiosk, ui: UiState, sounds: Sounds, delta: int) -> None:
    """The staff menu's volume − and +: heard at once (a tone at the new volume) and kept."""
    volume = max(0, min(100, ui.volume + delta))
    ui.volume = volume
    sounds.set_volume(volume)
    sounds.play("ready")
    kiosk.change(volume=volume)


def switch_game(kiosk: Kiosk, ui: UiState, now: int) -> bool:
    """The staff menu's "Switch": the table game shown is kept in ``staff.toml`` and the staff
    menu closes; True when the game running must stop for it. A game the seats cannot play is
    refused with a notice (the menu greys its Switch out, and says why, beforehand)."""
    game = ui.shown_game()
    if game is None or game.id == ui.game:
        return False
    refusal = kiosk.choose_game(game)
    if refusal is not None:
        ui.notices.append((Message.of("refused", reason=refusal), now + NOTICE_NS))
        return False
    ui.close_staff()
    return True


class App:
    def __init__(self, *, detected: Detected, settings: TableSettings, seed: int, ui: UiState,
                 fonts: Fonts, surface: pygame.Surface, sounds: Sounds, log: TableLog | None = None,
                 say: Callable[[str], None] | None = None, attract_after_ns: int | None = 60 * S,
                 demo_players: int = 4, kiosk: Kiosk | None = None, scripted: bool = False,
                 on_step: Callable[[Step], None] | None = None, settle_ns: int = SETTLE_NS,
                 start_over: Callable[[], TableLog | None] | None = None) -> None:
        self.detected = detected
        self.adapter = detected.adapter
        self.ui = ui
        self.fonts = fonts
        self.surface = surface
        self.sounds = sounds
        self.log = log
        self.say = say
        self.kiosk = kiosk
        self.scripted = scripted  # simulated players feed every input, GO and ticks included
        if scripted:
            ui.auto_continue = True  # nobody taps Continue: the result screens go by themselves
        self.glass = Glass(settle_ns)
        self.on_step = on_step    # told every step before its effects (``play --log``'s game log)
        #: A living room's saved game: files it away and gives the new game's log ("New game"
        #: on the resume offer). None: a resumed game simply goes on (``--db``, the kiosk).
        self.start_over = start_over
        self.fresh = (settings, seed)
        now = self.adapter.now_ns()
        resumed = self._resume(log, settings, seed, now)
        log = self.log
        self.resumed = resumed is not None
        if resumed is not None:
            self.table = resumed
            shift = clock_shift_ns(self.table.now_t_ns, now)
            if shift:
                # The adapter's clock started again (a reboot, another board): shift what this
                # session reads so that the table's clock never runs backwards.
                self.adapter = ClockShift(self.adapter, shift)
                now = self.adapter.now_ns()
        else:
            self.table = new_table(settings, seed, now)
        self.console = Console(ui, self.adapter.now_ns, self.adapter.clock, seats=self.table.settings.seats)
        self.go: PendingGo | None = None
        self.rerun_due_ns: int | None = None    # the input failed: re-run the race from then on
        self.wakes: list[int] = []
        self.lights: dict[int, SeatLight] = {}
        self.frame: Frame | None = None         # the frame on the glass (its hit map)
        self.attract_after_ns = attract_after_ns
        self.last_activity_ns = now
        self.demo: Demo | None = None
        self.demo_offset_ns = 0
        self.demo_players = demo_players
        self.demo_games = 0
        self.steps = 0
        #: The notice that the log cannot be written, while it is up (see storage_notice).
        self.storage_shown: tuple[Message, int] | None = None
        self.storage_retry_ns = 0
        self.combo: Combo | None = None
        self.boards: dict[Period, BoardView] = {}
        self.attract_since_ns = 0
        if kiosk is not None:
            self.combo = Combo(hold_ns=kiosk.config.combo_hold_ms * MS)
            self.console.staff = self.staff_act
            ui.locked = True
            ui.rig = kiosk.config
            ui.volume = kiosk.config.volume
            ui.games = kiosk.table_games(detected.adapter.seats)
            sounds.set_volume(kiosk.config.volume)
        if self.resumed:
            if start_over is not None and kiosk is None and not scripted:
                ui.resume_ask = True            # the group chooses: carry on, or a new game
            else:
                self.after_resume()
        self.storage_notice(self.adapter.now_ns())   # a log that cannot be written: said from the first frame

    def answer_resume(self, carry_on: bool) -> None:
        """The resume offer's answer: the saved game goes on where it stopped, or it is filed
        away (kept) and a new game starts with the settings and seed this run was given."""
        self.ui.resume_ask = False
        self.ui.resume_choice = None
        if carry_on:
            self.after_resume()
            return
        assert self.start_over is not None
        self.log = self.start_over()            # the saved game closed and filed, a new log
        settings, seed = self.fresh
        self.table = new_table(settings, seed, self.adapter.now_ns())
        self.ui.dismiss()
        self.go = None
        self.wakes = []

    def _resume(self, log: TableLog | None, settings: TableSettings, seed: int, now: int) -> Table | None:
        """The table the log's steps lead to (None: no steps). In a kiosk a log that cannot be
        replayed is moved aside with a notice and a new game starts; elsewhere it is an error."""
        if log is None or not log.steps:
            return None
        try:
            return resume(log.settings, log.seed, log.t0_ns, log.steps)
        except (GameError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            if self.kiosk is None:
                raise
            log.close()
            why = f"{type(exc).__name__}: {str(exc)[:160]}"
            moved = self.kiosk.aside_or_none(self.kiosk.current, why)
            if moved is None:       # the card cannot move it: it stays, and this game is kept in memory
                self.log = self.kiosk.memory_log(settings, seed, now, "the log there could not be replayed")
                return None
            self.kiosk.notes.append(f"the game log could not be replayed ({why}) and was moved to {moved}")
            self.log = self.kiosk.start_log(settings, seed, now)
            return self._resume(self.log, settings, seed, now) if self.log.steps else None

    def next_game(self, now: int) -> None:
        """A new table (a new seed, everyone sits down again) with a new log, after a game over."""
        assert self.kiosk is not None
        # What staff changed (timings, rules) applies from here; names, clock and seats stay.
        cfg = self.kiosk.config.table_settings(self.table.settings.seats, self.table.settings.clock,
                                               self.table.settings.resolution_ns)
        settings = replace(self.table.settings, rules=cfg.rules, long_press_ns=cfg.long_press_ns,
                           fore_period_min_ns=cfg.fore_period_min_ns, fore_period_max_ns=cfg.fore_period_max_ns,
                           race_timeout_ns=cfg.race_timeout_ns, pick_window_ns=cfg.pick_window_ns,
                           vote_window_ns=cfg.vote_window_ns)
        seed = (self.table.seed * 6364136223846793005 + 1442695040888963407) % 2**63
        self.log = self.kiosk.start_log(settings, seed, now)
        self.table = new_table(settings, seed, now)

    def after_resume(self) -> None:
        """Pick the game up where the log left it: say so, run an interrupted race again (its
        GO was scheduled by the process that died), and check the windows that were open."""
        now = self.adapter.now_ns()
        self.ui.notices.append((Message.of("ui_resumed"), now + NOTICE_NS))
        t = self.table
        if self.kiosk is not None and self.log is not None and t.stage is Stage.GAME_OVER:
            self.kiosk.finish(t, self.log)  # it ended just before the restart: file it (once)
            self.log = None
            return
        if self.scripted:
            return
        if t.stage is Stage.RACE and t.race is not None and t.race.result is None:
            self.feed(console.Rearm(now))
        for due in (t.dispute.deadline_t_ns if t.dispute else None,
                    t.pending_out[1] if t.pending_out else None):
            if due is not None:
                heapq.heappush(self.wakes, due)
        self.feed(Tick(now))

    # -- inputs in, effects out --------------------------------------------------------------

    def feed(self, event: Input) -> Step:
        before = self.table
        if self.kiosk is not None and self.log is None and isinstance(event, console.NewGame):
            self.next_game(event.t_ns)
            before = self.table
        made = step(before, event)
        if self.log is not None:
            # On disk before any effect runs; if the card fails, kept in memory (and said below).
            self.log.append(event, made)
        if self.on_step is not None:
            self.on_step(made)
        self.table = made.table
        if (self.kiosk is not None and isinstance(event, console.Configure)
                and made.table.settings.rules != self.kiosk.config.rules):
            self.kiosk.change(rules=made.table.settings.rules)   # the staff menu's house rules
        lost = 0
        if self.kiosk is not None and self.log is not None and made.table.stage is Stage.GAME_OVER:
            # Recorded on the leaderboard and filed away; the game-over screen stays up, and
            # the next game starts from a fresh table with a log of its own.
            self.kiosk.finish(made.table, self.log)
            lost = self.log.lost
            self.log = None
        self.steps += 1
        now = self.adapter.now_ns()
        # The screen takes in the step first: what running its effects says (an input that
        # failed) comes after, and is not taken for an earlier screen's notice.
        observe(self.ui, before, made, now)
        self.storage_notice(now, lost)
        for effect in made.effects:
            self.execute(effect)
        if self.say is not None:
            names = tuple(made.table.name(p) for p in range(made.table.players))
            for e in made.events:
                said = event_text(e, lambda i: names[i] if i < len(names) else str(i), self.ui.lang)
                if said:
                    self.say(said)
        return made

    def retry_storage(self, now: int) -> None:
        """Nobody plays, but the card may be back: what the logs keep in memory is tried again
        every ``STORAGE_RETRY_NS`` (a game over's last steps are written and it is filed)."""
        if self.storage_shown is None or now < self.storage_retry_ns:
            return
        self.storage_retry_ns = now + STORAGE_RETRY_NS
        if self.log is not None and self.log.trouble:
            self.log.retry()
        if self.kiosk is not None and self.kiosk.finishing is not None and self.kiosk.unfiled is not None:
            self.kiosk.file_unfiled()
        self.storage_notice(now)

    def storage_notice(self, now: int, lost: int = 0) -> None:
        """While the log cannot be written the screen says so, for as long as it lasts (under
        each step's own notices, which show first); when it can again, or steps were lost at
        the end of a game, that is said once."""
        finishing = self.kiosk.finishing if self.kiosk is not None else None   # a game over's last steps
        trouble = any(log is not None and bool(log.trouble) for log in (self.log, finishing))
        kept = self.storage_shown
        notices = self.ui.notices
        if trouble and (kept is None or kept not in notices):
            kept = self.storage_shown = (Message.of("ui_log_trouble"), now + 10**9 * S)
            # The oldest of the notices, so that a step's own notice still shows first.
            rest = [n for n in notices if n[0] != kept[0]][-(notices.maxlen or 4) + 1:]
            notices.clear()
            notices.extend([kept, *rest])
        elif not trouble and kept is not None:
            self.storage_shown = None
            if kept in notices:
                notices.remove(kept)
            if not lost:
                notices.append((Message.of("ui_log_back"), now + NOTICE_NS))
        if lost:
            notices.append((Message.of("ui_log_lost", count=lost), now + 3 * NOTICE_NS))

    def execute(self, effect: object) -> None:
        adapter = self.adapter
        if isinstance(effect, PlaySound):
            self.sounds.play(effect.name)
        elif isinstance(effect, Leds):
            changed = {seat: LIGHTS[light] for seat, light in enumerate(effect.seats)
                       if seat < adapter.seats and self.lights.get(seat) is not LIGHTS[light]}
            try:
                if changed:
                    adapter.show(changed)
                    self.lights.update(changed)
                show_guard = getattr(adapter, "show_guard", None)  # the buzzer board has no guard LED
                if show_guard is not None:
                    show_guard(effect.caught is not Light.OFF)
            except AdapterError as exc:
                self.input_failed(exc)
        elif isinstance(effect, Arm):
            try:
                adapter.arm(effect.seats)
            except AdapterError as exc:
                self.input_failed(exc)
                return
            for seat in range(adapter.seats):  # what arm() shows: the race seats flash once
                self.lights[seat] = SeatLight.ARMED if seat in effect.seats else SeatLight.OFF
        elif isinstance(effect, ScheduleGo):
            if self.rerun_due_ns is None:  # else the input did not arm the race: no GO for it
                self.go = PendingGo(effect.race, effect.t_ns, effect.seats)
        elif isinstance(effect, WakeAt):
            heapq.heappush(self.wakes, effect.t_ns)

    def poll(self) -> None:
        """Edges from the adapter, GO when due, ticks when due."""
        for edge in self.adapter.drain():
            if not isinstance(edge, (Press, Release, CaughtPress, CaughtRelease)):
                self.voided(edge)
                continue
            if isinstance(edge, Press):
                self.wake_up()
            self.combo_edge(edge)
            self.button(edge)
        now = self.adapter.now_ns()
        self.combo_edge(None, now)
        pending = self.go
        if pending is not None and now >= pending.t_ns:
            self.go = None
            race = self.table.race
            if race is not None and race.number == pending.race and race.go_t_ns is None:
                try:
                    go = self.adapter.go(pending.seats)
                except AdapterError as exc:     # unplugged, or the board voided the race
                    self.input_failed(exc)
                else:
                    for seat in pending.seats:  # what go() shows
                        self.lights[seat] = SeatLight.GO
                    self.feed(go)
        if self.rerun_due_ns is not None and now >= self.rerun_due_ns:
            self.rerun_race(now)
        if self.wakes and self.wakes[0] <= now:
            while self.wakes and self.wakes[0] <= now:
                heapq.heappop(self.wakes)
            self.feed(Tick(now))

    def button(self, edge: Press | Release | CaughtPress | CaughtRelease) -> None:
        """A button's edge (wired, keyboard seat or a tapped seat) to the screen it was pressed
        at (glass.py): the game, a result screen's Continue, or nothing."""
        if self.scripted:
            self.feed(edge)                     # simulated players: no glass to look at
            return
        if isinstance(edge, (Press, CaughtPress)):
            where = self.glass.press(edge, racing=self.table.stage is Stage.RACE)
            if where == "continue":
                self.ui.dismiss(self.table, self.adapter.now_ns())
            elif where == "game":
                self.feed(edge)
        elif self.glass.release(edge):
            self.feed(edge)

    def input_failed(self, exc: AdapterError) -> None:
        """The input adapter failed a call (a board unplugged or restarted mid-race, a GO the
        board voided): said on screen, and the race in progress runs again, from arming, once
        the input answers. Lights are sent whole next time (what they show is unknown)."""
        now = self.adapter.now_ns()
        self.lights = {}
        if self.rerun_due_ns is None:
            self.ui.notices.append((Message.of("refused", reason=f"{exc} (the race runs again when the "
                                               "buttons answer)"), now + NOTICE_NS))
            if self.say is not None:
                self.say(f"note: {type(exc).__name__}: {exc}")
        race = self.table.race
        if race is not None and race.result is None:
            self.go = None                      # no GO for a race the input did not arm
            self.rerun_due_ns = now + RETRY_NS

    def rerun_race(self, now: int) -> None:
        """Arm the interrupted race again if the input is back (else look again later)."""
        ready = getattr(self.adapter, "wait_connected", None)
        if ready is not None and not ready(0):
            self.rerun_due_ns = now + RETRY_NS
            return
        self.rerun_due_ns = None
        race = self.table.race
        if self.table.stage is Stage.RACE and race is not None and race.result is None:
            self.feed(console.Rearm(now))

    def voided(self, record: object) -> None:
        """The board lost edges of the race in progress (a RaceVoided record). Before GO the
        board re-arms and the race goes on; after GO the presses cannot be trusted, so the race
        runs again from arming (the game is untouched)."""
        now = self.adapter.now_ns()
        patience_s = getattr(record, "patience_s", None)
        if patience_s is not None:  # the board's BoardAway: gone for the rig's whole patience
            # The table waits on (its clock stands still with the board's): the notice stays up
            # until the board is back, when a race in progress runs again (its RaceVoided).
            self.ui.notices.append((Message.of("ref_board_gone_long", seconds=f"{patience_s:g}"), now + NOTICE_NS))
            if self.say is not None:
                self.say(f"note: {getattr(record, 'message', record)}")
            return
        self.ui.notices.append((Message.of("ui_race_voided"), now + NOTICE_NS))
        race = self.table.race
        if race is not None and race.go_t_ns is not None and race.result is None:
            self.feed(console.Rearm(now))
        if self.say is not None:
            self.say(f"note: {record!r}")

    def next_due_ns(self) -> int | None:
        due = [t for t in (self.go.t_ns if self.go else None, self.wakes[0] if self.wakes else None,
                           self.rerun_due_ns) if t is not None]
        return min(due) if due else None

    # -- the console -----------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.FINGERDOWN, pygame.MOUSEBUTTONDOWN):
            if self.wake_up() and event.type != pygame.KEYDOWN:
                return  # the tap that ends attract mode only ends it
        frame = self.frame if self.frame is not None else self.draw()
        live = self.scripted or (self.glass.live(self.adapter.now_ns()) and not self.console.acted)
        for made in self.console.handle(event, frame, self.table, live=live):
            if isinstance(made, (Press, Release, CaughtPress, CaughtRelease)):
                self.combo_edge(made)
                self.button(made)
            else:
                self.feed(made)
        if self.ui.resume_choice is not None:
            self.answer_resume(self.ui.resume_choice)
        kiosk = self.kiosk
        if kiosk is not None and self.ui.staff_open and self.ui.lang != kiosk.config.lang:
            kiosk.change(lang=self.ui.lang)
            self.ui.rig = kiosk.config

    def wake_up(self) -> bool:
        """Activity: leave attract mode (True if it was on)."""
        self.last_activity_ns = self.adapter.now_ns()
        if self.demo is None:
            return False
        self.demo = None
        self.ui.attract = False
        return True

    # -- the staff gate and menu (kiosk mode) ------------------------------------------------

    def combo_edge(self, edge: object, now: int | None = None) -> None:
        """Feed the button combination (Caught! + seat 0) an edge, or the time: held long
        enough, it opens the PIN keypad (the staff menu when no PIN is set). The edge is first
        the keypad's, if the combination opened it (:meth:`seat_pad`); a keypad left alone for
        ``STAFF_IDLE_NS`` closes. ``[staff] combo = false``: the combination does nothing."""
        if self.combo is None or self.kiosk is None:
            return
        self.seat_pad(edge)
        if now is not None and self.ui.pin_open and now - self.last_activity_ns >= STAFF_IDLE_NS:
            self.ui.close_staff()               # nobody at the keypad: the table is the guests' again
        if not self.kiosk.config.staff_combo:
            return
        self.combo, fired = self.combo.seen(edge, now)
        if fired:
            self.combo_held()

    def combo_held(self) -> None:
        """The combination held long enough: the keypad, or the menu when there is no PIN to
        ask for (the kiosk's notes say so when a PIN file could not be read)."""
        assert self.kiosk is not None
        if self.kiosk.lock is None:
            self.open_staff()
            return
        open_keypad(self.kiosk, self.ui)
        self.wake_up()

    def seat_pad(self, edge: object) -> None:
        """A button's press on the keypad the combination opened, placed by its stamp as the
        glass places every press: pressed while the keypad was on the glass and had settled,
        and not while a race is armed or running (it owns every edge). Elsewhere the glass
        drops the press from the game, the keypad being a screen where buttons are nothing to
        the table; a race that asks whether to run again, or waits for its card, has no live
        button, so the keypad is typed there too (staff are never stuck behind it)."""
        if not (isinstance(edge, (Press, CaughtPress)) and self.ui.pin_open and self.ui.pin_buttons):
            return
        shown, top = self.glass.at(edge.t_ns), self.glass.top
        race = self.table.race
        racing = (self.table.stage is Stage.RACE and race is not None and race.result is None
                  and not race.asking)
        if (shown is None or top is None or shown.serial != top.serial or shown.screen != "pin"
                or edge.t_ns - shown.since_ns < self.glass.settle_ns or racing):
            return
        now = self.adapter.now_ns()
        act = seat_pad_act(edge, self.ui, now)
        if act is not None:
            self.last_activity_ns = now
            self.console.gate(act)

    def open_staff(self) -> None:
        assert self.kiosk is not None
        self.ui.close_staff()
        self.ui.staff_page = "menu"
        self.ui.rig = self.kiosk.config
        self.last_activity_ns = self.adapter.now_ns()
        self.wake_up()

    def staff_act(self, act: Act) -> list[Input]:
        """The PIN's OK and the staff menu's buttons (the console lets them through only while
        the keypad, or the menu, is up)."""
        kiosk, ui = self.kiosk, self.ui
        if kiosk is None:
            return []
        now = self.adapter.now_ns()
        k, v = act.kind, act.value
        if k == "pin_ok":
            if pin_ok(kiosk, ui, now):
                self.open_staff()
                return []
        elif k == "staff_page" and isinstance(v, str):
            ui.staff_page = v
        elif k == "staff_volume" and isinstance(v, int):
            change_volume(kiosk, ui, self.sounds, v)
        elif k == "staff_game" and isinstance(v, int):
            ui.cycle_game(v)
        elif k == "staff_switch":
            if switch_game(kiosk, ui, now):
                self.console.quit = True     # the kiosk runs the chosen game in this loop's place
        elif k == "staff_timing" and isinstance(v, tuple):
            name, delta = v
            assert name in dict(STAFF_TIMINGS)
            low, high = setting_range(name)
            value = max(low, min(high, getattr(kiosk.config, name) + delta))
            changes = {name: value}
            if name == "fore_period_min_ms" and value > kiosk.config.fore_period_max_ms:
                changes["fore_period_max_ms"] = value
            if name == "fore_period_max_ms" and value < kiosk.config.fore_period_min_ms:
                changes["fore_period_min_ms"] = value
            kiosk.change(**changes)
            ui.notices.append((Message.of("ui_next_game"), now + NOTICE_NS))
        elif k == "staff_yes" and ui.staff_page == "confirm-reset":
            kiosk.reset_leaderboard()
            self.boards = {}
            ui.staff_page = "menu"
            ui.notices.append((Message.of("ui_board_was_reset"), now + NOTICE_NS))
        elif k == "staff_yes" and ui.staff_page == "confirm-end":
            ui.close_staff()
            self.end_game(now)
        elif k == "staff_yes" and ui.staff_page == "confirm-shutdown":
            kiosk.shutdown_requested = True
            self.console.quit = True
        ui.rig = kiosk.config
        return []

    def end_game(self, now: int) -> None:
        """The staff menu ends the game: its log is filed away and a fresh table waits for
        players (the controller's NewGame; the next game takes the staff's settings)."""
        assert self.kiosk is not None
        lost = 0
        if self.log is not None and self.table.stage is not Stage.GAME_OVER:
            self.kiosk.end_game(self.log, self.table.seed)
            lost = self.log.lost
            self.log = None
            self.storage_notice(now, lost)
        self.go = None
        self.feed(console.NewGame(now))
        self.ui.dismiss()                       # every result screen of the game ended
        self.ui.notices.append((Message.of("ui_game_ended"), now + NOTICE_NS))

    def refresh_boards(self) -> None:
        if self.kiosk is not None:
            self.boards = {p: BoardView(p.value, tuple(self.kiosk.board(p)), tuple(self.kiosk.fastest(p)))
                           for p in BOARD_PERIODS}

    def board_at(self, now: int) -> BoardView | None:
        """The leaderboard attract mode shows at ``now`` (None without a kiosk)."""
        if self.kiosk is None:
            return None
        if not self.boards:
            self.refresh_boards()
        period = BOARD_PERIODS[(max(0, now - self.attract_since_ns) // BOARD_NS) % len(BOARD_PERIODS)]
        return self.boards[period]

    # -- attract mode ------------------------------------------------------------------------

    def attract(self, now: int) -> None:
        if self.ui.staff_open and now - self.last_activity_ns >= STAFF_IDLE_NS:
            self.ui.close_staff()               # staff walked away: lock again
        idle = (self.table.stage is Stage.JOIN and not self.table.seated
                and not (self.ui.pin_open or self.ui.staff_open or self.ui.settings_open))
        if self.attract_after_ns is None or not idle:
            if self.demo is not None:
                self.ui.attract = False
            self.demo = None
            return
        if self.demo is None and now - self.last_activity_ns >= self.attract_after_ns:
            settings = TableSettings(seats=max(self.demo_players, 3), clock="sim",
                                     rules=self.table.settings.rules)
            self.demo = Demo(self.demo_players, self.table.seed + self.demo_games, settings, self.ui.lang)
            self.demo_games += 1
            self.demo_offset_ns = now - self.demo.now_ns
            if not self.ui.attract:
                self.attract_since_ns = now
                self.boards = {}                # read again: games finished since
            self.ui.attract = True
        if self.demo is not None:
            self.demo.ui.lang = self.ui.lang
            self.demo.advance_to(now - self.demo_offset_ns)
            if self.demo.done and now - self.demo_offset_ns - self.demo.now_ns > 10 * S:
                self.demo = None  # the next game starts on the next frame

    # -- drawing ---------------------------------------------------------------------------

    def render(self) -> tuple[Frame, tuple[object, ...]]:
        """The next frame, drawn on the surface but not yet on the glass, and its identity."""
        now = self.adapter.now_ns()
        if self.demo is not None:
            scene = Scene(self.demo.table, self.demo.ui, self.demo.now_ns)
            frame = draw(self.surface, self.fonts, scene, lang=self.ui.lang, attract=True,
                         board=self.board_at(now), attract_ns=now - self.attract_since_ns)
            return frame, ("attract",)
        frame = draw(self.surface, self.fonts, Scene(self.table, self.ui, now))
        return frame, identity(frame.screen, self.table, self.ui, now)

    def present(self, frame: Frame, ident: tuple[object, ...]) -> Presented:
        """``frame`` goes on the glass: from now on taps and keys are its. A screen still
        settling has its buttons dimmed: they take nothing yet."""
        now = self.adapter.now_ns()
        before = self.glass.top
        shown = self.glass.present(frame.screen, ident, now)
        if before is not None and shown.serial != before.serial:
            self.console.new_screen()           # a half-typed card or "E" was for the screen gone
        self.frame = frame
        self.console.acted = False
        if not self.scripted and not self.glass.live(now):
            dim(self.surface, [spot.rect for spot in frame.hotspots])
        return shown

    def draw(self) -> Frame:
        """Render the next frame and put it on the glass (what the loop does each frame)."""
        frame, ident = self.render()
        self.present(frame, ident)
        return frame

    def turn(self) -> Frame:
        """One turn of the loop, without its wait: the events that came while the last frame
        was on the glass, due inputs, attract mode, then the next frame onto the glass."""
        for event in pygame.event.get():
            self.handle(event)
        self.poll()
        self.retry_storage(self.adapter.now_ns())
        self.attract(self.adapter.now_ns())
        frame, ident = self.render()
        # Events that came while this frame was drawn were meant for the one still on the
        # glass: they are handled against it, and the frame drawn again if they changed it.
        for _ in range(3):
            late = pygame.event.get()
            if not late:
                break
            for event in late:
                self.handle(event)
            frame, ident = self.render()
        self.present(frame, ident)
        if self.console.toggle_fullscreen:
            self.console.toggle_fullscreen = False
            try:
                pygame.display.toggle_fullscreen()
            except pygame.error:   # SDL's dummy driver and some KMS/DRM set-ups cannot switch
                self.ui.notices.append((Message.of("no_fullscreen"), self.adapter.now_ns() + NOTICE_NS))
        if pygame.display.get_surface() is self.surface:
            pygame.display.flip()
        return frame

    def run(self, *, fps: int = 60, max_frames: int | None = None,
            on_frame: Callable[[App], None] | None = None) -> int:
        """The loop: a frame at a time (:meth:`turn`) until quit (or ``max_frames``)."""
        clock = pygame.time.Clock()
        frames = 0
        while not self.console.quit and (max_frames is None or frames < max_frames):
            self.turn()
            if on_frame is not None:
                on_frame(self)
            frames += 1
            if max_frames is not None and frames >= max_frames:
                break
            due = self.next_due_ns()
            # Sleep to the next frame, or less if GO or a tick falls due sooner.
            if due is not None and due - self.adapter.now_ns() < S // fps:
                pygame.time.wait(max(0, (due - self.adapter.now_ns()) // MS))
            else:
                clock.tick(fps)
        return frames
