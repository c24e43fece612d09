"""``cheating-moth board flash|info|test|sim``: the RP2040 buzzer board.

- ``flash`` copies the firmware (firmware_host/board/) onto a Pico running MicroPython with
  ``mpremote`` and resets it, with ``board_pins.py`` written from the pin map's ``[board]`` part
  (``--pins``, default hardware/pins.toml) so the firmware uses the pins the map names;
- ``info`` shows the board's versions, chip and board, clock and buttons, its status and the link
  counters (protocol errors and impossible stamps included);
- ``test`` runs one race on the board and prints the verdict (as ``race --input board``);
- ``sim`` runs a simulated board (the real firmware main loop on fake hardware) behind a pty,
  so ``info`` and ``test`` can be tried without a board: ``--port`` is its ``--link`` path.

pyserial is imported inside ``run`` only, so ``cheating-moth --help`` does not load it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

from firmware_host.errors import AdapterError

from ..judge import MAX_PLAYERS, MIN_PLAYERS
from ..race import RaceKind
from .options import fail, seed_arg

HELP = "the buzzer board: flash its firmware, show what it is, run one race on it, or simulate one"

BOARD_DIR = Path(__file__).resolve().parents[2] / "firmware_host" / "board"
# What runs on the Pico, in copy order: main.py last, so a copy cut short never boots half a firmware.
FIRMWARE_FILES = ("fastcrc.py", "protocol.py", "ticks.py", "pio_programs.py", "firmware.py", "hw_rp2.py", "main.py")
PINS_FILE = "board_pins.py"  # written from the pin map, copied before hw_rp2.py
DEFAULT_SIM_LINK = "/tmp/cheating-moth-board"
MS = 1_000_000
TIME_SCALE_HELP = ("wall seconds allowed per board second for every wait on the board, for a board slower "
                   "than real time, 0.01 to 1000 (default $CHEATING_MOTH_BOARD_TIME_SCALE, else 1)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    flash = sub.add_parser("flash", help="copy the firmware onto the board with mpremote and reset it")
    flash.add_argument("--port", metavar="PATH", help="the board's serial port (default: found by USB vendor id)")
    flash.add_argument("--pins", metavar="FILE", default=None,
                       help="pin map whose [board] part the firmware uses (default hardware/pins.toml)")
    info = sub.add_parser("info", help="show the board's versions, clock, buttons, status and link counters")
    info.add_argument("--port", metavar="PATH", help="the board's serial port (default: found by USB vendor id)")
    info.add_argument("--json", action="store_true", help="print JSON")
    info.add_argument("--board-time-scale", metavar="X", default=None, help=TIME_SCALE_HELP)
    test = sub.add_parser("test", help="run one race on the board and print the verdict")
    test.add_argument("--port", metavar="PATH", help="the board's serial port (default: found by USB vendor id)")
    test.add_argument("--kind", default="slap", choices=tuple(k.value for k in RaceKind))
    test.add_argument("--players", type=int, default=3, help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default 3)")
    test.add_argument("--seed", type=seed_arg, default=None, help="seed of the fore-period (default: new, printed)")
    test.add_argument("--timeout-ms", type=int, default=3000, help="how long after GO presses count (default 3000)")
    test.add_argument("--show-ms", type=int, default=0, help="how long the LEDs show the verdict (default 0)")
    test.add_argument("--json", action="store_true", help="print the judge's result as JSON")
    test.add_argument("--board-time-scale", metavar="X", default=None, help=TIME_SCALE_HELP)
    test.add_argument("--board-patience-s", metavar="S", default=None,
                      help="how long an unplugged or restarting board has to come back before the race is given "
                           "up, in board seconds (default 10)")
    sim = sub.add_parser("sim", help="run a simulated board behind a pty (for info and test without hardware)")
    sim.add_argument("--link", metavar="PATH", default=DEFAULT_SIM_LINK,
                     help=f"the port path to create, a symlink to the pty (default {DEFAULT_SIM_LINK})")
    sim.add_argument("--interpreter", default="auto", choices=("auto", "micropython", "cpython"),
                     help="run the firmware under MicroPython (auto: if installed) or CPython")
    sim.add_argument("--players-seed", type=seed_arg, default=1,
                     help="simulated players press every race button after each GO (seeded; default 1)")
    sim.add_argument("--seconds", type=_sim_seconds, default=None, help="stop after this long (default: until Ctrl-C)")


def run(args: argparse.Namespace) -> int:
    action: str = args.action
    if action == "sim":
        return _sim(args)
    if action in ("info", "test"):   # bad options are said before the port is looked for
        from .cmd_race import board_time_scale

        board_time_scale(args.board_time_scale)
    if action == "test":
        _check_test_options(args)
    if args.port is not None and not Path(args.port).exists():
        fail(f"port {args.port!r} does not exist: plug the board in, or name its port with --port (e.g. /dev/ttyACM0)")
    try:
        if action == "flash":
            return _flash(args.port, args.pins)
        if action == "info":
            return _info(args.port, args.json, args.board_time_scale)
        return _test(args)
    except AdapterError as exc:
        fail(str(exc))


# -- flash ------------------------------------------------------------------------------------


def find_mpremote() -> list[str] | None:
    """How to run mpremote: this Python's module (a dependency), else one on PATH."""
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    path = shutil.which("mpremote")
    return [path] if path else None


def board_pins_file(pins: str | None, folder: Path) -> Path:
    """Write ``board_pins.py`` for the firmware from the pin map's ``[board]`` part into ``folder``."""
    from firmware_host.pinmap import DEFAULT_PINMAP_PATH, load_pinmap
    from firmware_host.pinmap_board import firmware_pins_source

    pinmap = load_pinmap(pins if pins is not None else DEFAULT_PINMAP_PATH)
    if pinmap.board is None:
        fail(f"pin map {pinmap.source!r} has no [board] part: add [board] with the Pico's GP numbers "
             f"(see hardware/pins.toml)")
    path = folder / PINS_FILE
    path.write_text(firmware_pins_source(pinmap.board, pinmap.source), encoding="utf-8")
    return path


def _flash(port: str | None, pins: str | None) -> int:
    with tempfile.TemporaryDirectory(prefix="board-pins-") as tmp:
        pins_path = board_pins_file(pins, Path(tmp))  # a bad map fails before anything is copied
        return _copy_firmware(port, pins_path)


def _copy_firmware(port: str | None, pins_path: Path) -> int:
    from firmware_host.boardlink.link import find_board_ports

    mpremote = find_mpremote()
    if mpremote is None:
        fail("mpremote is not installed: pip install mpremote (cheating-moth's dependencies include it)")
    if port is None:
        ports = find_board_ports()
        if not ports:
            fail("no board found (USB id 2E8A:0005): plug in a Pico running MicroPython, or name its port with --port")
        if len(ports) > 1:
            fail(f"{len(ports)} Picos running MicroPython are plugged in ({', '.join(ports)}): name the one to flash with --port")
        port = ports[0]
    files = [str(BOARD_DIR / name) for name in FIRMWARE_FILES]
    files.insert(FIRMWARE_FILES.index("hw_rp2.py"), str(pins_path))
    command = [*mpremote, "connect", port, "fs", "cp", *files, ":", "+", "reset"]
    print(f"flashing {len(files)} files to {port} ...", flush=True)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        fail(f"mpremote failed on {port!r} (exit {done.returncode}: {last[0]}): is MicroPython on the board?", status=1)
    names = [Path(f).name for f in files]
    print(f"flashed {', '.join(names)} to {port}; the board restarts into the firmware")
    return 0


# -- info -------------------------------------------------------------------------------------


def _info(port: str | None, as_json: bool, time_scale: str | None) -> int:
    from firmware_host.boardlink.link import BoardLink

    from .cmd_race import board_time_scale

    link = BoardLink(port, time_scale=board_time_scale(time_scale))
    try:
        info = link.start()
        status = link.request("STATUS", [])
        counters = link.counters
    finally:
        link.close()
    state = status_values(status.fields)
    identity = _identity(info.chip, info.board, info.proto)
    doc: dict[str, object] = {
        "port": info.port, "protocol": f"{info.proto[0]}.{info.proto[1]}", "firmware": info.fw,
        "chip": info.chip, "board": info.board, "identity": identity,
        "tick_hz": info.tick_hz, "tick_ns": 1_000_000_000 / info.tick_hz, "buttons": info.buttons,
        "boot": info.boot, "time_scale": link.time_scale, "status": state,
        "link": {"bad_frames": counters.bad_frames, "gaps": counters.gaps, "lost_frames": counters.lost_frames,
                 "ignored_before_hello": counters.ignored_before_hello,
                 "protocol_errors": counters.protocol_errors, "stamp_faults": counters.stamp_faults,
                 "board_restarts": counters.board_restarts, "last_fault": counters.last_fault},
    }
    if as_json:
        print(json.dumps(doc, indent=2))
        return 0
    st = state
    print(f"board on {info.port}: firmware {info.fw}, protocol {doc['protocol']}, boot {info.boot}")
    print(f"hardware: {identity}")
    print(f"clock: {info.tick_hz} ticks/s ({doc['tick_ns']:g} ns a tick); {info.buttons} buttons + GO")
    print(f"status: {st.get('state')}, held {st.get('held')}, uptime {st.get('uptime_ms')} ms, "
          f"board counted {st.get('bad')} bad frames, {st.get('drops')} logger drops")
    print(f"link: {counters.bad_frames} bad frames, {counters.gaps} gaps, {counters.lost_frames} frames lost, "
          f"{counters.protocol_errors} protocol errors, {counters.stamp_faults} impossible stamps, "
          f"{counters.board_restarts} board restarts")
    if counters.last_fault:
        print(f"last fault: {counters.last_fault}")
    if link.time_scale != 1:
        print(f"time scale: {link.time_scale:g} wall seconds per board second")
    return 0


def status_values(fields: Mapping[str, str]) -> dict[str, object]:
    """The board's STATUS as JSON values: counts and ticks are numbers, ``held`` a list of
    button numbers, words stay words (the wire carries every value as text)."""
    doc: dict[str, object] = {}
    for key, text in fields.items():
        if key == "re":
            continue
        if key == "held":
            doc[key] = [] if text == "-" else [int(part) for part in text.split(",") if part.isdigit()]
        elif text.isdigit() or (text[:1] == "-" and text[1:].isdigit()):
            doc[key] = int(text)
        else:
            doc[key] = text
    return doc


def _identity(chip: str | None, board: str | None, proto: tuple[int, int]) -> str:
    """What the board says it is; firmware of protocol 1.0 does not say."""
    from firmware_host.boardlink.identity import describe

    if chip is None and board is None:
        old = "old firmware (protocol 1.0)" if proto <= (1, 0) else f"firmware of protocol {proto[0]}.{proto[1]}"
        return f"not reported ({old} does not name its chip and board)"
    return describe(chip, board)


# -- test -------------------------------------------------------------------------------------


#: The longest ``board sim --seconds`` (a week): beyond, Ctrl-C is the way to stop it.
SIM_SECONDS_MAX = 7 * 24 * 3600


def _sim_seconds(text: str) -> float:
    """argparse type for ``board sim --seconds``: a positive number up to a week (-1 stopped
    the simulation at once without a word, 1e308 overflowed the wait)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= SIM_SECONDS_MAX:   # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"{text!r} is not valid: use a number of seconds above 0, "
                                         f"at most {SIM_SECONDS_MAX} (a week)")
    return value


def _check_test_options(args: argparse.Namespace) -> None:
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        fail(f"--players {args.players} is not valid: a race needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 1 <= args.timeout_ms <= 30_000:
        fail(f"--timeout-ms {args.timeout_ms} is not valid: use 1 to 30000")
    if not 0 <= args.show_ms <= 60_000:
        fail(f"--show-ms {args.show_ms} is not valid: use 0 to 60000")


def _test(args: argparse.Namespace) -> int:
    from ..judge_file import result_to_json
    from .cmd_race import (
        FORE_PERIOD_MAX_NS, FORE_PERIOD_MIN_NS, RaceSettings, _notify, _text, board_patience, board_time_scale,
        run_board_race,
    )

    _check_test_options(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    fore_period_ns = rng.randint(FORE_PERIOD_MIN_NS, FORE_PERIOD_MAX_NS)
    race = RaceSettings(kind=RaceKind(args.kind), players=args.players, active=0, seed=seed,
                        fore_period_ns=fore_period_ns, timeout_ns=args.timeout_ms * MS)
    done, bad = run_board_race(args.port, race, args.show_ms / 1000, _notify, board_time_scale(args.board_time_scale),
                               board_patience(args.board_patience_s))
    if bad:
        _notify(f"warning: {bad} bad frame(s) came from the board")
    if args.json:
        print(json.dumps(result_to_json(done.result), indent=2))
    else:
        print(_text(done, "board", fore_period_ns))
    return 0


# -- sim --------------------------------------------------------------------------------------


def _sim(args: argparse.Namespace) -> int:
    from firmware_host.boardlink.sim import SimBoard

    try:
        board = SimBoard(Path(args.link), interpreter=args.interpreter)
    except AdapterError as exc:
        fail(str(exc))
    stop = threading.Event()
    try:
        board.plug()
        board.control(f"players {args.players_seed} 150 350")
        print(f"simulated board ({board.interpreter}) on {args.link}: try "
              f"'cheating-moth board test --port {args.link}'; Ctrl-C stops it", flush=True)
        while board.running and not stop.wait(args.seconds if args.seconds is not None else 3600):
            if args.seconds is not None:
                break
    finally:
        # Ctrl-C (exit 130) and SIGTERM (exit 143) unwind to here (see cli.py): the board's
        # process is stopped and its link removed before the command ends.
        board.close()
    return 0
