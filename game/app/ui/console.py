"""The console: touch, mouse and keys become controller inputs (stamped on the input adapter's
clock) or changes to what the screen shows. One module owns the event queue's meaning.

Touch: FINGERDOWN/FINGERUP only; SDL also synthesises mouse events from touch (``event.touch``
is true) and those are ignored, or every tap would count twice.

Keys (see KEYS_HELP): keyboard seats press and release like the wired buttons; the console
shortcuts mirror every button on screen.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from typing import Any

import pygame

from ...cards import Card, Kind
from ...controller.names import check as name_problem
from ...i18n.hangul import backspace
from ...controller import Stage, Table
from ...controller import inputs as console
from ...controller.inputs import Input
from ...i18n import LANGUAGES
from ...inputs import CaughtPress, CaughtRelease, Press, Release
from ...variants import Rules
from . import keyboard
from .actions import Act, Hotspot
from .render import Frame
from .state import DIAL_DELETE, DIAL_SEAT, KEEP_SEAT, PENALTY_FIELDS, PIN_DIGITS, RESULT_SCREENS, UiState, own_layout

#: Keyboard seats 1-7 (far apart, so several people can share one keyboard), by seat.
SEAT_KEYS: tuple[int, ...] = (pygame.K_q, pygame.K_t, pygame.K_p, pygame.K_z, pygame.K_b, pygame.K_j, pygame.K_w)
#: Card kinds after a number key: N or Enter number card, M moth, A ant, S spider, C cockroach, O mosquito.
KIND_KEYS: dict[int, Kind] = {
    pygame.K_n: Kind.NUMBER, pygame.K_RETURN: Kind.NUMBER, pygame.K_KP_ENTER: Kind.NUMBER,
    pygame.K_m: Kind.MOTH, pygame.K_a: Kind.ANT, pygame.K_s: Kind.SPIDER,
    pygame.K_c: Kind.COCKROACH, pygame.K_o: Kind.MOSQUITO,
}
DIGITS: dict[int, int] = {getattr(pygame, f"K_{d}"): d for d in range(10)}
DIGITS.update({getattr(pygame, f"K_KP{d}"): d for d in range(10)})

KEYS_HELP = """\
Keyboard seats (hold = button held): Q seat 1, T seat 2, P seat 3, Z seat 4, B seat 5, J seat 6, W seat 7
Space        the guard's red Caught! button
1-5 then N/Enter, M, A, S, C, O   the card: number, moth, ant, spider, cockroach, mosquito
             (deal: the starter; turn: the card played; cockroach race: the card laid)
D draw       U undo       X cancel (race or accusation)      V the cockroach winner has no match
R run the race again (nobody answered it, or the buttons lost presses)
E then 1-5   player n has no cards left (out): Enter confirms, Esc does not
K            that was my last card: the next card entered is played as the player's last
1-5          pick the accused (Caught!), the spider's recipient (0: only moths)
G guilty     I not guilty (overrides the vote)
Enter        start the game (seating) / new game (game over) / go on (photo finish, verdict)
Arrows, +/-, 0-9, Enter   round end: choose a player and a field, set it, confirm the row
F1 or Tab    settings      L next language      F11 full screen      Esc back / quit
In a café (kiosk mode) F1/Tab open the staff PIN keypad: 0-9, Backspace clear, Enter OK,
Esc back; Esc never quits. The keypad the button combination opens (Space + Q held) is typed
with the seats too: Q turns the dial, T keeps its digit, Space is OK."""


def key_label(key: int) -> str:
    return pygame.key.name(key).upper()


class Console:
    """Turns pygame events into inputs. ``clock`` reads the input adapter's clock (ns)."""

    def __init__(self, ui: UiState, clock: Callable[[], int], clock_name: str,
                 seat_keys: Sequence[int] = SEAT_KEYS, seats: int = 5) -> None:
        self.ui = ui
        self.clock = clock
        self.seat_keys = {key: seat for seat, key in enumerate(seat_keys[:seats])}
        self.ui.seat_keys = tuple(key_label(k) for k in seat_keys[:seats])
        self._fingers: dict[int, int] = {}     # finger id -> seat held by that finger
        self._mouse_seat: int | None = None
        self._buttons_down: set[int] = set()   # seat keys and Space that pressed, not yet let go
        self._out_pending = False
        self.clock_name = clock_name
        self.quit = False
        self.toggle_fullscreen = False
        #: A tap or key acted since the frame on the glass was presented: the rest that came
        #: before the next frame were aimed at a screen that is no longer true (the app resets
        #: it when it presents a frame). Two taps on Continue in one frame dismiss one result.
        self.acted = False
        #: Kiosk mode: what the staff acts do (the PIN's OK, the staff menu's buttons); the app
        #: sets it. Without it those acts do nothing.
        self.staff: Callable[[Act], list[Input]] | None = None

    def new_screen(self) -> None:
        """Another screen is on the glass: the first key of a two-key entry typed at the one
        before (a card's number, E for "out") means nothing here; "4" typed on one player's
        turn must not become the next player's card, nor "E" on the play screen pick a racer."""
        self._out_pending = False
        self.ui.pending_number = None

    # -- events --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, frame: Frame, table: Table, live: bool = True) -> list[Input]:
        """The inputs ``event`` makes on ``frame``, the screen on the glass. ``live`` False: that
        screen has just come up and takes no tap or key yet (glass.py); its seat keys still
        press (the glass places the press by its stamp)."""
        kind = event.type
        if kind == pygame.FINGERDOWN:
            surface = pygame.display.get_surface()
            w, h = surface.get_size() if surface is not None else (1, 1)
            return self._tap((int(event.x * w), int(event.y * h)), frame, table, event.finger_id, live)
        if kind == pygame.FINGERUP:
            seat = self._fingers.pop(event.finger_id, None)
            return [] if seat is None else [Release(seat, self.clock(), self.clock_name)]
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and getattr(event, "touch", False):
            return []  # synthesised from a touch: the FINGER event already counted
        if kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._tap(event.pos, frame, table, None, live)
        if kind == pygame.MOUSEBUTTONUP and event.button == 1 and self._mouse_seat is not None:
            seat, self._mouse_seat = self._mouse_seat, None
            return [Release(seat, self.clock(), self.clock_name)]
        if kind == pygame.KEYDOWN:
            if not live and event.key not in self.seat_keys and event.key != pygame.K_SPACE:
                return []
            return self._key_down(event.key, frame.screen, table)
        if kind == pygame.KEYUP:
            return self._key_up(event.key)
        if kind == pygame.TEXTINPUT and self._typing(table):
            # A physical keyboard types the name too (its input method composes Hangul).
            self.ui.keyboard_text = keyboard.typed(self.ui.keyboard_text, event.text)
            return []
        if kind == pygame.QUIT:
            # The window's close box: on a game being played it asks first, as Esc does; a
            # second close while it asks is the person insisting.
            if self.ui.quit_ask or not playing(table) or self.ui.locked:
                self.quit = not self.ui.locked or self.ui.quit_ask
            else:
                self.ui.quit_ask = True
        return []

    def _tap(self, pos: tuple[int, int], frame: Frame, table: Table, finger: int | None,
             live: bool = True) -> list[Input]:
        """A tap on ``frame``: the act of the button under it. A seat's tile presses like the
        wired button (the glass places the press by its stamp, as it does a wired one); any
        other button takes nothing until its screen is live."""
        for spot in reversed(frame.hotspots):
            if spot.rect.collidepoint(pos):
                if not live and spot.act.kind != "seat":
                    return []
                return self._hotspot(spot, table, finger)
        return []

    def _hotspot(self, spot: Hotspot, table: Table, finger: int | None) -> list[Input]:
        act = spot.act
        if act.kind == "seat" and isinstance(act.value, int):
            if finger is None:
                self._mouse_seat = act.value
            else:
                self._fingers[finger] = act.value
            return [Press(act.value, self.clock(), self.clock_name)]
        self.acted = True
        return self.perform(act, table)

    # -- keys ----------------------------------------------------------------------------

    def _typing(self, table: Table) -> bool:
        """The name keyboard is up: keys type (TEXTINPUT) instead of pressing seats."""
        ui = self.ui
        return (ui.keyboard_seat in table.seated and table.stage in (Stage.JOIN, Stage.OLDEST)
                and not (ui.settings_open or ui.pin_open or ui.staff_open))

    def _key_down(self, key: int, screen: str, table: Table) -> list[Input]:
        """A key pressed at ``screen`` (the one on the glass): it means what that screen says,
        never what a screen the table has moved on to would make of it."""
        ui = self.ui
        if screen in _ASKING:
            if key in self.seat_keys or key == pygame.K_SPACE:
                return self._button_down(key)   # a button stays a button (a race under it)
            if screen == "resume" and key == pygame.K_ESCAPE:
                ui.quit_ask = True          # Esc is no answer to "carry on?": leaving is asked
                return []
            verb = _ASKING[screen].get(_YES_NO.get(key, ""))
            return self.perform(Act(verb), table) if verb else []
        if self._typing(table):
            # Letters arrive as TEXTINPUT; a seat's key (Q, T, P…) is a letter of the name now.
            typing = {pygame.K_BACKSPACE: "key_delete", pygame.K_RETURN: "key_ok",
                      pygame.K_KP_ENTER: "key_ok", pygame.K_ESCAPE: "back"}
            return self.perform(Act(typing[key]), table) if key in typing else []
        if key in self.seat_keys or key == pygame.K_SPACE:
            return self._button_down(key)
        overlay = ui.settings_open or ui.pin_open or ui.staff_open
        if key in (pygame.K_F1, pygame.K_TAB):
            return self.perform(Act("back" if overlay else "settings"), table)
        if key == pygame.K_ESCAPE:
            if overlay or ui.out_menu or self._out_pending or ui.pending_number is not None:
                self._out_pending = False
                ui.pending_number = None
                return self.perform(Act("back"), table)
            if ui.locked:
                return []               # a café's rig is never quit from a keyboard
            if playing(table):
                ui.quit_ask = True      # "Leave the game?": a game is never lost to one key
            else:
                self.quit = True
            return []
        if key == pygame.K_F11:
            # A café's screen stays as the kiosk opened it (a guest's keyboard cannot shrink it).
            self.toggle_fullscreen = not ui.locked
            return []
        if key == pygame.K_l:
            nxt = LANGUAGES[(LANGUAGES.index(ui.lang) + 1) % len(LANGUAGES)]
            return self.perform(Act("lang", nxt), table)
        if ui.pin_open:
            act = pin_key(key)
            return self.perform(act, table) if act is not None else []
        if overlay:
            return []
        if screen in RESULT_SCREENS:
            # A result screen takes Continue and, on a photo finish that can be taken back,
            # Undo (which asks first); no key reaches the table under it.
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self.perform(Act("dismiss"), table)
            if key == pygame.K_u and screen == "photo":
                return self.perform(Act("undo"), table)
            return []
        if screen == "out":
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER) and ui.out_confirm is not None:
                return self.perform(Act("out_yes"), table)
            digit = DIGITS.get(key)
            if digit is not None and 1 <= digit <= table.players:
                return self.perform(Act("out", digit - 1), table)
            return []
        stage = table.stage
        if screen != stage.value:
            return []                   # not the table's own screen (attract, the keyboard...)
        if stage is Stage.PENALTY:
            return self._penalty_key(key, table)
        digit = DIGITS.get(key)
        if self._out_pending and digit is not None:
            self._out_pending = False
            return self.perform(Act("out", digit - 1), table) if 1 <= digit <= table.players else []
        if key == pygame.K_e and stage in (Stage.PLAY, Stage.SPIDER):
            self._out_pending = True
            return []
        if key == pygame.K_k:
            return self.perform(Act("last_card"), table)
        if digit is not None and stage is Stage.PICK and 1 <= digit <= table.players:
            return self.perform(Act("accuse", digit - 1), table)
        if digit is not None and stage is Stage.SPIDER:
            return self.perform(Act("give", None if digit == 0 else digit - 1), table)
        if digit is not None and 1 <= digit <= 5 and stage in (Stage.DEAL, Stage.PLAY, Stage.RACE):
            ui.pending_number = digit
            return []
        card_kind = KIND_KEYS.get(key)
        if card_kind is not None and ui.pending_number is not None:
            card = Card(card_kind, ui.pending_number)
            ui.pending_number = None
            verb = {Stage.DEAL: "starter", Stage.PLAY: "play", Stage.RACE: "laid"}.get(stage)
            return self.perform(Act(verb, card), table) if verb else []
        simple = {pygame.K_d: "draw", pygame.K_u: "undo", pygame.K_x: "cancel", pygame.K_v: "void",
                  pygame.K_r: "rearm"}
        if key in simple:
            return self.perform(Act(simple[key]), table)
        if key == pygame.K_g:
            return self.perform(Act("rule", True), table)
        if key == pygame.K_i:
            return self.perform(Act("rule", False), table)
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if stage is Stage.JOIN:
                return self.perform(Act("start"), table)
            if stage is Stage.GAME_OVER:
                return self.perform(Act("new_game"), table)
        return []

    def _button_down(self, key: int) -> list[Input]:
        """A keyboard seat's key or Space pressed as a button (remembered: only a key that
        pressed lets go, so a Q typed into a name sends no seat's release)."""
        self._buttons_down.add(key)
        seat = self.seat_keys.get(key)
        if seat is not None:
            return [Press(seat, self.clock(), self.clock_name)]
        return [CaughtPress(self.clock(), self.clock_name)]

    def _key_up(self, key: int) -> list[Input]:
        if key not in self._buttons_down:
            return []
        self._buttons_down.discard(key)
        seat = self.seat_keys.get(key)
        if seat is not None:
            return [Release(seat, self.clock(), self.clock_name)]
        return [CaughtRelease(self.clock(), self.clock_name)]

    def _penalty_key(self, key: int, table: Table) -> list[Input]:
        ui = self.ui
        open_rows = [q for q in range(table.players)
                     if q < len(table.game.entries) and table.game.entries[q] is None]
        if not open_rows:
            return []
        if ui.penalty_row not in open_rows:
            ui.penalty_row = open_rows[0]
        i = open_rows.index(ui.penalty_row)
        form = ui.form(ui.penalty_row)
        digit = DIGITS.get(key)
        if key == pygame.K_UP:
            ui.penalty_row = open_rows[(i - 1) % len(open_rows)]
        elif key == pygame.K_DOWN:
            ui.penalty_row = open_rows[(i + 1) % len(open_rows)]
        elif key == pygame.K_LEFT:
            ui.penalty_col = (ui.penalty_col - 1) % len(PENALTY_FIELDS)
        elif key == pygame.K_RIGHT:
            ui.penalty_col = (ui.penalty_col + 1) % len(PENALTY_FIELDS)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            form[ui.penalty_col] += 1
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            form[ui.penalty_col] = max(0, form[ui.penalty_col] - 1)
        elif digit is not None:
            form[ui.penalty_col] = digit
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.perform(Act("penalty_ok", ui.penalty_row), table)
        elif key == pygame.K_u:
            return self.perform(Act("undo"), table)
        return []

    # -- acts ----------------------------------------------------------------------------

    def _keyboard(self, act: Act, table: Table, t: int) -> list[Input]:
        """A key of the name keyboard. OK sends the name; the keyboard stays up if the table
        will refuse it (the refusal is the footer's notice) and closes once it is taken."""
        ui = self.ui
        seat = ui.keyboard_seat
        assert seat is not None
        k, v = act.kind, act.value
        if k == "key" and isinstance(v, str):
            ui.keyboard_text = keyboard.press(ui.keyboard_text, v, ui.keyboard_shift)
            ui.keyboard_shift = False
        elif k == "key_case":
            ui.keyboard_shift = not ui.keyboard_shift
        elif k == "key_layout":
            ui.keyboard_layout = "hangul" if ui.keyboard_layout == "latin" else "latin"
        elif k == "key_delete":
            ui.keyboard_text = backspace(ui.keyboard_text)
        elif k == "key_skip":
            ui.keyboard_seat = None
            if seat in dict(table.names):
                return [console.Name(seat, None, t)]
        elif k == "key_ok":
            if name_problem(table, seat, ui.keyboard_text) is None:
                ui.keyboard_seat = None
            return [console.Name(seat, ui.keyboard_text, t)]
        return []

    def gate(self, act: Act) -> list[Input] | None:
        """The staff gate's and the staff menu's acts, which need no table (the kiosk's race
        presets share them): the PIN keypad, back, and the staff acts (``staff``). None: ``act``
        is not one of them."""
        ui = self.ui
        k, v = act.kind, act.value
        if k == "settings":
            if ui.locked and not ui.staff_open:
                ui.pin_open = True       # guests meet the PIN keypad, never the settings
                ui.pin_entry = ""
                ui.pin_buttons = False   # a touch or a key opened it: the seat buttons do not type
            else:
                ui.settings_open = True
        elif k == "back":
            if ui.pin_open:
                ui.close_staff()
            elif ui.settings_open:
                ui.settings_open = False     # in the staff menu: back to its main page
            elif ui.staff_page is not None:
                if ui.staff_page == "menu":
                    ui.close_staff()
                else:
                    ui.staff_page = "menu"
            ui.out_menu = False
            ui.out_confirm = None
            ui.keyboard_seat = None
        elif k == "pin_digit" and isinstance(v, int) and ui.pin_open:
            if len(ui.pin_entry) < PIN_DIGITS:
                ui.pin_entry += str(v)
            ui.pin_note = None
        elif k == "pin_clear":
            ui.pin_entry = ""
            ui.pin_note = None
        elif k == "pin_dial" and ui.pin_open and ui.pin_buttons:
            ui.pin_dial = (ui.pin_dial + 1) % (DIAL_DELETE + 1)
            ui.pin_note = None
        elif k == "pin_keep" and ui.pin_open and ui.pin_buttons:
            if ui.pin_dial == DIAL_DELETE:
                ui.pin_entry = ui.pin_entry[:-1]     # the dial stays on Delete: press again, erase again
            elif len(ui.pin_entry) < PIN_DIGITS:
                ui.pin_entry += str(ui.pin_dial)
                ui.pin_dial = 0
            ui.pin_note = None
        elif k == "pin_ok" or k.startswith("staff_"):
            if k == "pin_ok":
                ui.pin_dial = 0
            allowed = ui.pin_open if k == "pin_ok" else ui.staff_open
            return self.staff(act) if self.staff is not None and allowed else []
        else:
            return None
        return []

    def perform(self, act: Act, table: Table) -> list[Input]:
        """The inputs for ``act`` (stamped now), after any change to the screen's own state."""
        self.acted = True
        gated = self.gate(act)
        if gated is not None:
            return gated
        ui = self.ui
        t = self.clock()
        k, v = act.kind, act.value
        if k == "keyboard" and type(v) is int:
            if table.stage in (Stage.JOIN, Stage.OLDEST) and v in table.seated:
                ui.keyboard_seat, ui.keyboard_shift = v, False
                ui.keyboard_text = dict(table.names).get(v, "")   # a typed name is mended
                ui.keyboard_layout = own_layout(ui.lang)
        elif k.startswith("key") and ui.keyboard_seat is not None:
            return self._keyboard(act, table, t)
        elif k == "lang" and isinstance(v, str) and v in LANGUAGES:
            if ui.keyboard_seat is not None and v != ui.lang:
                ui.keyboard_layout = own_layout(v)    # a Korean table types Hangul from then on
            ui.lang = v
        elif k == "variant" and isinstance(v, str):
            return [console.Configure(next_rules(table.settings.rules, v), t)]
        elif k == "dismiss":
            ui.dismiss(table, t)
        elif k == "undo" and ui.overlay(table, t) == "photo":
            ui.undo_ask = True          # a settled race is never thrown away without asking
        elif k == "undo_no":
            ui.undo_ask = False
        elif k == "undo_yes" and ui.undo_ask:
            ui.undo_ask = False
            ui.dismiss(table, t)
            return [console.UndoLast(t)]
        elif k in ("resume_yes", "resume_no") and ui.resume_ask:
            ui.resume_choice = k == "resume_yes"    # the app carries on or starts over
        elif k == "yes" and ui.quit_ask:
            self.quit = True
        elif k == "no":
            ui.quit_ask = False
        elif k == "out_menu":
            ui.out_menu = not ui.out_menu
            ui.out_confirm = None
        elif k == "out" and type(v) is int:
            # Going out ends the round for everyone: a tapped name (or E and a digit) first asks
            # "Bea is out: end round 2?", a slip of a finger must not end the round.
            if table.stage in (Stage.PLAY, Stage.SPIDER) and 0 <= v < table.players:
                ui.out_menu, ui.out_confirm = True, v
        elif k == "out_no":
            ui.out_confirm = None
        elif k == "out_yes":
            player, ui.out_confirm = ui.out_confirm, None
            if player is not None:
                ui.out_menu = False
                return [console.Out(player, t)]
        elif k == "last_card":
            g = table.game
            # Only on a turn, and never for a guard who has held the Guard Bug all round (the
            # screen greys the button out): they cannot have cheated, so their count tells.
            usable = table.stage is Stage.PLAY and not (g.active == g.guard and not g.guard_changed)
            ui.last_card = not ui.last_card and usable
        elif k == "penalty_add" and isinstance(v, tuple):
            player, field, delta = v
            form = ui.form(player)
            form[field] = max(0, form[field] + delta)
            ui.penalty_row, ui.penalty_col = player, field
        elif k == "penalty_ok" and isinstance(v, int):
            m, a, n = ui.form(v)
            return [console.Penalty(v, m, a, n, t)]
        elif k == "correct_count" and v is not None and v == table.correction:
            # The forgotten draws told, then the row that was refused for them, entered again.
            player, cards = v
            return [console.CorrectCount(player, cards, t), console.Penalty(player, *ui.form(player), t)]
        elif k == "seat" and isinstance(v, int):
            return [Press(v, t, self.clock_name), Release(v, t, self.clock_name)]
        else:
            made = _controller_input(act, table, t)
            if made is not None:
                if isinstance(made, console.Play) and ui.last_card:
                    made = replace(made, last_card=True)
                ui.last_card = False  # it was for this one card (or the turn went on another way)
                ui.out_menu = False
                return [made]
        return []


#: The screens that ask a question of their own (screens_ask.py): the act of each answer.
_ASKING: dict[str, dict[str, str]] = {
    "quit": {"yes": "yes", "no": "no"},
    "undo-race": {"yes": "undo_yes", "no": "undo_no"},
    "resume": {"yes": "resume_yes", "no": "resume_no"},
}
#: Keys that answer a yes-or-no question (leave the game? take back the result?).
_YES_NO: dict[int, str] = {pygame.K_RETURN: "yes", pygame.K_KP_ENTER: "yes", pygame.K_y: "yes",
                           pygame.K_ESCAPE: "no", pygame.K_n: "no"}


def playing(table: Table) -> bool:
    """A game is under way (someone sat down, not over yet): leaving it asks first."""
    return bool(table.seated) and table.stage is not Stage.GAME_OVER


def pin_key(key: int) -> Act | None:
    """A key on the PIN keypad: a digit, Backspace or Delete clears, Enter is OK."""
    digit = DIGITS.get(key)
    if digit is not None:
        return Act("pin_digit", digit)
    if key in (pygame.K_BACKSPACE, pygame.K_DELETE):
        return Act("pin_clear")
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        return Act("pin_ok")
    return None


def seat_pad_act(edge: object, ui: UiState, now_ns: int) -> Act | None:
    """What a button's edge does on the PIN keypad the button combination opened (the rig may
    have no touchscreen): seat 1 turns the dial, seat 2 keeps its digit (or, on Delete, erases
    the last), the Caught! button is OK, or back when nothing is typed. Presses only: the
    combination's own buttons, let go after it opened the keypad, type nothing. While the
    wrong-PIN wait runs the keypad takes nothing; the Caught! button still leaves it.
    None: the edge means nothing here (another seat, a release, another keypad)."""
    if not (ui.pin_open and ui.pin_buttons):
        return None
    waiting = now_ns < ui.pin_until_ns
    if isinstance(edge, CaughtPress):
        return Act("pin_ok") if ui.pin_entry and not waiting else Act("back")
    if isinstance(edge, Press) and not waiting:
        if edge.player == DIAL_SEAT:
            return Act("pin_dial")
        if edge.player == KEEP_SEAT:
            return Act("pin_keep")
    return None


def _controller_input(act: Act, table: Table, t: int) -> Input | None:
    k, v = act.kind, act.value
    if k == "start":
        return console.StartGame(t)
    if k == "new_game":
        return console.NewGame(t)
    if k == "draw":
        return console.Draw(t)
    if k == "caught":
        return console.CallCaught(table.game.guard, t)
    if k == "undo":
        return console.UndoLast(t)
    if k == "cancel":
        # A race's Cancel takes its card back (console.Cancel); an accusation's just drops it.
        return console.Cancel(t, take_back=table.stage is Stage.RACE)
    if k == "void":
        return console.Void(t)
    if k == "rearm":
        return console.Rearm(t)
    if k == "play" and isinstance(v, Card):
        return console.Play(v, t)
    if k == "starter" and isinstance(v, Card):
        return console.Starter(v, t)
    if k == "laid" and isinstance(v, Card):
        return console.Laid(v, t)
    if k == "give" and (v is None or isinstance(v, int)):
        return console.GiveTo(v, t)
    if k == "accuse" and isinstance(v, int):
        return console.Accuse(v, t)
    if k == "rule" and isinstance(v, bool):
        return console.Rule(v, t)
    return None


def next_rules(rules: Rules, name: str) -> Rules:
    """``rules`` with variant ``name`` moved to its next option."""
    if name not in {f.name for f in fields(Rules)} - {"deck"}:
        raise ValueError(f"variant {name!r} is not a house rule: use one of "
                         f"{', '.join(f.name for f in fields(Rules) if f.name != 'deck')}")
    current: enum.Enum = getattr(rules, name)
    options: list[enum.Enum] = list(type(current))
    changes: dict[str, Any] = {name: options[(options.index(current) + 1) % len(options)]}
    return replace(rules, **changes)
