"""The rig doctor's shell: drives a rig and a person through the checks and builds the report.

A rig (:class:`DoctorRig`: the GPIO header in :mod:`.gpio`, the buzzer board in
:mod:`.board`) lights outputs, reports button edges with their timestamps and runs its
own timing self-test. A person (:class:`Operator`: the console, scripted answers, or the
simulated people of :mod:`.sim`) says whether a light came on and presses buttons when
asked. The judging is all in :mod:`.doctor`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from .core import (
    BURST_GAP_NS,
    ButtonCheck,
    Edge,
    LedCheck,
    Point,
    Report,
    TimingCheck,
    build_report,
    judge_turn,
)


class DoctorRig(Protocol):
    build: str
    source: str
    lockout_ns: int
    resolution_ns: int

    def buttons(self) -> tuple[Point, ...]: ...
    def outputs(self) -> tuple[Point, ...]: ...
    def light(self, key: str, on: bool) -> None: ...
    def begin_buttons(self) -> None: ...
    def held(self) -> frozenset[str]: ...
    def next_edge(self, timeout_s: float) -> Edge | None: ...
    def timing_test(self) -> TimingCheck: ...
    def close(self) -> None: ...


class Operator(Protocol):
    def say(self, text: str) -> None: ...
    def check_light(self, point: Point) -> bool: ...
    def press(self, point: Point) -> None: ...


@dataclass(frozen=True, slots=True)
class DoctorSettings:
    """How long to wait. ``press_timeout_s``: for a press to start and end; ``quiet_s``: with no
    edge after the last release before the turn is over (catches late bounce)."""

    press_timeout_s: float = 15.0
    quiet_s: float = 0.5
    burst_gap_ns: int = BURST_GAP_NS
    leds: bool = True
    buttons: bool = True
    timing: bool = True


class ConsoleOperator:
    """A person at the console: questions on ``write``, answers from ``read`` (default input())."""

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        answers: Iterator[bool] | None = None,
    ) -> None:
        self._read = read
        self._write = write
        self._answers = answers  # scripted answers (--yes, --answers): nobody is asked

    def say(self, text: str) -> None:
        self._write(text)

    def check_light(self, point: Point) -> bool:
        what = "did the GO lamp light or the buzzer sound" if point.key == "go" else f"is {point.name}'s light on"
        question = f"{point.name} ({point.pin}): {what}, and no other? [y/n] "
        if self._answers is not None:
            answer = next(self._answers, False)
            self._write(question + ("y" if answer else "n"))
            return answer
        while True:
            text = self._read(question).strip().lower()
            if text in ("y", "yes", ""):
                return True
            if text in ("n", "no"):
                return False
            self._write("  answer y or n")

    def press(self, point: Point) -> None:
        self._write(f"{point.name} ({point.pin}): press the button once and let go")


def check_lights(rig: DoctorRig, person: Operator) -> list[LedCheck]:
    """Light each output in turn, all others dark, and ask."""
    checks: list[LedCheck] = []
    outputs = rig.outputs()
    for p in outputs:
        rig.light(p.key, False)
    for p in outputs:
        rig.light(p.key, True)
        try:
            lit = person.check_light(p)
        finally:
            rig.light(p.key, False)
        checks.append(LedCheck(p, lit))
    return checks


def check_buttons(rig: DoctorRig, person: Operator, settings: DoctorSettings) -> list[ButtonCheck]:
    """Ask for each button in turn and judge what its turn brought."""
    rig.begin_buttons()
    checks: list[ButtonCheck] = []
    stuck_at_start = rig.held()
    for p in rig.buttons():
        _drain(rig)
        held_before = rig.held() | stuck_at_start
        if p.key in held_before:
            person.say(f"{p.name} ({p.pin}) reads pressed already: skipped")
            checks.append(judge_turn(p, held_before, [], held_before))
            continue
        person.press(p)
        edges = _collect_turn(rig, held_before, settings)
        checks.append(judge_turn(p, held_before, edges, rig.held(), settings.burst_gap_ns))
    return checks


def _collect_turn(rig: DoctorRig, held_before: frozenset[str], settings: DoctorSettings) -> list[Edge]:
    """Edges until a press came and went and the line stayed quiet, or until the time is up."""
    edges: list[Edge] = []
    deadline = time.monotonic() + settings.press_timeout_s
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return edges
        moved = {e.key for e in edges} - held_before
        settled = bool(moved) and not (moved & rig.held())
        edge = rig.next_edge(min(left, settings.quiet_s) if settled else left)
        if edge is None:
            if settled:
                return edges
            continue
        edges.append(edge)


def _drain(rig: DoctorRig) -> None:
    while rig.next_edge(0.0) is not None:
        pass


def run_doctor(rig: DoctorRig, person: Operator, settings: DoctorSettings = DoctorSettings()) -> Report:
    """Every check the settings ask for, then the report. The rig stays open (the caller closes it)."""
    leds: list[LedCheck] = []
    buttons: list[ButtonCheck] = []
    timing: TimingCheck | None = None
    if settings.leds:
        person.say("Lights: each one comes on by itself in turn.")
        leds = check_lights(rig, person)
    if settings.buttons:
        person.say("Buttons: press each one once when asked, and let go.")
        buttons = check_buttons(rig, person, settings)
    if settings.timing:
        person.say("Timing self-test ...")
        timing = rig.timing_test()
    return build_report(rig.build, rig.source, leds, buttons, timing, rig.lockout_ns, rig.resolution_ns)
