"""The photo finish as a timing board: places, reactions, gaps, badges, the deciding pair, the
close-up, an axis whose labels never collide — read from the judge's real decisions on chosen
presses, and checked from the rectangles the Painter covered (never from pixels) at every size
the rig is built for, in every language."""

from __future__ import annotations

import copy
from dataclasses import replace

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from game.app.ui.axis import axis_ticks, decimals_for, tick_label
from game.app.ui.common import Scene, header
from game.app.ui.paint import Painter
from game.app.ui.photo_board import Board, board_of
from game.app.ui.render import draw
from game.app.ui.photo_drawn import Drawn
from game.app.ui.screens_photo import photo_finish
from game.app.ui.staged_race import shows_tie_and_false_start, staged_photo
from game.app.ui.state import Shown, UiState
from game.controller import TableSettings, new_table
from game.i18n import LANGUAGES
from game.inputs import Press, Release
from game.judge import RaceResult, RaceSpec, TiePolicy, judge
from game.race import RaceKind

from display_helpers import fonts

MS = 1_000_000
GO = 5_000 * MS
#: Every screen the rig is built for, portrait included.
ALL_SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))


def press(player: int, after_go_ns: int) -> Press:
    return Press(player, GO + after_go_ns, "sim")


def release(player: int, after_go_ns: int) -> Release:
    return Release(player, GO + after_go_ns, "sim")


def race(kind: RaceKind, players: int, edges: list[Press | Release], *, active: int = 0,
         resolution_ns: int = 100_000, voided: tuple[int, ...] = (),
         tie_policy: TiePolicy = TiePolicy.RERACE) -> RaceResult:
    """The judge's decision on ``edges``, judged after the timeout."""
    eligible = tuple(p for p in range(players) if kind is RaceKind.COCKROACH or p != active)
    spec = RaceSpec(kind=kind, players=players, active=active, eligible=eligible, clock="sim",
                    resolution_ns=resolution_ns, armed_t_ns=GO - 2_000 * MS, go_t_ns=GO,
                    timeout_ns=3_000 * MS, tie_policy=tie_policy, voided=voided)
    return judge(spec, edges, GO + 4_000 * MS)


def cases() -> dict[str, tuple[RaceKind, RaceResult, int]]:
    """name -> (kind, the judge's result, players at the table)."""
    slap, roach = RaceKind.SLAP, RaceKind.COCKROACH
    return {
        # Two slappers, one clearly slower.
        "clear": (slap, race(slap, 3, [press(1, 183_456_000), press(2, 223_456_000)]), 3),
        # Four slappers; the two fastest hit the very same instant (a tie that decides nothing).
        "tie": (slap, race(slap, 5, [press(1, 201_000_000), press(2, 201_000_000),
                                     press(3, 262_500_000), press(4, 318_250_000)]), 5),
        # A tie for the slowest, settled by lot.
        "tie-lot": (slap, race(slap, 4, [press(1, 190 * MS), press(2, 300 * MS), press(3, 300 * MS)],
                               tie_policy=TiePolicy.RANDOM), 4),
        # Seat 1 held the button down through GO; seat 3 jumped 412 ms early, then slapped last.
        "false-start": (slap, race(slap, 4, [
            Press(1, GO - 1_500 * MS, "sim"), release(1, 150 * MS), press(1, 260 * MS),
            press(2, 205_125_000),
            Press(3, GO - 412_345_000, "sim"), Release(3, GO - 300 * MS, "sim"), press(3, 471 * MS)]), 4),
        # A cockroach: seat 2 jumped 1.8 s early and is out; seat 4 never pressed.
        "roach-false-start": (roach, race(roach, 5, [
            Press(2, GO - 1_800 * MS, "sim"), Release(2, GO - 1_700 * MS, "sim"),
            press(0, 240 * MS), press(1, 199 * MS), press(3, 288 * MS)]), 5),
        # Five cockroach racers; the fastest had no matching card and was voided.
        "voided": (roach, race(roach, 5, [press(0, 150 * MS), press(1, 190 * MS), press(2, 230 * MS),
                                          press(3, 270 * MS), press(4, 330 * MS)], voided=(0,)), 5),
        # The slowest lost by one board tick (16 ns): the close-up shows it.
        "sub-ms": (slap, race(slap, 4, [press(1, 180 * MS), press(2, 231_456_000),
                                        press(3, 231_456_016)], resolution_ns=16), 4),
        # A cockroach won by 40.125 µs.
        "sub-ms-roach": (roach, race(roach, 3, [press(0, 199_000_000), press(1, 199_040_125),
                                                press(2, 260 * MS)], resolution_ns=16), 3),
        # Nobody but one slapped in time: lost to the timeout, not to a gap.
        "timeout": (slap, race(slap, 3, [press(1, 350 * MS)]), 3),
        # A cockroach nobody could match: no press at all, no place, no pair.
        "nobody": (roach, race(roach, 4, []), 4),
    }


def scene_for(kind: RaceKind, result: RaceResult, players: int, names: tuple[str, ...] | None = None) -> Scene:
    settings = TableSettings(seats=5, clock="sim", **({"names": names} if names else {}))
    table = replace(new_table(settings, seed=1, t_ns=GO), seated=tuple(range(players)),
                    last_race=result, last_race_kind=kind, now_t_ns=GO + 4_000 * MS)
    ui = UiState(lang="en", photo_go_ns=GO, results=[Shown("photo", GO, race=table.races)])
    return Scene(table, ui, table.now_t_ns)


def on_screen(size: tuple[int, int], lang: str, name: str, *, strip: bool = False,
              names: tuple[str, ...] | None = None) -> tuple[Painter, Drawn, pygame.Surface]:
    """Case ``name`` drawn as the photo screen draws it (the frame, then the board in the body),
    or ``strip``: in the left part of the body, as beside the cockroach's card console."""
    kind, result, players = cases()[name]
    scene = scene_for(kind, result, players, names)
    surface = pygame.Surface(size)
    p = Painter(surface, fonts(lang), lang)
    body = header(p, scene, "Photo finish").body.inflate(-p.px(16), -p.px(10))
    if strip:
        body = (pygame.Rect(body.x, body.y, body.width, int(body.height * 0.55)) if p.portrait
                else pygame.Rect(body.x, body.y, int(body.width * 0.62), body.height))
    drawn = photo_finish(p, scene.table, body, result, kind, GO)
    return p, drawn, surface


# -- the axis ---------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(lo=st.integers(-10**12, 10**12), span=st.integers(1, 10**11), width=st.integers(1, 4000),
       char_px=st.integers(1, 40), gap=st.integers(0, 30), unit=st.sampled_from([1, 1_000, MS]),
       suffix=st.sampled_from(["", " ns", " µs"]))
def test_axis_labels_never_collide_and_stay_on_the_axis(lo: int, span: int, width: int, char_px: int,
                                                        gap: int, unit: int, suffix: str) -> None:
    hi = lo + span
    ticks = axis_ticks(lo, hi, width, lambda text: len(text) * char_px, unit_ns=unit, gap_px=gap,
                       suffix=suffix)
    values = [t.t_ns for t in ticks]
    assert values == sorted(set(values)) and all(lo <= v <= hi for v in values)
    steps = {b - a for a, b in zip(values, values[1:])}
    assert len(steps) <= 1
    labelled = [t for t in ticks if t.label is not None]
    for t in labelled:
        assert 0 <= t.left < t.right <= width
        assert t.right - t.left == len(t.label or "") * char_px
        assert t.left <= t.x <= t.right
    for a, b in zip(labelled, labelled[1:]):
        assert b.left - a.right >= gap, (a, b)


@settings(max_examples=200, deadline=None)
@given(lo=st.integers(-10**10, 10**10), span=st.integers(1_000, 10**10))
def test_a_wide_axis_gets_several_labels(lo: int, span: int) -> None:
    """Room for a dozen labels: at least three are shown (never one lonely label)."""
    ticks = axis_ticks(lo, lo + span, 1200, lambda text: 9 * len(text), gap_px=10)
    assert sum(t.label is not None for t in ticks) >= 3


def test_tick_labels_carry_exactly_the_decimals_the_step_needs() -> None:
    assert decimals_for(100 * MS, MS) == 0 and decimals_for(500_000, MS) == 1
    assert decimals_for(10, 1_000) == 2 and decimals_for(16, 1) == 0
    assert tick_label(-200 * MS, 100 * MS, MS) == "-200"
    assert tick_label(1_500_000, 500_000, MS, point=",") == "1,5"
    assert tick_label(20, 10, 1, suffix=" ns") == "20 ns"
    assert tick_label(-50, 10, 1_000) == "-0.05"


def test_the_old_axis_run_together_is_gone_at_800_px() -> None:
    """The issue's example: 0 to 200 ms on a narrow axis read "100 000200 000"."""
    ticks = axis_ticks(-10 * MS, 230 * MS, 250, lambda text: 11 * len(text), gap_px=14)
    labels = [t.label for t in ticks if t.label]
    assert labels and all(" " not in label and len(label) <= 3 for label in labels)


def test_an_empty_axis_is_refused() -> None:
    with pytest.raises(ValueError, match=r"axis range 5\.\.5 ns is empty"):
        axis_ticks(5, 5, 100, len)
    with pytest.raises(ValueError, match=r"axis width 0 px is not valid"):
        axis_ticks(0, 5, 0, len)


# -- the board ----------------------------------------------------------------------------------

def board(name: str) -> Board:
    kind, result, _ = cases()[name]
    return board_of(result, kind, GO)


def test_places_gaps_and_the_deciding_pair_of_a_clear_finish() -> None:
    b = board("clear")
    assert [(e.player, e.place, e.reaction_ns, e.gap_ns) for e in b.entries] == [
        (1, 1, 183_456_000, None), (2, 2, 223_456_000, 40 * MS)]
    assert [e.decisive for e in b.entries] == [False, True]
    assert b.pair == (0, 1) and b.deciding_gap_ns == 40 * MS and not b.close_up


def test_a_tie_shares_its_place_and_the_next_place_is_skipped() -> None:
    b = board("tie")
    assert [(e.player, e.place, e.tie) for e in b.entries] == [
        (1, 1, True), (2, 1, True), (3, 3, False), (4, 4, False)]
    lot = board("tie-lot")
    assert [(e.place, e.tie) for e in lot.entries] == [(1, False), (2, True), (2, True)]
    assert lot.pair == (1, 2) and lot.deciding_gap_ns == 0 and lot.close_up
    assert sum(e.decisive for e in lot.entries) == 1


def test_false_starts_say_how_early_or_that_the_button_was_held() -> None:
    b = {e.player: e for e in board("false-start").entries}
    assert b[3].early_ns == 412_345_000 and not b[3].held_at_go and b[3].decisive
    assert b[1].held_at_go and b[1].place == 2
    assert b[2].early_ns is None
    roach = {e.player: e for e in board("roach-false-start").entries}
    assert roach[2].place is None and roach[2].early_ns == 1_800 * MS
    assert roach[4].no_press and roach[4].place is None
    assert [e.player for e in board("roach-false-start").entries] == [1, 0, 3, 2, 4]


def test_a_voided_winner_is_shown_after_the_places_with_its_press() -> None:
    b = board("voided")
    assert [(e.player, e.place, e.voided) for e in b.entries] == [
        (1, 1, False), (2, 2, False), (3, 3, False), (4, 4, False), (0, None, True)]
    assert b.entries[-1].reaction_ns == 150 * MS and b.entries[0].decisive
    assert b.pair == (0, 1)


def test_the_close_up_comes_exactly_when_the_deciding_gap_is_under_a_millisecond() -> None:
    assert board("sub-ms").deciding_gap_ns == 16 and board("sub-ms").close_up
    assert board("sub-ms-roach").deciding_gap_ns == 40_125 and board("sub-ms-roach").close_up
    just = race(RaceKind.SLAP, 3, [press(1, 200 * MS), press(2, 201 * MS)], resolution_ns=16)
    assert not board_of(just, RaceKind.SLAP, GO).close_up
    under = race(RaceKind.SLAP, 3, [press(1, 200 * MS), press(2, 201 * MS - 1)], resolution_ns=16)
    assert board_of(under, RaceKind.SLAP, GO).close_up


def test_a_slap_lost_to_the_timeout_has_no_deciding_pair() -> None:
    b = board("timeout")
    assert b.pair is None and not b.close_up
    assert [(e.player, e.no_press, e.decisive) for e in b.entries] == [(1, False, False), (2, True, True)]


# -- drawn at every size --------------------------------------------------------------------------

def _rect(r: tuple[int, int, int, int]) -> pygame.Rect:
    return pygame.Rect(r)


def _expected_badges(b: Board, kind: RaceKind) -> set[tuple[int, str]]:
    want: set[tuple[int, str]] = set()
    for e in b.entries:
        if e.decisive:
            want.add((e.player, "ui_slowest" if kind is RaceKind.SLAP else "ui_fastest"))
        if e.tie:
            want.add((e.player, "ui_tie"))
        if e.early_ns is not None or e.held_at_go:
            want.add((e.player, "ui_false_start"))
        if e.voided:
            want.add((e.player, "ui_voided"))
        if e.no_press and e.early_ns is None and not e.held_at_go:
            want.add((e.player, "ui_no_press"))
    return want


def check_layout(p: Painter, drawn: Drawn, surface: pygame.Surface, name: str) -> None:
    kind, result, _ = cases()[name]
    b = board_of(result, kind, GO)
    where = (name, p.lang, surface.get_size())
    assert p.overflows == [], (where, p.overflows)
    screen = surface.get_rect()
    # Nothing drawn off the screen, no two texts or badges on top of each other.
    boxes = [(role, text, _rect(r)) for role, text, r in drawn.texts]
    boxes += [("badge", key, _rect(r)) for _, key, r in drawn.badges]
    for role, text, box in boxes:
        assert screen.contains(box), (where, role, text, box)
    for i, (role_a, a, box_a) in enumerate(boxes):
        for role_b, b_, box_b in boxes[i + 1:]:
            assert not box_a.colliderect(box_b), (where, (role_a, a, box_a), (role_b, b_, box_b))
    # Every racer has a row with its name; texts and badges stay inside their row.
    rows = {player: _rect(r) for player, r in drawn.rows}
    assert sorted(rows) == sorted(e.player for e in b.entries)
    row_texts = [t for t in drawn.texts if t[0] in ("place", "name", "time", "note")]
    assert sum(t[0] == "name" for t in row_texts) == len(b.entries)
    for (_, text, r) in row_texts:
        assert any(row.contains(_rect(r)) for row in rows.values()), (where, text, r)
    for player, key, r in drawn.badges:
        assert rows[player].contains(_rect(r)), (where, player, key, r)
    assert {(player, key) for player, key, _ in drawn.badges} == _expected_badges(b, kind), where
    # Places are shown for placed racers, in the language's ordinals.
    places = [text for role, text, _ in drawn.texts if role == "place"]
    assert places == [p.t(f"ui_place_{e.place}") for e in b.entries if e.place is not None], where
    # The axis: labels apart and inside the photo, never over the board.
    if drawn.photo is not None:
        photo = _rect(drawn.photo)
        labels = sorted((_rect(r) for _, r in drawn.axis_labels), key=lambda r: r.x)
        assert len(labels) >= 2, where
        for a, c in zip(labels, labels[1:]):
            assert a.right <= c.x, (where, a, c)
        for label in labels:
            assert photo.contains(label), (where, label, photo)
            assert not any(row.colliderect(label) for row in rows.values()), where
        for _, lane in drawn.lanes:
            assert photo.contains(_rect(lane)) and not any(
                row.colliderect(_rect(lane)) for row in rows.values()), where
    # Every press is marked in its own lane (in the close-up: inside it), and no mark covers
    # a text or a badge (on the old photo finish the dots covered the times).
    lanes = {player: _rect(r) for player, r in drawn.lanes}
    for player, what, r in drawn.marks:
        mark = _rect(r)
        home = _rect(drawn.inset) if what == "close-up" and drawn.inset else lanes[player]
        assert home.contains(mark), (where, player, what, mark, home)
        assert not any(mark.colliderect(box) for _, _, box in boxes), (where, player, what)
    pressed = {e.player for e in b.entries if e.reaction_ns is not None}
    if drawn.photo is not None:
        assert {pl for pl, what, _ in drawn.marks if what in ("press", "voided")} == pressed, where
        fouls = {e.player for e in b.entries if e.early_ns is not None or e.held_at_go}
        assert {pl for pl, what, _ in drawn.marks if what == "false start"} == fouls, where
    # The deciding pair is framed; the close-up is there exactly when its gap is under 1 ms.
    assert drawn.framed == (tuple(b.entries[i].player for i in b.pair) if b.pair else ())
    if drawn.inset is not None:
        inset = _rect(drawn.inset)
        assert screen.contains(inset) and not any(row.colliderect(inset) for row in rows.values())
        labels = sorted((_rect(r) for _, r in drawn.inset_labels), key=lambda r: r.x)
        assert labels and all(inset.contains(r) for r in labels), where
        assert all(a.right <= c.x for a, c in zip(labels, labels[1:])), where


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_photo_screen_lays_out_every_case_in_every_language_and_size(lang: str, size: tuple[int, int]) -> None:
    for name in cases():
        p, drawn, surface = on_screen(size, lang, name)
        check_layout(p, drawn, surface, name)
        assert drawn.photo is not None, (name, lang, size)
        assert (drawn.inset is not None) == board(name).close_up, (name, lang, size)


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "de", "ko"])
def test_beside_the_cockroach_card_console_the_board_still_fits(lang: str, size: tuple[int, int]) -> None:
    """The race screen draws the same board in the left part of its body (a narrow strip)."""
    for name in cases():
        p, drawn, surface = on_screen(size, lang, name, strip=True)
        check_layout(p, drawn, surface, name)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_long_names_are_cut_not_spilled(size: tuple[int, int]) -> None:
    names = ("Maximiliane-Friederike", "Bartholomäus-Konstantin", "Cem", "Wolfgang Amadeus", "Eva")
    for name in ("false-start", "voided"):
        p, drawn, surface = on_screen(size, "de", name, names=names)
        check_layout(p, drawn, surface, name)
        shown = [text for role, text, _ in drawn.texts if role == "name"]
        assert any(text.endswith("…") for text in shown) or size[0] > size[1], shown


def test_the_app_draws_the_photo_screen_through_the_board() -> None:
    """render.draw -> screens_race.draw_photo -> this board: no overflow, the times on screen."""
    kind, result, players = cases()["sub-ms"]
    for lang in LANGUAGES:
        frame = draw(pygame.Surface((800, 480)), fonts(lang), scene_for(kind, result, players), lang=lang)
        assert frame.screen == "photo" and frame.overflows == ()
        texts = [text for text, _ in frame.texts]
        assert any("231" in text and "456" in text for text in texts)
        assert any("16\u00a0ns" in text for text in texts)


# -- the demo's photo-finish screenshot -----------------------------------------------------------

def test_the_demo_photo_shows_a_tie_a_false_start_and_a_close_up() -> None:
    from display_helpers import scenes

    photo = scenes()["photo"]
    assert shows_tie_and_false_start(photo)
    result = photo.table.last_race
    assert result is not None and photo.table.last_race_kind is RaceKind.SLAP
    b = board_of(result, RaceKind.SLAP, photo.ui.photo_go_ns)
    assert [e.place for e in b.entries][:2] == [1, 1] and b.close_up
    assert b.entries[-1].decisive and b.entries[-1].early_ns == 312_500_000
    for size in ALL_SIZES:
        surface = pygame.Surface(size)
        for lang in ("en", "ko"):
            frame = draw(surface, fonts(lang), photo, lang=lang)
            assert frame.screen == "photo" and frame.overflows == ()


def _armed_slap(players: int) -> Scene:
    """A demo game stepped until a slap with ``players`` - 1 slappers is armed."""
    from game.app.ui.demo import Demo, shot_name

    for seed in range(1, 60):
        demo = Demo(players, seed, TableSettings(seats=5, clock="sim"))
        while not demo.done:
            demo.step()
            scene = demo.scene()
            run = scene.table.race
            if shot_name(scene) == "race-ready" and run is not None and run.kind is RaceKind.SLAP:
                return scene
    raise AssertionError("no slap armed in 60 games")


def test_the_staged_race_runs_on_a_copy_and_leaves_the_game_alone() -> None:
    scene = _armed_slap(4)
    ui_before = copy.deepcopy(scene.ui)
    staged = staged_photo(scene)
    assert staged is not None and shows_tie_and_false_start(staged)
    assert scene.ui == ui_before and scene.table.race is not None and scene.table.last_race is not staged.table.last_race
    # Once GO is given, or with only two slappers, there is nothing to stage.
    assert staged_photo(replace(scene, table=replace(scene.table, race=replace(
        scene.table.race, go_t_ns=scene.table.race.go_due_t_ns)))) is None
    assert staged_photo(_armed_slap(3)) is None


def test_a_photo_without_a_tie_or_without_a_false_start_is_not_the_one_the_demo_wants() -> None:
    for name, wanted in (("clear", False), ("tie", False), ("false-start", False)):
        kind, result, players = cases()[name]
        assert shows_tie_and_false_start(scene_for(kind, result, players)) is wanted
    both = race(RaceKind.SLAP, 5, [press(1, 200 * MS), press(2, 200 * MS), press(3, 250 * MS),
                                   Press(4, GO - 100 * MS, "sim"), Release(4, GO - 50 * MS, "sim"),
                                   press(4, 300 * MS)])
    assert shows_tie_and_false_start(scene_for(RaceKind.SLAP, both, 5))


def test_places_read_as_each_language_writes_them() -> None:
    from game.i18n.lookup import text

    assert [text("en", f"ui_place_{n}") for n in range(1, 6)] == ["1st", "2nd", "3rd", "4th", "5th"]
    assert [text("de", f"ui_place_{n}") for n in (1, 2)] == ["1.", "2."]
    assert [text("fr", f"ui_place_{n}") for n in (1, 2)] == ["1er", "2e"]
    assert [text("es", f"ui_place_{n}") for n in (1, 2)] == ["1.º", "2.º"]
    assert [text("ko", f"ui_place_{n}") for n in (1, 2)] == ["1위", "2위"]


def test_a_one_line_text_gets_the_width_of_its_french_spacing() -> None:
    # put sizes the text's box by the text as the Painter draws it: French sets a space before
    # ":" and "!" (typography), so measuring the catalog's spelling gave a box too narrow and
    # the text came out smaller than asked, or cut (issue 22).
    from game.app.ui.photo_drawn import Sheet, put

    content = "Écart: +400,125 µs!"
    p = Painter(pygame.Surface((800, 480)), fonts("fr"), "fr")
    sheet = Sheet()
    for align in ("left", "right", "center"):
        put(p, sheet, "note", content, pygame.Rect(10, 10, 600, 40), 24, (255, 255, 255), align)
    assert p.typeset(content) != content
    assert p.overflows == [] and {px for _, px in p.texts} == {p.px(24)}
    wide = p.fonts.size(p.typeset(content), p.px(24))[0]
    assert [rect[2] for _, _, rect in sheet.texts] == [wide] * 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_gap_of_nothing_is_said_as_the_tie_it_is(lang: str) -> None:
    # Two hands at the same instant: "+0 ns" read as a lead of nothing measured (the German
    # review). Beside a tie's badge the row says no gap; the close-up of a tie for the deciding
    # place says the tie instead of its gap.
    for name in ("tie", "tie-lot"):
        for size in ((800, 480), (720, 1280)):
            p, drawn, _ = on_screen(size, lang, name)
            assert p.overflows == [], (name, size, p.overflows)
            said = [(role, text.replace("\u00a0", " ")) for role, text, _ in drawn.texts]
            assert not [s for s in said if s[1].startswith("+0 ")], (name, size, said)
            ties = {player for player, key, _ in drawn.badges if key == "ui_tie"}
            board = board_of(cases()[name][1], cases()[name][0], GO)
            assert {e.player for e in board.entries if e.gap_ns == 0} <= ties
    _, drawn, _ = on_screen((800, 480), lang, "tie-lot")
    tie = Painter(pygame.Surface((8, 8)), fonts(lang), lang).t("ui_tie").upper()
    assert [text for role, text, _ in drawn.texts if role == "close-up gap"] == [tie]
