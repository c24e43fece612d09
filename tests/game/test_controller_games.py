"""Whole games from presses, holds and console taps, written by hand from RULES.md."""

from __future__ import annotations

from table_helpers import Rig, card

from game.controller import Stage, TableSettings
from game.controller import inputs as console
from game.engine import Phase
from game.engine.events import AccusationUpheld, GuardChanged, RoundEnded
from game.variants import GuardNextRound, Rules, TopTie

CLOCK = "test"


def test_a_three_player_game_from_presses_reaches_its_standings() -> None:
    rig = Rig()
    # Seats 0, 2 and 4 sit down (Ali, Cem, Eva = players 0, 1, 2); Cem is the oldest.
    rig.seat(0, 2, 4, oldest=2)
    assert rig.stage is Stage.DEAL and rig.table.game.guard == 1

    # Round 1: Cem guards and starts.
    rig.starter("number 3")
    rig.play("number 4")                      # Cem
    rig.draw()                                # Eva presses her button: she draws
    rig.play("mosquito 5")                    # Ali: a mosquito race for Cem and Eva
    assert rig.stage is Stage.RACE
    rig.tick(200)                             # nothing happens before GO
    go = rig.go()
    rig.press(2, go + 200 - rig.t)            # Cem slaps after 200 ms
    rig.press(4, 60)                          # Eva 60 ms later: slowest
    assert rig.table.game.hands == (6, 6, 11)
    rig.release(2)
    rig.release(4)                            # releases after the race are not turn presses
    assert rig.table.game.active == 1 and rig.table.game.hands == (6, 6, 11)
    rig.play("number 1")                      # Cem: 1 on a 5 (numbers wrap)
    rig.out(0)                                # Ali holds her button and confirms: out
    assert rig.stage is Stage.PENALTY
    rig.penalties((1, 0, 1, 4), (2, 1, 0, 3))  # Cem (guard all round: exactly 5), Eva
    assert rig.table.game.scores[0][0].points == 0
    assert [p.points for p in rig.table.game.scores[0]] == [0, 9, 13]

    # Round 2: the Guard Bug passes left to Eva.
    assert rig.stage is Stage.DEAL and rig.table.game.guard == 2
    rig.starter("ant 2")                      # an action card as starter does nothing
    rig.play("cockroach 3")                   # Eva: everyone races to lay a 3
    go = rig.go()
    rig.press(0, go + 150 - rig.t)            # Ali first...
    rig.press(2, 40)                          # ...Cem 40 ms later
    rig.tick(60)                              # settle window over: Ali wins
    assert rig.table.race is not None and rig.table.race.result is not None
    assert rig.table.race.result.winner == 0
    rig.tap_console(console.Void)             # Ali has no 3 after all: Cem is next in line
    assert rig.table.race is not None and rig.table.race.result.winner == 1
    rig.tap_console(console.Laid, card("number 3"))
    assert rig.table.game.active == 0         # the turn passes left of Eva
    rig.caught()                              # Eva calls Caught!...
    rig.tap(2)                                # ...and presses Cem's button
    assert rig.stage is Stage.VOTE
    rig.tap(0)                                # Ali, the only judge, votes guilty
    assert any(isinstance(e, AccusationUpheld) for e in rig.events)
    assert rig.table.game.guard == 1 and rig.table.game.hands == (8, 8, 6)
    rig.draw()                                # Ali draws
    rig.play("number 4")                      # Cem, now the guard
    rig.out(4)                                # Eva is out
    rig.penalties((0, 1, 2, 3), (1, 0, 0, 2))
    assert [p.points for p in rig.table.game.scores[1]] == [23, 2, 0]

    # Round 3: the Guard Bug passes left of Cem (its holder) to Eva.
    assert rig.table.game.guard == 2
    rig.starter("number 5")
    rig.play("spider 1")                      # Eva gives a card...
    assert rig.stage is Stage.SPIDER
    rig.tap(0)                                # ...to Ali, who presses her button
    assert rig.table.game.hands == (9, 8, 6)
    rig.play("number 2")                      # Ali
    rig.play("number 3")                      # Cem lays his last card (he cheated the rest)
    rig.tap_console(console.Out, 1)           # Cem is out (tapped on the screen)
    rig.penalties((0, 0, 0, 8), (2, 2, 1, 3))
    assert rig.stage is Stage.GAME_OVER
    standings = [(s.player, s.total, s.place) for s in rig.table.game.standings()]
    assert standings == [(1, 11, 1), (0, 31, 2), (2, 41, 3)]
    assert rig.table.message.render() == "Game over: Cem wins with 11 penalty points."


def test_a_game_with_house_rules_ends_in_a_tie_broken_by_moths() -> None:
    rules = Rules(guard_next_round=GuardNextRound.KEEP, top_tie=TopTie.FEWEST_MOTHS)
    rig = Rig(settings=TableSettings(seats=3, clock=CLOCK, rules=rules))
    rig.seat(0, 1, 2, oldest=0)
    # (who goes out, penalty entries) per round; Ali guards every round ('keep').
    rounds = [
        (2, [(0, 0, 0, 7), (1, 1, 0, 0)]),   # Cem out; Ali 7, Bea 10 (a moth)
        (1, [(0, 0, 0, 7), (2, 0, 2, 0)]),   # Bea out; Ali 7, Cem 10 (two action cards)
        (2, [(0, 0, 0, 7), (1, 0, 0, 0)]),   # Cem out; Ali 7, Bea 0
    ]
    for out, entries in rounds:
        assert rig.table.game.guard == 0
        rig.starter("number 2")
        rig.play("number 3")                          # Ali
        if out == 1:
            rig.play("number 4")                      # Bea lays her last card
        else:
            rig.draw()                                # Bea
            rig.play("number 4")                      # Cem lays his last card
        rig.out(out)
        rig.penalties(*entries)
    assert rig.table.game.phase is Phase.GAME_OVER
    assert rig.table.game.totals == (21, 10, 10)
    # Bea and Cem tie on 10; Bea took a moth, Cem none: Cem wins alone.
    assert [(s.player, s.moths, s.place) for s in rig.table.game.standings()] == [(2, 0, 1), (1, 1, 2), (0, 0, 3)]
    assert rig.table.message.render() == "Game over: Cem wins with 10 penalty points."
    assert not [e for e in rig.events if isinstance(e, GuardChanged)]


def test_rounds_end_and_the_guard_rotates() -> None:
    rig = Rig()
    rig.seat(0, 1, 2, 3, oldest=3)
    guards = []
    for _ in range(4):
        guards.append(rig.table.game.guard)
        rig.starter("number 2")
        rig.play("number 3")                              # the guard
        rig.play("number 4")                              # the next player: their last card
        rig.tap_console(console.Out, (rig.table.game.guard + 1) % 4)
        others = [p for p in range(4) if p not in rig.table.game.out]
        for p in others:
            n = rig.table.game.hands[p]
            rig.tap_console(console.Penalty, p, 0, 0, n)
    assert guards == [3, 0, 1, 2]
    assert sum(isinstance(e, RoundEnded) for e in rig.events) == 4
    assert rig.stage is Stage.GAME_OVER
    rig.tap_console(console.NewGame)
    assert rig.stage is Stage.JOIN and rig.table.seated == (0, 1, 2, 3)
