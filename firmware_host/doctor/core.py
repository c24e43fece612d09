"""The rig doctor's core: what a check found, what it means, and the verdict (no hardware here).

The doctor (``cheating-moth doctor``) lights each output and asks whether it lit, asks each
seat to press and release, and runs a timing self-test; :mod:`.run` drives that on a
rig. This module only judges: pure functions from the edges and answers it collected to
:class:`ButtonCheck`, :class:`TimingCheck`, findings, the lockout it recommends and a
verdict, and the report as text or JSON. Times are integer ns; no clock is read here.
"""

from __future__ import annotations

import enum
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..pinmap import MIN_RESOLUTION_US

MS = 1_000_000
US = 1_000
# Edges closer than this belong to one burst (the contact bouncing); a human holds a button far
# longer (FACTS: bounce settles within ~6 ms on common switches; a tap lasts 50 ms or more).
BURST_GAP_NS = 10 * MS
# The lockout debounces on timestamps: it must outlast the worst settle time with a margin.
LOCKOUT_MARGIN = 2
MIN_LOCKOUT_NS = 5 * MS


class Severity(enum.Enum):
    FAIL = "fail"  # the rig cannot referee fairly until this is fixed
    WARN = "warn"  # it works, but fix or retune it
    NOTE = "note"  # for information


class ButtonStatus(enum.Enum):
    OK = "ok"
    STUCK = "stuck"  # reads pressed before anyone touched it
    NO_RELEASE = "no-release"  # pressed, never came up again
    UNWIRED = "unwired"  # no edge at all when asked
    SWAPPED = "swapped"  # its edges come on another button's pin, and that one's on its pin
    CROSSED = "crossed"  # its edges come on another button's pin


class TimingStatus(enum.Enum):
    OK = "ok"
    FAIL = "fail"
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class Point:
    """A button input or a light/buzzer output of the rig, as the report names it."""

    key: str  # "seat0", "guard", "go"
    name: str  # "seat 0", "Caught!", "GO"
    pin: str  # "GPIO 17 (pin 11)", "GP2 (pin 4)"


@dataclass(frozen=True, slots=True)
class Edge:
    """One level change of a button, on the rig's clock."""

    key: str
    down: bool
    t_ns: int


@dataclass(frozen=True, slots=True)
class LedCheck:
    point: Point
    lit: bool


@dataclass(frozen=True, slots=True)
class Bounce:
    """One press and release: every edge seen, and how long each contact took to settle."""

    edges: int
    press_settle_ns: int
    release_settle_ns: int

    @property
    def settle_ns(self) -> int:
        return max(self.press_settle_ns, self.release_settle_ns)


@dataclass(frozen=True, slots=True)
class ButtonCheck:
    point: Point
    status: ButtonStatus
    arrived_as: tuple[str, ...] = ()  # other buttons whose edges came during this one's turn
    bounce: Bounce | None = None
    partner: str | None = None  # the other button of a swapped pair


@dataclass(frozen=True, slots=True)
class TimingCheck:
    """The timing self-test: ``error`` is measured stamp minus expected time, per sample."""

    method: str
    status: TimingStatus
    samples: int
    expected_samples: int
    median_error_ns: int | None = None
    jitter_ns: int | None = None  # max - min of the errors (peak to peak)
    max_abs_error_ns: int | None = None
    ordered: bool | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    text: str


@dataclass(frozen=True, slots=True)
class Report:
    build: str  # "gpio" or "board"
    source: str
    leds: tuple[LedCheck, ...]
    buttons: tuple[ButtonCheck, ...]
    timing: TimingCheck | None
    lockout_ns: int
    recommended_lockout_ns: int | None
    resolution_ns: int
    findings: tuple[Finding, ...] = field(default=())

    @property
    def verdict(self) -> str:
        severities = {f.severity for f in self.findings}
        if Severity.FAIL in severities:
            return "fail"
        return "pass with warnings" if Severity.WARN in severities else "pass"

    @property
    def passed(self) -> bool:
        return self.verdict != "fail"


# -- buttons ----------------------------------------------------------------------------------


def measure_bounce(edges: Sequence[Edge], burst_gap_ns: int = BURST_GAP_NS) -> Bounce:
    """Bounce of one press and release from its edges (one button, time order).

    The press burst runs from the first edge while each next edge follows within
    ``burst_gap_ns``; the release burst likewise backwards from the last edge. A clean button
    gives two edges and settles in 0 ns."""
    if not edges:
        return Bounce(0, 0, 0)
    times = [e.t_ns for e in edges]
    end = 0
    while end + 1 < len(times) and times[end + 1] - times[end] <= burst_gap_ns:
        end += 1
    start = len(times) - 1
    while start - 1 > end and times[start] - times[start - 1] <= burst_gap_ns:
        start -= 1
    press = times[end] - times[0]
    release = times[-1] - times[start] if start > end else 0
    return Bounce(len(edges), press, release)


def judge_turn(
    point: Point,
    held_before: frozenset[str],
    edges: Sequence[Edge],
    held_after: frozenset[str],
    burst_gap_ns: int = BURST_GAP_NS,
) -> ButtonCheck:
    """What one "press and release your button" turn shows about ``point``'s button."""
    if point.key in held_before:
        return ButtonCheck(point, ButtonStatus.STUCK)
    own = sorted((e for e in edges if e.key == point.key), key=lambda e: e.t_ns)
    others = tuple(sorted({e.key for e in edges if e.key != point.key and e.key not in held_before}))
    if own:
        status = ButtonStatus.NO_RELEASE if point.key in held_after else ButtonStatus.OK
        return ButtonCheck(point, status, others, measure_bounce(own, burst_gap_ns))
    if others:
        return ButtonCheck(point, ButtonStatus.CROSSED, others)
    return ButtonCheck(point, ButtonStatus.UNWIRED)


def pair_swaps(checks: Sequence[ButtonCheck]) -> tuple[ButtonCheck, ...]:
    """Two buttons that each arrived only as the other are a swapped pair."""
    by_key = {c.point.key: c for c in checks}
    out: list[ButtonCheck] = []
    for c in checks:
        if c.status is ButtonStatus.CROSSED and len(c.arrived_as) == 1:
            other = by_key.get(c.arrived_as[0])
            if other is not None and other.status is ButtonStatus.CROSSED and other.arrived_as == (c.point.key,):
                out.append(ButtonCheck(c.point, ButtonStatus.SWAPPED, c.arrived_as, None, other.point.key))
                continue
        out.append(c)
    return tuple(out)


def recommend_lockout_ns(checks: Iterable[ButtonCheck]) -> int | None:
    """The shortest lockout that outlasts every button's settle time with a margin (whole ms)."""
    settles = [c.bounce.settle_ns for c in checks if c.bounce is not None and c.status is ButtonStatus.OK]
    if not settles:
        return None
    need = max(settles) * LOCKOUT_MARGIN
    return max(MIN_LOCKOUT_NS, -(-need // MS) * MS)


# -- timing -----------------------------------------------------------------------------------


def timing_from_errors(
    method: str, errors_ns: Sequence[int], expected_samples: int, ordered: bool, note: str = ""
) -> TimingCheck:
    """Summarise per-sample errors (measured minus expected, ns) into a :class:`TimingCheck`."""
    if not errors_ns:
        return TimingCheck(method, TimingStatus.FAIL, 0, expected_samples, ordered=ordered, note=note)
    ok = ordered and len(errors_ns) == expected_samples
    return TimingCheck(
        method,
        TimingStatus.OK if ok else TimingStatus.FAIL,
        len(errors_ns),
        expected_samples,
        median_error_ns=int(statistics.median_low(errors_ns)),
        jitter_ns=max(errors_ns) - min(errors_ns),
        max_abs_error_ns=max(abs(e) for e in errors_ns),
        ordered=ordered,
        note=note,
    )


def recommend_resolution_us(check: TimingCheck) -> int | None:
    """A tie window that covers the measured stamp jitter twice over (whole µs, at least the pin
    map's floor, which covers the kernel's pin-order stamping of one bank)."""
    if check.status is not TimingStatus.OK or check.jitter_ns is None or check.method != "loopback":
        return None
    return max(MIN_RESOLUTION_US, math.ceil(check.jitter_ns * 2 / US))


# -- findings and the report ------------------------------------------------------------------


def findings(
    leds: Sequence[LedCheck],
    buttons: Sequence[ButtonCheck],
    timing: TimingCheck | None,
    lockout_ns: int,
    resolution_ns: int,
    names: Mapping[str, Point],
) -> tuple[Finding, ...]:
    """Everything the checks found, worst first, each one sentence with the pin and the fix."""
    out: list[Finding] = []
    for led in leds:
        if not led.lit:
            p = led.point
            out.append(Finding(Severity.FAIL, (
                f"{p.name} light on {p.pin} did not come on: check its transistor, resistor and the "
                f"LED's polarity (hardware/ASSEMBLY.md, steps 2 and 3)"
            )))
    for c in buttons:
        p = c.point
        if c.status is ButtonStatus.STUCK:
            out.append(Finding(Severity.FAIL, (
                f"{p.name} button on {p.pin} reads pressed while nobody touches it: a jammed button "
                f"or its signal wire shorted to GND"
            )))
        elif c.status is ButtonStatus.NO_RELEASE:
            out.append(Finding(Severity.FAIL, (
                f"{p.name} button on {p.pin} went down but never came up: the button sticks or its "
                f"contact stays closed"
            )))
        elif c.status is ButtonStatus.UNWIRED:
            out.append(Finding(Severity.FAIL, (
                f"{p.name} button on {p.pin} gave no edge when pressed: unwired, a loose connector "
                f"or a broken button (or nobody pressed it)"
            )))
        elif c.status is ButtonStatus.SWAPPED and c.partner is not None:
            other = names[c.partner]
            if p.key < other.key:  # one finding per pair
                out.append(Finding(Severity.FAIL, (
                    f"{p.name} and {other.name} buttons are swapped: swap the wires on {p.pin} and "
                    f"{other.pin}, or swap them in the pin map"
                )))
        elif c.status is ButtonStatus.CROSSED:
            seen = " and ".join(names[k].name for k in c.arrived_as)
            out.append(Finding(Severity.FAIL, (
                f"{p.name} button arrives as {seen}: its wire goes to the wrong pin (should be {p.pin})"
            )))
        elif c.arrived_as:
            seen = " and ".join(names[k].name for k in c.arrived_as)
            out.append(Finding(Severity.WARN, (
                f"while {p.name} was pressed, {seen} changed too: shorted wires, or someone else "
                f"pressed (run the doctor again)"
            )))
        if c.bounce is not None and c.status is ButtonStatus.OK:
            settle = c.bounce.settle_ns
            if settle > lockout_ns:
                out.append(Finding(Severity.FAIL, (
                    f"{p.name} button bounces for {settle / MS:.1f} ms ({c.bounce.edges} edges for one "
                    f"press), longer than the {lockout_ns / MS:g} ms lockout: replace the button"
                )))
            elif settle * LOCKOUT_MARGIN > lockout_ns:
                out.append(Finding(Severity.WARN, (
                    f"{p.name} button bounces for {settle / MS:.1f} ms ({c.bounce.edges} edges for one "
                    f"press): raise the lockout to {-(-settle * LOCKOUT_MARGIN // MS)} ms or replace "
                    f"the button"
                )))
    if timing is not None:
        out.extend(_timing_findings(timing, resolution_ns))
    order = {Severity.FAIL: 0, Severity.WARN: 1, Severity.NOTE: 2}
    return tuple(sorted(out, key=lambda f: order[f.severity]))


def _timing_findings(timing: TimingCheck, resolution_ns: int) -> list[Finding]:
    if timing.status is TimingStatus.SKIPPED:
        return [Finding(Severity.NOTE, f"timing self-test skipped: {timing.note}")]
    if timing.status is TimingStatus.FAIL:
        why = timing.note or (
            f"{timing.samples} of {timing.expected_samples} test edges came back"
            + ("" if timing.ordered is not False else ", out of order")
        )
        return [Finding(Severity.FAIL, f"timing self-test ({timing.method}) failed: {why}")]
    out: list[Finding] = []
    want = recommend_resolution_us(timing)
    if want is not None and timing.jitter_ns is not None and want * US > resolution_ns:
        out.append(Finding(Severity.WARN, (
            f"edge stamps jitter by {timing.jitter_ns / US:.1f} µs, more than half the "
            f"{resolution_ns / US:g} µs tie window: set resolution_us = {want} in the pin map"
        )))
    return out


def build_report(
    build: str,
    source: str,
    leds: Sequence[LedCheck],
    buttons: Sequence[ButtonCheck],
    timing: TimingCheck | None,
    lockout_ns: int,
    resolution_ns: int,
) -> Report:
    paired = pair_swaps(buttons)
    names = {c.point.key: c.point for c in paired}
    return Report(
        build=build,
        source=source,
        leds=tuple(leds),
        buttons=paired,
        timing=timing,
        lockout_ns=lockout_ns,
        recommended_lockout_ns=recommend_lockout_ns(paired),
        resolution_ns=resolution_ns,
        findings=findings(leds, paired, timing, lockout_ns, resolution_ns, names),
    )


def _ms(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / MS:.2f} ms"


def _us(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / US:.2f} µs"


def report_text(r: Report) -> str:
    """The report for a person: one line per check, the findings, the verdict."""
    build = "Raspberry Pi GPIO" if r.build == "gpio" else "buzzer board"
    lines = [f"cheating-moth doctor: {build} build, {r.source}", "", "Lights"]
    for led in r.leds:
        lines.append(f"  {'ok' if led.lit else 'FAIL':<5} {led.point.name:<10} {led.point.pin:<18} "
                     f"{'lit' if led.lit else 'did not light'}")
    if not r.leds:
        lines.append("  (none checked)")
    lines += ["", f"{'Buttons':<40}edges  press settle  release settle"]
    names = {c.point.key: c.point.name for c in r.buttons}
    for c in r.buttons:
        mark = "ok" if c.status is ButtonStatus.OK and not c.arrived_as else c.status.value.upper()
        if c.status is ButtonStatus.OK and c.arrived_as:
            mark = "WARN"
        b = c.bounce
        detail = (f"{b.edges:>5}  {_ms(b.press_settle_ns):>12}  {_ms(b.release_settle_ns):>14}"
                  if b is not None else "")
        if c.status in (ButtonStatus.SWAPPED, ButtonStatus.CROSSED):
            detail = "arrives as " + ", ".join(names.get(k, k) for k in c.arrived_as)
        lines.append(f"  {mark:<10} {c.point.name:<8} {c.point.pin:<18}{detail}".rstrip())
    lines += [""]
    t = r.timing
    if t is None:
        lines.append("Timing: not run")
    else:
        lines.append(f"Timing ({t.method}): {t.status.value}, {t.samples} of {t.expected_samples} test edges")
        if t.median_error_ns is not None:
            lines.append(f"  stamp error: median {_us(t.median_error_ns)}, jitter {_us(t.jitter_ns)} "
                         f"peak to peak, worst {_us(t.max_abs_error_ns)}; "
                         f"{'in order' if t.ordered else 'OUT OF ORDER'}")
        if t.note:
            lines.append(f"  {t.note}")
    rec = r.recommended_lockout_ns
    lines.append(f"Lockout: {r.lockout_ns / MS:g} ms in use; "
                 + ("no clean press measured" if rec is None else f"the buttons need at least {rec / MS:g} ms"))
    lines += ["", "Findings"]
    lines += [f"  {f.severity.value.upper():<5} {f.text}" for f in r.findings] or ["  none"]
    fails = sum(f.severity is Severity.FAIL for f in r.findings)
    warns = sum(f.severity is Severity.WARN for f in r.findings)
    lines += ["", f"Verdict: {r.verdict.upper()} ({fails} problem{'s' * (fails != 1)}, "
                  f"{warns} warning{'s' * (warns != 1)})"]
    return "\n".join(lines) + "\n"


def report_json(r: Report) -> dict[str, object]:
    """The report as plain JSON data (integers in ns)."""

    def point(p: Point) -> dict[str, object]:
        return {"key": p.key, "name": p.name, "pin": p.pin}

    timing: dict[str, object] | None = None
    if r.timing is not None:
        t = r.timing
        timing = {
            "method": t.method, "status": t.status.value, "samples": t.samples,
            "expected_samples": t.expected_samples, "median_error_ns": t.median_error_ns,
            "jitter_ns": t.jitter_ns, "max_abs_error_ns": t.max_abs_error_ns, "ordered": t.ordered,
            "note": t.note,
        }
    return {
        "build": r.build,
        "source": r.source,
        "verdict": r.verdict,
        "passed": r.passed,
        "lights": [{**point(led.point), "lit": led.lit} for led in r.leds],
        "buttons": [
            {
                **point(c.point), "status": c.status.value, "arrived_as": list(c.arrived_as),
                "partner": c.partner,
                "edges": c.bounce.edges if c.bounce else None,
                "press_settle_ns": c.bounce.press_settle_ns if c.bounce else None,
                "release_settle_ns": c.bounce.release_settle_ns if c.bounce else None,
            }
            for c in r.buttons
        ],
        "timing": timing,
        "lockout_ns": r.lockout_ns,
        "recommended_lockout_ns": r.recommended_lockout_ns,
        "resolution_ns": r.resolution_ns,
        "findings": [{"severity": f.severity.value, "text": f.text} for f in r.findings],
    }
