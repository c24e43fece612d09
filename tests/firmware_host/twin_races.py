"""Races through the firmware twin: a raw host on the pty and a checker against the chip's pushes.

The host speaks the board protocol directly (firmware_host/board/protocol.py), so thousands of
short races run through the real main.py, firmware.py and hw_rp2.py on the twin. Every word the
chip model pushed is then matched with what the board reported: per arming and state machine,
the same edges in the same order, each stamped ``ARMED ticks + the word's count`` (the unwrap),
and that arming's stamp within ``SYNC_SLACK_CYCLES`` after the cycle SYNC really rose (the
count unwrapped with the cycle the chip pushed the word at: an arming may outlast 2**31 ticks). TIME
heartbeats must never be followed by an edge stamped before them.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import queue
import random
import threading
import tty
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.board import protocol as P
from firmware_host.board.ticks import word_count, word_level
from firmware_host.twin.board import BOARD_DIR, SYNC_PIN, Boot, Policy, TwinBoard
from firmware_host.twin.table import BOUNCE_MAX_CYCLES, Table, us_to_cycles

BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8)
GO_SM = 7
WRAP = 1 << 31
WAIT_S = 20.0
LOCKOUT_US = 5000  # 5 ms: at most 3 words of one logger within a 10 ms GC pause and a drain
SYNC_SLACK_CYCLES = 100 * 125 + 250  # the firmware re-arms if SYNC's stamp may be later than 100 us
SYNC_EARLY_CYCLES = 130  # the us timer rounds down: at most one us before the rise


class RawHost:
    """The host side of the pty, frame by frame: every frame the board sent, in order."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(str(path), os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.frames: list[tuple[str, dict[str, str]]] = []
        self.bad = 0
        self.queue: queue.Queue[tuple[str, dict[str, str]] | None] = queue.Queue()
        self.seq = 0
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        lines = P.LineBuffer()
        while True:
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                data = b""
            if not data:
                self.queue.put(None)
                return
            for line in lines.feed(data):
                try:
                    _seq, verb, fields = P.decode(line)
                except P.ProtocolError:
                    self.bad += 1
                    continue
                self.frames.append((verb, fields))
                self.queue.put((verb, fields))

    def send(self, verb: str, fields: list[tuple[str, object]]) -> int:
        seq = self.seq
        self.seq = P.next_seq(seq)
        os.write(self.fd, P.encode(seq, verb, fields))
        return seq

    def until(self, verb: str, key: str, value: str, timeout_s: float = WAIT_S) -> dict[str, str]:
        while True:
            item = self.queue.get(timeout=timeout_s)
            if item is None:
                raise EOFError("the twin hung up")
            if item[0] == verb and item[1].get(key) == value:
                return item[1]
            if item[0] == "ERR" and item[1].get("code") != "internal" and "re" in item[1]:
                raise AssertionError(f"the board refused a request: {item[1]}")

    def close(self) -> None:
        os.close(self.fd)


@dataclass(slots=True)
class Check:
    """What the checker found (every count but ``races``/``edges``/``gc``/``timer`` should be 0)."""

    races: int = 0
    edges: int = 0  # pushes of the checked armings
    lost: int = 0  # pushed, never reported
    extra: int = 0  # reported, never pushed
    wrong_level: int = 0
    wrapped: int = 0  # stamped 2**31 ticks (34.4 s) or more wrong
    misstamped: int = 0  # stamped wrong by less than that
    sync_early: int = 0  # an arming stamped before SYNC rose
    sync_late: int = 0  # an arming stamped too long after SYNC rose
    time_broken: int = 0  # an edge stamped before a TIME the board sent earlier
    nogo: int = 0  # END why=nogo: the GO word never reached the main loop
    internal: int = 0  # ERR code=internal
    drops: int = 0  # DROP frames
    hangs: int = 0
    resets: int = 0
    stalls: int = 0
    gc: int = 0
    rearmed: int = 0  # SYNC rises no arming kept (the firmware saw a pause and armed again)
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        kind = text.split(" ", 2)[:2]
        if len(self.examples) < 12 and sum(1 for e in self.examples if e.split(" ", 2)[:2] == kind) < 3:
            self.examples.append(text)

    @property
    def faults(self) -> dict[str, int]:
        names = ("lost", "extra", "wrong_level", "wrapped", "misstamped", "sync_early", "sync_late", "time_broken",
                 "nogo", "internal", "drops", "hangs", "resets", "stalls")
        return {n: getattr(self, n) for n in names if getattr(self, n)}


def schedule_race(table: Table, now: int, rng: random.Random, pins: tuple[int, ...] = BUTTON_PINS) -> None:
    """Random presses around the next arming and GO: bounce bursts from a few ms ahead, and
    some single edges a few cycles after GO (same-cycle and one-cycle ties)."""
    pins = tuple(rng.sample(pins, rng.randint(1, min(4, len(pins)))))
    for pin in pins:
        if rng.random() < 0.3:
            at = rng.randint(0, 64)
            table.after_go(pin, 0, at)
            table.after_go(pin, 1, at + BOUNCE_MAX_CYCLES + us_to_cycles(rng.randint(100, 4000)))
            continue
        press = now + us_to_cycles(rng.randint(300, 9000))
        table.bounce(pin, 0, press, rng)
        table.bounce(pin, 1, press + BOUNCE_MAX_CYCLES + us_to_cycles(rng.randint(100, 4000)), rng)


def run_races(twin: TwinBoard, host: RawHost, races: int, seed: int, first_race: int = 1,
              pins: tuple[int | None, ...] = BUTTON_PINS) -> None:
    """``races`` short races (GO 0-3 ms after arming, 6 ms timeout) with random presses on the
    buttons that have ``pins``."""
    rng = random.Random(seed)
    wired = tuple(p for p in pins if p is not None)
    slots = [b for b, p in enumerate(pins) if p is not None]
    host.send("HELLO", [("proto", P.PROTO)])
    host.until("HELLO", "re", "0")
    race = first_race
    host.send("ARM", [("race", race), ("btns", [0]), ("lockout_us", LOCKOUT_US), ("timeout_ms", 2)])
    host.until("ARMED", "race", str(race))  # the first checked arming starts here
    for _ in range(races):
        race += 1
        twin.script(lambda table, now: schedule_race(table, now + 1, rng, wired))
        btns = sorted(rng.sample(slots, rng.randint(min(2, len(slots)), len(slots))))
        host.send("ARM", [("race", race), ("btns", btns), ("lockout_us", LOCKOUT_US), ("timeout_ms", 6)])
        host.send("GO", [("race", race), ("delay_ms", rng.randint(0, 3))])
        host.until("END", "race", str(race))
    race += 1
    host.send("ARM", [("race", race), ("btns", [0]), ("lockout_us", LOCKOUT_US), ("timeout_ms", 2)])
    host.until("ARMED", "race", str(race))  # every earlier arming's words are reported by now


def check(boot: Boot, frames: list[tuple[str, dict[str, str]]], result: Check | None = None) -> Check:
    """Match the board's reports with the chip's pushes, arming by arming."""
    out = result or Check()
    rises = boot.sync_rises()
    stalled = {(sm, c) for sm, c, _w in boot.stalls}
    armings: list[tuple[int, list[tuple[int, int, int]]]] = []  # (ARMED ticks, reports (sm, level, ticks))
    last_time = -1
    for verb, f in frames:
        if verb == "ARMED" and "re" in f and not any(a[0] == int(f["ticks"]) for a in armings[-1:]):
            armings.append((int(f["ticks"]), []))
        elif verb in ("PRESS", "RELEASE", "GO"):
            ticks = int(f["ticks"])
            if ticks < last_time:
                out.time_broken += 1
                out.note(f"{verb} {f} after TIME ticks={last_time}")
            if armings and verb == "GO" and "re" not in f:
                armings[-1][1].append((GO_SM, 1, ticks))
            elif armings and verb != "GO":
                armings[-1][1].append((int(f["btn"]), 1 if verb == "RELEASE" else 0, ticks))
        elif verb == "TIME":
            last_time = max(last_time, int(f["ticks"]))
        elif verb == "END" and f.get("why") == "nogo":
            out.nogo += 1
        elif verb == "ERR" and f.get("code") == "internal":
            out.internal += 1
        elif verb == "DROP":
            out.drops += 1
    def nearest_rise(base: int) -> int:
        i = bisect.bisect_left(rises, base * 2)
        return min(rises[max(0, i - 1):i + 1], key=lambda s: abs(base * 2 - s))

    kept = {nearest_rise(base) for base, _r in armings}
    out.rearmed += len([s for s in rises if s > min(kept, default=0) and s not in kept])
    push_cycles = [c for c, _s, _w in boot.pushes]  # in cycle order
    for base, reports in armings[:-1]:  # the last arming is the closing one
        out.races += 1
        # this arming's SYNC: the rise nearest its stamp
        sync = nearest_rise(base)
        err = base * 2 - sync
        if err < -SYNC_EARLY_CYCLES:
            out.sync_early += 1
            out.note(f"arming stamped {-err} cycles before SYNC rose at {sync}")
        elif err > SYNC_SLACK_CYCLES:
            out.sync_late += 1
            out.note(f"arming stamped {err} cycles after SYNC rose at {sync}")
        k = bisect.bisect_right(rises, sync)
        end = rises[k] if k < len(rises) else 1 << 62
        epoch = boot.pushes[bisect.bisect_right(push_cycles, sync):bisect.bisect_right(push_cycles, end)]
        for sm in range(8):
            pushed = [(c, w) for c, s, w in epoch if s == sm and (sm, c) not in stalled
                      and not (sm == GO_SM and word_level(w) == 0)]
            told = [(lv, t) for s, lv, t in reports if s == sm]
            out.edges += len(pushed)
            if len(told) < len(pushed):
                out.lost += len(pushed) - len(told)
                out.note(f"sm {sm} arming at {sync}: {len(pushed)} pushed, {len(told)} reported")
            elif len(told) > len(pushed):
                out.extra += len(told) - len(pushed)
                out.note(f"sm {sm} arming at {sync}: {len(pushed)} pushed, {len(told)} reported")
            if len(told) != len(pushed):  # a word lost in the middle: the stamps cannot be paired
                continue
            for (cycle, word), (level, ticks) in zip(pushed, told):
                count = word_count(word)  # modulo 2**31: the arming may have lasted longer
                count += round(((cycle - sync) // 2 - count) / WRAP) * WRAP
                want = base + count
                if level != word_level(word):
                    out.wrong_level += 1
                if ticks != want:
                    if abs(ticks - want) >= 1 << 30:
                        out.wrapped += 1
                    else:
                        out.misstamped += 1
                    out.note(f"sm {sm} word pushed at cycle {cycle} reported ticks={ticks}, logged at {want}")
    for sm, cycle, _w in boot.stalls:
        near = [(c, us, where) for c, us, where in boot.gc_pauses if cycle - 3_750_000 <= c <= cycle]
        out.note(f"RXSTALL: sm {sm} dropped a word at cycle {cycle}; collections in the 30 ms before: {near}")
    out.hangs += len(boot.blocks)
    out.resets += len(boot.resets)
    out.stalls += len(boot.stalls)
    out.gc += len(boot.gc_pauses)
    return out


ADVERSARIAL = Policy(
    timer_hold_us=1000,
    timer={"rx": 600_000, "get": 200_000, "timerh": 100_000, "timerl": 100_000, "sync": 300_000},
    gc={"get": 20_000, "timerh": 5_000, "timerl": 5_000, "sync": 50_000, "rx": 5_000},
)


def policy(seed: int, base: Policy = ADVERSARIAL) -> Policy:
    return dataclasses.replace(base, seed=seed, timer=dict(base.timer), gc=dict(base.gc))


TABLE_OF_FOUR = (2, 3, 4, 5, None, None, None)  # four buttons wired: five state machines with GO's


def race_twin(link: Path, races: int, seed: int, pol: Policy, micropython: str | None = None,
              pins: tuple[int | None, ...] = BUTTON_PINS, board_dir: Path = BOARD_DIR) -> Check:
    """One twin process, ``races`` races on the buttons that have ``pins``, checked."""
    twin = TwinBoard(link, policy=pol, micropython=micropython, reboot_on_reset=False,
                     pins=None if pins == BUTTON_PINS else {"BUTTON_PINS": pins}, board_dir=board_dir)
    twin.plug()
    host = RawHost(twin.link)
    try:
        run_races(twin, host, races, seed, pins=pins)
    except (queue.Empty, EOFError, OSError) as exc:  # a reset hangs up the pty (EIO on write)
        result = check(twin.boot, host.frames)
        result.note(f"the run stopped: {exc!r}; stderr: {twin.stderr()[-500:]}")
        result.lost += 1
        return result
    finally:
        host.close()
        twin.close()
    return check(twin.boot, host.frames)
