"""The rig's sounds, synthesised from sine, square and noise with the standard library only, so
they are ours. ``sounds/make_sounds.py`` writes them to ``sounds/*.wav``; the app falls back to
synthesising them in memory when the folder is missing (an installed wheel)."""

from __future__ import annotations

import io
import math
import random
import struct
import wave
from collections.abc import Callable

RATE = 48_000
#: Peak level of every sound (full scale 1.0); the seat tones and alarms share one loudness.
PEAK = 0.8
#: One tone per physical seat (pentatonic, so any two seats sound well together).
SEAT_HZ = (523.25, 587.33, 659.25, 783.99, 880.0, 1046.5, 1174.66, 1318.51)  # 8: referee mode

Samples = list[float]


def _silence(seconds: float) -> Samples:
    return [0.0] * int(RATE * seconds)


def _tone(hz: float, seconds: float, *, shape: str = "sine", attack: float = 0.005,
          decay: float = 0.0, volume: float = 0.6, harmonics: tuple[float, ...] = ()) -> Samples:
    """A tone with a linear attack, an exponential decay (0: flat) and a short release."""
    n = int(RATE * seconds)
    release = min(n, int(RATE * 0.01))
    out: Samples = []
    for i in range(n):
        t = i / RATE
        phase = 2 * math.pi * hz * t
        if shape == "square":
            x = 1.0 if math.sin(phase) >= 0 else -1.0
            x *= 0.5
        else:
            x = math.sin(phase)
            for k, amp in enumerate(harmonics, start=2):
                x += amp * math.sin(k * phase)
        env = min(1.0, t / attack) if attack > 0 else 1.0
        if decay > 0:
            env *= math.exp(-t / decay)
        if i >= n - release:
            env *= (n - i) / release
        out.append(volume * env * x)
    return out


def _sweep(start_hz: float, end_hz: float, seconds: float, volume: float = 0.5) -> Samples:
    n = int(RATE * seconds)
    out: Samples = []
    phase = 0.0
    for i in range(n):
        hz = start_hz + (end_hz - start_hz) * i / n
        phase += 2 * math.pi * hz / RATE
        env = min(1.0, i / 240, (n - i) / 240)
        out.append(volume * env * (math.sin(phase) + 0.3 * math.sin(2 * phase)))
    return out


def _noise(seconds: float, decay: float, seed: int, volume: float = 0.7) -> Samples:
    rng = random.Random(seed)
    n = int(RATE * seconds)
    out: Samples = []
    low = 0.0
    for i in range(n):
        low += 0.35 * (rng.uniform(-1, 1) - low)  # a gentle low-pass: a slap, not a hiss
        out.append(volume * low * math.exp(-i / (RATE * decay)) * 1.8)
    return out


def _mix(*parts: Samples) -> Samples:
    n = max(len(p) for p in parts)
    return [sum(p[i] for p in parts if i < len(p)) for i in range(n)]


def _cat(*parts: Samples) -> Samples:
    return [x for p in parts for x in p]


def go() -> Samples:
    return _mix(_tone(1046.5, 0.28, decay=0.25, volume=0.45, harmonics=(0.3,)),
                _tone(1568.0, 0.28, decay=0.25, volume=0.3))


def ready() -> Samples:
    beep = _tone(440.0, 0.07, volume=0.35)
    return _cat(beep, _silence(0.06), beep)


def slap() -> Samples:
    return _mix(_noise(0.18, 0.03, seed=1, volume=0.9), _tone(120.0, 0.12, decay=0.03, volume=0.5))


def cockroach() -> Samples:
    clicks: Samples = []
    for i in range(7):
        clicks += _noise(0.012, 0.004, seed=10 + i, volume=0.8) + _silence(0.03 - 0.002 * i)
    return _mix(clicks, _sweep(900.0, 1400.0, 0.3, volume=0.15))


def caught() -> Samples:
    return _cat(_sweep(650.0, 1250.0, 0.25), _sweep(1250.0, 650.0, 0.25),
                _sweep(650.0, 1250.0, 0.25), _sweep(1250.0, 650.0, 0.25))


def guilty() -> Samples:
    notes = (392.0, 349.23, 311.13, 261.63)
    return _cat(*(_tone(hz, 0.22 if i < 3 else 0.5, shape="square", decay=0.4, volume=0.35)
                  for i, hz in enumerate(notes)))


def not_guilty() -> Samples:
    return _cat(*(_tone(hz, 0.14 if hz < 1000 else 0.35, decay=0.3, volume=0.45, harmonics=(0.2,))
                  for hz in (523.25, 659.25, 783.99, 1046.5)))


def false_start() -> Samples:
    return _tone(150.0, 0.45, shape="square", volume=0.45)


def round_over() -> Samples:
    return _cat(_tone(659.25, 0.25, decay=0.4, volume=0.45, harmonics=(0.25,)),
                _tone(880.0, 0.5, decay=0.5, volume=0.45, harmonics=(0.25,)))


def game_won() -> Samples:
    line = _cat(*(_tone(hz, 0.15, decay=0.5, volume=0.4, harmonics=(0.3,))
                  for hz in (523.25, 659.25, 783.99)))
    chord = _mix(*(_tone(hz, 0.9, decay=0.6, volume=0.25, harmonics=(0.3,))
                   for hz in (523.25, 659.25, 783.99, 1046.5)))
    return _cat(line, chord)


def refused() -> Samples:
    buzz = _tone(200.0, 0.08, shape="square", volume=0.35)
    return _cat(buzz, _silence(0.05), buzz)


def _seat(n: int) -> Callable[[], Samples]:
    def make() -> Samples:
        return _tone(SEAT_HZ[n], 0.18, decay=0.15, volume=0.5, harmonics=(0.4, 0.15))

    return make


#: Every sound an effect can name (``PlaySound.name``), by name.
SOUNDS: dict[str, Callable[[], Samples]] = {
    "go": go, "ready": ready, "slap": slap, "cockroach": cockroach, "caught": caught,
    "guilty": guilty, "not_guilty": not_guilty, "false_start": false_start,
    "round_over": round_over, "game_won": game_won, "refused": refused,
    **{f"seat_{n}": _seat(n) for n in range(len(SEAT_HZ))},
}


def pcm(name: str, channels: int = 1) -> bytes:
    """Signed 16-bit little-endian samples of sound ``name`` at 48 kHz, ``channels`` interleaved."""
    samples = SOUNDS[name]()
    peak = max(abs(x) for x in samples) or 1.0
    gain = PEAK / peak  # every sound peaks at the same level: none clips, none is lost
    ints = [round(x * gain * 32767) for x in samples for _ in range(channels)]
    return struct.pack(f"<{len(ints)}h", *ints)


def wav_bytes(name: str) -> bytes:
    """Sound ``name`` as a mono 48 kHz 16-bit WAV file."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm(name))
    return buffer.getvalue()
