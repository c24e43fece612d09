"""A session of referee races with one preset: ``step(session, input) -> (session, effects)``,
pure, like the table controller and the quiz.

The host (the red button, a tap, Enter) starts a race. For a rig-GO preset the session draws
the fore-period from its seed and asks the shell to give GO then (``ScheduleGo``); the shell
feeds back the ``Go`` the input adapter stamped. For a table-GO preset (a card flipped) the
race starts at arming. Every edge of the race is judged at once by
:func:`game.referee.race.judge_race`, which folds them by stamp, so arrival order does not
matter; a pending result asks for a ``Tick`` when judging again may decide.

A decided race lights its winners or losers and stays on screen until the next start. For a
preset that allows it the table may void the winner (a wrong slap): the next in line takes it.
A race to be run again (a tie under ``rerace``, a false start under ``restart``, nobody in
time) says why and waits for the next start. Every finished race is kept twice: its result
(for the tally and the statistics) and its record (:func:`game.referee.race.race_record`, to
re-judge later with ``cheating-moth judge``).

Edges outside a race only tell which buttons are down: one down through arming is a press
the race sees at its own stamp (a false start if still down at GO). A race the table may still
void keeps the hands after the winner's (the next in line). A seat whose part is settled (its
counted press in and debounced, or its false start) has its later edges dropped: they change
no verdict, and a chattering button must not make every edge re-judge a growing pile.
``CallOff`` drops the race armed or running without a result; ``Restarted`` (a resume from the
log) forgets the buttons seen down.

Inputs the moment does not allow are refused with a ``Notice`` naming why, state unchanged.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, replace
from typing import Any

from ..controller.effects import Arm, Effect, Leds, Light, Notice, PlaySound, ScheduleGo, WakeAt
from ..controller.inputs import Tick
from ..errors import BadInputEvent, BadRace, GameError, WrongPhase
from ..inputs import Go, Press, Release
from ..judge import format_seats
from ..messages import Message
from .presets import GoSource, Outcome, Preset
from .race import RefereeRace, RefereeResult, draw_go_delay_ns, judge_race, race_record


#: A false starter's edges before GO kept at most (see :func:`_says_nothing_new`).
MAX_EARLY_EDGES = 64


class Phase(enum.Enum):
    READY = "ready"        # no race yet, or one to be run again: the next start arms one
    ARMED = "armed"        # a rig race armed: GO is due at ``go_due_t_ns``
    RUNNING = "running"    # GO given (or a table race armed): presses are judged
    DECIDED = "decided"    # the result is up until the next start (or a void)


@dataclass(frozen=True, slots=True)
class Start:
    """Start the next race (the host's red button, a tap, Enter)."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class Void:
    """The table voids ``seat``'s winning press (a wrong slap): the next in line takes it."""

    seat: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class CallOff:
    """Call off the race armed or running, without a result: GO could not be given (a yanked
    cable), the host gives up waiting for a table's event, or the power went mid-race and the
    session resumed. Nothing of it is counted or kept; the next start runs a fresh race."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class Restarted:
    """The rig restarted and resumed the session from its log: which buttons are down is not
    known (a release while it was off is lost), so the buttons seen held are forgotten; one
    kept down through the restart is seen again at its next edge. Kept, a hand lifted while
    the rig was off would be a false start at the next GO."""

    t_ns: int


SessionInput = Start | Void | CallOff | Restarted | Press | Release | Go | Tick


@dataclass(frozen=True, slots=True)
class Session:
    """Everything the session knows after the last input."""

    preset: Preset
    seats: int
    racers: tuple[int, ...]
    clock: str
    resolution_ns: int
    seed: int
    phase: Phase = Phase.READY
    now_t_ns: int = 0
    number: int = 0                                # races started, re-runs included
    race: RefereeRace | None = None                # the race on screen
    go_due_t_ns: int | None = None                 # a rig GO asked of the shell, not yet stamped
    edges: tuple[Press | Release, ...] = ()        # the race's edges, as they came
    result: RefereeResult | None = None            # the race on screen (pending while it runs)
    results: tuple[RefereeResult, ...] = ()        # every finished race (re-runs too), in order
    records: tuple[dict[str, Any], ...] = ()       # each finished race's re-judgeable record
    held: tuple[tuple[int, int], ...] = ()         # (seat, press stamp) of buttons down now

    @property
    def decided(self) -> tuple[RefereeResult, ...]:
        """The races that counted (not those to be run again)."""
        return tuple(r for r in self.results if r.decided and not r.rerun)

    def wins(self, seat: int) -> int:
        return sum(seat in r.winners for r in self.decided)

    def losses(self, seat: int) -> int:
        return sum(seat in r.losers for r in self.decided)


def new_session(preset: Preset, seats: int, *, clock: str, resolution_ns: int, seed: int = 0,
                t_ns: int = 0, racers: tuple[int, ...] | None = None) -> Session:
    """A session of ``preset`` at a table of ``seats`` (every seat races unless ``racers`` says
    which); raises :class:`BadRace` naming what does not fit the preset."""
    if type(seats) is not int or not 1 <= seats <= 8:
        raise BadRace(f"seats {seats!r} is not valid: a table has 1 to 8 seats")
    chosen = tuple(range(seats)) if racers is None else tuple(racers)
    if not preset.min_players <= len(chosen) <= preset.max_players:
        raise BadRace(f"{len(chosen)} players cannot play {preset.id!r}: it takes "
                      f"{preset.min_players} to {preset.max_players}")
    # Arm a race once on paper: it names a bad racer, clock, resolution or time.
    RefereeRace(preset, seats, chosen, clock, resolution_ns, t_ns, None if preset.go is GoSource.TABLE else t_ns)
    return Session(preset, seats, chosen, clock, resolution_ns, seed, now_t_ns=t_ns)


def step(s: Session, event: SessionInput) -> tuple[Session, tuple[Effect, ...]]:
    """Apply one input: the new session and the effects for the shell. A refused input leaves
    the session unchanged and says why (a ``Notice`` with message key "refused"; the refused
    sound for the host's inputs)."""
    try:
        new, effects = _apply(s, event)
    except GameError as exc:
        refusal: list[Effect] = [Notice(Message.of("refused", reason=str(exc)))]
        if isinstance(event, (Start, Void, CallOff)):
            refusal.append(PlaySound("refused"))
        return s, tuple(refusal)
    return new, tuple(effects)


def check(s: Session, event: SessionInput) -> Session:
    """:func:`step` that raises the refusal instead (for tests and scripts)."""
    new, _ = _apply(s, event)
    return new


def _apply(s: Session, event: SessionInput) -> tuple[Session, list[Effect]]:
    if not isinstance(event, (Start, Void, CallOff, Restarted, Press, Release, Go, Tick)):
        raise BadInputEvent(f"input {event!r} is not valid here: give Start, Void, CallOff, Restarted, Press, "
                            "Release, Go or Tick")
    t = event.t_ns
    if type(t) is not int or t < 0:
        raise BadInputEvent(f"{type(event).__name__} t_ns {t!r} is not valid: give whole nanoseconds, 0 or more")
    fx: list[Effect] = []
    if isinstance(event, (Press, Release, Go)) and event.clock != s.clock:
        raise BadInputEvent(f"{type(event).__name__} on clock {event.clock!r} is not valid: this session "
                            f"runs on {s.clock!r}")
    if isinstance(event, (Press, Release)) and not 0 <= event.player < s.seats:
        raise BadInputEvent(f"seat {event.player!r} is not at this table: use 0 to {s.seats - 1}")
    if isinstance(event, Void) and (type(event.seat) is not int or not 0 <= event.seat < s.seats):
        raise BadInputEvent(f"seat {event.seat!r} is not at this table: use 0 to {s.seats - 1}")
    # Edges may arrive after later stamps (the board's batches); the session's "now" never
    # goes back, and the judge takes each edge at its own stamp.
    s = replace(s, now_t_ns=max(s.now_t_ns, t))
    if isinstance(event, (Press, Release)):
        s = replace(s, held=_held_after(s.held, event))
    if isinstance(event, Start):
        return _start(s, fx), fx
    if isinstance(event, Void):
        return _void(s, event, fx), fx
    if isinstance(event, Restarted):
        return replace(s, held=()), fx
    if isinstance(event, CallOff):
        if s.phase not in (Phase.ARMED, Phase.RUNNING):
            raise WrongPhase("CallOff is not valid now: no race is armed or running")
        fx.append(PlaySound("refused"))
        fx.append(Leds(_lights(s, lambda seat: Light.OFF), Light.ON))   # the red button starts the next
        return replace(s, phase=Phase.READY, race=None, edges=(), result=None, go_due_t_ns=None), fx
    if isinstance(event, Go):
        if s.phase is not Phase.ARMED or s.race is None:
            return s, fx            # a GO for a race called off meanwhile (a restart): nothing to judge
        if event.t_ns < s.race.armed_t_ns:
            raise BadInputEvent(f"GO at {event.t_ns} ns is not valid: the race was armed at {s.race.armed_t_ns} ns")
        race = replace(s.race, go_t_ns=event.t_ns)
        s = replace(s, race=race, go_due_t_ns=None, phase=Phase.RUNNING)
        fx.append(PlaySound("go"))
        fx.append(Leds(_lights(s, lambda seat: Light.ON), Light.OFF))
        return _judge(s, fx), fx
    if isinstance(event, (Press, Release)):
        if _says_nothing_new(s, event):
            return s, fx
        if s.phase is Phase.DECIDED and s.preset.table_may_void and s.race is not None:
            return _next_in_line(replace(s, edges=(*s.edges, event))), fx
        if s.phase not in (Phase.ARMED, Phase.RUNNING):
            return s, fx            # outside a race a press is evidence of nothing
        return _judge(replace(s, edges=(*s.edges, event)), fx), fx
    if s.phase in (Phase.ARMED, Phase.RUNNING):   # a Tick
        return _judge(s, fx), fx
    return s, fx


def _says_nothing_new(s: Session, edge: Press | Release) -> bool:
    """Whether ``edge`` comes from a seat that does not race, or whose part in the race on
    screen is settled: its counted press is in (and the contacts' debounce after it is over),
    or it started early (after GO, or past a chatterer's bound before it).
    Its later edges change no verdict (the judge takes each seat's first valid press), so they
    are not kept: a chattering or stuck button cannot make each edge re-judge a growing pile
    (a bell-slap round runs minutes) nor bloat the record. A seat's edges arrive in their own
    order, so none of them can be stamped before the press that settled it."""
    seat = edge.player
    if seat not in s.racers:
        return True             # a seat that does not race: the judge ignores it anyway
    r, race = s.result, s.race
    if r is None or race is None or s.phase is Phase.READY:
        return False
    placed = next((p.t_ns for p in r.places if p.seat == seat), None)
    if placed is not None:
        return edge.t_ns >= placed + race.bounce_ns
    if not any(f.seat == seat for f in r.false_starts):
        return False
    # A false starter: its edges before GO tell whether it was still down at GO (a press let go
    # before GO was not held), so they are kept, up to MAX_EARLY_EDGES (a human taps a few
    # times; more is chatter, whose level at GO nobody could tell). After GO they say nothing.
    go = race.spec.go_t_ns if s.phase is not Phase.ARMED else None   # a table's race: its arming
    if go is not None and edge.t_ns >= go + race.bounce_ns:
        return True
    return sum(e.player == seat for e in s.edges) >= MAX_EARLY_EDGES


def _held_after(held: tuple[tuple[int, int], ...], edge: Press | Release) -> tuple[tuple[int, int], ...]:
    """Which buttons are down, with the stamp of the press that put each down: a button held
    through arming is a press the race must see (held at GO, it is a false start)."""
    others = tuple(item for item in held if item[0] != edge.player)
    if isinstance(edge, Press):
        kept = dict(held).get(edge.player)
        return (*others, (edge.player, edge.t_ns if kept is None else min(kept, edge.t_ns)))
    return others


def leds(s: Session) -> Leds:
    """The seat lights the session shows now, whole (for a board plugged in again): the racers
    flashing while armed, lit from GO, the winners and losers once decided; the red button lit
    while it starts the next race."""
    result = s.result
    if s.phase is Phase.DECIDED and result is not None:
        seats = _lights(s, lambda seat: Light.WINNER if seat in result.winners
                        else Light.LOSER if seat in result.losers else Light.OFF)
    else:
        light = {Phase.RUNNING: Light.ON, Phase.ARMED: Light.ARMED}.get(s.phase, Light.OFF)
        seats = _lights(s, lambda seat: light)
    return Leds(seats, Light.ON if s.phase in (Phase.READY, Phase.DECIDED) else Light.OFF)


def _lights(s: Session, light: Any) -> tuple[Light, ...]:
    return tuple(light(seat) if seat in s.racers else Light.OFF for seat in range(s.seats))


def _start(s: Session, fx: list[Effect]) -> Session:
    if s.phase in (Phase.ARMED, Phase.RUNNING):
        raise WrongPhase(f"Start is not valid while race {s.number} is running: wait for its result")
    number = s.number + 1
    t = s.now_t_ns
    # Each race's fore-period and lot replay from the session's seed and the race's number.
    rng = random.Random(s.seed * 1_000_003 + number)
    table_go = s.preset.go is GoSource.TABLE
    due = None if table_go else t + draw_go_delay_ns(s.preset, rng)
    race = RefereeRace(s.preset, s.seats, s.racers, s.clock, s.resolution_ns, t, due, seed=rng.randrange(2**32))
    fx.append(Arm(number, s.racers))
    fx.append(PlaySound("ready"))
    fx.append(Leds(_lights(s, lambda seat: Light.ARMED), Light.OFF))
    # A button already down at arming is evidence for this race: its press, at its own stamp.
    held = tuple(Press(seat, t_ns, s.clock) for seat, t_ns in sorted(s.held) if seat in s.racers)
    s = replace(s, phase=Phase.RUNNING if table_go else Phase.ARMED, number=number, race=race, edges=held,
                result=None, go_due_t_ns=due)
    if due is not None:
        fx.append(ScheduleGo(number, due, s.racers))
    return _judge(s, fx)


def _judge(s: Session, fx: list[Effect]) -> Session:
    race = s.race
    assert race is not None
    now = s.now_t_ns
    if s.phase is Phase.ARMED:
        # GO is due but not stamped: judge only what happened before it (false starts); the
        # race itself is judged against GO's stamp once the adapter gives it.
        assert s.go_due_t_ns is not None
        # Edges stamped after GO was due (the board sends a batch before GO's own stamp) wait
        # for that stamp: the judge refuses an edge later than its "now".
        now = max(race.armed_t_ns, min(now, s.go_due_t_ns - 1))
        edges = tuple(e for e in s.edges if e.t_ns <= now)
        if s.edges and isinstance(s.edges[-1], Press) and s.edges[-1].t_ns <= now:
            fx.append(PlaySound("false_start"))
    else:
        edges = s.edges
    result = judge_race(race, edges, now)
    if not result.decided:
        if result.recheck_t_ns is not None and s.phase is Phase.RUNNING:
            fx.append(WakeAt(result.recheck_t_ns))
        return replace(s, result=result)
    return _finished(s, result, now, fx)


def _finished(s: Session, result: RefereeResult, now: int, fx: list[Effect]) -> Session:
    race = s.race
    assert race is not None
    kept = replace(s, result=result, results=(*s.results, result),
                   records=(*s.records, race_record(race, s.edges, now)), go_due_t_ns=None)
    if result.rerun:
        fx.append(PlaySound("false_start" if result.false_starts else "refused"))
        fx.append(Leds(_lights(s, lambda seat: Light.OFF), Light.ON))   # the red button starts it again
        return replace(kept, phase=Phase.READY)
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    fx.append(PlaySound("cockroach" if first_wins else "slap"))
    fx.append(Leds(_lights(s, lambda seat: Light.WINNER if seat in result.winners
                           else Light.LOSER if seat in result.losers else Light.OFF), Light.ON))
    return replace(kept, phase=Phase.DECIDED)


def _next_in_line(s: Session) -> Session:
    """A decided race the table may still void keeps the hands that come after the winner's:
    if the winner's slap was wrong, the next of them wins. The result on screen and the record
    kept grow the ring-in order; the winner stands (the lockout settled it)."""
    assert s.race is not None
    result = judge_race(s.race, s.edges, s.now_t_ns)
    return replace(s, result=result, results=(*s.results[:-1], result),
                   records=(*s.records[:-1], race_record(s.race, s.edges, s.now_t_ns)))


def _void(s: Session, event: Void, fx: list[Effect]) -> Session:
    if not s.preset.table_may_void:
        raise WrongPhase(f"preset {s.preset.id!r} does not let the table void a press: its results stand")
    if s.phase is not Phase.DECIDED or s.race is None or s.result is None:
        raise WrongPhase("Void is not valid now: only the winner of the race on screen can be voided")
    if event.seat not in s.result.winners:
        won = format_seats(list(s.result.winners)) if s.result.winners else "nobody"
        raise BadRace(f"seat {event.seat} did not win this race: only its winner ({won}) can be voided")
    race = replace(s.race, voided=(*s.race.voided, event.seat))
    fx.append(PlaySound("guilty"))
    # The corrected result replaces the one it corrects: the tally counts each race once. The
    # race goes on from where it was (its deadline may not have passed: the next hand may come).
    s = replace(s, race=race, results=s.results[:-1], records=s.records[:-1], phase=Phase.RUNNING)
    return _judge(s, fx)
