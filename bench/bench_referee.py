"""Benchmark of referee mode (a script, not a test): ``python bench/bench_referee.py``.

- The session's step per input, per shipped preset: simulated sessions (the headless demo's
  players and host, ``race_demo.play_races``) replayed through ``game.referee.session.step``,
  each input timed alone. A press re-judges the race's edges so far (the judge folds them by
  stamp), so the p99 is the figure that bounds what a press waits for its verdict.
- A chattering button: a bell-slap round whose winner's contacts chatter every 100 µs, the
  step once 1,000, 4,000 and 10,000 edges came in (a settled seat's edges are not kept).
- The race screen's frame at 800×480 and 1920×1080, per moment of the demo (ready, armed, GO,
  the photo finish, a re-run, a void, the statistics): median of 60 frames of that moment,
  drawn as the app draws one (text caches warm after the first frame).
- ``--repeat N`` (default 3) keeps each figure's best run: other work on a shared machine only
  ever adds time.

SDL's dummy video driver: the figures are the CPU cost of drawing, not of showing. The process
is pinned to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model, pct, pin  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

PRESETS = (("duel", 2), ("grab", 6), ("bell-slap", 6), ("last-hand-down", 6))
SIZES = ((800, 480), (1920, 1080))


def sessions(races: int) -> dict[str, tuple[object, list[object], list[tuple[str, object, int, bool]]]]:
    """Per preset: the new session, every input of a simulated session, and its key moments."""
    from game.app.cmd_referee import names_for
    from game.app.referee.race_demo import play_races
    from game.referee.presets import load_presets

    found = load_presets()
    made = {}
    for preset_id, seats in PRESETS:
        inputs: list[object] = []
        moments: list[tuple[str, object, int, bool]] = []
        run = play_races(found.get(preset_id), seats, 17, races,
                         lambda s, now, name, stats: moments.append((name, s, now, stats)),   # type: ignore[func-returns-value]
                         names_for(seats), on_input=inputs.append)
        made[preset_id] = (run, inputs, moments)
    return made


def step_times(preset_id: str, inputs: list[object]) -> list[float]:
    from game.app.referee.race_demo import SIM_CLOCK, SIM_RESOLUTION_NS, T0_NS
    from game.referee.presets import load_presets
    from game.referee.session import new_session, step

    preset = load_presets().get(preset_id)
    seats = dict(PRESETS)[preset_id]
    s = new_session(preset, seats, clock=SIM_CLOCK, resolution_ns=SIM_RESOLUTION_NS, seed=17, t_ns=T0_NS)
    times = []
    for event in inputs:
        t0 = time.perf_counter_ns()
        s, _ = step(s, event)  # type: ignore[arg-type]
        times.append((time.perf_counter_ns() - t0) / 1000)
    return times


def chatter_times(edges: int) -> dict[int, float]:
    """bell-slap, 5 seats: seat 1 wins, then its contacts chatter every 100 µs while the round
    stays up (the table may still void it); the median step over the 100 edges before each
    count (1,000, 4,000, ``edges``)."""
    from game.inputs import Press, Release
    from game.referee.presets import load_presets
    from game.referee.session import Start, new_session, step

    s = new_session(load_presets().get("bell-slap"), 5, clock="sim", resolution_ns=100_000, seed=1, t_ns=10**12)
    s, _ = step(s, Start(10**12))
    t = 10**12 + 2_000_000_000
    marks = sorted({1_000, 4_000, edges})
    times: list[float] = []
    out = {}
    for n in range(1, edges + 1):
        edge = (Press if n % 2 else Release)(1, t, "sim")
        t0 = time.perf_counter_ns()
        s, _ = step(s, edge)
        times.append((time.perf_counter_ns() - t0) / 1000)
        t += 100_000
        if n in marks:
            out[n] = statistics.median(times[-100:])
    return out


def frame_times(moments: list[tuple[str, object, int, bool]], size: tuple[int, int], seats: int) -> dict[str, float]:
    import pygame

    from game.app.cmd_referee import names_for
    from game.app.referee.race_screen import RaceView, draw_race
    from game.app.ui.fonts import fonts_for
    from game.app.ui.paint import Painter

    fonts, _ = fonts_for("en")
    surface = pygame.Surface(size)
    names = names_for(seats)
    out = {}
    for name, session, now, stats in moments:
        view = RaceView(session, names, now, stats=stats)  # type: ignore[arg-type]
        draw_race(Painter(surface, fonts, "en"), view)      # warm the text caches
        times = []
        for _ in range(60):
            t0 = time.perf_counter_ns()
            draw_race(Painter(surface, fonts, "en"), view)
            times.append((time.perf_counter_ns() - t0) / 1e6)
        out[name] = statistics.median(times)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--races", type=int, default=40, help="counted races per preset (default 40)")
    args = parser.parse_args()
    pin()
    import pygame

    pygame.init()
    made = sessions(args.races)
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}; one core (pinned)")
    print()
    print("| preset | inputs | step p50 | step p99 | step max |")
    print("| --- | --- | --- | --- | --- |")
    for preset_id, (_, inputs, _) in made.items():
        runs = [step_times(preset_id, inputs) for _ in range(args.repeat)]
        best = min(runs, key=lambda t: pct(t, 0.99))
        print(f"| {preset_id} | {len(inputs)} | {pct(best, 0.5):.1f} µs | {pct(best, 0.99):.1f} µs | "
              f"{max(best):.1f} µs |")
    print()
    runs = [chatter_times(10_000) for _ in range(args.repeat)]
    print("| bell-slap, one button chattering every 100 µs: edges so far | one step (median of 100) |")
    print("| --- | --- |")
    for n in runs[0]:
        print(f"| {n:,} | {min(run[n] for run in runs):.1f} µs |")
    print()
    print("| moment | " + " | ".join(f"{w}×{h} median" for w, h in SIZES) + " |")
    print("| --- | " + " | ".join("---" for _ in SIZES) + " |")
    for preset_id, (_, _, moments) in made.items():
        seats = dict(PRESETS)[preset_id]
        per_size = []
        for size in SIZES:
            runs = [frame_times(moments, size, seats) for _ in range(args.repeat)]
            per_size.append({name: min(run[name] for run in runs) for name in runs[0]})
        for name in per_size[0]:
            print(f"| {name} | " + " | ".join(f"{sizes[name]:.2f} ms" for sizes in per_size) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
