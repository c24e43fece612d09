"""A quiz played by simulated contestants and a scripted host, headless: what ``cheating-moth
referee quiz --input sim`` runs. Every time is chosen from one seeded generator on the "sim"
clock, so a seed is a replayable quiz; each key moment (arming, the line after a wrong answer,
a right answer, an early press) is drawn into a PNG by the same screen the window shows."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...controller.effects import Notice
from ...i18n.lookup import render
from ...inputs import Press, Release
from ...judge import format_ms
from ...referee.quiz import (
    Arm, Phase, QuizInput, QuizSettings, QuizState, Right, Skip, Tick, Wrong, new_quiz, step,
)

MS = 1_000_000
S = 1_000_000_000
SIM_CLOCK = "sim"
T0_NS = 1_000 * S


@dataclass
class QuizRun:
    """What a simulated quiz leaves: the final state, the screenshots, the transcript."""

    state: QuizState
    shots: list[Path] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    inputs: list[QuizInput] = field(default_factory=list)


class _Quiz:
    def __init__(self, settings: QuizSettings, seed: int, draw: Callable[[QuizState, int, str], Path | None],
                 names: tuple[str, ...]) -> None:
        self.names = names
        self.state = new_quiz(settings, seed, T0_NS)
        self.rng = random.Random(seed)
        self.draw = draw
        self.run = QuizRun(self.state)
        self.now = T0_NS
        # Each contestant: a typical ring-in time and how often they know the answer.
        self.speed = [self.rng.randint(350, 900) * MS for _ in range(settings.seats)]
        self.knows = [self.rng.uniform(0.3, 0.8) for _ in range(settings.seats)]

    def feed(self, event: QuizInput) -> None:
        self.now = max(self.now, event.t_ns)
        self.state, effects = step(self.state, event)
        self.run.inputs.append(event)
        for effect in effects:
            if isinstance(effect, Notice):
                self.run.lines.append("note: " + render(effect.message, "en"))

    def shot(self, name: str) -> None:
        path = self.draw(self.state, self.now, name)
        if path is not None:
            self.run.shots.append(path)

    def press(self, seat: int, t_ns: int) -> None:
        self.feed(Press(seat, t_ns, SIM_CLOCK))
        self.feed(Release(seat, t_ns + 120 * MS, SIM_CLOCK))

    def question(self, number: int, *, early: int | None = None, shots: bool = False) -> None:
        s = self.state.settings
        armed = self.now + self.rng.randint(4, 9) * S      # the host reads the question
        if early is not None:
            self.press(early, armed - self.rng.randint(80, 400) * MS)
        self.feed(Arm(armed))
        if shots and number == 1:
            self.shot("quiz-armed")
        presses = sorted((armed + max(150 * MS, int(self.rng.gauss(self.speed[seat], 120 * MS))), seat)
                         for seat in range(s.seats) if self.rng.random() < 0.85)
        for t_ns, seat in presses:
            self.press(seat, t_ns)
        last = presses[-1][0] if presses else armed
        self.feed(Tick(last + s.settle_ns + s.resolution_ns + 200 * MS))
        if self.state.phase is Phase.ARMED:   # nobody buzzed and no buzz window: the host moves on
            self.feed(Skip(self.now + 5 * S))
        wrongs = 0
        while self.state.phase is Phase.ANSWERING:
            q = self.state.open
            assert q is not None and q.front is not None
            answer_at = self.now + self.rng.randint(2, 6) * S
            if shots and wrongs == 1:
                self.shot("quiz-next-in-line")
            if self.rng.random() < self.knows[q.front]:
                self.feed(Right(answer_at))
                if shots and number >= 3 and not any(p.name.startswith("quiz-right") for p in self.run.shots):
                    self.shot("quiz-right")
            else:
                if shots and wrongs == 0 and not any(p.name.startswith("quiz-answering") for p in self.run.shots):
                    self.shot("quiz-answering")
                self.feed(Wrong(answer_at))
                wrongs += 1
        last_q = self.state.last
        if last_q is not None:
            self.run.lines.append(f"question {number}: " + self.told(last_q))

    def told(self, q) -> str:  # type: ignore[no-untyped-def]
        """One question in words: who rang in first and when, who was wrong, how it ended."""
        name = self.names
        parts = []
        if q.early:
            parts.append("early: " + ", ".join(name[e.seat] for e in q.early))
        if q.ring_ins:
            first = q.ring_ins[0]
            parts.append(f"{name[first.seat]} rang in first ({format_ms(first.t_ns - q.armed_t_ns)}), "
                         f"{len(q.ring_ins)} in all")
        if q.wrong:
            parts.append("wrong: " + ", ".join(name[seat] for seat in q.wrong))
        if q.ended in ("right", "score") and q.right is not None:
            parts.append(f"{name[q.right]} right")
        else:
            parts.append({"wrong": "nobody right", "window": "nobody rang in", "skip": "skipped"}.get(q.ended or "", str(q.ended)))
        return "; ".join(parts)


def play_quiz(settings: QuizSettings, seed: int, questions: int,
              draw: Callable[[QuizState, int, str], Path | None], names: tuple[str, ...]) -> QuizRun:
    """Play ``questions`` questions; ``draw(state, now_ns, name)`` takes a screenshot (or None)."""
    quiz = _Quiz(settings, seed, draw, names)
    quiz.shot("quiz-start")
    for number in range(1, questions + 1):
        early = quiz.rng.randrange(settings.seats) if number == 2 else None
        quiz.question(number, early=early, shots=True)
        if number == 2:
            quiz.shot("quiz-early")
    quiz.shot("quiz-scores")
    quiz.run.state = quiz.state
    return quiz.run
