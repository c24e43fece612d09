"""Sounds: preloaded from ``sounds/*.wav`` (or synthesised in memory when the folder is not
there, as in an installed wheel); the mixer is set up for low latency before pygame starts."""

from __future__ import annotations

from pathlib import Path

import pygame

from .synth import SOUNDS, pcm

SOUNDS_DIR = Path(__file__).resolve().parents[3] / "sounds"
#: 48 kHz, 16-bit signed, stereo, 512-sample buffer (~10.7 ms): call before pygame.init().
MIXER = (48_000, -16, 2, 512)


def pre_init() -> None:
    pygame.mixer.pre_init(*MIXER)


class Sounds:
    """Every sound an effect may name, loaded once; ``play`` costs microseconds."""

    def __init__(self, folder: Path = SOUNDS_DIR) -> None:
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.unknown: list[str] = []
        self.note: str | None = None
        self.volume = 100                 # percent (the staff menu sets it)
        mixer = pygame.mixer.get_init()
        if mixer is None:
            self.note = "no sound: the audio device could not be opened (SDL_AUDIODRIVER?)"
            return
        channels = mixer[2]
        for name in SOUNDS:
            path = folder / f"{name}.wav"
            if path.is_file():
                self.sounds[name] = pygame.mixer.Sound(str(path))
            else:
                self.sounds[name] = pygame.mixer.Sound(buffer=pcm(name, channels))

    @property
    def enabled(self) -> bool:
        return bool(self.sounds)

    def set_volume(self, percent: int) -> None:
        """Every sound at ``percent`` (0-100) of its full loudness."""
        self.volume = max(0, min(100, percent))
        for sound in self.sounds.values():
            sound.set_volume(self.volume / 100)

    def play(self, name: str) -> None:
        sound = self.sounds.get(name)
        if sound is not None:
            sound.play()
        elif self.enabled and name not in self.unknown:
            self.unknown.append(name)  # reported once at the end, never a crash mid-game
