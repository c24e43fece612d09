"""The quiz-show screen (issue 14 point 2): every phase of a quiz, two to eight seats, teams or
none, in five languages at five sizes keeps its text in its boxes, no two texts overlap, every
host button is a finger's size, and the buttons do what they say."""

from __future__ import annotations

import itertools

import pygame
import pytest
from display_helpers import fonts

from game.app.referee.quiz_demo import play_quiz
from game.app.referee.quiz_screen import QuizView, draw_quiz
from game.app.ui import theme
from game.app.ui.paint import Painter
from game.i18n import LANGUAGES
from game.inputs import Press
from game.referee.quiz import Arm, Phase, QuizMode, QuizSettings, QuizState, Tick, Wrong, new_quiz, step

SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))
MS = 1_000_000
S = 1_000_000_000
#: A refusal as the footer shows it (the reason is the quiz's English sentence).
REFUSAL = ("Not now: Right is not valid while the question is armed: wait until a seat rings in, "
           "or Skip the question")
NAMES = ("Maximiliane-Anna", "Bea", "Cem", "Dan", "Eun-ji", "Fin", "Gus", "Ida")


def _states(seats: int, teams: tuple[str, ...] = ()) -> dict[str, QuizState]:
    """Each moment the demo photographs, with answer and buzz timers running."""
    mode = QuizMode.FIRST_PER_TEAM if teams else QuizMode.INDIVIDUAL
    settings = QuizSettings(seats=seats, clock="sim", teams=tuple(enumerate(teams)), mode=mode,
                            buzz_window_ms=10_000, answer_ms=15_000, wrong_points=-5, early_points=-5)
    shots: dict[str, QuizState] = {}

    def keep(state: QuizState, now_ns: int, name: str) -> None:
        shots[name] = state

    for seed in range(4):
        play_quiz(settings, seed, 6, keep, NAMES)  # type: ignore[arg-type]
    return shots


CASES = {f"{seats}{'-teams' if teams else ''}": _states(seats, teams)
         for seats, teams in ((2, ()), (4, ()), (5, ()), (8, ()), (4, ("red", "red", "blue", "blue")),
                              (8, ("Rot", "Blau", "Grün", "Gelb", "Rot", "Blau", "Grün", "Gelb")))}


def _draw(state: QuizState, lang: str, size: tuple[int, int], notice: str = "") -> Painter:
    p = Painter(pygame.Surface(size), fonts(lang), lang)
    draw_quiz(p, QuizView(state, NAMES, state.now_t_ns + 2 * S, notice))
    return p


def test_the_demo_reaches_every_moment_worth_a_picture() -> None:
    for case, shots in CASES.items():
        assert {"quiz-start", "quiz-armed", "quiz-early", "quiz-scores"} <= set(shots), case
    assert any("quiz-next-in-line" in shots for shots in CASES.values())
    assert any(s.phase is Phase.ANSWERING for shots in CASES.values() for s in shots.values())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_quiz_moment_lays_out(lang: str, size: tuple[int, int]) -> None:
    floor = int(48 * theme.scale_of(*size))
    problems: list[str] = []
    for case, shots in CASES.items():
        for name, state in shots.items():
            p = _draw(state, lang, size, notice=REFUSAL if name == "quiz-armed" else "")
            where = f"{case}/{name}"
            problems += [f"{where}: {o.text!r} does not fit {o.box}" for o in p.overflows]
            problems += [f"{where}: {h.act.kind} is {h.rect.size}" for h in p.hotspots
                         if h.rect.width < floor or h.rect.height < floor]
            drawn = [b for b in p.boxes if b.covered.width and b.covered.height]
            problems += [f"{where}: {a.text!r} overlaps {b.text!r}"
                         for a, b in itertools.combinations(drawn, 2) if a.covered.colliderect(b.covered)]
            problems += [f"{where}: {b.text!r} leaves its box" for b in drawn if not b.box.contains(b.covered)]
    assert problems == []


def _answering() -> QuizState:
    settings = QuizSettings(seats=4, clock="sim")
    state = new_quiz(settings, 0, 0)
    for event in (Arm(1 * S), Press(2, 1 * S + 300 * MS, "sim"), Press(0, 1 * S + 420 * MS, "sim"),
                  Tick(2 * S)):
        state, _ = step(state, event)
    assert state.phase is Phase.ANSWERING
    return state


def test_the_host_buttons_follow_the_phase() -> None:
    idle = new_quiz(QuizSettings(seats=4, clock="sim"), 0, 0)
    assert [h.act.kind for h in _draw(idle, "en", (800, 480)).hotspots] == ["arm"]
    armed, _ = step(idle, Arm(1 * S))
    assert [h.act.kind for h in _draw(armed, "en", (800, 480)).hotspots] == ["skip"]
    acts = [(h.act.kind, h.act.value) for h in _draw(_answering(), "en", (800, 480)).hotspots]
    assert acts == [("right", None), ("wrong", None), ("score", 10), ("score", -5), ("skip", None)]


def test_the_line_shows_the_first_time_then_gaps_and_who_answers() -> None:
    p = _draw(_answering(), "en", (800, 480))
    texts = [t for t, _ in p.texts]
    assert "Cem answers" in texts
    assert "300.000 ms" in texts and "+120.000 ms" in texts       # Cem first, seat 1 120 ms behind
    assert "ANSWERING" in texts and "WAITING" in texts
    state, _ = step(_answering(), Wrong(3 * S))                     # passes on without re-arming
    texts = [t for t, _ in _draw(state, "de", (800, 480)).texts]
    assert "Maximiliane-Anna antwortet" in texts and "FALSCH" in texts and "300,000 ms" in texts


def test_scores_show_a_true_minus_and_team_totals() -> None:
    settings = QuizSettings(seats=4, clock="sim", teams=((0, "red"), (1, "red"), (2, "blue"), (3, "blue")),
                            wrong_points=-5)
    state = new_quiz(settings, 0, 0)
    for event in (Arm(1 * S), Press(1, 1 * S + 250 * MS, "sim"), Tick(2 * S), Wrong(3 * S)):
        state, _ = step(state, event)
    texts = [t for t, _ in _draw(state, "en", (800, 480)).texts]
    assert "−5" in texts and "red" in texts and texts.count("−5") == 2   # Bea's, and red's total


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_countdown_that_ran_out_is_not_shown_as_nothing_left(lang: str) -> None:
    # "Noch 0 s zum Antworten" (the German review): a second before the end it counts, at the
    # end it is gone until the quiz moves on.
    state = new_quiz(QuizSettings(seats=4, clock="sim", answer_ms=15_000), 0, 0)
    for event in (Arm(1 * S), Press(2, 1 * S + 300 * MS, "sim"), Tick(2 * S)):
        state, _ = step(state, event)
    assert state.phase is Phase.ANSWERING and state.answer_deadline_t_ns is not None
    for left_ns, shown in ((S, True), (0, False), (-50 * MS, False)):
        p = Painter(pygame.Surface((800, 480)), fonts(lang), lang)
        draw_quiz(p, QuizView(state, NAMES, state.answer_deadline_t_ns - left_ns, ""))
        counted = [text for text, _ in p.texts if text == p.t("ref_answer_left", seconds=1)]
        zero = [text for text, _ in p.texts if text == p.t("ref_answer_left", seconds=0)]
        assert bool(counted) == shown and zero == [], (left_ns, p.texts)
