"""Korean wording the second native review asked for (issue 22, docs/i18n/ko.md). Each check
names what the reviewer misread on screen, so a later edit that brings the old wording back fails."""

from __future__ import annotations

import re

from game.i18n.ko import REFEREE
from game.i18n.lookup import catalog, text
from game.i18n.typography import typeset


def test_a_number_a_card_is_played_on_is_never_read_as_a_place() -> None:
    # "1 위에 2 또는 5를 내고" beside the board's 1위/2위/3위 read as "in first place".
    ko = catalog("ko")
    bare = {key: entry for key, entry in ko.items() if re.search(r"(\}|\d) 위에", entry)}
    assert bare == {}
    assert "1 카드 위에 2 또는 5를" in text("ko", "turn", player="Ali", top=1, up=2, down=5)
    assert "Bea가 3 카드 위에 낸 카드" in text("ko", "cockroach_card", winner="Bea", reaction="201.650 ms", number=3)


def test_a_referee_round_is_a_pan_not_a_race() -> None:
    # Grabbing or slapping a button is not a running race: "잡기 · 경주 1", "다음 경주", and a
    # bare "경주" button on the statistics screen that meant "back".
    assert {key: entry for key, entry in REFEREE.items() if "경주" in entry} == {}
    assert text("ko", "ref_races", number=3) == "3판"
    assert text("ko", "ref_next") == "다음 판"
    assert text("ko", "ref_race_back") == text("ko", "ui_back")


def test_the_vote_count_says_which_number_counts_voters() -> None:
    # "유죄 표: 2표 중 1표" beside "유죄 판정에 2표 필요": was 2 the voters or the votes needed?
    assert text("ko", "ui_votes", judges=2, votes=1) == "투표자 2명 중 유죄 1표"
    tally = text("ko", "ui_tally_vote", judges=3, votes=0, needed=2)
    assert tally.startswith("투표자 3명 중 유죄 0표") and "필요 2표" in tally


def test_not_guilty_does_not_claim_the_accused_never_cheated() -> None:
    # The table only voted: "Dan은 속임수를 쓰지 않았습니다" stated a fact nobody knows.
    said = text("ko", "ui_verdict_cleared", accused="Dan")
    assert said == "Dan의 속임수가 인정되지 않았습니다." and "쓰지 않았" not in said


def test_penalty_points_are_never_called_a_score() -> None:
    # Lower is better: the chart's title and the tie rule say 벌점, as the column does.
    ko = catalog("ko")
    for key in ("ui_chart", "var_top_tie", "ui_col_points"):
        assert "벌점" in ko[key] and "점수" not in ko[key], (key, ko[key])


def test_the_guard_changing_hands_is_not_a_card_handed_over() -> None:
    assert text("ko", "ev_guard_changed", old="Cem", new="Dan") == "감시자 교대: Cem → Dan."


def test_words_that_belong_together_never_part_at_a_line_end() -> None:
    # Seen at 720x1280: "빨간 / 버튼", "첫 / 문제", "몰래 / 버림: 0", "숫자 / 1", "바꿀 수 / 있습니다".
    ko = catalog("ko")
    split = {key: entry for key, entry in ko.items() if re.search(r"빨간 버튼|첫 문제|몰래 버림", entry)}
    assert split == {}
    assert "바꿀\u00a0수\u00a0있습니다" in ko["ui_rules_locked"]
    legend = typeset("ko", text("ko", "ui_points_legend", moths=10, actions=5, numbers=1))
    assert all(pair in legend for pair in ("나방\u00a010", "액션\u00a05", "숫자\u00a01")), legend


def test_the_staff_words_are_the_usual_ones() -> None:
    # "경주 시간" also held the accusation and vote times; a leaderboard is 초기화, not 비우기.
    ko = catalog("ko")
    assert ko["ui_staff_timings"] == "시간 설정"
    assert ko["ui_reset_board"] == "순위표 초기화" and "초기화" in ko["ui_board_was_reset"]
