"""Sounds: every name an effect can carry exists, the committed WAVs are exactly what
sounds/make_sounds.py writes, and all of them preload into a 48 kHz low-latency mixer."""

from __future__ import annotations

import re
import wave
from pathlib import Path

import pygame

from game.app.ui.sound import MIXER, SOUNDS_DIR, Sounds, pre_init
from game.app.ui.synth import RATE, SEAT_HZ, SOUNDS, wav_bytes

CONTROLLER = Path(__file__).resolve().parents[2] / "game" / "controller"


def test_every_sound_the_controller_names_exists() -> None:
    named: set[str] = set()
    for source in CONTROLLER.glob("*.py"):
        named |= set(re.findall(r'sound\("([a-z_]+)"\)', source.read_text()))
        named |= set(re.findall(r'sound\("([a-z_]+)" if \w+ else "([a-z_]+)"\)', source.read_text())[0]
                     if 'sound("guilty" if' in source.read_text() else ())
    assert {"go", "ready", "slap", "cockroach", "caught", "false_start", "round_over", "game_won",
            "refused", "guilty", "not_guilty"} <= named
    assert named <= set(SOUNDS)
    assert {f"seat_{n}" for n in range(len(SEAT_HZ))} <= set(SOUNDS)
    assert len(SEAT_HZ) == 8  # up to 7 seats at a Cheating Moth table, 8 in referee mode


def test_committed_wavs_are_what_the_script_writes() -> None:
    for name in SOUNDS:
        path = SOUNDS_DIR / f"{name}.wav"
        assert path.read_bytes() == wav_bytes(name), f"{path} is stale: run python sounds/make_sounds.py"
        with wave.open(str(path)) as w:
            assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (RATE, 2, 1)
            assert 0.05 < w.getnframes() / RATE < 1.5
    assert {p.stem for p in SOUNDS_DIR.glob("*.wav")} == set(SOUNDS)


def test_sounds_preload_into_the_low_latency_mixer(tmp_path: Path) -> None:
    pygame.mixer.quit()
    pre_init()
    pygame.mixer.init()
    assert pygame.mixer.get_init() == MIXER[:3]
    sounds = Sounds()
    assert set(sounds.sounds) == set(SOUNDS)
    sounds.play("go")
    sounds.play("no_such_sound")
    assert sounds.unknown == ["no_such_sound"]
    synthesised = Sounds(folder=tmp_path)      # no folder (an installed wheel): made in memory
    assert set(synthesised.sounds) == set(SOUNDS)
    assert abs(synthesised.sounds["go"].get_length() - sounds.sounds["go"].get_length()) < 0.01
