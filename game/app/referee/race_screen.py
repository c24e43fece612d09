"""The referee race screen: the preset's rule before a race, "Wait for it…" while armed, a huge
GO!, the photo finish with the result in words, why a race runs again, and the statistics
chart; the host's buttons and the tally per player. Draws a :class:`RaceView`; changes nothing.

Words come from the catalogs with the players' names, built from the result's structured
fields; the result's ``reason`` (English, seat numbers from 0) is never shown to the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pygame

from ...i18n.lookup import decimal
from ...judge import RaceResult, format_gap, format_ms, judge
from ...race import RaceKind
from ...referee.presets import FalseStartRule, GoSource, Outcome
from ...referee.race import Place, RefereeResult, Rerun
from ...referee.session import Phase, Session
from ..ui import theme
from ..ui.actions import Act
from ..ui.paint import Painter
from ..ui.photo_board import VOIDED, board_of
from ..ui.screens_photo import LOSER_ROW, WINNER_ROW, photo_finish, place_text
from .race_chart import draw_stats

MS = 1_000_000
#: The tally sits in the header beside the title while each chip gets this much (480-px
#: units); more racers get a strip of their own under the header.
TALLY_CHIP_MIN = 96


@dataclass(frozen=True, slots=True)
class RaceView:
    """What the race screen draws: the session, a name per seat, the time on the session's
    clock, the latest notice (a refusal or the link, in the footer) and whether the statistics
    chart is up instead of the race."""

    session: Session
    names: tuple[str, ...]
    now_ns: int
    notice: str = ""
    stats: bool = False
    kiosk: bool = False             # a café's kiosk: a Settings button (the staff gate), no Esc

    def name(self, seat: int) -> str:
        """The seat's player's name (a seat without one: its number, from 1)."""
        return self.names[seat] if seat < len(self.names) else str(seat + 1)


@dataclass(frozen=True, slots=True)
class _Frame:
    header: pygame.Rect
    tally: pygame.Rect | None          # None: the tally is in the header
    body: pygame.Rect
    buttons: pygame.Rect
    footer: pygame.Rect


@dataclass(frozen=True, slots=True)
class _Racers:
    """The session's seats as the photo finish asks for them (a seat is its own colour)."""

    names: tuple[str, ...]
    players: int

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(range(self.players))

    def name(self, player: int) -> str:
        return self.names[player] if player < len(self.names) else str(player + 1)


def draw_race(p: Painter, v: RaceView) -> None:
    p.fill(theme.BG)
    f = _frame(p, v)
    _header(p, v, f.header, tally_inside=f.tally is None and not v.stats)
    if f.tally is not None:
        _tally(p, v, f.tally)
    if v.stats:
        draw_stats(p, v, f.body)
    else:
        _race(p, v, f.body)
    _buttons(p, v, f.buttons)
    p.fill(theme.PANEL, f.footer)
    room = f.footer.inflate(-p.px(20), -p.px(6))
    words = v.notice or _keys(p, v, room)
    # A notice too long even at the smallest size (a refusal quoting a long reason) is cut with
    # "…" rather than drawn over the edge.
    p.text(words, room, 22, theme.WARN if v.notice else theme.DIM, cut=bool(v.notice))


# -- frame -----------------------------------------------------------------------------------

def _frame(p: Painter, v: RaceView) -> _Frame:
    s = v.session
    head_h = p.px(56 if p.portrait else 48)
    foot_h = p.px(64 if p.portrait else 38)
    header = pygame.Rect(0, 0, p.width, head_h)
    footer = pygame.Rect(0, p.height - foot_h, p.width, foot_h)
    tally: pygame.Rect | None = None
    top = head_h
    # The statistics chart has a wins column: no tally above it.
    if not v.stats:
        # Beside the title while the chips get their room and the title stays one line of at
        # least 22 px (a café's preset name may be 32 letters long).
        chips_w = _tally_w(p) - _tally_caption(p, v)[1]
        title_w = p.width - _tally_w(p) - p.px(40)
        in_header = not p.portrait and chips_w // max(1, len(s.racers)) >= p.px(TALLY_CHIP_MIN) and \
            p.fonts.size(p.typeset(_title(p, v)), p.px(22))[0] <= title_w
        if not in_header:
            rows = -(-len(s.racers) // _tally_per_row(p, len(s.racers), _strip_w(p, v)))
            tally = pygame.Rect(0, head_h, p.width, rows * p.px(42) + p.px(6))
            top = tally.bottom
    rows = len(_button_rows(p, _acts(p, v)))
    buttons_h = rows * p.px(60)
    buttons = pygame.Rect(p.px(8), footer.y - buttons_h - p.px(4), p.width - p.px(16), buttons_h)
    body = pygame.Rect(p.px(8), top + p.px(8), p.width - p.px(16), buttons.y - top - p.px(14))
    return _Frame(header, tally, body, buttons, footer)


def _tally_w(p: Painter) -> int:
    return p.width * 3 // 5 - p.px(10)


def _strip_w(p: Painter, v: RaceView) -> int:
    """The tally strip's room for chips (beside its caption)."""
    return p.width - p.px(16) - _tally_caption(p, v)[1]


def _tally_caption(p: Painter, v: RaceView) -> tuple[str, int]:
    """What the tally counts ("Wins", or "Losses" for a last-loses preset) and its width."""
    words = p.t("ref_tally" if v.session.preset.outcome is Outcome.FIRST_WINS else "ref_race_losses")
    return words, p.fonts.size(p.typeset(words), p.px(20))[0] + p.px(10)


def _tally_per_row(p: Painter, racers: int, width: int) -> int:
    """Chips per row of the tally strip (and of the presses while a race runs) in ``width``:
    one row while chips get 120 px (480-px units), else two balanced rows (eight racers at
    800×480: four and four); two to a row in portrait."""
    if p.portrait:
        return min(racers, 2)
    rows = 1 if width // max(1, racers) >= p.px(120) else 2
    return -(-racers // rows)


def _names(p: Painter, v: RaceView, seats: Sequence[int]) -> str:
    """"Bea", "Bea and Cem", "Bea, Cem and Dan" in the screen's language."""
    names = [v.name(seat) for seat in seats]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + p.t("word_and") + names[-1]


def _ms(p: Painter, ns: int) -> str:
    """A time to the µs with the language's decimal mark, never broken before its unit."""
    return decimal(p.lang, format_ms(ns)).replace(" ", "\u00a0")


def _gap(p: Painter, ns: int) -> str:
    return decimal(p.lang, format_gap(ns)).replace(" ", "\u00a0")


# -- header and tally ------------------------------------------------------------------------

def _title(p: Painter, v: RaceView) -> str:
    """The preset's name, the race's number and, over the chart, "Statistics"."""
    title = v.session.preset.name(p.lang)
    if v.session.number:
        title += " · " + p.t("ref_races", number=v.session.number)
    if v.stats:
        title += " · " + p.t("ref_stats")
    return title


def _header(p: Painter, v: RaceView, box: pygame.Rect, tally_inside: bool) -> None:
    s = v.session
    p.fill(theme.PANEL, box)
    pad = p.px(10)
    width = (box.width - _tally_w(p) - 4 * pad) if tally_inside else box.width - 2 * pad
    # One line as a rule; a café's 32-letter preset name over the chart in portrait takes two.
    p.text(_title(p, v), pygame.Rect(pad, box.y, width, box.height), 26, theme.WARN, align="left")
    if tally_inside:
        right = pygame.Rect(box.right - _tally_w(p) - pad, box.y + p.px(5), _tally_w(p), box.height - p.px(10))
        _chips(p, v, right, per_row=len(s.racers))


def _tally(p: Painter, v: RaceView, box: pygame.Rect) -> None:
    p.fill(theme.PANEL, box)
    _chips(p, v, box.inflate(-p.px(16), -p.px(6)), _tally_per_row(p, len(v.session.racers), _strip_w(p, v)))


def _chips(p: Painter, v: RaceView, box: pygame.Rect, per_row: int) -> None:
    """What is counted, then each racer's chip: the name and the count (wins, or losses for
    last-loses presets). The race on screen's winners or losers are framed."""
    s = v.session
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    caption, caption_w = _tally_caption(p, v)
    p.text(caption, pygame.Rect(box.x, box.y, caption_w - p.px(6), box.height), 20, theme.DIM, align="left",
           wrap=False)
    box = pygame.Rect(box.x + caption_w, box.y, box.width - caption_w, box.height)
    rows = -(-len(s.racers) // per_row)
    row_h = box.height // rows
    col_w = box.width // per_row
    shown = s.result if s.phase is Phase.DECIDED and s.result is not None else None
    framed = set(shown.winners if first_wins else shown.losers) if shown else set()
    for i, seat in enumerate(s.racers):
        chip = pygame.Rect(box.x + (i % per_row) * col_w, box.y + (i // per_row) * row_h, col_w, row_h)
        chip = chip.inflate(-p.px(6), -p.px(4))
        p.fill(theme.seat_colour(seat), chip, radius=8)
        if seat in framed:
            p.frame(theme.TEXT, chip, 3, radius=8)
        count = s.wins(seat) if first_wins else s.losses(seat)
        count_w = max(p.px(34), chip.width // 4)
        inner = chip.inflate(-p.px(10), -p.px(2))
        p.text(v.name(seat), pygame.Rect(inner.x, inner.y, inner.width - count_w, inner.height), 22,
               theme.BLACK, align="left", cut=True)
        p.text(str(count), pygame.Rect(inner.right - count_w, inner.y, count_w, inner.height), 26, theme.BLACK,
               align="right", wrap=False)


# -- the race --------------------------------------------------------------------------------

def _race(p: Painter, v: RaceView, box: pygame.Rect) -> None:
    s = v.session
    if s.phase is Phase.ARMED:
        _armed(p, v, box)
    elif s.phase is Phase.RUNNING:
        _running(p, v, box)
    elif s.phase is Phase.DECIDED and s.result is not None:
        _decided(p, v, s.result, box)
    elif s.result is not None and s.result.rerun:
        _rerun(p, v, s.result, box)
    else:
        p.fill(theme.PANEL, box, radius=12)
        inner = box.inflate(-p.px(24), -p.px(16))
        rule = pygame.Rect(inner.x, inner.y, inner.width, inner.height * 2 // 3)
        p.text(s.preset.screen(p.lang), rule, 44, theme.TEXT)
        hint = pygame.Rect(inner.x, rule.bottom, inner.width, inner.bottom - rule.bottom)
        p.text(p.t("ref_race_press_start"), hint, 30, theme.WARN)


def _armed(p: Painter, v: RaceView, box: pygame.Rect) -> None:
    """Waiting for the rig's GO. Nothing here may hint when GO comes: no countdown, and an
    early press's time (measured to the GO due) is not shown, only who it was."""
    s = v.session
    p.fill(theme.PANEL_HI, box, radius=12)
    inner = box.inflate(-p.px(24), -p.px(16))
    early = sorted({e.seat for e in s.result.false_starts}) if s.result is not None else []
    early_h = p.px(48) if early else 0
    big = pygame.Rect(inner.x, inner.y, inner.width, (inner.height - early_h) * 3 // 5)
    p.text(p.t("ref_race_wait"), big, 96, theme.WARN, wrap=False)
    rule = pygame.Rect(inner.x, big.bottom, inner.width, inner.bottom - early_h - big.bottom)
    p.text(s.preset.screen(p.lang), rule, 30, theme.TEXT)
    if early:
        line = pygame.Rect(inner.x, inner.bottom - early_h, inner.width, early_h)
        p.fill(theme.BAD, line, radius=10)
        p.text(p.t("ref_race_early", players=_names(p, v, early)), line.inflate(-p.px(12), -p.px(4)), 30,
               theme.BLACK)


def _running(p: Painter, v: RaceView, box: pygame.Rect) -> None:
    """A rig race: GO! as large as the screen allows, the time left to press under it. A table
    race (a card flipped is GO): the race is live, the preset's rule. The racers' chips below
    light up as their presses come in."""
    s = v.session
    race = s.race
    assert race is not None
    per_row = _tally_per_row(p, len(s.racers), box.width)
    rows = -(-len(s.racers) // per_row)
    strip_h = rows * p.px(60)
    top = pygame.Rect(box.x, box.y, box.width, box.height - strip_h - p.px(8))
    strip = pygame.Rect(box.x, top.bottom + p.px(8), box.width, strip_h)
    if s.preset.go is GoSource.RIG:
        p.fill(theme.GO_GREEN, top, radius=16)
        bar_h = p.px(14)
        p.text(p.t("ref_go"), top.inflate(-p.px(24), -p.px(12) - 2 * bar_h), 220, theme.BLACK, wrap=False)
        # Time left to press, as a bar that empties (rig GO has passed: nothing left to hide).
        total = race.deadline_t_ns - (race.armed_t_ns if race.go_t_ns is None else race.go_t_ns)
        left = max(0, min(total, race.deadline_t_ns - v.now_ns))
        bar = pygame.Rect(top.x + p.px(24), top.bottom - bar_h - p.px(10), top.width - p.px(48), bar_h)
        p.fill(theme.PANEL, bar, radius=6)
        if left:
            p.fill(theme.BLACK, pygame.Rect(bar.x, bar.y, max(1, bar.width * left // max(1, total)), bar.height),
                   radius=6)
    else:
        p.fill(theme.PANEL, top, radius=16)
        inner = top.inflate(-p.px(16), -p.px(12))
        banner = pygame.Rect(inner.x, inner.y, inner.width, inner.height * 2 // 5)
        p.fill(theme.GO_GREEN, banner, radius=12)
        p.text(p.t("ref_race_live"), banner.inflate(-p.px(16), -p.px(6)), 64, theme.BLACK)
        rule = pygame.Rect(inner.x, banner.bottom + p.px(6), inner.width, inner.bottom - banner.bottom - p.px(6))
        p.text(s.preset.screen(p.lang), rule, 36, theme.TEXT)
    _press_chips(p, v, strip, per_row)


def _press_chips(p: Painter, v: RaceView, box: pygame.Rect, per_row: int) -> None:
    """A chip per racer: lit with the reaction (or the place, for a table race) once its press
    is in, dim while waiting, red when out (early, or voided by the table)."""
    s = v.session
    r = s.result
    places = {pl.seat: pl for pl in r.places} if r is not None else {}
    out = set(r.out) | {e.seat for e in r.false_starts} if r is not None else set()
    rows = -(-len(s.racers) // per_row)
    row_h = box.height // max(1, rows)
    col_w = box.width // per_row
    for i, seat in enumerate(s.racers):
        cell = pygame.Rect(box.x + (i % per_row) * col_w, box.y + (i // per_row) * row_h, col_w, row_h)
        chip = cell.inflate(-p.px(6), -p.px(6))
        place = places.get(seat)
        lit = place is not None
        p.fill(theme.seat_colour(seat) if lit else theme.PANEL_HI, chip, radius=8)
        inner = chip.inflate(-p.px(10), -p.px(2))
        ink = theme.BLACK if lit else theme.DIM
        # The name on top, its time (or place, or OUT) under it: a chip a quarter of 800 px
        # wide has no room for both on one line.
        top = pygame.Rect(inner.x, inner.y, inner.width, inner.height // 2)
        bottom = pygame.Rect(inner.x, top.bottom, inner.width, inner.height - top.height)
        p.text(v.name(seat), top, 22, ink, align="left", cut=True)
        if place is not None:
            figure = _ms(p, place.reaction_ns) if place.reaction_ns is not None else place_text(p, place.place)
            p.text(figure, bottom, 22, theme.BLACK, align="right", wrap=False)
        elif seat in out:
            p.text(p.t("ref_race_out"), bottom, 22, theme.BAD, align="right", wrap=False)


# -- a decided race, or one to run again -----------------------------------------------------

def _decided(p: Painter, v: RaceView, r: RefereeResult, box: pygame.Rect) -> None:
    s = v.session
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    deciding = r.winners if first_wins else r.losers
    colour = theme.seat_colour(deciding[0]) if len(deciding) == 1 else theme.WARN
    banner = pygame.Rect(box.x, box.y, box.width, p.px(58))
    p.fill(colour, banner, radius=12)
    p.text(_headline(p, v, r), banner.inflate(-p.px(16), -p.px(6)), 40, theme.BLACK)
    rest = pygame.Rect(box.x, banner.bottom + p.px(6), box.width, box.bottom - banner.bottom - p.px(6))
    details = _details(p, v, r)
    if details:
        line = pygame.Rect(rest.x, rest.y, rest.width, _lines_h(p, details, rest.width - p.px(8), 24))
        p.text(details, line.inflate(-p.px(8), 0), 24, theme.TEXT)
        rest = pygame.Rect(rest.x, line.bottom + p.px(4), rest.width, rest.bottom - line.bottom - p.px(4))
    _result_board(p, v, r, rest)


def _rerun(p: Painter, v: RaceView, r: RefereeResult, box: pygame.Rect) -> None:
    """Why the race runs again, and the hint to run it; a tie's photo shows how close it was."""
    hint_h = _lines_h(p, p.t("ref_race_press_again"), box.width, 30)
    photo = _photo_result(v.session) if r.rerun_why is Rerun.TIE and r.places else None
    tie_photo = photo is not None and _photo_fits(p, v.session, photo, box.height - p.px(70) - hint_h)
    banner_h = p.px(64) if tie_photo else (box.height - hint_h) * 3 // 5
    banner = pygame.Rect(box.x, box.y, box.width, banner_h)
    p.fill(theme.WARN, banner, radius=12)
    p.text(_rerun_words(p, v, r), banner.inflate(-p.px(20), -p.px(8)), 44, theme.BLACK)
    if tie_photo:
        hint = pygame.Rect(box.x, box.bottom - hint_h, box.width, hint_h)
        assert photo is not None
        _photo(p, v, photo, pygame.Rect(box.x, banner.bottom + p.px(6), box.width, hint.y - banner.bottom - p.px(12)))
    else:
        # No photo (a false start, nobody in time): the hint in the middle of what is left.
        below = pygame.Rect(box.x, banner.bottom + p.px(8), box.width, box.bottom - banner.bottom - p.px(8))
        p.fill(theme.PANEL, below, radius=12)
        hint = pygame.Rect(below.x, below.centery - hint_h // 2, below.width, hint_h)
    p.text(p.t("ref_race_press_again"), hint.inflate(-p.px(16), 0), 30, theme.WARN)


def _lines_h(p: Painter, words: str, width: int, px: float) -> int:
    """The height ``words`` take at ``px`` (480-px units) wrapped to ``width``: one line, or
    two where one is not enough (a long name in French, a portrait screen)."""
    size = p.px(px)
    lines, _, _ = p.layout_text(words, pygame.Rect(0, 0, width, 10 * p.fonts.line_height(size)), size, size)
    return min(2, len(lines)) * p.fonts.line_height(size) + p.px(8)


def _rerun_words(p: Painter, v: RaceView, r: RefereeResult) -> str:
    if r.rerun_why is Rerun.TIE:
        group = r.ties[-1 if v.session.preset.outcome is Outcome.LAST_LOSES else 0] if r.ties else ()
        return p.t("ref_race_rerun_tie", players=_names(p, v, group or [pl.seat for pl in r.places]))
    if r.rerun_why is Rerun.FALSE_START:
        early = sorted({e.seat for e in r.false_starts})
        return p.t("ref_false_start_restart", player=_names(p, v, early))
    if not r.timeouts and r.out and set(r.racers) <= set(r.out):
        return p.t("ref_race_all_voided")
    return p.t("ref_nobody")


def _place_of(r: RefereeResult, seat: int) -> Place | None:
    return next((pl for pl in r.places if pl.seat == seat), None)


def _headline(p: Painter, v: RaceView, r: RefereeResult) -> str:
    """Who won (or lost) in words: the time when it is a reaction to the rig's GO, the margin
    when GO was the table's."""
    first_wins = v.session.preset.outcome is Outcome.FIRST_WINS
    early = {e.seat for e in r.false_starts}
    deciding = r.winners if first_wins else r.losers
    if len(deciding) > 1:
        shared = any(set(deciding) <= set(tie) for tie in r.ties)
        if first_wins:
            return p.t("ref_winners" if shared else "ref_race_winners", players=_names(p, v, deciding))
        if not shared and set(deciding) <= early:
            return p.t("ref_race_false_start_lost", players=_names(p, v, deciding))
        return p.t("ref_race_losers", players=_names(p, v, deciding))
    if not deciding:
        return p.t("ref_nobody")
    seat = deciding[0]
    name = v.name(seat)
    place = _place_of(r, seat)
    if first_wins:
        if place is None:
            return p.t("ref_race_won", player=name)     # everyone else false-started
        if place.reaction_ns is not None:
            return p.t("ref_wins", player=name, reaction=_ms(p, place.reaction_ns))
        after = [pl for pl in r.places if pl.place > place.place]
        if after:
            return p.t("ref_race_won_by", player=name, gap=_gap(p, after[0].gap_ns))
        return p.t("ref_race_won", player=name)
    if seat in early:
        return p.t("ref_race_false_start_lost", players=name)
    if seat in r.timeouts or place is None:
        return p.t("ref_race_lost_no_press", player=name)
    if place.reaction_ns is not None:
        return p.t("ref_loses", player=name, reaction=_ms(p, place.reaction_ns))
    return p.t("ref_race_lost", player=name)


def _details(p: Painter, v: RaceView, r: RefereeResult) -> str:
    """What else the table should know: false starts the headline did not name, and the
    presses the table voided (the photo finish leaves those out, see :func:`_photo_result`)."""
    s = v.session
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    named = set(r.winners if first_wins else r.losers)
    early = sorted({e.seat for e in r.false_starts} - (named if not first_wins else set()))
    parts = []
    if early:
        key = "ref_race_false_start_lost" if s.preset.false_start is FalseStartRule.LOSES else \
            "ref_race_false_start_out"
        parts.append(p.t(key, players=_names(p, v, early)))
    voided = s.race.voided if s.race is not None else ()
    if voided:
        parts.append(p.t("ref_race_voided", players=_names(p, v, voided)))
    return "  ·  ".join(parts)


def _result_board(p: Painter, v: RaceView, r: RefereeResult, box: pygame.Rect) -> None:
    """The photo finish when its rows fit; else one line per racer (eight racers under a
    header, a tally and the buttons at 800×480 leave too little height for its two-line rows)."""
    photo = _photo_result(v.session)
    if _photo_fits(p, v.session, photo, box.height):
        _photo(p, v, photo, box)
    else:
        _list(p, v, r, box)


def _photo_result(s: Session) -> tuple[RaceResult, RaceKind]:
    """The judge's evidence of the race on screen, with the referee's decision put in: the
    winner (first wins) or loser (last loses) when there is one, the tie at the deciding place.
    Presses the table voided are left out: the photo finish names them "no card", the main
    game's reason, and a wrong slap is not that (the details line names them). A seat that
    was not needed (locked out by the first press) is not shown as "no press"."""
    race, r = s.race, s.result
    assert race is not None and r is not None
    now = max([s.now_t_ns, race.armed_t_ns, *(e.t_ns for e in s.edges)])
    evidence = judge(race.spec, s.edges, now)
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    deciding = r.winners if first_wins else r.losers
    single = deciding[0] if len(deciding) == 1 else None
    tied = next((tie for tie in r.ties if set(deciding) & set(tie)), r.ties[0] if r.rerun and r.ties else ())
    shown_missing = set(r.timeouts) | set(deciding)
    result = replace(evidence, winner=single if first_wins else None, loser=None if first_wins else single,
                     tied=tuple(tied), ignored=tuple(i for i in evidence.ignored if i.why != VOIDED),
                     no_press=tuple(seat for seat in evidence.no_press if seat in shown_missing))
    return result, RaceKind.COCKROACH if first_wins else RaceKind.SLAP


def _photo_fits(p: Painter, s: Session, photo: tuple[RaceResult, RaceKind], height: int) -> bool:
    assert s.race is not None
    entries = len(board_of(photo[0], photo[1], s.race.go_t_ns).entries)
    # The photo finish's rows are two lines of at least the smallest text, its axis a line.
    row = 2 * p.fonts.line_height(p.min_px) + p.px(6)
    return entries * row + p.fonts.line_height(p.px(20)) + p.px(24) <= height


def _photo(p: Painter, v: RaceView, photo: tuple[RaceResult, RaceKind], box: pygame.Rect) -> None:
    s = v.session
    assert s.race is not None
    # A race the table starts (bell-slap) has no GO: its times count from the start, and "ms
    # after GO" under them would be untrue.
    axis = None if s.preset.go is GoSource.RIG else p.t("ref_axis_from_start")
    photo_finish(p, _Racers(v.names, s.seats), box, photo[0], photo[1], s.race.go_t_ns, axis)


def _list(p: Painter, v: RaceView, r: RefereeResult, box: pygame.Rect) -> None:
    """The board on one line per racer: place, name, time, gap to the one before, a badge."""
    s = v.session
    race = s.race
    assert race is not None
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    deciding = set(r.winners if first_wins else r.losers)
    tied = {seat for tie in r.ties for seat in tie}
    rows: list[tuple[int, str, str, str, str, theme.RGB]] = []   # seat, place, time, gap, badge, colour
    for pl in r.places:
        since_go = pl.t_ns - (race.go_t_ns if race.go_t_ns is not None else race.armed_t_ns)
        reading = _ms(p, pl.reaction_ns if pl.reaction_ns is not None else since_go)
        gap = "+" + _gap(p, pl.gap_ns) if pl.gap_ns else ""
        badge, colour = "", theme.WARN
        if pl.seat in deciding:
            badge = p.t("ui_fastest" if first_wins else "ui_slowest").upper()
        elif pl.seat in tied:
            badge = p.t("ui_tie").upper()
        rows.append((pl.seat, place_text(p, pl.place), reading, gap, badge, colour))
    listed = {row[0] for row in rows}
    for seat in dict.fromkeys([e.seat for e in r.false_starts] + list(r.out) + list(r.timeouts)):
        if seat in listed:
            continue
        if seat in {e.seat for e in r.false_starts}:
            badge, colour = p.t("ui_false_start").upper(), theme.BAD
        elif seat in r.out:
            badge, colour = p.t("ref_race_out"), theme.BAD
        else:
            badge, colour = p.t("ui_no_press").upper(), theme.PANEL_HI
        rows.append((seat, "", "—", "", badge, colour))
    p.fill(theme.PANEL, box, radius=12)
    inner = box.inflate(-p.px(12), -p.px(8))
    # One column while rows of two lines' height fit; else two (a full table in landscape),
    # the gap and the badge sharing the last cell: the badge where there is one, else the
    # gap; the deciding gap (the loser's, or the runner-up's behind the winner) before the
    # decisive row's badge, which its row's colour and the headline already say.
    deciding_gap = _deciding_gap_seat(r, first_wins)
    cols = 1 if inner.height // max(1, len(rows)) >= p.px(36) or p.portrait else 2
    per_col = -(-len(rows) // cols)
    row_h = min(p.px(48), inner.height // max(1, per_col))
    col_w = inner.width // cols
    # Two columns: the times and the gaps get the room ("487.000 ms" is wider in the Korean
    # font), the cells a narrower margin.
    widths = (0.08, 0.26, 0.24, 0.18, 0.24) if cols == 1 else (0.12, 0.20, 0.34, 0.0, 0.34)
    margin = p.px(6 if cols == 1 else 3)
    for i, (seat, place, reading, gap, badge, colour) in enumerate(rows):
        row = pygame.Rect(inner.x + (i // per_col) * col_w, inner.y + (i % per_col) * row_h, col_w, row_h)
        if seat in deciding:
            p.fill(WINNER_ROW if first_wins else LOSER_ROW, row.inflate(-p.px(4), 0), radius=8)
        xs = [row.x + p.px(4)]
        for w in widths:
            xs.append(xs[-1] + int((row.width - p.px(8)) * w))
        cells = [pygame.Rect(xs[c], row.y, xs[c + 1] - xs[c], row.height).inflate(-margin, -p.px(4))
                 for c in range(len(widths))]
        p.text(place, cells[0], 22, theme.TEXT, align="left", wrap=False)
        p.chip(cells[1], seat, v.name(seat), px=22)
        p.text(reading, cells[2], 24, theme.TEXT, align="right", wrap=False)
        if cols == 1:
            p.text(gap, cells[3], 20, theme.DIM, align="right", wrap=False)
        elif gap and (not badge or seat == deciding_gap):
            p.text(gap, cells[4], 20, theme.TEXT if seat == deciding_gap else theme.DIM, align="right", wrap=False)
            continue
        pill = cells[4]
        # The deciding row's badge only where it fits: the row's colour and the headline say it.
        if badge and (seat not in deciding or p.layout_text(badge, pill.inflate(-p.px(8), 0), p.px(20),
                                                            wrap=False)[2]):
            p.fill(colour, pill, radius=min(pill.height // 2, p.px(16)))
            p.text(badge, pill.inflate(-p.px(8), 0), 20, theme.BLACK if colour != theme.BAD else theme.TEXT,
                   cut=True)


def _deciding_gap_seat(r: RefereeResult, first_wins: bool) -> int | None:
    """The seat whose gap to the one before decided the race: the runner-up behind a single
    winner, or a single loser."""
    if first_wins and len(r.winners) == 1:
        after = sorted((pl for pl in r.places if pl.place > 1), key=lambda pl: pl.place)
        return after[0].seat if after else None
    if not first_wins and len(r.losers) == 1:
        return r.losers[0]
    return None


# -- buttons and keys ------------------------------------------------------------------------

def _acts(p: Painter, v: RaceView) -> list[tuple[str, Act, theme.RGB, theme.RGB]]:
    """The host's buttons, left to right: the chart, voiding the winner (a wrong slap), start
    (or, while a race is armed or running, calling it off)."""
    s = v.session
    acts = [(p.t("ref_race_back" if v.stats else "ref_stats"), Act("stats"), theme.BUTTON, theme.BUTTON_TEXT)]
    if v.kiosk:
        # The kiosk's staff gate (its PIN keypad) for a touch-only table, as the card game's
        # header has it.
        acts.insert(0, (p.t("ui_settings"), Act("settings"), theme.BUTTON, theme.BUTTON_TEXT))
    if s.phase is Phase.DECIDED and s.preset.table_may_void and s.result is not None:
        for seat in s.result.winners:
            acts.append((p.t("ref_race_void_button", player=v.name(seat)), Act("void", seat), theme.WARN,
                         theme.BLACK))
    if s.phase in (Phase.READY, Phase.DECIDED):
        if s.phase is Phase.DECIDED:
            label = p.t("ref_next")
        elif s.result is not None and s.result.rerun:
            label = p.t("ref_race_again")
        else:
            label = p.t("ref_race_start")
        acts.append((label, Act("start"), theme.GO_GREEN, theme.BLACK))
    else:
        # A race that cannot go on (a bell-slap round the table gave up on, GO that never
        # came): a touch screen needs the C key's way out too.
        acts.append((p.t("ref_race_call_off"), Act("call_off"), theme.BAD, theme.BLACK))
    return acts


def _button_rows(p: Painter, acts: list[tuple[str, Act, theme.RGB, theme.RGB]]) -> list[list[int]]:
    """Indices of ``acts`` per row: one row in landscape; in portrait two to a row, the void
    buttons (a name in them) on rows of their own."""
    if not p.portrait:
        return [list(range(len(acts)))]
    voids = [i for i, a in enumerate(acts) if a[1].kind == "void"]
    others = [i for i, a in enumerate(acts) if a[1].kind != "void"]
    return [[i] for i in voids] + [others]


def _buttons(p: Painter, v: RaceView, box: pygame.Rect) -> None:
    acts = _acts(p, v)
    rows = _button_rows(p, acts)
    h = box.height // len(rows)
    for r, row in enumerate(rows):
        # A void button carries a name: it gets twice the room of the others.
        weights = [2 if acts[i][1].kind == "void" else 1 for i in row]
        x = box.x
        for i, weight in zip(row, weights):
            w = box.width * weight // sum(weights)
            label, act, colour, ink = acts[i]
            p.button(pygame.Rect(x, box.y + r * h, w, h), label, act, colour=colour, ink=ink, px=26)
            x += w


def _keys(p: Painter, v: RaceView, room: pygame.Rect) -> str:
    """The keyboard's keys for this moment (the app binds them; C calls off a race that cannot
    go on), as many as fit the footer: quitting is left out first, then the chart (its button
    says it too)."""
    s = v.session
    parts = []
    if s.phase in (Phase.READY, Phase.DECIDED):
        parts.append(p.t("ref_race_keys_start"))
    if s.phase is Phase.DECIDED and s.preset.table_may_void and s.result is not None and s.result.winners:
        parts.append(p.t("ref_race_keys_void"))
    if s.phase in (Phase.ARMED, Phase.RUNNING):
        parts.append(p.t("ref_race_keys_call_off"))
    parts.append(p.t("ref_race_keys_race" if v.stats else "ref_race_keys_stats"))
    if not v.kiosk:                       # a kiosk is not quit from a keyboard
        parts.append(p.t("ref_race_keys_quit"))
    while len(parts) > 1 and key_lines(p, parts, room, p.px(22)) is None:
        parts.pop()
    return key_lines(p, parts, room, p.px(22)) or "  ·  ".join(parts)


#: Between two key hints on a line: a wide gap, and no line break on either side of the dot.
KEY_SEPARATOR = "\u00a0\u00a0·\u00a0\u00a0"


def key_lines(p: Painter, parts: Sequence[str], room: pygame.Rect, px: int) -> str | None:
    """Key hints on as few lines as fit ``room`` at the largest size from ``px`` down to the
    smallest: a line breaks only between two hints, never inside one ("S: zurück zum Rennen"
    split after "S: zurück", "경주로 / 돌아가기") nor beside a separator (a dot left at a line's
    end); None if they do not fit at any size."""
    whole = [part.replace(" ", "\u00a0") for part in parts]
    size = px
    while True:
        lines: list[str] = []
        for part in whole:
            trial = f"{lines[-1]}{KEY_SEPARATOR}{part}" if lines else part
            if lines and p.fonts.size(p.typeset(trial), size)[0] <= room.width:
                lines[-1] = trial
            else:
                lines.append(part)
        shown = "\n".join(lines)
        if p.layout_text(shown, room, size, size)[2]:
            return shown
        if size <= p.min_px:
            return None
        size = max(p.min_px, size - max(1, size // 12))
