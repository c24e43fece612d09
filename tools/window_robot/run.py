"""Window robot: plays the rig in a real X window, as a person would, and screenshots every step.

Starts a private Xvfb server, opens ``cheating-moth play`` in a window on it (keyboard seats),
finds the window with xdotool, then runs steps from a script file (or from stdin with
``--step``) and takes a screenshot of the window after every step, so a person or a reviewer
can look at each one and see whether a tap landed on what the screen showed.

Steps (one per line, ``#`` starts a comment):

    key X [Y ...]     press and release keys in turn (q t p z b j w = seats 1..7, space = Caught!,
                      enter, escape, 0-9, letters, or any xdotool keysym)
    hold X MS         hold key X down for MS milliseconds (a seat button held)
    click X Y [N]     left click at (X, Y) in window coordinates (800x480 by default); N > 1
                      clicks N times 120 ms apart (a double tap)
    pause SECONDS     wait, as a person looking at the screen would
    wait-change SECS  watch the window until it changes (a person waiting for GO), at most SECS;
                      no change in time is noted, not an error
    shot NAME         only a screenshot, named NAME

Exit status: 0 all steps ran; 1 a step failed or the app died; 2 bad usage, a bad script or a
missing program; 3 the window never appeared; 130 interrupted (Ctrl-C).

Runs as ``python -m tools.window_robot`` or ``python tools/window_robot/run.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

APT_LINE = "sudo apt-get install -y xvfb xdotool imagemagick"
REPO = Path(__file__).resolve().parents[2]
DEFAULT_APP = REPO / ".venv" / "bin" / "cheating-moth"
SCREEN = "1024x600x24"

#: Friendly key names -> xdotool keysyms. Anything else is passed to xdotool as written
#: (single letters lowercased), so every X keysym works too.
KEY_ALIASES = {
    "space": "space", "enter": "Return", "return": "Return", "esc": "Escape", "escape": "Escape",
    "tab": "Tab", "backspace": "BackSpace", "bs": "BackSpace", "up": "Up", "down": "Down",
    "left": "Left", "right": "Right", "plus": "plus", "+": "plus", "minus": "minus", "-": "minus",
    "f1": "F1", "f11": "F11", "del": "Delete", "delete": "Delete",
}


class RobotError(Exception):
    """A failure with a one-line message; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


class Interrupted(Exception):
    """SIGINT or SIGTERM: clean up and exit 130."""


# ---------------------------------------------------------------- steps


@dataclass(frozen=True)
class Step:
    verb: str
    args: tuple[str, ...]
    text: str          # the line as written, for the log
    line: int = 0      # line in the script file (0: stdin)

    @property
    def label(self) -> str:
        """A file-name-safe name for the screenshot."""
        if self.verb == "shot":
            raw = self.args[0]
        else:
            raw = "-".join((self.verb, *self.args))
        return re.sub(r"[^A-Za-z0-9_.+-]+", "_", raw)[:60].strip("_") or self.verb


def key_sym(name: str) -> str:
    low = name.lower()
    if low in KEY_ALIASES:
        return KEY_ALIASES[low]
    if len(name) == 1 and name.isalpha():
        return low
    return name


def parse_step(raw: str, line: int = 0) -> Step | None:
    """One script line -> a Step (None for a blank or comment line). Raises ValueError."""
    text = raw.split("#", 1)[0].strip()
    if not text:
        return None
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"cannot split {text!r}: {exc}") from None
    verb, args = words[0].lower(), tuple(words[1:])

    def number(value: str, what: str, lo: float, hi: float) -> float:
        try:
            x = float(value)
        except ValueError:
            raise ValueError(f"{verb}: {what} {value!r} is not a number") from None
        if not lo <= x <= hi:
            raise ValueError(f"{verb}: {what} {value} is out of range {lo:g}..{hi:g}")
        return x

    if verb == "key":
        if not args:
            raise ValueError("key: give one or more keys, e.g. 'key q' or 'key 4 n'")
    elif verb == "hold":
        if len(args) != 2:
            raise ValueError("hold: give a key and milliseconds, e.g. 'hold q 1500'")
        number(args[1], "milliseconds", 1, 600_000)
    elif verb == "click":
        if len(args) not in (2, 3):
            raise ValueError("click: give x and y in window coordinates, e.g. 'click 400 240' "
                             "(and a count for a double tap: 'click 400 240 2')")
        number(args[0], "x", 0, 7680)
        number(args[1], "y", 0, 7680)
        if len(args) == 3 and not args[2].isdigit() or len(args) == 3 and not 1 <= int(args[2]) <= 10:
            raise ValueError(f"click: the count {args[2]!r} must be a whole number 1..10")
    elif verb == "pause":
        if len(args) != 1:
            raise ValueError("pause: give seconds, e.g. 'pause 2.5'")
        number(args[0], "seconds", 0, 3600)
    elif verb == "wait-change":
        if len(args) != 1:
            raise ValueError("wait-change: give the most seconds to watch, e.g. 'wait-change 5'")
        number(args[0], "seconds", 0.1, 3600)
    elif verb == "shot":
        if len(args) != 1:
            raise ValueError("shot: give one name without spaces, e.g. 'shot photo-finish'")
    else:
        raise ValueError(f"unknown step {verb!r}: use key, hold, click, pause, wait-change or shot")
    return Step(verb, args, text, line)


def parse_script(path: Path) -> list[Step]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise RobotError(f"cannot read script {path}: {exc.strerror or exc}", 2) from None
    steps, problems = [], []
    for n, raw in enumerate(lines, 1):
        try:
            step = parse_step(raw, n)
        except ValueError as exc:
            problems.append(f"{path}:{n}: {exc}")
            continue
        if step is not None:
            steps.append(step)
    if problems:
        raise RobotError("bad script:\n  " + "\n  ".join(problems), 2)
    if not steps:
        raise RobotError(f"script {path} has no steps", 2)
    return steps


# ---------------------------------------------------------------- programs


def require_programs() -> str:
    """Checks Xvfb, xdotool and a screenshot program; returns 'import' or 'xwd'."""
    for prog in ("Xvfb", "xdotool"):
        if shutil.which(prog) is None:
            raise RobotError(f"{prog} is not installed: {APT_LINE}", 2)
    if shutil.which("import"):
        return "import"
    if shutil.which("xwd") and shutil.which("convert"):
        return "xwd"
    raise RobotError(f"import (imagemagick) is not installed: {APT_LINE}", 2)


def free_display(start: int = 90, stop: int = 400) -> int:
    for n in range(start, stop):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RobotError(f"no free X display number in :{start}..:{stop - 1}", 2)


# ---------------------------------------------------------------- the robot


@dataclass
class Robot:
    out: Path
    app_cmd: list[str]
    settle: float = 0.4
    window_timeout: float = 20.0
    shooter: str = "import"
    verbose: bool = True
    xvfb: subprocess.Popen | None = None
    app: subprocess.Popen | None = None
    display: str = ""
    window: str = ""
    geometry: tuple[int, int] = (0, 0)
    count: int = 0
    last_hash: str = ""
    app_log_file: object = None
    index: list[str] = field(default_factory=list)
    t0: float = field(default_factory=time.monotonic)

    # -- lifecycle

    def start(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        for attempt in range(5):
            n = free_display(90 + attempt * 7)
            xlog = open(self.out / "xvfb.log", "w")
            self.xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", SCREEN, "-nolisten", "tcp"],
                                         stdout=xlog, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
            xlog.close()
            self.display = f":{n}"
            if self._wait_x(10.0):
                break
            self._kill(self.xvfb, "Xvfb")
            self.xvfb = None
        else:
            raise RobotError(f"Xvfb would not start; see {self.out / 'xvfb.log'}", 2)
        self.say(f"Xvfb {self.display} pid {self.xvfb.pid}")
        env.update(DISPLAY=self.display, SDL_VIDEODRIVER="x11")
        env.setdefault("SDL_AUDIODRIVER", "dummy")
        env.pop("WAYLAND_DISPLAY", None)
        self.app_log_file = open(self.out / "app.log", "w")
        self.say("app: " + shlex.join(self.app_cmd))
        try:
            self.app = subprocess.Popen(self.app_cmd, env=env, cwd=self.out, stdout=self.app_log_file,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        start_new_session=True)
        except OSError as exc:
            raise RobotError(f"cannot start the app {self.app_cmd[0]}: {exc.strerror or exc}", 2) from None
        self.say(f"app pid {self.app.pid}; its output goes to {self.out / 'app.log'}")
        self.window = self._find_window()
        self.geometry = self._window_size()
        self.say(f"window {self.window} ({self.geometry[0]}x{self.geometry[1]}); screenshots in {self.out}")
        # No window manager on Xvfb: move the window to the corner and give it the focus
        # ourselves, so XTEST keys (real key events, not XSendEvent) reach it.
        self.xdo("windowmove", self.window, "0", "0", check=False)
        self.xdo("windowfocus", "--sync", self.window, check=False)
        time.sleep(self.settle)
        self.screenshot(Step("shot", ("start",), "shot start"))

    def stop(self) -> int | None:
        """Ends the app (Esc is 'quit' only on some screens, so SIGTERM) and exactly our Xvfb."""
        code = None
        if self.app is not None:
            code = self.app.poll()
            if code is None:
                self._kill(self.app, "app")
            else:
                self.say(f"app had exited with status {code}")
        if self.app_log_file is not None:
            self.app_log_file.close()
        if self.xvfb is not None:
            self._kill(self.xvfb, f"Xvfb {self.display}")
        if self.index:
            (self.out / "steps.tsv").write_text(
                "step\tseconds\tscreenshot\tchanged\tstep text\n" + "\n".join(self.index) + "\n", encoding="utf-8")
        return code

    def _kill(self, proc: subprocess.Popen, name: str) -> None:
        if proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        self.say(f"stopped {name} (pid {proc.pid})")

    def _wait_x(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.xvfb.poll() is not None:
                return False
            r = subprocess.run(["xdotool", "getdisplaygeometry"], env={**os.environ, "DISPLAY": self.display},
                               capture_output=True, text=True)
            if r.returncode == 0:
                return True
            time.sleep(0.1)
        return False

    def _find_window(self) -> str:
        deadline = time.monotonic() + self.window_timeout
        while time.monotonic() < deadline:
            if self.app.poll() is not None:
                raise RobotError(f"the app exited with status {self.app.returncode} before its window "
                                 f"appeared:\n{self.app_log_tail()}", 3)
            for query in (["--pid", str(self.app.pid)], ["--name", "^Cheating Moth"]):
                r = self.xdo("search", "--onlyvisible", *query, check=False)
                ids = r.stdout.split()
                if r.returncode == 0 and ids:
                    return ids[-1]
            time.sleep(0.2)
        raise RobotError(f"no app window after {self.window_timeout:g} s on {self.display}; "
                         f"app log:\n{self.app_log_tail()}", 3)

    def _window_size(self) -> tuple[int, int]:
        r = self.xdo("getwindowgeometry", "--shell", self.window)
        vals = dict(line.split("=", 1) for line in r.stdout.split() if "=" in line)
        return int(vals.get("WIDTH", 0)), int(vals.get("HEIGHT", 0))

    def app_log_tail(self, lines: int = 15) -> str:
        if self.app_log_file is not None:
            self.app_log_file.flush()
        try:
            text = (self.out / "app.log").read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "  (no app log)"
        return "\n".join("  | " + s for s in text[-lines:]) or "  (app log empty)"

    # -- helpers

    def say(self, msg: str) -> None:
        if self.verbose:
            print(f"[robot] {msg}", file=sys.stderr, flush=True)

    def xdo(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        r = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display},
                           capture_output=True, text=True, timeout=30)
        if check and r.returncode != 0:
            raise RobotError(f"xdotool {' '.join(args)} failed: {r.stderr.strip() or r.returncode}")
        return r

    def alive(self) -> None:
        if self.app is not None and self.app.poll() is not None:
            raise RobotError(f"the app exited with status {self.app.returncode}; last lines of its log:\n"
                             f"{self.app_log_tail()}")

    # -- steps

    def run(self, step: Step) -> Path:
        """Runs one step, waits ``settle`` seconds and returns the screenshot's path."""
        self.alive()
        v, a = step.verb, step.args
        if v == "key":
            for k in a:
                self.xdo("key", "--clearmodifiers", key_sym(k))
                time.sleep(0.05)
        elif v == "hold":
            sym = key_sym(a[0])
            self.xdo("keydown", sym)
            try:
                time.sleep(float(a[1]) / 1000)
            finally:
                self.xdo("keyup", sym)
        elif v == "click":
            x, y = int(float(a[0])), int(float(a[1]))
            w, h = self.geometry
            if not (0 <= x < w and 0 <= y < h):
                raise RobotError(f"click {x} {y} is outside the {w}x{h} window")
            self.xdo("mousemove", "--window", self.window, str(x), str(y))
            times = a[2] if len(a) == 3 else "1"
            self.xdo("click", "--repeat", times, "--delay", "120", "1")
        elif v == "pause":
            time.sleep(float(a[0]))
        elif v == "wait-change":
            waited = self._wait_change(float(a[0]))
            self.say(f"screen changed after {waited:.2f} s" if waited is not None
                     else f"screen did NOT change within {a[0]} s")
            return self.screenshot(step)
        if v != "pause":
            time.sleep(self.settle)
        self.alive()
        return self.screenshot(step)

    def _wait_change(self, timeout: float) -> float | None:
        """Polls the window until it differs from the last screenshot; seconds waited or None."""
        t0 = time.monotonic()
        probe = self.out / ".probe.png"
        try:
            while time.monotonic() - t0 < timeout:
                self.alive()
                self._grab(probe)
                if hashlib.sha256(probe.read_bytes()).hexdigest() != self.last_hash:
                    return time.monotonic() - t0
                time.sleep(0.05)
            return None
        finally:
            probe.unlink(missing_ok=True)

    def screenshot(self, step: Step) -> Path:
        path = self.out / f"{self.count:03d}-{step.label}.png"
        self._grab(path)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        changed = digest != self.last_hash
        self.last_hash = digest
        t = time.monotonic() - self.t0
        self.index.append(f"{self.count}\t{t:.2f}\t{path.name}\t{'yes' if changed else 'NO'}\t{step.text}")
        self.count += 1
        note = "" if changed or self.count == 1 else "   (screen unchanged)"
        print(f"{path}{note}", flush=True)
        return path

    def _grab(self, path: Path) -> None:
        env = {**os.environ, "DISPLAY": self.display}
        if self.shooter == "import":
            cmd = ["import", "-window", self.window, "-strip", str(path)]
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=30)
        else:
            xwd = subprocess.run(["xwd", "-silent", "-id", self.window], env=env, capture_output=True, timeout=30)
            r = subprocess.run(["convert", "xwd:-", "-strip", str(path)], input=xwd.stdout,
                               capture_output=True, timeout=30)
            r = subprocess.CompletedProcess(r.args, r.returncode or xwd.returncode,
                                            stderr=(xwd.stderr + r.stderr).decode(errors="replace"))
        if r.returncode != 0 or not path.exists():
            raise RobotError(f"screenshot failed: {str(r.stderr).strip() or r.returncode}")


# ---------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m tools.window_robot",
        description="Play cheating-moth in a real window on a private Xvfb and screenshot every step.",
        epilog="Steps: key X [Y..] | hold X MS | click X Y | pause SECONDS | wait-change SECONDS | shot NAME   (# comments). "
               f"Needs: {APT_LINE}")
    p.add_argument("script", nargs="?", type=Path, help="script file, one step a line (not with --step)")
    p.add_argument("--step", action="store_true",
                   help="read steps from stdin one at a time; print each screenshot's path")
    p.add_argument("--out", type=Path, help="screenshot folder (default /tmp/window_robot/<time>)")
    p.add_argument("--size", default="800x480", help="app window size (default 800x480)")
    p.add_argument("--seed", default="1", help="the app's --seed (default 1, so runs repeat)")
    p.add_argument("--lang", default="en", help="the app's --lang (default en)")
    p.add_argument("--settle", type=float, default=0.4,
                   help="seconds to wait after a step before its screenshot (default 0.4)")
    p.add_argument("--window-timeout", type=float, default=20.0,
                   help="seconds to wait for the app's window (default 20)")
    p.add_argument("--app", default=str(DEFAULT_APP), help=f"the cheating-moth program (default {DEFAULT_APP})")
    p.add_argument("--app-arg", action="append", default=[], metavar="ARG",
                   help="one more argument for 'cheating-moth play' (repeatable)")
    p.add_argument("--keep-going", action="store_true",
                   help="script mode: log a failed step and go on (the app dying still stops the run)")
    p.add_argument("--no-sheet", action="store_true",
                   help="skip contact-sheet.png (every screenshot on one page, made with montage)")
    p.add_argument("-q", "--quiet", action="store_true", help="only the screenshot paths on stdout")
    args = p.parse_args(argv)
    if args.step == (args.script is not None):
        p.error("give a script file, or --step to read steps from stdin (not both)")
    if not re.fullmatch(r"\d+x\d+", args.size):
        p.error(f"--size {args.size!r}: give WIDTHxHEIGHT, e.g. 800x480")
    return args


def contact_sheet(out: Path, say) -> None:
    """Every screenshot, small and labelled, on one page: contact-sheet.png (best effort)."""
    shots = sorted(out.glob("[0-9][0-9][0-9]-*.png"))
    if not shots or shutil.which("montage") is None:
        return
    sheet = out / "contact-sheet.png"
    r = subprocess.run(["montage", "-label", "%t", "-pointsize", "11", *map(str, shots), "-tile", "5x",
                        "-geometry", "320x192+4+4", str(sheet)], capture_output=True, text=True, timeout=300)
    if r.returncode == 0:
        say(f"contact sheet: {sheet}")
    else:
        say(f"no contact sheet (montage: {r.stderr.strip()[:200]})")


def _on_signal(signum: int, frame: object) -> None:
    raise Interrupted()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        steps = parse_script(args.script) if args.script else []
        width, height = map(int, args.size.split("x"))
        outside = [f"line {s.line}: {s.text}" for s in steps
                   if s.verb == "click" and not (float(s.args[0]) < width and float(s.args[1]) < height)]
        if outside:
            raise RobotError(f"clicks outside the {args.size} window: " + "; ".join(outside), 2)
        shooter = require_programs()
        if not Path(args.app).exists() and shutil.which(args.app) is None:
            raise RobotError(f"app {args.app} not found: make the venv with "
                             "python3 -m venv .venv && .venv/bin/pip install -e .", 2)
    except RobotError as exc:
        print(f"window_robot: {exc}", file=sys.stderr)
        return exc.code
    out = args.out or Path("/tmp/window_robot") / time.strftime("%Y%m%d-%H%M%S")
    out = out.resolve()
    app_cmd = [args.app, "play", "--size", args.size, "--input", "keyboard", "--seed", args.seed,
               "--lang", args.lang, "--log", str(out / "game.jsonl"), "--db", str(out / "table.sqlite"),
               *args.app_arg]
    if out.exists() and any(out.iterdir()):
        print(f"window_robot: output folder {out} is not empty: give a new --out", file=sys.stderr)
        return 2
    robot = Robot(out=out, app_cmd=app_cmd, settle=args.settle, window_timeout=args.window_timeout,
                  shooter=shooter, verbose=not args.quiet)
    old_int = signal.signal(signal.SIGINT, _on_signal)
    old_term = signal.signal(signal.SIGTERM, _on_signal)
    code = 0
    try:
        robot.start()
        if args.step:
            code = _interactive(robot)
        else:
            for step in steps:
                robot.say(f"step {robot.count} (line {step.line}): {step.text}")
                try:
                    robot.run(step)
                except RobotError as exc:
                    if not args.keep_going or robot.app.poll() is not None:
                        raise
                    print(f"window_robot: line {step.line}: {exc}", file=sys.stderr)
                    code = 1
    except RobotError as exc:
        print(f"window_robot: {exc}", file=sys.stderr)
        code = exc.code
    except Interrupted:
        print("window_robot: interrupted", file=sys.stderr)
        code = 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # cleanup is not interrupted half way
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            robot.stop()
        finally:
            signal.signal(signal.SIGINT, old_int)
            signal.signal(signal.SIGTERM, old_term)
    if not args.no_sheet and robot.count > 1 and code != 130:
        contact_sheet(out, robot.say)
    robot.say(f"{robot.count} screenshots, app log and game log in {out} (exit {code})")
    return code


def _interactive(robot: Robot) -> int:
    """--step: one step per stdin line; prints the screenshot path (or 'error: ...') after each."""
    prompt = sys.stdin.isatty()
    while True:
        if prompt:
            print("step> ", end="", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            return 0
        if line.split("#", 1)[0].strip().lower() in ("quit", "exit"):
            return 0
        try:
            step = parse_step(line)
        except ValueError as exc:
            print(f"error: {exc}", flush=True)
            continue
        if step is None:
            continue
        try:
            robot.run(step)
        except RobotError as exc:
            print(f"error: {exc}".replace("\n", " "), flush=True)
            if robot.app.poll() is not None:
                return 1


if __name__ == "__main__":
    sys.exit(main())
