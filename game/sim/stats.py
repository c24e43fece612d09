"""Statistics over many simulated games (the ``simulate`` command's output)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .hidden import ConservationError
from .play import GameReport


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (distinct for every pair)."""
    return (seed << 32) | index


@dataclass(frozen=True, slots=True)
class Summary:
    players: int
    games: int
    seed: int
    rounds: int
    turns_per_round: float
    races_per_round: float
    slaps_per_round: float
    cockroaches_per_round: float
    accusations_right: int
    accusations_wrong: int
    mean_penalty_per_player: float        # a player's game total, averaged over players and games
    mean_penalty_per_player_round: float
    cards_vanished: int                   # still vanished when their round ended, all games
    cards_vanished_per_round: float
    cheats: int                           # cards made to vanish, including ones taken back
    conservation_checks: int
    all_cards_conserved: bool
    conservation_failures: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in self.__dataclass_fields__}
        out["conservation_failures"] = list(self.conservation_failures)
        for name, value in out.items():
            if isinstance(value, float):
                out[name] = round(value, 4)
        return out


def run_games(players: int, games: int, seed: int,
              play: Callable[[int, int], GameReport]) -> Summary:
    """Play ``games`` games with ``play(players, game_seed)`` and summarise them.

    A :class:`ConservationError` in one game is recorded (with its seed) and the run goes on.
    """
    reports: list[GameReport] = []
    failures: list[str] = []
    for i in range(games):
        s = game_seed(seed, i)
        try:
            reports.append(play(players, s))
        except ConservationError as exc:
            failures.append(f"game {i} (seed {s}): {exc}")
    return summarise(players, seed, reports, failures)


def summarise(players: int, seed: int, reports: Iterable[GameReport],
              failures: Iterable[str] = ()) -> Summary:
    reports = list(reports)
    failures = tuple(failures)
    rounds = sum(len(r.turns) for r in reports)
    per_round = max(rounds, 1)
    games = max(len(reports), 1)
    slaps = sum(sum(r.slaps) for r in reports)
    cockroaches = sum(sum(r.cockroaches) for r in reports)
    points = sum(sum(r.totals) for r in reports)
    return Summary(
        players=players,
        games=len(reports) + len(failures),
        seed=seed,
        rounds=rounds,
        turns_per_round=sum(sum(r.turns) for r in reports) / per_round,
        races_per_round=(slaps + cockroaches) / per_round,
        slaps_per_round=slaps / per_round,
        cockroaches_per_round=cockroaches / per_round,
        accusations_right=sum(r.accusations_right for r in reports),
        accusations_wrong=sum(r.accusations_wrong for r in reports),
        mean_penalty_per_player=points / (games * players),
        mean_penalty_per_player_round=points / (per_round * players),
        cards_vanished=sum(sum(r.vanished) for r in reports),
        cards_vanished_per_round=sum(sum(r.vanished) for r in reports) / per_round,
        cheats=sum(r.cheats for r in reports),
        conservation_checks=sum(r.checks for r in reports),
        all_cards_conserved=not failures and bool(reports),
        conservation_failures=failures,
    )
