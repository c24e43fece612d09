"""Benchmark of the table display (a script, not a test): ``python bench/bench_display.py``.

- Frame render time at 800×480 and 1920×1080, per screen: every key screen of the headless demo
  (the same simulated games as the tests and the gallery), attract mode's three slides and game
  over with their clock running at 60 frames a second, drawn as the app draws a frame (text
  caches warm after the first pass). Per screen, the median of frames running on that screen
  (as the app shows one: 60 frames a second of the same screen); over every screen in turn,
  one frame each, the median and p99 (the worst case for what a frame keeps for the next); the
  table screen alone, its median and p99 (what the app draws during a turn). Targets (issue
  13): 2 ms median at 800×480, 5 ms at 1920×1080.
- ``--repeat N`` (default 3) measures N times and keeps each figure's best run: other work on a
  shared machine only ever adds time.
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model, pct, pin  # noqa: E402
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




FRAME_NS = 1_000_000_000 // 60
TARGET_MS = {(800, 480): 2.0, (1920, 1080): 5.0}


def screens() -> list[tuple[str, Callable[[object, object, int], None]]]:
    """(name, draw frame i) for every screen measured, in the gallery's order."""
    import dataclasses

    from game.app.ui.demo import collect
    from game.app.ui.gallery import PLAYERS, SEEDS, sample_board
    from game.app.ui.render import draw
    from game.app.ui.screens_attract import SLIDE_NS
    from game.controller import TableSettings

    scenes = collect(PLAYERS, list(SEEDS), TableSettings(seats=5, clock="sim"))
    board = sample_board()
    made: list[tuple[str, Callable[[object, object, int], None]]] = []
    for turn, slide in enumerate(("title", "demo", "board")):
        def attract(surface: object, fonts: object, i: int, turn: int = turn) -> None:
            # Inside the slide, its clock running: the parade walks, the invitation pulses.
            draw(surface, fonts, scenes["attract"], attract=True, board=board,  # type: ignore[arg-type]
                 attract_ns=turn * SLIDE_NS + SLIDE_NS // 4 + (i % 240) * FRAME_NS)
        made.append((f"attract-{slide}", attract))
    for name, scene in scenes.items():
        if name == "attract":
            continue
        if name == "game-over":  # the confetti falls by the clock
            def moving(surface: object, fonts: object, i: int, scene: object = scene) -> None:
                draw(surface, fonts, dataclasses.replace(scene, now_ns=scene.now_ns + i * FRAME_NS))  # type: ignore[arg-type, attr-defined]
            made.append((name, moving))
        else:
            def still(surface: object, fonts: object, i: int, scene: object = scene) -> None:
                draw(surface, fonts, scene)  # type: ignore[arg-type]
            made.append((name, still))
    return made


def frames(size: tuple[int, int], passes: int) -> tuple[dict[str, list[float]], list[float], list[float]]:
    """Per screen, every frame's time; all screens in turn; the table screen alone."""
    import pygame

    from game.app.ui.fonts import fonts_for

    pygame.font.init()
    shown = screens()
    surface = pygame.Surface(size)
    fonts, _ = fonts_for("en")
    for _, frame in shown:  # warm the text cache, as a running app has
        frame(surface, fonts, 0)
    # Each screen as the app shows it: many frames running (what it kept from the frame before
    # is used), after a few frames to settle.
    per: dict[str, list[float]] = {name: [] for name, _ in shown}
    for name, frame in shown:
        for i in range(passes + 5):
            t = time.perf_counter()
            frame(surface, fonts, i)
            if i >= 5:
                per[name].append(time.perf_counter() - t)
    # Every screen in turn, one frame each: nothing is kept from the frame before.
    every: list[float] = []
    for i in range(passes):
        for name, frame in shown:
            t = time.perf_counter()
            frame(surface, fonts, i)
            every.append(time.perf_counter() - t)
    steady: list[float] = []
    play = dict(shown)["play"]
    for i in range(passes * len(shown)):
        t = time.perf_counter()
        play(surface, fonts, i)
        steady.append(time.perf_counter() - t)
    return per, every, steady


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


def measure(passes: int) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    results: dict[str, float] = {}
    per_screen: dict[str, dict[str, float]] = {}
    for size in SIZES:
        per, every, steady = frames(size, passes)
        key = f"{size[0]}x{size[1]}"
        results[f"{key}_all_median_ms"] = statistics.median(every) * 1e3
        results[f"{key}_all_p99_ms"] = pct(every, 0.99) * 1e3
        results[f"{key}_table_median_ms"] = statistics.median(steady) * 1e3
        results[f"{key}_table_p99_ms"] = pct(steady, 0.99) * 1e3
        for name, times in per.items():
            per_screen.setdefault(name, {})[key] = statistics.median(times) * 1e3
    return results, per_screen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=30, help="frames per screen and size (default 30)")
    parser.add_argument("--repeat", type=int, default=3, help="measure N times, keep each figure's best (default 3)")
    parser.add_argument("--runs", type=int, default=5, help="start-up runs (default 5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pin()
    import pygame

    results: dict[str, float] = {}
    per_screen: dict[str, dict[str, float]] = {}
    for _ in range(max(1, args.repeat)):
        got, got_per = measure(args.passes)
        for key, value in got.items():
            results[key] = min(value, results.get(key, value))
        for name, by_size in got_per.items():
            kept = per_screen.setdefault(name, {})
            for key, value in by_size.items():
                kept[key] = min(value, kept.get(key, value))
    first, rss = start_to_first_frame(args.runs)
    results["start_to_first_frame_s"] = first
    results["rss_mib"] = rss / 1024
    if args.json:
        print(json.dumps({**results, "per_screen_median_ms": per_screen}, indent=2))
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Machine: {cpu_model()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"pygame-ce {pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))}), "
          f"dummy video driver, one core; best of {args.repeat} runs; load average {load:.2f} at the end")
    print()
    cols = " | ".join(f"{w}×{h} (target {TARGET_MS[(w, h)]:g} ms)" for w, h in SIZES)
    print(f"| frame time (median of frames running on one screen) | {cols} |")
    print("| --- |" + " --- |" * len(SIZES))

    def cell(ms: float, size: tuple[int, int]) -> str:
        return f"**{ms:.2f} ms**" if ms > TARGET_MS[size] else f"{ms:.2f} ms"

    for name, by_size in per_screen.items():
        print(f"| {name} | " + " | ".join(cell(by_size[f'{w}x{h}'], (w, h)) for w, h in SIZES) + " |")
    for label, part in (("every screen in turn, one frame each: median", "all_median"),
                        ("every screen in turn, one frame each: p99", "all_p99"),
                        ("the table screen alone: median", "table_median"),
                        ("the table screen alone: p99", "table_p99")):
        cells = [f"{results[f'{w}x{h}_{part}_ms']:.2f} ms" for w, h in SIZES]
        print(f"| {label} | {' | '.join(cells)} |")
    print(f"| start to first frame (fresh interpreter, fonts and sounds loaded; median of {args.runs}) "
          f"| {first:.2f} s | |")
    print(f"| resident memory after 300 frames at 1920×1080 | {results['rss_mib']:.0f} MiB | |")
    print()
    print("(bold: over the target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
