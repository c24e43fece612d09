"""How the table behaves: windows, thresholds, race timing, names. Fixed for a session."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..judge import DEFAULT_LOCKOUT_NS, DEFAULT_SETTLE_NS, TiePolicy
from ..variants import Rules

MS = 1_000_000

DEFAULT_NAMES = ("Ali", "Bea", "Cem", "Dan", "Eva", "Fin", "Gus")


@dataclass(frozen=True, slots=True)
class TableSettings:
    seats: int = 5                          # physical seat buttons wired (3 to 7)
    clock: str = "monotonic"                # the input adapter's clock domain
    resolution_ns: int = 100_000            # presses closer than this tie (from the adapter)
    long_press_ns: int = 800 * MS
    confirm_out_ns: int = 5_000 * MS        # a long press asks; confirm within this window
    fore_period_min_ns: int = 800 * MS      # GO comes a random time after arming...
    fore_period_max_ns: int = 2_500 * MS    # ...between these two
    race_timeout_ns: int = 3_000 * MS       # presses count this long after GO
    lockout_ns: int = DEFAULT_LOCKOUT_NS
    settle_ns: int = DEFAULT_SETTLE_NS
    tie_policy: TiePolicy = TiePolicy.RERACE
    pick_window_ns: int = 10_000 * MS       # the guard picks the accused within this
    vote_window_ns: int = 10_000 * MS       # the judges vote within this
    names: tuple[str, ...] = DEFAULT_NAMES  # by physical seat
    rules: Rules = field(default_factory=Rules)

    def name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"Seat {seat + 1}"
