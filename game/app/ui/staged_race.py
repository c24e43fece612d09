"""The demo's photo-finish screenshot: the slap the bots just armed, run on a copy of the table
with presses chosen to show what a photo finish can say — the two fastest slapping at the very
same instant (a tie), the slowest having jumped before GO (a false start) and then losing by
under a millisecond (the close-up). The bots' game itself goes on with their own presses: a
table is an immutable value, so the copy's race changes nothing (and a game logged with --db
replays exactly as played).

The bots never tie (their presses are 40 ms apart) and false-start only now and then, so without
this the screenshots would rarely show either.
"""

from __future__ import annotations

import copy

from ...controller import step
from ...inputs import Go, Press, Release
from ...race import RaceKind
from .common import Scene
from .observe import observe
from .render import screen_of

MS = 1_000_000
#: After GO: the two fastest (together), then one more every 48.5 ms, then the slowest just
#: 0.4 ms (more than the sim table's 100 µs resolution, so not a tie) after the one before.
FIRST_NS = 201_250_000
NEXT_NS = 48_500_000
LAST_GAP_NS = 400_125
#: The false start: the slowest jumps this long before GO and lets go at once.
EARLY_NS = 312_500_000


def staged_photo(scene: Scene) -> Scene | None:
    """The photo finish of the slap armed in ``scene``, run on a copy with the chosen presses;
    None unless a slap with at least three slappers was just armed (no GO or press yet)."""
    t = scene.table
    run = t.race
    if (run is None or run.kind is not RaceKind.SLAP or run.go_t_ns is not None or run.edges
            or len(run.eligible) < 3 or run.go_due_t_ns - EARLY_NS <= t.now_t_ns):
        return None
    go, clock = run.go_due_t_ns, t.settings.clock
    first, second, *middle, last = (t.seated[player] for player in run.eligible)
    at = go + FIRST_NS
    inputs = [Press(last, go - EARLY_NS, clock), Release(last, go - EARLY_NS + 60 * MS, clock),
              Go(go, clock), Press(first, at, clock), Press(second, at, clock)]
    for seat in middle:
        at += NEXT_NS
        inputs.append(Press(seat, at, clock))
    inputs.append(Press(last, at + LAST_GAP_NS, clock))
    table, ui = t, copy.deepcopy(scene.ui)
    for event in inputs:
        made = step(table, event)
        observe(ui, table, made, made.table.now_t_ns)
        table = made.table
    staged = Scene(table, ui, table.now_t_ns)
    return staged if screen_of(staged) == "photo" else None


def shows_tie_and_false_start(scene: Scene | None) -> bool:
    """Whether ``scene``'s photo finish has both a tie and a false start in it."""
    result = scene.table.last_race if scene is not None else None
    if result is None or not result.false_starts:
        return False
    times = [placing.t_ns for placing in result.ranking]
    return bool(result.tied) or len(set(times)) < len(times)
