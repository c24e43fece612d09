"""No key does two things on a referee screen (the issue "every tap means what the screen
showed"): the key tables (game/app/referee/keys.py) never bind a keyboard seat's key, a key
means one action in every state of its screen, and every screen a quiz or a race preset can
show (walked by seeded random play, each state's coverage asserted) binds keys only to acts
it shows as buttons, with no two tap targets over each other doing different things. The walks
press Esc now and then: "Leave?" (a screen of its own, its own key table) comes up where the
session has something to lose, is walked too while play goes on under it, and is answered
"stay"."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Iterable

import pygame
import pytest
from display_helpers import fonts
from test_display_app import FakeRig

from game.app.referee.glass import Drawn
from game.app.referee.keys import (
    KIOSK_KEYS, LEAVE, LEAVE_KEYS, LEAVING, QUIT_KEYS, QUIZ_KEYS, RACE_KEYS, SEAT_KEYS_8, STAY, race_actions,
    quiz_actions,
)
from game.app.referee.leave_screen import LEAVE_SCREEN
from game.app.referee.shell import RefereeShell
from game.app.referee.quiz_app import QuizApp
from game.app.referee.race_app import RaceApp
from game.app.ui.actions import Act
from game.app.ui.adapters import Detected
from game.app.ui.console import pin_key
from game.app.ui.sound import Sounds
from game.inputs import Press, Release
from game.referee.presets import GoSource, load_presets
from game.referee.quiz import Phase as QuizPhase
from game.referee.quiz import QuizSettings
from game.referee.session import Phase, new_session

MS = 1_000_000
NAMES = ("Ali", "Bea", "Cem", "Dan", "Eve", "Fay", "Gus", "Hal")
PRESETS = load_presets()


class Rig8(FakeRig):
    """The fake rig with eight seats (the most a referee screen seats)."""

    seats = 8


class Quiet(Sounds):
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


def name(key: int) -> str:
    return pygame.key.name(key) or str(key)


# -- the tables --------------------------------------------------------------------------------

def all_tables() -> dict[str, dict[int, str]]:
    """Every state's key table of every screen, the kiosk's and the standalone race screen's,
    and the "Leave?" question's."""
    tables = {f"quiz {state}": dict(keys) for state, keys in QUIZ_KEYS.items()}
    for state, keys in RACE_KEYS.items():
        tables[f"race {state}"] = {**keys, **QUIT_KEYS}
        tables[f"kiosk race {state}"] = {**keys, **KIOSK_KEYS}
    tables["leave asking"] = dict(LEAVE_KEYS)
    return tables


def test_no_host_key_is_a_seat_key_for_any_seat_count() -> None:
    assert len(set(SEAT_KEYS_8)) == 8
    for seats in range(2, 9):
        for screen, keys in all_tables().items():
            taken = {name(k): keys[k] for k in set(keys) & set(SEAT_KEYS_8[:seats])}
            assert taken == {}, f"{screen}: seat keys of {seats} seats also do {taken}"
    # The PIN keypad over a kiosk's race takes no seat's key either.
    assert [name(k) for k in SEAT_KEYS_8 if pin_key(k) is not None] == []


@pytest.mark.parametrize("screen", ["quiz", "race", "kiosk race", "leave"])
def test_a_key_means_one_action_in_every_state_of_its_screen(screen: str) -> None:
    meanings: dict[int, set[str]] = {}
    for table, keys in all_tables().items():
        if table.rsplit(" ", 1)[0] == screen:
            for key, action in keys.items():
                meanings.setdefault(key, set()).add(action)
    assert meanings
    assert {name(k): a for k, a in meanings.items() if len(a) > 1} == {}


def test_the_question_answers_as_the_card_games_does() -> None:
    """Enter or Y leaves, Esc or N stays: Esc twice never leaves."""
    assert {name(k): a for k, a in LEAVE_KEYS.items()} == {
        "return": LEAVE, "enter": LEAVE, "y": LEAVE, "escape": STAY, "n": STAY}
    assert LEAVE not in LEAVING and STAY not in LEAVING     # held back while the question settles


def test_statistics_is_s_and_t_is_seat_2() -> None:
    assert SEAT_KEYS_8[1] == pygame.K_t
    for state in RACE_KEYS:
        assert RACE_KEYS[state][pygame.K_s] == "stats" and pygame.K_t not in RACE_KEYS[state]


# -- every screen, walked ------------------------------------------------------------------------

def check_frame(frame: Drawn, where: str) -> None:
    """One frame's keys and tap targets: no seat key bound, every key's act shown as a button
    (quitting and the staff gate aside), no two overlapping tap targets doing different things."""
    seat_keys = {name(k): a for k, a in frame.keys.items() if k in SEAT_KEYS_8}
    assert seat_keys == {}, f"{where}: seat keys bound to {seat_keys}"
    shown = {spot.act for spot in frame.hotspots}
    unseen = {name(k): a for k, a in frame.keys.items() if a.kind not in LEAVING and a not in shown}
    assert unseen == {}, f"{where}: keys do what the screen does not show: {unseen} (shown: {shown})"
    for a, b in itertools.combinations(frame.hotspots, 2):
        assert a.act == b.act or not a.rect.colliderect(b.rect), f"{where}: {a} overlaps {b}"


class Walk:
    """Seeded random play of a referee screen on the fake rig: the clock moves, seats press
    (sometimes two at the same stamp: a tie), and the host performs acts the frame shows."""

    def __init__(self, rig: FakeRig, seats: int, seed: int, poll: Callable[[], None]) -> None:
        self.rig = rig
        self.seats = seats
        self.rng = random.Random(seed)
        self.poll = poll
        self.held: dict[int, int] = {}          # seat -> when its release is due

    def advance(self) -> None:
        self.rig.t_ns += self.rng.choice((1, 10, 60, 300, 1200, 3500)) * MS
        for seat, due in sorted(self.held.items()):
            if due <= self.rig.t_ns:
                self.rig.events.append(Release(seat, due, self.rig.clock))
                del self.held[seat]
        self.poll()

    def press(self) -> None:
        free = [seat for seat in range(self.seats) if seat not in self.held]
        for seat in self.rng.sample(free, min(len(free), self.rng.choice((1, 1, 2)))):
            self.rig.events.append(Press(seat, self.rig.t_ns, self.rig.clock))
            self.held[seat] = self.rig.t_ns + self.rng.randrange(40, 400) * MS
        self.poll()

    def everyone(self) -> None:
        """Every seat not held presses, each a little before the last (a full table racing)."""
        for i, seat in enumerate(seat for seat in range(self.seats) if seat not in self.held):
            self.rig.events.append(Press(seat, self.rig.t_ns - i * 300_000, self.rig.clock))
            self.held[seat] = self.rig.t_ns + self.rng.randrange(40, 400) * MS
        self.poll()

    def host_act(self, frame: Drawn, host: Callable[[Act], None], skip: Iterable[str] = ()) -> None:
        acts = [spot.act for spot in frame.hotspots if spot.act.kind not in skip]
        if acts:
            host(self.rng.choice(acts))


def check_question(app: RefereeShell, frame: Drawn, where: str) -> None:
    """"Leave?" on the glass: its own keys only, its two answers as its only tap targets."""
    check_frame(frame, where)
    assert frame.screen == LEAVE_SCREEN and app.at_stake(), where
    assert {k: a.kind for k, a in frame.keys.items()} == dict(LEAVE_KEYS), where
    assert sorted(spot.act.kind for spot in frame.hotspots) == [LEAVE, STAY], where


def escape(app: RefereeShell, walk: Walk, seen: set[Hashable]) -> None:
    """Esc: the question where something would be lost (else the walk would end: not pressed
    then), answered "stay" now and then (as its Keep playing button)."""
    if app.asking:
        if walk.rng.random() < 0.5:
            app.apply(Act(STAY))
    elif app.at_stake():
        app.key(pygame.K_ESCAPE, True)
        assert app.asking and not app.quit, f"Esc asked nothing over {app.frame.screen}"
        seen.add("asking")


def walk_race(preset_id: str, seats: int, seed: int, *, kiosk: bool, steps: int = 250) -> set[Hashable]:
    rig = Rig8()
    session = new_session(PRESETS.get(preset_id), seats, clock=rig.clock, resolution_ns=rig.resolution_ns,
                          seed=seed, t_ns=rig.t_ns)
    gated: list[Act] = []
    app = RaceApp(detected=Detected(rig, "board"), session=session, names=NAMES[:seats], lang="en",
                  fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=Quiet(), kiosk=kiosk,
                  gate=gated.append)
    walk = Walk(rig, seats, seed, app.poll)
    seen: set[Hashable] = set()
    for step in range(steps):
        frame = app.draw()
        s = app.session
        where = f"{preset_id} ({seats} seats, seed {seed}, step {step}, {s.phase.value}, stats {app.stats})"
        if app.asking:
            check_question(app, frame, where)
            if walk.rng.random() < 0.6:             # the race goes on under it
                walk.advance()
            else:
                walk.press()
            escape(app, walk, seen)
            continue
        check_frame(frame, where)
        assert {k: a.kind for k, a in frame.keys.items()} == {
            k: ("void" if a == "void_winner" else a) for k, a in race_actions(s, kiosk=kiosk).items()
            if k in frame.keys}
        assert (pygame.K_ESCAPE in frame.keys) is not kiosk and (pygame.K_F1 in frame.keys) is kiosk
        seen.add((s.phase, app.stats))
        if s.phase is Phase.READY and s.result is not None and s.result.rerun:
            seen.add("rerun")
        if pygame.K_v in frame.keys:
            seen.add("void")
        roll = walk.rng.random()
        if roll < 0.4:
            walk.advance()
        elif roll < 0.6:
            walk.press()
        elif roll < 0.7:
            walk.everyone()
        elif roll < 0.82:
            walk.host_act(frame, app.host, skip=("settings",))
        elif roll < 0.95:
            app.host(Act("stats"))
        elif kiosk:
            app.key(pygame.K_ESCAPE, True)          # a café's rig: Esc is nothing
            assert not app.asking and not app.quit
        else:
            escape(app, walk, seen)
    assert not kiosk or gated == []
    return seen


def race_states(preset_id: str) -> set[Hashable]:
    preset = PRESETS.get(preset_id)
    phases = [p for p in Phase if p is not Phase.ARMED or preset.go is GoSource.RIG]
    wanted: set[Hashable] = {(p, stats) for p in phases for stats in (False, True)} | {"rerun", "asking"}
    return wanted | ({"void"} if preset.table_may_void else set())


def seat_counts(preset_id: str) -> list[int]:
    preset = PRESETS.get(preset_id)
    return sorted({preset.min_players, preset.max_players})


@pytest.mark.parametrize("preset_id", sorted(PRESETS.ids))
def test_every_screen_of_a_race_preset_binds_each_key_and_tap_once(preset_id: str) -> None:
    for seats in seat_counts(preset_id):
        seen: set[Hashable] = set()
        for seed in range(2):
            seen |= walk_race(preset_id, seats, seed, kiosk=False)
        seen |= walk_race(preset_id, seats, 99, kiosk=True)
        assert race_states(preset_id) - seen == set(), f"{preset_id} with {seats} seats: not reached"


def walk_quiz(seats: int, seed: int, steps: int = 250, **settings: object) -> set[Hashable]:
    rig = Rig8()
    quiz = QuizSettings(seats=seats, clock=rig.clock, resolution_ns=rig.resolution_ns, **settings)  # type: ignore[arg-type]
    app = QuizApp(detected=Detected(rig, "board"), settings=quiz, seed=seed, names=NAMES[:seats], lang="en",
                  fonts=fonts("en"), surface=pygame.Surface((800, 480)), sounds=Quiet())
    walk = Walk(rig, seats, seed, app.poll)
    seen: set[Hashable] = set()
    for step in range(steps):
        frame = app.draw()
        s = app.state
        where = f"quiz ({seats} seats, seed {seed}, step {step}, {s.phase.value})"
        if app.asking:
            check_question(app, frame, where)
            if walk.rng.random() < 0.6:             # the quiz goes on under it
                walk.advance()
            else:
                walk.press()
            escape(app, walk, seen)
            continue
        check_frame(frame, where)
        bound = quiz_actions(s)
        assert all(bound[k] == a.kind or bound[k].startswith("shortcut_") and a.kind == "score"
                   for k, a in frame.keys.items())
        seen.add((s.phase, s.questions > 0))
        roll = walk.rng.random()
        if roll < 0.45:
            walk.advance()
        elif roll < 0.75:
            walk.press()
        elif roll < 0.95:
            walk.host_act(frame, app.host)
        else:
            escape(app, walk, seen)
    return seen


@pytest.mark.parametrize("seats", [2, 4, 8])
def test_every_screen_of_the_quiz_binds_each_key_and_tap_once(seats: int) -> None:
    seen: set[Hashable] = set()
    for seed in range(2):
        seen |= walk_quiz(seats, seed)
    seen |= walk_quiz(seats, 7, shortcuts=(10, 5, 3, 2, 1, -1, -2, -3, -5, -10), answer_ms=4000, buzz_window_ms=5000)
    wanted = {(QuizPhase.IDLE, False), (QuizPhase.IDLE, True), "asking"} | {
        (p, True) for p in QuizPhase if p is not QuizPhase.IDLE}
    assert wanted - seen == set()
