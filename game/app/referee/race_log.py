"""A referee session's log: the table game's SQLite log (``game/app/tablelog.py``: the CRC
chain, the mirror, atomic creation, a torn last row dropped and lost steps said, all the same
code) holding a session of referee races instead of a table game.

- **Header**: what :func:`~game.referee.session.new_session` was given: the preset whole (the
  keys of its TOML file, its id and where it came from, so a café editing the file later
  cannot change how a logged session replays), seats, racers, clock, resolution, seed and the
  session's start time.
- **Rows**: every input fed to :func:`~game.referee.session.step`, refused ones included,
  written before its effects run (:meth:`RaceLog.step`). Each row also says how many race
  records the session keeps after it and, when the input finished a race (or changed the last
  record: a void, a next hand in line), that record: the raw race, re-judgeable. Replaying
  checks both, so a log written by a version of the rig that judges differently is refused
  rather than re-judged quietly.

**Resuming** (:meth:`RaceLog.open` on a log with rows) replays the inputs through ``step``,
which never raises, so the session comes back exactly; then two rows say the restart:

- a race armed or running when the rig stopped is not judged on half its evidence (what the
  buttons did while it was off is unknown): a ``CallOff`` is logged, so it gets no result and
  no record, and the next start runs a fresh race (a notice says so). Its edges stay in the
  log's rows. A decided race stays decided: a table void after the restart takes the next
  hand among those logged before it.
- a :class:`Restarted` row: which buttons are down is not known after a restart (a release
  while the rig was off is lost), so the session forgets the buttons it saw held; a button
  kept down through the restart is seen again at its next edge. Kept, a hand lifted while the
  rig was off would be a false start at the next GO.

**The time line**: the session's times are on the adapter's clock, which a reboot or a
replugged board starts again near zero. The shell reads :meth:`RaceLog.clock_shift_ns` once
after opening and, when it is not 0, wraps its adapter in ``ClockShift`` (``game/app/ui/
adapters.py``), exactly as the table game's loop does: every stamp (edges, GO, ``now_ns``)
moves by the same amount, so reaction times are unchanged and the session's clock never
runs backwards.

**Re-judging**: :func:`export_races` writes each finished race as a ``cheating-moth judge``
document (``race-001.json``, ...) and as its whole record with the preset's rules
(``race-001.referee.json``, for :func:`game.referee.race.rejudge`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...codec import from_dict, to_dict
from ...controller.effects import Effect
from ...controller.inputs import Tick
from ...errors import BadConfig, BadInputEvent, BadTableLog, GameError
from ...inputs import Go, Press, Release
from ...referee.presets import Preset, preset_from_mapping, preset_to_mapping
from ...referee.session import CallOff, Phase, Restarted, Session, SessionInput, Start, Void, new_session, step
from ..tablelog import REFEREE, Opened, StepLog, clock_shift_ns, open_log


LogInput = SessionInput
_INPUTS: dict[str, type[Any]] = {t.__name__: t for t in (Start, Void, CallOff, Press, Release, Go, Tick, Restarted)}
_ROW_KEYS = frozenset({"step", "prev", "input", "records", "record"})


@dataclass(frozen=True, slots=True)
class SessionSetup:
    """What a referee session was created with: the header of its log."""

    preset: Preset
    seats: int
    racers: tuple[int, ...]
    clock: str
    resolution_ns: int
    seed: int
    t0_ns: int

    def new_session(self) -> Session:
        """The session before any input; :class:`~game.errors.BadRace` names what does not fit."""
        return new_session(self.preset, self.seats, clock=self.clock, resolution_ns=self.resolution_ns,
                           seed=self.seed, t_ns=self.t0_ns, racers=self.racers)

    def header(self) -> dict[str, str]:
        return {"preset": json.dumps(preset_to_mapping(self.preset), sort_keys=True),
                "preset_id": self.preset.id, "preset_source": self.preset.source, "seats": str(self.seats),
                "racers": json.dumps(list(self.racers)), "clock": self.clock,
                "resolution_ns": str(self.resolution_ns), "seed": str(self.seed), "t0_ns": str(self.t0_ns)}


@dataclass(frozen=True, slots=True)
class LoggedInput:
    """One row: the input, how many race records the session kept after it, and the last
    record when the input changed it (None: unchanged, or no record left)."""

    input: LogInput
    records: int
    record: dict[str, Any] | None = None


def _kept(before: Session, after: Session) -> tuple[int, dict[str, Any] | None]:
    """What a row says the input left: the records' count, and the last one if it changed."""
    changed = bool(after.records) and after.records[-1:] != before.records[-1:]
    return len(after.records), after.records[-1] if changed else None


class RaceLog(StepLog):
    """An open referee session's log (see the module). ``session`` is the session now: the one
    the log's inputs lead to (a race cut off called off, held buttons forgotten), then moved on
    by each :meth:`step`. ``called_off`` is the number of the race the resume called off, or
    None; ``inputs`` the good rows read at opening."""

    def __init__(self, opened: Opened[SessionSetup, LoggedInput], session: Session) -> None:
        super().__init__(opened)
        self.setup = opened.header
        self.inputs = opened.rows
        self.session = session
        self.called_off: int | None = None

    @classmethod
    def open(cls, path: str | Path, preset: Preset, seats: int, *, clock: str, resolution_ns: int, seed: int = 0,
             t0_ns: int = 0, racers: tuple[int, ...] | None = None) -> RaceLog:
        """Open ``path``, creating it for a new session of ``preset`` (the arguments of
        :func:`~game.referee.session.new_session`); an existing log keeps its own setup and is
        resumed (see :meth:`clash`). Raises :class:`BadTableLog` with the reason if it cannot be
        resumed, and ``BadRace`` if the arguments make no session."""
        setup = SessionSetup(preset, seats, tuple(range(seats)) if racers is None else tuple(racers), clock,
                             resolution_ns, seed, t0_ns)
        setup.new_session()   # names a bad argument before any file is made
        opened = open_log(path, REFEREE, setup.header(), _read_setup, _read_row)
        try:
            session = replay(opened.header, opened.rows, str(opened.path))
        except BaseException:
            opened.close()
            raise
        log = cls(opened, session)
        if not opened.rows:
            return log
        if session.phase in (Phase.ARMED, Phase.RUNNING):
            log.step(CallOff(session.now_t_ns))
            log.called_off = session.number
            log.notices = (*log.notices, f"race {session.number} was {session.phase.value} when the rig stopped: "
                           "it was called off without a result (its presses stay in the log); start it again")
        log.step(Restarted(log.session.now_t_ns))
        return log

    @classmethod
    def unwritten(cls, path: str | Path, preset: Preset, seats: int, why: str, *, clock: str, resolution_ns: int,
                  seed: int = 0, t0_ns: int = 0, racers: tuple[int, ...] | None = None) -> RaceLog:
        """A new session whose log cannot be opened or made now (storage trouble): its inputs
        are kept in memory (``why`` is its notice and :attr:`trouble`) and written, in order,
        into a new log at ``path`` once the folder takes it (see :class:`StepLog`)."""
        path = Path(path)
        setup = SessionSetup(preset, seats, tuple(range(seats)) if racers is None else tuple(racers), clock,
                             resolution_ns, seed, t0_ns)
        session = setup.new_session()
        opened: Opened[SessionSetup, LoggedInput] = Opened(path, None, -1, bytes(8), setup, [], 0,  # type: ignore[arg-type]
                                                           (why,))
        log = cls(opened, session)
        log.trouble = why
        log._reopen = lambda: open_log(path, REFEREE, setup.header(), _read_setup, _read_row)
        return log

    def step(self, event: LogInput) -> tuple[Session, tuple[Effect, ...]]:
        """Step the session by ``event`` and log it; returns the new session (also
        :attr:`session`) and the effects to run, once the input is on disk."""
        before = self.session
        after, effects = step(before, event)
        self.append(event, before, after)
        self.session = after
        return after, effects

    def record(self, event: LogInput) -> None:
        """:meth:`step` for a shell that steps its own copy of the session after recording each
        input (``RaceApp(record=log.record)``): the same pure step, so the two stay the same."""
        self.step(event)

    def append(self, event: LogInput, before: Session, after: Session) -> None:
        """Write one input with what it left the session keeping (``before`` and ``after`` it);
        returns once it is on disk, with its mirror. An input that could not be read back (a
        field of the wrong type, which ``step`` refuses) is left out; one of a type that is no
        session input raises :class:`~game.errors.BadInputEvent`. :meth:`step` calls it; call it
        yourself only for a session you step (and then keep :attr:`session` yourself)."""
        if _INPUTS.get(type(event).__name__) is not type(event):
            raise BadInputEvent(f"input {event!r} cannot be logged: give {', '.join(_INPUTS)}")
        written = to_dict(event)
        try:
            readable = from_dict(written, _INPUTS) == event
        except GameError:
            readable = False
        if not readable:
            # A field of the wrong type (a float t_ns): step refused it and changed nothing, so
            # a replay without it is the same session; logged, it would read as a torn row.
            if after is not before:
                raise BadInputEvent(f"input {event!r} changed the session but cannot be logged: "
                                    "give its times and seats as whole numbers")
            return
        records, record = _kept(before, after)
        fields: dict[str, Any] = {"input": written, "records": records}
        if record is not None:
            fields["record"] = record
        self._write(fields, over=False)   # a session has no end of its own: there is always a next race

    def clock_shift_ns(self, adapter_now_ns: int) -> int:
        """What the shell adds to every stamp of an adapter whose clock reads ``adapter_now_ns``
        now (see the module): 0 unless the clock is not past the session's last logged time."""
        return clock_shift_ns(self.session.now_t_ns, adapter_now_ns)

    def clash(self, preset_id: str, seats: int, clock: str) -> str:
        """Why the logged session cannot go on as asked ('' when it can): a session resumes
        with its own preset, seats and clock, and a request for others is refused rather than
        quietly overruled (presses on another clock would all be refused)."""
        setup = self.setup
        asked = [(f"preset {preset_id!r}", f"preset {setup.preset.id!r}", preset_id != setup.preset.id),
                 (f"{seats} seats", f"{setup.seats} seats", seats != setup.seats),
                 (f"the {clock} clock", f"the {setup.clock} clock", clock != setup.clock)]
        differ = [(mine, theirs) for mine, theirs, different in asked if different]
        if not differ:
            return ""
        return (f"{' and '.join(m for m, _ in differ)} cannot go on in {self.path}: it holds a referee session "
                f"with {' and '.join(t for _, t in differ)}; go on with those, or give another --db path")


def replay(setup: SessionSetup, rows: Sequence[LoggedInput], where: str = "the log") -> Session:
    """The session ``rows`` lead to from ``setup``; :class:`BadTableLog` if a row's records
    differ from what this version makes of its input (another version's log)."""
    s = setup.new_session()
    for number, row in enumerate(rows, start=1):
        after, _ = step(s, row.input)
        if _kept(s, after) != (row.records, row.record):
            what = (f"kept {row.records} race records, but this version keeps {len(after.records)}"
                    if len(after.records) != row.records else "recorded a race otherwise than this version judges it")
            raise BadTableLog(f"step {number} of {where} ({type(row.input).__name__}) {what}: the log was written "
                              "by another version of the rig; finish the session with that version or start a "
                              "new log")
        s = after
    return s


def _read_setup(meta: dict[str, str]) -> SessionSetup:
    mapping = json.loads(meta["preset"])
    if not isinstance(mapping, dict):
        raise ValueError(f"the preset is a JSON {type(mapping).__name__}, not an object")
    preset = replace(preset_from_mapping(mapping, meta["preset_id"], "the logged preset"),
                     source=meta["preset_source"])
    racers = json.loads(meta["racers"])
    if not isinstance(racers, list) or not all(type(r) is int for r in racers):
        raise ValueError(f"racers {racers!r} are not a list of seats")
    setup = SessionSetup(preset, int(meta["seats"]), tuple(racers), meta["clock"], int(meta["resolution_ns"]),
                         int(meta["seed"]), int(meta["t0_ns"]))
    setup.new_session()   # the same checks as a session made now
    return setup


def _read_row(data: dict[str, Any]) -> LoggedInput:
    extra = sorted(set(data) - _ROW_KEYS)
    if extra:
        raise ValueError(f"it has an unknown field {extra[0]!r}")
    records, record = data["records"], data.get("record")
    if type(records) is not int or records < 0:
        raise ValueError(f"records {records!r} is not a count")
    if record is not None and not isinstance(record, dict):
        raise ValueError(f"its record is a JSON {type(record).__name__}, not an object")
    return LoggedInput(from_dict(data["input"], _INPUTS), records, record)


def export_races(records: Sequence[Mapping[str, Any]], folder: str | Path) -> tuple[Path, ...]:
    """Write each finished race (a session's ``records``, in order) into ``folder`` (made if
    missing) as ``race-NNN.json``, its ``cheating-moth judge`` document, and
    ``race-NNN.referee.json``, its whole record with the preset's rules; returns the judge
    documents' paths. A folder that already holds race files is refused (two sessions' races
    must not mix); :class:`BadConfig` names it."""
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
        held = sorted(p.name for p in out.glob("race-*.json"))
        if held:
            raise BadConfig(f"export folder {str(out)!r} already holds {held[0]}: give a new or empty folder, "
                            "so that the races of two sessions do not mix")
        written = []
        for number, record in enumerate(records, start=1):
            judge = out / f"race-{number:03d}.json"
            judge.write_text(json.dumps(record["judge"], indent=2) + "\n", encoding="utf-8")
            whole = out / f"race-{number:03d}.referee.json"
            whole.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(judge)
    except OSError as exc:
        raise BadConfig(f"export folder {str(out)!r} cannot be written ({exc.strerror or exc}): give a folder "
                        "you can write to") from None
    return tuple(written)
