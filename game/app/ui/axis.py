"""Ticks for a time axis: "nice" steps (1, 2 or 5 × 10ⁿ ns) whose labels never overlap.

Pure integer arithmetic (no pygame, no floats: a timestamp near 2**62 ns loses nanoseconds in a
float), so a property test can try any range and width. The caller passes a function that
measures a label in pixels; the ticks it gets back carry their label's extent, already checked
to lie inside the axis and apart from each other. The photo finish's old axis chose its step
from the range alone, so at 800 px its labels ran together ("100 000200 000").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

#: Enough ticks to read a value off the axis; more is clutter, whatever the width.
MAX_TICKS = 12


@dataclass(frozen=True, slots=True)
class Tick:
    """A tick at ``t_ns``, ``x`` pixels from the axis' left end. Its ``label`` spans
    ``left``..``right`` (right exclusive): centred on the tick, or pushed inside at an end of
    the axis. None when the label is wider than the axis (the tick line is still drawn)."""

    t_ns: int
    x: int
    label: str | None
    left: int
    right: int


def nice_steps(at_least_ns: int) -> Iterator[int]:
    """1, 2, 5, 10, 20, 50, … ns, from the first that is at least ``at_least_ns``."""
    decade = 1
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * decade
            if step >= at_least_ns:
                yield step
        decade *= 10


def decimals_for(step_ns: int, unit_ns: int) -> int:
    """The digits after the point that every multiple of ``step_ns`` needs in ``unit_ns``:
    a 500 µs step in ms needs 1 ("0.5"), a 10 ns step in µs needs 2 ("0.01")."""
    digits = 0
    while step_ns * 10 ** digits % unit_ns:
        digits += 1
    return digits


def tick_label(t_ns: int, step_ns: int, unit_ns: int, point: str = ".", suffix: str = "") -> str:
    """``t_ns`` in ``unit_ns`` with exactly the decimals the step needs: ``-200``, ``0.5``."""
    digits = decimals_for(step_ns, unit_ns)
    scaled = abs(t_ns) * 10 ** digits // unit_ns
    whole, frac = divmod(scaled, 10 ** digits)
    sign = "-" if t_ns < 0 else ""
    text = f"{sign}{whole}{point}{frac:0{digits}d}" if digits else f"{sign}{whole}"
    return text + suffix


def axis_ticks(lo_ns: int, hi_ns: int, width_px: int, measure: Callable[[str], int], *,
               unit_ns: int = 1_000_000, gap_px: int = 8, point: str = ".",
               suffix: str = "") -> tuple[Tick, ...]:
    """Ticks for the axis from ``lo_ns`` (x = 0) to ``hi_ns`` (x = ``width_px``): the finest
    nice step whose labels fit inside the axis at least ``gap_px`` apart; labels never overlap
    and never leave the axis."""
    if hi_ns <= lo_ns:
        raise ValueError(f"axis range {lo_ns}..{hi_ns} ns is empty: hi_ns must be above lo_ns")
    if width_px < 1:
        raise ValueError(f"axis width {width_px} px is not valid: use 1 px or more")
    span = hi_ns - lo_ns
    for step in nice_steps(-(-span // MAX_TICKS)):
        ticks = _ticks(lo_ns, hi_ns, width_px, step, measure, unit_ns, point, suffix)
        if _apart(ticks, gap_px) or step > span:
            # Past the span there is at most one tick: it cannot collide with anything.
            return ticks
    raise AssertionError("unreachable: nice_steps never ends")


def _ticks(lo_ns: int, hi_ns: int, width_px: int, step: int, measure: Callable[[str], int],
           unit_ns: int, point: str, suffix: str) -> tuple[Tick, ...]:
    span = hi_ns - lo_ns
    made: list[Tick] = []
    t = -(-lo_ns // step) * step
    while t <= hi_ns:
        x = (t - lo_ns) * width_px // span
        label = tick_label(t, step, unit_ns, point, suffix)
        w = measure(label)
        if w > width_px:
            made.append(Tick(t, x, None, x, x))
        else:
            # Centred on its tick, or pushed inside at either end of the axis (so the last
            # tick keeps its figure: "300" flush with the right end rather than none).
            left = min(max(x - w // 2, 0), width_px - w)
            made.append(Tick(t, x, label, left, left + w))
        t += step
    return tuple(made)


def _apart(ticks: tuple[Tick, ...], gap_px: int) -> bool:
    labelled = [t for t in ticks if t.label is not None]
    return all(b.left - a.right >= gap_px for a, b in zip(labelled, labelled[1:]))
