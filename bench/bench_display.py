"""Benchmark of the table display (a script, not a test): ``python bench/bench_display.py``.

- Frame render time at 800×480 and 1920×1080: every key screen (from simulated games) drawn
  in turn, as the app draws a frame (text cache warm after the first pass), median and p99; also
  the steady table screen alone (what the app draws 60 times a second during a turn).
- Start to first frame: a fresh interpreter imports pygame, opens the (dummy) display, loads the
  fonts and the sounds and draws the first frame; wall time from launch, median of 5.
- Resident memory of that process after 300 frames at 1920×1080 (VmRSS).

SDL's dummy video and audio drivers: the figures are the CPU cost of drawing, not of showing.
The process is pinned to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model  # noqa: E402
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

SIZES = ((800, 480), (1920, 1080))

CHILD = r"""
import os, sys, time, json
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[1])
import pygame
from game.app.ui.sound import Sounds, pre_init
from game.app.ui.fonts import fonts_for
from game.app.ui.render import draw
from game.app.ui.common import Scene
from game.app.ui.state import UiState
from game.controller import TableSettings, new_table
pre_init()
pygame.init()
surface = pygame.display.set_mode((1920, 1080))
fonts, _ = fonts_for("en")
sounds = Sounds()
table = new_table(TableSettings(), 1, 0)
draw(surface, fonts, Scene(table, UiState(), 0))
pygame.display.flip()
first = time.perf_counter() - t0
for i in range(300):
    draw(surface, fonts, Scene(table, UiState(), i))
    pygame.display.flip()
rss = 0
with open("/proc/self/status") as f:
    for line in f:
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
print(json.dumps({"first_frame_s": first, "rss_kib": rss}))
"""




def pin() -> None:
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        except OSError:
            pass


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def frames(size: tuple[int, int], passes: int) -> tuple[list[float], list[float]]:
    import pygame

    from game.app.ui.demo import collect
    from game.app.ui.fonts import fonts_for
    from game.app.ui.render import draw
    from game.controller import TableSettings

    pygame.font.init()
    scenes = collect(4, list(range(1, 40)), TableSettings(seats=5, clock="sim"))
    surface = pygame.Surface(size)
    fonts, _ = fonts_for("en")
    for name, scene in scenes.items():  # warm the text cache, as a running app has
        draw(surface, fonts, scene, attract=name == "attract")
    every: list[float] = []
    for _ in range(passes):
        for name, scene in scenes.items():
            t = time.perf_counter()
            draw(surface, fonts, scene, attract=name == "attract")
            every.append(time.perf_counter() - t)
    steady: list[float] = []
    play = scenes["play"]
    for _ in range(passes * len(scenes)):
        t = time.perf_counter()
        draw(surface, fonts, play)
        steady.append(time.perf_counter() - t)
    return every, steady


def start_to_first_frame(runs: int) -> tuple[float, int]:
    firsts: list[float] = []
    rss = 0
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT)], capture_output=True, text=True,
                             check=True, env=os.environ.copy())
        data = json.loads(out.stdout.strip().splitlines()[-1])
        # The child measures from its first line; add the interpreter's own start-up.
        firsts.append(data["first_frame_s"] + _startup())
        rss = max(rss, data["rss_kib"])
    return statistics.median(firsts), rss


_STARTUP: list[float] = []


def _startup() -> float:
    if not _STARTUP:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        _STARTUP.append(time.perf_counter() - t)
    return _STARTUP[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=20, help="passes over the key screens (default 20)")
    parser.add_argument("--runs", type=int, default=5, help="start-up runs (default 5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pin()
    import pygame

    results: dict[str, float] = {}
    for size in SIZES:
        every, steady = frames(size, args.passes)
        key = f"{size[0]}x{size[1]}"
        results[f"{key}_all_median_ms"] = statistics.median(every) * 1e3
        results[f"{key}_all_p99_ms"] = pct(every, 0.99) * 1e3
        results[f"{key}_table_median_ms"] = statistics.median(steady) * 1e3
        results[f"{key}_table_p99_ms"] = pct(steady, 0.99) * 1e3
    first, rss = start_to_first_frame(args.runs)
    results["start_to_first_frame_s"] = first
    results["rss_mib"] = rss / 1024
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"Machine: {cpu_model()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"pygame-ce {pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))}), "
          f"dummy video driver, one core")
    print()
    print("| figure | 800×480 | 1920×1080 |")
    print("| --- | --- | --- |")
    for label, part in (("frame, every key screen in turn: median", "all_median"),
                        ("frame, every key screen in turn: p99", "all_p99"),
                        ("frame, the table screen: median", "table_median"),
                        ("frame, the table screen: p99", "table_p99")):
        cells = [f"{results[f'{w}x{h}_{part}_ms']:.2f} ms" for w, h in SIZES]
        print(f"| {label} | {' | '.join(cells)} |")
    print(f"| start to first frame (fresh interpreter, fonts and sounds loaded; median of {args.runs}) "
          f"| {first:.2f} s | |")
    print(f"| resident memory after 300 frames at 1920×1080 | {results['rss_mib']:.0f} MiB | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
