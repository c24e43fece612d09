"""Referee races on a screen: the imperative shell around :func:`game.referee.session.step`.

Inputs: button edges from the input adapter (the board's or the kernel's stamps; keyboard seats
stamped when the loop reads them), GO stamped by the adapter when the session's fore-period
ends, the host's taps and keys, the guard's red button as the host's start, and ticks when a
race's deadline or settle time falls due. Every input goes to ``record`` (the session's log)
before its effects run, so a pulled plug loses nothing that was shown.

Effects: ``Arm`` to the adapter (the racers' lights flash, held buttons are seen by the
session), ``ScheduleGo`` kept until due and then ``adapter.go``, seat lights, tones, wake-ups,
and refusals in the footer.

Host controls: the touch screen's buttons; keys (:data:`.keys.RACE_KEYS`, each bound only while
its button is shown) Space or Enter (or the red button) start the next race, V voids the
winner's press where the preset lets the table correct a wrong slap, C or Backspace calls off
the race running (nothing counted), S shows the statistics, Esc leaves (asking first once a
race has a result or one is armed: "Leave the races?", Enter or Y leaves, Esc or N stays;
leaving prints the tally to the terminal; a kiosk has no Esc). No host key is a keyboard
seat's (T, once the statistics, is seat 2's). A tap or key means what the frame on the glass
showed (:mod:`.glass`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

import pygame

from firmware_host.errors import AdapterError

from ...controller.effects import Arm, Effect, Leds, ScheduleGo
from ...controller.inputs import Tick
from ...i18n.lookup import render, text
from ...inputs import CaughtPress, CaughtRelease, Go, Press, Release
from ...messages import Message
from ...referee.presets import Outcome
from ...referee.session import CallOff, Phase, Session, SessionInput, Start, Void, leds, step
from ..ui.actions import Act
from ..ui.adapters import Detected
from ..ui.fonts import Fonts
from ..ui.paint import Painter
from ..ui.sound import Sounds
from .keys import race_keys
from .leave_screen import LeaveView
from .race_screen import RaceView, draw_race
from .shell import SETTLE_NS, RefereeShell


@dataclass(frozen=True, slots=True)
class PendingGo:
    """GO the session asked for: race ``race`` at ``t_ns`` on the adapter's clock."""

    race: int
    t_ns: int
    seats: tuple[int, ...]


class RaceApp(RefereeShell):
    link_lost_key = "ref_board_gone_race"

    def __init__(self, *, detected: Detected, session: Session, names: tuple[str, ...], lang: str, fonts: Fonts,
                 surface: pygame.Surface, sounds: Sounds, say: Callable[[str], None] | None = None,
                 record: Callable[[SessionInput], None] | None = None, kiosk: bool = False,
                 settle_ns: int = SETTLE_NS, gate: Callable[[Act], None] | None = None,
                 out: Callable[[str], None] | None = None) -> None:
        super().__init__(detected=detected, names=names, lang=lang, fonts=fonts, surface=surface, sounds=sounds,
                         say=say, settle_ns=settle_ns, gate=gate, out=out)
        self.session = session
        self.record = record
        self.go: PendingGo | None = None
        self.board_race: int | None = None    # the board's number for the race it has armed
        self.stats = False
        self.kiosk = kiosk          # the kiosk's: its staff gate has a button, Esc does not quit

    # -- inputs --------------------------------------------------------------------------------

    def feed(self, event: SessionInput) -> None:
        if self.record is not None:
            self.record(event)
        racing = self.session.phase in (Phase.ARMED, Phase.RUNNING)
        self.session, effects = step(self.session, event)
        for effect in effects:
            self.perform(effect)
        if racing and self.session.phase not in (Phase.ARMED, Phase.RUNNING):
            self.race_over()

    def race_over(self) -> None:
        """The race is decided, to be run again, or called off: the buzzer board is told, so
        that link trouble later does not void a race that stands (its ``finish``; the GPIO rig
        and keyboard seats have nothing to tell). Its buttons keep reporting: a bell-slap's next
        hands still come in."""
        finish = getattr(self.adapter, "finish", None)
        if callable(finish):
            try:
                finish()
            except AdapterError as exc:     # the link is down: said already when it went
                if self.say is not None:
                    self.say(f"note: the board was not told the race is over: {exc}")
        self.board_race = None

    def perform(self, effect: Effect) -> None:
        if isinstance(effect, Arm):
            self.go = None
            try:
                report = self.adapter.arm(effect.seats)
            except AdapterError as exc:     # said; GO is still given when due, or fails and is said
                self.note(str(exc))
            else:
                self.board_race = getattr(report, "race", None)
        elif isinstance(effect, ScheduleGo):
            self.go = PendingGo(effect.race, effect.t_ns, effect.seats)
        else:
            super().perform(effect)

    def lights(self) -> Leds:
        """The seat lights the session shows now (sent whole to a replugged board)."""
        return leds(self.session)

    def host(self, act: Act) -> None:
        """A host's tap or key, stamped now on the input's clock."""
        now = self.adapter.now_ns()
        if act.kind == "start":
            self.feed(Start(now))
        elif act.kind == "void" and isinstance(act.value, int):
            self.feed(Void(act.value, now))
        elif act.kind == "call_off":
            self.feed(CallOff(now))
        elif act.kind == "stats":
            self.stats = not self.stats

    def seat_count(self) -> int:
        return self.session.seats

    def poll(self) -> None:
        """Edges from the adapter (the red button is the host's start), GO when due, then ticks."""
        self.watch_link()
        for record in self.drain():
            if isinstance(record, (Press, Release)):
                if record.player < self.session.seats:
                    self.feed(record)
            elif isinstance(record, CaughtPress):
                # The host's start, but not while "Leave?" is up: the race is not on the screen.
                if self.session.phase in (Phase.READY, Phase.DECIDED) and not self.asking:
                    self.host(Act("start"))
            elif not isinstance(record, CaughtRelease):
                self.lost_edges(record)
        pending = self.go
        if pending is not None and self.adapter.now_ns() >= pending.t_ns:
            self.go = None
            s = self.session
            if s.phase is Phase.ARMED and s.number == pending.race:   # else called off (a restart)
                try:
                    go: Go = self.adapter.go(pending.seats)
                except AdapterError as exc:
                    # GO was not shown (unplugged, or the board voided the race): a race without
                    # GO cannot be judged, so it is called off and the next start runs a fresh one.
                    self.feed(CallOff(self.adapter.now_ns()))
                    self.note(render(Message.of("ref_race_go_failed"), self.lang))
                    if self.say is not None:
                        self.say(f"note: GO failed: {exc}")
                else:
                    self.feed(go)
        now = self.due_tick()
        if now is not None:
            self.feed(Tick(max(now, self.session.now_t_ns)))

    def lost_edges(self, record: object) -> None:
        """The board lost edges (its ``RaceVoided``: the link dropped, it restarted, a stamp it
        could not trust): a race armed or running has holes in its evidence, so it is called off
        and counts for nothing; the host starts it again."""
        patience_s = getattr(record, "patience_s", None)
        if patience_s is not None:  # the board's BoardAway: gone for the rig's whole patience
            # A race armed or running cannot get its GO or its presses: called off, the tally kept;
            # the host starts the next one once the board is back.
            if self.session.phase in (Phase.ARMED, Phase.RUNNING):
                self.feed(CallOff(self.adapter.now_ns()))
            self.note(render(Message.of("ref_board_gone_long", seconds=f"{patience_s:g}"), self.lang))
            if self.say is not None:
                self.say(f"note: {getattr(record, 'message', record)}")
            return
        words = render(Message.of("ui_race_voided"), self.lang)
        voided = getattr(record, "race", None)
        if voided is not None and self.board_race is not None and voided != self.board_race:
            # A void of a race already over (its message came late): the race now running is
            # another and stands.
            if self.say is not None:
                self.say(f"note: {record!r} (an earlier race)")
            return
        if self.session.phase in (Phase.ARMED, Phase.RUNNING):
            self.feed(CallOff(self.adapter.now_ns()))
        self.note(words)
        if self.say is not None:
            self.say(f"note: {record!r}")

    def next_due_ns(self) -> int | None:
        """GO asked of the adapter, or a tick, whichever is sooner."""
        due = [t for t in (self.go.t_ns if self.go else None, super().next_due_ns()) if t is not None]
        return min(due) if due else None

    # -- output --------------------------------------------------------------------------------

    def screen(self) -> Hashable:
        """A new race, phase, view or result is a new screen (a void that passes the race to the
        next hand too: the void button then names another player)."""
        s = self.session
        r = s.result if s.phase is Phase.DECIDED else None
        return ("race", s.phase, s.number, self.stats, r.winners if r is not None else (),
                r.losers if r is not None else ())

    def keys(self) -> Mapping[int, Act]:
        return race_keys(self.session, kiosk=self.kiosk)

    def paint(self, p: Painter, now: int) -> None:
        draw_race(p, RaceView(self.session, self.names, now, self.notice_words(now), self.stats, self.kiosk))

    # -- leaving -------------------------------------------------------------------------------

    def at_stake(self) -> bool:
        """A race has a result (counted or run again), or one is armed or running."""
        return bool(self.session.results) or self.session.phase in (Phase.ARMED, Phase.RUNNING)

    def _tally(self, sep: str, space: str = " ") -> tuple[str, str]:
        """What the tally counts (its catalog key: wins, or losses for a last-loses preset) and
        each racer's count (``space`` between a name and its count)."""
        s = self.session
        wins = s.preset.outcome is Outcome.FIRST_WINS
        counts = sep.join(f"{self.player(seat)}{space}{s.wins(seat) if wins else s.losses(seat)}" for seat in s.racers)
        return ("ref_tally" if wins else "ref_race_losses"), counts

    def leave_view(self) -> LeaveView:
        counted, tally = self._tally(" · ", "\u00a0")     # a name is never parted from its count
        words = [text(self.lang, "ref_leave_race_ask", counted=text(self.lang, counted), tally=tally)]
        if self.record is not None:       # logged (--db): the next start resumes it
            words.append(text(self.lang, "ref_leave_race_kept"))
        if self.session.phase in (Phase.ARMED, Phase.RUNNING):
            words.append(text(self.lang, "ref_leave_race_open"))
        return LeaveView(text(self.lang, "ref_leave_race_title"), " ".join(words))

    def final_lines(self) -> list[str]:
        s = self.session
        decided = len(s.decided)
        again = len(s.results) - decided
        head = f"{s.preset.name('en')}: {decided} race{'' if decided == 1 else 's'} decided"
        if again:
            head += f", {again} run again"
        if s.phase in (Phase.ARMED, Phase.RUNNING):
            head += "; the race under way does not count"
        counted, tally = self._tally(", ")
        return [head, f"{'Wins' if counted == 'ref_tally' else 'Losses'}: {tally}"]
