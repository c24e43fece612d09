"""A simulated table for the demo and attract mode: bots act a game out as presses and taps
(``game.sim.presses.table_script``) through the real controller, on the simulated clock. The
same run gives the key screens for screenshots and tests."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence

from ...controller import Stage, Step, Table, TableSettings, new_table, step
from ...controller.inputs import Input
from ...controller.resume import LoggedStep, resume
from ...sim.presses import T0_NS, resume_script, table_script
from .common import Scene
from .observe import observe
from .render import screen_of
from .screens_race import pressed_after_go
from .staged_race import shows_tie_and_false_start, staged_photo
from .state import UiState

#: Every key screen the demo photographs (and the tests render in every language and size).
KEY_SCREENS = ("attract", "settings", "join", "keyboard", "oldest", "deal", "play", "spider", "out", "race-ready",
               "race-go", "race-live", "race-card", "photo", "pick", "vote", "verdict", "penalty",
               "summary", "game-over")


class Demo:
    """One simulated game, stepped input by input."""

    def __init__(self, players: int, seed: int, settings: TableSettings, lang: str = "en",
                 logged: Sequence[LoggedStep] = ()) -> None:
        """``logged``: the steps a table log already holds of this game, which is picked up after
        them (raises BadTableLog if they are not this game's)."""
        self.players = players
        self.seed = seed
        self.ui = UiState(lang=lang, input_name="sim", auto_continue=True)   # nobody taps Continue
        self.steps = 0
        self.table: Table
        self.next_input: Input | None
        if logged:
            self.table = resume(settings, seed, T0_NS, logged)
            self.script, self.next_input = resume_script(players, seed, settings, logged)
        else:
            self.table = new_table(settings, seed, T0_NS)
            self.script = table_script(players, seed, settings)
            self.next_input = next(self.script)

    @property
    def done(self) -> bool:
        return self.next_input is None or self.table.stage is Stage.GAME_OVER

    @property
    def now_ns(self) -> int:
        return self.table.now_t_ns

    def step(self) -> Step:
        event = self.next_input
        assert event is not None
        before = self.table
        made = step(before, event)
        self.table = made.table
        self.steps += 1
        observe(self.ui, before, made, made.table.now_t_ns)
        try:
            self.next_input = self.script.send(made)
        except StopIteration:
            self.next_input = None
        return made

    def advance_to(self, t_ns: int) -> list[Step]:
        """Feed every input due by ``t_ns`` on the simulated clock."""
        made: list[Step] = []
        while self.next_input is not None and self.next_input.t_ns <= t_ns and not self.done:
            made.append(self.step())
        return made

    def scene(self) -> Scene:
        return Scene(self.table, self.ui, self.now_ns)


def shot_name(scene: Scene) -> str:
    """The key screen a scene shows (races split into ready, GO, live and the card laid)."""
    name = screen_of(scene)
    run = scene.table.race
    if name != "race" or run is None:
        return name
    if run.result is not None:
        return "race-card"
    if run.go_t_ns is None:
        return "race-ready"
    return "race-live" if pressed_after_go(run) else "race-go"


def key_scenes(scene: Scene, have: dict[str, Scene]) -> Iterator[tuple[str, Scene]]:
    """The key screens this scene is a (better) example of than the ones already in ``have``."""
    name = shot_name(scene)
    t = scene.table
    g = t.game
    if t.stage is Stage.GAME_OVER and "game-over" not in have:
        ui = copy.deepcopy(scene.ui)
        ui.dismiss()
        yield "game-over", Scene(t, ui, scene.now_ns)
    if name == "join":
        if t.players >= 3 and (name not in have or have[name].table.players < t.players):
            yield name, scene
            # The name keyboard over it: the second player mending a name half typed.
            ui = copy.deepcopy(scene.ui)
            ui.keyboard_seat, ui.keyboard_text = t.seated[1], "Zoë"
            yield "keyboard", Scene(t, ui, scene.now_ns)
        return
    if name == "penalty":
        entered = sum(1 for e in g.entries if e is not None)
        if len(g.out) < entered < t.players and name not in have:
            yield name, scene
        return
    if name == "play":
        # A moment with no notice up (an ant's, a reshuffle's): the example shows the turn's
        # instruction (a player who may tap "That was my last card"), and the out picker over it
        # shows that it hides it.
        quiet = scene.ui.notice(scene.now_ns) is None
        if "play" not in have and g.scores and g.hands and min(g.hands) >= 3 and quiet and g.active != g.guard:
            yield name, scene
            ui = copy.deepcopy(scene.ui)
            ui.out_menu = True
            yield "out", Scene(t, ui, scene.now_ns)
            ui = copy.deepcopy(scene.ui)
            ui.settings_open = True
            yield "settings", Scene(t, ui, scene.now_ns)
            yield "attract", scene
        return
    if name == "vote":
        votes = t.dispute.votes if t.dispute is not None else ()
        had = have.get("vote")
        if had is None or votes and had.table.dispute is not None and not had.table.dispute.votes:
            yield name, scene
        return
    if name == "race-ready" and not shows_tie_and_false_start(have.get("photo")):
        # The photo-finish screenshot shows a tie and a false start: this slap run on a copy.
        staged = staged_photo(scene)
        if staged is not None:
            yield "photo", staged
    if name in KEY_SCREENS and name not in have:
        yield name, scene


def collect(players: int, seeds: Iterator[int] | list[int], settings: TableSettings,
            lang: str = "en") -> dict[str, Scene]:
    """Play demo games until every key screen has an example (or the seeds run out)."""
    have: dict[str, Scene] = {}
    for seed in seeds:
        demo = Demo(players, seed, settings, lang)
        while not demo.done:
            demo.step()
            for name, scene in key_scenes(demo.scene(), have):
                have[name] = Scene(scene.table, copy.deepcopy(scene.ui), scene.now_ns)
        for name, scene in key_scenes(demo.scene(), have):
            have[name] = Scene(scene.table, copy.deepcopy(scene.ui), scene.now_ns)
        if all(n in have for n in KEY_SCREENS):
            break
    return have
