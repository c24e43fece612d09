"""The kiosk's table switches between Cheating Moth and a referee race preset (issue 14 point 3):
staff choose the table game in the staff menu (kept in staff.toml, run at once and at the next
start), the preset runs full screen on the same input with the same staff gate (PIN keypad or
button combination) leading back, a preset the seats cannot play is refused with its reason,
a bad or unknown game in a file still starts the kiosk (on Cheating Moth, with a notice), and
systemd's watchdog is fed whichever game runs. The rig's clock is the test's: no sleeps."""

from __future__ import annotations

import argparse
import copy
import grp
import itertools
import os
import socket
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pygame
import pytest
from display_helpers import fonts, scenes
from test_display_app import FakeRig

from firmware_host.records import SeatLight
from game.app import cmd_kiosk, cmd_referee
from game.app.cli import build_parser
from game.app.kiosk import Kiosk, load_staff_overrides
from game.app.pinfile import write_pin_file
from game.app.referee.kiosk_races import KioskRaces
from game.app.rigconfig import CHEATING_MOTH, RigConfig, rig_config_from, with_changes
from game.app.sdnotify import Watchdog
from game.app.ui import theme
from game.app.ui.actions import Act, Hotspot
from game.app.ui.adapters import Detected
from game.app.ui.common import Scene
from game.app.ui.glass import SETTLE_NS
from game.app.ui.loop import STAFF_IDLE_NS, App
from game.app.ui.paint import Overflow, Painter, TextBox
from game.app.ui.render import draw
from game.app.ui.screens_staff import RacesStaffView, draw_races_staff
from game.app.ui.sound import Sounds, pre_init
from game.app.ui.state import UiState
from game.errors import BadConfig
from game.i18n import LANGUAGES
from game.i18n.lookup import render
from game.inputs import CaughtPress, CaughtRelease, Press, Release
from game.referee.session import Phase

MS = 1_000_000
S = 1_000_000_000
PIN = "246813"
FAST = 1_000                 # PBKDF2 iterations: the count is stored in the PIN file
HOLD_MS = 3_000              # the button combination's hold in these tests
NOW = datetime(2026, 12, 5, 20, 0, tzinfo=timezone(timedelta(hours=1)))
LAYOUT_SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))

BIG_TABLE = """\
min-players = 6
max-players = 8
outcome = "first-wins"
places = 1
false-start = "void"
lockout = "first-press"
timeout-ms = 3000
tie = "rerace"
go = "rig"
go-min-ms = 800
go-max-ms = 2500

[name]
en = "Big table"

[screen]
en = "Everyone slaps on GO."
"""


@pytest.fixture(autouse=True)
def only_our_presets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The café's preset folders of this machine (/etc, ~/.config) are not the test's."""
    monkeypatch.setattr(cmd_referee, "CAFE_PRESETS", tmp_path / "etc-referee")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(cmd_kiosk, "_wall", lambda: NOW)
    pre_init()
    pygame.init()


def make_kiosk(data: Path, **config: object) -> Kiosk:
    pin_file = data.parent / "staff-pin.toml"
    if not pin_file.exists():
        write_pin_file(pin_file, PIN, iterations=FAST, group=grp.getgrgid(os.getgid()).gr_name)
    base = RigConfig(combo_hold_ms=HOLD_MS)
    return Kiosk(data, with_changes(base, **config), wall_clock=lambda: NOW, pin_file=pin_file)


def races(kiosk: Kiosk, game_id: str, rig: FakeRig | None = None) -> KioskRaces:
    rig = rig or FakeRig()
    game = next(g for g in kiosk.table_games(rig.seats) if g.id == game_id)
    return KioskRaces(kiosk=kiosk, detected=Detected(rig, "gpio"), game=game, surface=pygame.Surface((800, 480)),
                      fonts=fonts("en"), sounds=Sounds(), seed=3)


def table_app(kiosk: Kiosk, rig: FakeRig | None = None) -> App:
    rig = rig or FakeRig()
    settings = kiosk.config.table_settings(rig.seats, rig.clock, rig.resolution_ns)
    return App(detected=Detected(rig, "gpio"), settings=settings, seed=7, ui=UiState(), fonts=fonts("en"),
               surface=pygame.Surface((800, 480)), sounds=Sounds(), log=kiosk.open_log(settings, 7, rig.now_ns()),
               kiosk=kiosk, attract_after_ns=None)


Runner = App | KioskRaces
#: One screen drawn: what did not fit, what can be tapped, where each text landed.
Laid = tuple[list[Overflow], list[Hotspot], list[TextBox]]


def rig_of(app: Runner) -> FakeRig:
    adapter = app.detected.adapter
    assert isinstance(adapter, FakeRig)
    return adapter


def tap(app: Runner, kind: str, value: object = None) -> None:
    """A tap (left click) on the button drawn for ``Act(kind, value)``."""
    frame = app.draw()
    spots = [s for s in frame.hotspots if s.act.kind == kind and (value is None or s.act.value == value)]
    assert spots, (frame.screen, kind, value, [s.act for s in frame.hotspots])
    rig_of(app).t_ns += SETTLE_NS          # the screen has settled before the finger lands
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=spots[0].rect.center, touch=False))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=spots[0].rect.center, touch=False))


def key(app: Runner, k: int) -> None:
    app.draw()
    rig_of(app).t_ns += SETTLE_NS
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k))


def texts(app: Runner) -> str:
    frame = app.draw()
    return "\n".join(t for t, _ in frame.texts)


def hold_combo(app: Runner) -> None:
    """Caught! and seat 1 pressed together and held for the combination's time: with a PIN set
    that opens the PIN keypad (issue 21), where staff type PIN with the seat buttons (seat 1
    turns the dial, seat 2 keeps the digit, Caught! is OK) and the menu opens."""
    rig = rig_of(app)
    t = rig.t_ns
    rig.events += [CaughtPress(t, rig.clock), Press(0, t + 100 * MS, rig.clock)]
    app.poll()
    rig.t_ns = t + 100 * MS + HOLD_MS * MS
    app.poll()
    rig.t_ns += 200 * MS
    rig.events += [CaughtRelease(rig.t_ns, rig.clock), Release(0, rig.t_ns, rig.clock)]
    app.poll()
    if not app.ui.pin_open:
        return
    app.draw()
    rig.t_ns += SETTLE_NS
    for seat in [s for digit in PIN for s in [0] * int(digit) + [1]] + [None]:
        rig.t_ns += 100 * MS
        press = CaughtPress(rig.t_ns, rig.clock) if seat is None else Press(seat, rig.t_ns, rig.clock)
        release = CaughtRelease(rig.t_ns + 50 * MS, rig.clock) if seat is None else Release(seat, rig.t_ns + 50 * MS,
                                                                                            rig.clock)
        rig.events += [press, release]
        rig.t_ns += 50 * MS
        app.poll()
        app.draw()


def show_game(app: Runner, game_id: str) -> None:
    """Tap › in the staff menu until the table game shown is ``game_id``."""
    for _ in range(len(app.ui.games)):
        shown = app.ui.shown_game()
        if shown is not None and shown.id == game_id:
            return
        tap(app, "staff_game", 1)
    raise AssertionError(f"{game_id} is not among {[g.id for g in app.ui.games]}")


def staff_file(kiosk: Kiosk) -> dict[str, object]:
    return load_staff_overrides(kiosk.staff_file, kiosk.config)


# -- the config key ---------------------------------------------------------------------------

def test_the_table_game_in_a_config_file_is_checked() -> None:
    config = rig_config_from({"kiosk": {"game": "grab", "players": 3}})
    assert config.game == "grab" and config.game_players == 3
    assert RigConfig().game == CHEATING_MOTH and RigConfig().game_players == 0
    with pytest.raises(BadConfig, match=r"^config \[kiosk\] game is 3: use 'cheating-moth' or a race preset's id "
                                        r"\(its file name: lower-case letters, digits and dashes, e\.g\. 'bell-slap'\)$"):
        rig_config_from({"kiosk": {"game": 3}})
    with pytest.raises(BadConfig, match=r"^config \[kiosk\] game is 'Bell Slap': use 'cheating-moth'"):
        rig_config_from({"kiosk": {"game": "Bell Slap"}})
    with pytest.raises(BadConfig, match=r"^config \[kiosk\] players is 9: use a whole number from 0 to 8$"):
        rig_config_from({"kiosk": {"players": 9}})
    with pytest.raises(BadConfig, match=r"^config \[kiosk\] has unknown key 'preset': use game, players$"):
        rig_config_from({"kiosk": {"preset": "grab"}})


def test_the_table_games_are_cheating_moth_and_every_preset_with_the_cafes(tmp_path: Path) -> None:
    (tmp_path / "data" / "referee").mkdir(parents=True)
    (tmp_path / "data" / "referee" / "big-table.toml").write_text(BIG_TABLE)
    (tmp_path / "data" / "referee" / "broken.toml").write_text("min-players = 'two'\n")
    kiosk = make_kiosk(tmp_path / "data")
    games = kiosk.table_games(5)
    # Cheating Moth first, then the presets by English name ("Reaction duel" last).
    assert [g.id for g in games] == [CHEATING_MOTH, "bell-slap", "big-table", "grab", "last-hand-down", "duel"]
    assert any("broken.toml" in n for n in kiosk.notes)       # a bad café file: a notice, the others load
    by_id = {g.id: g for g in games}
    # The preset's range clamped to the seats wired; one the seats cannot play says why.
    assert (by_id["grab"].low, by_id["grab"].high, by_id["grab"].players(0)) == (2, 5, 5)
    assert (by_id["duel"].low, by_id["duel"].high, by_id["duel"].players(4)) == (2, 2, 2)
    assert by_id["grab"].players(3) == 3 and by_id["grab"].players(7) == 5 and by_id["grab"].players(1) == 2
    big = by_id["big-table"]
    assert not big.playable and big.refusal() == (
        "race preset 'big-table' needs at least 6 players, but the 5 seat buttons wired cannot seat them: "
        "choose a preset for 5 or fewer players")
    assert by_id[CHEATING_MOTH].playable and by_id[CHEATING_MOTH].name("de") == "Mogel Motte"


# -- switching in the staff menu --------------------------------------------------------------

def kiosk_args(folder: Path) -> argparse.Namespace:
    return build_parser().parse_args(["kiosk", "--headless", "--data", str(folder / "data"),
                                      "--config", str(folder / "config.toml"), "--seed", "5"])


@pytest.fixture()
def wired(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[FakeRig]]:
    """The kiosk's input is a fake rig (a fresh one at each start, as a reboot gives)."""
    made: list[FakeRig] = []

    def detect(*args: object, **kwargs: object) -> Detected:
        made.append(FakeRig())
        return Detected(made[-1], "gpio")

    monkeypatch.setattr("game.app.ui.adapters.detect", detect)
    yield made


def start(folder: Path, config_text: str = "") -> cmd_kiosk.Session:
    (folder / "config.toml").write_text("[staff]\ncombo-hold-ms = %d\n%s" % (HOLD_MS, config_text))
    args = kiosk_args(folder)
    notes: list[str] = []
    return cmd_kiosk.start(args, cmd_kiosk.load_config(args.config, notes), notes)


def notices(app: Runner) -> list[str]:
    return [render(m, "en") for m, _ in app.ui.notices]


def test_switching_in_the_staff_menu_persists_and_the_next_start_runs_the_preset(
        tmp_path: Path, wired: list[FakeRig]) -> None:
    session = start(tmp_path)
    try:
        app = session.app
        assert isinstance(app, App) and session.game == CHEATING_MOTH
        hold_combo(app)
        assert app.draw().screen == "staff"
        assert "Table game: Cheating Moth" in texts(app)
        show_game(app, "grab")
        assert "Table game: Grab" in texts(app) and "2 to 5 players" in texts(app)
        # Looking through the games changes nothing: only Switch does.
        assert not session.kiosk.staff_file.exists() and session.kiosk.config.game == CHEATING_MOTH
        tap(app, "staff_switch")
        assert app.console.quit and not app.ui.staff_open
        assert staff_file(session.kiosk)["game"] == "grab"
        assert session.switch_wanted()
        session.switch()
        races_app = session.app
        assert isinstance(races_app, KioskRaces) and session.game == "grab"
        assert races_app.draw().screen == "race" and races_app.race.session.seats == 5
        # What the card game lit is put out: every seat dark, then the preset's own lights.
        assert ("show", {seat: SeatLight.OFF for seat in range(5)}) in wired[0].calls
    finally:
        session.close()
    assert "[kiosk]\ngame = \"grab\"" in (tmp_path / "data" / "staff.toml").read_text()
    again = start(tmp_path)
    try:
        assert isinstance(again.app, KioskRaces) and again.game == "grab"
        assert again.app.draw().screen == "race"
    finally:
        again.close()


def test_the_card_game_in_progress_is_resumed_when_the_table_comes_back(
        tmp_path: Path, wired: list[FakeRig]) -> None:
    session = start(tmp_path)
    try:
        app = session.app
        assert isinstance(app, App)
        rig = rig_of(app)
        for seat in (0, 1, 2):
            rig.tap(seat)                       # three sit down
        app.poll()
        seated = app.table.seated
        assert len(seated) == 3
        hold_combo(app)
        show_game(app, "duel")
        tap(app, "staff_switch")
        session.switch()
        assert isinstance(session.app, KioskRaces) and session.app.race.session.seats == 2
        hold_combo(session.app)
        show_game(session.app, CHEATING_MOTH)
        tap(session.app, "staff_switch")
        assert session.switch_wanted()
        session.switch()
        back = session.app
        assert isinstance(back, App) and back.resumed and back.table.seated == seated
        assert any(message.key == "ui_resumed" for message, _ in back.ui.notices)
    finally:
        session.close()


# -- getting back from a preset -----------------------------------------------------------------

def test_the_button_combination_opens_the_staff_menu_over_a_preset_and_leads_back(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="bell-slap")
    app = races(kiosk, "bell-slap")
    rig = rig_of(app)
    assert app.draw().screen == "race"
    t = rig.t_ns
    # Caught! starts a race (it is the host's red button); seat 1 joins it: both held.
    rig.events += [CaughtPress(t, rig.clock), Press(0, t + 100 * MS, rig.clock)]
    app.poll()
    # The race the combination started is called off: nothing of it counts.
    assert app.race.session.phase is Phase.READY and app.race.session.results == ()
    rig.t_ns = t + 100 * MS + HOLD_MS * MS
    app.poll()
    assert app.draw().screen == "pin"                 # a PIN is set: the keypad, never the menu
    rig.t_ns += 200 * MS
    rig.events += [CaughtRelease(rig.t_ns, rig.clock), Release(0, rig.t_ns, rig.clock)]
    app.poll()
    app.draw()
    rig.t_ns += SETTLE_NS
    for seat in [s for digit in PIN for s in [0] * int(digit) + [1]]:    # typed with the seat buttons
        rig.t_ns += 100 * MS
        rig.events += [Press(seat, rig.t_ns, rig.clock), Release(seat, rig.t_ns + 50 * MS, rig.clock)]
        rig.t_ns += 50 * MS
        app.poll()
    rig.events += [CaughtPress(rig.t_ns, rig.clock), CaughtRelease(rig.t_ns + 50 * MS, rig.clock)]   # OK
    rig.t_ns += 50 * MS
    app.poll()
    assert app.race.session.phase is Phase.READY      # the keypad's Caught! started no race
    frame = app.draw()
    assert frame.screen == "staff"
    acts = {s.act.kind for s in frame.hotspots}
    assert {"staff_game", "staff_players", "staff_volume", "staff_lang", "staff_page", "back"} <= acts
    assert "Table game: Bell slap" in texts(app)
    show_game(app, CHEATING_MOTH)
    assert "3 to 5 players" in texts(app)
    tap(app, "staff_switch")
    assert app.quit and kiosk.config.game == CHEATING_MOTH
    assert staff_file(kiosk)["game"] == CHEATING_MOTH
    assert app.race.session.results == ()


def test_the_pin_keypad_opens_the_same_menu_over_a_preset(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = races(kiosk, "grab")
    key(app, pygame.K_ESCAPE)                   # Esc never quits a café's rig
    assert not app.quit and app.draw().screen == "race"
    key(app, pygame.K_F1)
    assert app.draw().screen == "pin" and "Staff only: enter the PIN and press OK." in texts(app)
    for digit in "111111":
        tap(app, "pin_digit", int(digit))
    tap(app, "pin_ok")
    assert app.draw().screen == "pin" and "Wrong PIN." in texts(app)
    assert kiosk.lock is not None and kiosk.lock.wrong == 1
    for digit in PIN:
        key(app, getattr(pygame, f"K_{digit}"))
    key(app, pygame.K_RETURN)
    assert app.draw().screen == "staff" and kiosk.lock.wrong == 0
    tap(app, "staff_page", "confirm-shutdown")
    assert app.draw().screen == "staff-confirm" and "Shut the rig down?" in texts(app)
    key(app, pygame.K_ESCAPE)                   # back to the menu
    assert app.draw().screen == "staff"
    tap(app, "back")                            # leaving the menu locks it again
    assert app.draw().screen == "race" and not app.ui.staff_open
    key(app, pygame.K_TAB)
    assert app.draw().screen == "pin"
    key(app, pygame.K_ESCAPE)
    assert app.draw().screen == "race" and not app.quit


def test_guests_cannot_reach_the_staff_acts_over_a_preset(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = races(kiosk, "grab")
    for act in (Act("staff_switch", CHEATING_MOTH), Act("staff_yes"), Act("staff_players", -1), Act("staff_lang"),
                Act("staff_page", "confirm-shutdown"), Act("pin_ok")):
        app.act(act)
    assert not app.quit and not kiosk.shutdown_requested and not kiosk.staff_file.exists()
    assert app.players == 5 and app.draw().screen == "race"


def test_shut_down_from_the_menu_over_a_preset(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = races(kiosk, "grab")
    hold_combo(app)
    tap(app, "staff_page", "confirm-shutdown")
    tap(app, "staff_yes")
    assert app.quit and kiosk.shutdown_requested


def test_the_menu_over_a_preset_locks_again_when_left_alone(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = races(kiosk, "grab")
    hold_combo(app)
    assert app.ui.staff_open
    rig = rig_of(app)
    rig.t_ns = app.last_activity_ns + STAFF_IDLE_NS - 1     # untouched since the menu opened
    app.poll()
    assert app.ui.staff_open
    rig.t_ns += 1
    app.poll()
    assert not app.ui.staff_open and app.draw().screen == "race"


def test_players_volume_and_language_from_the_menu_over_a_preset(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = races(kiosk, "grab")
    rig = rig_of(app)
    # A race first, so that the session has a result to keep.
    app.race.host(Act("start"))
    for _ in range(400):
        rig.t_ns += 16 * MS
        app.poll()
        if app.race.session.phase is Phase.RUNNING:
            break
    race = app.race.session.race
    assert race is not None and race.go_t_ns is not None
    rig.t_ns = race.go_t_ns + 500 * MS
    rig.events += [Press(3, race.go_t_ns + 210 * MS, rig.clock), Release(3, race.go_t_ns + 300 * MS, rig.clock)]
    app.poll()
    assert app.race.session.wins(3) == 1 and app.log is not None and app.log.count > 0
    first = app.race.session
    hold_combo(app)
    assert "Players: 5" in texts(app)
    assert not [s for s in app.draw().hotspots if s.act == Act("staff_players", 1)]   # 5 is the most here
    tap(app, "staff_players", -1)
    tap(app, "staff_players", -1)
    assert app.players == 3 and app.race.session.seats == 3 and app.race.session.results == ()
    # The session so far, kept in memory (its race 2, which the combination's Caught! started,
    # was called off and left nothing).
    [kept] = kiosk.race_sessions
    assert kept.results == first.results and kept.number == 2 and kept.phase is Phase.READY
    assert staff_file(kiosk)["game_players"] == 3
    assert "3 players from now on: the tally starts again." in notices(app)
    tap(app, "staff_volume", -10)
    assert kiosk.config.volume == 70 and staff_file(kiosk)["volume"] == 70
    tap(app, "staff_lang")
    assert kiosk.config.lang == "de" and app.race.lang == "de" and "Personalmenü" in texts(app)
    # The next start of the preset takes the players kept.
    assert races(kiosk, "grab").players == 3 and races(kiosk, "duel").players == 2


# -- refusals and bad files -------------------------------------------------------------------

def test_a_preset_the_seats_cannot_play_is_refused_in_the_menu_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "data" / "referee").mkdir(parents=True)
    (tmp_path / "data" / "referee" / "big-table.toml").write_text(BIG_TABLE)
    kiosk = make_kiosk(tmp_path / "data")
    app = table_app(kiosk)
    hold_combo(app)
    show_game(app, "big-table")
    shown = texts(app)
    assert "Table game: Big table" in shown and "Needs at least 6 players: this rig has 5 seat buttons." in shown
    assert not [s for s in app.draw().hotspots if s.act.kind == "staff_switch"]   # greyed out
    app.console.perform(Act("staff_switch", "big-table"), app.table)           # however it comes
    assert not app.console.quit and kiosk.config.game == CHEATING_MOTH and not kiosk.staff_file.exists()
    assert any("race preset 'big-table' needs at least 6 players" in n for n in notices(app))


@pytest.mark.parametrize("where, body, words", [
    ("config", '[kiosk]\ngame = "bell-slpa"\n',
     "table game 'bell-slpa' is not a race preset on this rig: running Cheating Moth; use one of cheating-moth, "),
    ("staff", '[kiosk]\ngame = "quiz"\n', "table game 'quiz' is not a race preset on this rig"),
    ("config", "[kiosk]\ngame = 3\n", "config problem, running on defaults: "),
    ("staff", "[kiosk]\ngame = [1, 2]\n", "staff settings ignored, running without them: "),
    ("staff", '[kiosk]\ngame = "big-table"\n',
     "race preset 'big-table' needs at least 6 players, but the 5 seat buttons wired cannot seat them"),
    ("staff", "[kiosk]\nplayers = 12\n", "staff settings ignored, running without them: "),
])
def test_a_bad_table_game_in_a_file_still_starts_the_kiosk_with_a_notice(
        tmp_path: Path, wired: list[FakeRig], where: str, body: str, words: str) -> None:
    (tmp_path / "data" / "referee").mkdir(parents=True)
    (tmp_path / "data" / "referee" / "big-table.toml").write_text(BIG_TABLE)
    if where == "staff":
        (tmp_path / "data" / "staff.toml").write_text(body)
    session = start(tmp_path, body if where == "config" else "")
    try:
        assert isinstance(session.app, App) and session.game == CHEATING_MOTH
        assert session.app.run(max_frames=1) == 1 and session.app.frame is not None
        said = notices(session.app)
        assert any(words in n for n in said), said
        assert not session.switch_wanted()       # the loop does not try to run the bad game
    finally:
        session.close()


# -- the kiosk's loop and systemd's watchdog ----------------------------------------------------

@pytest.fixture()
def systemd(tmp_path: Path) -> Iterator[tuple[socket.socket, dict[str, str]]]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield sock, {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}      # fed every second
    sock.close()


def test_the_watchdog_is_fed_through_a_switch_and_in_referee_mode(
        tmp_path: Path, wired: list[FakeRig], systemd: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = systemd
    session = start(tmp_path)
    clock = itertools.count(0, S)                # each frame a second later: each one feeds it
    feed = cmd_kiosk.watchdog_feeder(Watchdog(env), lambda: next(clock), env)
    ran: list[str] = []

    def script(app: object) -> None:
        feed(app)
        assert isinstance(app, (App, KioskRaces))
        ran.append("moth" if isinstance(app, App) else "races")
        if len(ran) == 2:                        # staff switch the table to a preset
            hold_combo(app)
            show_game(app, "last-hand-down")
            tap(app, "staff_switch")
        if len(ran) == 6:                        # and, in the preset, shut down
            hold_combo(app)
            tap(app, "staff_page", "confirm-shutdown")
            tap(app, "staff_yes")

    try:
        cmd_kiosk.run_kiosk(session, script)
    finally:
        session.close()
    assert ran == ["moth", "moth", "races", "races", "races", "races"]
    assert session.kiosk.shutdown_requested and session.kiosk.config.game == "last-hand-down"
    said = [sock.recv(100) for _ in range(len(ran) + 1)]
    assert said == [b"READY=1"] + [b"WATCHDOG=1"] * len(ran)


# -- the screens laid out ---------------------------------------------------------------------

def _menus(kiosk: Kiosk) -> dict[str, Callable[[pygame.Surface, str], Laid]]:
    """Every new staff screen: the card game's menu with each table game shown, and the staff
    screens over a preset (menu, keypad, confirmation)."""
    games = kiosk.table_games(5)
    base = scenes()["play"]
    made: dict[str, Callable[[pygame.Surface, str], Laid]] = {}

    def card_menu(shown: str) -> Callable[[pygame.Surface, str], Laid]:
        def drawn(surface: pygame.Surface, lang: str) -> Laid:
            ui = copy.deepcopy(base.ui)
            ui.locked, ui.rig, ui.volume, ui.staff_page = True, RigConfig(), 70, "menu"
            ui.games, ui.game_choice = games, shown
            frame = draw(surface, fonts(lang), Scene(base.table, ui, base.now_ns), lang)
            return list(frame.overflows), list(frame.hotspots), list(frame.boxes)
        return drawn

    def race_screen(shown: str, **fields: object) -> Callable[[pygame.Surface, str], Laid]:
        def drawn(surface: pygame.Surface, lang: str) -> Laid:
            ui = copy.deepcopy(base.ui)
            ui.locked, ui.rig, ui.volume, ui.staff_page = True, RigConfig(), 70, "menu"
            ui.games, ui.game, ui.game_choice = games, "grab", shown
            for name, value in fields.items():
                setattr(ui, name, value)
            p = Painter(surface, fonts(lang), lang)
            draw_races_staff(p, RacesStaffView(ui, base.now_ns, 4, 2, 5))
            return list(p.overflows), list(p.hotspots), list(p.boxes)
        return drawn

    for game in games:
        made[f"menu:{game.id}"] = card_menu(game.id)
        made[f"races:{game.id}"] = race_screen(game.id)
    made["races:pin"] = race_screen("grab", pin_open=True, pin_entry="1234", pin_note="ui_pin_wrong")
    made["races:confirm"] = race_screen("grab", staff_page="confirm-shutdown")
    return made


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_game_screens_lay_out(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    (tmp_path / "data" / "referee").mkdir(parents=True)
    (tmp_path / "data" / "referee" / "big-table.toml").write_text(BIG_TABLE)
    kiosk = make_kiosk(tmp_path / "data")
    floor = int(48 * theme.scale_of(*size))
    problems: list[str] = []
    for name, drawn in _menus(kiosk).items():
        overflows, hotspots, boxes = drawn(pygame.Surface(size), lang)
        problems += [f"{name}: {o.text!r} does not fit {o.box}" for o in overflows]
        for spot in hotspots:
            if spot.rect.width < floor or spot.rect.height < floor:
                problems.append(f"{name}: {spot.act.kind} is {spot.rect.size} px, under {floor} px")
        shown = [b for b in boxes if b.covered.width and b.covered.height]
        for a, b in itertools.combinations(shown, 2):
            if a.covered.colliderect(b.covered):
                problems.append(f"{name}: {a.text!r} overlaps {b.text!r}")
        problems += [f"{name}: {b.text!r} leaves its box" for b in shown if not b.box.contains(b.covered)]
    assert problems == []


def _one_race(app: KioskRaces, winner: int) -> None:
    """The host starts a race, GO comes, ``winner`` presses first."""
    rig = rig_of(app)
    app.race.host(Act("start"))
    for _ in range(400):
        rig.t_ns += 16 * MS
        app.poll()
        if app.race.session.phase is Phase.RUNNING:
            break
    race = app.race.session.race
    assert race is not None and race.go_t_ns is not None
    # The session's times are the rig's plus the shift that carries a resumed time line on.
    go = race.go_t_ns - getattr(app.race.adapter, "shift_ns", 0)
    rig.t_ns = go + 500 * MS
    rig.events += [Press(winner, go + 210 * MS, rig.clock), Release(winner, go + 300 * MS, rig.clock)]
    app.poll()
    assert app.race.session.phase is Phase.DECIDED


def test_a_pulled_plug_resumes_the_referee_session_with_its_tally(tmp_path: Path) -> None:
    """The kiosk's referee session is logged in race.db: a restart (a new process, the rig's
    clock started again at zero) resumes it, the race then armed called off and said, the
    tally kept, the time line carried on; the next race is judged on the new clock."""
    data = tmp_path / "data"
    app = races(make_kiosk(data, game="grab"), "grab")
    _one_race(app, 2)
    app.race.host(Act("start"))                      # race 2 armed ... and the plug is pulled
    assert app.race.session.phase is Phase.ARMED and (data / "race.db").exists()
    before = app.race.session

    kiosk = make_kiosk(data, game="grab")
    rig = FakeRig()
    rig.t_ns = 5 * S                                 # the new boot's clock, far behind the log's
    again = races(kiosk, "grab", rig)
    s = again.race.session
    assert s.wins(2) == 1 and s.results == before.results and s.phase is Phase.READY and s.number == 2
    assert any("race 2 was armed when the rig stopped" in note for note in kiosk.notes)
    assert again.race.adapter.now_ns() > before.now_t_ns      # the time line goes on
    _one_race(again, 4)
    assert again.race.session.wins(4) == 1 and again.race.session.wins(2) == 1
    assert again.race.session.results[-1].places[0].reaction_ns == 210 * MS


def test_a_session_that_ends_is_filed_and_a_broken_log_is_moved_aside(tmp_path: Path) -> None:
    data = tmp_path / "data"
    kiosk = make_kiosk(data, game="grab")
    app = races(kiosk, "grab")
    _one_race(app, 1)
    app.end()                                        # staff switch the table away
    filed = sorted((data / "races").glob("race-*.db"))
    assert [p.name for p in filed] == ["race-20261205-200000-grab.db"] and not (data / "race.db").exists()
    report = (data / "races" / "race-20261205-200000-grab.html").read_text(encoding="utf-8")
    assert "<svg" in report and "Grab" in report and "2026-12-05 20:00" in report
    # A race.db that is not a log at all: moved aside with a note, and the kiosk plays on.
    (data / "race.db").write_bytes(b"garbage, not SQLite" * 100)
    kiosk = make_kiosk(data, game="grab")
    app = races(kiosk, "grab")
    assert app.race.session.results == () and any("moved to" in note for note in kiosk.notes)
    assert list((data / "aside").glob("race-*"))
    _one_race(app, 0)


def test_a_touch_only_table_reaches_the_staff_gate_from_the_race_screen(tmp_path: Path) -> None:
    app = races(make_kiosk(tmp_path / "data", game="duel"), "duel")
    frame = app.draw()
    assert frame.overflows == ()
    assert "Esc" not in texts(app)                       # a kiosk is not quit from a keyboard
    tap(app, "settings")
    assert app.ui.pin_open


def test_the_kiosks_simulated_table_plays_the_chosen_preset_and_resumes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``kiosk --input sim`` (the soak run) plays the table's game: with ``[kiosk] game`` a
    preset, its session logged in race.db, and a second run goes on from it."""
    from game.app.cli import main

    config = tmp_path / "config.toml"
    config.write_text('[kiosk]\ngame = "last-hand-down"\nplayers = 3\n', encoding="utf-8")
    argv = ["kiosk", "--input", "sim", "--data", str(tmp_path / "data"), "--config", str(config), "--seed", "2"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "Last hand down: 8 races counted; losses: Ali " in first and (tmp_path / "data" / "race.db").exists()
    assert main(argv) == 0
    again = capsys.readouterr().out
    assert "Resumed the referee session in" in again and "Last hand down: 16 races counted" in again
    last = [line for line in first.splitlines() if line.startswith("race ")][-1]
    number = int(last.split(":")[0].split()[1])
    assert f"race {number + 1}: " in again
