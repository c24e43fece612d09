"""Write every sound of the rig to this folder as a 48 kHz mono WAV (run from the repo root:
``python sounds/make_sounds.py``). The sounds are synthesised by game/app/ui/synth.py, so they
are ours; a test checks that the committed files are exactly what this script writes."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from game.app.ui.synth import SOUNDS, wav_bytes  # noqa: E402


def main() -> int:
    for name in SOUNDS:
        (HERE / f"{name}.wav").write_bytes(wav_bytes(name))
    print(f"wrote {len(SOUNDS)} sounds to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
