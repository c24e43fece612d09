"""One message, current: the bottom bar says what to do now, overlays have a Continue button
and a seat button continues past them, the verdict says who and how, the header agrees."""

from __future__ import annotations

import dataclasses
from collections import deque

import pygame
from display_helpers import fonts, scenes
from test_display_app import FakeRig, app  # noqa: F401  (the fixture)

from game.app.ui.common import Scene
from game.app.ui.glass import SETTLE_NS
from game.app.ui.loop import App
from game.app.ui.render import draw
from game.app.ui.state import CONTINUE_AFTER_NS
from game.i18n.events import event_text
from game.i18n.lookup import render, text
from game.inputs import Press, Release

MS = 1_000_000


def _said(name: str, lang: str = "en", size: tuple[int, int] = (800, 480)) -> list[str]:
    frame = draw(pygame.Surface(size), fonts(lang), scenes()[name], lang)
    return [t for t, _ in frame.texts]


def test_overlays_and_the_out_picker_do_not_show_the_next_steps_instruction() -> None:
    # Seen: the next turn's text under a photo finish, "Bea's turn: play…" under the out picker.
    for name in ("photo", "verdict", "summary", "out", "settings"):
        scene = scenes()[name]
        instruction = render(scene.table.message, "en")
        assert instruction not in _said(name), name
    assert render(scenes()["play"].table.message, "en") in _said("play")


def test_the_ticker_shows_a_line_only_under_the_screen_it_happened_on() -> None:
    # Seen: the previous race's result under a new "Caught!".
    scene = scenes()["play"]
    line = scene.ui.lines[-1]
    assert line.screen == "play", "observe() records the screen each line led to"
    sentence = event_text(line.event, lambda i: line.names[i], "en")
    assert sentence is not None
    for screen, shown in (("play", True), ("race", False)):
        ui = dataclasses.replace(scene.ui, lines=deque([dataclasses.replace(line, screen=screen)]))
        said = [t for t, _ in draw(pygame.Surface((800, 480)), fonts("en"), Scene(scene.table, ui, scene.now_ns),
                                   "en").texts]
        ticker = [t for t in said if len(t) > 12 and sentence.startswith(t.rstrip("…"))]
        assert bool(ticker) is shown, (screen, said)


def test_the_verdict_names_who_and_shows_the_tally_and_a_continue_button() -> None:
    scene = scenes()["verdict"]
    v = scene.ui.verdict
    assert v is not None and v.judges >= 1
    frame = draw(pygame.Surface((800, 480)), fonts("en"), scene, "en")
    said = [t for t, _ in frame.texts]
    who = "ui_verdict_caught" if v.guilty else "ui_verdict_cleared"
    assert text("en", who, accused=v.accused) in said
    assert text("en", "ui_tally_vote", votes=v.votes, judges=v.judges, needed=v.judges // 2 + 1) in said
    buttons = [h for h in frame.hotspots if h.act.kind == "dismiss" and h.rect.height < 200]
    assert buttons and all(h.rect.width >= 48 and h.rect.height >= 48 for h in buttons)
    assert text("en", "ui_continue") in said


def test_the_verdict_says_what_to_do_once_not_again_in_the_footer() -> None:
    # Seen: "Not guilty: Bea draws a card and stays the guard." in the body and, as the
    # verdict's notice, once more in the footer.
    scene = scenes()["verdict"]
    notice = scene.ui.notice(scene.now_ns)
    assert notice is not None and notice.key.startswith("verdict_")   # the case in question
    for lang in ("en", "ko"):
        said = _said("verdict", lang)
        assert said.count(render(notice, lang)) == 1, (lang, said)


def test_the_summary_header_names_the_round_it_reveals() -> None:
    scene = scenes()["summary"]
    rounds = len(scene.table.game.scores)
    said = _said("summary")
    assert text("en", "ui_round_over", round=rounds) in said
    assert any(t.startswith(f"Round {rounds} of") for t in said), said
    assert text("en", "ui_continue") in said


def test_a_seat_button_continues_past_a_photo_finish_only_after_a_moment_and_draws_no_card(app: App) -> None:  # noqa: F811
    rig = app.adapter
    assert isinstance(rig, FakeRig)
    for seat in (0, 1, 2):
        rig.tap(seat)
    app.poll()
    app.draw()
    rig.t_ns += SETTLE_NS                                              # read, then a key
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
    rig.tap(1)
    app.poll()
    for key in (pygame.K_2, pygame.K_n, pygame.K_3, pygame.K_o):      # starter 2, the guard's mosquito 3
        app.draw()
        rig.t_ns += SETTLE_NS
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=key))
    race = app.table.race
    assert race is not None
    rig.t_ns = race.go_due_t_ns
    app.poll()
    go = rig.t_ns
    rig.events += [Press(0, go + 180 * MS, "fake"), Press(2, go + 230 * MS, "fake")]
    rig.t_ns = go + 400 * MS
    app.poll()
    app.poll()
    assert app.draw().screen == "photo"
    hands = app.table.game.hands
    # A late slap right after the finish: the photo stays.
    rig.events += [Release(0, rig.t_ns, "fake"), Press(0, rig.t_ns + MS, "fake")]
    rig.t_ns += 2 * MS
    app.poll()
    assert app.draw().screen == "photo"
    rig.events += [Release(0, rig.t_ns, "fake"), Release(2, rig.t_ns, "fake")]
    app.poll()
    # A moment later any seat button is "Continue": the photo goes, nobody draws a card.
    rig.t_ns += CONTINUE_AFTER_NS
    active = app.table.game.active
    seat = app.table.seated[active]
    rig.events += [Press(seat, rig.t_ns, "fake")]
    rig.t_ns += 100 * MS
    rig.events += [Release(seat, rig.t_ns, "fake")]
    app.poll()
    assert app.draw().screen == "play"
    assert app.table.game.hands == hands
