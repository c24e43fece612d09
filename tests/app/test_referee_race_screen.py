"""The referee race screen: every shipped preset at every phase (sessions built from chosen
timestamps, no clock read), in five languages at six sizes, keeps its text in its boxes, no two
texts overlap, every host button is a finger's size and the buttons follow the phase; the words
name the players (never the result's English reason) and the chart handles no data."""

from __future__ import annotations

import itertools
from typing import Any

import pygame
import pytest
from display_helpers import fonts

from game.app.referee.race_screen import RaceView, draw_race
from game.app.ui import theme
from game.app.ui.paint import Painter
from game.controller.effects import ScheduleGo
from game.controller.inputs import Tick
from game.i18n import LANGUAGES
from game.inputs import Go, Press, Release
from game.referee.presets import load_presets, preset_from_toml, shipped_dir
from game.referee.race import Rerun
from game.referee.session import CallOff, Phase, Session, Start, Void, new_session, step

SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (480, 800), (720, 1280))
MS = 1_000_000
S = 1_000_000_000
CLOCK = "sim"
T0 = 100 * S
PRESETS = load_presets()
PRESETS_DIR = shipped_dir()
NAMES = ("Maximiliane-Anna", "Bea", "Cem", "Dan", "Eun-ji", "Fin", "Gus", "Ida")
#: A refusal as the footer shows it (the app renders the session's Notice).
REFUSAL = "Not now: Start is not valid while race 2 is running: wait for its result"


def new(preset: str, seats: int) -> Session:
    return new_session(PRESETS.get(preset), seats, clock=CLOCK, resolution_ns=100_000, seed=3, t_ns=T0)


def feed(s: Session, *events: Any) -> Session:
    for event in events:
        s, _ = step(s, event)
    return s


def arm(s: Session) -> tuple[Session, int]:
    """Start the next race 5 s after the last input; GO's time (the due time the session asked
    of the shell, or the arming for a table race)."""
    s, fx = step(s, Start(s.now_t_ns + 5 * S))
    due = [e.t_ns for e in fx if isinstance(e, ScheduleGo)]
    assert s.race is not None
    return s, (due[0] if due else s.race.armed_t_ns)


def hands(presses: dict[int, int], zero_t: int) -> list[Press | Release]:
    """Each seat's press at a ms offset from ``zero_t`` and its release 120 ms later (a button
    left down would be held at the next race's arming: a false start), in time order."""
    edges: list[Press | Release] = []
    for seat, ms in presses.items():
        edges += [Press(seat, zero_t + ms * MS, CLOCK), Release(seat, zero_t + (ms + 120) * MS, CLOCK)]
    return sorted(edges, key=lambda e: e.t_ns)


def race(s: Session, presses: dict[int, int], *, tick_ms: int | None = None, go: bool = True) -> Session:
    """One rig race: each seat's press at a ms offset from GO (negative: early); GO stamped on
    time unless ``go`` is False (the screen before GO)."""
    s, go_t = arm(s)
    edges = hands(presses, go_t)
    s = feed(s, *(e for e in edges if e.t_ns < go_t))
    if not go or s.phase is not Phase.ARMED:
        return s
    s = feed(s, Go(go_t, CLOCK), *(e for e in edges if e.t_ns >= go_t))
    return feed(s, Tick(go_t + tick_ms * MS)) if tick_ms is not None else s


def table_race(s: Session, presses: dict[int, int], tick_ms: int | None = None) -> Session:
    """A table-GO race: presses at ms offsets from arming."""
    s, armed = arm(s)
    s = feed(s, *hands(presses, armed))
    return feed(s, Tick(armed + tick_ms * MS)) if tick_ms is not None else s


def history(s: Session) -> Session:
    """A few decided races before the one on screen, so the tally and the chart have data."""
    seats = s.racers
    for n, offsets in enumerate(((180, 240, 300, 410, 260, 350, 290, 330), (230, 190, 280, 390, 250, 220, 310, 270),
                                 (205, 215, 330, 360, 240, 300, 260, 280))):
        presses = {seat: offsets[i] + 7 * n for i, seat in enumerate(seats)}
        s = table_race(s, presses, 9_000) if s.preset.go.value == "table" else race(s, presses, tick_ms=3_100)
        assert s.phase is Phase.DECIDED, (s.preset.id, s.result.reason if s.result else None)
    return s


def moments() -> dict[str, Session]:
    """Every phase of every shipped preset worth a picture, at small and full tables."""
    shots: dict[str, Session] = {}
    for seats in (2,):
        d = new("duel", seats)
        shots["duel-ready"] = d
        shots["duel-armed"], _ = arm(history(d))
        shots["duel-go"] = race(history(d), {}, go=True)
        shots["duel-decided"] = race(history(d), {1: 183, 0: 221})
        shots["duel-false-start"] = race(history(d), {0: -300, 1: 200}, tick_ms=400)
        shots["duel-tie"] = race(history(d), {0: 200, 1: 200}, tick_ms=400)
        shots["duel-nobody"] = race(history(d), {}, tick_ms=3_001)
        armed, _ = arm(history(d))
        shots["duel-called-off"] = feed(armed, CallOff(armed.now_t_ns + S))
    for seats in (3, 5, 8):
        g = history(new("grab", seats))
        shots[f"grab{seats}-ready"] = new("grab", seats)
        shots[f"grab{seats}-go"] = race(g, {})
        shots[f"grab{seats}-armed-early"] = race(g, {0: -50}, go=False)
        shots[f"grab{seats}-decided"] = race(g, {1: 240, 0: 199, 2: 300}, tick_ms=600)
        shots[f"grab{seats}-out"] = race(g, {0: -50, 2: 260, 1: 270}, tick_ms=600)
        shots[f"grab{seats}-all-early"] = race(g, {seat: -40 - seat for seat in range(seats)}, go=False)
        shots[f"bell{seats}-ready"] = new("bell-slap", seats)
        shots[f"last{seats}-ready"] = new("last-hand-down", seats)
        b = history(new("bell-slap", seats))
        shots[f"bell{seats}-running"] = arm(b)[0]
        # A button already down at arming: a false start of the table race (out of it).
        held = feed(b, Press(1, b.now_t_ns + S, CLOCK))
        shots[f"bell{seats}-held"] = table_race(held, {0: 3_000, 2: 3_300}, 3_600)
        won = table_race(b, {2: 4_000, 0: 4_150, 1: 4_400}, 4_600)
        shots[f"bell{seats}-decided"] = won
        voided = feed(won, Void(2, won.now_t_ns + 2 * S))
        shots[f"bell{seats}-void"] = voided
        alone = table_race(b, {2: 4_000}, 4_600)
        shots[f"bell{seats}-running-after-void"] = feed(alone, Void(2, alone.now_t_ns + S))
        h = history(new("last-hand-down", seats))
        shots[f"last{seats}-armed"], _ = arm(h)
        shots[f"last{seats}-running"] = race(h, {0: 200, 1: 260})
        shots[f"last{seats}-decided"] = race(h, {seat: 200 + 41 * seat for seat in range(seats)}, tick_ms=3_100)
        shots[f"last{seats}-timeout"] = race(h, {0: 200, 1: 260}, tick_ms=3_100)
        shots[f"last{seats}-restart"] = race(h, {1: -100}, go=False)
        shots[f"last{seats}-tie"] = race(h, {**{seat: 200 for seat in range(seats)}, 0: 400, 1: 400},
                                         tick_ms=3_100)
    return shots


MOMENTS = moments()


def draw(s: Session, lang: str = "en", size: tuple[int, int] = (800, 480), *, stats: bool = False,
         notice: str = "", names: tuple[str, ...] = NAMES) -> Painter:
    p = Painter(pygame.Surface(size), fonts(lang), lang)
    draw_race(p, RaceView(s, names, s.now_t_ns + 50 * MS, notice, stats))
    return p


def texts(p: Painter) -> list[str]:
    """What was drawn, no-break spaces (a figure and its unit, French punctuation) as spaces."""
    return [t.replace("\u00a0", " ") for t, _ in p.texts]


def acts(p: Painter) -> list[tuple[str, object]]:
    return [(h.act.kind, h.act.value) for h in p.hotspots]


def test_the_moments_reach_every_phase_of_every_preset() -> None:
    for preset in PRESETS.ids:
        prefix = {"bell-slap": "bell", "last-hand-down": "last"}.get(preset, preset)
        phases = {s.phase for name, s in MOMENTS.items() if name.startswith(prefix)}
        expected = {Phase.READY, Phase.RUNNING, Phase.DECIDED} | (set() if preset == "bell-slap" else {Phase.ARMED})
        assert expected <= phases, preset
    reruns = {s.result.rerun_why for s in MOMENTS.values() if s.phase is Phase.READY and s.result is not None}
    assert reruns == {Rerun.TIE, Rerun.FALSE_START, Rerun.NO_PRESS}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_moment_lays_out(lang: str, size: tuple[int, int]) -> None:
    floor = int(48 * theme.scale_of(*size))
    problems: list[str] = []
    for (name, s), stats in itertools.product(MOMENTS.items(), (False, True)):
        p = draw(s, lang, size, stats=stats, notice=REFUSAL if name.endswith("-go") else "")
        where = f"{name}{'/stats' if stats else ''}"
        problems += [f"{where}: {o.text!r} does not fit {o.box}" for o in p.overflows]
        problems += [f"{where}: {h.act.kind} is {h.rect.size}" for h in p.hotspots
                     if h.rect.width < floor or h.rect.height < floor]
        drawn = [b for b in p.boxes if b.covered.width and b.covered.height]
        problems += [f"{where}: {a.text!r} overlaps {b.text!r}"
                     for a, b in itertools.combinations(drawn, 2) if a.covered.colliderect(b.covered)]
        problems += [f"{where}: {b.text!r} leaves its box" for b in drawn if not b.box.contains(b.covered)]
        problems += [f"{where}: hotspot off screen {h.rect}" for h in p.hotspots
                     if not pygame.Rect(0, 0, *size).contains(h.rect)]
    assert problems == []


def test_the_host_buttons_follow_the_phase() -> None:
    ready = MOMENTS["duel-ready"]
    assert acts(draw(ready)) == [("stats", None), ("start", None)]
    for armed_or_running in ("duel-armed", "duel-go", "bell3-running", "last5-running", "grab5-armed-early"):
        assert acts(draw(MOMENTS[armed_or_running])) == [("stats", None), ("call_off", None)], armed_or_running
    assert acts(draw(MOMENTS["duel-decided"])) == [("stats", None), ("start", None)]
    assert acts(draw(MOMENTS["last5-decided"])) == [("stats", None), ("start", None)]   # results stand
    bell = MOMENTS["bell3-decided"]
    assert bell.result.winners == (2,)
    assert acts(draw(bell)) == [("stats", None), ("void", 2), ("start", None)]
    assert acts(draw(MOMENTS["bell3-void"])) == [("stats", None), ("void", 0), ("start", None)]
    assert acts(draw(MOMENTS["duel-tie"])) == [("stats", None), ("start", None)]
    # The chart's button toggles back to the race; the host's other buttons stay.
    assert acts(draw(bell, stats=True)) == [("stats", None), ("void", 2), ("start", None)]
    assert "Race" in texts(draw(bell, stats=True)) and "Statistics" in texts(draw(bell))


def test_the_start_button_says_what_starts() -> None:
    assert "Start" in texts(draw(MOMENTS["duel-ready"]))
    assert "Run it again" in texts(draw(MOMENTS["duel-tie"]))
    assert "Next race" in texts(draw(MOMENTS["duel-decided"]))
    assert "Wrong slap: void Cem" in texts(draw(MOMENTS["bell3-decided"]))
    assert "Schlag von Cem streichen" in texts(draw(MOMENTS["bell3-decided"], "de"))


def test_ready_shows_the_presets_rule_and_how_to_start() -> None:
    for lang in LANGUAGES:
        s = MOMENTS["grab5-ready"]
        shown = texts(draw(s, lang))
        assert s.preset.screen(lang) in shown and s.preset.name(lang) in shown, lang
    assert "Press Start (the red button) to begin the race." in texts(draw(MOMENTS["grab5-ready"]))


def test_armed_waits_and_never_hints_when_go_comes() -> None:
    s = MOMENTS["grab5-armed-early"]
    assert s.phase is Phase.ARMED and [e.seat for e in s.result.false_starts] == [0]
    shown = texts(draw(s))
    assert "Wait for it…" in shown and "Early: Maximiliane-Anna" in shown
    # Neither a countdown nor the early press's distance to the GO due: no figure in ms at all.
    assert not [t for t in shown if " ms" in t or " s " in t]
    plain = texts(draw(MOMENTS["duel-armed"], "ko"))
    assert "기다리세요…" in plain and not [t for t in plain if "ms" in t]


def test_running_shows_go_or_the_live_table_and_the_presses_in() -> None:
    go = texts(draw(MOMENTS["duel-go"]))
    assert "GO!" in go
    assert "LOS!" in texts(draw(MOMENTS["duel-go"], "de"))
    last = MOMENTS["last5-running"]
    assert [pl.seat for pl in last.result.places] == [0, 1]
    shown = texts(draw(last))
    assert "200.000 ms" in shown and "260.000 ms" in shown and "GO!" in shown
    bell = texts(draw(MOMENTS["bell3-running"]))
    assert "Race on: watch the table!" in bell and "GO!" not in bell
    after = MOMENTS["bell3-running-after-void"]
    assert after.phase is Phase.RUNNING and after.race.voided == (2,)
    shown = texts(draw(after))
    assert shown.count("OUT") == 1 and "Race on: watch the table!" in shown   # the voided seat's chip


def test_a_called_off_race_waits_for_the_next_start() -> None:
    s = MOMENTS["duel-called-off"]
    assert s.phase is Phase.READY and s.result is None and s.number == 4
    shown = texts(draw(s))
    assert "Press Start (the red button) to begin the race." in shown and "Start" in shown
    assert acts(draw(s)) == [("stats", None), ("start", None)]
    footer = [t for t in texts(draw(MOMENTS["duel-armed"])) if "Esc: quit" in t]
    assert footer == ["C: call off  ·  S: statistics  ·  Esc: quit"]
    assert not [t for t in shown if "C: call off" in t]


def test_a_button_held_at_arming_is_a_false_start_on_the_board() -> None:
    s = MOMENTS["bell3-held"]
    assert s.result.winners == (0,) and [e.seat for e in s.result.false_starts] == [1]
    shown = texts(draw(s))
    assert "Maximiliane-Anna wins by 300.000 ms" in shown
    assert "False start, out of this race: Bea" in shown


def test_decided_says_who_won_with_the_time_and_shows_the_photo() -> None:
    s = MOMENTS["duel-decided"]
    shown = texts(draw(s))
    assert "Bea wins (183.000 ms)" in shown
    assert "183.000 ms" in shown and "221.000 ms" in shown and "FASTEST" in shown   # the photo finish's board
    assert "Bea gewinnt (183,000 ms)" in texts(draw(s, "de"))
    assert s.result.reason not in shown and not [t for t in shown if "seat" in t.lower()]


def test_last_loses_names_the_slowest_and_a_timeout() -> None:
    decided = MOMENTS["last3-decided"]
    assert decided.result.losers == (2,)
    assert "Cem was last (282.000 ms)" in texts(draw(decided))
    timeout = MOMENTS["last3-timeout"]
    assert timeout.result.losers == (2,) and timeout.result.timeouts == (2,)
    assert "Cem loses: no press in time" in texts(draw(timeout))


def test_false_starts_are_said_with_the_rule_that_applied() -> None:
    duel = MOMENTS["duel-false-start"]
    assert duel.result.winners == (1,) and duel.result.losers == (0,)
    shown = texts(draw(duel))
    assert "Bea wins" in shown                                      # decided at GO: Bea had no need to press
    assert "False start by Maximiliane-Anna: race lost" in shown
    grab = texts(draw(MOMENTS["grab5-out"]))
    assert "Cem wins (260.000 ms)" in grab and "False start, out of this race: Maximiliane-Anna" in grab


def test_a_rerun_says_why_in_words() -> None:
    assert "Tie between Maximiliane-Anna and Bea" in texts(draw(MOMENTS["duel-tie"]))
    assert "Tie between Maximiliane-Anna and Bea" in texts(draw(MOMENTS["last3-tie"]))
    assert "Nobody pressed in time." in texts(draw(MOMENTS["duel-nobody"]))
    restart = MOMENTS["last5-restart"]
    assert restart.phase is Phase.READY and restart.result.rerun_why is Rerun.FALSE_START
    shown = texts(draw(restart))
    assert "False start by Bea: the race starts again." in shown
    assert "Press Start (the red button) to run it again." in shown
    early = texts(draw(MOMENTS["grab3-all-early"], "fr"))
    assert any(t.startswith("Faux départ de Maximiliane-Anna, Bea et Cem") for t in early)


def test_a_voided_slap_is_marked_and_the_next_hand_wins() -> None:
    s = MOMENTS["bell3-void"]
    assert s.result.winners == (0,) and s.race.voided == (2,)
    shown = texts(draw(s))
    assert "Maximiliane-Anna wins by 250.000 ms" in shown          # the hand after it came 250 ms later
    assert "Wrong slap, voided: Cem" in shown
    assert "NO CARD" not in shown                                   # the main game's word for a void
    # The tally counts the corrected race once.
    assert (s.wins(0), s.wins(2)) == (1 + MOMENTS["bell3-running"].wins(0), MOMENTS["bell3-running"].wins(2))


def test_the_tally_shows_each_racers_count() -> None:
    s = MOMENTS["duel-decided"]
    shown = texts(draw(s))
    assert "Wins" in shown and str(s.wins(0)) in shown and str(s.wins(1)) in shown and s.wins(1) >= 1
    last = MOMENTS["last3-decided"]
    assert [last.losses(seat) for seat in range(3)] == [0, 0, 4]
    shown = texts(draw(last))
    assert "Losses" in shown and "4" in shown and "Wins" not in shown


def test_a_full_table_at_800x480_falls_back_to_one_line_per_racer() -> None:
    s = MOMENTS["last8-decided"]
    p = draw(s)
    shown = texts(p)
    # The loser's gap, what the race turned on, in the badge's place (its row's colour and the
    # headline say who was slowest); every other gap where no badge is.
    assert all(name in shown for name in NAMES) and shown.count("+41.000 ms") == 7
    assert "Ida was last (487.000 ms)" in shown
    assert p.overflows == []


def test_the_chart_without_a_decided_race_says_so() -> None:
    for lang in LANGUAGES:
        p = draw(MOMENTS["duel-ready"], lang, stats=True)
        assert p.overflows == []
    assert "No race decided yet: the chart fills in as you race." in texts(draw(MOMENTS["duel-ready"], stats=True))


def test_the_chart_shows_best_median_spread_wins_and_false_starts() -> None:
    s = race(history(new("duel", 2)), {0: -300, 1: 200}, tick_ms=400)
    # Seat 0: 180, 237, 219 ms, then a false start; seat 1: 240, 197, 229 ms (the last race
    # was decided at GO by the false start).
    shown = texts(draw(s, stats=True, names=("Ann", "Bea")))
    assert {"Best", "Median", "Spread", "Wins", "False starts"} <= set(shown)
    assert {"180 ms", "219 ms", "29 ms"} <= set(shown)               # IQR of 180, 219, 237: 228 - 199.5
    assert {"197 ms", "229 ms", "22 ms"} <= set(shown)               # Bea: 197, 229, 240 (none in the last)
    assert "1" in shown                                              # Ann's false start
    # A long name is cut, never a column: every figure stays (issue 22: the spread's column
    # went missing in German, French and Spanish).
    for lang in LANGUAGES:
        long = texts(draw(s, lang, stats=True))
        assert "Maximiliane-Anna" in long and {"180 ms", "219 ms", "29 ms", "22 ms"} <= set(long), lang
    bell = texts(draw(MOMENTS["bell3-decided"], stats=True))
    assert "No reaction times: this game's GO comes from the table." in bell
    assert not [t for t in bell if t.endswith(" ms")]


def test_a_cafes_preset_with_the_longest_name_and_rule_lays_out() -> None:
    """A café's own preset may have a 32-letter name and a 120-letter rule in every language."""
    toml = (PRESETS_DIR / "grab.toml").read_text(encoding="utf-8")
    head = toml[:toml.index("[name]")]
    name = "Schnellste Hand am Tisch gewinnt"                       # 32 letters
    rule = ("Greif zu, sobald das Licht angeht und der Ton kommt. Wer zu früh greift, ist in "
            "dieser Runde raus; die anderen spielen weiter.")[:120]
    lines = [head, "[name]"] + [f'{lang} = "{name}"' for lang in LANGUAGES] + ["[screen]"] + \
        [f'{lang} = "{rule}"' for lang in LANGUAGES]
    preset = preset_from_toml("\n".join(lines), "longest")
    assert len(preset.name("en")) == 32 and len(preset.screen("en")) == 120
    s = new_session(preset, 8, clock=CLOCK, resolution_ns=100_000, seed=3, t_ns=T0)
    shots = {"ready": s, "decided": race(history(s), {1: 240, 0: 199, 2: 300}, tick_ms=600)}
    shots["armed"] = race(shots["decided"], {0: -50}, go=False)
    problems = []
    for (what, shot), size, lang, stats in itertools.product(shots.items(), SIZES, LANGUAGES, (False, True)):
        p = draw(shot, lang, size, stats=stats)
        problems += [f"{what} {lang} {size}: {o.text!r}" for o in p.overflows]
        assert preset.screen(lang) in texts(p) or stats or what == "decided"
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_race_the_table_starts_does_not_count_its_times_from_go(lang: str) -> None:
    # Bell-slap has no GO: the photo's zero is the race's start, so its axis must not say
    # "ms after GO" ("ms nach LOS", "출발 후 ms"); a race the rig starts says it.
    painter = Painter(pygame.Surface((8, 8)), fonts(lang), lang)
    after_go = painter.t("ui_axis").replace("\u00a0", " ")
    after_start = painter.t("ref_axis_from_start").replace("\u00a0", " ")
    for size in ((800, 480), (720, 1280)):
        bell = texts(draw(MOMENTS["bell3-decided"], lang, size))
        assert after_go not in bell and after_start in bell, (size, bell)
        assert after_go in texts(draw(MOMENTS["duel-decided"], lang, size)), size


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_key_hints_break_only_between_two_hints(lang: str) -> None:
    # "S: zurück zum Rennen" split after "zurück", "경주로 / 돌아가기", a line ending in "·"
    # (de/ko review): each hint stays whole on one line and no line starts or ends with the dot.
    from game.app.referee.race_screen import KEY_SEPARATOR

    keys = {Painter(pygame.Surface((8, 8)), fonts(lang), lang).t(f"ref_race_keys_{k}").replace("\u00a0", " ")
            for k in ("start", "void", "stats", "race", "quit", "call_off")}
    for size in ((800, 480), (720, 1280)):
        for name, s in MOMENTS.items():
            for stats in (False, True):
                p = draw(s, lang, size, stats=stats)
                footer = p.boxes[-1]
                assert p.overflows == [], (name, size, p.overflows)
                lines, _, fits = p.layout_text(footer.text, footer.box,
                                               [px for t, px in p.texts if t == footer.text][0])
                assert fits and lines
                for line in lines:
                    hints = line.replace("\u00a0", " ").split(KEY_SEPARATOR.replace("\u00a0", " "))
                    assert set(hints) <= keys, (name, size, stats, lines)
