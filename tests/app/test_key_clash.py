"""No key, seat button or tap does two things on any screen of the card game (issue 20, point 7;
the quiz and the race presets are tests/app/test_referee_keys.py).

Every screen in ``render.SCREENS`` but attract (which takes no input) is built from the demo's
key scenes (display_helpers), the kiosk's staff scenes and UiState flags (quit, undo-race,
resume), some in more than one state (a card's number typed, E typed, an out picker asking).
On each, every ``pygame.K_*`` key goes down (and up) on a fresh deep copy of the scene's
UiState with a fresh Console, and the walk records what it did: the acts the console
performed, the controller inputs it made, and the UiState fields (and the console's own
flags) it changed. :func:`action` names that one action or says why it is two.

Run this file (``python tests/app/test_key_clash.py``) to print every screen's bindings,
key -> action, as walked. In short (the keyboard seats Q T P Z B J W press seats 1-7 everywhere
but the name keyboard, where they type, and a key-up releases only what its key-down pressed;
Space is Caught! on the same screens; L changes the language and F11 the full screen wherever F1 works,
but not in a café's kiosk)::

    screen           key: action
    quit             Enter/Y: yes (leave)   Esc/N: no
    undo-race        Enter/Y: undo_yes (UndoLast)   Esc/N: undo_no
    resume           Enter/Y: resume_yes   N: resume_no   Esc: ask to leave
    keyboard         Enter: key_ok (Name)   Backspace: key_delete   Esc: back   (letters type)
    pin              0-9: pin_digit   Backspace/Delete: pin_clear   Enter: pin_ok   F1/Tab/Esc: back
    staff*, settings F1/Tab/Esc: back
    photo            Enter: dismiss   U: undo (asks first)
    verdict, summary Enter: dismiss
    out              1-4: out (asks)   Enter: out_yes (Out), once it asks   Esc: back
    penalty          arrows: row, field   0-9 + = -: the value   Enter: penalty_ok (Penalty)   U: undo
    join / game-over Enter: start (StartGame) / new_game (NewGame)
    deal, play, race 1-5: the number, then N/Enter M A S C O: starter / play / laid (one input)
    play, spider     E then 1-4: out (asks)     spider: 0-9: give (GiveTo)     pick: 1-4: accuse
    join to vote,    D draw  U undo  X cancel  V void  R rearm  G/I rule  K last_card
    and game-over    F1/Tab: settings   Esc: ask to leave (back while a number or E is typed;
                     at game over: quit; in a cafe's kiosk: nothing)
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import sys
from dataclasses import dataclass
from functools import cache

import pygame
import pytest
from display_helpers import fonts, scenes, staff_scenes

from game.app.ui.actions import Act
from game.app.ui.common import Scene
from game.app.ui.console import SEAT_KEYS, Console
from game.app.ui.render import SCREENS, Frame, draw
from game.app.ui.state import UiState
from game.controller import Table
from game.controller import inputs as console
from game.inputs import CaughtPress, CaughtRelease, Press, Release

SIZES = ((800, 480), (720, 1280), (1920, 1080))
#: Every key pygame can send, once each (some K_ names are aliases of one code).
KEYS: tuple[int, ...] = tuple(sorted({getattr(pygame, n) for n in dir(pygame) if n.startswith("K_")}))
SEATS = len(SEAT_KEYS)
#: Screens that take no key or tap.
NO_INPUT = {"attract"}
#: The yes-or-no questions over a screen.
ASKS = ("quit", "quit-race", "undo-race", "resume")


def key_name(key: int) -> str:
    return pygame.key.name(key) or f"key {key}"


# -- the cases: a screen in one state ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Case:
    """A scene to press keys on, and what the console already holds (E typed before)."""

    scene: Scene
    out_pending: bool = False


def _with(scene: Scene, **fields: object) -> Scene:
    ui = copy.deepcopy(scene.ui)
    for name, value in fields.items():
        setattr(ui, name, value)
    return Scene(scene.table, ui, scene.now_ns)


@cache
def cases() -> dict[str, Case]:
    """Every card-game screen (attract aside), some in several states. Results stay up until
    Continue, as wherever people play (the demo lets them time out)."""
    made: dict[str, Case] = {}
    base = {**scenes(), **staff_scenes()}
    for name, scene in base.items():
        if name != "attract":
            made[name] = Case(_with(scene, auto_continue=False))
    s = {name: case.scene for name, case in made.items()}
    made["quit"] = Case(_with(s["play"], quit_ask=True))
    made["quit-race"] = Case(_with(s["race-live"], quit_ask=True))
    made["undo-race"] = Case(_with(s["photo"], undo_ask=True))
    made["resume"] = Case(_with(s["join"], resume_ask=True))
    made["play-number"] = Case(_with(s["play"], pending_number=3))
    made["deal-number"] = Case(_with(s["deal"], pending_number=2))
    made["race-card-number"] = Case(_with(s["race-card"], pending_number=4))
    made["play-e"] = Case(s["play"], out_pending=True)
    made["spider-e"] = Case(s["spider"], out_pending=True)
    made["out-asking"] = Case(_with(s["out"], out_confirm=1))
    made["play-last-card"] = Case(_with(s["play"], last_card=True))
    made["play-kiosk"] = Case(_with(s["play"], locked=True))
    made["penalty-typed"] = Case(_with(s["penalty"], penalty_form={s["penalty"].ui.penalty_row: [1, 0, 2]}))
    return made


CASES = ("join", "keyboard", "oldest", "deal", "play", "spider", "out", "race-ready", "race-go", "race-live",
         "race-card", "photo", "pick", "vote", "verdict", "penalty", "summary", "game-over", "settings",
         "pin", "pin-typed", "pin-wrong", "pin-wait", "pin-none", "staff-menu", "staff-timings", "staff-deck",
         "staff-confirm-reset", "staff-confirm-end", "staff-confirm-shutdown", "staff-rules",
         *ASKS, "play-number", "deal-number", "race-card-number", "play-e", "spider-e", "out-asking",
         "play-last-card", "play-kiosk", "penalty-typed")


@cache
def frame_of(name: str, size: tuple[int, int] = (800, 480)) -> Frame:
    scene = cases()[name].scene
    return draw(pygame.Surface(size), fonts(scene.ui.lang), scene)


# -- one key, recorded ---------------------------------------------------------------------------

class Recording(Console):
    """The console, noting each act it performs (a key that performs two has two meanings)."""

    def __init__(self, ui: UiState, now_ns: int) -> None:
        super().__init__(ui, lambda: now_ns, "sim", seats=SEATS)
        self.acts: list[Act] = []
        self.staff = self._staff_act

    def _staff_act(self, act: Act) -> list[console.Input]:
        self.acts.append(Act(f"staff:{act.kind}", act.value))
        return []

    def perform(self, act: Act, table: Table) -> list[console.Input]:
        self.acts.append(act)
        return super().perform(act, table)


#: The console's own state a key may change, besides the UiState.
CONSOLE_FLAGS = ("quit", "toggle_fullscreen", "_out_pending", "_mouse_seat", "_fingers")


def _shown(ui: UiState) -> dict[str, object]:
    """The UiState as the screen reads it: a penalty row of zeros made on first use is no change."""
    state = {f.name: getattr(ui, f.name) for f in dataclasses.fields(UiState)}
    state["penalty_form"] = {p: list(v) for p, v in ui.penalty_form.items() if any(v)}
    return state


@dataclass(frozen=True, slots=True)
class Effect:
    acts: tuple[Act, ...]
    inputs: tuple[console.Input, ...]
    changed: frozenset[str]              # UiState fields, and "console.<flag>"


def press(case_name: str, key: int, up: bool = False, tap: tuple[int, int] | None = None) -> Effect:
    """What ``key`` going down (or up; or a click at ``tap``) does on a fresh copy of the case."""
    case = cases()[case_name]
    scene = case.scene
    ui = copy.deepcopy(scene.ui)
    con = Recording(ui, scene.now_ns)
    con._out_pending = case.out_pending
    before_ui = copy.deepcopy(_shown(ui))
    before_con = {f: copy.copy(getattr(con, f)) for f in CONSOLE_FLAGS}
    if tap is not None:
        event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tap, button=1, touch=False)
    else:
        event = pygame.event.Event(pygame.KEYUP if up else pygame.KEYDOWN, key=key, mod=0)
    made = con.handle(event, frame_of(case_name), table_of(case_name))
    after = _shown(ui)
    changed = {name for name, value in before_ui.items() if after[name] != value}
    changed |= {f"console.{f}" for f, value in before_con.items() if getattr(con, f) != value}
    return Effect(tuple(con.acts), tuple(made), frozenset(changed))


@cache
def table_of(case_name: str) -> Table:
    """A deep copy of the case's table (the console must not change it: checked after the walk).
    A long game's history is deeper than Python's default recursion limit allows to copy."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return copy.deepcopy(cases()[case_name].scene.table)
    finally:
        sys.setrecursionlimit(limit)


# -- naming an effect ----------------------------------------------------------------------------

_PLAYED = frozenset({"last_card", "out_menu"})        # a table input ends "last card" and the out picker
_BACK = frozenset({"pin_open", "settings_open", "staff_page", "pin_entry", "pin_note", "game_choice", "out_menu",
                   "out_confirm", "keyboard_seat", "pending_number", "console._out_pending"})
#: Each act a key or tap may perform: the controller inputs it may make and the fields it may change.
ACTS: dict[str, tuple[frozenset[type], frozenset[str]]] = {
    "yes": (frozenset(), frozenset({"console.quit"})),
    "no": (frozenset(), frozenset({"quit_ask"})),
    "undo_yes": (frozenset({console.UndoLast}), frozenset({"undo_ask", "results", "verdict"})),
    "undo_no": (frozenset(), frozenset({"undo_ask"})),
    "resume_yes": (frozenset(), frozenset({"resume_choice"})),
    "resume_no": (frozenset(), frozenset({"resume_choice"})),
    "key": (frozenset(), frozenset({"keyboard_text", "keyboard_shift"})),
    "key_case": (frozenset(), frozenset({"keyboard_shift"})),
    "key_layout": (frozenset(), frozenset({"keyboard_layout"})),
    "key_delete": (frozenset(), frozenset({"keyboard_text"})),
    "key_skip": (frozenset({console.Name}), frozenset({"keyboard_seat"})),
    "key_ok": (frozenset({console.Name}), frozenset({"keyboard_seat"})),
    "keyboard": (frozenset(), frozenset({"keyboard_seat", "keyboard_shift", "keyboard_text", "keyboard_layout"})),
    "back": (frozenset(), _BACK),
    "settings": (frozenset(), frozenset({"pin_open", "pin_entry", "settings_open"})),
    # The language, and with it the name keyboard's layout while it is up (a Korean table types
    # Hangul from then on: issue 22).
    "lang": (frozenset(), frozenset({"lang", "keyboard_layout"})),
    "pin_digit": (frozenset(), frozenset({"pin_entry", "pin_note"})),
    "pin_clear": (frozenset(), frozenset({"pin_entry", "pin_note"})),
    "pin_ok": (frozenset(), frozenset()),           # the staff gate's: recorded as staff:pin_ok
    "variant": (frozenset({console.Configure}), frozenset()),
    "dismiss": (frozenset(), frozenset({"results", "verdict", "undo_ask"})),
    "undo": (frozenset({console.UndoLast}), frozenset({"undo_ask"}) | _PLAYED),
    "out_menu": (frozenset(), frozenset({"out_menu", "out_confirm"})),
    "out": (frozenset(), frozenset({"out_menu", "out_confirm", "console._out_pending"})),
    "out_no": (frozenset(), frozenset({"out_confirm"})),
    "out_yes": (frozenset({console.Out}), frozenset({"out_confirm", "out_menu"})),
    "last_card": (frozenset(), frozenset({"last_card"})),
    "penalty_add": (frozenset(), frozenset({"penalty_form", "penalty_row", "penalty_col"})),
    "penalty_ok": (frozenset({console.Penalty}), frozenset()),
    "correct_count": (frozenset({console.CorrectCount, console.Penalty}), frozenset()),
    "seat": (frozenset({Press}), frozenset({"console._mouse_seat"})),
    "starter": (frozenset({console.Starter}), frozenset({"pending_number"}) | _PLAYED),
    "play": (frozenset({console.Play}), frozenset({"pending_number"}) | _PLAYED),
    "laid": (frozenset({console.Laid}), frozenset({"pending_number"}) | _PLAYED),
    "accuse": (frozenset({console.Accuse}), _PLAYED | {"console._out_pending"}),
    "give": (frozenset({console.GiveTo}), _PLAYED),
    **{kind: (frozenset({made}), _PLAYED) for kind, made in (
        ("start", console.StartGame), ("new_game", console.NewGame), ("draw", console.Draw),
        ("caught", console.CallCaught), ("cancel", console.Cancel), ("void", console.Void),
        ("rearm", console.Rearm), ("rule", console.Rule))},
}
#: What a key does without performing an act: one input of its own, or one field of the screen.
ALONE: dict[frozenset[str], str] = {
    frozenset({"pending_number"}): "card number",
    frozenset({"console._out_pending"}): "E: out pending (on or off)",
    frozenset({"penalty_row"}): "penalty row",
    frozenset({"penalty_col"}): "penalty field",
    frozenset({"penalty_form"}): "penalty value",
    frozenset({"quit_ask"}): "ask to leave",
    frozenset({"console.quit"}): "quit",
    frozenset({"console.toggle_fullscreen"}): "full screen",
}
HARDWARE = (Press, Release, CaughtPress, CaughtRelease)


def action(effect: Effect) -> str:
    """The one action ``effect`` is, named; "CLASH: ..." when it is more than one (or one the
    table above does not allow); "" when the key does nothing."""
    acts, inputs, changed = effect.acts, effect.inputs, effect.changed
    made = {type(i) for i in inputs}
    if len(inputs) > 1 and not (len(acts) == 1 and acts[0].kind == "correct_count"):
        return f"CLASH: {len(inputs)} inputs {inputs}"
    if len(acts) == 2 and acts[1] == Act(f"staff:{acts[0].kind}", acts[0].value):
        acts = acts[1:]                  # the console hands a staff act on (the app does it)
    if len(acts) > 1:
        return f"CLASH: acts {[a.kind for a in acts]}"
    if acts:
        kind = acts[0].kind
        if kind.startswith("staff:"):
            return kind if not made and not changed else f"CLASH: {kind} and {made} {sorted(changed)}"
        if kind not in ACTS:
            return f"CLASH: act {kind!r} is not in ACTS"
        may_make, may_change = ACTS[kind]
        if not made <= may_make or not changed <= may_change:
            return (f"CLASH: {kind} also made {sorted(t.__name__ for t in made - may_make)} "
                    f"changed {sorted(changed - may_change)}")
        return kind if not made else f"{kind} ({', '.join(sorted(t.__name__ for t in made))})"
    if inputs:
        if changed:
            return f"CLASH: {type(inputs[0]).__name__} and {sorted(changed)}"
        i = inputs[0]
        return f"{type(i).__name__} {i.player + 1}" if isinstance(i, (Press, Release)) else type(i).__name__
    if not changed:
        return ""
    return ALONE.get(frozenset(changed), f"CLASH: changed {sorted(changed)}")


@cache
def walk(case_name: str) -> dict[int, tuple[Effect, str]]:
    """Every key down on the case: its effect and the action named."""
    done = {}
    for key in KEYS:
        effect = press(case_name, key)
        done[key] = (effect, action(effect))
    assert table_of(case_name) == cases()[case_name].scene.table, f"{case_name}: a key changed the table"
    return done


def bindings(case_name: str) -> dict[str, str]:
    """key name -> action of every key that does something on the case's screen."""
    return {key_name(k): a for k, (_, a) in walk(case_name).items() if a}


# -- the screens are all there -------------------------------------------------------------------

def test_every_screen_but_attract_is_walked() -> None:
    assert set(cases()) == set(CASES)
    walked = {frame_of(name).screen for name in CASES}
    assert set(SCREENS) - NO_INPUT - walked == set()
    assert walked <= set(SCREENS)
    assert {frame_of(name).screen for name in ASKS} == {"quit", "undo-race", "resume"}
    assert frame_of("quit-race").screen == "quit" and cases()["quit-race"].scene.table.race is not None
    assert len(KEYS) > 100


# -- (a) seat keys -------------------------------------------------------------------------------

@pytest.mark.parametrize("case_name", [n for n in CASES if n != "keyboard"])
def test_a_seat_key_presses_its_seat_and_does_nothing_else(case_name: str) -> None:
    walked = walk(case_name)
    wrong = {}
    for seat, key in enumerate(SEAT_KEYS):
        effect, _ = walked[key]
        if effect != Effect((), (Press(seat, cases()[case_name].scene.now_ns, "sim"),), frozenset()):
            wrong[key_name(key)] = effect
    assert wrong == {}, f"{case_name} ({frame_of(case_name).screen}): seat keys {wrong}"


def test_seat_keys_are_letters_on_the_name_keyboard_and_press_nothing() -> None:
    assert frame_of("keyboard").screen == "keyboard"
    assert {key_name(k): walk("keyboard")[k] for k in SEAT_KEYS
            if walk("keyboard")[k] != (Effect((), (), frozenset()), "")} == {}


@pytest.mark.parametrize("case_name", ["keyboard", "quit", "quit-race", "undo-race", "resume"])
def test_a_seat_key_that_pressed_nothing_releases_nothing(case_name: str) -> None:
    made = {key_name(k): press(case_name, k, up=True).inputs for k in SEAT_KEYS}
    assert {k: m for k, m in made.items() if m} == {}


# -- (b) no other key is a seat ------------------------------------------------------------------

@pytest.mark.parametrize("case_name", CASES)
def test_no_other_key_presses_or_releases_a_seat(case_name: str) -> None:
    others = [k for k in KEYS if k not in SEAT_KEYS]
    down = {key_name(k): e.inputs for k, (e, _) in walk(case_name).items()
            if k in others and any(isinstance(i, (Press, Release)) for i in e.inputs)}
    up = {key_name(k): e.inputs for k in others
          if (e := press(case_name, k, up=True)).inputs and k != pygame.K_SPACE}
    assert (down, up) == ({}, {}), f"{case_name}: non-seat keys press or release a seat"
    # Space is the guard's Caught!, a button: a key-up with no key-down before it lets go of
    # nothing (only a key that pressed lets go).
    assert press(case_name, pygame.K_SPACE, up=True).inputs == ()


# -- (c) one key, one action ---------------------------------------------------------------------

@pytest.mark.parametrize("case_name", CASES)
def test_each_key_does_one_named_action(case_name: str) -> None:
    clashes = {key_name(k): (a, e) for k, (e, a) in walk(case_name).items() if a.startswith("CLASH")}
    assert clashes == {}, f"{case_name} ({frame_of(case_name).screen}): {clashes}"
    many = {key_name(k): e.inputs for k, (e, _) in walk(case_name).items() if len(e.inputs) > 1}
    assert many == {}


def test_enter_on_a_result_screen_is_only_continue() -> None:
    for name in ("photo", "verdict", "summary"):
        for key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            effect, named = walk(name)[key]
            assert (named, effect.inputs, [a.kind for a in effect.acts]) == ("dismiss", (), ["dismiss"]), name
            assert effect.changed <= {"results", "verdict", "undo_ask"}
    # U on the photo finish asks, and takes nothing back yet.
    effect, named = walk("photo")[pygame.K_u]
    assert (named, effect.inputs, effect.changed) == ("undo", (), frozenset({"undo_ask"}))


def test_a_key_means_one_thing_on_a_screen_whatever_the_table_under_it() -> None:
    """The yes/no questions and the result screens mean the same per key over any table."""
    same = {"quit": ("quit", "quit-race"), "settings": ("settings", "staff-rules")}
    for screen, names in same.items():
        # F11 is the living room's: a café's kiosk (staff-rules) keeps its screen as it opened it.
        tables = [{k: v for k, v in bindings(n).items() if k != "f11"} for n in names]
        assert all(t == tables[0] for t in tables), f"{screen}: {dict(zip(names, tables))}"


# -- (d) taps ------------------------------------------------------------------------------------

def overlaps(frame: Frame) -> list[str]:
    """Two tap targets with different acts over one point, unless the later-drawn one (which the
    console hit-tests first) lies wholly inside the other."""
    found = []
    for (i, a), (j, b) in itertools.combinations(enumerate(frame.hotspots), 2):
        if a.act == b.act or not a.rect.colliderect(b.rect):
            continue
        if a.rect.contains(b.rect):      # b, drawn later, is inside a: b wins where it is
            continue
        found.append(f"{a.act} {tuple(a.rect)} (#{i}) and {b.act} {tuple(b.rect)} (#{j}) overlap in "
                     f"{tuple(a.rect.clip(b.rect))}")
    return found


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_point_is_two_tap_targets(size: tuple[int, int]) -> None:
    found = {f"{name} ({frame_of(name, size).screen})": o for name in CASES if (o := overlaps(frame_of(name, size)))}
    assert found == {}, f"at {size[0]}x{size[1]}: {found}"


def _visible_point(frame: Frame, i: int) -> tuple[int, int] | None:
    """A point of hotspot ``i`` that no later hotspot covers (the console tries those first)."""
    spot = frame.hotspots[i]
    later = [s.rect for s in frame.hotspots[i + 1:]]
    r = spot.rect
    for fx, fy in ((0.5, 0.5), (0.25, 0.5), (0.75, 0.5), (0.5, 0.25), (0.5, 0.75), (0.1, 0.1), (0.9, 0.9)):
        p = (r.x + int(r.w * fx), r.y + int(r.h * fy))
        if not any(o.collidepoint(p) for o in later):
            return p
    return None


@pytest.mark.parametrize("case_name", CASES)
def test_each_tap_does_the_one_act_it_shows(case_name: str) -> None:
    frame = frame_of(case_name)
    problems = {}
    for i, spot in enumerate(frame.hotspots):
        point = _visible_point(frame, i)
        if point is None:
            problems[str(spot.act)] = "no point of it can be tapped"
            continue
        effect = press(case_name, 0, tap=point)
        named = action(effect)
        kinds = [a.kind.removeprefix("staff:") for a in effect.acts[-1:]]
        if spot.act.kind == "seat":
            seat = spot.act.value
            assert isinstance(seat, int)
            ok = effect.inputs == (Press(seat, cases()[case_name].scene.now_ns, "sim"),) and not kinds
        else:
            ok = kinds == [spot.act.kind] and not named.startswith("CLASH")
        if not ok:
            problems[f"{spot.act} at {point}"] = named or "nothing"
    assert problems == {}, f"{case_name} ({frame.screen}): {problems}"


def test_a_language_changed_under_the_name_keyboard_is_one_act() -> None:
    # The "lang" act turns the keyboard to the new language's layout while it is up (issue 22):
    # both fields are that one act, and the act is named, not a clash.
    scene = cases()["keyboard"].scene
    ui = copy.deepcopy(scene.ui)
    con = Recording(ui, scene.now_ns)
    before = copy.deepcopy(_shown(ui))
    made = con.perform(Act("lang", "ko"), table_of("keyboard"))
    changed = frozenset(name for name, value in _shown(ui).items() if before[name] != value)
    assert (ui.lang, ui.keyboard_layout) == ("ko", "hangul")
    assert action(Effect(tuple(con.acts), tuple(made), changed)) == "lang"


# -- what a reader sees --------------------------------------------------------------------------

def binding_table() -> str:
    lines = []
    for name in CASES:
        keys: dict[str, list[str]] = {}
        for k, a in bindings(name).items():
            keys.setdefault(a, []).append(k)
        said = "; ".join(f"{' '.join(ks)}: {a}" for a, ks in keys.items())
        lines.append(f"{name} [{frame_of(name).screen}]: {said}")
    return "\n".join(lines)


def test_print_the_bindings() -> None:
    """Every screen's key -> action (``pytest -s`` or ``python tests/app/test_key_clash.py``)."""
    table = binding_table()
    print(table)
    assert "photo [photo]:" in table


if __name__ == "__main__":
    print(binding_table())
