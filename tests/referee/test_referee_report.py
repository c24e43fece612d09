"""The session report: one self-contained HTML file, names escaped, in the session's language."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from game.i18n import LANGUAGES
from game.inputs import Press
from game.referee.presets import load_presets
from game.referee.race import RefereeRace, RefereeResult, judge_race
from game.referee.report import OWN_WORDS, WORDS, say, session_report

MS = 1_000_000
CLOCK = "sim"
PRESETS = load_presets()


def run(preset: str, presses: dict[int, int], index: int) -> RefereeResult:
    armed = (index + 1) * 10_000 * MS
    p = PRESETS.get(preset)
    table = p.go.value == "table"
    go = armed + 1_000 * MS
    race = RefereeRace(p, seats=3, racers=(0, 1, 2), clock=CLOCK, resolution_ns=100_000, armed_t_ns=armed,
                       go_t_ns=None if table else go)
    start = armed if table else go
    return judge_race(race, [Press(s, start + ms * MS, CLOCK) for s, ms in presses.items()], start + 3_000 * MS)


def session() -> list[RefereeResult]:
    return [run("grab", {0: 200, 1: 251, 2: 300}, 0), run("grab", {0: 220, 1: 180, 2: 330}, 1),
            run("last-hand-down", {0: 210, 1: 260, 2: 512}, 2), run("bell-slap", {1: 900, 2: 950}, 3)]


NAMES = ["Ali", "<b>Bea</b> & \"Cem\"", "Dana'); alert(1)//"]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)


def parsed(page: str) -> _Tags:
    tags = _Tags()
    tags.feed(page)
    return tags


def test_the_report_is_one_self_contained_file(tmp_path: Path) -> None:
    page = session_report(session(), NAMES, "en", date_text="1 December 2026")
    tags = parsed(page)
    # Nothing fetched and nothing run: no script, no link, no image, no external reference.
    assert not {"script", "link", "img", "iframe", "object"} & set(tags.tags)
    assert not [value for name, value in tags.attrs if name in ("src", "href") or name.startswith("on")]
    assert re.findall(r"https?://[^\"]+", page) == ["http://www.w3.org/2000/svg"] * 3  # the SVG namespace only
    assert tags.tags.count("svg") == 3 and page.startswith("<!DOCTYPE html>")
    # One dot per reaction in the race chart (the bell slap's table GO has none), and two per
    # player box chart's dots.
    assert page.count('r="5"') == 9 and page.count('r="3"') == 9
    path = tmp_path / "session.html"
    path.write_text(page, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == page


def test_names_are_escaped_everywhere() -> None:
    page = session_report(session(), NAMES, "en")
    assert "<b>Bea</b>" not in page and "&lt;b&gt;Bea&lt;/b&gt; &amp; &quot;Cem&quot;" in page
    assert "Dana&#x27;); alert(1)//" in page
    assert "<b>" not in page


def test_the_table_holds_each_player_s_figures() -> None:
    page = session_report(session(), NAMES, "en")
    row = re.search(r"<tr><td><span class=\"dot\" style=\"background:#f5a623\"></span>Ali</td>(.*?)</tr>", page)
    assert row is not None
    # races, wins, losses, best, median, spread (IQR), false starts
    assert re.findall(r"<td>([^<]*)</td>", row.group(1)) == ["4", "1", "0", "200.0", "210.0", "10.0", "0"]


def test_the_session_s_language_and_decimal_mark() -> None:
    page = session_report(session(), NAMES, "de", date_text="1. Dezember 2026",
                          preset_names={"grab": "Zugreifen", "bell-slap": "Glocke schlagen"})
    assert '<html lang="de">' in page and "<h1>Schiedsrichter-Runde</h1>" in page
    assert "Siege und Niederlagen" in page and "200,0" in page and "200.0" not in page
    assert "1. Dezember 2026 · 4 Rennen, 3 Personen · Spiele: Glocke schlagen, Zugreifen, last-hand-down" in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_word(lang: str) -> None:
    assert set(WORDS[lang]) == set(WORDS["en"]) and set(OWN_WORDS[lang]) == set(OWN_WORDS["en"])
    page = session_report(session(), NAMES, lang)
    assert f'<html lang="{lang}">' in page and say(lang, "per_race") in page
    if lang != "en":
        assert WORDS[lang]["title"] != WORDS["en"]["title"]


def test_a_session_without_reaction_times_says_so() -> None:
    page = session_report([run("bell-slap", {1: 900}, 0)], ["Ali", "Bea", "Cem"], "fr")
    assert page.count(say("fr", "no_times")) == 2
    assert parsed(page).tags.count("svg") == 1  # the wins chart still stands


def test_an_empty_session_and_unnamed_seats() -> None:
    page = session_report([], [], "en", title="Friday night")
    assert "<h1>Friday night</h1>" in page and "0 races, 0 players" in page
    page = session_report(session(), {1: "Bea"}, "ko")
    assert "1번 자리" in page and "Bea" in page and "3번 자리" in page


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match=r"language 'xx' is not available: use one of en, de, fr, es, ko"):
        session_report(session(), NAMES, "xx")
