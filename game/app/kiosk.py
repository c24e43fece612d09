"""The café session around the app: the data folder, the game log's life, the leaderboard, the
staff lock and the config that the staff menu changes.

Data folder (``/var/lib/cheating-moth`` on a kiosk):

- ``table.db`` — the log of the game in progress (resumed at start);
- ``games/`` — logs of finished games, the newest ``keep_game_logs`` kept;
- ``race.db`` — the log of the referee session in progress (a race preset as the table's
  game), resumed at start; ``races/`` — logs of ended referee sessions, the newest
  ``keep_game_logs`` kept;
- ``aside/`` — logs that could not be resumed, moved here with a message, never deleted;
- ``leaderboard.db`` — finished games for the leaderboard;
- ``staff.toml`` — what staff changed in the staff menu (config sections and keys), applied
  over the config file at start (:func:`load_staff_overrides`), the table game among them;
- ``referee/`` — the café's own race presets (``*.toml``), besides the shipped ones and the
  folders ``cheating-moth referee`` reads (:func:`load_table_presets`);
- ``pin-wrong`` — the count of wrong staff PINs, so that a restart keeps the back-off
  (``pinwait.py``). The PIN's hash is not here but in ``pin_file`` (``pinfile.py``), which the
  kiosk only reads.

Whatever the folder is -- missing and not makeable, a file, on a full, read-only or failing SD
card, ``games/`` or ``aside/`` a file -- the kiosk starts and the table plays (issue 21): a log
that cannot be written keeps its steps in memory and writes them once it can (``StepLog``), a
log that cannot be made is made at the first step the card takes (:meth:`Kiosk.memory_log`),
a game over is filed and put on the leaderboard when the card takes it, and what could never
be written is said lost. A storage failure is waited out; only a damaged file goes aside.
Every problem is a note (on screen) and a line in the journal ("staff, check the SD card").
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sqlite3
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..controller import Stage, Table, TableSettings
from ..controller.reactions import stats
from ..controller.table import MAX_PLAYERS as TABLE_MAX_PLAYERS, MIN_PLAYERS as TABLE_MIN_PLAYERS
from ..bounded import what_is
from ..errors import BadConfig, BadTableLog
from ..i18n.lookup import text
from ..referee.presets import Preset, Presets, load_presets
from ..referee.session import Session as RaceSession
from ..staff import StaffLock
from ..variants import Rules
from .leaderboard import Fastest, FinishedGame, Leaderboard, Period, Row
from .pinfile import read_pin_file
from .pinwait import NAME as PIN_WRONG_NAME, load_count, save_count, shadow_path
from .rigconfig import (_KEYS, CHEATING_MOTH, MissingConfig, RigConfig, read_toml, rig_config_from,
                        with_changes)
from .storage import ADVICE, is_storage_error, reason
from .tablelog import LOG_SUFFIXES, StepLog, TableLog, move_log

if TYPE_CHECKING:
    from .referee.race_log import RaceLog

log = logging.getLogger("cheating-moth")

#: Finished referee sessions kept in memory (their results, for the staff's eyes), newest last;
#: each one's log is filed in ``races/``.
KEPT_RACE_SESSIONS = 20


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game the kiosk's table can run, as the staff menu offers it: Cheating Moth, or a race
    preset with the players it takes on this rig (its range, clamped to the seats wired)."""

    id: str                        # CHEATING_MOTH or the preset's id
    preset: Preset | None          # None: Cheating Moth
    wired: int                     # seat buttons the input has

    def name(self, lang: str) -> str:
        return self.preset.name(lang) if self.preset is not None else text(lang, "ui_title")

    @property
    def low(self) -> int:
        return self.preset.min_players if self.preset is not None else TABLE_MIN_PLAYERS

    @property
    def high(self) -> int:
        """The most players on this rig (below ``low`` when the rig has too few seats)."""
        most = self.preset.max_players if self.preset is not None else TABLE_MAX_PLAYERS
        return min(most, self.wired)

    @property
    def playable(self) -> bool:
        """The seats wired can play it. Cheating Moth always can: the kiosk always starts it."""
        return self.preset is None or self.low <= self.high

    def refusal(self) -> str | None:
        """Why the rig cannot run it, in one line (None: it can)."""
        if self.playable:
            return None
        return (f"race preset {self.id!r} needs at least {self.low} players, but the {self.wired} seat "
                f"buttons wired cannot seat them: choose a preset for {self.wired} or fewer players")

    def players(self, wanted: int) -> int:
        """The players who race: ``wanted`` (0: as many as possible) within ``low``..``high``."""
        return self.high if wanted <= 0 else max(self.low, min(self.high, wanted))

    def players_note(self, wanted: int) -> str | None:
        """One line when :meth:`players` is not ``wanted`` (``[kiosk] players`` beyond what the
        preset or the seats wired allow): the number is adjusted, never silently. None: it fits,
        or the game is Cheating Moth (which seats whoever sits down: the setting is the presets')."""
        if self.preset is None or wanted <= 0 or not self.playable or self.players(wanted) == wanted:
            return None
        takes = f"{self.low}" if self.low == self.high else f"{self.low} to {self.high}"
        why = f"on this rig's {self.wired} seats" if self.high < self.preset.max_players else "by its rules"
        target = takes if self.low == self.high else f"a number from {takes}"
        return (f"[kiosk] players = {wanted} does not fit race preset {self.id!r} ({takes} players {why}): "
                f"{self.players(wanted)} race; set players to {target}, or 0 for as many as can")


def load_table_presets(data: Path) -> Presets:
    """The race presets the kiosk offers: the shipped ones, the café's in the folders
    ``cheating-moth referee`` reads, then the data folder's ``referee/`` (a later file with a
    preset's id replaces it). A bad file is left out with a notice; none stops the kiosk."""
    from .cmd_referee import preset_dirs

    notices: list[str] = []
    found = load_presets(preset_dirs(argparse.Namespace(presets=[str(data / "referee")]), notices))
    return Presets(found.presets, (*notices, *found.notices))


@dataclass
class Kiosk:
    data: Path
    config: RigConfig
    wall_clock: Callable[[], datetime]          # aware local time (tests choose it)
    notes: list[str] = field(default_factory=list)
    lock: StaffLock | None = None
    leaderboard: Leaderboard = field(init=False)
    shutdown_requested: bool = False
    pin_file: Path | None = None                # the staff PIN's hash (None: no PIN, combination only)
    presets: Presets | None = None              # the race presets on offer (None: read them at start)
    #: Referee sessions that ended (the table switched, the players changed), results in memory.
    race_sessions: deque[RaceSession] = field(default_factory=lambda: deque(maxlen=KEPT_RACE_SESSIONS))

    #: The finished (or ended) game whose log could not be filed in games/ yet: it stays in
    #: ``table.db`` and is filed before the next game's log is made there (its file name).
    unfiled: Callable[[str], str] | None = None
    #: Finished games that could not be put on the leaderboard yet (tried again at the next).
    unrecorded: list[FinishedGame] = field(default_factory=list)
    #: The log of a game that is over but still holds steps in memory (the card failed at its
    #: end): kept open, written and filed before the next game's log is made there.
    finishing: StepLog | None = None
    #: The leaderboard is in memory because the card failed at the start: its file is tried again.
    board_waits: bool = False

    def __post_init__(self) -> None:
        # Whatever the data folder is (missing and not makeable, a file, read-only, full, its
        # games/ a file), the kiosk starts: the games are then kept in memory, and said.
        try:
            self.data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            kind = what_is(self.data)   # a FIFO or a link loop is named, not "File exists"
            if kind not in ("missing", "a folder"):
                self.trouble(f"the data folder {self.data} is {kind}, not a folder: games are kept in memory "
                             f"only; make it a folder (or give another --data); {ADVICE}")
            else:
                self.trouble(f"the data folder {self.data} cannot be used ({reason(exc)}): games are kept in "
                             f"memory only; {ADVICE}")
        else:
            try:
                (self.data / "games").mkdir(exist_ok=True)
            except OSError as exc:
                kind = what_is(self.data / "games")
                why = f"it is {kind}" if kind not in ("missing", "a folder") else reason(exc)
                self.trouble(f"the folder {self.data / 'games'} cannot be made ({why}): finished "
                             f"games stay in {self.current} until it can; {ADVICE}")
        self.leaderboard = self._open_leaderboard()
        if self.lock is None:
            self.lock = self._load_lock()
        if self.presets is None:
            try:
                self.presets = load_table_presets(self.data)
            except OSError as exc:
                self.presets = Presets((), ())
                self.trouble(f"the race presets could not be read ({reason(exc)}); {ADVICE}")
            self.notes.extend(self.presets.notices)

    def trouble(self, sentence: str) -> None:
        """A storage problem: a note for the screen and a line in the journal."""
        if sentence not in self.notes:    # once: a retry that fails again says nothing new
            self.notes.append(sentence)
            log.error("%s", sentence)

    def _load_lock(self) -> StaffLock | None:
        """The lock from the PIN file and the saved count of wrong PINs; any problem is a note
        and the staff menu opens by the button combination only (the kiosk always starts)."""
        pin_hash = None
        if self.pin_file is not None:
            try:
                pin_hash = read_pin_file(self.pin_file)
            except BadConfig as exc:
                self.notes.append(f"{exc} (until then the staff menu opens by the button combination only)")
        if self.config.pin_hash:
            # Old releases kept the hash in the world-readable config; it is not trusted any more.
            self.notes.append(
                "the config file still holds an old staff PIN (pin-hash, pin-salt), which is ignored: "
                "delete those lines" if pin_hash is not None else
                "the staff PIN in the config file (pin-hash, pin-salt) is no longer used: set it again "
                "with 'sudo cheating-moth staff-pin' (until then the staff menu opens by the button "
                "combination only)")
        if pin_hash is None:
            return None
        if _world_readable(self.pin_file):
            self.notes.append(f"the staff PIN file {self.pin_file} can be read by every user of the Pi: set "
                              "the PIN again with 'sudo cheating-moth staff-pin', which makes it readable "
                              "by root and the kiosk only")
        wrong = load_count(self.pin_wrong_file, self.notes, shadow_path(self.pin_wrong_file))
        return StaffLock(pin_hash, wrong, locked_until_ns=None if wrong else 0)

    # --- the game log ----------------------------------------------------------------------
    @property
    def current(self) -> Path:
        return self.data / "table.db"

    def open_log(self, settings: TableSettings, seed: int, t0_ns: int) -> TableLog:
        """The log of the game in progress; one that cannot be resumed is moved aside. Storage
        trouble never stops the table: the game is then kept in memory (a log without a file
        yet, :meth:`memory_log`), and what is on the card stays as it is."""
        self._record_games()
        if self.unfiled is not None and not self.file_unfiled():
            return self.memory_log(settings, seed, t0_ns, f"the finished game in it cannot be filed in "
                                   f"{self.data / 'games'} yet")
        try:
            table_log = TableLog.open(self.current, settings, seed, t0_ns)
        except BadTableLog as exc:
            if is_storage_error(exc) or not self.current.parent.is_dir():
                return self.memory_log(settings, seed, t0_ns, _cause(exc))
            moved = self.aside_or_none(self.current, str(exc))
            if moved is None:
                return self.memory_log(settings, seed, t0_ns, "it could not be resumed nor moved aside")
            try:
                table_log = TableLog.open(self.current, settings, seed, t0_ns)
            except BadTableLog as again:
                return self.memory_log(settings, seed, t0_ns, _cause(again))
            self.notes.append(f"the game log could not be resumed and was moved to {moved}")
        for notice in table_log.notices:  # a step dropped or lost, a mirror missing: said
            if table_log.trouble and notice == f"the log {table_log.trouble}":
                notice = f"{notice}; {ADVICE}"   # resumed on a card that takes nothing now
            self.notes.append(notice)
            log.warning("%s", notice)
        return table_log

    def start_log(self, settings: TableSettings, seed: int, t0_ns: int) -> TableLog:
        """:meth:`open_log`, but whatever is in ``table.db`` (bytes SQLite or this code cannot
        decode, a schema from elsewhere) the kiosk gets a log: one that fails in any other way
        than :class:`BadTableLog` is moved aside as well, with a note, and a new game starts."""
        try:
            table_log = self.open_log(settings, seed, t0_ns)
        except (sqlite3.Error, OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError) as exc:
            why = f"{type(exc).__name__}: {str(exc)[:120]}"
            moved = None if is_storage_error(exc) else self.aside_or_none(self.current, why)
            if moved is None:
                table_log = self.memory_log(settings, seed, t0_ns, why)
            else:
                self.notes.append(f"the game log could not be read ({why}) and was moved to {moved}")
                try:
                    table_log = self.open_log(settings, seed, t0_ns)
                except (sqlite3.Error, OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
                        RecursionError) as again:
                    table_log = self.memory_log(settings, seed, t0_ns, f"{type(again).__name__}: {str(again)[:120]}")
        for notice in getattr(table_log, "notices", ()):
            if notice not in self.notes and f"{notice}; {ADVICE}" not in self.notes:   # said once
                self.notes.append(str(notice))
        return table_log

    def memory_log(self, settings: TableSettings, seed: int, t0_ns: int, why: str) -> TableLog:
        """A new game's log kept in memory because ``table.db`` cannot be opened or made now
        (``why``): each step tries again, and once the card takes it the log is made and the
        steps so far are written into it in order (another game's log found there then is moved
        aside, kept; a finished one not yet filed is filed first)."""
        sentence = (f"the game log {self.current} cannot be written ({why}): the game goes on and is "
                    f"kept in memory until it can; {ADVICE}")
        table_log = TableLog.unwritten(self.current, settings, seed, t0_ns, sentence)
        table_log.prepare = self._ready_for_log
        table_log.make_room = lambda why: self.set_aside(self.current, why)
        self.trouble(sentence)
        return table_log

    def _ready_for_log(self) -> None:
        """Before a kept game's log is made: the folder exists and the last game is filed."""
        self.data.mkdir(parents=True, exist_ok=True)
        if self.unfiled is not None and not self.file_unfiled():
            raise OSError(errno.EAGAIN, f"the finished game in {self.current} cannot be filed yet")

    def set_aside(self, path: Path, why: str) -> Path:
        target = self._move_log(path, self.data / "aside", lambda when: f"{path.stem}-{when}{path.suffix}")
        log.error("moved %s aside to %s: %s", path, target, why)
        return target

    def aside_or_none(self, path: Path, why: str) -> Path | None:
        """:meth:`set_aside`, or None (with a note) when the card cannot move it: it stays."""
        try:
            return self.set_aside(path, why)
        except OSError as exc:
            self.trouble(f"{path} could not be resumed ({why[:160]}) and cannot be moved aside ({reason(exc)}): "
                         f"it is left as it is; {ADVICE}")
            return None

    def _move_log(self, path: Path, folder: Path, name: Callable[[str], str]) -> Path:
        return move_log(path, folder, name, self.wall_clock())

    def finish(self, table: Table, table_log: TableLog) -> None:
        """A game is over: record it on the leaderboard and file its log away (bounded)."""
        if table.stage is not Stage.GAME_OVER:
            return
        game = table.game
        winners = tuple(s.player for s in game.standings() if s.place == 1)
        self.unrecorded.append(FinishedGame(
            finished_unix_ns=int(self.wall_clock().timestamp() * 1e9), seed=table.seed,
            names=tuple(table.name(p) for p in range(table.players)), totals=game.totals,
            winners=winners, key=f"{table.seed}:{table_log.t0_ns}",
            best_ns=tuple(st.best_ns for st in stats(table.race_times, table.players))))
        self._record_games()
        self._wrap_up(table_log, lambda when: f"game-{when}-{table.seed}.db")
        log.info("game over: %s", ", ".join(f"{n} {t}" for n, t in zip(
            (table.name(p) for p in range(table.players)), game.totals)))

    # --- leaderboard and staff -------------------------------------------------------------
    def _record_games(self) -> None:
        """Put the finished games not on the leaderboard yet there, oldest first (a full card
        at a game's end: tried again at the next game's start, and at :meth:`close`). A
        leaderboard kept in memory because the card failed at the start is replaced by its file
        as soon as that opens, the games played meanwhile copied into it."""
        path = self.data / "leaderboard.db"
        if self.board_waits:
            try:
                board = Leaderboard(path, self.config.max_games)
            except BadTableLog:
                pass
            else:
                self.unrecorded[:0] = self.leaderboard.games()
                self.leaderboard.close()
                self.leaderboard, self.board_waits = board, False
                log.warning("the leaderboard %s can be opened again", path)
        while self.unrecorded:   # the oldest first: one that could not be recorded is tried again
            try:
                self.leaderboard.record(self.unrecorded[0])
            except sqlite3.Error as exc:  # a disk full or a file damaged since the start: the game stays filed
                self.trouble(f"a finished game could not be put on the leaderboard ({exc}); its log is kept in "
                             "games/ and it is put on the leaderboard when the card takes it")
                return
            self.unrecorded.pop(0)

    def _open_leaderboard(self) -> Leaderboard:
        path = self.data / "leaderboard.db"
        try:
            board = Leaderboard(path, self.config.max_games)
        except BadTableLog as exc:
            moved = None if is_storage_error(exc) else self.aside_or_none(path, str(exc))
            if moved is None:   # the card, not the file: the file is left as it is, and tried again
                self.trouble(f"the leaderboard {path} cannot be opened ({_cause(exc)}): games are kept in "
                             f"memory until it can; {ADVICE}")
                self.board_waits = True
                return Leaderboard(":memory:", self.config.max_games)
            self.notes.append(f"the leaderboard could not be read and was moved to {moved}")
        else:
            board.games()               # counts the rows that cannot be read (left out, kept)
            if board.skipped:
                games = f"{board.skipped} game{'' if board.skipped == 1 else 's'}"
                self.notes.append(f"{games} in {path} could not be read: the leaderboard "
                                  "leaves them out (the file is kept as it is)")
            return board
        try:
            return Leaderboard(path, self.config.max_games)
        except BadTableLog as exc:  # still unreadable (a folder, no permission): keep it in memory
            self.notes.append(f"{exc}; this session's games are kept in memory only")
            return Leaderboard(":memory:", self.config.max_games)

    def board(self, period: Period) -> list[Row]:
        return self.leaderboard.board(period, self.wall_clock())

    def fastest(self, period: Period) -> list[Fastest]:
        return self.leaderboard.fastest(period, self.wall_clock())

    @property
    def pin_wrong_file(self) -> Path:
        return self.data / PIN_WRONG_NAME

    def try_pin(self, pin: str, now_ns: int) -> tuple[bool, int]:
        """``(opened, wait_ns)``: ``wait_ns`` > 0 is how long the keypad now waits. Without a
        PIN configured the staff menu opens only by the button combination."""
        if self.lock is None:
            return False, 0
        lock = self.lock.settled(now_ns)
        if not lock.wait_ns(now_ns):
            # Saved as wrong before the check: a plug pulled while it runs cannot undo the attempt.
            self._save_wrong(lock.wrong + 1)
        self.lock, opened, wait = lock.try_pin(pin, now_ns)
        if opened:
            self._save_wrong(0)
        else:
            log.warning("wrong staff PIN%s", f" (locked for {wait // 10**9} s)" if wait else "")
        return opened, wait

    def _save_wrong(self, count: int) -> None:
        """The count of wrong PINs saved for a restart: on the card, and beside it where no SD
        card write is needed (pinwait.py); a card that refuses it is said (note and journal)."""
        shadow = shadow_path(self.pin_wrong_file)
        if not save_count(self.pin_wrong_file, count, shadow):
            kept = (f"it is kept in {shadow.parent} until the Pi is restarted" if shadow is not None
                    else "a restart of the kiosk clears it")
            self.trouble(f"the count of wrong staff PINs cannot be saved in {self.pin_wrong_file}: {kept}; "
                         f"{ADVICE}")

    def reset_leaderboard(self) -> None:
        try:
            self.leaderboard.reset()
        except sqlite3.Error as exc:
            self.trouble(f"the leaderboard could not be reset ({exc}); {ADVICE}")
            return
        log.warning("the leaderboard was reset from the staff menu")

    # --- the table game --------------------------------------------------------------------
    def table_games(self, wired: int) -> tuple[TableGame, ...]:
        """What the table can run, in the staff menu's order: Cheating Moth, then each race
        preset by name (one named ``cheating-moth`` cannot be chosen: that id is the card game)."""
        presets = self.presets.presets if self.presets is not None else ()
        return (TableGame(CHEATING_MOTH, None, wired),
                *(TableGame(p.id, p, wired) for p in presets if p.id != CHEATING_MOTH))

    def table_game(self, wired: int) -> TableGame:
        """The game the config asks for (``[kiosk] game``, staff's choice over the file's). One
        that is not here (an unknown or broken preset) or that the seats cannot play is a note,
        and the table runs Cheating Moth: a kiosk always starts."""
        games = self.table_games(wired)
        wanted = self.config.game
        game = next((g for g in games if g.id == wanted), None)
        if game is None:
            ids = ", ".join(g.id for g in games)
            self.notes.append(f"table game {wanted!r} is not a race preset on this rig: running Cheating Moth; "
                              f"use one of {ids} in [kiosk] game")
        elif game.refusal() is not None:
            self.notes.append(f"{game.refusal()}; running Cheating Moth meanwhile")
            game = None
        if game is None:
            game = games[0]
            # The table runs Cheating Moth now; the files keep what they say (the note repeats
            # at each start until someone fixes them, or staff choose a game in the menu).
            self.config = with_changes(self.config, game=CHEATING_MOTH)
        adjusted = game.players_note(self.config.game_players)
        if adjusted is not None:
            self.notes.append(adjusted)
        return game

    def choose_game(self, game: TableGame) -> str | None:
        """Staff chose the table game: kept in ``staff.toml``, and the kiosk runs it once the
        game running stops. Returns why not (one line), or None."""
        refusal = game.refusal()
        if refusal is not None:
            return refusal
        self.change(game=game.id)
        log.warning("staff switched the table to %s", game.id)
        return None

    # --- the referee session log ------------------------------------------------------------
    @property
    def race_current(self) -> Path:
        return self.data / "race.db"

    def open_race_log(self, preset: Preset, players: int, *, clock: str, resolution_ns: int, seed: int,
                      t0_ns: int) -> RaceLog:
        """The log of the referee session in progress (``race.db``), resumed when it holds a
        session of ``preset`` at ``players`` seats on ``clock``; a session of another game or
        table is filed away as finished and a new one starts; one that cannot be resumed (or
        read at all) is moved aside with a note, as the card game's log is."""
        from .referee.race_log import RaceLog

        def opened() -> RaceLog:
            return RaceLog.open(self.race_current, preset, players, clock=clock, resolution_ns=resolution_ns,
                                seed=seed, t0_ns=t0_ns)

        def in_memory(why: str) -> RaceLog:
            sentence = (f"the referee session log {self.race_current} cannot be written ({why}): the races go "
                        f"on and are kept in memory until it can; {ADVICE}")
            self.trouble(sentence)
            kept = RaceLog.unwritten(self.race_current, preset, players, sentence, clock=clock,
                                     resolution_ns=resolution_ns, seed=seed, t0_ns=t0_ns)
            kept.prepare = lambda: self.data.mkdir(parents=True, exist_ok=True)
            kept.make_room = lambda why: self.set_aside(self.race_current, why)
            return kept

        failures = (BadTableLog, sqlite3.Error, OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
                    RecursionError)
        try:
            race_log = opened()
        except failures as exc:
            why = str(exc) if isinstance(exc, BadTableLog) else f"{type(exc).__name__}: {str(exc)[:120]}"
            if is_storage_error(exc) or not self.race_current.parent.is_dir():
                return in_memory(_cause(exc))
            moved = self.aside_or_none(self.race_current, why)
            if moved is None:
                return in_memory("it could not be resumed nor moved aside")
            self.notes.append(f"the referee session log could not be resumed and was moved to {moved}")
            try:
                race_log = opened()
            except failures as again:
                return in_memory(_cause(again))
        if race_log.clash(preset.id, players, clock):
            # Another game's or table's session: it is over. Filed, or (the card failing) this
            # session is kept in memory and the other stays in race.db.
            if not self.file_race_log(race_log):
                return in_memory("the session before it cannot be filed")
            try:
                race_log = opened()
            except failures as exc:
                return in_memory(_cause(exc))
        for notice in race_log.notices:
            self.notes.append(str(notice))
            log.warning("%s", notice)
        return race_log

    def file_race_log(self, race_log: RaceLog) -> bool:
        """A referee session ended: its log goes to ``races/`` with its report beside it (HTML,
        for the group; the newest ``keep_game_logs`` kept), or is removed when it holds no
        finished race. False when the card cannot take it (it stays in ``race.db``, said)."""
        from .cmd_referee import names_for
        from .referee.report_file import write_report

        session = race_log.session
        self.close_log(race_log)
        path = race_log.path
        if not path.exists():     # kept in memory only (its results are in race_sessions)
            return True
        if not session.results:
            try:
                for suffix in LOG_SUFFIXES:
                    Path(str(path) + suffix).unlink(missing_ok=True)
            except OSError as exc:
                self.trouble(f"the referee session log {path} could not be removed ({reason(exc)}); {ADVICE}")
                return False
            return True
        folder = self.data / "races"
        # The date first: the oldest sort first when the folder is trimmed.
        try:
            filed = self._move_log(path, folder, lambda when: f"race-{when}-{session.preset.id}.db")
        except OSError as exc:
            self.trouble(f"the referee session that ended could not be filed in {folder} ({reason(exc)}): it "
                         f"stays in {path}; {ADVICE}")
            return False
        try:   # the group's report beside it (staff can hand it out)
            write_report(filed.with_suffix(".html"), session, names_for(session.seats), self.config.lang,
                         self.wall_clock())
        except OSError as exc:
            self.notes.append(f"the referee session's report could not be written ({exc.strerror}); its log is "
                              f"kept in {filed}")
        kept = sorted(folder.glob("race-*.db"))
        try:
            for old in kept[: max(0, len(kept) - self.config.keep_game_logs)]:
                for suffix in LOG_SUFFIXES:
                    Path(str(old) + suffix).unlink(missing_ok=True)
                old.with_suffix(".html").unlink(missing_ok=True)
        except OSError as exc:     # trimmed after the next session
            log.error("could not remove an old referee session log: %s", reason(exc))
        return True

    def keep_race_session(self, session: RaceSession) -> None:
        """A referee session ended: its results are kept in memory (the newest
        ``KEPT_RACE_SESSIONS``) and summed up in the log."""
        if not session.results:
            return
        self.race_sessions.append(session)
        log.info("referee session of %s ended: %d races, %d counted", session.preset.id, len(session.results),
                 len(session.decided))

    # --- the staff menu's changes -----------------------------------------------------------
    @property
    def staff_file(self) -> Path:
        return self.data / "staff.toml"

    def change(self, **changes: Any) -> None:
        """Staff changed settings (RigConfig fields): ``config`` takes them now (timings apply
        from the next game) and ``staff.toml`` keeps them with earlier staff changes."""
        self.config = with_changes(self.config, **changes)
        kept = load_staff_overrides(self.staff_file, self.config)
        kept.update(changes)
        if {"fore_period_min_ms", "fore_period_max_ms"} & set(changes):
            # Both, so that the file checks (minimum <= maximum) on its own.
            kept.update(fore_period_min_ms=self.config.fore_period_min_ms,
                        fore_period_max_ms=self.config.fore_period_max_ms)
        try:
            write_staff_overrides(self.staff_file, kept)
        except OSError as exc:     # it applies now; the card did not keep it for the next start
            self.trouble(f"the staff change ({', '.join(sorted(changes))}) applies now but could not be kept in "
                         f"{self.staff_file} ({reason(exc)}); {ADVICE}")
        log.info("staff changed %s", ", ".join(sorted(changes)))

    def end_game(self, table_log: TableLog, seed: int) -> None:
        """The staff menu ended a game before its end: its log is filed with the finished ones
        (not on the leaderboard) so that the next game starts from a fresh log."""
        self._wrap_up(table_log, lambda when: f"game-{when}-{seed}-ended.db")
        log.warning("the game was ended from the staff menu")

    def _wrap_up(self, table_log: TableLog, name: Callable[[str], str]) -> None:
        """A game's log is done with: closed and filed as ``name(date-time)``. One whose last
        steps are still in memory (the card failing) stays open and is written and filed once
        the card takes it (before the next game's log), or said lost at :meth:`close`."""
        if table_log.in_memory and not table_log.retry():
            self.unfiled = name
            self.finishing = table_log
            # Its own file is what gets filed now: making it must not wait for a filing.
            table_log.prepare = lambda: self.data.mkdir(parents=True, exist_ok=True)
            last = "last step" if table_log.in_memory == 1 else f"last {table_log.in_memory} steps"
            self.trouble(f"the {last} of the game that is over {'is' if table_log.in_memory == 1 else 'are'} kept "
                         f"in memory: written, and the game filed, once {table_log.path} can be written; {ADVICE}")
            return
        self.close_log(table_log)
        self.unfiled = name
        self.file_unfiled()

    def close(self) -> None:
        """The kiosk stops: a finished game's steps still in memory get a last try (else they are
        said lost), and the leaderboard is closed."""
        if self.finishing is not None:
            self.close_log(self.finishing)
            self.finishing = None
        self._record_games()
        unsaved = len(self.unrecorded) + (len(self.leaderboard.games()) if self.board_waits else 0)
        if unsaved:
            self.trouble(f"{unsaved} finished game{'s' * (unsaved != 1)} could not be put on the leaderboard file "
                         f"and {'are' if unsaved != 1 else 'is'} not on it (the logs are kept in games/); {ADVICE}")
        self.leaderboard.close()

    def close_log(self, step_log: StepLog) -> None:
        """Close a log; steps it could never write (the card failed until the end) are said lost."""
        step_log.close()
        if step_log.lost:   # the journal has it from the log itself
            self.notes.append(f"{step_log.lost} step{'s' * (step_log.lost != 1)} of the game could not be written "
                              f"to {step_log.path} and {'are' if step_log.lost != 1 else 'is'} lost; {ADVICE}")

    def file_unfiled(self) -> bool:
        """File the game that is over in games/ (its log with everything beside it, moved whole);
        True when done or nothing was left. One that cannot be moved stays in ``table.db``, said."""
        name = self.unfiled
        if name is None:
            return True
        if self.finishing is not None:          # its last steps first, then it is filed whole
            if not self.finishing.retry():
                return False
            self.close_log(self.finishing)
            self.finishing = None
        if not self.current.exists():        # kept in memory only: nothing on the card to file
            self.unfiled = None
            return True
        try:
            self._move_log(self.current, self.data / "games", name)
        except OSError as exc:
            self.trouble(f"the game that is over could not be filed in {self.data / 'games'} ({reason(exc)}): "
                         f"it stays in {self.current} and is filed when it can; {ADVICE}")
            return False
        self.unfiled = None
        kept = sorted((self.data / "games").glob("game-*.db"))
        for old in kept[: max(0, len(kept) - self.config.keep_game_logs)]:
            for suffix in LOG_SUFFIXES:
                try:
                    Path(str(old) + suffix).unlink(missing_ok=True)
                except OSError as exc:     # kept one more time: trimmed after the next game
                    log.error("could not remove the old game log %s%s: %s", old, suffix, reason(exc))
        return True


def _cause(exc: BaseException) -> str:
    """What failed in a few words: the storage's own (``No space left on device``) when it was
    the storage, else the whole sentence."""
    inner = exc.__context__
    if inner is not None and is_storage_error(inner):
        return reason(inner)
    return str(exc)[:200]


def _world_readable(path: Path | None) -> bool:
    """A 4- to 8-digit PIN's hash is the PIN to whoever can read it (a million guesses at most)."""
    try:
        return path is not None and bool(path.stat().st_mode & 0o004)
    except OSError:
        return False


#: RigConfig field -> (section, key) in the config file (and in staff.toml).
_PLACES: dict[str, tuple[str, str]] = {
    name: (section, key) for section, keys in _KEYS.items() for key, (name, _) in keys.items()}


def setting_range(name: str) -> tuple[int, int]:
    """The range the config file allows for a whole-number setting (a RigConfig field)."""
    section, key = _PLACES[name]
    low, high = _KEYS[section][key][1]
    return int(low), int(high)


def load_staff_overrides(path: str | Path, base: RigConfig | None = None,
                         notes: list[str] | None = None) -> dict[str, Any]:
    """The settings staff changed (``staff.toml``), as RigConfig fields for ``with_changes``;
    ``{}`` if there is no file. A file that cannot be read or holds a bad value is ignored
    with a warning in the log and a sentence on ``notes`` (the rig must still start). House
    rules come back as ``rules`` with ``base``'s deck (pass the café's config so that its deck
    is kept)."""
    path = Path(path)
    try:
        # Read within game/bounded.py's bounds: a FIFO or a device here is refused without
        # waiting on it, a symbolic link loop is named (``exists()`` would call it no file).
        data = read_toml(path, "staff settings", "delete it (the staff menu writes it)")
        if "deck" in data:
            raise BadConfig(f"{path} has a [deck] section: the deck is set in the config file only")
        checked = rig_config_from(data, str(path))
    except MissingConfig:
        return {}
    except BadConfig as exc:
        log.warning("staff settings in %s ignored: %s", path, exc)
        if notes is not None:
            notes.append(f"staff settings ignored, running without them: {exc}")
        return {}
    found: dict[str, Any] = {}
    for section, table in data.items():
        if section == "rules":
            deck = (base or RigConfig()).rules.deck
            found["rules"] = Rules(**{f.name: getattr(checked.rules, f.name) for f in fields(Rules)
                                      if f.name != "deck"}, deck=deck)
            continue
        for key in table:
            found[_KEYS[section][key][0]] = getattr(checked, _KEYS[section][key][0])
    return found


def write_staff_overrides(path: Path, overrides: dict[str, Any]) -> None:
    """``staff.toml`` with ``overrides`` (RigConfig fields), written whole and then renamed."""
    sections: dict[str, list[str]] = {}
    for name, value in sorted(overrides.items()):
        if name == "rules":
            assert isinstance(value, Rules)
            sections.setdefault("rules", []).extend(f'{k} = "{v}"' for k, v in value.variants().items())
            continue
        if name not in _PLACES:
            raise BadConfig(f"setting {name!r} cannot be changed from the staff menu")
        section, key = _PLACES[name]
        shown = ("true" if value else "false") if isinstance(value, bool) else (
            str(value) if isinstance(value, int) else '"' + str(value).replace('"', "") + '"')
        sections.setdefault(section, []).append(f"{key} = {shown}")
    body = "# Written by the staff menu; applied over the config file at start.\n"
    for section, lines in sections.items():
        body += f"\n[{section}]\n" + "\n".join(lines) + "\n"
    tmp = path.with_name(path.name + ".new")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(body)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
