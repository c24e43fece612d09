"""The table controller: timestamped presses, ticks and console taps in; engine commands and
effects (LEDs, sounds, GO, what the screen says) out. Pure: the clock arrives in the inputs and
randomness is derived from the game's seed, so a whole game can be replayed from its inputs.
"""

from .effects import Arm, Effect, Leds, Light, Notice, PlaySound, ScheduleGo, Show, WakeAt
from .inputs import Input, Tick
from .settings import TableSettings
from .state import DisputeRun, RaceRun, Stage, Table
from .table import Step, new_table, step

__all__ = [
    "Arm", "DisputeRun", "Effect", "Input", "Leds", "Light", "Notice", "PlaySound", "RaceRun",
    "ScheduleGo", "Show", "Stage", "Step", "Table", "TableSettings", "Tick", "WakeAt", "new_table",
    "step",
]
