"""The simulation: every card in exactly one place after every step, over many seeds and variants."""

from __future__ import annotations

import itertools

import pytest

from game.cards import Card, Kind
from game.engine import EnterPenalty, PlayCard
from game.sim import Policy, run_games, simulate_game, summarise
from game.sim.hidden import ConservationError, HiddenTable
from game.variants import (
    CockroachCard, CockroachRacers, DrawWhenPlayable, GuardNextRound, Rules, TopTie,
)

ALL_VARIANTS = [
    Rules(guard_next_round=g, cockroach_racers=r, cockroach_card=c, draw_when_playable=d, top_tie=t)
    for g, r, c, d, t in itertools.product(GuardNextRound, CockroachRacers, CockroachCard,
                                           DrawWhenPlayable, TopTie)
]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cards_are_conserved_over_many_seeds(players: int) -> None:
    for seed in range(60):
        report = simulate_game(players, seed)
        assert len(report.turns) == players
        assert report.checks > 0


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=lambda r: "/".join(r.variants().values()))
def test_every_variant_plays_to_the_end_with_cards_conserved(rules: Rules) -> None:
    for seed in range(6):
        report = simulate_game(5, seed, rules)
        assert len(report.round_points) == 5


def test_heavy_cheating_and_suspicion_still_conserve_cards() -> None:
    policy = Policy(cheat_p=0.3, spot_p=0.8, false_accuse_p=0.2, false_start_p=0.3)
    for seed in range(40):
        simulate_game(4, seed, policy=policy)


def test_a_game_is_a_function_of_its_seed() -> None:
    a = simulate_game(5, 1234, keep_log=True)
    b = simulate_game(5, 1234, keep_log=True)
    c = simulate_game(5, 1235, keep_log=True)
    assert a == b and a.log == b.log
    assert a.log != c.log


def test_totals_are_the_sum_of_the_round_points() -> None:
    report = simulate_game(4, 99)
    assert report.totals == tuple(map(sum, zip(*report.round_points)))
    assert min(report.totals) == min(report.totals[w] for w in report.winners)


def test_a_card_in_two_places_is_caught() -> None:
    cards = (Card(Kind.NUMBER, 1), Card(Kind.NUMBER, 2), Card(Kind.ANT, 3))
    table = HiddenTable(cards, draw=[0], discard=[1], hands=[[2], [1]], vanished=[], cheated=[[], []])
    with pytest.raises(ConservationError, match=r"in two places \[1\]"):
        table.check_conservation()


def test_a_lost_card_is_caught() -> None:
    cards = (Card(Kind.NUMBER, 1), Card(Kind.NUMBER, 2), Card(Kind.ANT, 3))
    table = HiddenTable(cards, draw=[0], discard=[1], hands=[[], []], vanished=[], cheated=[[], []])
    with pytest.raises(ConservationError, match=r"missing \[2\]"):
        table.check_conservation()


def test_an_engine_that_miscounts_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the engine forgot to move a card, the simulation's cross-check fails at that step."""
    import game.engine.steps as steps

    real = steps.draw

    def forgetful_draw(d: steps.Draft, player: int) -> None:
        real(d, player)
        if d.draw_pile > 10:
            d.draw_pile += 1  # the engine "forgets" the card left the pile

    monkeypatch.setattr(steps, "draw", forgetful_draw)
    summary = run_games(4, 3, seed=1, play=lambda n, s: simulate_game(n, s))
    assert not summary.all_cards_conserved
    assert len(summary.conservation_failures) == 3
    assert "engine piles" in summary.conservation_failures[0]


def test_summary_counts() -> None:
    reports = [simulate_game(3, s) for s in range(5)]
    summary = summarise(3, 0, reports)
    assert summary.games == 5 and summary.rounds == 15
    assert summary.all_cards_conserved
    assert summary.races_per_round == pytest.approx(summary.slaps_per_round + summary.cockroaches_per_round)
    assert summary.cards_vanished <= summary.cheats
    assert summary.to_json()["conservation_failures"] == []


def test_the_log_holds_commands_the_table_would_send() -> None:
    report = simulate_game(5, 3, keep_log=True)
    kinds = {type(r).__name__ for r in report.log}
    assert {"NewGame", "StartRound", "PlayCard", "DrawCard", "DecideRace", "Accuse", "Verdict",
            "EnterPenalty", "GameOver"} <= kinds
    plays = [r for r in report.log if isinstance(r, PlayCard)]
    moths = [p for p in plays if p.card.kind is Kind.MOTH]
    assert plays and all(isinstance(p.card, Card) for p in moths)
    assert all(e.moths >= 0 for e in report.log if isinstance(e, EnterPenalty))


# --- going out (issue 12 point 8) ------------------------------------------------------------


def _last_action_plays(policy: Policy) -> list[tuple[PlayCard, tuple[object, ...]]]:
    """(play, the records after it) for every last action card a bot said was its last."""
    found = []
    for seed in range(12):
        log = simulate_game(4, seed, policy=policy, keep_log=True).log
        for i, record in enumerate(log):
            if isinstance(record, PlayCard) and record.last_card and record.card.kind.is_action:
                found.append((record, log[i + 1:i + 4]))
    return found


def test_a_bot_whose_real_last_card_is_an_action_card_says_so_and_its_action_does_not_happen() -> None:
    from game.engine.events import CardPlayed, RoundEnded

    found = _last_action_plays(Policy(cheat_p=0.3, spot_p=0.1))
    assert found, "no bot played a last action card in these seeds"
    for play, after in found:
        # The round ends with the card: no draws, no race, no gift.
        assert after[0] == CardPlayed(play.player, play.card)
        assert after[1] == RoundEnded(after[1].round, (play.player,))  # type: ignore[union-attr]


def test_bots_declare_out_only_after_playing_laying_or_giving_a_card_that_round() -> None:
    from game.engine import DeclareOut, StartRound
    from game.engine.events import CardGiven, CardPlayed

    outs = 0
    for seed in range(12):
        shed: set[int] = set()
        for record in simulate_game(4, seed, policy=Policy(cheat_p=0.3), keep_log=True).log:
            if isinstance(record, StartRound):
                shed = set()
            elif isinstance(record, CardPlayed):
                shed.add(record.player)
            elif isinstance(record, CardGiven):
                shed.add(record.giver)
            elif isinstance(record, DeclareOut):
                outs += 1
                assert record.player in shed, (seed, record)
    assert outs


def test_a_simulated_table_taps_a_last_card_through_the_controller() -> None:
    """The bots' last-card play acted out as a console tap reaches the engine unchanged."""
    from game.controller import TableSettings, new_table, step
    from game.sim.presses import game_commands, table_script

    settings = TableSettings(seats=5, clock="sim")
    seed = next(s for s in range(40) if any(
        isinstance(c, PlayCard) and c.last_card for c in game_commands(3, s, settings.rules)))
    script = table_script(3, seed, settings)
    table = new_table(settings, seed, 0)
    made_last = []
    event = next(script)
    while True:
        made = step(table, event)
        table = made.table
        made_last += [c for c in made.commands if isinstance(c, PlayCard) and c.last_card]
        try:
            event = script.send(made)
        except StopIteration:
            break
    assert made_last and table.stage.value == "game-over"
