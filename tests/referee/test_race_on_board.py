"""Referee race presets end to end on the simulated buzzer board (issue 14): the screen's
RaceApp on a BoardRig opened as ``referee PRESET --input board --port`` opens it, every input
logged to a real RaceLog (``RaceApp(record=log.record)``).

The real firmware main loop runs on the fake hardware behind a pty (SimBoard). The red Caught!
button on the board starts each race. For grab (GO from the rig) the session draws the
fore-period from its seed and the shell asks ``BoardRig.go`` for GO when it ends; the board
stamps GO with its own logger. Presses are scripted on the board's clock: ``edge BTN LEVEL go
OFFSET`` presses at OFFSET after the board's GO tick, ``edge ... arm OFFSET`` after the
loggers' epoch of the last arming (the ArmReport the board answered). So every reaction time,
gap and false start the judge decides on is a value the test chose, exact to the 16 ns tick.

Every wait is on an event (a condition polled against the board's next report) with a generous
deadline; nothing asserts how long anything took. Two choices keep the test exact under load:

- presses scripted from arming are at least 0.4 s after it (the board reads the control line
  long before; a line read after its press time would be stamped behind a TIME heartbeat);
- the fore-periods the test relies on are the seed's, checked first: race 2's (1.33 s) leaves
  its false start (0.4 s after arming) far before GO, race 3's (2.26 s) keeps GO away while the
  cable is out. Every press a grab race places is within 21 ms of the first, well inside the
  judge's 50 ms settle window (bell-slap keeps the later hands for the table anyway).

Two defects the runs found are pinned at the end (pure reproductions, fixed since): a false
start let go before GO was recorded as held at GO, and the shell's link notices overflowed the
race screen's footer.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from firmware_host.boardlink.rig import BOARD_CLOCK, BoardRig  # noqa: E402
from firmware_host.boardlink.sim import SimBoard  # noqa: E402
from firmware_host.records import ArmReport, SeatLight  # noqa: E402
from game.app.referee.race_app import RaceApp  # noqa: E402
from game.app.referee.race_log import RaceLog, export_races, replay  # noqa: E402
from game.app.referee.race_screen import RaceView, draw_race  # noqa: E402
from game.app.ui.actions import Act  # noqa: E402
from game.i18n import LANGUAGES  # noqa: E402
from game.app.ui.adapters import ClockShift, detect  # noqa: E402
from game.app.ui.fonts import fonts_for  # noqa: E402
from game.app.ui.paint import Painter  # noqa: E402
from game.app.ui.sound import Sounds  # noqa: E402
from game.controller.inputs import Tick  # noqa: E402
from game.i18n.lookup import render  # noqa: E402
from game.inputs import Go, Press, Release  # noqa: E402
from game.judge import judge  # noqa: E402
from game.judge_file import parse_race  # noqa: E402
from game.messages import Message  # noqa: E402
from game.referee.presets import load_presets  # noqa: E402
from game.referee.race import draw_go_delay_ns, rejudge  # noqa: E402
from game.referee.session import CallOff, Phase, Session, Start, check, new_session  # noqa: E402

MS = 1_000_000
TICK_NS = 16                 # the board's PIO tick at 62.5 MHz
WAIT_S = 60.0                # deadline for any awaited condition (never reached when all is well)
LEAD_NS = 1_000 * MS         # bell-slap presses are scripted this long after arming
EARLY_NS = 400 * MS          # the earliest press scripted from an arming (grab's false start)
HOLD_NS = 80 * MS            # each press is let go this long after (past the board's 25 ms lockout)
CAUGHT = 6                   # the red Caught! button (BoardRig's default guard button)
NAMES = ("Ali", "Bea", "Cem", "Dan")
GRAB_SEED = 6294             # fore-periods of races 1-5: 957, 1329, 2261, 883, 909 ms (checked below)
OFF, ARMED, GO, WINNER = SeatLight.OFF, SeatLight.ARMED, SeatLight.GO, SeatLight.WINNER
VOIDED_WORDS = render(Message.of("ui_race_voided"), "en")
LINK_LOST = render(Message.of(RaceApp.link_lost_key), "en")          # the footer's words for a yanked cable
GO_FAILED = render(Message.of("ref_race_go_failed"), "en")           # ... for a GO the board refused


class _Sounds(Sounds):
    def __init__(self) -> None:  # no mixer: only what the session asked to play
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


@dataclass
class Bench:
    """The simulated board, the rig the app opened on it, the app and its log; what the app
    asked of the board (lights, armings, GOs) and whether the board took it."""

    sim: SimBoard
    rig: BoardRig
    app: RaceApp
    log: RaceLog
    sounds: _Sounds
    shift_ns: int = 0                                   # the ClockShift the log asked for
    said: list[str] = field(default_factory=list)
    shown: list[tuple[dict[int, SeatLight], bool]] = field(default_factory=list)
    guard: list[tuple[bool, bool]] = field(default_factory=list)
    # The app's armings as the board answered them, and the GOs the board gave and stamped:
    # on the session's clock (the board's, plus the shift).
    arms: list[ArmReport] = field(default_factory=list)
    gos: list[Go] = field(default_factory=list)
    rearms: int = 0                                     # armings the rig made on its own (a void)
    overflows: set[str] = field(default_factory=set)    # texts a frame could not fit

    @property
    def session(self) -> Session:
        return self.app.session

    def until(self, cond: Callable[[], bool], what: str) -> None:
        """Run the app's loop (poll and draw) until ``cond()``, waiting on the board's reports."""
        deadline = time.monotonic() + WAIT_S * self.rig.time_scale
        while not cond():
            if time.monotonic() > deadline:
                s = self.session
                raise AssertionError(f"not seen within {WAIT_S} s: {what} (race {s.number} {s.phase}, result "
                                     f"{s.result}, notice {self.app.notice}, counters {self.rig.counters}, "
                                     f"faults {list(self.rig.faults)})")
            self.app.poll()
            self.app.draw()
            self.overflows.update(o.text for o in self.app.frame.overflows)
            self.rig.wait_until(self.rig.now_ns() + 1, 0.02)  # the board's next report, or 20 ms

    def check_frames(self) -> None:
        """Every text of every frame drawn fitted its box, the footer's notices included."""
        assert self.overflows == set()

    def red_button(self) -> None:
        """The host presses the red Caught! button on the board (now, on its clock)."""
        self.sim.control(f"edge {CAUGHT} 0 now 0")
        self.sim.control(f"edge {CAUGHT} 1 now {HOLD_NS}")

    def start(self) -> None:
        """The red button starts the next race; returns once the app has armed it."""
        number = self.session.number
        self.red_button()
        self.until(lambda: self.session.number == number + 1, f"the red button starting race {number + 1}")

    def at_go(self, presses: Mapping[int, int]) -> None:
        """Each button presses at its offset (ns, to the tick) after the board's next GO."""
        for btn, offset in presses.items():
            assert offset % TICK_NS == 0, "offsets are chosen to the tick"
            self.sim.control(f"edge {btn} 0 go {offset}")
            self.sim.control(f"edge {btn} 1 go {offset + HOLD_NS}")

    def at_arm(self, presses: Mapping[int, int]) -> dict[int, int]:
        """Each button presses at its offset after the board's last arming; returns the stamp
        each press must carry on the session's clock (the arming's, plus the offset)."""
        armed = self.arms[-1].t_ns
        for btn, offset in presses.items():
            assert offset % TICK_NS == 0 and offset >= EARLY_NS, f"offset {offset} is not a tick, or too soon"
            self.sim.control(f"edge {btn} 0 arm {offset}")
            self.sim.control(f"edge {btn} 1 arm {offset + HOLD_NS}")
        return {btn: armed + offset for btn, offset in presses.items()}

    def decided(self, places: int) -> None:
        self.until(lambda: self.session.phase is Phase.DECIDED and self.session.result is not None
                   and len(self.session.result.places) == places, f"race {self.session.number} decided, "
                   f"{places} places in")

    def released(self) -> None:
        """Every scripted press let go again (a button down at the next arming would count)."""
        self.until(lambda: self.session.held == () and not self.rig.held_seats(), "every button up")

    def lights(self) -> dict[int, SeatLight]:
        """What the board was last told to show, seat by seat."""
        seen: dict[int, SeatLight] = {}
        for lights, ok in self.shown:
            if ok:
                seen.update(lights)
        return seen


def seats(n: int, *lit: tuple[int, SeatLight], rest: SeatLight = OFF) -> dict[int, SeatLight]:
    out = {seat: rest for seat in range(n)}
    out.update(dict(lit))
    return out


def places(session: Session) -> list[tuple[int, int | None, int]]:
    result = session.result
    assert result is not None
    return [(p.seat, p.reaction_ns, p.gap_ns) for p in result.places]


class Table:
    """Opens benches on one simulated board as the screen's ``referee PRESET --input board
    --port PORT --db LOG`` does (a log resumed with its ClockShift), and closes them."""

    def __init__(self, sim: SimBoard, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sim = sim
        self.monkeypatch = monkeypatch
        self.stack = ExitStack()      # what the benches opened, closed by :meth:`close`

    def close(self) -> None:
        self.stack.close()

    def open(self, preset_id: str, players: int, seed: int, db: Path) -> Bench:
        detected = detect("board", players, port=str(self.sim.link))
        self.stack.callback(detected.close)
        assert detected.name == "board", detected.notes
        rig = detected.adapter
        assert isinstance(rig, BoardRig) and rig.clock == BOARD_CLOCK and rig.resolution_ns == TICK_NS
        log = RaceLog.open(db, load_presets().get(preset_id), players, clock=rig.clock,
                           resolution_ns=rig.resolution_ns, seed=seed, t0_ns=rig.now_ns())
        self.stack.callback(log.close)
        shift = log.clock_shift_ns(rig.now_ns())
        # A resumed log on a board whose clock began again: the time line carried on. (A new
        # log gets a second too when the board has not reported since t0 was read: equal times
        # are "not past". Harmless: every stamp moves alike, so the bench keeps it.)
        if shift:
            detected.adapter = ClockShift(rig, shift)
        pygame.font.init()
        sounds = _Sounds()
        said: list[str] = []
        app = RaceApp(detected=detected, session=log.session, names=NAMES[:players], lang="en",
                      fonts=fonts_for("en")[0], surface=pygame.Surface((800, 480)), sounds=sounds,
                      say=said.append, record=log.record)
        bench = Bench(self.sim, rig, app, log, sounds, shift, said)
        self._spy(bench)
        app.perform(app.lights())   # as the command does: a resumed session's lights
        return bench

    def _spy(self, b: Bench) -> None:
        rig = b.rig
        show, show_guard, arm, go = rig.show, rig.show_guard, rig.arm, rig.go
        main = threading.current_thread()

        def spy_show(lights: Mapping[int, SeatLight]) -> None:
            try:
                show(lights)
            except Exception:
                b.shown.append((dict(lights), False))
                raise
            b.shown.append((dict(lights), True))

        def spy_guard(on: bool) -> None:
            try:
                show_guard(on)
            except Exception:
                b.guard.append((on, False))
                raise
            b.guard.append((on, True))

        def spy_arm(race_seats: object) -> ArmReport:
            report = arm(race_seats)  # type: ignore[arg-type]
            if threading.current_thread() is main:
                b.arms.append(replace(report, t_ns=report.t_ns + b.shift_ns))
            else:
                b.rearms += 1     # the rig's own re-arming of a voided race (its worker thread)
            return report

        def spy_go(race_seats: object) -> Go:
            given = go(race_seats)  # type: ignore[arg-type]
            b.gos.append(replace(given, t_ns=given.t_ns + b.shift_ns))
            return given

        for name, spy in (("show", spy_show), ("show_guard", spy_guard), ("arm", spy_arm), ("go", spy_go)):
            self.monkeypatch.setattr(rig, name, spy)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    sim = SimBoard(tmp_path / "ttyBOARD", interpreter="auto")
    sim.plug()
    opened = Table(sim, monkeypatch)
    try:
        yield opened
    finally:
        opened.close()
        sim.close()


def yank(b: Bench) -> int:
    """Pull the board's cable mid-race: said in the footer, the session kept. Returns the last
    board time known, on the session's clock (the old board's clock stops with it)."""
    before = b.session
    b.sim.unplug()
    b.until(lambda: b.app.notice is not None and b.app.notice[0] == LINK_LOST, "a notice that the board is gone")
    assert b.session == before
    assert f"note: {LINK_LOST}" in b.said
    return b.app.adapter.now_ns()


def replug(b: Bench) -> None:
    """Plug the board back in: a new board (a new boot, its clock from zero) behind the same
    port. The rig voids the race the cable was pulled in (its RaceVoided, after re-arming the
    new board); the app calls that race off and says so."""
    boot = b.rig.info.boot if b.rig.info else ""
    b.sim.plug()

    def told() -> list[str]:
        return [w for w in b.said if w.startswith(("note: RaceVoided(", "note: GO failed:"))]

    b.until(lambda: bool(told()) and b.session.phase is Phase.READY, "the race the cable was pulled in called off")
    # The void is told once (issue 21), whichever way comes first: the rig's RaceVoided after it
    # re-armed the new board, or GO refused because the race was voided (the new board's clock
    # starts past the old one's, so GO can fall due at once) -- then the rig neither re-arms nor
    # reports it again.
    [way] = told()
    voided = way.startswith("note: RaceVoided(")
    assert b.rig.counters.board_restarts == 1 and b.rearms == (1 if voided else 0)
    assert b.rig.info is not None and b.rig.info.boot != boot
    assert b.app.notice is not None and b.app.notice[0] == (VOIDED_WORDS if voided else GO_FAILED)


def check_log(b: Bench, db: Path, preset_id: str, folder: Path) -> None:
    """The log, closed and opened again, replays to the app's session; its exported races
    re-judge to the same results, and the judge documents to the same ring-in orders."""
    session = b.session
    b.log.close()
    again = RaceLog.open(db, load_presets().get(preset_id), session.seats, clock=BOARD_CLOCK, resolution_ns=TICK_NS)
    try:
        assert replay(again.setup, again.inputs) == session
        assert again.session == session and again.called_off is None   # decided, every button up
    finally:
        again.close()
    written = export_races(session.records, folder)
    assert len(written) == len(session.results) == len(session.records)
    for path, result in zip(written, session.results):
        whole = json.loads(path.with_name(path.stem + ".referee.json").read_text(encoding="utf-8"))
        assert rejudge(whole) == result
        # ``cheating-moth judge`` on the judge document alone: the same ring-in order.
        evidence = judge(*parse_race(json.loads(path.read_text(encoding="utf-8"))))
        assert [p.player for p in evidence.ranking] == [p.seat for p in result.places]


def test_grab_on_the_board_started_by_the_red_button_judged_by_board_stamps(table: Table, tmp_path: Path) -> None:
    preset = load_presets().get("grab")
    fore = [draw_go_delay_ns(preset, random.Random(GRAB_SEED * 1_000_003 + n)) for n in range(1, 6)]
    assert [f // MS for f in fore] == [957, 1329, 2261, 883, 909]   # what the scheduling relies on
    db = tmp_path / "grab.db"
    b = table.open("grab", 4, GRAB_SEED, db)
    app, rig, sounds = b.app, b.rig, b.sounds

    # -- Race 1: the red button arms the board; GO when the fore-period ends; stamps decide ----
    b.at_go({2: 187_654_320, 0: 196_654_336, 3: 208_654_320})   # Cem, Ali 9.000016 ms later, Dan
    b.start()
    s = b.session
    assert s.phase is Phase.ARMED and s.race is not None and app.go is not None
    assert app.go.t_ns == s.go_due_t_ns == s.race.armed_t_ns + fore[0]
    assert len(b.arms) == 1 and b.arms[0].held == () and b.arms[0].t_ns >= s.race.armed_t_ns
    assert b.lights() == seats(4, rest=ARMED) and b.guard[-1] == (False, True) and "ready" in sounds.played
    b.until(lambda: b.session.phase is not Phase.ARMED, "GO for race 1")
    (go,) = b.gos
    assert b.session.phase is Phase.RUNNING and b.session.race is not None
    assert b.session.race.go_t_ns == go.t_ns >= s.go_due_t_ns and app.go is None
    assert b.lights() == seats(4, rest=GO) and "go" in sounds.played
    b.decided(3)
    r = b.session.result
    assert r is not None and r.winners == (2,) and not r.rerun and r.false_starts == () and r.timeouts == ()
    assert places(b.session) == [(2, 187_654_320, 0), (0, 196_654_336, 9_000_016), (3, 208_654_320, 11_999_984)]
    assert [p.t_ns - go.t_ns for p in r.places] == [187_654_320, 196_654_336, 208_654_320]
    assert b.lights() == seats(4, (2, WINNER)) and b.guard[-1] == (True, True) and "cockroach" in sounds.played
    assert b.session.wins(2) == 1
    b.released()

    # -- Race 2: Bea moves before GO: she is out, the others race on -------------------------
    b.at_go({1: 150 * MS, 0: 250 * MS, 3: 268_000_016})   # Bea's fast press after GO must not count
    b.start()
    assert b.session.phase is Phase.ARMED and app.go is not None
    assert app.go.t_ns - b.session.race.armed_t_ns == fore[1]   # type: ignore[union-attr]
    false_starts = sounds.played.count("false_start")
    early = b.at_arm({1: EARLY_NS})
    b.until(lambda: any(e.player == 1 for e in b.session.edges), "Bea's press before GO")
    assert b.session.phase is Phase.ARMED and sounds.played.count("false_start") == false_starts + 1
    b.decided(2)
    go = b.gos[-1]
    r = b.session.result
    assert r is not None and r.winners == (0,) and r.out == (1,) and not r.rerun
    (false_start,) = r.false_starts
    assert (false_start.seat, false_start.t_ns, false_start.early_ns) == (1, early[1], go.t_ns - early[1])
    # (Not checked here: held_at_go. She let go 80 ms later, long before GO, but the session
    # drops a false starter's release; see test_a_false_start_let_go_before_go_was_not_held_at_go.)
    assert places(b.session) == [(0, 250 * MS, 0), (3, 268_000_016, 18_000_016)]
    # Her faster press after GO does not count: it is not even kept.
    assert all(e.t_ns < go.t_ns for e in b.session.edges if e.player == 1)
    assert b.lights() == seats(4, (0, WINNER)) and (b.session.wins(0), b.session.wins(2)) == (1, 1)
    b.released()

    # -- Race 3: the cable is yanked while the race waits for GO --------------------------------
    tally = (b.session.results, b.session.decided)
    app.host(Act("start"))   # the host's Space, this time
    assert b.session.phase is Phase.ARMED and b.session.number == 3 and app.go is not None
    assert app.go.t_ns - b.session.race.armed_t_ns == fore[2]   # type: ignore[union-attr]
    gos = len(b.gos)
    old_now = yank(b)
    # GO cannot be given: the board's clock stopped with it, the race waits, armed.
    assert b.session.phase is Phase.ARMED and app.go is not None and old_now < app.go.t_ns
    replug(b)
    assert (b.session.results, b.session.decided) == tally and b.session.number == 3
    assert b.session.result is None and b.session.race is None
    assert rig.ticks_to_ns(0) > 0   # the new board's ticks, carried on after the old board's clock

    # -- Race 4: on the new board, judged on its own stamps, later than every old one ---------
    b.at_go({0: 201 * MS, 3: 201 * MS + TICK_NS, 1: 219_876_544})   # Dan one tick after Ali
    b.start()
    b.decided(3)
    go = b.gos[-1]
    assert len(b.gos) in (gos + 1, gos + 2)   # (GO may have been given to the re-armed race, then voided)
    race = b.session.race
    assert race is not None and race.go_t_ns == go.t_ns and race.armed_t_ns > old_now and go.t_ns > old_now
    r = b.session.result
    assert r is not None and r.winners == (0,) and r.ties == ()
    assert places(b.session) == [(0, 201 * MS, 0), (3, 201 * MS + TICK_NS, TICK_NS), (1, 219_876_544, 18_876_528)]
    assert (b.session.wins(0), b.session.wins(2)) == (2, 1) and len(b.session.decided) == 3
    b.released()

    # The session's time line never ran backwards: every input fed after race 3's start (the
    # new board's) is later than every one before it (the old board's).
    b.log.close()
    logged = RaceLog.open(db, preset, 4, clock=BOARD_CLOCK, resolution_ns=TICK_NS)
    inputs = [row.input for row in logged.inputs]
    assert logged.session == b.session and replay(logged.setup, logged.inputs) == b.session
    logged.close()
    starts = [i for i, event in enumerate(inputs) if isinstance(event, Start)]
    assert len(starts) == 4
    cut = starts[2] + 1
    assert max(e.t_ns for e in inputs[:cut]) <= old_now < min(e.t_ns for e in inputs[cut:])
    assert any(isinstance(e, CallOff) for e in inputs[cut:starts[3]])
    hosts = [e.t_ns for e in inputs if isinstance(e, (Start, CallOff, Go, Tick))]
    assert hosts == sorted(hosts)

    # -- Race 5: the app restarts on a board whose clock began again; the log resumes ---------
    b.check_frames()
    table.close()                             # the app stops: the rig's link and the log closed
    table.sim.unplug()
    table.sim.plug()
    before = b.session
    b = table.open("grab", 4, 0, db)          # the logged session (its own seed) goes on
    assert b.log.called_off is None and b.session == before
    assert b.shift_ns > 0 and b.rig.now_ns() < before.now_t_ns < b.app.adapter.now_ns()
    assert b.lights() == seats(4, (0, WINNER))   # the resumed session's lights on the new board
    b.at_go({3: 175_000_000, 2: 190_000_016})
    b.start()
    assert b.session.race is not None and b.session.race.armed_t_ns > before.now_t_ns
    assert b.app.go is not None and b.app.go.t_ns - b.session.race.armed_t_ns == fore[4]
    b.decided(2)
    go = b.gos[-1]
    assert b.session.race.go_t_ns == go.t_ns   # the board's stamp, shifted as every stamp is
    assert places(b.session) == [(3, 175 * MS, 0), (2, 190_000_016, 15_000_016)]
    assert b.session.wins(3) == 1 and len(b.session.decided) == 4 and b.session.number == 5
    b.released()
    check_log(b, db, "grab", tmp_path / "grab-races")
    b.check_frames()


def test_bell_slap_on_the_board_the_table_voids_a_wrong_slap(table: Table, tmp_path: Path) -> None:
    db = tmp_path / "bell.db"
    b = table.open("bell-slap", 3, 11, db)
    app, sounds = b.app, b.sounds

    # -- Race 1: the table's GO is the arming; Cem slaps first, Ali then Bea later -------------
    b.start()
    assert b.session.phase is Phase.RUNNING and app.go is None and b.gos == []   # no GO from the rig
    assert b.lights() == seats(3, rest=ARMED) and len(b.arms) == 1
    t = b.at_arm({2: LEAD_NS, 0: LEAD_NS + 80_000_016, 1: LEAD_NS + 130 * MS})
    b.decided(3)   # decided at Cem's slap; the hands after his are kept for the table
    r = b.session.result
    assert r is not None and r.winners == (2,)
    assert places(b.session) == [(2, None, 0), (0, None, 80_000_016), (1, None, 49_999_984)]
    assert [p.t_ns for p in r.places] == [t[2], t[0], t[1]]
    assert b.lights() == seats(3, (2, WINNER))

    # Only the winner can be voided: a tap on Bea is refused, and said.
    app.host(Act("void", 1))
    assert b.session.result is r and app.notice is not None and "seat 1 did not win" in app.notice[0]
    assert sounds.played[-1] == "refused"
    # Cem's slap was wrong: the table voids it and the next hand in line, Ali's, wins.
    app.host(Act("void", 2))
    r = b.session.result
    assert b.session.phase is Phase.DECIDED and r is not None and r.winners == (0,) and r.out == (2,)
    assert places(b.session) == [(0, None, 0), (1, None, 49_999_984)]
    assert "voided" in r.reason and "guilty" in sounds.played
    assert len(b.session.results) == 1 and (b.session.wins(0), b.session.wins(2)) == (1, 0)
    assert b.lights() == seats(3, (0, WINNER))
    b.released()

    # -- Race 2: the cable is yanked while the table flips cards: edges may be lost ------------
    tally = (b.session.results, b.session.decided)
    b.start()
    assert b.session.phase is Phase.RUNNING and b.session.number == 2
    old_now = yank(b)
    assert b.session.phase is Phase.RUNNING
    replug(b)
    assert (b.session.results, b.session.decided) == tally and b.session.number == 2

    # -- Race 3: the next race on the new board; Bea one tick ahead of Cem -----------------------
    b.start()
    race = b.session.race
    assert race is not None and race.armed_t_ns > old_now and b.arms[-1].t_ns > old_now
    t = b.at_arm({1: LEAD_NS, 2: LEAD_NS + TICK_NS})
    b.decided(2)
    r = b.session.result
    assert r is not None and r.winners == (1,) and r.ties == ()
    assert places(b.session) == [(1, None, 0), (2, None, TICK_NS)] and [p.t_ns for p in r.places] == [t[1], t[2]]
    assert (b.session.wins(0), b.session.wins(1)) == (1, 1) and len(b.session.decided) == 2
    b.released()
    check_log(b, db, "bell-slap", tmp_path / "bell-races")
    b.check_frames()


# -- Defects the board runs found (pure reproductions, no board needed) --------------------------


def test_a_false_start_let_go_before_go_was_not_held_at_go() -> None:
    """Race 2 of the grab run above, as session inputs: Bea presses 400 ms after arming and lets
    go 80 ms later, GO comes 0.96 s after arming (the seed's first fore-period). Her release is fed, but the session keeps no
    edge of a seat after its false start, so the result, the race record and the exported judge
    document say her button was held at GO (``cheating-moth judge`` prints "(held at GO)")."""
    preset = load_presets().get("grab")
    s = new_session(preset, 4, clock=BOARD_CLOCK, resolution_ns=TICK_NS, seed=GRAB_SEED, t_ns=0)
    s = check(s, Start(0))
    go_t_ns = s.go_due_t_ns
    assert go_t_ns is not None and go_t_ns > 900 * MS
    for event in (Press(1, 400 * MS, BOARD_CLOCK), Release(1, 480 * MS, BOARD_CLOCK), Go(go_t_ns, BOARD_CLOCK),
                  Press(0, go_t_ns + 250 * MS, BOARD_CLOCK), Tick(go_t_ns + 400 * MS)):
        s = check(s, event)
    assert s.phase is Phase.DECIDED and s.result is not None and s.result.winners == (0,)
    (early,) = s.result.false_starts
    assert (early.seat, early.t_ns) == (1, 400 * MS)
    assert not early.held_at_go
    assert [e["edge"] for e in s.records[-1]["judge"]["edges"] if e["player"] == 1] == ["press", "release"]


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_shells_link_notices_fit_the_race_screens_footer(size: tuple[int, int]) -> None:
    """What the footer said in the runs above, drawn on the race screen at the app's sizes."""
    pygame.font.init()
    s = new_session(load_presets().get("grab"), 4, clock=BOARD_CLOCK, resolution_ns=TICK_NS, seed=GRAB_SEED)
    overflows = []
    for lang in LANGUAGES:
        fonts = fonts_for(lang)[0]
        for key in (RaceApp.link_lost_key, "ref_race_go_failed", "ui_race_voided", "ref_quiz_lost"):
            p = Painter(pygame.Surface(size), fonts, lang)
            draw_race(p, RaceView(s, NAMES, 0, render(Message.of(key), lang)))
            overflows += [(lang, o.text) for o in p.overflows]
    assert overflows == []
