"""The button combination never bypasses the staff PIN (issue 21, defect 7): with a PIN set,
Caught! + seat 1 held for ``combo_hold_ms`` opens the PIN keypad, not the menu, in the card game
and over a referee race preset alike; the keypad is typed with the seat buttons alone (seat 1
turns a dial 0-9 then Delete, seat 2 keeps the digit, Caught! is OK, or back with nothing
typed), explained on the screen itself; the wrong-PIN wait holds whatever the buttons do;
``[staff] combo = false`` turns the combination off; without a PIN it opens the menu as before.

Driven like a person: button edges with chosen hardware stamps through the fake rig's queue,
each pressed once the screen on the glass has settled. The rig's clock is the test's: no sleeps."""

from __future__ import annotations

import ast
import grp
import itertools
import os
import random
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pygame
import pytest
from display_helpers import fonts, scenes
from glass_table import Rig
from test_display_app import FakeRig, _seat_three_and_play

from game.app.kiosk import Kiosk
from game.app.pinfile import write_pin_file
from game.app.referee.kiosk_races import KioskRaces
from game.app.rigconfig import RigConfig, rig_config_from, with_changes
from game.app.ui import theme
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.common import Scene
from game.app.ui.glass import SETTLE_NS
from game.app.ui.loop import STAFF_IDLE_NS, App, open_keypad
from game.app.ui.paint import Painter
from game.app.ui.render import Frame, draw
from game.app.ui.screens_staff import RacesStaffView, draw_races_staff
from game.app.ui.sound import Sounds, pre_init
from game.app.ui.state import DIAL_DELETE, UiState
from game.controller import Stage
from game.errors import BadConfig
from game.i18n import LANGUAGES
from game.i18n.lookup import text
from game.inputs import CaughtPress, CaughtRelease, Press, Release
from game.referee.session import Phase
from game.staff import FIRST_WAIT_NS

MS = 1_000_000
S = 1_000_000_000
PIN = "246813"
FAST = 1_000                 # PBKDF2 iterations: the count is stored in the PIN file
HOLD_MS = 3_000              # the combination's hold in these tests
NOW = datetime(2026, 12, 5, 20, 0, tzinfo=timezone(timedelta(hours=1)))
LAYOUT_SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))
CAUGHT = None                # the red button, in ``button``'s terms

Runner = App | KioskRaces


@pytest.fixture(autouse=True)
def _display() -> None:
    pre_init()
    pygame.init()


def make_kiosk(data: Path, pin: bool = True, **config: object) -> Kiosk:
    """A kiosk; with ``pin`` its PIN file (beside the data folder) holds PIN."""
    pin_file = data.parent / "staff-pin.toml"
    if pin and not pin_file.exists():
        write_pin_file(pin_file, PIN, iterations=FAST, group=grp.getgrgid(os.getgid()).gr_name)
    base = RigConfig(combo_hold_ms=HOLD_MS)
    return Kiosk(data, with_changes(base, **config), wall_clock=lambda: NOW, pin_file=pin_file if pin else None)


def card_game(kiosk: Kiosk) -> App:
    rig = FakeRig()
    settings = kiosk.config.table_settings(rig.seats, rig.clock, rig.resolution_ns)
    return App(detected=Detected(rig, "gpio"), settings=settings, seed=7, ui=UiState(), fonts=fonts("en"),
               surface=pygame.Surface((800, 480)), sounds=Sounds(), log=kiosk.open_log(settings, 7, rig.now_ns()),
               kiosk=kiosk, attract_after_ns=None)


def race_preset(kiosk: Kiosk, game_id: str = "grab") -> KioskRaces:
    rig = FakeRig()
    game = next(g for g in kiosk.table_games(rig.seats) if g.id == game_id)
    return KioskRaces(kiosk=kiosk, detected=Detected(rig, "gpio"), game=game, surface=pygame.Surface((800, 480)),
                      fonts=fonts("en"), sounds=Sounds(), seed=3)


def rig_of(app: Runner) -> FakeRig:
    adapter = app.detected.adapter
    assert isinstance(adapter, FakeRig)
    return adapter


def screen(app: Runner) -> str:
    return app.draw().screen


def texts(frame: Frame) -> str:
    return "\n".join(t for t, _ in frame.texts)


def hold_combination(app: Runner, hold_ms: int = HOLD_MS) -> None:
    """Caught! and seat 1 pressed together, held ``hold_ms``, then let go (each poll is a
    frame's: the loop draws between them)."""
    rig = rig_of(app)
    settle(app)
    t = rig.t_ns
    rig.events += [CaughtPress(t, rig.clock), Press(0, t + 100 * MS, rig.clock)]
    rig.t_ns = t + 100 * MS
    app.poll()
    app.draw()
    rig.t_ns = t + 100 * MS + hold_ms * MS
    app.poll()
    app.draw()
    rig.t_ns += 200 * MS
    rig.events += [CaughtRelease(rig.t_ns, rig.clock), Release(0, rig.t_ns + 30 * MS, rig.clock)]
    rig.t_ns += 30 * MS
    app.poll()


def settle(app: Runner) -> None:
    """A person reads the screen before pressing anything on it."""
    app.draw()
    rig_of(app).t_ns += SETTLE_NS


def button(app: Runner, seat: int | None, gap_ms: int = 120) -> None:
    """Seat ``seat``'s button (CAUGHT: the red one) pressed and let go, ``gap_ms`` after the
    last thing, then a frame."""
    rig = rig_of(app)
    rig.t_ns += gap_ms * MS
    t = rig.t_ns
    if seat is None:
        rig.events += [CaughtPress(t, rig.clock), CaughtRelease(t + 60 * MS, rig.clock)]
    else:
        rig.events += [Press(seat, t, rig.clock), Release(seat, t + 60 * MS, rig.clock)]
    rig.t_ns += 60 * MS
    app.poll()
    app.draw()


def buttons_for(pin: str) -> list[int | None]:
    """The presses that type ``pin`` on the dial (it starts at 0 after each kept digit), then OK."""
    presses: list[int | None] = []
    for digit in pin:
        presses += [0] * int(digit) + [1]
    return presses + [CAUGHT]


def type_with_buttons(app: Runner, pin: str) -> None:
    settle(app)
    for seat in buttons_for(pin):
        button(app, seat)


# -- the card game ----------------------------------------------------------------------------

def test_with_a_pin_the_combination_opens_the_keypad_not_the_menu(tmp_path: Path) -> None:
    app = card_game(make_kiosk(tmp_path / "data"))
    hold_combination(app)
    assert screen(app) == "pin" and not app.ui.staff_open
    assert app.table.seated == (0,)                   # seat 1's press still went to the game
    # The combination's own buttons, let go after the keypad opened, typed nothing.
    assert app.ui.pin_entry == "" and app.ui.pin_dial == 0
    # Caught! with nothing typed goes back to the table.
    settle(app)
    button(app, CAUGHT)
    assert screen(app) == "join" and not app.ui.pin_open
    # Held on and on (it fires again every hold), it is still only the keypad.
    hold_combination(app, hold_ms=3 * HOLD_MS + 100)
    assert screen(app) == "pin" and not app.ui.staff_open and app.ui.pin_entry == ""


def test_the_right_pin_typed_with_the_seat_buttons_alone_opens_the_menu(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data")
    app = card_game(kiosk)
    hold_combination(app)
    settle(app)
    # A slip: 2 then 9, the 9 erased with Delete (seat 1 past 9), then the rest.
    for seat in [0, 0, 1] + [0] * 9 + [1] + [0] * DIAL_DELETE:
        button(app, seat)
    assert app.ui.pin_entry == "29" and app.ui.pin_dial == DIAL_DELETE
    assert "Delete" in texts(app.draw())              # the dial shows Delete
    button(app, 1)                                    # seat 2 on Delete: the 9 is erased
    assert app.ui.pin_entry == "2" and app.ui.pin_dial == DIAL_DELETE
    button(app, 0)                                    # the dial wraps to 0
    assert app.ui.pin_dial == 0
    for rest in buttons_for(PIN[1:]):
        button(app, rest)
    assert screen(app) == "staff" and app.ui.staff_open
    assert kiosk.lock is not None and kiosk.lock.wrong == 0


def test_presses_before_the_keypad_settled_type_nothing(tmp_path: Path) -> None:
    app = card_game(make_kiosk(tmp_path / "data"))
    hold_combination(app)
    rig = rig_of(app)
    top = app.glass.top
    assert top is not None and top.screen == "pin"
    rig.t_ns = top.since_ns + SETTLE_NS - 20 * MS     # too soon: a slap meant for the game
    rig.events += [Press(0, rig.t_ns, rig.clock), Release(0, rig.t_ns + 10 * MS, rig.clock)]
    rig.t_ns += 10 * MS
    app.poll()
    assert app.ui.pin_dial == 0 and app.ui.pin_entry == ""


def test_during_the_wrong_pin_wait_no_sequence_of_buttons_opens_the_menu(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data")
    app = card_game(kiosk)
    rig = rig_of(app)
    hold_combination(app)
    for wrong in ("111111", "222222", "333333"):
        type_with_buttons(app, wrong)
        assert screen(app) == "pin"
    assert kiosk.lock is not None and kiosk.lock.wrong == 3
    started = rig.t_ns
    assert "Too many wrong PINs: try again in 30 s." in texts(app.draw())
    # Caught! leaves the keypad; the combination brings it back, still waiting: never the menu.
    settle(app)
    button(app, CAUGHT)
    assert screen(app) == "join"
    hold_combination(app)
    assert screen(app) == "pin" and not app.ui.staff_open
    assert "try again in" in texts(app.draw())
    # Every seat and the red button in a random order, with the right PIN's presses among them.
    rng = random.Random(21)
    presses: list[int | None] = [rng.choice([0, 1, 2, 3, 4]) for _ in range(40)] + [CAUGHT]
    presses += buttons_for(PIN) + [rng.choice([0, 1]) for _ in range(20)] + buttons_for(PIN)
    for seat in presses:
        if not app.ui.pin_open:
            hold_combination(app)                     # Caught! left the keypad: back again
            assert screen(app) == "pin"
            settle(app)
        button(app, seat, gap_ms=40)
        assert not app.ui.staff_open and screen(app) in ("pin", "join")
    assert rig.t_ns < started + FIRST_WAIT_NS        # all of it while the wait ran
    assert kiosk.lock.wrong == 3                      # nothing was even checked
    assert app.ui.pin_entry == ""                     # the seat buttons typed nothing
    # The wait over, the right PIN by the buttons opens the menu.
    rig.t_ns = started + FIRST_WAIT_NS
    if not app.ui.pin_open:
        hold_combination(app)
    type_with_buttons(app, PIN)
    assert screen(app) == "staff" and kiosk.lock.wrong == 0


def test_after_a_restart_the_saved_wait_holds_against_the_buttons(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data")
    app = card_game(kiosk)
    hold_combination(app)
    for wrong in ("111111", "222222", "333333"):
        type_with_buttons(app, wrong)
    # A pulled plug: a new kiosk, a new app, a rig clock that starts again.
    app = card_game(make_kiosk(tmp_path / "data"))
    hold_combination(app)
    type_with_buttons(app, PIN)                       # right, but the saved count's wait starts
    assert screen(app) == "pin" and not app.ui.staff_open
    assert "Too many wrong PINs: try again in 30 s." in texts(app.draw())


def test_with_the_combination_off_it_does_nothing(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", staff_combo=False)
    app = card_game(kiosk)
    hold_combination(app, hold_ms=10 * HOLD_MS)
    assert screen(app) == "join" and not app.ui.pin_open and not app.ui.staff_open
    assert app.table.seated == (0,)                   # the presses are the game's, as ever
    # Without a PIN as well, it still does nothing, and the keypad says how to get one.
    bare = card_game(make_kiosk(tmp_path / "bare", pin=False, staff_combo=False))
    hold_combination(bare, hold_ms=10 * HOLD_MS)
    assert screen(bare) == "join" and not bare.ui.staff_open
    bare.console.gate(Act("settings"))                # the Settings button: the PIN keypad
    bare.ui.pin_entry = "000000"
    bare.console.gate(Act("pin_ok"))
    said = texts(bare.draw())
    assert "the button combination is off" in said and "staff-pin" in said


def test_without_a_pin_the_combination_opens_the_menu_as_before(tmp_path: Path) -> None:
    app = card_game(make_kiosk(tmp_path / "data", pin=False))
    hold_combination(app)
    assert screen(app) == "staff" and app.ui.staff_open


def test_the_keypad_left_alone_closes(tmp_path: Path) -> None:
    app = card_game(make_kiosk(tmp_path / "data"))
    hold_combination(app)
    rig = rig_of(app)
    rig.t_ns = app.last_activity_ns + STAFF_IDLE_NS - 1
    app.poll()
    assert app.ui.pin_open
    rig.t_ns += 1
    app.poll()
    assert not app.ui.pin_open and screen(app) == "join"


def test_through_the_loop_keyboard_combination_then_wired_buttons_open_the_menu(tmp_path: Path) -> None:
    """The whole loop as it runs in the café: events from pygame's real queue (a keyboard's
    Space + Q held for the combination), the rig's edges delivered when their stamps come
    (wired seat buttons typing the PIN), a frame presented each turn."""
    kiosk = make_kiosk(tmp_path / "data")
    pygame.display.set_mode((800, 480))
    pygame.event.clear()
    rig = Rig()
    settings = kiosk.config.table_settings(rig.seats, rig.clock, rig.resolution_ns)
    app = App(detected=Detected(rig, "gpio"), settings=settings, seed=7, ui=UiState(), fonts=fonts("en"),
              surface=pygame.Surface((800, 480)), sounds=Sounds(), log=kiosk.open_log(settings, 7, rig.now_ns()),
              kiosk=kiosk, attract_after_ns=None)

    def wait(ms: int) -> None:
        end = rig.t_ns + ms * MS
        while rig.t_ns < end:
            rig.t_ns = min(end, rig.t_ns + 50 * MS)
            app.turn()

    app.turn()
    wait(600)
    for k in (pygame.K_SPACE, pygame.K_q):                       # Caught! and seat 1, held
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k))
    wait(HOLD_MS + 200)
    assert app.frame is not None and app.frame.screen == "pin" and not app.ui.staff_open
    for k in (pygame.K_SPACE, pygame.K_q):
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k))
    wait(600)
    assert app.ui.pin_entry == "" and app.ui.pin_dial == 0    # letting go typed nothing
    t = rig.t_ns
    for i, seat in enumerate(buttons_for(PIN)):               # the wired buttons, 150 ms apart
        at = t + (i + 1) * 150 * MS
        rig.events += ([CaughtPress(at, rig.clock), CaughtRelease(at + 60 * MS, rig.clock)] if seat is None else
                       [Press(seat, at, rig.clock), Release(seat, at + 60 * MS, rig.clock)])
    wait((len(buttons_for(PIN)) + 2) * 150)
    assert app.frame.screen == "staff" and kiosk.lock is not None and kiosk.lock.wrong == 0


def test_a_race_armed_under_the_keypad_keeps_its_buttons(tmp_path: Path) -> None:
    """A race armed or running owns every edge: a press then is the race's, never a digit; once
    the race is decided the seat buttons type again."""
    kiosk = make_kiosk(tmp_path / "data")
    app = card_game(kiosk)
    rig = _seat_three_and_play(app, pygame.K_o)       # Ali plays a mosquito 2: a race is armed
    race = app.table.race
    assert app.table.stage is Stage.RACE and race is not None and race.go_t_ns is None
    open_keypad(kiosk, app.ui)                        # as the combination does
    settle(app)
    assert screen(app) == "pin"
    rig.t_ns = race.go_due_t_ns + 1 * MS              # GO
    app.poll()
    go = app.table.race
    assert go is not None and go.go_t_ns is not None
    first, last = go.eligible[:2]                     # two racers: seat 1 or 2 among them
    assert {first, last} & {0, 1}
    rig.events += [Press(first, rig.t_ns + 150 * MS, rig.clock), Press(last, rig.t_ns + 190 * MS, rig.clock)]
    rig.t_ns += 400 * MS
    app.poll()
    app.poll()
    assert app.ui.pin_dial == 0 and app.ui.pin_entry == ""     # no digit typed...
    assert app.table.last_race is not None and app.table.last_race.loser == last   # ...the race judged them
    rig.events += [Release(first, rig.t_ns, rig.clock), Release(last, rig.t_ns, rig.clock)]
    settle(app)
    button(app, 0)
    assert app.ui.pin_dial == 1                       # decided: the keypad's again


# -- over a race preset -----------------------------------------------------------------------

def test_over_a_preset_the_combination_opens_the_keypad_and_the_buttons_type_on_it(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = race_preset(kiosk)
    hold_combination(app)
    assert screen(app) == "pin" and not app.ui.staff_open
    # The race the combination's Caught! started was called off; the keypad's presses (its
    # Caught! among them) never reach the race: no race starts under the keypad.
    number = app.race.session.number
    type_with_buttons(app, "111111")
    assert screen(app) == "pin" and "Wrong PIN." in texts(app.draw())
    assert app.race.session.phase is Phase.READY and app.race.session.number == number
    assert app.race.session.results == ()
    type_with_buttons(app, PIN)
    assert screen(app) == "staff" and app.ui.staff_open and kiosk.lock is not None and kiosk.lock.wrong == 0
    assert app.race.session.number == number


def test_over_a_preset_the_wait_holds_against_the_buttons(tmp_path: Path) -> None:
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = race_preset(kiosk)
    rig = rig_of(app)
    hold_combination(app)
    for wrong in ("111111", "222222", "333333"):
        type_with_buttons(app, wrong)
    started = rig.t_ns
    rng = random.Random(7)
    presses = [rng.choice([0, 1, 2, 3, 4]) for _ in range(30)] + buttons_for(PIN)
    settle(app)
    for seat in presses:
        if not app.ui.pin_open:
            hold_combination(app)
            settle(app)
        button(app, seat, gap_ms=40)
        assert not app.ui.staff_open
    assert rig.t_ns < started + FIRST_WAIT_NS and kiosk.lock is not None and kiosk.lock.wrong == 3
    rig.t_ns = started + FIRST_WAIT_NS
    if not app.ui.pin_open:
        hold_combination(app)
    type_with_buttons(app, PIN)
    assert screen(app) == "staff"


def test_a_wait_started_in_the_card_game_shows_at_once_over_a_preset(tmp_path: Path) -> None:
    """The table switched games (a fresh screen state), the kiosk's lock still waits: the
    keypad the combination opens says so before anything is typed, and checks nothing."""
    kiosk = make_kiosk(tmp_path / "data", game="grab")
    app = race_preset(kiosk)
    for wrong in ("111111", "222222", "333333"):
        kiosk.try_pin(wrong, rig_of(app).t_ns)        # typed at the card game's keypad just now
    hold_combination(app)
    assert screen(app) == "pin" and "Too many wrong PINs: try again in" in texts(app.draw())
    type_with_buttons(app, PIN)                       # the seats type nothing, Caught! leaves
    assert screen(app) == "race" and not app.ui.staff_open
    assert kiosk.lock is not None and kiosk.lock.wrong == 3


def test_over_a_preset_with_the_combination_off_it_does_nothing(tmp_path: Path) -> None:
    app = race_preset(make_kiosk(tmp_path / "data", game="grab", staff_combo=False))
    hold_combination(app, hold_ms=10 * HOLD_MS)
    assert screen(app) == "race" and not app.ui.pin_open and not app.ui.staff_open
    bare = race_preset(make_kiosk(tmp_path / "bare", pin=False, game="grab", staff_combo=False))
    hold_combination(bare, hold_ms=10 * HOLD_MS)
    assert screen(bare) == "race" and not bare.ui.staff_open


def test_over_a_preset_without_a_pin_the_combination_opens_the_menu(tmp_path: Path) -> None:
    app = race_preset(make_kiosk(tmp_path / "data", pin=False, game="grab"))
    hold_combination(app)
    assert screen(app) == "staff" and app.ui.staff_open


# -- the config key ---------------------------------------------------------------------------

def test_the_config_turns_the_combination_off() -> None:
    assert RigConfig().staff_combo is True
    assert rig_config_from({"staff": {"combo": False}}).staff_combo is False
    with pytest.raises(BadConfig, match=r"^config \[staff\] combo is 'no': use true or false$"):
        rig_config_from({"staff": {"combo": "no"}})


def test_the_installed_config_explains_the_key_and_turning_it_off_is_read() -> None:
    # The installer's default config.toml, read from its source (the installer is not run).
    source = (Path(__file__).parents[2] / "deploy" / "install.py").read_text(encoding="utf-8")
    [default] = [ast.literal_eval(node.value) for node in ast.parse(source).body
                 if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "DEFAULT_CONFIG"]
    assert rig_config_from(tomllib.loads(default)).staff_combo is True
    assert "# combo = true" in default and "F1/Tab" in default and "systemctl stop" in default
    off = default.replace("# combo = true ", "combo = false")
    assert rig_config_from(tomllib.loads(off)).staff_combo is False


# -- what the keypad shows --------------------------------------------------------------------

def test_the_keypad_screen_says_what_each_button_does(tmp_path: Path) -> None:
    app = card_game(make_kiosk(tmp_path / "data"))
    hold_combination(app)
    settle(app)
    for seat in (0, 0, 0, 1, 0):                      # 3 kept, the dial on 1
        button(app, seat)
    frame = app.draw()
    said = texts(frame)
    assert "Seat 1" in said and "next digit (after 9: Delete)" in said
    assert "Seat 2" in said and "keep this digit and go on to the next" in said
    assert "Caught!" in said and "OK: check the PIN (nothing typed yet: back)" in said
    assert "Staff only: enter the PIN and press OK." in said
    acts = {s.act.kind for s in frame.hotspots}
    assert "back" in acts and "pin_digit" not in acts   # no digits to tap: the buttons type
    # The ink: each row's words are drawn where they were placed, in the row's colours.
    surface = app.surface
    for words, ink in (("next digit (after 9: Delete)", theme.TEXT), ("Seat 1", theme.BLACK),
                       ("OK: check the PIN (nothing typed yet: back)", theme.TEXT)):
        [box] = [b for b in frame.boxes if b.text == words]
        assert box.covered.width > 0 and box.box.contains(box.covered)
        pixels = {tuple(surface.get_at((x, y)))[:3] for x in range(box.covered.left, box.covered.right, 2)
                  for y in range(box.covered.top, box.covered.bottom, 2)}
        assert any(_near(colour, ink) for colour in pixels), words
    # The chips carry the buttons' colours: seat 1's, seat 2's and the red Caught!.
    for colour in (theme.seat_colour(0), theme.seat_colour(1), theme.CAUGHT):
        assert _has_colour(surface, colour)
    # The dial's 1 in the keypad's warm ink, three dots for the digits kept (never the digits).
    assert "1" in said and "2" not in said.replace("Seat 2", "")
    # While the wrong-PIN wait runs, the seat rows are greyed out and Caught! says back.
    app.ui.pin_until_ns = rig_of(app).t_ns + 12 * S
    said = texts(app.draw())
    assert "Too many wrong PINs: try again in 12 s." in said
    assert "back (the keypad takes nothing while it waits)" in said and "OK: check the PIN" not in said


def _near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(abs(x - y) <= 40 for x, y in zip(a, b))


def _has_colour(surface: pygame.Surface, colour: tuple[int, int, int]) -> bool:
    w, h = surface.get_size()
    return any(tuple(surface.get_at((x, y)))[:3] == tuple(colour) for x in range(0, w, 4) for y in range(0, h, 4))


#: The button keypad as staff meet it: just opened, 8 digits typed with the dial on Delete,
#: after a wrong PIN, and with the wait running.
KEYPADS: dict[str, dict[str, object]] = {
    "open": {}, "full": {"pin_entry": "12345678", "pin_dial": DIAL_DELETE},
    "wrong": {"pin_note": "ui_pin_wrong", "pin_dial": 7}, "wait": {"pin_until_ns": 10**15}}


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_button_keypad_lays_out(lang: str, size: tuple[int, int]) -> None:
    base = scenes()["play"]
    floor = int(48 * theme.scale_of(*size))
    problems: list[str] = []
    for name, fields in KEYPADS.items():
        for where in ("card", "races"):
            ui = UiState(lang=lang, locked=True, rig=RigConfig(), pin_open=True, pin_buttons=True)
            for field_name, value in fields.items():
                setattr(ui, field_name, value)
            surface = pygame.Surface(size)
            if where == "card":
                frame = draw(surface, fonts(lang), Scene(base.table, ui, base.now_ns), lang)
                overflows, hotspots, boxes = frame.overflows, frame.hotspots, frame.boxes
                assert frame.screen == "pin"
            else:
                p = Painter(surface, fonts(lang), lang)
                assert draw_races_staff(p, RacesStaffView(ui, base.now_ns, 4, 2, 5)) == "pin"
                overflows, hotspots, boxes = tuple(p.overflows), tuple(p.hotspots), tuple(p.boxes)
            label = f"{where}:{name}"
            problems += [f"{label}: {o.text!r} does not fit {o.box}" for o in overflows]
            problems += [f"{label}: {s.act.kind} is {s.rect.size} px" for s in hotspots
                         if s.rect.width < floor or s.rect.height < floor]
            shown = [b for b in boxes if b.covered.width and b.covered.height]
            for a, b in itertools.combinations(shown, 2):
                if a.covered.colliderect(b.covered):
                    problems.append(f"{label}: {a.text!r} overlaps {b.text!r}")
            problems += [f"{label}: {b.text!r} leaves its box" for b in shown if not b.box.contains(b.covered)]
            drawn = {b.text for b in boxes}
            wanted = {text(lang, "ui_seat", seat=1), text(lang, "ui_seat", seat=2), text(lang, "ui_caught")}
            problems += [f"{label}: {w!r} is not on the screen" for w in wanted - drawn]
    assert problems == []
