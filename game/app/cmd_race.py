"""``cheating-moth race``: one race on the real buttons or on simulated players, and its verdict.

How someone checks a freshly wired table: arm (the race seats' LEDs flash once), a random
fore-period of 0.8–2.5 s, GO, then the judge is asked again as edges arrive until it decides.
``--input sim`` runs the same loop on simulated time (no waiting) with simulated players.
``--input board`` runs it on the buzzer board (``--port PATH``, or found by its USB id), on the
board's own clock; a race voided by an unplug or a restart is run again once the board is back,
if it comes back within the rig's patience (``--board-patience-s``, default 10 s of board time).
gpiozero is imported only for ``--input gpio``, pyserial only for ``--input board``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from firmware_host.errors import AdapterError, StuckButton
from firmware_host.pinmap import DEFAULT_PINMAP_PATH, DEFAULT_RESOLUTION_US, load_pinmap
from firmware_host.records import SeatLight
from firmware_host.simplayers import SIM_CLOCK, SimPlayers

from ..inputs import Go, Press, Release
from ..judge import (
    MAX_PLAYERS, MIN_PLAYERS, RaceResult, RaceSpec, Status, default_eligible, format_gap, format_ms, format_seats, judge,
)
from ..judge_file import result_to_json
from ..race import RaceKind
from .options import SEED_MAX, check_output, fail, new_seed, seed_arg
from .writefile import replace_file

from firmware_host.boardlink.rig import DEFAULT_PATIENCE_S, PATIENCE_RANGE_S

if TYPE_CHECKING:
    from firmware_host.boardlink.link import BoardLink
    from firmware_host.boardlink.rig import BoardRig
    from firmware_host.gpio import GpioRig

HELP = ("run one race on the buttons (--input gpio), the buzzer board (--input board) or simulated players "
        "(--input sim) and print the verdict")

MS = 1_000_000
FORE_PERIOD_MIN_NS = 800 * MS
FORE_PERIOD_MAX_NS = 2_500 * MS
RELEASE_WAIT_NS = 10_000 * MS  # how long a held button at arming gets to be let go
POLL_NS = 10 * MS
SIM_START_T_NS = 60_000 * MS  # the simulated clock starts at "one minute of uptime"
BOARD_POLL_S = 0.05  # how often the race wait looks at the board's clock between its events
BOARD_RERACES = 3  # races voided by link trouble run again at most this often
SHOW_MS = 2000  # how long the LEDs show the verdict by default

Edge = Press | Release


class RaceInput(Protocol):
    """Where a race's edges and clock come from: the GPIO rig or simulated players."""

    @property
    def clock(self) -> str: ...
    @property
    def resolution_ns(self) -> int: ...
    def now_ns(self) -> int: ...
    def arm(self, seats: Sequence[int]) -> int: ...
    def held_seats(self, seats: Sequence[int]) -> tuple[int, ...]: ...
    def wait(self, until_t_ns: int) -> list[Edge]: ...
    def go(self, seats: Sequence[int]) -> Go: ...
    def show_result(self, result: RaceResult, spec: RaceSpec) -> None: ...


@dataclass(frozen=True, slots=True)
class RaceSettings:
    """What the command line asks for, with the fore-period already drawn from the seed."""

    kind: RaceKind
    players: int
    active: int
    seed: int
    fore_period_ns: int
    timeout_ns: int


@dataclass(frozen=True, slots=True)
class RaceRun:
    """One race as run: what was judged, the edges, when, and the verdict."""

    spec: RaceSpec
    edges: tuple[Edge, ...]
    now_t_ns: int
    result: RaceResult


def run_race(inp: RaceInput, race: RaceSettings, notify: Callable[[str], None]) -> RaceRun:
    """Arm, wait out the fore-period, GO, and judge until decided. Raises StuckButton if a race
    seat's button stays down for RELEASE_WAIT_NS after arming."""
    eligible = default_eligible(race.kind, race.players, race.active)
    armed_t_ns = _arm_released(inp, eligible, notify)
    edges: list[Edge] = []
    go_at = armed_t_ns + race.fore_period_ns
    while inp.now_ns() < go_at:
        edges.extend(inp.wait(go_at))  # presses now are false starts: keep them for the judge
    go = inp.go(eligible)
    spec = RaceSpec(
        kind=race.kind, players=race.players, active=race.active, eligible=eligible, clock=inp.clock,
        resolution_ns=inp.resolution_ns, armed_t_ns=armed_t_ns, go_t_ns=go.t_ns,
        timeout_ns=race.timeout_ns, seed=race.seed,
    )
    while True:
        # Every edge that has arrived, before judging at the input's time: on a loaded machine
        # the board's clock may already be past GO + the timeout when GO comes back, with the
        # presses queued behind it (judged as "no slap" before, in the restart campaign).
        now = inp.now_ns()
        edges.extend(inp.wait(now))
        # An edge may carry a stamp a few ns later than the float clock read just after it
        # arrived (time.monotonic() rounds); the judge refuses edges "from the future".
        now = max([now, *(e.t_ns for e in edges)])
        result = judge(spec, edges, now)
        if result.status is Status.DECIDED:
            break
        until = result.recheck_t_ns if result.recheck_t_ns is not None else now + POLL_NS
        edges.extend(inp.wait(max(until, now + 1)))
    inp.show_result(result, spec)
    return RaceRun(spec=spec, edges=tuple(edges), now_t_ns=now, result=result)


def _arm_released(inp: RaceInput, eligible: Sequence[int], notify: Callable[[str], None]) -> int:
    armed_t_ns = inp.arm(eligible)
    held = inp.held_seats(eligible)
    if not held:
        return armed_t_ns
    for seat in held:
        notify(f"seat {seat}'s button is held down (stuck or pressed early): release it")
    deadline = inp.now_ns() + RELEASE_WAIT_NS
    while held and inp.now_ns() < deadline:
        inp.wait(min(deadline, inp.now_ns() + 100 * MS))  # edges before arming do not count
        held = inp.held_seats(eligible)
    if held:
        raise StuckButton(
            f"{format_seats(held)} still held down {RELEASE_WAIT_NS // 1_000_000_000} s after "
            f"arming: check {'that button' if len(held) == 1 else 'those buttons'} and the wiring"
        )
    return inp.arm(eligible)


# -- inputs -------------------------------------------------------------------------------------


class SimInput:
    """Simulated players on a simulated clock: ``wait`` jumps to the next edge or the deadline."""

    clock = SIM_CLOCK

    def __init__(self, sim: SimPlayers, resolution_ns: int) -> None:
        self.resolution_ns = resolution_ns
        self._sim = sim
        self._now = SIM_START_T_NS
        self._armed = SIM_START_T_NS
        self._pending: list[Edge] = []  # in delivery order

    def now_ns(self) -> int:
        return self._now

    def arm(self, seats: Sequence[int]) -> int:
        self._armed = self._now
        return self._now

    def held_seats(self, seats: Sequence[int]) -> tuple[int, ...]:
        return ()

    def go(self, seats: Sequence[int]) -> Go:
        # The whole race is drawn at GO (false starts included, stamped before GO); they are
        # handed out by wait() as the simulated clock passes them.
        self._pending = list(self._sim.race(self._armed, self._now, seats).edges)
        return Go(self._now, SIM_CLOCK)

    def wait(self, until_t_ns: int) -> list[Edge]:
        due = [e.t_ns for e in self._pending if e.t_ns <= until_t_ns]
        self._now = max(self._now, min(due) if due else until_t_ns)
        out = [e for e in self._pending if e.t_ns <= self._now]
        self._pending = [e for e in self._pending if e.t_ns > self._now]
        return out

    def show_result(self, result: RaceResult, spec: RaceSpec) -> None:
        return None


class _RigInput:
    """What the GPIO rig and the buzzer board share as race inputs (``wait`` differs)."""

    def __init__(self, rig: GpioRig | BoardRig, players: int, show_s: float) -> None:
        self._rig = rig
        self._players = players
        self._show_s = show_s
        self.clock = rig.clock
        self.resolution_ns = rig.resolution_ns

    def now_ns(self) -> int:
        return self._rig.now_ns()

    def arm(self, seats: Sequence[int]) -> int:
        return self._rig.arm(seats).t_ns

    def held_seats(self, seats: Sequence[int]) -> tuple[int, ...]:
        return tuple(s for s in self._rig.held_seats() if s in seats)

    def go(self, seats: Sequence[int]) -> Go:
        return self._rig.go(seats)

    def _racing(self, taken: Sequence[object]) -> list[Edge]:
        # Only this race's seats: Caught! presses and the seats of a bigger table are not racing.
        return [e for e in taken if isinstance(e, (Press, Release)) and e.player < self._players]


class GpioInput(_RigInput):
    """The GPIO rig on its real clock: ``wait`` blocks on the rig's queue until an edge or the time."""

    _rig: GpioRig

    def wait(self, until_t_ns: int) -> list[Edge]:
        timeout_s = max(0, until_t_ns - self.now_ns()) / 1e9
        try:
            first = self._rig.events.get(timeout=timeout_s)
        except queue.Empty:
            return []
        return self._racing([first, *self._rig.drain()])

    def show_result(self, result: RaceResult, spec: RaceSpec) -> None:
        self._rig.go_off()
        self._rig.show(_verdict_lights(result, spec))
        threading.Event().wait(self._show_s)  # let the table see the verdict before close()


class BoardInput(_RigInput):
    """The buzzer board on its own clock: ``wait`` blocks on the rig's queue until an edge, or
    until the board reports that its time has passed ``until_t_ns``. It keeps no limit of its
    own: a board that is gone (unplugged, restarting, silent) has the rig's one patience, after
    which the rig's BoardAway ends the wait with BoardGone; a void of this race ends it with
    RaceVoidedError (a void of an earlier race, told already, is no news)."""

    _rig: BoardRig

    def __init__(self, rig: BoardRig, players: int, show_s: float) -> None:
        super().__init__(rig, players, show_s)
        self._race: int | None = None  # the race this input armed last (voids of others are old news)

    def arm(self, seats: Sequence[int]) -> int:
        report = self._rig.arm(seats)
        self._race = report.race
        return report.t_ns

    def go(self, seats: Sequence[int]) -> Go:
        return self._rig.go(seats, race_id=self._race)

    def wait(self, until_t_ns: int) -> list[Edge]:
        from firmware_host.boardlink.errors import BoardGone, RaceVoidedError
        from firmware_host.boardlink.rig import BoardAway, RaceVoided

        while True:
            try:  # past the time asked for: only what has arrived, without waiting
                first = self._rig.events.get(timeout=0 if self.now_ns() >= until_t_ns else BOARD_POLL_S)
            except queue.Empty:
                if self.now_ns() >= until_t_ns:
                    return []
                continue
            taken = [first, *self._rig.drain()]
            away = [e for e in taken if isinstance(e, BoardAway)]
            if away:
                raise BoardGone(away[0].message)
            voided = [e for e in taken if isinstance(e, RaceVoided) and e.race == self._race]
            if voided:
                raise RaceVoidedError(f"race voided: {voided[0].why}")
            return self._racing(taken)

    def show_result(self, result: RaceResult, spec: RaceSpec) -> None:
        from firmware_host.boardlink.errors import LinkDown

        try:
            self._rig.finish()
            self._rig.show(_verdict_lights(result, spec))
        except LinkDown:
            return  # unplugged after the decision: the verdict stands, the LEDs cannot show it
        threading.Event().wait(self._show_s)


def _verdict_lights(result: RaceResult, spec: RaceSpec) -> dict[int, SeatLight]:
    lights = {s: SeatLight.OFF for s in spec.eligible}
    tie_light = SeatLight.WINNER if spec.kind is RaceKind.COCKROACH else SeatLight.LOSER
    for seat in result.tied:
        lights[seat] = tie_light
    if result.winner is not None:
        lights[result.winner] = SeatLight.WINNER
    if result.loser is not None:
        lights[result.loser] = SeatLight.LOSER
    return lights


# -- the subcommand -----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", required=True, choices=("gpio", "board", "sim"),
                        help="gpio: the wired buttons; board: the buzzer board; sim: simulated players on simulated time")
    parser.add_argument("--port", metavar="PATH", default=None,
                        help="with --input board: its serial port (default: found by USB vendor id 0x2E8A)")
    parser.add_argument("--kind", default="slap", choices=tuple(k.value for k in RaceKind),
                        help="slap: slowest loses; cockroach: fastest wins (default slap)")
    parser.add_argument("--players", type=int, required=True, help=f"{MIN_PLAYERS} to {MAX_PLAYERS}")
    parser.add_argument("--active", type=int, default=0,
                        help="seat of the player who laid the card (default 0); a slap excludes it")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help=f"seed of the fore-period and the simulated players, 0 to {SEED_MAX} "
                             "(default: new, printed, and in --json as \"seed\")")
    parser.add_argument("--pins", metavar="FILE", default=None,
                        help=f"pin map for --input gpio (default {DEFAULT_PINMAP_PATH})")
    parser.add_argument("--timeout-ms", type=int, default=3000,
                        help="how long after GO presses count (default 3000)")
    parser.add_argument("--show-ms", type=int, default=None,
                        help=f"with --input gpio or board, how long the LEDs show the verdict (default {SHOW_MS})")
    parser.add_argument("--board-time-scale", metavar="X", default=None,
                        help="with --input board, wall seconds allowed per board second for every wait on the "
                             "board, 0.01 to 1000 (default $CHEATING_MOTH_BOARD_TIME_SCALE, else 1)")
    parser.add_argument("--board-patience-s", metavar="S", default=None,
                        help=f"with --input board, how long an unplugged or restarting board has to come back "
                             f"before the race is given up, in board seconds (default {DEFAULT_PATIENCE_S:g})")
    parser.add_argument("--record", metavar="FILE",
                        help="also write the race as a document for 'cheating-moth judge'")
    parser.add_argument("--json", action="store_true", help="print the judge's result as JSON")


def run(args: argparse.Namespace) -> int:
    players, active = args.players, args.active
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"--players {players} is not valid: a race needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 0 <= active < players:
        fail(f"--active {active} is not a seat at a {players}-player table: use 0 to {players - 1}")
    if not 1 <= args.timeout_ms <= 60_000:
        fail(f"--timeout-ms {args.timeout_ms} is not valid: use 1 to 60000")
    if args.show_ms is not None and args.input == "sim":
        fail("--show-ms is for the LEDs of --input gpio or board (simulated players have none): drop it")
    show_ms = SHOW_MS if args.show_ms is None else args.show_ms
    if not 0 <= show_ms <= 60_000:
        fail(f"--show-ms {show_ms} is not valid: use 0 to 60000")
    if args.record:
        # Refused before the race: a race on the wired table is not lost to a typo in a path,
        # nor does writing it wait forever on a FIFO or follow a link.
        check_output("--record", args.record, "give --record a new file name or a record to replace")
    if args.pins is not None and args.input != "gpio":
        fail("--pins is only for --input gpio: drop it or use --input gpio")
    if args.port is not None and args.input != "board":
        fail("--port is only for --input board: drop it or use --input board")
    if args.board_time_scale is not None and args.input != "board":
        fail("--board-time-scale is only for --input board: drop it or use --input board")
    if args.board_patience_s is not None and args.input != "board":
        fail("--board-patience-s is only for --input board: drop it or use --input board")
    patience_s = board_patience(args.board_patience_s)
    seed = args.seed if args.seed is not None else new_seed()
    rng = random.Random(seed)  # the fore-period and the simulated players, never the global one
    sim_seed = rng.getrandbits(32)
    fore_period_ns = rng.randint(FORE_PERIOD_MIN_NS, FORE_PERIOD_MAX_NS)
    race = RaceSettings(
        kind=RaceKind(args.kind), players=players, active=active, seed=seed,
        fore_period_ns=fore_period_ns, timeout_ns=args.timeout_ms * MS,
    )
    try:
        if args.input == "sim":
            # Sim races tie like the default table would: the same resolution as hardware/pins.toml.
            sim = SimInput(SimPlayers(players, sim_seed), DEFAULT_RESOLUTION_US * 1000)
            done = run_race(sim, race, _notify)
            bad_edges = 0
        elif args.input == "board":
            done, bad_edges = run_board_race(args.port, race, show_ms / 1000, _notify,
                                             board_time_scale(args.board_time_scale), patience_s)
        else:
            done, bad_edges = _run_gpio(args, race, show_ms / 1000)
    except StuckButton as exc:
        fail(str(exc), status=1)
    except AdapterError as exc:  # pin map, pin factory
        fail(str(exc), status=2)
    if bad_edges:
        what = "bad frame(s) came from the board" if args.input == "board" else "edge(s) had unreadable timestamps"
        _notify(f"warning: {bad_edges} {what} and were not judged")
    if args.record:
        _write_record(Path(args.record), done)
    if args.json:
        # The seed rides along (judge's own document has it too): a race worth a second look can
        # be run again with --seed, chosen or not.
        print(json.dumps({**result_to_json(done.result), "seed": seed}, indent=2))
    else:
        print(_text(done, args.input, fore_period_ns))
    return 0


def _run_gpio(args: argparse.Namespace, race: RaceSettings, show_s: float) -> tuple[RaceRun, int]:
    from firmware_host.gpio import GpioRig, open_pin_factory

    pinmap = load_pinmap(args.pins if args.pins is not None else DEFAULT_PINMAP_PATH)
    if args.players > len(pinmap.seats):
        fail(f"--players {args.players} is more than the {len(pinmap.seats)} seats wired in {pinmap.source}")
    factory = open_pin_factory()
    try:
        with GpioRig(pinmap, pin_factory=factory) as rig:
            rig.drain()  # edges from before this race
            inp = GpioInput(rig, args.players, show_s)
            done = run_race(inp, race, _notify)
            return done, rig.bad_edge_count
    finally:
        factory.close()  # type: ignore[attr-defined]


def board_time_scale(text: str | None) -> float:
    """``--board-time-scale`` checked, else $CHEATING_MOTH_BOARD_TIME_SCALE checked, else 1: a
    bad value of either is one line and exit 2 here, before anything waits with it (1e10 used to
    reach a wait and end in an OverflowError traceback)."""
    from firmware_host.boardlink.timescale import parse_time_scale, resolve_time_scale

    try:
        return resolve_time_scale() if text is None else parse_time_scale(text, "--board-time-scale")
    except AdapterError as exc:
        fail(str(exc))


def board_patience(text: str | None) -> float:
    """``--board-patience-s`` checked (None: the rig's default)."""
    low, high = PATIENCE_RANGE_S
    if text is None:
        return DEFAULT_PATIENCE_S
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # NaN fails too
        fail(f"--board-patience-s {text!r} is not valid: use a number of seconds from {low:g} to {high:g}")
    return value


def run_board_race(
    port: str | None, race: RaceSettings, show_s: float, notify: Callable[[str], None],
    time_scale: float | None = None, patience_s: float = DEFAULT_PATIENCE_S, *, link: BoardLink | None = None,
) -> tuple[RaceRun, int]:
    """One race on the buzzer board; a race voided by link trouble (or a board restart, or an
    impossible stamp) is run again once the board is back (it is re-armed), at most
    BOARD_RERACES times. A board gone for longer than ``patience_s`` board seconds ends it with
    BoardGone (an AdapterError: one sentence). Returns the run and the bad frames counted.
    ``link``: an opened-not-started BoardLink to use (tests pass one with their own settings)."""
    from firmware_host.boardlink.errors import BoardTimeout, LinkDown, RaceVoidedError
    from firmware_host.boardlink.rig import BoardRig

    if port is not None and not Path(port).exists():
        fail(f"port {port!r} does not exist: plug the board in, or name its port with --port (e.g. /dev/ttyACM0)")
    with BoardRig(port, timeout_ns=race.timeout_ns, time_scale=time_scale, patience_s=patience_s, link=link) as rig:
        rig.drain()  # edges from before this race
        inp = BoardInput(rig, race.players, show_s)
        voided = 0
        while True:
            try:
                done = run_race(inp, race, notify)
                c = rig.counters
                if c.stamp_faults or c.protocol_errors:
                    notify(f"warning: the board sent {c.stamp_faults} impossible stamp(s) and {c.protocol_errors} "
                           f"protocol error(s); the last: {c.last_fault}")
                return done, c.bad_frames
            except (RaceVoidedError, LinkDown, BoardTimeout) as exc:
                # The board went away (or restarted) while the race was armed, while it was being
                # armed, or did not answer: the race is void either way and runs again once the
                # board is back, if it is back within the patience.
                voided += 1
                if voided > BOARD_RERACES:
                    raise
                rig.wait_back()  # BoardGone once gone for the whole patience: that sentence alone
                notify(f"{exc}: running the race again")


def _notify(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- output -------------------------------------------------------------------------------------


def _ms(ns: int) -> str:
    return format_ms(ns).removesuffix(" ms")


def _text(done: RaceRun, source: str, fore_period_ns: int) -> str:
    spec, result = done.spec, done.result
    lines = [
        f"{spec.kind.value.capitalize()} race, {spec.players} players, seat {spec.active} active: "
        f"{format_seats(spec.eligible)} race ({source}, seed {spec.seed}).",
        f"GO {_ms(fore_period_ns)} ms after arming; presses under {format_gap(spec.resolution_ns)} "
        f"apart tie.",
        result.reason,
    ]
    if result.ranking:
        lines += ["", f"{'place':>5}  {'seat':>4}  {'reaction ms':>11}  {'gap':>11}"]
        for place, p in enumerate(result.ranking, start=1):
            gap = format_gap(p.gap_ns) if place > 1 else ""  # a 16 ns board gap must not read 0.000
            lines.append(f"{place:>5}  {p.player:>4}  {_ms(p.reaction_ns):>11}  {gap:>11}".rstrip())
    notes = []
    for f in result.false_starts:
        held = ", still held at GO" if f.held_at_go else ""
        notes.append(f"false start: seat {f.player} at {_ms(f.t_ns - spec.go_t_ns)} ms{held}")
    if result.no_press:
        # A cockroach is decided once the leader's settle window has passed: the others simply
        # had not pressed yet, which is not a failing of theirs.
        label = "no press" if spec.kind is RaceKind.SLAP else "not pressed when decided"
        notes.append(f"{label}: {format_seats(result.no_press)}")
    bounces = sum(1 for i in result.ignored if i.why == "bounce")
    if bounces:
        notes.append(f"ignored as contact bounce: {bounces} edge(s)")
    for i in result.ignored:
        if i.why != "bounce":
            edge = "press" if isinstance(i.edge, Press) else "release"
            at = _ms(i.edge.t_ns - spec.go_t_ns)
            notes.append(f"ignored: seat {i.edge.player}'s {edge} at {at} ms ({i.why})")
    return "\n".join(lines + ([""] + notes if notes else []))


def _write_record(path: Path, done: RaceRun) -> None:
    """The race in the document format ``cheating-moth judge`` reads (game/judge_file.py)."""
    spec = done.spec
    doc = {
        "kind": spec.kind.value,
        "players": spec.players,
        "active": spec.active,
        "eligible": list(spec.eligible),
        "clock": spec.clock,
        "resolution_ns": spec.resolution_ns,
        "armed_t_ns": spec.armed_t_ns,
        "go_t_ns": spec.go_t_ns,
        "timeout_ms": spec.timeout_ns // MS,
        "lockout_ms": spec.lockout_ns // MS,
        "settle_ms": spec.settle_ns // MS,
        "tie_policy": spec.tie_policy.value,
        "seed": spec.seed,
        "now_t_ns": done.now_t_ns,
        "edges": [
            {"player": e.player, "edge": "press" if isinstance(e, Press) else "release", "t_ns": e.t_ns}
            for e in done.edges
        ],
    }
    try:
        replace_file(path, (json.dumps(doc, indent=2) + "\n").encode("utf-8"), "the --record file",
                     "give --record a new file name or a record to replace")
    except OSError as exc:   # BadTarget too: something put there during the race
        why = exc.strerror or exc
        fail(f"--record {str(path)!r} cannot be written ({why}): pick a writable file", status=1)
