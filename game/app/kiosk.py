"""The café session around the app: the data folder, the game log's life, the leaderboard, the
staff lock and the config that the staff menu changes.

Data folder (``/var/lib/cheating-moth`` on a kiosk):

- ``table.db`` — the log of the game in progress (resumed at start);
- ``games/`` — logs of finished games, the newest ``keep_game_logs`` kept;
- ``aside/`` — logs that could not be resumed, moved here with a message, never deleted;
- ``leaderboard.db`` — finished games for the leaderboard.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..controller import Stage, Table, TableSettings
from ..errors import BadTableLog
from ..staff import StaffLock, hash_pin
from .leaderboard import FinishedGame, Leaderboard, Period, Row
from .rigconfig import RigConfig
from .tablelog import TableLog

log = logging.getLogger("cheating-moth")


@dataclass
class Kiosk:
    data: Path
    config: RigConfig
    wall_clock: Callable[[], datetime]          # aware local time (tests choose it)
    notes: list[str] = field(default_factory=list)
    lock: StaffLock | None = None
    leaderboard: Leaderboard = field(init=False)
    shutdown_requested: bool = False

    def __post_init__(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        (self.data / "games").mkdir(exist_ok=True)
        self.leaderboard = self._open_leaderboard()
        if self.config.pin_hash:
            self.lock = StaffLock(self.config.pin_hash, bytes.fromhex(self.config.pin_salt))

    # --- the game log ----------------------------------------------------------------------
    @property
    def current(self) -> Path:
        return self.data / "table.db"

    def open_log(self, settings: TableSettings, seed: int, t0_ns: int) -> TableLog:
        """The log of the game in progress; one that cannot be resumed is moved aside."""
        try:
            table_log = TableLog.open(self.current, settings, seed, t0_ns)
        except BadTableLog as exc:
            moved = self.set_aside(self.current, str(exc))
            table_log = TableLog.open(self.current, settings, seed, t0_ns)
            self.notes.append(f"the game log could not be resumed and was moved to {moved}")
        if table_log.dropped:
            self.notes.append(table_log.dropped)
            log.warning(table_log.dropped)
        return table_log

    def set_aside(self, path: Path, why: str) -> Path:
        aside = self.data / "aside"
        aside.mkdir(exist_ok=True)
        stamp = self.wall_clock().strftime("%Y%m%d-%H%M%S")
        target = aside / f"{path.stem}-{stamp}{path.suffix}"
        n = 1
        while target.exists():
            target = aside / f"{path.stem}-{stamp}-{n}{path.suffix}"
            n += 1
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(path) + suffix)
            if part.exists():
                part.rename(Path(str(target) + suffix))
        log.error("moved %s aside to %s: %s", path, target, why)
        return target

    def finish(self, table: Table, table_log: TableLog) -> None:
        """A game is over: record it on the leaderboard and file its log away (bounded)."""
        if table.stage is not Stage.GAME_OVER:
            return
        game = table.game
        winners = tuple(s.player for s in game.standings() if s.place == 1)
        self.leaderboard.record(FinishedGame(
            finished_unix_ns=int(self.wall_clock().timestamp() * 1e9), seed=table.seed,
            names=tuple(table.name(p) for p in range(table.players)), totals=game.totals,
            winners=winners, key=f"{table.seed}:{table_log.t0_ns}"))
        table_log.close()
        stamp = self.wall_clock().strftime("%Y%m%d-%H%M%S")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(self.current) + suffix)
            if part.exists():
                part.rename(self.data / "games" / f"game-{stamp}-{table.seed}.db{suffix}")
        kept = sorted((self.data / "games").glob("game-*.db"))
        for old in kept[: max(0, len(kept) - self.config.keep_game_logs)]:
            for suffix in ("", "-wal", "-shm"):
                Path(str(old) + suffix).unlink(missing_ok=True)
        log.info("game over: %s", ", ".join(f"{n} {t}" for n, t in zip(
            (table.name(p) for p in range(table.players)), game.totals)))

    # --- leaderboard and staff -------------------------------------------------------------
    def _open_leaderboard(self) -> Leaderboard:
        path = self.data / "leaderboard.db"
        try:
            return Leaderboard(path, self.config.max_games)
        except BadTableLog as exc:
            moved = self.set_aside(path, str(exc))
            self.notes.append(f"the leaderboard could not be read and was moved to {moved}")
            return Leaderboard(path, self.config.max_games)

    def board(self, period: Period) -> list[Row]:
        return self.leaderboard.board(period, self.wall_clock())

    def try_pin(self, pin: str, now_ns: int) -> tuple[bool, int]:
        """``(opened, wait_ns)``. Without a PIN configured the staff menu opens only by the
        button combination."""
        if self.lock is None:
            return False, 0
        self.lock, opened, wait = self.lock.try_pin(pin, now_ns)
        if not opened:
            log.warning("wrong staff PIN%s", f" (locked for {wait // 10**9} s)" if wait else "")
        return opened, wait

    def reset_leaderboard(self) -> None:
        self.leaderboard.reset()
        log.warning("the leaderboard was reset from the staff menu")


def new_pin_lines(pin: str) -> str:
    """The [staff] lines that set ``pin`` (for ``cheating-moth staff-pin``)."""
    salt = secrets.token_bytes(16)
    return f'[staff]\npin-hash = "{hash_pin(pin, salt)}"\npin-salt = "{salt.hex()}"\n'
