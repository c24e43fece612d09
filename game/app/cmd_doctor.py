"""``cheating-moth doctor``: check a built rig before guests arrive.

Lights each LED (and GO) in turn and asks whether it lit; asks for each button to be pressed and
released and reports stuck, unwired, swapped or crossed wiring and each button's bounce (edges
per press, settle time) with the lockout it needs; runs a timing self-test (GPIO: the loopback
jumper; board: test pulses or the board's GO); prints a verdict, as text or ``--json``. Exit
status 0 when the rig passes (warnings included), 1 when it fails.

``--sim`` runs it all on a simulated rig with simulated people (``--sim-fault`` breaks it on
purpose); ``--check-map`` only validates the pin map and lists its pins. Hardware libraries are
imported inside ``run`` only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.errors import AdapterError

if TYPE_CHECKING:  # stdlib-only modules, but kept out of --help's imports all the same
    from firmware_host.doctor.core import Report
    from firmware_host.doctor.run import DoctorSettings
    from firmware_host.pinmap import PinMap

from .options import fail

HELP = "check the wired rig: every light, every button (stuck, swapped, bounce), timing; a verdict"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", choices=("gpio", "board"), default="gpio",
                        help="which build: the Pi's GPIO header (default) or the buzzer board")
    parser.add_argument("--pins", metavar="FILE", default=None, help="pin map (default hardware/pins.toml)")
    parser.add_argument("--port", metavar="PATH", help="the board's serial port (default: found by USB vendor id)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON (prompts go to stderr)")
    parser.add_argument("--yes", action="store_true", help="answer yes to every light question (watch them)")
    parser.add_argument("--answers", metavar="YN", default=None,
                        help="scripted light answers in order, e.g. yyyyyny (a missing answer is no)")
    parser.add_argument("--press-timeout", type=float, default=15.0, metavar="S",
                        help="seconds to wait for each press (default 15)")
    parser.add_argument("--skip-lights", action="store_true", help="do not check the lights")
    parser.add_argument("--skip-buttons", action="store_true", help="do not check the buttons")
    parser.add_argument("--skip-timing", action="store_true", help="do not run the timing self-test")
    parser.add_argument("--sim", action="store_true",
                        help="check a simulated rig with simulated people (no hardware; for a demo or CI)")
    parser.add_argument("--sim-fault", action="append", default=[], metavar="FAULT",
                        help="break the simulated rig: stuck:KEY, unwired:KEY, bouncy:KEY, dark:KEY, "
                             "swap:KEY,KEY, no-loopback (KEY: seat0, seat1, ..., guard, go); repeatable")
    parser.add_argument("--check-map", action="store_true", help="only validate the pin map and list its pins")


def run(args: argparse.Namespace) -> int:
    from firmware_host.pinmap import DEFAULT_PINMAP_PATH, load_pinmap

    if args.answers is not None and set(args.answers.lower()) - {"y", "n"}:
        fail(f"--answers {args.answers!r} is not valid: use only y and n, one per light, e.g. yyyyyyy")
    if not 0.1 <= args.press_timeout <= 600:
        fail(f"--press-timeout {args.press_timeout!r} is not valid: use 0.1 to 600 seconds")
    if args.sim_fault and not args.sim:
        fail("--sim-fault needs --sim: it breaks the simulated rig, never a real one")
    if args.port is not None and args.input != "board":
        fail("--port is for the buzzer board: add --input board")
    try:
        pinmap = load_pinmap(args.pins if args.pins is not None else DEFAULT_PINMAP_PATH)
        if args.check_map:
            print(map_summary(pinmap), end="")
            return 0
        if args.input == "board" and pinmap.board is None:
            fail(f"pin map {pinmap.source!r} has no [board] part: add [board] with the Pico's GP numbers "
                 f"(see hardware/pins.toml)")
        if args.sim:
            report = _run_sim(args, pinmap)
        else:
            report = _run_hardware(args, pinmap)
    except AdapterError as exc:
        fail(str(exc))
    from firmware_host.doctor.core import report_json, report_text

    if args.json:
        print(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        print(report_text(report), end="")
    return 0 if report.passed else 1


def _settings(args: argparse.Namespace, sim: bool) -> DoctorSettings:
    from firmware_host.doctor.run import DoctorSettings

    return DoctorSettings(
        press_timeout_s=1.0 if sim else args.press_timeout,
        quiet_s=0.05 if sim else 0.5,
        leds=not args.skip_lights,
        buttons=not args.skip_buttons,
        timing=not args.skip_timing,
    )


def _write(args: argparse.Namespace) -> Callable[[str], None]:
    out = sys.stderr if args.json else sys.stdout

    def write(text: str) -> None:
        print(text, file=out, flush=True)

    return write


def _answers(args: argparse.Namespace) -> Iterator[bool] | None:
    if args.yes:
        return iter(lambda: True, None)
    if args.answers is not None:
        return iter([c == "y" for c in args.answers.lower()])
    return None


def _read(args: argparse.Namespace) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        if args.json:
            print(prompt, end="", file=sys.stderr, flush=True)
            return input()
        return input(prompt)

    return read


def _run_hardware(args: argparse.Namespace, pinmap: PinMap) -> Report:
    from firmware_host.doctor.run import ConsoleOperator, run_doctor

    person = ConsoleOperator(_read(args), _write(args), _answers(args))
    settings = _settings(args, sim=False)
    if args.input == "gpio":
        from firmware_host.doctor.gpio import GpioDoctorRig
        from firmware_host.gpio import open_pin_factory

        factory = open_pin_factory()
        rig = GpioDoctorRig(pinmap, pin_factory=factory)
        try:
            return run_doctor(rig, person, settings)
        finally:
            rig.close()
            factory.close()  # type: ignore[attr-defined]
    from firmware_host.boardlink.rig import BoardRig
    from firmware_host.doctor.board import DOCTOR_LOCKOUT_NS, BoardDoctorRig
    from game.judge import DEFAULT_LOCKOUT_NS

    if args.port is not None and not Path(args.port).exists():
        fail(f"port {args.port!r} does not exist: plug the board in, or name its port with --port (e.g. /dev/ttyACM0)")
    board = pinmap.board
    assert board is not None
    brig = BoardRig(args.port, seat_buttons=tuple(range(len(board.seats))), lockout_ns=DOCTOR_LOCKOUT_NS)
    doctor_rig = BoardDoctorRig(brig, board, source=f"{pinmap.source}, board on {args.port or 'USB'}",
                                lockout_ns=DEFAULT_LOCKOUT_NS)
    try:
        return run_doctor(doctor_rig, person, settings)
    finally:
        doctor_rig.close()


def _run_sim(args: argparse.Namespace, pinmap: PinMap) -> Report:
    from firmware_host.doctor.run import run_doctor
    from firmware_host.doctor.sim import parse_faults

    faults = parse_faults(args.sim_fault)
    settings = _settings(args, sim=True)
    if args.input == "gpio":
        from firmware_host.doctor.gpio import GpioDoctorRig
        from firmware_host.doctor.sim import SimGpioPeople, sim_gpio_factory

        factory = sim_gpio_factory(pinmap, faults)
        rig = GpioDoctorRig(pinmap, pin_factory=factory)
        people = SimGpioPeople(factory, pinmap, faults)
        try:
            people.break_rig()
            return run_doctor(rig, people, settings)
        finally:
            rig.close()
            factory.close()  # type: ignore[attr-defined]
    from firmware_host.boardlink.rig import BoardRig
    from firmware_host.boardlink.sim import SimBoard
    from firmware_host.doctor.board import DOCTOR_LOCKOUT_NS, BoardDoctorRig
    from firmware_host.doctor.sim import SimBoardPeople, SimPulser
    from game.judge import DEFAULT_LOCKOUT_NS

    board = pinmap.board
    assert board is not None
    with tempfile.TemporaryDirectory(prefix="doctor-sim-") as tmp, SimBoard(Path(tmp) / "ttyBOARD") as sim:
        people_b = SimBoardPeople(sim, board, faults)
        people_b.break_rig()
        brig = BoardRig(str(sim.link), seat_buttons=tuple(range(len(board.seats))), lockout_ns=DOCTOR_LOCKOUT_NS)
        doctor_rig = BoardDoctorRig(brig, board, source=f"{pinmap.source}, simulated board ({sim.interpreter})",
                                    lockout_ns=DEFAULT_LOCKOUT_NS, pulser=SimPulser(sim))
        people_b.rig = doctor_rig
        try:
            return run_doctor(doctor_rig, people_b, settings)
        finally:
            doctor_rig.close()


def map_summary(pinmap: PinMap) -> str:
    """The pin map's pins, both builds, with physical pin numbers (for --check-map)."""
    from firmware_host.doctor.board import pico_pin
    from firmware_host.doctor.gpio import pi_pin

    pm = pinmap
    lines = [f"pin map {pm.source} is valid", "",
             f"Raspberry Pi GPIO build (BCM numbers), pull = {pm.pull.value!r}, "
             f"tie window {pm.resolution_ns // 1000} µs:"]
    for n, s in enumerate(pm.seats):
        led = f"   LED {pi_pin(s.led)}" if s.led is not None else "   no LED"
        lines.append(f"  seat {n}    button {pi_pin(s.button):<18}{led}")
    led = f"   LED {pi_pin(pm.guard_led)}" if pm.guard_led is not None else "   no LED"
    lines.append(f"  Caught!   button {pi_pin(pm.guard_button):<18}{led}")
    if pm.go_pin is not None:
        pulse = f", {pm.go_pulse_ms} ms pulse" if pm.go_pulse_ms is not None else ", stays on"
        lines.append(f"  GO        {pi_pin(pm.go_pin)}{pulse}")
    if pm.loopback is not None:
        lines.append(f"  loopback  {pi_pin(pm.loopback.output)} -> {pi_pin(pm.loopback.input)} (the doctor's jumper)")
    b = pm.board
    lines.append("")
    if b is None:
        lines.append("Buzzer board build: no [board] part")
    else:
        lines.append("Buzzer board build (Raspberry Pi Pico GP numbers):")
        for n, bs in enumerate(b.seats):
            led = f"   LED {pico_pin(bs.led)}" if bs.led is not None else "   no LED"
            lines.append(f"  seat {n}    button {pico_pin(bs.button):<18}{led}")
        led = f"   LED {pico_pin(b.guard_led)}" if b.guard_led is not None else "   no LED"
        lines.append(f"  Caught!   button {pico_pin(b.guard_button):<18}{led}")
        lines.append(f"  GO        {pico_pin(b.go)}")
        lines.append(f"  sync      {pico_pin(b.sync)} (wire nothing to it)")
    return "\n".join(lines) + "\n"
