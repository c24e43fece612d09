"""Simulation with hidden hands: real cards, bots that play, cheat and accuse, driving the engine.

The engine only knows what the table can see. This layer holds the real cards — who holds
which, what is on the floor — and checks after every step that each card of the deck is in
exactly one place. It powers the demo, statistics, benchmarks and property tests.
"""

from .bots import Policy
from .play import GameReport, simulate_game
from .stats import Summary, run_games, summarise

__all__ = ["GameReport", "Policy", "Summary", "run_games", "simulate_game", "summarise"]
