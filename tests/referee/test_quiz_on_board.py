"""The quiz-show lockout end to end on the simulated buzzer board (issue 14, point 5).

The real firmware main loop runs on the fake hardware behind a pty (SimBoard: MicroPython's unix
port when it is there, else CPython), opened as the app opens a board (``detect("board",
port=...)``: a BoardRig in a Detected), and the screen's QuizApp plays on it with pygame on SDL's
dummy driver. Buttons are scripted on the board's own clock (``edge BTN LEVEL arm OFFSET``: to the
16 ns tick after the loggers' epoch), so every stamp the quiz judges is a board stamp whose value
the test chose: the gaps on the screen must be the chosen gaps to the nanosecond.

Every wait is on an event (a condition polled against the board's next report) with a generous
deadline; nothing asserts how long anything took.

Scheduling rule that keeps the test exact under load: in each question the earliest press is on
the lowest button of that question's presses. The board emits the edges of one read in button
order, so a board stalled past the settle window could otherwise hand over a later press first
(the quiz would then count the earlier one as late, which is the quiz's documented delivery bound,
not what this test is about).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from firmware_host.boardlink.rig import BOARD_CLOCK, BoardRig  # noqa: E402
from firmware_host.boardlink.sim import SimBoard  # noqa: E402
from firmware_host.records import SeatLight  # noqa: E402
from game.app.referee.quiz_app import QuizApp  # noqa: E402
from game.app.ui.actions import Act  # noqa: E402
from game.app.ui.adapters import Detected, detect  # noqa: E402
from game.app.ui.fonts import fonts_for  # noqa: E402
from game.app.ui.sound import Sounds  # noqa: E402
from game.referee.quiz import Phase, QuizSettings, QuizState  # noqa: E402
from game.referee.quiz_line import Status, ring_in_order  # noqa: E402

MS = 1_000_000
TICK_NS = 16                 # the board's PIO tick at 62.5 MHz
WAIT_S = 60.0                # deadline for any awaited condition (never reached when all is well)
LEAD_NS = 1_000 * MS         # a scripted press is this far ahead of the board's last report
HOLD_NS = 80 * MS            # each press is let go this long after (past the board's 25 ms lockout)
CAUGHT = 6                   # the red Caught! button (BoardRig's default guard button)
SEATS = 5
NAMES = ("Ali", "Bea", "Cem", "Dan", "Eve")
OFF, ARMED, GO, WINNER, LOSER = SeatLight.OFF, SeatLight.ARMED, SeatLight.GO, SeatLight.WINNER, SeatLight.LOSER


class _Sounds(Sounds):
    def __init__(self) -> None:  # no mixer: only what the quiz asked to play
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


@dataclass
class Bench:
    """The simulated board, the rig the app opened on it, and the app; what the app asked the
    board's lights to show (each call, and whether the board took it)."""

    sim: SimBoard
    rig: BoardRig
    app: QuizApp
    sounds: _Sounds
    shown: list[tuple[dict[int, SeatLight], bool]] = field(default_factory=list)
    guard: list[tuple[bool, bool]] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    epochs: dict[int, int] = field(default_factory=dict)   # per clock session: the loggers' epoch in ns

    # -- the board's clock ------------------------------------------------------------------

    def local_now_ns(self) -> int:
        """The board's last reported time on its own clock (ns since it powered up)."""
        return self.rig.now_ns() - self.rig.ticks_to_ns(0)

    def script(self, presses: Mapping[int, int], *, hold_ns: int = HOLD_NS) -> dict[int, int]:
        """Press each button at its offset (ns, to the tick) after a moment LEAD_NS ahead of the
        board's last report, and let go ``hold_ns`` later. Returns each button's press time on the
        board's own clock after its loggers' epoch (what ``edge ... arm`` counts from)."""
        base = (self.local_now_ns() + LEAD_NS) // TICK_NS * TICK_NS
        at: dict[int, int] = {}
        for btn, offset in presses.items():
            assert offset % TICK_NS == 0, "offsets are chosen to the tick"
            at[btn] = base + offset
            self.sim.control(f"edge {btn} 0 arm {at[btn]}")
            self.sim.control(f"edge {btn} 1 arm {at[btn] + hold_ns}")
        return at

    def check_stamps(self, scripted: Mapping[int, int], stamps: Mapping[int, int]) -> None:
        """Each press arrived with exactly the stamp scripted for it: the board's clock offset plus
        the loggers' epoch (the same for every press of a board) plus the chosen time."""
        session = self.rig.ticks_to_ns(0)
        for btn, t in scripted.items():
            epoch = stamps[btn] - session - t
            assert epoch % TICK_NS == 0 and 0 <= epoch < 60_000 * MS, (btn, epoch)
            assert self.epochs.setdefault(session, epoch) == epoch, (btn, stamps, scripted)

    # -- driving the app --------------------------------------------------------------------

    def until(self, cond: Callable[[], bool], what: str) -> None:
        """Run the app's loop (poll and draw) until ``cond()``, waiting on the board's reports."""
        deadline = time.monotonic() + WAIT_S * self.rig.time_scale
        while not cond():
            if time.monotonic() > deadline:
                s = self.app.state
                raise AssertionError(f"not seen within {WAIT_S} s: {what} (phase {s.phase}, open {s.open}, "
                                     f"early {s.early}, notice {self.app.notice}, counters {self.rig.counters})")
            self.app.poll()
            self.app.draw()
            self.rig.wait_until(self.rig.now_ns() + 1, 0.02)  # the board's next report, or 20 ms
        assert not self.app.frame.overflows, self.app.frame.overflows

    def ring_ins(self) -> dict[int, int]:
        q = self.app.state.open
        return {} if q is None else {r.seat: r.t_ns for r in q.ring_ins}

    def question(self, presses: Mapping[int, int]) -> dict[int, int]:
        """Script the presses of an armed question and run the app until every one is in line and
        the seat in front is decided; returns the stamps (seat -> board ns)."""
        scripted = self.script(presses)
        self.until(lambda: len(self.ring_ins()) == len(presses) and self.app.state.phase is Phase.ANSWERING,
                   f"ring-ins of seats {sorted(presses)} and a seat in front")
        stamps = self.ring_ins()
        self.check_stamps(scripted, stamps)
        return stamps

    def red_button(self) -> None:
        """The host presses the red Caught! button on the board."""
        self.script({CAUGHT: 0})

    def lights(self) -> dict[int, SeatLight]:
        """What the board was last told to show, seat by seat (a show names every seat of the quiz)."""
        seen: dict[int, SeatLight] = {}
        for lights, ok in self.shown:
            if ok:
                seen.update(lights)
        return seen


def seats(*lit: tuple[int, SeatLight], rest: SeatLight = OFF) -> dict[int, SeatLight]:
    out = {seat: rest for seat in range(SEATS)}
    out.update(dict(lit))
    return out


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bench]:
    sim = SimBoard(tmp_path / "ttyBOARD", interpreter="auto")
    sim.plug()
    detected = detect("board", SEATS, port=str(sim.link))   # as `referee quiz --input board --port` opens it
    try:
        assert detected.name == "board", detected.notes
        rig = detected.adapter
        assert isinstance(rig, BoardRig) and rig.clock == BOARD_CLOCK
        record: list[tuple[dict[int, SeatLight], bool]] = []
        guard: list[tuple[bool, bool]] = []
        show, show_guard = rig.show, rig.show_guard

        def spy_show(lights: Mapping[int, SeatLight]) -> None:
            try:
                show(lights)
            except Exception:
                record.append((dict(lights), False))
                raise
            record.append((dict(lights), True))

        def spy_guard(on: bool) -> None:
            try:
                show_guard(on)
            except Exception:
                guard.append((on, False))
                raise
            guard.append((on, True))

        monkeypatch.setattr(rig, "show", spy_show)
        monkeypatch.setattr(rig, "show_guard", spy_guard)
        pygame.font.init()
        sounds = _Sounds()
        said: list[str] = []
        settings = QuizSettings(seats=SEATS, clock=rig.clock, resolution_ns=rig.resolution_ns,
                                right_points=10, wrong_points=-5, early_points=-2)
        app = QuizApp(detected=Detected(rig, detected.name, detected.notes), settings=settings, seed=14,
                      names=NAMES, lang="en", fonts=fonts_for("en")[0], surface=pygame.Surface((800, 480)),
                      sounds=sounds, say=said.append)
        yield Bench(sim, rig, app, sounds, record, guard, said)
    finally:
        detected.close()
        sim.close()


def _rows(state: QuizState) -> list[tuple[int, int | None, Status]]:
    return [(r.seat, r.gap_ns, r.status) for r in ring_in_order(state)]


def test_a_quiz_on_the_board_judged_by_its_stamps(bench: Bench) -> None:
    app, sounds = bench.app, bench.sounds
    assert bench.rig.resolution_ns == TICK_NS and app.state.settings.clock == BOARD_CLOCK

    # Question 1: the host arms on the screen's verb; every seat's light glows armed.
    app.host(Act("arm"))
    assert app.state.phase is Phase.ARMED and app.state.questions == 1
    assert bench.lights() == seats(rest=ARMED) and bench.guard[-1] == (False, True)
    armed = app.state.open.armed_t_ns  # type: ignore[union-attr]
    # Cem first; Eve 23.456784 ms later, then Dan 151 ms after Cem (Dan's button is lower than
    # Eve's, his press later: the line follows the stamps).
    stamps = bench.question({2: 0, 4: 23_456_784, 3: 151 * MS})
    assert stamps[4] - stamps[2] == 23_456_784 and stamps[3] - stamps[4] == 151 * MS - 23_456_784
    assert min(stamps.values()) > armed
    q = app.state.open
    assert q is not None and q.front == 2 and q.front_t_ns == stamps[2]
    assert _rows(app.state) == [(2, None, Status.FRONT), (4, 23_456_784, Status.WAITING),
                                (3, 151 * MS - 23_456_784, Status.WAITING)]
    assert "seat_2" in sounds.played and bench.lights() == seats((2, GO))

    # Wrong: Cem loses 5, Eve (next by stamp, not by button) answers; nothing is armed again.
    readies = sounds.played.count("ready")
    app.host(Act("wrong"))
    q = app.state.open
    assert app.state.phase is Phase.ANSWERING and q is not None and q.front == 4 and q.wrong == (2,)
    assert app.state.questions == 1 and sounds.played.count("ready") == readies
    assert app.state.scores == (0, 0, -5, 0, 0) and bench.lights() == seats((4, GO))
    assert _rows(app.state)[:2] == [(2, None, Status.WRONG), (4, 23_456_784, Status.FRONT)]

    # Right: Eve scores 10, the question ends; her light blinks the winner, the red button is lit.
    app.host(Act("right"))
    assert app.state.phase is Phase.IDLE and app.state.scores == (0, 0, -5, 0, 10)
    assert app.state.last is not None and app.state.last.ended == "right" and app.state.last.right == 4
    assert bench.lights() == seats((4, WINNER)) and bench.guard[-1] == (True, True)

    # Before question 2 is armed Ali presses: early (2 off, shown, his light pulses).
    early_at = bench.script({0: 0})
    bench.until(lambda: any(e.seat == 0 for e in app.state.early), "Ali's early press")
    (early,) = app.state.early
    bench.check_stamps(early_at, {0: early.t_ns})
    assert app.state.phase is Phase.IDLE and app.state.scores == (-2, 0, -5, 0, 10)
    assert "false_start" in sounds.played and bench.lights() == seats((0, LOSER), (4, WINNER))

    # The red Caught! button on the board arms question 2 (the host's arm button).
    bench.red_button()
    bench.until(lambda: app.state.questions == 2 and app.state.phase is Phase.ARMED, "the red button arming")
    q = app.state.open
    assert q is not None and q.armed_t_ns > early.t_ns and q.early == (early,)
    assert bench.lights() == seats(rest=ARMED) and bench.guard[-1] == (False, True)
    assert _rows(app.state) == [(0, None, Status.EARLY)]

    # Ali (pressing early cost points, not the question) rings in first; Dan one tick later,
    # still ordered (the board's resolution is a tick); Bea 90 ms after Ali.
    stamps = bench.question({0: 0, 3: TICK_NS, 1: 90 * MS})
    assert stamps[3] - stamps[0] == TICK_NS and stamps[1] - stamps[3] == 90 * MS - TICK_NS
    q = app.state.open
    assert q is not None and q.front == 0 and q.lot == ()
    rows = ring_in_order(app.state)
    assert [(r.seat, r.status) for r in rows] == [(0, Status.EARLY), (0, Status.FRONT), (3, Status.WAITING),
                                                  (1, Status.WAITING)]
    assert rows[0].since_arm_ns is not None and rows[0].since_arm_ns < 0 and not rows[2].tie
    assert bench.lights() == seats((0, GO))

    # While a seat answers, the red button passes to the next in line: Ali -5, Dan answers.
    bench.red_button()
    bench.until(lambda: app.state.open is not None and app.state.open.front == 3, "the red button passing to Dan")
    q = app.state.open
    assert q is not None and q.wrong == (0,) and app.state.questions == 2
    assert app.state.scores == (-7, 0, -5, 0, 10) and bench.lights() == seats((3, GO))
    app.host(Act("right"))
    assert app.state.phase is Phase.IDLE and app.state.scores == (-7, 0, -5, 10, 10)
    assert bench.lights() == seats((3, WINNER))

    # Nothing was refused, lost, late or judged against a stamp fault along the way.
    assert all(ok for _, ok in bench.shown) and all(ok for _, ok in bench.guard)
    s = app.state
    assert (s.late, s.stale, s.after_window, s.bounces) == (0, 0, 0, 0)
    c = bench.rig.counters
    assert (c.stamp_faults, c.protocol_errors, c.board_restarts) == (0, 0, 0)
    assert bench.said == []


def test_a_yanked_cable_mid_question_is_said_and_the_quiz_goes_on(bench: Bench) -> None:
    app, rig, sim = bench.app, bench.rig, bench.sim

    # Question 1 armed from the touch screen's Arm button.
    app.draw()
    (arm,) = [h for h in app.frame.hotspots if h.act.kind == "arm"]
    app.tap(arm.rect.center)
    assert app.state.phase is Phase.ARMED
    stamps = bench.question({1: 0, 4: 45 * MS, 2: 200 * MS})
    q = app.state.open
    assert q is not None and q.front == 1 and bench.lights() == seats((1, GO))
    assert [r.seat for r in q.ring_ins] == [1, 4, 2]

    # The cable is pulled while Bea answers: said on the screen, the quiz unchanged.
    before = app.state
    sim.unplug()
    bench.until(lambda: app.notice is not None, "a notice that the board is gone")
    assert app.state == before
    assert any("board" in said for said in bench.said), bench.said
    app.draw()

    # The host marks Bea wrong meanwhile: the quiz goes on (Eve answers), the lights cannot be
    # shown and that is said, the line and the scores are kept.
    app.host(Act("wrong"))
    q = app.state.open
    assert q is not None and q.front == 4 and q.wrong == (1,) and app.state.scores == (0, -5, 0, 0, 0)
    assert bench.shown[-1] == (seats((4, GO)), False)
    assert app.notice is not None

    # Plugged back in: a new board (a new clock, carried on after the old one); what the quiz
    # shows now is sent to it.
    shown_before = len(bench.shown)
    sim.plug()
    bench.until(lambda: rig.counters.board_restarts == 1 and rig.wait_connected(0), "the board back")
    bench.until(lambda: any(ok for _, ok in bench.shown[shown_before:]), "the lights sent to the new board")
    assert bench.lights() == seats((4, GO))
    assert app.state.open is not None and app.state.open.front == 4

    # Eve is right; question 2 on the new board, on a clock that went on from the old one.
    app.host(Act("right"))
    assert app.state.phase is Phase.IDLE and app.state.scores == (0, -5, 0, 0, 10)
    assert bench.shown[-1] == (seats((4, WINNER)), True)
    app.host(Act("arm"))
    q = app.state.open
    # Armed no earlier than the last stamp of the old board: the new board's clock is carried
    # on from it (right after the replug it may read exactly that stamp).
    assert q is not None and q.number == 2 and q.armed_t_ns >= max(stamps.values())
    new = bench.question({0: 0, 3: 75 * MS, 2: 30 * MS})
    assert min(new.values()) > q.armed_t_ns
    assert new[2] - new[0] == 30 * MS and new[3] - new[2] == 45 * MS
    assert _rows(app.state) == [(0, None, Status.FRONT), (2, 30 * MS, Status.WAITING), (3, 45 * MS, Status.WAITING)]
    app.host(Act("right"))
    assert app.state.scores == (10, -5, 0, 0, 10) and bench.lights() == seats((0, WINNER))
    assert len(bench.epochs) == 2   # one epoch per board (clock session), each press exact on it
    s = app.state
    assert (s.late, s.stale, s.after_window, s.bounces) == (0, 0, 0, 0)
    assert rig.counters.stamp_faults == 0
