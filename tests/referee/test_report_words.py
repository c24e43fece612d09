"""The session report speaks each language as its screens do: the product's name, the columns'
words and the start signal come from the catalogs; numbers agree with their words; nothing the
screens say otherwise is spelled again (issue 22)."""

from __future__ import annotations

import html
import re

import pytest

from game.i18n import LANGUAGES
from game.i18n.lookup import catalog
from game.inputs import Press
from game.referee.presets import load_presets
from game.referee.race import RefereeRace, RefereeResult, judge_race
from game.referee.report import CATALOG_WORDS, OWN_WORDS, WORDS, say, session_report

MS = 1_000_000
CLOCK = "sim"
PRESETS = load_presets()


def run(preset: str, presses: dict[int, int], index: int) -> RefereeResult:
    armed = (index + 1) * 10_000 * MS
    p = PRESETS.get(preset)
    go = None if p.go.value == "table" else armed + 1_000 * MS
    race = RefereeRace(p, seats=2, racers=(0, 1), clock=CLOCK, resolution_ns=100_000, armed_t_ns=armed, go_t_ns=go)
    start = armed if go is None else go
    return judge_race(race, [Press(s, start + ms * MS, CLOCK) for s, ms in presses.items()], start + 3_000 * MS)


def one_grab() -> list[RefereeResult]:
    """One race: Ali wins once and loses never, Bea the other way round."""
    return [run("grab", {0: 200, 1: 251}, 0)]


def plain(page: str) -> str:
    """The page's text as a reader sees it: entities decoded, no-break spaces as spaces."""
    return re.sub(r"[\u00a0\u202f]", " ", html.unescape(page))


def flash_word(lang: str) -> str:
    """The start signal as an instruction writes it: "LOS", "TOP", "¡YA!", "출발"."""
    word = catalog(lang)["ref_go"].strip(" \u00a0\u202f!")
    return word + "!" if word.startswith("¡") else word


def test_the_words_the_screens_say_come_from_the_catalogs() -> None:
    for lang in LANGUAGES:
        table = catalog(lang)
        assert {word: WORDS[lang][word] for word in CATALOG_WORDS} == \
            {word: table[key] for word, key in CATALOG_WORDS.items()}, lang
        # The report's own words never name what the catalog names (one place for each term).
        assert not set(CATALOG_WORDS) & set(OWN_WORDS[lang]), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_product_is_named_as_the_screens_name_it(lang: str) -> None:
    product = catalog(lang)["ui_title"]
    page = plain(session_report(one_grab(), ["Ali", "Bea"], lang))
    footer = re.search(r"<footer>(.*)</footer>", page)
    assert footer is not None and product in footer.group(1)
    # Written once, in the catalog: no other language's product name leaks in.
    others = {catalog(other)["ui_title"] for other in LANGUAGES} - {product}
    assert not [name for name in others if name in page], lang
    assert not [entry for words in OWN_WORDS.values() for entry in words.values()
                if any(catalog(other)["ui_title"] in entry for other in LANGUAGES)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_signal_is_the_word_the_screen_flashes(lang: str) -> None:
    word = flash_word(lang)
    assert word in plain(say(lang, "ms")) and word in plain(say(lang, "no_times"))
    page = plain(session_report(one_grab(), ["Ali", "Bea"], lang)
                 + session_report([run("bell-slap", {1: 900}, 0)], ["Ali", "Bea"], lang))
    if lang != "en":
        assert not re.search(r"\bGO\b", page), lang


def test_korean_counts_from_the_signal_by_its_word() -> None:
    assert plain(say("ko", "ms")) == "출발 후 ms"
    assert "편차는 사분위 범위" in say("ko", "footer")          # the particle agrees with 편차


# (language, wins, losses) -> the tooltip's count and word. French counts 0 and 1 as singular.
AGREEMENT = {
    "en": {(1, 0): ("1 win", "0 losses"), (2, 1): ("2 wins", "1 loss")},
    "de": {(1, 0): ("1 Sieg", "0 Niederlagen"), (2, 1): ("2 Siege", "1 Niederlage")},
    "fr": {(1, 0): ("1 victoire", "0 défaite"), (2, 1): ("2 victoires", "1 défaite"),
           (0, 2): ("0 victoire", "2 défaites")},
    "es": {(1, 0): ("1 victoria", "0 derrotas"), (2, 1): ("2 victorias", "1 derrota")},
    "ko": {(1, 0): ("1승", "0패"), (2, 1): ("2승", "1패")},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tooltip_s_count_agrees_with_its_word(lang: str) -> None:
    colon = " : " if lang == "fr" else ": "
    for (wins, losses), (win_text, loss_text) in AGREEMENT[lang].items():
        assert plain(say(lang, "tip_wins", name="Ali", count=wins)) == f"Ali{colon}{win_text}"
        assert plain(say(lang, "tip_losses", name="Ali", count=losses)) == f"Ali{colon}{loss_text}"


def test_the_report_s_tooltips_on_the_page() -> None:
    page = plain(session_report(one_grab(), ["Ali", "Bea"], "fr"))
    assert "<title>Ali : 1 victoire</title>" in page and "<title>Ali : 0 défaite</title>" in page
    assert "Victoires</title>" not in page and "Défaites</title>" not in page


@pytest.mark.parametrize(("lang", "median"), [("en", "median"), ("de", "Median"), ("fr", "médiane"),
                                              ("es", "mediana"), ("ko", "중앙값")])
def test_a_word_inside_a_sentence_is_in_lower_case_where_the_language_says_so(lang: str, median: str) -> None:
    tip = plain(say(lang, "tip_median", name="Ali", ms="210,0"))
    assert tip.endswith(f" {median} 210,0 ms"), tip


@pytest.mark.parametrize(("lang", "heads"), [
    ("en", ["Best (ms)", "Median (ms)", "Spread (IQR, ms)", "False starts"]),
    ("fr", ["Meilleur temps (ms)", "Médiane (ms)", "Dispersion (EIQ, ms)", "Faux départs"]),
    ("es", ["Mejor (ms)", "Mediana (ms)", "Dispersión, RIC (ms)", "Salidas nulas"]),
    ("ko", ["최고(ms)", "중앙값(ms)", "편차(IQR, ms)", "부정 출발"]),
])
def test_the_table_s_heads(lang: str, heads: list[str]) -> None:
    page = plain(session_report(one_grab(), ["Ali", "Bea"], lang))
    shown = re.findall(r"<th>([^<]*)</th>", page)
    assert shown[-4:] == heads
    assert not [head for head in shown if re.search(r"\).*\(", head)], shown    # never "(EIQ) (ms)"


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "1 race, 2 players · Game: Grab", "2 races, 2 players · Games: Bell slap, Grab"),
    ("de", "1 Rennen, 2 Personen · Spiel: Zugreifen", "2 Rennen, 2 Personen · Spiele: Glocke schlagen, Zugreifen"),
    ("fr", "1 course, 2 joueurs · Jeu : Attrape", "2 courses, 2 joueurs · Jeux : Tape la cloche, Attrape"),
    ("es", "1 carrera, 2 jugadores · Juego: ¡Agarra!",
     "2 carreras, 2 jugadores · Juegos: Golpe a la campana, ¡Agarra!"),
    ("ko", "경주 1회, 2명 · 게임: 잡기", "경주 2회, 2명 · 게임: 종 치기, 잡기"),
])
def test_the_summary_counts_races_players_and_games(lang: str, one: str, two: str) -> None:
    names = {p.id: p.name(lang) for p in PRESETS.presets}
    page = plain(session_report(one_grab(), ["Ali", "Bea"], lang, preset_names=names))
    assert f'<p class="sub">{one}</p>' in page
    races = [*one_grab(), run("bell-slap", {1: 900}, 1)]
    page = plain(session_report(races, ["Ali", "Bea"], lang, preset_names=names))
    assert f'<p class="sub">{two}</p>' in page


def test_a_seat_without_a_name_is_named_as_the_screens_name_it() -> None:
    for lang in LANGUAGES:
        page = plain(session_report(one_grab(), {0: "Ali"}, lang))
        assert catalog(lang)["ui_seat"].format(seat=2) in page, lang


def test_names_are_shown_as_typed_whatever_the_language_s_typography() -> None:
    # French sets a narrow space before ";" and ":" in its own words, never inside a name.
    odd = ["Dana;x", "Ömer!?"]
    for lang in LANGUAGES:
        page = html.unescape(session_report(one_grab(), odd, lang, preset_names={"grab": "Grab;Go!"}))
        assert page.count("Dana;x") >= 4 and page.count("Ömer!?") >= 4, lang
        assert "Grab;Go!" in page, lang
        assert "Dana\u202f;" not in page and "Ömer\u202f!" not in page, lang
