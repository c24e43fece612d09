"""Referee races played by simulated players and a scripted host, headless: what ``cheating-moth
referee PRESET --input sim`` runs.

Every time comes from one seeded generator on the "sim" clock, so a seed is a replayable
session: the host starts each race a few seconds after the last, the rig's GO is stamped a
little after it fell due (as an adapter's stamp is), and :class:`SimPlayers` press with their own
reaction times, false starts, bounces and late delivery. For a table-GO preset (a bell slapped
when a match shows) the match comes at a random moment after arming; a slap before it is a
wrong slap, which the scripted table voids so the next hand in line takes the race.

Each input goes through :func:`game.referee.session.step`, as on the screen; ``on_input``
sees each one before it is fed (the log writes it there). The key moments (ready, armed, GO,
the first result, a re-run, a void, the statistics) are drawn into PNGs by ``draw``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.simplayers import SimPlayers, SimSettings

from ...controller.effects import Notice, ScheduleGo
from ...controller.inputs import Tick
from ...i18n.lookup import render
from ...inputs import Go
from ...judge import format_gap, format_ms
from ...referee.presets import GoSource, Outcome, Preset
from ...referee.race import RefereeResult, Rerun
from ...referee.session import Phase, Session, SessionInput, Start, Void, new_session, step

MS = 1_000_000
S = 1_000_000_000
SIM_CLOCK = "sim"
#: The simulated adapter's resolution: the buzzer board's PIO stamps are finer; 100 µs is what
#: the kernel's GPIO stamps are good to on a busy Pi (FACTS.md), so ties are judged as there.
SIM_RESOLUTION_NS = 100_000
T0_NS = 1_000 * S
#: A demo shows false starts and wrong slaps now and then, a little more often than a real table.
DEMO_SETTINGS = SimSettings(false_start_rate=0.1)

#: draw(session, now_ns, name, stats) -> the PNG written (or None).
Draw = Callable[[Session, int, str, bool], "Path | None"]


@dataclass
class RaceRun:
    """What a simulated session leaves: the session, its screenshots and its transcript."""

    session: Session
    shots: list[Path] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


class _Table:
    def __init__(self, session: Session, seed: int, draw: Draw, names: Sequence[str],
                 on_input: Callable[[SessionInput], None] | None) -> None:
        self.session = session
        self.rng = random.Random(seed)
        self.players = SimPlayers(session.seats, seed, DEMO_SETTINGS)
        self.draw = draw
        self.names = tuple(names)
        self.on_input = on_input
        self.run = RaceRun(session)
        self.shot_names: set[str] = set()
        self.due: int | None = None
        self.voids: list[str] = []

    @property
    def preset(self) -> Preset:
        return self.session.preset

    def feed(self, event: SessionInput) -> None:
        if self.on_input is not None:
            self.on_input(event)
        self.session, effects = step(self.session, event)
        for effect in effects:
            if isinstance(effect, ScheduleGo):
                self.due = effect.t_ns
            elif isinstance(effect, Notice):
                self.run.lines.append("note: " + render(effect.message, "en"))

    def shot(self, moment: str, *, stats: bool = False, once: bool = True) -> None:
        name = f"{self.preset.id}-{moment}"
        if once and name in self.shot_names:
            return
        self.shot_names.add(name)
        path = self.draw(self.session, self.session.now_t_ns, name, stats)
        if path is not None:
            self.run.shots.append(path)

    def race(self) -> None:
        """One race from the host's start to its result (or its call to run it again)."""
        s = self.session
        self.due = None
        self.feed(Start(s.now_t_ns + self.rng.randint(3_000, 8_000) * MS))
        race = self.session.race
        assert race is not None
        if self.preset.go is GoSource.TABLE:
            # The match shows when the cards say: a slap before it is a wrong one.
            go_t = race.armed_t_ns + self.rng.randint(2_000, 12_000) * MS
        else:
            assert self.due is not None
            self.shot("armed")
            go_t = self.due + self.rng.randint(200_000, 8 * MS)      # the adapter's stamp, a little late
        edges = self.players.race(race.armed_t_ns, go_t, self.session.racers).edges
        go_given = self.preset.go is GoSource.TABLE
        for edge in edges:
            if not go_given and edge.t_ns >= go_t:
                self._go(go_t)
                go_given = True
            self.feed(edge)
        if not go_given:
            self._go(go_t)
        last = max([e.t_ns for e in edges], default=go_t)
        self.feed(Tick(max(last, go_t) + 200 * MS))
        if self.session.phase in (Phase.ARMED, Phase.RUNNING) and self.session.race is not None:
            self.feed(Tick(self.session.race.deadline_t_ns))
        if self.preset.table_may_void:
            self._wrong_slaps(go_t)
        self._told()

    def _go(self, go_t: int) -> None:
        self.feed(Go(go_t, SIM_CLOCK))
        if self.session.phase is Phase.RUNNING:
            self.shot("go")

    def _wrong_slaps(self, match_t: int) -> None:
        """The table voids a winning slap that came before the match showed."""
        while self.session.phase is Phase.DECIDED and self.session.result is not None:
            result = self.session.result
            wrong = [p.seat for p in result.places if p.seat in result.winners and p.t_ns < match_t]
            if not wrong:
                return
            self.voids.append(f"the table voids {self.names[wrong[0]]}'s slap (before the match)")
            self.feed(Void(wrong[0], self.session.now_t_ns + self.rng.randint(1_000, 3_000) * MS))
            after = self.session     # nobody's hand after the void yet: the round runs to its end
            if after.phase is Phase.RUNNING and after.race is not None:
                self.feed(Tick(after.race.deadline_t_ns))
            self.shot("void")

    def _told(self) -> None:
        result = self.session.results[-1] if self.session.results else None
        if result is None:
            return
        if result.rerun:
            self.shot("rerun")
        else:
            self.shot("result")
        self.run.lines.append(f"race {self.session.number}: {told(result, self.names, self.preset)}")
        self.run.lines += [f"  {line}" for line in self.voids]
        self.voids = []


def told(result: RefereeResult, names: Sequence[str], preset: Preset) -> str:
    """One race in English words with the players' names (the judge's own reason counts seats
    from 0 and is for the record)."""
    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else f"seat {seat + 1}"

    parts = []
    if result.false_starts:
        parts.append("early: " + ", ".join(name(f.seat) for f in result.false_starts))
    if result.rerun:
        why = {Rerun.TIE: "a tie between " + " and ".join(name(s) for s in (result.ties[0] if result.ties else ())),
               Rerun.FALSE_START: "a false start",
               Rerun.NO_PRESS: "nobody pressed in time"}.get(result.rerun_why or Rerun.NO_PRESS, "")
        parts.append(f"run again ({why})")
        return "; ".join(parts)
    places = {p.seat: p for p in result.places}
    since = "after GO"   # a table-GO race has no reaction time: the rig does not see the match
    if preset.outcome is Outcome.FIRST_WINS:
        for seat in result.winners:
            p = places.get(seat)
            when = f" ({format_ms(p.reaction_ns)} {since})" if p is not None and p.reaction_ns is not None else ""
            parts.append(f"{name(seat)} wins{when}")
        parts += [f"{name(seat)} loses (false start)" for seat in result.losers]
        runner = [p for p in result.places if p.seat not in result.winners and p.counts is False]
        if runner and len(result.winners) == 1:
            parts.append(f"{name(runner[0].seat)} {format_gap(runner[0].gap_ns)} behind")
    else:
        for seat in result.losers:
            p = places.get(seat)
            if p is None:
                parts.append(f"{name(seat)} loses (no press in time)")
            else:
                when = f" ({format_ms(p.reaction_ns)} {since})" if p.reaction_ns is not None else ""
                parts.append(f"{name(seat)} loses{when}, {format_gap(p.gap_ns)} behind the one before")
    return "; ".join(parts)


def play_races(preset: Preset, seats: int, seed: int, races: int, draw: Draw, names: Sequence[str], *,
               on_input: Callable[[SessionInput], None] | None = None, session: Session | None = None) -> RaceRun:
    """Play until ``races`` races have counted (re-runs not counted; at most three times as many
    starts, so a table that keeps false-starting still ends); ``draw`` takes the screenshots.
    ``session`` continues a resumed one instead of a new one at the demo's start time."""
    if session is None:
        session = new_session(preset, seats, clock=SIM_CLOCK, resolution_ns=SIM_RESOLUTION_NS, seed=seed,
                              t_ns=T0_NS)
    table = _Table(session, seed, draw, names, on_input)
    table.shot("ready")
    counted = len(table.session.decided)
    target = counted + races
    for _ in range(races * 3):
        if len(table.session.decided) >= target:
            break
        table.race()
    table.shot("stats", stats=True)
    table.run.session = table.session
    return table.run
