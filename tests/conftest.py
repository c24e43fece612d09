"""Test-wide settings that must be in place before any hardware library is imported."""

import os

# gpiozero's factory search on a PC would import lgpio (which drops a FIFO file in the current
# folder) and then try pigpio on localhost: tests always use the in-memory MockFactory.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# pygame (later) must never try to open a real display or sound card in tests.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# A game played on the screen is saved in the user's data folder (game/app/home.py): tests and
# the commands they start save theirs in a folder of their own, never in the user's.
import tempfile  # noqa: E402

os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="cheating-moth-tests-")
# A count of wrong staff PINs that a test's data folder refuses is kept in the runtime folder
# (game/app/pinwait.py): a folder of the tests' own, never the machine's /dev/shm.
os.environ["RUNTIME_DIRECTORY"] = tempfile.mkdtemp(prefix="cheating-moth-tests-run-")

# In CI, Hypothesis draws the same examples every run: a property test cannot pass on one
# push and fail on the next by luck. Locally it explores with fresh random examples.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    _hypothesis_settings.load_profile("ci")
