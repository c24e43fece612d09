"""Kiosk mode's staff gate and menu: F1, Tab and the settings button meet a PIN keypad (never
the settings); wrong PINs are refused and rate-limited with a visible wait; the right PIN or the
Caught! + seat 1 combination held long enough opens the staff menu; staff changes are applied
and kept in staff.toml; guests cannot reach any of it. Time is the fake rig's clock: no sleeps."""

from __future__ import annotations

import grp
import os
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pygame
import pytest
from display_helpers import fonts
from test_display_app import FakeRig

from game.app.kiosk import Kiosk, load_staff_overrides
from game.app.leaderboard import FinishedGame, Period
from game.app.rigconfig import RigConfig, with_changes
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.glass import SETTLE_NS
from game.app.ui.loop import App
from game.app.ui.sound import Sounds, pre_init
from game.app.ui.state import UiState
from game.controller import Stage, TableSettings
from game.inputs import CaughtPress, CaughtRelease, Press, Release
from game.app.pinfile import write_pin_file
from game.staff import FIRST_WAIT_NS
from game.variants import CockroachRacers

MS = 1_000_000
S = 1_000_000_000
PIN = "246813"
#: Few PBKDF2 iterations keep the tests fast (the count is stored in the PIN file).
FAST = 1_000
CAFE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 25, 20, 0, tzinfo=CAFE)


def make_kiosk(data: Path, **config: object) -> Kiosk:
    """A kiosk whose PIN file (beside the data folder) holds PIN: what a restart reads again."""
    pin_file = data.parent / "staff-pin.toml"
    if not pin_file.exists():
        write_pin_file(pin_file, PIN, iterations=FAST, group=grp.getgrgid(os.getgid()).gr_name)
    base = RigConfig(combo_hold_ms=3_000)
    return Kiosk(data, with_changes(base, **config), wall_clock=lambda: NOW, pin_file=pin_file)


def make_app(kiosk: Kiosk | None, attract_after_ns: int | None = None) -> App:
    pre_init()
    pygame.init()
    rig = FakeRig()
    if kiosk is not None:
        settings = kiosk.config.table_settings(5, rig.clock, rig.resolution_ns)
        log = kiosk.open_log(settings, 7, rig.now_ns())
    else:
        settings, log = TableSettings(seats=5, clock=rig.clock, resolution_ns=rig.resolution_ns), None
    return App(detected=Detected(rig, "gpio"), settings=settings, seed=7, ui=UiState(), fonts=fonts("en"),
               surface=pygame.Surface((800, 480)), sounds=Sounds(), log=log, kiosk=kiosk,
               attract_after_ns=attract_after_ns)


@pytest.fixture()
def kiosk(tmp_path: Path) -> Kiosk:
    return make_kiosk(tmp_path / "data")


@pytest.fixture()
def app(kiosk: Kiosk) -> App:
    return make_app(kiosk)


def rig_of(app: App) -> FakeRig:
    assert isinstance(app.adapter, FakeRig)
    return app.adapter


def key(app: App, k: int) -> None:
    app.draw()
    rig_of(app).t_ns += SETTLE_NS          # a person reads the screen before a key
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k))


def tap(app: App, kind: str, value: object = None) -> None:
    """A tap (left click) on the button drawn for ``Act(kind, value)``."""
    frame = app.draw()
    spots = [s for s in frame.hotspots if s.act.kind == kind and (value is None or s.act.value == value)]
    assert spots, (frame.screen, kind, value, [s.act for s in frame.hotspots])
    pos = spots[0].rect.center
    rig_of(app).t_ns += SETTLE_NS          # the screen has settled before the finger lands
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos, touch=False))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos, touch=False))


def type_pin(app: App, pin: str) -> None:
    for digit in pin:
        tap(app, "pin_digit", int(digit))
    tap(app, "pin_ok")


def open_menu(app: App) -> None:
    key(app, pygame.K_F1)
    for digit in PIN:
        key(app, getattr(pygame, f"K_{digit}"))
    key(app, pygame.K_RETURN)
    assert app.draw().screen == "staff"


def texts(app: App) -> str:
    return "\n".join(t for t, _ in app.draw().texts)


# -- the gate --------------------------------------------------------------------------------

def test_f1_tab_and_the_settings_button_show_the_pin_keypad_not_the_settings(app: App) -> None:
    openers: list[Callable[[], None]] = [
        lambda: key(app, pygame.K_F1), lambda: key(app, pygame.K_TAB), lambda: tap(app, "settings")]
    for opener in openers:
        opener()
        frame = app.draw()
        assert frame.screen == "pin" and not app.ui.settings_open
        acts = {s.act.kind for s in frame.hotspots}
        assert "variant" not in acts and "lang" not in acts and not any(a.startswith("staff_") for a in acts)
        key(app, pygame.K_ESCAPE)                     # back, and Esc never quits a kiosk
        assert app.draw().screen == "join" and not app.console.quit
    key(app, pygame.K_ESCAPE)
    assert not app.console.quit


def test_a_wrong_pin_is_refused_and_the_third_locks_with_a_visible_wait(app: App, kiosk: Kiosk) -> None:
    rig = rig_of(app)
    tap(app, "settings")
    type_pin(app, "111111")
    assert app.draw().screen == "pin" and "Wrong PIN." in texts(app)
    type_pin(app, "222222")
    assert app.draw().screen == "pin"
    type_pin(app, "333333")                             # the third: the lock waits
    assert app.ui.pin_until_ns == rig.t_ns + FIRST_WAIT_NS
    assert "Too many wrong PINs: try again in 30 s." in texts(app)
    frame = app.draw()
    assert not [s for s in frame.hotspots if s.act.kind == "pin_ok"]   # OK is greyed out
    rig.t_ns += 10 * S
    assert "try again in 20 s" in texts(app)
    # Even the right PIN is not checked while the wait runs (typed, Enter on the keyboard).
    assert kiosk.lock is not None
    wrong_before = kiosk.lock.wrong
    for digit in PIN:
        key(app, getattr(pygame, f"K_{digit}"))
    key(app, pygame.K_RETURN)
    assert app.draw().screen == "pin" and kiosk.lock.wrong == wrong_before
    rig.t_ns += 21 * S                                # the wait is over
    assert "Staff only" in texts(app)
    type_pin(app, PIN)
    assert app.draw().screen == "staff" and app.ui.staff_open


def test_a_restart_keeps_the_wrong_pin_wait(tmp_path: Path) -> None:
    app = make_app(make_kiosk(tmp_path / "data"))
    tap(app, "settings")
    for wrong in ("111111", "222222", "333333"):
        type_pin(app, wrong)
    assert "Too many wrong PINs: try again in 30 s." in texts(app)
    # The kiosk restarts (a pulled plug): a new kiosk, a new app, a rig clock that starts again.
    restarted = make_kiosk(tmp_path / "data")
    assert restarted.lock is not None and restarted.lock.wrong == 3
    app = make_app(restarted)
    rig = rig_of(app)
    tap(app, "settings")
    type_pin(app, PIN)                                # the right PIN, but the wait starts again
    assert app.draw().screen == "pin" and "Too many wrong PINs: try again in 30 s." in texts(app)
    assert app.ui.pin_until_ns == rig.t_ns + FIRST_WAIT_NS
    rig.t_ns += FIRST_WAIT_NS
    type_pin(app, PIN)
    assert app.draw().screen == "staff"
    assert make_kiosk(tmp_path / "data").lock.wrong == 0   # the right PIN cleared the saved count


def test_a_pin_still_in_the_config_file_is_ignored_with_a_notice(tmp_path: Path) -> None:
    old = RigConfig(pin_hash="ab" * 32, pin_salt="00" * 16)
    kiosk = Kiosk(tmp_path / "data", old, wall_clock=lambda: NOW, pin_file=tmp_path / "staff-pin.toml")
    assert kiosk.lock is None
    assert any("is no longer used: set it again with 'sudo cheating-moth staff-pin'" in n for n in kiosk.notes)
    # With a PIN file as well, the file's PIN counts and the old lines are named for deletion.
    kiosk = make_kiosk(tmp_path / "data", pin_hash="ab" * 32, pin_salt="00" * 16)
    assert kiosk.lock is not None and kiosk.try_pin(PIN, 0) == (True, 0)
    assert any("still holds an old staff PIN (pin-hash, pin-salt), which is ignored" in n for n in kiosk.notes)


def test_a_damaged_pin_file_leaves_the_combination_and_a_notice(tmp_path: Path) -> None:
    (tmp_path / "staff-pin.toml").write_text('algorithm = "md5"\n')
    kiosk = make_kiosk(tmp_path / "data")
    assert kiosk.lock is None
    assert any("has algorithm 'md5'" in n and "button combination" in n for n in kiosk.notes)


def test_the_right_pin_opens_the_staff_menu_by_touch_and_by_keys(app: App) -> None:
    tap(app, "settings")
    tap(app, "pin_digit", 9)
    tap(app, "pin_clear")                             # a slip, cleared
    type_pin(app, PIN)
    frame = app.draw()
    assert frame.screen == "staff"
    acts = {s.act for s in frame.hotspots}
    assert {Act("settings"), Act("staff_page", "timings"), Act("staff_page", "deck"), Act("staff_page", "confirm-end"),
            Act("staff_page", "confirm-reset"), Act("staff_page", "confirm-shutdown"), Act("back")} <= acts
    tap(app, "settings")                              # house rules and language: the settings screen
    assert app.draw().screen == "settings"
    key(app, pygame.K_ESCAPE)                         # back to the menu, not out of it
    assert app.draw().screen == "staff"
    tap(app, "back")                                  # leaving the menu locks it again
    assert app.draw().screen == "join"
    key(app, pygame.K_F1)
    assert app.draw().screen == "pin"
    key(app, pygame.K_ESCAPE)
    open_menu(app)


def test_without_a_pin_configured_the_keypad_says_so_and_never_opens(tmp_path: Path) -> None:
    app = make_app(Kiosk(tmp_path, RigConfig(), wall_clock=lambda: NOW))
    tap(app, "settings")
    type_pin(app, "000000")
    assert app.draw().screen == "pin" and "button combination" in texts(app)
    assert "Caught" not in texts(app)                 # the keypad never tells guests which buttons


def test_guests_cannot_reach_the_staff_menu(app: App, kiosk: Kiosk) -> None:
    table = app.table
    # Staff acts, however produced, do nothing while the menu is closed.
    for act in (Act("staff_yes"), Act("staff_page", "confirm-shutdown"), Act("staff_volume", 10),
                Act("staff_timing", ("race_timeout_ms", 250)), Act("pin_ok")):
        assert app.console.perform(act, table) == []
    app.ui.staff_page = None
    assert app.ui.staff_page is None and not kiosk.shutdown_requested
    assert app.draw().screen == "join"
    # Any key a guest might try: still no menu, no settings.
    for k in (pygame.K_F1, pygame.K_0, pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_RETURN, pygame.K_RETURN,
              pygame.K_TAB, pygame.K_ESCAPE, pygame.K_g, pygame.K_F1):
        key(app, k)
        assert app.draw().screen in ("pin", "join")
        assert not app.ui.settings_open and not app.ui.staff_open
    assert not (kiosk.data / "staff.toml").exists()


def test_without_a_kiosk_f1_opens_the_settings_directly() -> None:
    app = make_app(None)
    key(app, pygame.K_F1)
    assert app.draw().screen == "settings" and not app.ui.locked
    key(app, pygame.K_ESCAPE)
    assert app.draw().screen == "join"
    app.ui.settings_open = False
    rig = rig_of(app)
    rig.events += [CaughtPress(rig.t_ns, "fake"), Press(0, rig.t_ns, "fake")]
    app.poll()
    rig.t_ns += 60 * S
    app.poll()
    assert app.draw().screen == "join" and app.combo is None


# -- the button combination -------------------------------------------------------------------

def test_the_combination_held_long_enough_opens_the_pin_keypad_and_the_presses_still_count(app: App) -> None:
    rig = rig_of(app)
    t = rig.t_ns
    rig.events += [CaughtPress(t, "fake"), Press(0, t + 200 * MS, "fake")]
    rig.t_ns = t + 200 * MS
    app.poll()
    assert app.table.seated == (0,)                   # seat 1's press went to the controller
    rig.t_ns = t + 200 * MS + 2_999 * MS
    app.poll()
    assert app.draw().screen == "join"
    rig.t_ns = t + 200 * MS + 3_000 * MS              # both held for combo_hold_ms
    app.poll()
    # A PIN is set: the keypad (typed with the seat buttons), never the menu itself (issue 21).
    assert app.draw().screen == "pin" and app.ui.pin_buttons and not app.ui.staff_open


def test_a_combination_held_too_short_does_not_open(app: App) -> None:
    rig = rig_of(app)
    t = rig.t_ns
    rig.events += [Press(0, t, "fake"), CaughtPress(t + 100 * MS, "fake"), CaughtRelease(t + 2_500 * MS, "fake")]
    rig.t_ns = t + 2_500 * MS
    app.poll()
    rig.t_ns = t + 10 * S                             # seat 1 still held, Caught! let go
    app.poll()
    rig.events += [CaughtPress(rig.t_ns, "fake"), Release(0, rig.t_ns + 1 * S, "fake")]
    rig.t_ns += 1 * S
    app.poll()
    rig.t_ns += 30 * S
    app.poll()
    assert app.draw().screen == "join" and not app.ui.staff_open and not app.ui.pin_open


def test_the_keyboard_combination_opens_it_too(app: App) -> None:
    rig = rig_of(app)
    app.draw()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))     # Caught!
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q))         # seat 1
    rig.t_ns += 3 * S
    app.poll()
    assert app.draw().screen == "pin"
    app.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE))
    app.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_q))
    # The keyboard seats type on it as the wired buttons do: Q turns the dial, T keeps, Space is OK.
    rig.t_ns += SETTLE_NS
    for digit in PIN:
        for k in [pygame.K_q] * int(digit) + [pygame.K_t]:
            app.handle(pygame.event.Event(pygame.KEYDOWN, key=k))
            app.handle(pygame.event.Event(pygame.KEYUP, key=k))
            rig.t_ns += 100 * MS
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    assert app.draw().screen == "staff"


# -- the staff menu's items -------------------------------------------------------------------

def test_volume_is_applied_and_kept(app: App, kiosk: Kiosk) -> None:
    open_menu(app)
    assert app.sounds.volume == 80 and "Volume 80 %" in texts(app)
    tap(app, "staff_volume", 10)
    tap(app, "staff_volume", 10)                      # 100: + is greyed out
    assert app.sounds.volume == 100 and app.ui.volume == 100 and "Volume 100 %" in texts(app)
    assert not [s for s in app.draw().hotspots if s.act == Act("staff_volume", 10)]
    tap(app, "staff_volume", -10)
    assert app.sounds.volume == 90 and kiosk.config.volume == 90
    assert load_staff_overrides(kiosk.data / "staff.toml") == {"volume": 90}
    assert 'volume = 90' in (kiosk.data / "staff.toml").read_text()


def test_timings_are_kept_and_apply_from_the_next_game(app: App, kiosk: Kiosk) -> None:
    rig = rig_of(app)
    for seat in (0, 1, 2):
        rig.tap(seat)
    app.poll()
    key(app, pygame.K_RETURN)                         # a game in progress
    assert app.table.stage is Stage.OLDEST
    open_menu(app)
    tap(app, "staff_page", "timings")
    assert app.draw().screen == "staff-timings" and "3 s" in texts(app)
    tap(app, "staff_timing", ("race_timeout_ms", 250))
    tap(app, "staff_timing", ("vote_window_ms", 1_000))
    for _ in range(3):
        tap(app, "staff_timing", ("fore_period_max_ms", -100))
    assert "3.25 s" in texts(app) and "11 s" in texts(app) and "2.2 s" in texts(app)
    assert (kiosk.config.race_timeout_ms, kiosk.config.vote_window_ms, kiosk.config.fore_period_max_ms) == (
        3_250, 11_000, 2_200)
    assert app.table.settings.race_timeout_ns == 3_000 * MS            # not this game
    kept = load_staff_overrides(kiosk.data / "staff.toml", kiosk.config)
    assert kept == {"race_timeout_ms": 3_250, "vote_window_ms": 11_000, "fore_period_max_ms": 2_200,
                    "fore_period_min_ms": 800}
    # The lead's start: the config file's values, then staff.toml over them.
    restarted = with_changes(RigConfig(), **load_staff_overrides(kiosk.data / "staff.toml"))
    assert restarted.race_timeout_ms == 3_250
    key(app, pygame.K_ESCAPE)
    tap(app, "staff_page", "confirm-end")
    assert app.draw().screen == "staff-confirm"
    tap(app, "staff_yes")                            # end the game
    assert app.table.stage.value == "join" and not app.table.game.players
    s = app.table.settings
    assert (s.race_timeout_ns, s.vote_window_ns, s.fore_period_max_ns) == (3_250 * MS, 11_000 * MS, 2_200 * MS)
    assert s.clock == "fake" and s.seats == 5
    assert app.draw().screen == "join" and not app.ui.staff_open
    assert list((kiosk.data / "games").glob("game-*-ended.db"))       # the ended game's log is filed
    assert app.log is not None and app.log.steps == []                 # the next game has a fresh log
    assert kiosk.board(Period.ALL) == []                               # and it did not count


def test_the_fore_period_minimum_never_exceeds_the_maximum(app: App, kiosk: Kiosk) -> None:
    open_menu(app)
    tap(app, "staff_page", "timings")
    for _ in range(20):
        tap(app, "staff_timing", ("fore_period_min_ms", 100))
    assert kiosk.config.fore_period_min_ms == kiosk.config.fore_period_max_ms == 2_800
    for _ in range(200):
        app.staff_act(Act("staff_timing", ("race_timeout_ms", -250)))
    assert kiosk.config.race_timeout_ms == 500                         # the config file's lower bound
    assert load_staff_overrides(kiosk.data / "staff.toml")["fore_period_min_ms"] == 2_800


def test_rules_and_language_changed_by_staff_are_kept(app: App, kiosk: Kiosk) -> None:
    open_menu(app)
    tap(app, "settings")
    tap(app, "variant", "cockroach_racers")
    tap(app, "lang", "de")
    assert app.table.settings.rules.cockroach_racers is CockroachRacers.OTHERS
    kept = load_staff_overrides(kiosk.data / "staff.toml", kiosk.config)
    assert kept["rules"].cockroach_racers is CockroachRacers.OTHERS and kept["lang"] == "de"
    assert kept["rules"].deck == kiosk.config.rules.deck


def test_seats_and_deck_are_shown(app: App) -> None:
    open_menu(app)
    tap(app, "staff_page", "deck")
    said = texts(app)
    assert app.draw().screen == "staff-deck"
    assert "Seat buttons wired: 5" in said and "Deck: 71 cards" in said and "43" in said and "Moth" in said


def test_reset_the_leaderboard_asks_first(app: App, kiosk: Kiosk) -> None:
    kiosk.leaderboard.record(FinishedGame(int(NOW.timestamp()) * S, 1, ("Ali", "Bea", "Cem"), (3, 5, 9), (0,)))
    open_menu(app)
    tap(app, "staff_page", "confirm-reset")
    assert "Delete every game from the leaderboard?" in texts(app)
    tap(app, "back")                                  # No
    assert app.draw().screen == "staff" and len(kiosk.board(Period.ALL)) == 3
    tap(app, "staff_page", "confirm-reset")
    tap(app, "staff_yes")
    assert kiosk.board(Period.ALL) == [] and app.draw().screen == "staff"
    assert "The leaderboard is empty again." in texts(app)


def test_shut_down_sets_the_flag_and_leaves_the_loop(app: App, kiosk: Kiosk) -> None:
    open_menu(app)
    tap(app, "staff_page", "confirm-shutdown")
    assert not kiosk.shutdown_requested
    tap(app, "staff_yes")
    assert kiosk.shutdown_requested and app.console.quit
    assert app.run(max_frames=5) == 0                 # the loop ends at once


def test_the_menu_locks_again_when_staff_walk_away(app: App) -> None:
    open_menu(app)
    rig_of(app).t_ns += 181 * S
    app.attract(rig_of(app).t_ns)
    assert not app.ui.staff_open and app.draw().screen == "join"


def test_staff_overrides_file_missing_or_bad(tmp_path: Path) -> None:
    assert load_staff_overrides(tmp_path / "none.toml") == {}
    bad = tmp_path / "staff.toml"
    bad.write_text("[table]\nrace-timeout-ms = 1\n")
    assert load_staff_overrides(bad) == {}          # ignored (logged): the rig still starts
    bad.write_text("not toml [")
    assert load_staff_overrides(bad) == {}


def test_a_resumed_game_says_so_on_screen(kiosk: Kiosk) -> None:
    first = make_app(kiosk)
    rig = rig_of(first)
    for seat in (0, 1, 2):
        rig.tap(seat)
    first.poll()
    assert first.log is not None
    first.log.close()
    settings = kiosk.config.table_settings(5, "fake", rig.resolution_ns)
    again = App(detected=Detected(FakeRig(), "gpio"), settings=settings, seed=7, ui=UiState(), fonts=fonts("en"),
                surface=pygame.Surface((800, 480)), sounds=Sounds(), log=kiosk.open_log(settings, 7, 0),
                kiosk=kiosk, attract_after_ns=None)
    assert again.resumed and again.table.seated == (0, 1, 2)
    assert "Resumed the game where it stopped." in texts(again)
