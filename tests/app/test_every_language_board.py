"""The same board whatever the language (issue 22): the photo finish (a tie, a false start, a
sub-ms deciding gap), the cockroach's card-laid screen with its board in a strip, and the
referee's result and statistics screens draw the same columns and the same figures in all five
languages at 800×480, 1920×1080 and 720×1280. A longer word makes the layout give way (smaller
text, a badge beside the name, a cut name, a wrapped caption), never drop a figure: German,
French and Spanish had lost the statistics' spread column and the photo finish's deciding
"+400.125 µs".

Figures are read from what the Painter drew (``Painter.texts``, the photo finish's ``Drawn``)
with the language's decimal comma and no-break spaces read as the English point and space, and
compared with the figures the judge's result and the session's statistics call for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pygame
import pytest
from display_helpers import fonts, scenes

import test_referee_race_screen as referee
from game.app.referee.race_screen import RaceView, draw_race
from game.app.ui import screens_race
from game.app.ui.paint import Painter
from game.app.ui.photo_board import Board, board_of
from game.app.ui.photo_drawn import Drawn
from game.app.ui.render import draw
from game.app.ui.screens_reactions import whole_ms
from game.i18n import LANGUAGES
from game.judge import format_gap, format_ms
from game.referee.presets import Outcome
from game.referee.session import Session
from game.referee.stats import session_stats

SIZES = ((800, 480), (1920, 1080), (720, 1280))
MS = 1_000_000


def plain(text: str) -> str:
    """A drawn figure as English writes it: "201,650 ms" -> "201.650 ms"."""
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace(",", ".")


def drawn_texts(texts: Iterable[tuple[str, int]]) -> list[str]:
    return [plain(text) for text, _ in texts]


# -- the photo finish and the card-laid screen --------------------------------------------------

def photo_figures(board: Board) -> Counter[str]:
    """Every figure the board calls for: each racer's time, each gap to the one before, each
    false start's time before GO."""
    want: Counter[str] = Counter()
    for e in board.entries:
        if e.reaction_ns is not None:
            want[format_ms(e.reaction_ns)] += 1
        if e.gap_ns:       # a gap of 0 is a tie: its badge says so, never "+0 ns"
            want["+" + format_gap(e.gap_ns)] += 1
        if e.early_ns is not None and not e.held_at_go:
            want[format_ms(-e.early_ns).replace("-", "\u2212", 1)] += 1
    return want


def on_glass(monkeypatch: pytest.MonkeyPatch, scene: object, lang: str,
             size: tuple[int, int]) -> tuple[list[str], Drawn, Board, tuple[object, ...]]:
    """``scene`` drawn as the app draws it; what was drawn, the board it drew and the texts
    inside the board that overflowed (the screen's own words are the layout test's)."""
    seen: list[tuple[Drawn, Board, pygame.Rect]] = []
    real = screens_race.photo_finish

    def spy(p, racers, box, result, kind, go_t_ns):  # type: ignore[no-untyped-def]
        drawn = real(p, racers, box, result, kind, go_t_ns)
        seen.append((drawn, board_of(result, kind, go_t_ns), pygame.Rect(box)))
        return drawn

    monkeypatch.setattr(screens_race, "photo_finish", spy)
    frame = draw(pygame.Surface(size), fonts(lang), scene, lang=lang)  # type: ignore[arg-type]
    assert len(seen) == 1, (lang, size, frame.screen)
    drawn, board, box = seen[0]
    overflows = tuple(o for o in frame.overflows if box.contains(pygame.Rect(o.box)))
    return drawn_texts(frame.texts), drawn, board, overflows


@pytest.mark.parametrize("name", ["photo", "race-card"])
def test_the_photo_finish_draws_every_figure_in_every_language(monkeypatch: pytest.MonkeyPatch,
                                                               name: str) -> None:
    scene = scenes()[name]
    for size in SIZES:
        boards: dict[str, tuple[set[tuple[str, str]], set[tuple[int, str]]]] = {}
        for lang in LANGUAGES:
            texts, drawn, board, overflows = on_glass(monkeypatch, scene, lang, size)
            where = (name, lang, size)
            assert overflows == (), (where, overflows)
            # Every figure the result calls for is on the glass, whole (a false start's badge
            # carries its time: "FALSE START −312.500 ms").
            want = photo_figures(board)
            assert not [text for text in texts if text.startswith("+0 ns")], (where, texts)
            for figure, count in want.items():
                assert sum(figure in text for text in texts) >= count, (where, figure, texts)
            # The deciding gap on the board itself, in its row, not only in the close-up.
            notes = [plain(text) for role, text, _ in drawn.texts if role == "note"]
            if board.deciding_gap_ns is not None:
                assert "+" + format_gap(board.deciding_gap_ns) in notes, (where, notes)
            boards[lang] = ({(role, plain(text)) for role, text, _ in drawn.texts if role in ("time", "note")},
                            {(player, key) for player, key, _ in drawn.badges})
        # The same board in every language: the same times, the same gaps, the same badges.
        for lang, board_drawn in boards.items():
            assert board_drawn == boards["en"], (name, size, lang)


def test_the_demo_photo_has_what_this_test_is_about() -> None:
    """The demo's photo finish is the hard case: a tie, a false start, a deciding gap under a
    millisecond (so the close-up is drawn too)."""
    photo = scenes()["photo"]
    result = photo.table.last_race
    assert result is not None and photo.table.last_race_kind is not None
    board = board_of(result, photo.table.last_race_kind, photo.ui.photo_go_ns)
    assert any(e.tie for e in board.entries)
    assert any(e.early_ns is not None for e in board.entries)
    assert board.close_up and board.deciding_gap_ns is not None and board.deciding_gap_ns < MS


# -- the referee's screens ----------------------------------------------------------------------

def stats_figures(s: Session) -> Counter[str]:
    """Every figure the statistics call for: each racer's best, median and spread (to the whole
    ms), wins or losses, false starts."""
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    want: Counter[str] = Counter()
    for st in session_stats(s.results, s.racers):
        if st.seat not in s.racers:
            continue
        for ns in (st.best_ns, st.median_ns, st.iqr_ns):
            want[whole_ms(ns)] += 1
        want[str(st.wins if first_wins else st.losses)] += 1
        want[str(st.false_starts)] += 1
    return want


def painted(s: Session, lang: str, size: tuple[int, int], stats: bool) -> Painter:
    p = Painter(pygame.Surface(size), fonts(lang), lang)
    draw_race(p, RaceView(s, referee.NAMES, s.now_t_ns + 50 * MS, "", stats))
    return p


STATS = ("duel-false-start", "grab8-decided", "last5-decided", "last3-tie")


@pytest.mark.parametrize("moment", STATS)
def test_the_statistics_draw_every_column_in_every_language(moment: str) -> None:
    s = referee.MOMENTS[moment]
    want = stats_figures(s)
    captions = ("ref_best", "ref_median", "ref_spread", "ref_false_starts",
                "ref_tally" if s.preset.outcome is Outcome.FIRST_WINS else "ref_race_losses")
    for size in SIZES:
        for lang in LANGUAGES:
            p = painted(s, lang, size, stats=True)
            where = (moment, lang, size)
            assert p.overflows == [], (where, p.overflows)
            drawn = Counter(text for text in drawn_texts(p.texts))
            # Each figure as often as the racers call for it (a "0" is also a count, so at least).
            missing = {figure: n for figure, n in want.items() if drawn[plain(figure)] < n}
            assert not missing, (where, missing)
            shown = {text for text, _ in p.texts}
            assert all(p.t(key) in shown for key in captions), (where, [p.t(k) for k in captions])


def deciding_gap(s: Session) -> str | None:
    """The gap the race on screen turned on: the runner-up's behind a single winner, or a
    single loser's behind the one before."""
    r = s.result
    assert r is not None
    first_wins = s.preset.outcome is Outcome.FIRST_WINS
    placed = sorted(r.places, key=lambda pl: pl.place)
    if first_wins and len(r.winners) == 1 and len(placed) > 1:
        gap = placed[1].gap_ns
    elif not first_wins and len(r.losers) == 1:
        gap = next((pl.gap_ns for pl in placed if pl.seat == r.losers[0]), None)
    else:
        return None
    return "+" + format_gap(gap) if gap else None


RESULTS = ("duel-decided", "grab3-decided", "grab8-decided", "last5-decided", "last8-decided")


@pytest.mark.parametrize("moment", RESULTS)
def test_the_referee_result_draws_every_time_and_the_deciding_gap(moment: str) -> None:
    s = referee.MOMENTS[moment]
    r = s.result
    assert r is not None and s.race is not None
    times = [format_ms(pl.reaction_ns) for pl in r.places if pl.reaction_ns is not None]
    gap = deciding_gap(s)
    assert times and (gap is not None or len(r.places) < 2), moment
    for size in SIZES:
        for lang in LANGUAGES:
            p = painted(s, lang, size, stats=False)
            where = (moment, lang, size)
            assert p.overflows == [], (where, p.overflows)
            texts = drawn_texts(p.texts)
            for figure in times:
                assert any(figure in text for text in texts), (where, figure)
            if gap is not None:
                assert gap in texts, (where, gap, texts)
