"""The quiz-show lockout on a screen: the imperative shell around :func:`game.referee.quiz.step`.

Inputs: button edges from the input adapter (the board's or the kernel's stamps; keyboard seats
stamped when the loop reads them), the host's taps and keys, and ticks when a timer falls due.
Effects: seat lights (``Leds``) to the adapter, tones to the speaker, ``WakeAt`` to the tick
queue, ``Notice`` (a refusal) to the footer for a few seconds.

A buzzer board that goes away (a yanked cable) is said in the footer and the quiz keeps its
state; a replugged board is sent the seat lights whole (:mod:`.shell`).

Host controls: the touch screen's buttons; keys (:data:`.keys.QUIZ_KEYS`, each bound only while
its button is shown) A or Space arm, R right, X wrong, S skip, 1–9 the score shortcuts in
order, Esc leaves (asking first once a question was armed or a score moved: "Leave the quiz?",
Enter or Y leaves, Esc or N stays; leaving prints the final scores to the terminal); the red
Caught! button arms when no question is open and passes to the next in line ("wrong") while a
seat answers (not while "Leave?" is up). A tap or key means what the frame on the glass showed
(:mod:`.glass`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

import pygame

from ...controller.effects import Leds
from ...i18n.lookup import render, text
from ...inputs import CaughtPress, CaughtRelease, Press, Release
from ...messages import Message
from ...referee.quiz import (
    Arm, Phase, QuizInput, QuizSettings, QuizState, Right, Score, Skip, Tick, Wrong, leds, new_quiz, step,
)
from ..ui.actions import Act
from ..ui.adapters import Detected
from ..ui.fonts import Fonts
from ..ui.paint import Painter
from ..ui.sound import Sounds
from .keys import quiz_keys
from .leave_screen import LeaveView
from .quiz_screen import QuizView, draw_quiz, signed
from .shell import SETTLE_NS, RefereeShell

MS = 1_000_000


class QuizApp(RefereeShell):
    link_lost_key = "ref_board_gone_quiz"

    def __init__(self, *, detected: Detected, settings: QuizSettings, seed: int, names: tuple[str, ...],
                 lang: str, fonts: Fonts, surface: pygame.Surface, sounds: Sounds,
                 say: Callable[[str], None] | None = None, settle_ns: int = SETTLE_NS,
                 out: Callable[[str], None] | None = None) -> None:
        super().__init__(detected=detected, names=names, lang=lang, fonts=fonts, surface=surface, sounds=sounds,
                         say=say, settle_ns=settle_ns, out=out)
        self.state: QuizState = new_quiz(settings, seed, self.adapter.now_ns())

    # -- inputs --------------------------------------------------------------------------------

    def feed(self, event: QuizInput) -> None:
        self.state, effects = step(self.state, event)
        for effect in effects:
            self.perform(effect)

    def lights(self) -> Leds:
        return leds(self.state)

    def host(self, act: Act) -> None:
        """A host's tap or key, stamped now on the input's clock."""
        now = self.adapter.now_ns()
        acts: dict[str, QuizInput] = {"arm": Arm(now), "right": Right(now), "wrong": Wrong(now), "skip": Skip(now)}
        made: QuizInput | None = acts.get(act.kind)
        if act.kind == "score" and isinstance(act.value, int):
            made = Score(act.value, now)
        if made is not None:
            self.feed(made)

    def red_button(self) -> None:
        """The guard's Caught! button as the host's: arm, or pass to the next in line (nothing
        while "Leave?" is up: the quiz under it is not on the screen)."""
        phase = self.state.phase
        if self.asking:
            return
        if phase is Phase.IDLE:
            self.host(Act("arm"))
        elif phase is Phase.ANSWERING:
            self.host(Act("wrong"))

    def seat_count(self) -> int:
        return self.state.settings.seats

    def poll(self) -> None:
        """Edges from the adapter (the red button is the host's), then ticks that fell due."""
        self.watch_link()
        for record in self.drain():
            if isinstance(record, (Press, Release)):
                if record.player < self.state.settings.seats:
                    self.feed(record)
            elif isinstance(record, CaughtPress):
                self.red_button()
            elif getattr(record, "patience_s", None) is not None:  # BoardAway: gone for the whole patience
                seconds = f"{getattr(record, 'patience_s'):g}"
                self.note(render(Message.of("ref_board_gone_long", seconds=seconds), self.lang))
            elif not isinstance(record, CaughtRelease):
                # The board lost edges (its RaceVoided): a ring-in may be missing from the line.
                self.note(render(Message.of("ref_quiz_lost"), self.lang))
        now = self.due_tick()
        if now is not None:
            self.feed(Tick(max(now, self.state.now_t_ns)))

    # -- output --------------------------------------------------------------------------------

    def screen(self) -> Hashable:
        """A new question, phase or seat in front is a new screen: a tap meant for Right on one
        seat must not score the next in line."""
        q = self.state.open
        return "quiz", self.state.phase, self.state.questions, q.front if q is not None else None

    def keys(self) -> Mapping[int, Act]:
        return quiz_keys(self.state)

    def paint(self, p: Painter, now: int) -> None:
        draw_quiz(p, QuizView(self.state, self.names, now, self.notice_words(now)))

    # -- leaving -------------------------------------------------------------------------------

    def at_stake(self) -> bool:
        """A question was armed or a score moved (an early press's penalty too)."""
        return self.state.questions > 0 or any(self.state.scores)

    def _scores(self, sep: str) -> str:
        """Each seat's points (then each team's), a name never parted from its points."""
        s = self.state
        seats = sep.join(f"{self.player(seat)}\u00a0{signed(points)}" for seat, points in enumerate(s.scores))
        teams = sep.join(f"{team}\u00a0{signed(points)}" for team, points in s.team_scores)
        return f"{seats} ({teams})" if teams else seats

    def leave_view(self) -> LeaveView:
        return LeaveView(text(self.lang, "ref_leave_quiz_title"),
                         text(self.lang, "ref_leave_quiz_ask", scores=self._scores(" · ")))

    def final_lines(self) -> list[str]:
        s = self.state
        lines = [f"Quiz over after {s.questions} question{'' if s.questions == 1 else 's'}",
                 "Scores: " + ", ".join(f"{self.player(seat)} {points}" for seat, points in enumerate(s.scores))]
        if s.team_scores:
            lines.append("Teams: " + ", ".join(f"{team} {points}" for team, points in s.team_scores))
        return lines
