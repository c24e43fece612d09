"""A race preset as the kiosk's table game: :class:`~.race_app.RaceApp` full screen on the
kiosk's input, screen, fonts and sounds, with the kiosk's staff gate around it.

The gate is the card game's: F1 or Tab (or a ``settings`` tap; both in the race screen's key
table, :data:`.keys.KIOSK_KEYS`) open the PIN keypad, checked by
the kiosk's lock (rate-limited, the count of wrong PINs kept over restarts), and the Caught!
button held with seat 1's button for ``combo_hold_ms`` opens the same keypad, typed with the
seat buttons (:func:`~..ui.console.seat_pad_act`; the staff menu itself when no PIN is set;
nothing with ``[staff] combo = false``). The menu here is
smaller: the table game (back to Cheating Moth, or another preset), how many players race, the
volume, the language, and shutting down; it locks again after ``STAFF_IDLE_NS`` untouched. Esc
never quits: a café's rig is not quit from a keyboard.

The race screen drains the adapter itself, so the adapter it gets shows each record to the
combination first (:class:`_Watched`), and keeps from the race what the keypad took (a press
typed on it, and that press's release; the Caught! button is OK there, not a race's start). A race armed or running while both combination buttons
are down is called off (nothing of it counts): the red button that starts a race is one of them,
and a seat held through arming would otherwise be judged a false start.

The session is logged in the kiosk's data folder (``race.db``, :meth:`Kiosk.open_race_log`):
a pulled plug resumes it, the race then running called off. A session that ends (the players
changed, the table switched) is filed in ``races/``, and its results stay in
``kiosk.race_sessions`` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from ...controller.effects import Leds, Light
from ...controller.inputs import Input
from ...i18n import LANGUAGES
from ...inputs import CaughtPress, CaughtRelease, Press, Release
from ...i18n.lookup import render
from ...messages import Message
from ...referee.session import CallOff, Phase
from ...staff import Combo
from ..cmd_referee import names_for
from ..kiosk import Kiosk, TableGame
from ..ui.actions import Act
from ..ui.adapters import AdapterProxy, ClockShift, Detected, InputAdapter
from ..ui.console import Console, pin_key, seat_pad_act
from ..ui.fonts import Fonts
from ..ui.loop import STAFF_IDLE_NS, change_volume, open_keypad, pin_ok, switch_game
from ..ui.paint import Painter
from ..ui.render import Frame
from ..ui.screens_staff import RacesStaffView, draw_races_staff
from ..ui.sound import Sounds
from ..ui.state import NOTICE_NS, UiState
from .race_app import RaceApp
from .race_log import RaceLog
from .shell import SETTLE_NS, dispatch, frame_loop

MS = 1_000_000
#: The staff pages the menu here has (the card game's timings, deck and leaderboard are not
#: this game's).
PAGES = ("menu", "confirm-shutdown")


#: The Caught! button's key among the buttons the keypad holds (seats are 0…N-1).
CAUGHT = -1


class _Watched(AdapterProxy):
    """The kiosk's input adapter as the race screen sees it, with each record it drains shown
    to ``seen`` first (the staff combination and the keypad), then passed on unless ``seen``
    took it (True)."""

    def __init__(self, adapter: InputAdapter, seen: Callable[[object], bool]) -> None:
        super().__init__(adapter)
        self._seen = seen

    def drain(self) -> list[Any]:
        return [record for record in list(self._adapter.drain()) if not self._seen(record)]


class KioskRaces:
    """The kiosk's table running race preset ``game``: the race screen, or the staff screens
    over it while the gate or the menu is open. ``run`` returns when staff switch the table to
    another game (``kiosk.config.game`` says which), shut down, or the window is closed."""

    def __init__(self, *, kiosk: Kiosk, detected: Detected, game: TableGame, surface: pygame.Surface,
                 fonts: Fonts, sounds: Sounds, seed: int, lang: str | None = None,
                 say: Callable[[str], None] | None = None, settle_ns: int = SETTLE_NS) -> None:
        assert game.preset is not None and game.playable, game
        self.settle_ns = settle_ns
        self.kiosk = kiosk
        self.detected = detected
        self.adapter = detected.adapter
        self.game = game
        self.surface = surface
        self.fonts = fonts
        self.sounds = sounds
        self.seed = seed
        self.say = say
        config = kiosk.config
        self.ui = UiState(lang=lang or config.lang, input_name=detected.name, locked=True, rig=config, volume=config.volume,
                          games=kiosk.table_games(self.adapter.seats), game=game.id)
        sounds.set_volume(config.volume)
        self.console = Console(self.ui, self.adapter.now_ns, self.adapter.clock, seats=0)
        self.console.staff = self.staff_act
        self.combo = Combo(hold_ns=config.combo_hold_ms * MS)
        self.watched = _Watched(self.adapter, self.combo_edge)
        self.pad_since_ns: int | None = None   # when the keypad the combination opened was first drawn
        self.pad_held: set[int] = set()        # buttons whose press the keypad took (CAUGHT: the red one)
        self.quit = False
        self.resumed = False          # a race session starts afresh (the card game's log resumes)
        self.frame: Frame | None = None
        self.last_activity_ns = self.adapter.now_ns()
        self.sessions = 0
        self.log: RaceLog | None = None
        self._shown: tuple[Message, int] | None = None
        self.players = game.players(config.game_players)
        self.race = self._race(self.players)
        # What the card game lit is not this game's: every seat dark, then this game's lights.
        self.race.perform(Leds((Light.OFF,) * self.adapter.seats, Light.OFF))
        self.race.perform(self.race.lights())

    def _race(self, players: int) -> RaceApp:
        """A fresh session of the preset for ``players`` (seats 1 to ``players`` race)."""
        assert self.game.preset is not None
        self.sessions += 1
        adapter = self.adapter
        # The session is logged in the data folder (race.db) and resumed after a pulled plug.
        self.log = self.kiosk.open_race_log(self.game.preset, players, clock=adapter.clock,
                                            resolution_ns=adapter.resolution_ns, seed=self.seed + self.sessions,
                                            t0_ns=adapter.now_ns())
        shift = self.log.clock_shift_ns(adapter.now_ns())
        # A rebooted Pi or a replugged board counts from zero again: the time line is carried on.
        seen: InputAdapter = ClockShift(self.watched, shift) if shift else self.watched
        return RaceApp(detected=Detected(seen, self.detected.name), session=self.log.session,
                       names=names_for(players), lang=self.ui.lang, fonts=self.fonts, surface=self.surface,
                       sounds=self.sounds, say=self.say, record=self.log.record, kiosk=True,
                       settle_ns=self.settle_ns, gate=self.act)

    @property
    def overlay(self) -> bool:
        return self.ui.pin_open or self.ui.staff_open

    # -- the staff gate ------------------------------------------------------------------------

    def combo_edge(self, edge: object, now: int | None = None) -> bool:
        """The Caught! button and seat 1's button held together open the PIN keypad (the staff
        menu when no PIN is set); ``[staff] combo = false``: nothing. The edge is first the
        keypad's (:meth:`seat_pad`); True: it took it, and the race does not see it."""
        taken = self.seat_pad(edge)
        if not self.kiosk.config.staff_combo:
            return taken
        self.combo, fired = self.combo.seen(edge, now)
        if fired:
            self.combo_held()
        return taken

    def combo_held(self) -> None:
        if self.kiosk.lock is None:
            self.open_staff()
            return
        open_keypad(self.kiosk, self.ui)
        self.last_activity_ns = self.adapter.now_ns()

    def seat_pad(self, edge: object) -> bool:
        """A button on the keypad the combination opened: while it is up and no race is armed or
        running (a race owns every edge), a press is the keypad's once the keypad has been on
        the screen for the settle time, and dropped before (the Caught! button must not start a
        race under it); a press the keypad took has its release taken too."""
        if isinstance(edge, (Release, CaughtRelease)):
            held = edge.player if isinstance(edge, Release) else CAUGHT
            if held in self.pad_held:
                self.pad_held.discard(held)
                return True
            return False
        ui = self.ui
        if (not isinstance(edge, (Press, CaughtPress)) or not (ui.pin_open and ui.pin_buttons)
                or self.race.session.phase in (Phase.ARMED, Phase.RUNNING)):
            return False
        self.pad_held.add(edge.player if isinstance(edge, Press) else CAUGHT)
        if self.pad_since_ns is None or edge.t_ns - self.pad_since_ns < self.settle_ns:
            return True
        now = self.adapter.now_ns()
        act = seat_pad_act(edge, ui, now)
        if act is not None:
            self.last_activity_ns = now
            self.act(act)
        return True

    def open_staff(self) -> None:
        self.ui.close_staff()
        self.ui.staff_page = "menu"
        self.ui.rig = self.kiosk.config
        self.last_activity_ns = self.adapter.now_ns()

    def act(self, act: Act) -> None:
        """A staff screen's tap or key: the gate's acts are the console's (one gate for both games)."""
        self.console.gate(act)

    def staff_act(self, act: Act) -> list[Input]:
        """The PIN's OK and the menu's buttons (let through by the console only while the keypad,
        or the menu, is up)."""
        kiosk, ui = self.kiosk, self.ui
        now = self.adapter.now_ns()
        k, v = act.kind, act.value
        if k == "pin_ok":
            if pin_ok(kiosk, ui, now):
                self.open_staff()
        elif k == "staff_page" and v in PAGES:
            ui.staff_page = str(v)
        elif k == "staff_volume" and isinstance(v, int):
            change_volume(kiosk, ui, self.sounds, v)
        elif k == "staff_game" and isinstance(v, int):
            ui.cycle_game(v)
        elif k == "staff_switch":
            if switch_game(kiosk, ui, now):
                self.quit = True          # the kiosk runs the chosen game in this one's place
        elif k == "staff_players" and isinstance(v, int):
            self.set_players(self.players + v, now)
        elif k == "staff_lang":
            lang = LANGUAGES[(LANGUAGES.index(ui.lang) + 1) % len(LANGUAGES)]
            ui.lang = self.race.lang = lang
            kiosk.change(lang=lang)
        elif k == "staff_yes" and ui.staff_page == "confirm-shutdown":
            kiosk.shutdown_requested = True
            self.quit = True
        ui.rig = kiosk.config
        return []

    def set_players(self, players: int, now: int) -> None:
        """Another number of players: the session so far is kept and a fresh one starts (a tally
        over different tables would compare nothing); kept in ``staff.toml`` for every preset."""
        players = max(self.game.low, min(self.game.high, players))
        if players == self.players:
            return
        self._session_over()
        self.kiosk.change(game_players=players)
        self.players = players
        self.race = self._race(players)
        self.race.perform(Leds((Light.OFF,) * self.adapter.seats, Light.OFF))
        self.race.perform(self.race.lights())
        self.ui.notices.append((Message.of("ui_players_new", players=players), now + NOTICE_NS))

    def _session_over(self) -> None:
        """The session on screen is over: its results kept, its log filed in ``races/``."""
        self.kiosk.keep_race_session(self.race.session)
        if self.log is not None:
            self.kiosk.file_race_log(self.log)
            self.log = None

    def end(self) -> None:
        """The table leaves this game (a switch, a shutdown): the session's results are kept, its
        log filed, and the seats go dark for what comes next."""
        self._session_over()
        self.race.perform(Leds((Light.OFF,) * self.adapter.seats, Light.OFF))

    # -- events --------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if dispatch(event, self.surface, key=self.key, tap=self.tap):
            self.quit = True

    def key(self, key: int, down: bool) -> None:
        if down:
            self.last_activity_ns = self.adapter.now_ns()
        if self.overlay and down:
            if key in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_TAB):
                self.act(Act("back"))
            elif self.ui.pin_open:
                act = pin_key(key)
                if act is not None:
                    self.act(act)
            return
        # The race screen's key table has the gate (F1, Tab) and no Esc. Releases always reach
        # the race (a keyboard seat held when the menu opened is let go).
        self.race.key(key, down)

    def tap(self, pos: tuple[int, int]) -> None:
        self.last_activity_ns = self.adapter.now_ns()
        if not self.overlay:
            self.race.tap(pos)            # hit-tested on the race's own frame; Settings is the gate
            return
        frame = self.frame
        if frame is None:
            return
        for spot in reversed(frame.hotspots):
            if spot.rect.collidepoint(pos):
                self.act(spot.act)
                return

    # -- the loop ------------------------------------------------------------------------------

    def poll(self) -> None:
        """The race's edges (the combination sees them first), GO and ticks; then the
        combination's time, and the menu's lock after ``STAFF_IDLE_NS`` untouched."""
        self.race.poll()
        now = self.adapter.now_ns()
        self.combo_edge(None, now)
        if (self.combo.caught_down and self.combo.seat0_down
                and self.race.session.phase in (Phase.ARMED, Phase.RUNNING)):
            self.race.feed(CallOff(now))
        if self.overlay and now - self.last_activity_ns >= STAFF_IDLE_NS:
            self.ui.close_staff()         # staff walked away: lock again
        if self.log is not None and self.log.trouble and not self.race.notice_words(now):
            # The card cannot take the session's log (issue 21): said for as long as it lasts,
            # in the gaps between the race screen's own notices.
            self.race.notice = (render(Message.of("ui_log_trouble"), self.race.lang), now + NOTICE_NS)

    def draw(self) -> Frame:
        now = self.adapter.now_ns()
        if not (self.ui.pin_open and self.ui.pin_buttons):
            self.pad_since_ns = None
        elif self.pad_since_ns is None:
            self.pad_since_ns = now       # the keypad's presses count once it has settled
        if self.overlay:
            p = Painter(self.surface, self.fonts, self.ui.lang)
            screen = draw_races_staff(p, RacesStaffView(self.ui, now, self.players, self.game.low, self.game.high))
            self.race.glass.cover(now)    # the race's next frame is a new screen: it settles
            self.frame = Frame(screen, tuple(p.hotspots), tuple(p.overflows), tuple(p.texts), tuple(p.boxes))
            return self.frame
        self._footer_notice(now)
        drawn = self.race.draw()
        self.frame = Frame("race", drawn.hotspots, drawn.overflows, ())   # type: ignore[arg-type]
        return self.frame

    def _footer_notice(self, now: int) -> None:
        """The kiosk's notices (start-up notes, staff changes) in the race screen's footer,
        each for as long as it is up; the race's own refusals come and go between them."""
        for message, until in reversed(self.ui.notices):
            if now < until:
                if self._shown != (message, until):
                    self._shown = (message, until)
                    self.race.notice = (render(message, self.race.lang), until)
                return

    def next_due_ns(self) -> int | None:
        return self.race.next_due_ns()

    def run(self, *, fps: int = 60, max_frames: int | None = None,
            on_frame: Callable[[KioskRaces], None] | None = None, wait: Callable[[int], None] | None = None) -> int:
        """Events, the race, the staff gate, a frame, ``on_frame`` (the watchdog), until the
        table switches, shuts down or the window closes (or ``max_frames``); ``wait`` as for
        :func:`.shell.frame_loop`."""
        return frame_loop(self, fps=fps, max_frames=max_frames,
                          on_frame=None if on_frame is None else lambda: on_frame(self), wait=wait)
