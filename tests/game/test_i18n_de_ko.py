"""German and Korean read as the language, not as a translation (issue 22; style sheets in
docs/i18n/de.md and docs/i18n/ko.md). Each check names what a reviewer saw on screen."""

from __future__ import annotations

import re

import pytest

from game.i18n.lookup import catalog, text
from game.i18n.typography import typeset

# --- German ---------------------------------------------------------------------------------

#: Words a German party game does not say for the concept, and what it says instead.
_NOT_GERMAN = {
    r"\bFertig\b|\bfertig sein\b": "out is „Raus“ / „ist raus“, not „Fertig“ (reads as „done“)",
    r"\bGLEICH\b|^gleich$": "a tie is „Gleichstand“",
    r"[Ss]charf": "the host's control is „Freigeben“ or „Start“, not „Scharf“/„scharfschalten“",
    r"als Letzte[rs]? dran": "„war als Letztes dran“ means „had the last turn“: „war am langsamsten“",
    r"\bRichter\b": "the judges are „alle anderen“: nobody is told they are a Richter",
    r"\bder Nächste\b|\bden Nächsten\b|\bdes Beschuldigten\b|\bdem Spieler\b": "a player is „die Person, die …“",
    r"\bGO\b": "the signal is „LOS“",
    r"[Aa]bblasen|abgeblasen": "calling a race off is „abbrechen“ („Rennen abbrechen“); „abblasen“ is slang",
    r"\bLeuten?\b": "players counted are „Personen“",
    r"\btippe\b|^Tippe\b|[.:] Tippe\b": "the screen is tapped with „tipp“, as every other imperative",
    r"(nicht drücken|Schweigen) *=|= *unschuldig": "not pressing is said in a sentence: „Wer nicht drückt, stimmt für unschuldig“",
}


@pytest.mark.parametrize("pattern", sorted(_NOT_GERMAN))
def test_german_says_each_concept_the_way_german_games_do(pattern: str) -> None:
    said = {key: entry for key, entry in catalog("de").items() if re.search(pattern, entry)}
    assert said == {}, _NOT_GERMAN[pattern]


def test_german_names_out_tie_and_the_slowest_hand() -> None:
    de = catalog("de")
    assert de["ui_out"] == "Raus" and de["ref_race_out"] == "RAUS"
    assert de["ui_tie"] == "Gleichstand"
    assert text("de", "ref_loses", player="Bea", reaction="183,456 ms") == "Bea war am langsamsten (183,456 ms)"
    # Badges stand beside a name of either gender: "SCHNELLSTE" beside Dan read as feminine.
    assert de["ui_fastest"].startswith("am ") and de["ui_slowest"].startswith("am ")


def test_german_round_two_review_words() -> None:
    de = catalog("de")
    # "Zu Unrecht beschuldigt: Bea zieht …" read as if Bea, the guard, had been accused.
    assert text("de", "verdict_not_guilty", guard="Bea").startswith("Bea lag mit der Beschuldigung falsch")
    # Column heads side by side are all plural ("Aktion" stood beside "Motten" and "Zahlen").
    assert (de["ui_col_moths"], de["ui_col_actions"], de["ui_col_numbers"]) == ("Motten", "Aktionen", "Zahlen")
    assert "Aktionen 5" in text("de", "ui_points_legend", moths=10, actions=5, numbers=1)
    # The spider's button answers the screen's question "Wer bekommt die Karte von Cem?".
    assert de["ui_only_moths"].startswith("Niemand")
    # Two options, two verbs: "… oder tipp auf „Passt nicht“".
    for key in ("cockroach_card", "cockroach_card_chain"):
        assert "oder tipp auf „Passt nicht“" in de[key], key


def test_german_ticker_names_the_slappers_before_a_portrait_screen_cuts_it() -> None:
    # The footer's event line is one line, cut with "…" at about 50 characters in portrait:
    # "Mücke! Alle außer Ali hauen bei LOS drauf: Bea, C…" lost who has to slap.
    line = text("de", "ev_slap_armed", actor="Ali", players="Bea, Cem, Dan")
    assert line.index("Dan") < 40, line
    assert len(text("de", "ev_penalty", player="Ali", moths=0, actions=1, numbers=1, points=6)) <= 50


_FORMAL = re.compile(r"\b(Sie|Ihnen|Ihre?[mnrs]?)\b")


def test_german_is_du_and_ihr_throughout() -> None:
    # A party game says du/ihr. "Ihr Protokoll" (its log) at a sentence's start read as the
    # formal "your": the catalog never starts a sentence with Sie/Ihr either, so a capital
    # Sie/Ihr/Ihnen is always a slip into the formal register.
    de = catalog("de")
    assert {key: entry for key, entry in de.items() if _FORMAL.search(entry)} == {}
    informal = [key for key, entry in de.items() if re.search(r"\b(du|dein\w*|ihr|euch|euer\w*)\b", entry)]
    assert len(informal) >= 5, informal          # the check above is about a catalog that addresses people


def test_german_quotes_are_low_high() -> None:
    for key, entry in catalog("de").items():
        assert entry.count("„") == entry.count("“"), (key, entry)
        assert '"' not in entry and "”" not in entry and "«" not in entry, (key, entry)
        assert not re.search(r"'\w[^']*\w'", entry), (key, entry)   # 'sudo …' -> „sudo …“


def test_german_ellipsis_follows_a_space() -> None:
    # Duden: an ellipsis standing for left-out words gets a space ("Achtung … Hände weg").
    glued = {key: entry for key, entry in catalog("de").items() if re.search(r"\w…", entry)}
    assert glued == {}


@pytest.mark.parametrize("lang", ["en", "de", "ko"])
def test_a_vote_chip_says_what_the_judge_did(lang: str) -> None:
    # The screen draws f"{name}: {ui_voted}"; "Ali: schuldig" read as "Ali is guilty".
    table = catalog(lang)
    for key in ("ui_voted", "ui_waiting"):
        assert table[key].casefold() not in {table["ui_guilty"].casefold(), table["ui_not_guilty"].casefold(),
                                             table["ui_verdict_guilty"].casefold()}, (key, table[key])
    verb = {"en": "voted", "de": "stimmt", "ko": "투표"}[lang]
    assert verb in table["ui_voted"] and table["ui_voted"] != table["ui_waiting"]


# Column headers and figure labels: the statistics and photo finish print these beside figures.
_LABELS = ("ui_col_", "ref_best", "ref_median", "ref_spread", "ref_false_starts", "ref_tally",
           "ref_points", "ref_line", "ref_race_losses", "ui_axis", "ui_reactions", "ui_photo_finish")


def _labels(lang: str) -> dict[str, str]:
    return {key: entry for key, entry in catalog(lang).items() if key.startswith(_LABELS)}


def test_every_german_label_is_german() -> None:
    english = catalog("en")
    same = {key: entry for key, entry in _labels("de").items() if entry == english[key]}
    assert set(same.values()) <= {"Median"}, same        # "Median" is the German word too


def test_every_korean_label_is_korean() -> None:
    latin = {key: entry for key, entry in _labels("ko").items() if re.search(r"[A-Za-z]", entry.replace("ms", ""))}
    assert latin == {}


# --- Korean ---------------------------------------------------------------------------------

# Names whose last sound picks each particle form: 김민준 ends in ㄴ, 이가을 in ㄹ (으로 -> 로),
# Ömer in a vowel sound (외머) — and starts with a letter the particle code must not trip on.
_HARD = {"김민준": ("김민준은", "김민준이", "김민준으로", "김민준을"),
         "이가을": ("이가을은", "이가을이", "이가을로", "이가을을"),
         "Ömer": ("Ömer는", "Ömer가", "Ömer로", "Ömer를")}


@pytest.mark.parametrize("name", sorted(_HARD))
def test_korean_particles_follow_hard_names(name: str) -> None:
    topic, subject, towards, obj = _HARD[name]
    assert text("ko", "name_taken", name=name).startswith(topic)
    assert text("ko", "ui_verdict_caught", accused=name).startswith(subject)
    assert towards in text("ko", "name_empty", most=16, default=name)
    assert obj in text("ko", "ev_accused", guard="Bea", accused=name)


@pytest.mark.parametrize("name", sorted(_HARD))
def test_no_korean_sentence_shows_both_particle_forms(name: str) -> None:
    for key, template in catalog("ko").items():
        fields = {field: name for field in re.findall(r"{(\w+)", template)}
        sentence = text("ko", key, **fields)
        assert not re.search(r"을\(를\)|이\(가\)|은\(는\)|과\(와\)|으로\(로\)", sentence), (key, sentence)


# 합니다/하세요 throughout: a 해요 ending ("마지막 카드였어요") or a plain -다 statement mixes
# registers. "아니요" (the answer No) and questions in -까요 are part of the chosen register.
_HAEYO = re.compile(r"(어|아|여|에|예|해|었|았|였|했|워|줘|봐)요(?=[.!?)]|$)")
_PLAIN = re.compile(r"[^니]다\.")


def test_korean_keeps_one_register() -> None:
    ko = catalog("ko")
    assert {key: entry for key, entry in ko.items() if _HAEYO.search(entry) or _PLAIN.search(entry)} == {}
    assert sum(entry.endswith(("니다.", "세요.", "니다", "세요")) for entry in ko.values()) > 50


def test_korean_figures_keep_their_counters() -> None:
    # A counter is written onto its number ("3초", "4장"), so no line can part them; a figure
    # with a unit after a space ("201.650 ms") is bound by the typesetter.
    ko = catalog("ko")
    assert {key: entry for key, entry in ko.items() if re.search(r"\} (초|장|명|점|표|개|번|자)\b", entry)} == {}
    shown = typeset("ko", text("ko", "ref_early_by", ms="357.000 ms"))
    assert "357.000\u00a0ms" in shown
    assert "3초" in text("ko", "ui_race_window", seconds=3)


def test_korean_parentheses_sit_on_their_word() -> None:
    # "주세요 (나방 제외)" wrapped "(나방 제외)." away from its verb; Korean writes "주세요(나방 제외)".
    # The kind keys' "(Esc: 취소)" belongs to the whole list, not to its last word.
    spaced = {key: entry for key, entry in catalog("ko").items()
              if re.search(r"[\uac00-\ud7a3}] \(", entry) and key != "ui_pending_kind"}
    assert spaced == {}


def test_korean_quotes_are_korean() -> None:
    for key, entry in catalog("ko").items():
        assert not re.search(r"'\w[^']*'", entry), (key, entry)     # '건너뛰기' -> ‘건너뛰기’


def test_a_korean_statement_ends_with_a_full_stop_not_a_colon() -> None:
    # "자리가 다 찼습니다: 최대 5명입니다." is English punctuation; Korean ends the sentence.
    # A colon still introduces a list, a figure or a name ("내리칩니다: Bea, Cem", "유죄 표: 1표").
    colons = {key: entry for key, entry in catalog("ko").items() if re.search(r"다: [\uac00-\ud7a3]", entry)}
    assert colons == {}
