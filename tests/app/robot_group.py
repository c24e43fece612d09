"""A robot group at the card game's table: 3 to 5 people playing whole card games through the
real App's event loop (tests/app/glass_table.py: real pygame events, the rig's clock moved by
the test), with an oracle that checks every gesture against the frame that was on the glass.

The people: each gesture is AIMED at the frame seen when a reading pause begins (0.2-15 s on the
virtual clock), then done when it ends: a mouse button down and up 80-300 ms apart at a point
inside the chosen button, keys down and up (Enter, Esc, digits, letters, the keyboard seats
Q T P Z B, Space for the guard's Caught!), or wired seat buttons stamped by the rig. The screen
may change under the pointer meanwhile; that is the point. Races go on in the background: when a
race is armed its racers press 150-600 ms after GO (now and then one starts before GO, or one
never presses).

The oracle keeps its own account of the glass (when each screen came up, from the frames the
App presents) and its own table of what each button and key means (from actions.py, inputs.py
and console.KEYS_HELP), never the console's code. After every loop turn, the inputs the App fed
the controller must be exactly those of the events handled in it, each either the meaning of
the button under the pointer (or of the key) on the frame on the glass, or nothing:

- nothing while that screen was settling (``SETTLE_NS`` after it came up), but seat buttons;
- nothing after another tap or key acted on the same frame;
- the meaning itself (not nothing) once the screen has shown the same buttons for the settle
  time: a button that takes nothing is a defect too;
- a seat button or Caught! press placed by its stamp: a screen gone since or still settling
  takes nothing; a result screen (photo finish, verdict, round's reveal) only continues, so
  never a Press, a Release or a draw; a race takes every edge; its release follows its press.

And every step that changes a hand count must be explained by its input (a draw by Draw or a
seat's short press, a play by Play...)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pygame
from glass_table import MS, GlassTable

from game.app.ui.actions import Act, Hotspot
from game.app.ui.glass import SETTLE_NS
from game.app.ui.render import Frame
from game.cards import Card, Kind
from game.controller import Stage, Step
from game.controller import inputs as ci
from game.engine import commands as ec
from game.engine.legal import legal_commands
from game.inputs import CaughtPress, CaughtRelease, Go, Press, Release

S = 1_000 * MS
SEAT_KEYS = (pygame.K_q, pygame.K_t, pygame.K_p, pygame.K_z, pygame.K_b)
RESULT = ("photo", "verdict", "summary")
#: Screens on which a seat button or Caught! is nothing (the game under them is not shown).
QUIET = ("settings", "quit", "undo-race", "resume", "pin")
DIGIT_KEYS = {getattr(pygame, f"K_{d}"): d for d in range(10)}
#: KEYS_HELP: "1-5 then N/Enter, M, A, S, C, O   the card: number, moth, ant, spider, cockroach, mosquito".
KIND_KEYS = {pygame.K_n: Kind.NUMBER, pygame.K_RETURN: Kind.NUMBER, pygame.K_m: Kind.MOTH, pygame.K_a: Kind.ANT,
             pygame.K_s: Kind.SPIDER, pygame.K_c: Kind.COCKROACH, pygame.K_o: Kind.MOSQUITO}
KEY_OF_KIND = {Kind.NUMBER: pygame.K_n, Kind.MOTH: pygame.K_m, Kind.ANT: pygame.K_a, Kind.SPIDER: pygame.K_s,
               Kind.COCKROACH: pygame.K_c, Kind.MOSQUITO: pygame.K_o}
#: KEYS_HELP's one-letter commands, written out here (D draw, U undo, X cancel, V void, R run again,
#: G guilty, I not guilty).
LETTERS: dict[int, Callable[[], "Pat"]] = {
    pygame.K_d: lambda: Pat(ci.Draw), pygame.K_u: lambda: Pat(ci.UndoLast), pygame.K_x: lambda: Pat(ci.Cancel),
    pygame.K_v: lambda: Pat(ci.Void), pygame.K_r: lambda: Pat(ci.Rearm),
    pygame.K_g: lambda: Pat(ci.Rule, guilty=True), pygame.K_i: lambda: Pat(ci.Rule, guilty=False)}
HANDS_BY: dict[type, tuple[type, ...]] = {
    # Which inputs may carry out each engine command that changes a hand count.
    ec.DrawCard: (ci.Draw, Release),
    ec.PlayCard: (ci.Play,),
    ec.GiveCard: (ci.GiveTo, Press),
    ec.DecideRace: (ci.Tick, Press, Release, Go, ci.Laid, ci.Void),
    ec.Verdict: (ci.Tick, Press, ci.Rule),
    ec.Undo: (ci.UndoLast, ci.Cancel),
    ec.StartRound: (ci.Starter,),
    ec.NewGame: (Press,),
    ec.EnterPenalty: (ci.Penalty,),
    ec.CorrectHand: (ci.CorrectCount,),
    ec.DeclareOut: (ci.Out, Release, ci.Tick, Press),
}


@dataclass(frozen=True)
class Pat:
    """An input the oracle expects: its type and the fields it checks."""

    kind: type
    fields: tuple[tuple[str, object], ...] = ()

    def __init__(self, kind: type, **fields: object) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "fields", tuple(sorted(fields.items())))

    def matches(self, event: object) -> bool:
        return type(event) is self.kind and all(getattr(event, k) == v for k, v in self.fields)


Outcome = tuple[Pat, ...]
NOTHING: Outcome = ()


@dataclass
class Expect:
    """What one handled event may feed: any of ``outcomes`` (NOTHING among them: it may be dropped)."""

    what: str
    outcomes: list[Outcome]
    seat: tuple[str, int] | None = None     # a button's press or release (kind "seat"/"caught", seat)
    press: bool = False
    pair: Expect | None = None              # a release's press handled in the same turn
    unseen: bool = False                    # a button key the console kept from the glass


@dataclass
class Period:
    """A stretch of frames whose key stayed the same (the oracle's own account of the glass)."""

    since_ns: int
    coarse: int             # id: the screen, the stage, the turn, the race, the round...
    fine: int               # id: the same and the buttons drawn
    screen: str


@dataclass
class Tally:
    games: int = 0
    gestures: int = 0
    turns: int = 0
    fed: int = 0            # inputs fed by the robot's gestures (not ticks or GO)
    must: int = 0           # events the oracle required to act, and they did
    settling: int = 0       # taps or keys the oracle required to take nothing: screen settling
    after_act: int = 0      # ... or another act in the same frame
    result_presses: int = 0 # seat or Caught! presses made at a result screen (never fed)
    late_or_gone: int = 0   # button presses stamped at a screen gone since
    races: int = 0
    rounds: int = 0
    screens: set[str] = field(default_factory=set)
    acts: set[str] = field(default_factory=set)

    def add(self, other: Tally) -> None:
        for name in ("games", "gestures", "turns", "fed", "must", "settling", "after_act", "result_presses",
                     "late_or_gone", "races", "rounds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.screens |= other.screens
        self.acts |= other.acts


class Oracle(AssertionError):
    pass


# -- the robot ---------------------------------------------------------------------------------


class Robot:
    """One table: ``players`` people, ``mistakes`` how often they err, ``max_gestures`` when they stop."""

    def __init__(self, seed: int, players: int, mistakes: float = 0.12, max_gestures: int = 24,
                 max_rounds: int = 2, settle_ns: int | None = None, patch: Callable[[GlassTable], None] | None = None,
                 tally: Tally | None = None) -> None:
        self.seed, self.players, self.mistakes = seed, players, mistakes
        self.max_gestures, self.max_rounds = max_gestures, max_rounds
        self.rng = random.Random(seed * 7919 + players)
        self.tally = tally if tally is not None else Tally()
        self.g = GlassTable(seed=seed, settle_ns=settle_ns)
        self.app, self.rig = self.g.app, self.g.rig
        self.settle_ns = SETTLE_NS          # what issue 20 promises, whatever the App was given
        if patch is not None:
            patch(self.g)
        self.where = f"seed {seed}, {players} players"
        self.log: list[str] = []             # the gestures, for a failure's message
        # the oracle's account of the glass
        self.periods: list[Period] = []
        self._keys: tuple[object, object] | None = None
        self._ids = 0
        self._coarse_since: dict[int, int] = {}
        # the oracle's account of the buttons held and the UI's pending keys
        self.held: dict[tuple[str, int], bool | None] = {}   # (kind, seat) -> its press was fed
        self.pending: set[int | None] = {None}            # the number typed before a card's kind
        self.out_pending: set[bool] = {False}
        self.mouse_seat: int | None = None
        self.down: set[tuple[str, int]] = set()            # console buttons down (keys, tiles)
        # inputs and steps, as the App made them
        self.fed_all: list[tuple[object, Step, tuple[int, ...], Stage]] = []
        self.handled_edges: list[tuple[object, Stage]] = []
        self.queue: list[tuple[int, int, str, Any]] = []   # (t_ns, order, what, arg)
        self.order = 0
        self.scheduled_races: set[tuple[int, int]] = set()
        self.gestures = 0
        self.intent: dict[str, Any] = {}
        self._wrap()
        self._presented(self.app.frame)     # the first frame went up in GlassTable()

    # -- spies on the App (they only watch) ----------------------------------------------------

    def _wrap(self) -> None:
        app = self.app
        present, feed, button = app.present, app.feed, app.button

        def spy_present(frame: Frame, ident: tuple[object, ...]) -> Any:
            shown = present(frame, ident)
            self._presented(frame)
            return shown

        def spy_feed(event: Any) -> Step:
            before = app.table
            made = feed(event)
            self.fed_all.append((event, made, before.game.hands, before.stage))
            if made.table.stage is not before.stage:
                self.pending = {None}       # KEYS_HELP: a number typed belongs to its screen's stage
            return made

        def spy_button(edge: Any) -> None:
            self.handled_edges.append((edge, app.table.stage))
            button(edge)

        app.present = spy_present  # type: ignore[method-assign]
        app.feed = spy_feed  # type: ignore[method-assign]
        app.button = spy_button  # type: ignore[method-assign]

    def _presented(self, frame: Frame | None) -> None:
        assert frame is not None
        t = self.app.table
        g = t.game
        race = t.race
        ui = self.app.ui
        coarse = (frame.screen, t.stage, g.round, g.active, g.guard, len(g.scores), t.races,
                  None if race is None else (race.run, race.result is not None, race.asking),
                  None if t.dispute is None else t.dispute.accused)
        fine = (coarse, sum(e is not None for e in g.entries), ui.out_confirm, ui.keyboard_seat,
                tuple(h.act for h in frame.hotspots))
        if self._keys == (coarse, fine):
            return
        now = self.rig.t_ns
        if self._keys is not None and self._keys[0] == coarse:
            cid = self.periods[-1].coarse
        else:
            self._ids += 1
            cid = self._ids
            self._coarse_since[cid] = now
            self.out_pending = {False}      # "E then 1-5" belongs to the screen it was typed at
            if self.periods:
                self.pending = self.pending | {None}
        self._ids += 1
        self.periods.append(Period(now, cid, self._ids, frame.screen))
        self._keys = (coarse, fine)
        self.tally.screens.add(frame.screen)
        if len(self.periods) > 64:
            del self.periods[:32]

    def period_at(self, t_ns: int, top: Period) -> Period | None:
        """The frames on the glass at ``t_ns``, when ``top`` was the last presented."""
        seen = False
        for p in reversed(self.periods):
            seen = seen or p is top
            if seen and p.since_ns <= t_ns:
                return p
        return None

    # -- the clock -------------------------------------------------------------------------------

    def at(self, t_ns: int, what: str, arg: Any = None) -> None:
        self.order += 1
        self.queue.append((t_ns, self.order, what, arg))
        self.queue.sort()

    def run_until(self, end_ns: int) -> None:
        """Time passes to ``end_ns``: a loop turn every 100-250 ms of the virtual clock, and at
        GO, a tick, or the moment one of the robot's events happens."""
        while self.rig.t_ns < end_ns or (self.queue and self.queue[0][0] <= end_ns):
            now = self.rig.t_ns
            busy = self.down or self.held or self.app.table.stage in (Stage.RACE, Stage.VOTE)
            nxt = now + self.rng.randrange(100 if busy else 150, 251) * MS
            due = self.app.next_due_ns()
            if due is not None and due > now:
                nxt = min(nxt, due)
            ui_events = [q for q in self.queue if q[2] in ("down", "up", "keydown", "keyup")]
            if ui_events:
                nxt = min(nxt, max(now + MS, ui_events[0][0]))
            nxt = min(max(nxt, now + MS), max(end_ns, now + MS))
            self.rig.t_ns = nxt
            self.turn()

    def turn(self) -> None:
        """One loop turn with the events due by now; then the oracle."""
        now = self.rig.t_ns
        frame = self.app.frame
        assert frame is not None
        expects: list[Expect] = []
        wired: list[tuple[Any, Expect]] = []
        acted: bool | None = False          # None: maybe
        while self.queue and self.queue[0][0] <= now:
            t, _, what, arg = self.queue.pop(0)
            if what in ("press", "release"):
                edge = (Press if what == "press" else Release)(arg, t, "fake")
                self.rig.events.append(edge)
                wired.append((edge, Expect(f"wired {what} seat {arg + 1} @{t // MS}", [], ("seat", arg),
                                           what == "press")))
                continue
            event, expect, acted = self.event(what, arg, frame, now, acted)
            pygame.event.post(event)
            expects.append(expect)
        before = len(self.g.fed)
        self.top = self.periods[-1]         # the frame on the glass while this turn's inputs came
        self.fed_all.clear()
        self.handled_edges.clear()
        self.app.turn()
        self.tally.turns += 1
        fed = self.g.fed[before:]
        self.pressing: dict[tuple[str, int], Expect] = {}
        console = [e for e in expects if e.seat is not None]
        for edge, stage in self.handled_edges:
            exp = next((w for e, w in wired if e is edge), None)
            if exp is not None:
                expects.append(exp)
            else:
                exp = next((e for e in console if not e.outcomes and _same_button(e, edge)), None)
                if exp is None:
                    raise Oracle(f"{self.where}: the App handled {edge!r}, which no gesture made")
            exp.outcomes = self.button_outcomes(exp, edge.t_ns, stage)
        for exp in expects:
            if exp.seat is not None and not exp.outcomes:
                exp.outcomes = [NOTHING]    # never handled as a button (a key on "Leave the game?")
                exp.unseen = True
        self.check(expects, fed, now)
        self.check_results(frame.screen, expects, fed, now)
        self.check_hands()
        self.after_turn()

    # -- events and what they may feed -------------------------------------------------------------

    def event(self, what: str, arg: Any, frame: Frame, now: int, acted: bool | None
              ) -> tuple[pygame.event.Event, Expect, bool | None]:
        """The pygame event for one step of a gesture, and what it may feed on ``frame``."""
        period = self.periods[-1]
        settling = now - self._coarse_since[period.coarse] < self.settle_ns
        stable = now - period.since_ns >= self.settle_ns
        if what == "down":
            event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=arg, button=1)
            spot = hit(frame, arg)
            if spot is None:
                return event, Expect(f"tap {arg} on {frame.screen}: no button", [NOTHING]), acted
            act = spot.act
            self.tally.acts.add(act.kind)
            if act.kind == "seat":
                assert isinstance(act.value, int)
                self.mouse_seat = act.value
                return event, self.button_expect(f"tap seat tile {act.value + 1}", ("seat", act.value), True), acted
            label = f"tap {act.kind}{'' if act.value is None else f' {act.value}'} on {frame.screen}"
            outcomes = self.tap_means(act, frame)
            return event, *self.act_outcomes(label, outcomes, _noop, True, settling, stable, acted)
        if what == "up":
            event = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=arg, button=1)
            if self.mouse_seat is not None:
                seat, self.mouse_seat = self.mouse_seat, None
                return event, self.button_expect(f"let go of seat tile {seat + 1}", ("seat", seat), False), acted
            return event, Expect("mouse up", [NOTHING]), acted
        key = arg
        name = pygame.key.name(key)
        typing = frame.screen == "keyboard"
        if what == "keyup":
            event = pygame.event.Event(pygame.KEYUP, key=key)
            # (a key up is a button's release on every screen, typed into a name or not)
            if key in SEAT_KEYS:
                return event, self.button_expect(f"key up {name}", ("seat", SEAT_KEYS.index(key)), False), acted
            if key == pygame.K_SPACE:
                return event, self.button_expect("key up space", ("caught", -1), False), acted
            return event, Expect(f"key up {name}", [NOTHING]), acted
        event = pygame.event.Event(pygame.KEYDOWN, key=key)
        if not typing and key in SEAT_KEYS:
            return event, self.button_expect(f"key {name} (seat {SEAT_KEYS.index(key) + 1})",
                                             ("seat", SEAT_KEYS.index(key)), True), acted
        if not typing and key == pygame.K_SPACE:
            return event, self.button_expect("key space (Caught!)", ("caught", -1), True), acted
        outcomes, accepted, performs = self.key_means(key, frame)
        return event, *self.act_outcomes(f"key {name} on {frame.screen}", outcomes, accepted, performs, settling,
                                         stable, acted)

    def button_expect(self, what: str, button: tuple[str, int], press: bool) -> Expect:
        """A button's edge from the console (a seat key or tile, Space): placed once handled."""
        exp = Expect(what, [], button, press)
        if press:
            self.down.add(button)
        else:
            self.down.discard(button)
        return exp

    def act_outcomes(self, label: str, outcomes: list[Outcome], accepted: Callable[[bool], None],
                     performs: bool | None, settling: bool, stable: bool, acted: bool | None
                     ) -> tuple[Expect, bool | None]:
        """A tap on a button or a key: its meaning; nothing while the screen settles or after
        another act on this frame; its meaning for sure once the screen has been stable."""
        if settling:
            self.tally.settling += 1
            return Expect(label + " (settling)", [NOTHING]), acted
        if acted is True:
            self.tally.after_act += 1
            return Expect(label + " (after an act)", [NOTHING]), acted
        sure = stable and acted is False
        accepted(sure)
        now_acted: bool | None = acted if performs is False else True if performs and sure else None
        if sure:
            return Expect(label, list(outcomes)), now_acted
        return Expect(label + " (may still settle)", list(outcomes) + [NOTHING]), now_acted

    def tap_means(self, act: Act, frame: Frame) -> list[Outcome]:
        """actions.py and inputs.py: what a button's act feeds the controller."""
        k, v = act.kind, act.value
        one = {"draw": Pat(ci.Draw), "start": Pat(ci.StartGame), "new_game": Pat(ci.NewGame),
               "cancel": Pat(ci.Cancel), "void": Pat(ci.Void), "rearm": Pat(ci.Rearm),
               "undo_yes": Pat(ci.UndoLast), "out_yes": Pat(ci.Out), "variant": Pat(ci.Configure),
               "key_ok": Pat(ci.Name)}
        if k in one:
            return [(one[k],)]
        if k == "undo":
            return [NOTHING] if frame.screen == "photo" else [(Pat(ci.UndoLast),)]   # a photo's asks first
        if k == "caught":
            return [(Pat(ci.CallCaught, by=self.app.table.game.guard),)]
        if k in ("play", "starter", "laid") and isinstance(v, Card):
            kind = {"play": ci.Play, "starter": ci.Starter, "laid": ci.Laid}[k]
            return [(Pat(kind, card=v),)]
        if k == "accuse":
            return [(Pat(ci.Accuse, accused=v),)]
        if k == "give":
            return [(Pat(ci.GiveTo, recipient=v),)]
        if k == "rule":
            return [(Pat(ci.Rule, guilty=v),)]
        if k == "penalty_ok":
            return [(Pat(ci.Penalty, player=v),)]
        if k == "correct_count" and isinstance(v, tuple):
            return [(Pat(ci.CorrectCount, player=v[0], cards=v[1]), Pat(ci.Penalty, player=v[0]))]
        if k == "key_skip":
            return [NOTHING, (Pat(ci.Name, text=None),)]
        return [NOTHING]      # dismiss, settings, back, lang, out, out_menu, out_no, penalty_add, no, key...

    def key_means(self, key: int, frame: Frame) -> tuple[list[Outcome], Callable[[bool], None], bool | None]:
        """KEYS_HELP, read against the screen on the glass (written out here, not the console's):
        the outcomes, what the key leaves pending, whether it acts (None: it may)."""
        screen = frame.screen
        t = self.app.table
        stage = t.stage
        enter = key in (pygame.K_RETURN, pygame.K_KP_ENTER)
        digit = DIGIT_KEYS.get(key)
        if screen == "keyboard":
            return ([(Pat(ci.Name),)] if enter else [NOTHING]), _noop, None
        if screen == "undo-race":
            return ([(Pat(ci.UndoLast),)] if enter or key == pygame.K_y else [NOTHING]), _noop, None
        if screen in ("quit", "resume", "settings", "pin") or screen in RESULT:
            return [NOTHING], _noop, None

        def cleared(sure: bool) -> None:
            self.pending = {None} if sure else self.pending | {None}
            self.out_pending = {False} if sure else self.out_pending | {False}
        if key == pygame.K_ESCAPE:
            return [NOTHING], cleared, None
        if key in (pygame.K_l, pygame.K_F1, pygame.K_TAB, pygame.K_k):
            return [NOTHING], _noop, None
        if screen == "out":
            confirm = any(h.act.kind == "out_yes" for h in frame.hotspots)
            return ([(Pat(ci.Out),)] if enter and confirm else [NOTHING]), _noop, None
        if screen != stage.value:
            return [NOTHING], _noop, None
        if stage is Stage.PENALTY:
            open_rows = any(e is None for e in t.game.entries)
            if enter and open_rows:
                return [(Pat(ci.Penalty),)], _noop, True
            if key == pygame.K_u and open_rows:
                return [(Pat(ci.UndoLast),)], _noop, True
            return [NOTHING], _noop, None
        if key == pygame.K_e and stage in (Stage.PLAY, Stage.SPIDER):
            def e_down(sure: bool) -> None:
                self.out_pending = {True} if sure else self.out_pending | {True}
            return [NOTHING], e_down, None
        outs: list[Outcome] = []
        updates: list[Callable[[bool], None]] = []
        if True in self.out_pending and digit is not None:
            outs.append(NOTHING)            # "E then 1-5": asks whether that player is out

            def asked(sure: bool) -> None:
                self.out_pending = {False} if sure else self.out_pending | {False}
            updates.append(asked)
        if False in self.out_pending or digit is None:
            more, update = self._key_on_table(key, digit, stage, t.players)
            outs += more
            updates.append(update)

        def accepted(sure: bool) -> None:
            for update in updates:
                update(sure and len(updates) == 1)
        return list(dict.fromkeys(outs)), accepted, None

    def _key_on_table(self, key: int, digit: int | None, stage: Stage, players: int
                      ) -> tuple[list[Outcome], Callable[[bool], None]]:
        """A key on the table's own screen (pick, spider, deal, play, race, join, game over)."""
        if digit is not None and stage is Stage.PICK:
            return ([(Pat(ci.Accuse, accused=digit - 1),)] if 1 <= digit <= players else [NOTHING]), _noop
        if digit is not None and stage is Stage.SPIDER:
            return [(Pat(ci.GiveTo, recipient=None if digit == 0 else digit - 1),)], _noop
        if digit is not None and 1 <= digit <= 5 and stage in (Stage.DEAL, Stage.PLAY, Stage.RACE):
            def typed(sure: bool) -> None:
                self.pending = {digit} if sure else self.pending | {digit}
            return [NOTHING], typed
        kind = KIND_KEYS.get(key)
        if kind is not None and self.pending != {None}:
            verb = {Stage.DEAL: ci.Starter, Stage.PLAY: ci.Play, Stage.RACE: ci.Laid}.get(stage)
            outs: list[Outcome] = [(Pat(verb, card=Card(kind, n)),) if verb is not None else NOTHING
                                   for n in sorted(x for x in self.pending if x is not None)]
            if None in self.pending:
                outs += self._plain_key(key, stage)

            def used(sure: bool) -> None:
                self.pending = {None} if sure else self.pending | {None}
            return outs, used
        return self._plain_key(key, stage), _noop

    @staticmethod
    def _plain_key(key: int, stage: Stage) -> list[Outcome]:
        if key in LETTERS:
            return [(LETTERS[key](),)]
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if stage is Stage.JOIN:
                return [(Pat(ci.StartGame),)]
            if stage is Stage.GAME_OVER:
                return [(Pat(ci.NewGame),)]
        return [NOTHING]

    def button_outcomes(self, exp: Expect, t_ns: int, stage: Stage) -> list[Outcome]:
        """glass.py's promise for a seat button's or Caught!'s edge, from the oracle's own
        account of the frames presented."""
        kind, seat = exp.seat  # type: ignore[misc]
        pat = (Pat(Press, player=seat) if exp.press else Pat(Release, player=seat)) if kind == "seat" else (
            Pat(CaughtPress) if exp.press else Pat(CaughtRelease))
        if not exp.press:
            pressed = self.pressing.pop((kind, seat), None)
            if pressed is not None:         # pressed and let go within one turn
                exp.pair = pressed
                return [(pat,), NOTHING]
            went = self.held.pop((kind, seat), True)
            return [(pat,)] if went else [NOTHING] if went is False else [(pat,), NOTHING]
        self.pressing[(kind, seat)] = exp
        if stage is Stage.RACE:
            return [(pat,)]                 # a race takes every edge
        top = self.top
        at = self.period_at(t_ns, top)
        if at is None or at.coarse != top.coarse:
            self.tally.late_or_gone += 1
            exp.what += " (a screen gone since)"
            return [NOTHING]
        if at.screen in RESULT:
            self.tally.result_presses += 1
            exp.what += f" (at the {at.screen}: only Continue)"
            return [NOTHING]
        if at.screen in QUIET:
            return [NOTHING]
        if t_ns - self._coarse_since[at.coarse] < self.settle_ns:
            exp.what += " (settling)"
            return [NOTHING]
        if at.fine == top.fine and t_ns - top.since_ns >= self.settle_ns:
            return [(pat,)]
        return [(pat,), NOTHING]

    # -- the oracle ---------------------------------------------------------------------------

    def check(self, expects: list[Expect], fed: list[object], now: int) -> None:
        choice = _match(expects, 0, fed, 0)
        if choice is None:
            raise Oracle(self.explain(expects, fed, now))
        for exp, outcome in zip(expects, choice):
            if exp.seat is not None and exp.press:
                # a press the glass never saw: its release is the game's (glass.release)
                self.held[exp.seat] = None if exp.unseen else outcome != NOTHING
            if exp.seat is not None and not exp.press and exp.pair is not None:
                self.held.pop(exp.seat, None)
            if outcome != NOTHING and NOTHING not in exp.outcomes:
                self.tally.must += 1
        self.tally.fed += len(fed)

    def explain(self, expects: list[Expect], fed: list[object], now: int) -> str:
        lines = [f"{self.where}: at {now // MS} ms the App fed {fed!r}",
                 "but the events handled in that turn allow:"]
        lines += [f"  {e.what}: one of {[[(p.kind.__name__, dict(p.fields)) for p in o] for o in e.outcomes]}"
                  for e in expects]
        lines.append("recent frames: " + ", ".join(f"{p.screen}@{p.since_ns // MS}" for p in self.periods[-6:]))
        lines.append("gestures: " + " | ".join(self.log[-6:]))
        return "\n".join(lines)

    def check_results(self, was: str, expects: list[Expect], fed: list[object], now: int) -> None:
        """A result screen stays on the glass until someone continues past it (a tap, Enter, a
        button) or the table takes it back: it never goes by itself (issue 20)."""
        shown = self.app.frame
        assert shown is not None
        if was not in RESULT or shown.screen in (*RESULT, "undo-race", "quit", "settings", "pin"):
            return
        if fed or any(e.press or "dismiss" in e.what or "return" in e.what or "yes" in e.what for e in expects):
            return
        raise Oracle(f"{self.where}: at {now // MS} ms the {was} went by itself (now {shown.screen}); "
                     f"handled: {[e.what for e in expects]}")

    def check_hands(self) -> None:
        for event, made, before, stage in self.fed_all:
            if made.table.game.hands == before or not before:
                continue
            kinds = {type(c) for c in made.commands}
            ok = any(isinstance(event, HANDS_BY.get(k, ())) for k in kinds)
            if not ok:
                raise Oracle(f"{self.where}: hands {before} -> {made.table.game.hands} on {event!r} at {stage}, "
                             f"commands {made.commands}")

    def after_turn(self) -> None:
        """Background: racers press when a race is armed."""
        t = self.app.table
        race = t.race
        if race is None or race.go_t_ns is not None or race.asking:
            return
        key = (race.number, race.run)
        if key in self.scheduled_races:
            return
        self.scheduled_races.add(key)
        self.tally.races += 1
        go = race.go_due_t_ns
        for player in race.eligible:
            seat = t.seated[player]
            if ("seat", seat) in self.held or self.rng.random() < 0.06:
                continue                    # holding it already, or looking elsewhere
            if self.rng.random() < 0.07 and go - 400 * MS > self.rig.t_ns:
                down = go - self.rng.randrange(30, 400) * MS        # a false start
            else:
                down = go + self.rng.randrange(150, 601) * MS
            down += self.rng.randrange(0, 100_000)
            self.at(down, "press", seat)
            self.at(down + self.rng.randrange(80, 301) * MS, "release", seat)

    # -- choosing a gesture -------------------------------------------------------------------

    def pause_ns(self) -> int:
        """A reading pause, 0.2-15 s: mostly a glance, sometimes a long read or an argument."""
        r = self.rng.random()
        if r < 0.75:
            return self.rng.randrange(200, 800) * MS
        if r < 0.95:
            return self.rng.randrange(800, 3_000) * MS
        return int(math.exp(self.rng.uniform(math.log(3), math.log(15))) * S)

    def play_game(self) -> None:
        while self.gestures < self.max_gestures and not self.done():
            self.gesture()
        self.run_until(self.rig.t_ns + 1_000 * MS)
        self.tally.gestures += self.gestures
        self.tally.games += 1
        self.tally.rounds += len(self.app.table.game.scores)
        # the App is left as it is; the next game makes its own

    def done(self) -> bool:
        t = self.app.table
        return t.stage is Stage.GAME_OVER or len(t.game.scores) >= self.max_rounds

    def gesture(self) -> None:
        frame = self.app.frame
        assert frame is not None
        plan = self.choose(frame)           # aimed at what is on the glass now
        start = self.rig.t_ns + self.pause_ns()
        self.run_until(start)
        self.gestures += 1
        self.log.append(f"{start // MS}:{frame.screen}:{plan.name}")
        if len(self.log) > 12:
            del self.log[:6]
        for dt, what, arg in plan.steps:
            self.at(start + dt, what, arg)
        end = start + max((dt for dt, _, _ in plan.steps), default=0)
        self.run_until(end + MS)

    def choose(self, frame: Frame) -> Plan:
        screen = frame.screen
        t = self.app.table
        rng = self.rng
        goof = rng.random() < self.mistakes
        if goof:
            plan = self.mistake(frame)
            if plan is not None:
                return plan
        chooser = getattr(self, "on_" + screen.replace("-", "_"), None)
        plan = chooser(frame, t) if chooser is not None else None
        return plan if plan is not None else self.idle(frame)

    # plans ------------------------------------------------------------------------------------

    def tap(self, frame: Frame, match: Callable[[Act], bool], name: str, double: bool = False) -> Plan | None:
        spots = [h for h in frame.hotspots if match(h.act)]
        if not spots:
            return None
        spot = self.rng.choice(spots)
        pos = inside(self.rng, spot)
        hold = self.rng.randrange(80, 301) * MS
        steps: list[tuple[int, str, Any]] = [(0, "down", pos), (hold, "up", pos)]
        if double:
            again = hold + self.rng.randrange(60, 250) * MS
            steps += [(again, "down", pos), (again + self.rng.randrange(80, 200) * MS, "up", pos)]
        return Plan(name, steps)

    def tap_act(self, frame: Frame, kind: str, value: object = ..., double: bool = False) -> Plan | None:
        double = double or self.rng.random() < 0.12      # a double tap: the second lands on what came next
        return self.tap(frame, lambda a: a.kind == kind and (value is ... or a.value == value),
                        f"tap {kind}{'' if value is ... else f' {value}'}", double)

    def keys(self, *keys: int) -> Plan:
        steps: list[tuple[int, str, Any]] = []
        t = 0
        for key in keys:
            hold = self.rng.randrange(80, 201) * MS
            steps += [(t, "keydown", key), (t + hold, "keyup", key)]
            t += hold + self.rng.randrange(60, 250) * MS
        return Plan("keys " + " ".join(pygame.key.name(k) for k in keys), steps)

    def seat(self, seat: int, hold_ms: int | None = None, keyboard: bool = False) -> Plan:
        hold = (hold_ms if hold_ms is not None else self.rng.randrange(80, 301)) * MS
        if keyboard:
            return Plan(f"seat key {seat + 1}", [(0, "keydown", SEAT_KEYS[seat]), (hold, "keyup", SEAT_KEYS[seat])])
        return Plan(f"seat button {seat + 1}", [(0, "press", seat), (hold, "release", seat)])

    def card_entry(self, frame: Frame, verb: str, card: Card) -> Plan | None:
        """A card named by a tap on its button, or by its number and kind on the keyboard."""
        if self.rng.random() < 0.65:
            plan = self.tap_act(frame, verb, card)
            if plan is not None:
                return plan
        return self.keys(DIGIT_KEYS_BY[card.number], KEY_OF_KIND[card.kind] if self.rng.random() < 0.8 or
                         card.kind is not Kind.NUMBER else pygame.K_RETURN)

    def idle(self, frame: Frame) -> Plan:
        return Plan("reads on", [])

    def mistake(self, frame: Frame) -> Plan | None:
        rng = self.rng
        t = self.app.table
        r = rng.random()
        if r < 0.25 and frame.hotspots:
            spot = rng.choice(frame.hotspots)          # a wrong button (or a double tap on it)
            if spot.act.kind in ("yes",):
                return None
            pos = inside(rng, spot)
            plan = Plan(f"wrong tap {spot.act.kind}", [(0, "down", pos), (rng.randrange(80, 301) * MS, "up", pos)])
            if rng.random() < 0.4:
                plan.steps += [(400 * MS, "down", pos), (520 * MS, "up", pos)]
            return plan
        if r < 0.3:
            return self.keys(pygame.K_ESCAPE) if t.seated and t.stage is not Stage.GAME_OVER else None
        if r < 0.35 and frame.hotspots:
            spot = rng.choice(frame.hotspots)          # two hands at once: a tap and Enter
            pos = inside(rng, spot)
            return Plan(f"tap {spot.act.kind} and Enter at once", [
                (0, "down", pos), (0, "keydown", pygame.K_RETURN), (120 * MS, "up", pos),
                (150 * MS, "keyup", pygame.K_RETURN)])
        if r < 0.45 and frame.screen in ("play", "spider", "penalty", "deal"):
            return self.tap_act(frame, "undo") or self.keys(pygame.K_u)
        if r < 0.6 and frame.screen in ("play", "spider"):
            return self.keys(pygame.K_SPACE) if rng.random() < 0.6 else self.tap_act(frame, "caught")
        if r < 0.72 and frame.screen == "play":
            cards = [c for c in _wrong_cards(t)]
            if cards:
                return self.card_entry(frame, "play", rng.choice(cards))
        if r < 0.85 and t.seated:
            seat = rng.choice(t.seated)               # a seat pressed at the wrong moment
            return self.seat(seat, keyboard=rng.random() < 0.4)
        keys = [pygame.K_d, pygame.K_x, pygame.K_r, pygame.K_v, pygame.K_g, pygame.K_i, pygame.K_RETURN,
                pygame.K_3, pygame.K_k, pygame.K_e, pygame.K_l]
        return self.keys(rng.choice(keys))

    # the screens ---------------------------------------------------------------------------

    def on_join(self, frame: Frame, t: Any) -> Plan | None:
        rng = self.rng
        want = self.intent.setdefault("seats", sorted(rng.sample(range(5), self.players)))
        missing = [s for s in want if s not in t.seated]
        if missing:
            if rng.random() < 0.2:
                return self.seat(missing[0], keyboard=True)
            if rng.random() < 0.15:
                return self.tap_act(frame, "seat", missing[0])
            steps: list[tuple[int, str, Any]] = []    # the group sits down, each at their own pace
            for s in missing:
                down = rng.randrange(0, 1_200) * MS
                steps += [(down, "press", s), (down + rng.randrange(80, 301) * MS, "release", s)]
            return Plan("the group sits down", steps)
        if rng.random() < 0.08:
            return self.tap_act(frame, "keyboard")
        return self.keys(pygame.K_RETURN) if rng.random() < 0.5 else self.tap_act(frame, "start")

    def on_keyboard(self, frame: Frame, t: Any) -> Plan | None:
        r = self.rng.random()
        if r < 0.4:
            return self.tap_act(frame, "key_skip")
        if r < 0.6:
            return self.tap_act(frame, "key")
        if r < 0.8:
            return self.keys(pygame.K_ESCAPE)
        return self.tap_act(frame, "key_ok")

    def on_oldest(self, frame: Frame, t: Any) -> Plan | None:
        seat = self.rng.choice(t.seated)
        return self.seat(seat, keyboard=self.rng.random() < 0.3)

    def on_deal(self, frame: Frame, t: Any) -> Plan | None:
        starts = [c.starter for c in legal_commands(t.game) if isinstance(c, ec.StartRound)]
        if not starts:
            return None
        return self.card_entry(frame, "starter", self.rng.choice(starts))

    def on_play(self, frame: Frame, t: Any) -> Plan | None:
        rng = self.rng
        g = t.game
        legal = legal_commands(g)
        plays = [c.card for c in legal if isinstance(c, ec.PlayCard) and not c.last_card]
        outs = [c.player for c in legal if isinstance(c, ec.DeclareOut)]
        going = self.intent.get("out")
        if going is not None and going in outs and rng.random() < 0.9:
            return self.tap_act(frame, "out_menu")
        if outs and rng.random() < self.intent.setdefault("out_rate", rng.choice((0.05, 0.15, 0.35))):
            q = rng.choice(outs)
            if rng.random() < 0.3:                      # a long press of their button
                return Plan(f"long press seat {t.seated[q] + 1}", [(0, "press", t.seated[q]),
                                                                   (rng.randrange(900, 1_500) * MS, "release", t.seated[q])])
            self.intent["out"] = q
            return self.keys(pygame.K_e, DIGIT_KEYS_BY[q + 1]) if rng.random() < 0.3 else self.tap_act(frame, "out_menu")
        if t.pending_out is not None:
            return self.seat(t.seated[t.pending_out[0]])  # the short press that confirms "out"
        r = rng.random()
        if r < 0.15 or not plays:
            pick = rng.random()
            if pick < 0.5:
                return self.tap_act(frame, "draw")
            if pick < 0.75:
                return self.keys(pygame.K_d)
            return self.seat(t.seated[g.active], keyboard=rng.random() < 0.3)
        return self.card_entry(frame, "play", rng.choice(plays))

    def on_out(self, frame: Frame, t: Any) -> Plan | None:
        if any(h.act.kind == "out_yes" for h in frame.hotspots):
            self.intent.pop("out", None)
            if self.rng.random() < 0.85:
                return self.tap_act(frame, "out_yes") if self.rng.random() < 0.7 else self.keys(pygame.K_RETURN)
            return self.tap_act(frame, "out_no")
        q = self.intent.get("out")
        if q is None:
            return self.tap_act(frame, "back")
        return self.tap_act(frame, "out", q) or self.tap_act(frame, "back")

    def on_spider(self, frame: Frame, t: Any) -> Plan | None:
        g = t.game
        others = [q for q in range(t.players) if q != g.gift_from]
        q = self.rng.choice(others)
        r = self.rng.random()
        if r < 0.45:
            return self.tap_act(frame, "give", q)
        if r < 0.75:
            return self.seat(t.seated[q])
        return self.keys(DIGIT_KEYS_BY[q + 1])

    def on_race(self, frame: Frame, t: Any) -> Plan | None:
        race = t.race
        if race is None:
            return None
        if race.asking:
            return self.tap_act(frame, "rearm") if self.rng.random() < 0.6 else self.tap_act(frame, "cancel")
        if race.result is not None:
            laid = [c for c in legal_commands(t.game) if isinstance(c, ec.DecideRace) and c.card is not None]
            cards = sorted({c.card for c in laid}, key=lambda c: (c.kind.value, c.number))
            if cards and self.rng.random() < 0.8:
                return self.card_entry(frame, "laid", self.rng.choice(cards))
            return self.tap_act(frame, "void") or self.keys(pygame.K_v)
        return None                         # waiting for GO; the racers press by themselves

    def on_photo(self, frame: Frame, t: Any) -> Plan | None:
        return self.result(frame, t, undo=True)

    def on_verdict(self, frame: Frame, t: Any) -> Plan | None:
        return self.result(frame, t)

    def on_summary(self, frame: Frame, t: Any) -> Plan | None:
        return self.result(frame, t)

    def result(self, frame: Frame, t: Any, undo: bool = False) -> Plan | None:
        rng = self.rng
        r = rng.random()
        if undo and r < 0.08:
            return self.tap_act(frame, "undo") or self.keys(pygame.K_u)
        if r < 0.55:
            return self.tap_act(frame, "dismiss", double=rng.random() < 0.25)
        if r < 0.75:
            return self.keys(pygame.K_RETURN)
        if t.seated:
            seat = rng.choice(t.seated)
            if rng.random() < 0.5:
                # a late slap, then the same hand again once the screen has been up a while
                return Plan(f"late slap {seat + 1}, then Continue", [
                    (0, "press", seat), (rng.randrange(60, 200) * MS, "release", seat),
                    (1_600 * MS, "press", seat), (1_750 * MS, "release", seat)])
            return self.seat(seat, keyboard=rng.random() < 0.3)
        return None

    def on_undo_race(self, frame: Frame, t: Any) -> Plan | None:
        r = self.rng.random()
        if r < 0.55:
            return self.tap_act(frame, "undo_no")
        if r < 0.75:
            return self.keys(pygame.K_ESCAPE if self.rng.random() < 0.5 else pygame.K_n)
        return self.tap_act(frame, "undo_yes") if r < 0.9 else self.keys(pygame.K_y)

    def on_quit(self, frame: Frame, t: Any) -> Plan | None:
        return self.tap_act(frame, "no") if self.rng.random() < 0.6 else self.keys(pygame.K_ESCAPE)

    def on_settings(self, frame: Frame, t: Any) -> Plan | None:
        return self.tap_act(frame, "back") if self.rng.random() < 0.6 else self.keys(pygame.K_ESCAPE)

    def on_pick(self, frame: Frame, t: Any) -> Plan | None:
        g = t.game
        others = [q for q in range(t.players) if q != g.guard]
        q = self.rng.choice(others)
        r = self.rng.random()
        if r < 0.45:
            return self.seat(t.seated[q])   # the guard presses the accused's button
        if r < 0.7:
            return self.tap_act(frame, "accuse", q)
        if r < 0.9:
            return self.keys(DIGIT_KEYS_BY[q + 1])
        return self.tap_act(frame, "cancel") or self.keys(pygame.K_x)

    def on_vote(self, frame: Frame, t: Any) -> Plan | None:
        rng = self.rng
        d = t.dispute
        if d is None:
            return None
        judges = [q for q in range(t.players) if q not in (d.guard, d.accused)]
        r = rng.random()
        if r < 0.5 and judges:
            steps: list[tuple[int, str, Any]] = []
            for q in rng.sample(judges, rng.randrange(1, len(judges) + 1)):
                down = rng.randrange(0, 800) * MS
                steps += [(down, "press", t.seated[q]), (down + rng.randrange(80, 301) * MS, "release", t.seated[q])]
            return Plan("judges vote", steps)
        if r < 0.75:
            return self.tap_act(frame, "rule", rng.random() < 0.5)
        if r < 0.85:
            return self.keys(rng.choice((pygame.K_g, pygame.K_i)))
        return None                         # nobody votes: the window runs out

    def on_penalty(self, frame: Frame, t: Any) -> Plan | None:
        rng = self.rng
        g = t.game
        open_rows = [q for q, e in enumerate(g.entries) if e is None]
        if not open_rows:
            return None
        if t.correction is not None and rng.random() < 0.5:
            plan = self.tap_act(frame, "correct_count")
            if plan is not None:
                return plan
        q = open_rows[0] if rng.random() < 0.7 else rng.choice(open_rows)
        form = self.app.ui.penalty_form.get(q, [0, 0, 0])
        refused = self.app.ui.notice(self.rig.t_ns) is not None
        if sum(form) > g.hands[q] or (refused and sum(form) and rng.random() < 0.7):
            # More cards than the official count, or a row the table refused (more of a kind
            # than the deck has left): the group reads the footer and takes some off.
            minus = [h for h in frame.hotspots if h.act.kind == "penalty_add" and isinstance(h.act.value, tuple)
                     and h.act.value[0] == q and h.act.value[2] == -1 and form[h.act.value[1]] > 0]
            if minus:
                spot = rng.choice(minus)
                return Plan(f"penalty - row {q + 1}", [(0, "down", inside(rng, spot)),
                                                       (rng.randrange(80, 200) * MS, "up", inside(rng, spot))])
        if rng.random() < 0.4 and sum(form) < g.hands[q]:
            plus = [h for h in frame.hotspots if h.act.kind == "penalty_add" and isinstance(h.act.value, tuple)
                    and h.act.value[0] == q and h.act.value[2] == 1]
            if plus:
                spot = rng.choice(plus)
                steps: list[tuple[int, str, Any]] = []
                at = 0
                for _ in range(rng.randrange(1, 4)):
                    pos = inside(rng, spot)
                    steps += [(at, "down", pos), (at + rng.randrange(80, 200) * MS, "up", pos)]
                    at += rng.randrange(300, 500) * MS
                return Plan(f"penalty + row {q + 1}", steps)
        if rng.random() < 0.2:
            return self.keys(pygame.K_RETURN)
        return self.tap_act(frame, "penalty_ok", q)

    def on_game_over(self, frame: Frame, t: Any) -> Plan | None:
        return None


@dataclass
class Plan:
    name: str
    steps: list[tuple[int, str, Any]]


DIGIT_KEYS_BY = {d: k for k, d in DIGIT_KEYS.items()}


def _noop(sure: bool) -> None:
    pass


def _same_button(exp: Expect, edge: object) -> bool:
    assert exp.seat is not None
    kind, seat = exp.seat
    if kind == "caught":
        return isinstance(edge, CaughtPress if exp.press else CaughtRelease)
    return isinstance(edge, Press if exp.press else Release) and edge.player == seat


def _match(expects: list[Expect], i: int, fed: list[object], j: int,
           chosen: list[Outcome] | None = None) -> list[Outcome] | None:
    """One outcome per event, in order, that together are exactly ``fed`` (None: no such choice);
    a release goes where its press went."""
    chosen = [] if chosen is None else chosen
    if i == len(expects):
        return list(chosen) if j == len(fed) else None
    exp = expects[i]
    for outcome in exp.outcomes:
        if exp.pair is not None:
            k = next(n for n, e in enumerate(expects) if e is exp.pair)
            if (chosen[k] == NOTHING) != (outcome == NOTHING):
                continue
        n = len(outcome)
        if j + n <= len(fed) and all(p.matches(e) for p, e in zip(outcome, fed[j:j + n])):
            found = _match(expects, i + 1, fed, j + n, [*chosen, outcome])
            if found is not None:
                return found
    return None


def hit(frame: Frame, pos: tuple[int, int]) -> Hotspot | None:
    """The button drawn on top under ``pos`` (the last drawn wins)."""
    for spot in reversed(frame.hotspots):
        if spot.rect.collidepoint(pos):
            return spot
    return None


def inside(rng: random.Random, spot: Hotspot) -> tuple[int, int]:
    r = spot.rect
    return rng.randrange(r.left, max(r.left + 1, r.right)), rng.randrange(r.top, max(r.top + 1, r.bottom))


def _wrong_cards(t: Any) -> Iterator[Card]:
    g = t.game
    if not g.discard:
        return
    top = g.discard[-1].number
    for n in range(1, 6):
        if n != top and abs(n - top) not in (1, 4):
            yield Card(Kind.NUMBER, n)
