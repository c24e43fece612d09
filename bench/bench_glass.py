"""What owning the input costs a frame (issue 20): the card game's loop turn on the photo finish
and the play screen with the glass (identity, present, dimming a settling screen), against the
same frame's drawing alone; and placing a button press by its stamp.

Run: python bench/bench_glass.py  (SDL's dummy video driver; one core, pinned)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[1] / "tests" / "app")]

import pygame  # noqa: E402
from glass_table import MS, GlassTable  # noqa: E402
from machine import cpu_model, pct, pin  # noqa: E402

from game.app.ui.glass import Glass, identity  # noqa: E402
from game.app.ui.common import Scene  # noqa: E402
from game.app.ui.render import draw  # noqa: E402
from game.inputs import Press  # noqa: E402

ROUNDS = 400


def _timed(run: object, n: int = ROUNDS) -> list[float]:
    assert callable(run)
    times = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        run()
        times.append((time.perf_counter_ns() - t0) / 1_000)
    return times


def main() -> None:
    pin()
    g = GlassTable(7)
    g.seat_three()
    g.keys(pygame.K_2, pygame.K_n)
    g.keys(pygame.K_3, pygame.K_o)
    g.race_to_photo()
    rows = []
    for screen in ("photo", "play"):
        if screen == "play":
            g.tap("dismiss", pause_ms=2_000)
            g.wait(1_000)
        assert g.screen == screen, g.screen
        app = g.app
        surface = app.surface

        def frame_only() -> None:
            draw(surface, app.fonts, Scene(app.table, app.ui, app.adapter.now_ns()))

        def turn() -> None:
            app.turn()

        def ident() -> None:
            identity(screen, app.table, app.ui, app.adapter.now_ns())

        def settling() -> None:            # a screen just shown: its buttons dimmed too
            app.glass.shown[-1] = app.glass.shown[-1].__class__(
                app.glass.shown[-1].serial, screen, app.glass.shown[-1].identity, app.adapter.now_ns())
            app.turn()

        for label, run in (("draw alone", frame_only), ("loop turn (events, poll, draw, present)", turn),
                           ("loop turn while settling (buttons dimmed)", settling), ("identity", ident)):
            times = _timed(run)
            rows.append((f"{screen}: {label}", pct(times, 0.5), pct(times, 0.99)))
    glass = Glass()
    for i in range(32):
        glass.present("play", ("play", i), i * 1_000 * MS)
    press = Press(0, 20_500 * MS, "x")
    times = _timed(lambda: glass.press(press, racing=False), 20_000)
    rows.append(("place a press by its stamp (32 screens remembered)", pct(times, 0.5), pct(times, 0.99)))
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, 800x480")
    print("| figure | p50 µs | p99 µs |")
    print("| --- | --- | --- |")
    for label, p50, p99 in rows:
        print(f"| {label} | {p50:,.1f} | {p99:,.1f} |")


if __name__ == "__main__":
    main()
