"""Date normalization: the issue's examples, both Chinese scripts, and LoCoMo's real sentences."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from workmem.journal.dates import (
    find_dates,
    first_date,
    iso_day,
    resolve_date,
    shift_months,
    with_year,
)
from workmem.journal.dates_en import WEEKDAYS
from workmem.journal.dates_zh import zh_number

# Monday 25 May 2026, the pinned day of the test suite
REF = date(2026, 5, 25)


@pytest.mark.parametrize(
    "said, expected, granularity",
    [
        ("3/15", "2026-03-15", "day"),
        ("March 15", "2026-03-15", "day"),
        ("2023-03-15", "2023-03-15", "day"),
        ("3月15日", "2026-03-15", "day"),
        ("2023年3月15日", "2023-03-15", "day"),
        ("15 March 2023", "2023-03-15", "day"),
        ("8 May, 2023", "2023-05-08", "day"),
        ("15/3", "2026-03-15", "day"),
        ("yesterday", "2026-05-24", "day"),
        ("the day before yesterday", "2026-05-23", "day"),
        ("last Tuesday", "2026-05-19", "day"),
        ("last Monday", "2026-05-18", "day"),
        ("next Friday", "2026-06-05", "day"),
        ("2 weeks ago", "2026-05-11", "week"),
        ("three days ago", "2026-05-22", "day"),
        ("last week", "2026-05-18", "week"),
        ("last month", "2026-04-01", "month"),
        ("this past weekend", "2026-05-23", "weekend"),
        ("昨天", "2026-05-24", "day"),
        ("前天", "2026-05-23", "day"),
        ("大前天", "2026-05-22", "day"),
        ("上週二", "2026-05-19", "day"),
        ("上周二", "2026-05-19", "day"),
        ("上星期天", "2026-05-24", "day"),
        ("上上週五", "2026-05-15", "day"),
        ("三天前", "2026-05-22", "day"),
        ("十五天前", "2026-05-10", "day"),
        ("兩週前", "2026-05-11", "week"),
        ("两周前", "2026-05-11", "week"),
        ("三個月前", "2026-02-01", "month"),
        ("三个月前", "2026-02-01", "month"),
        ("上個月15號", "2026-04-15", "day"),
        ("上个月15号", "2026-04-15", "day"),
        ("去年3月", "2025-03-01", "month"),
        ("下週末", "2026-06-06", "weekend"),
        ("3日後", "2026-05-28", "day"),
        # an explicit year wins over the session's year
        ("in May 2023", "2023-05-01", "month"),
        ("early May 2023", "2023-05-01", "month"),
        ("in May, 2023", "2023-05-01", "month"),
        ("March of 2023", "2023-03-01", "month"),
        ("May 8 of 2023", "2023-05-08", "day"),
        ("December 1,2023", "2023-12-01", "day"),
        ("the 8th of May, 2023", "2023-05-08", "day"),
        ("in March 15", "2026-03-15", "day"),
        # Japanese
        ("先週", "2026-05-18", "week"),
        ("今週", "2026-05-25", "week"),
        ("来週", "2026-06-01", "week"),
        ("先々週", "2026-05-11", "week"),
        ("再来週", "2026-06-08", "week"),
        ("先月", "2026-04-01", "month"),
        ("今月", "2026-05-01", "month"),
        ("来月", "2026-06-01", "month"),
        ("昨日", "2026-05-24", "day"),
        ("一昨日", "2026-05-23", "day"),
        ("今日", "2026-05-25", "day"),
        ("明後日", "2026-05-27", "day"),
        ("おととい", "2026-05-23", "day"),
        ("先週の火曜日", "2026-05-19", "day"),
        ("来週金曜", "2026-06-05", "day"),
        ("今週末", "2026-05-30", "weekend"),
        ("先月10日", "2026-04-10", "day"),
        ("昨年", "2025-01-01", "year"),
        ("一昨年の3月", "2024-03-01", "month"),
        ("来年4月1日", "2027-04-01", "day"),
        ("3週間前", "2026-05-04", "week"),
        ("二ヶ月前", "2026-03-01", "month"),
        ("1週間後", "2026-06-01", "week"),
        ("2026年5月3日", "2026-05-03", "day"),
        # Korean
        ("지난주", "2026-05-18", "week"),
        ("이번 주", "2026-05-25", "week"),
        ("다음 주", "2026-06-01", "week"),
        ("지지난주", "2026-05-11", "week"),
        ("지난달", "2026-04-01", "month"),
        ("이번 달", "2026-05-01", "month"),
        ("다음 달", "2026-06-01", "month"),
        ("어제", "2026-05-24", "day"),
        ("오늘", "2026-05-25", "day"),
        ("그저께", "2026-05-23", "day"),
        ("내일", "2026-05-26", "day"),
        ("어젯밤", "2026-05-24", "day"),
        ("지난주 화요일", "2026-05-19", "day"),
        ("지난 화요일", "2026-05-19", "day"),
        ("다음 주 금요일", "2026-06-05", "day"),
        ("이번 주말", "2026-05-30", "weekend"),
        ("지난달 15일", "2026-04-15", "day"),
        ("3일 전", "2026-05-22", "day"),
        ("2주 전", "2026-05-11", "week"),
        ("한 달 전", "2026-04-01", "month"),
        ("일주일 전", "2026-05-18", "week"),
        ("이틀 후", "2026-05-27", "day"),
        ("작년 3월", "2025-03-01", "month"),
        ("2023년 5월 8일", "2023-05-08", "day"),
        ("2023년", "2023-01-01", "year"),
        ("5월 8일", "2026-05-08", "day"),
    ],
)
def test_resolves_what_people_say(said: str, expected: str, granularity: str) -> None:
    found = resolve_date(said, REF)
    assert found.date == date.fromisoformat(expected), said
    assert found.granularity == granularity
    assert found.raw == said


@pytest.mark.parametrize(
    "said",
    [
        "someday",
        "a few days ago",
        "幾天前",
        "好几个月前",
        "週二",
        "Tuesday",
        "recently",
        "",
        "数週間前",
        "先日",
        "며칠 전",
        "몇 주 전",
        "얼마 전",
        "화요일",
    ],
)
def test_unresolvable_dates_keep_the_words_and_no_date(said: str) -> None:
    found = resolve_date(said, REF)
    assert found.date is None
    assert found.raw == said.strip()
    assert not found.resolved


def test_year_less_dates_say_so() -> None:
    assert resolve_date("3/15", REF).year_given is False
    assert resolve_date("3/15/2023", REF).year_given is True
    assert resolve_date("in March", REF).year_given is False


def test_ranges_cover_the_whole_period() -> None:
    week = resolve_date("上週", REF)
    assert (week.start, week.end) == (date(2026, 5, 18), date(2026, 5, 24))
    month = resolve_date("last month", REF)
    assert (month.start, month.end) == (date(2026, 4, 1), date(2026, 4, 30))
    december = resolve_date("2025年12月", REF)
    assert (december.start, december.end) == (date(2025, 12, 1), date(2025, 12, 31))


def test_finds_every_expression_in_a_sentence_in_order() -> None:
    text = "I bought white Adidas sneakers on 3/15. 我上週二去了超市，三天前買了鞋, then yesterday."
    found = find_dates(text, REF)
    assert [f.raw for f in found] == ["3/15", "上週二", "三天前", "yesterday"]
    assert [f.date for f in found] == [
        date(2026, 3, 15),
        date(2026, 5, 19),
        date(2026, 5, 22),
        date(2026, 5, 24),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "add 1/2 cup of flour",
        "the job is 3/4 done",
        "we may go there",
        "they march on",
        "version 2.3.1 shipped",
        "I have 2 cats",
    ],
)
def test_ratios_verbs_and_numbers_are_not_dates(text: str) -> None:
    assert [f for f in find_dates(text, REF) if f.resolved] == []


@pytest.mark.parametrize(
    "text",
    [
        "다음 주소를 알려 주세요",  # next address, not next week
        "오늘날의 검색 엔진",  # nowadays
        "그제야 알았다",  # only then
        "이 일 전에 끝내자",  # before this work
        "지난 주장은 틀렸다",  # the last claim
        "3일 전화했다",  # telephoned
        "이번 달력은 예쁘다",  # this calendar
        "내일모레",  # "one of these days"
        "月曜日に会う",  # a bare weekday
        "将来の計画",
    ],
)
def test_korean_and_japanese_words_inside_other_words_are_not_dates(text: str) -> None:
    assert [f.raw for f in find_dates(text, REF) if f.resolved] == []


def test_korean_particles_and_several_languages_in_one_sentence() -> None:
    text = "지난주에 회의했고 어제는 쉬었다. 先週の火曜日 and 上週二 were the same day, 2 weeks ago"
    found = find_dates(text, REF)
    assert [f.raw for f in found] == ["지난주", "어제", "先週の火曜日", "上週二", "2 weeks ago"]
    assert found[2].date == found[3].date == date(2026, 5, 19)


def test_shift_months_clamps_to_the_end_of_the_month() -> None:
    assert shift_months(date(2026, 3, 31), -1) == date(2026, 2, 28)
    assert shift_months(date(2024, 3, 31), -1) == date(2024, 2, 29)
    assert shift_months(date(2026, 1, 15), -1) == date(2025, 12, 15)
    assert shift_months(date(2026, 11, 30), 14) == date(2028, 1, 30)
    last_month = resolve_date("上個月", date(2026, 3, 31))
    assert (last_month.start, last_month.end) == (date(2026, 2, 1), date(2026, 2, 28))


def test_dates_off_the_calendar_are_skipped_not_raised() -> None:
    assert [f for f in find_dates("300 years ago, last month", date(1, 1, 5)) if f.resolved] == []
    assert resolve_date("3 days later than tomorrow", date(9999, 12, 31)).date is None


def test_with_year_moves_only_year_less_days_and_months() -> None:
    march = resolve_date("in March", REF)
    moved = with_year(march, 2023)
    assert moved is not None and (moved.start, moved.end) == (date(2023, 3, 1), date(2023, 3, 31))
    assert moved.year_given and moved.raw == "in March"
    day = resolve_date("2/29", date(2024, 5, 1))
    assert day.date == date(2024, 2, 29) and with_year(day, 2023) is None
    given = resolve_date("May 8, 2023", REF)
    assert with_year(given, 2020) == given


def test_iso_day_finds_the_first_valid_stamp() -> None:
    assert iso_day("due 2026-13-01 or 2026-6-1") == date(2026, 6, 1)
    assert iso_day("build 12026-05-01 and v2026-05-02x") == date(2026, 5, 2)
    assert iso_day("no date here") is None
    assert iso_day(None) is None


def test_english_text_never_loads_the_cjk_and_korean_rules() -> None:
    script = (
        "import sys; from datetime import date; from workmem.journal import dates as d; "
        "d.find_dates('we shipped it last week', date(2026, 5, 25)); "
        "print(sorted(m for m in sys.modules if m.startswith('workmem.journal.dates_')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['workmem.journal.dates_en', 'workmem.journal.dates_seasons']"


def test_month_names_need_a_capital_or_a_preposition() -> None:
    assert first_date("We met in may", REF) is not None
    assert first_date("May 5 was the launch", REF) is not None
    assert first_date("you may 5 times retry", REF) is None


def test_chinese_numerals() -> None:
    assert [zh_number(n) for n in ("三", "十", "十五", "二十三", "兩", "一百", "１２")] == [
        3,
        10,
        15,
        23,
        2,
        100,
        12,
    ]
    assert zh_number("幾") is None


def test_invalid_calendar_days_are_not_dates() -> None:
    assert resolve_date("2/30", REF).date is None
    assert resolve_date("2月30日", REF).date is None
    assert resolve_date("2026-13-01", REF).date is None


# --- LoCoMo (real conversations with annotated answers) -------------------------------------


def _session_day(stamp: str) -> date:
    return datetime.strptime(stamp.split(" on ")[1].replace(",", ""), "%d %B %Y").date()


def _gold_day(answer: object) -> date | None:
    text = str(answer).strip()
    exact = re.fullmatch(r"(\d{1,2}) (\w+),? (\d{4})", text)
    if exact:
        return datetime.strptime(f"{exact[1]} {exact[2]} {exact[3]}", "%d %B %Y").date()
    before = re.fullmatch(r"[Tt]he (\w+) before (\d{1,2} \w+,? \d{4})", text)
    if before and before[1].lower() in WEEKDAYS:
        ref = datetime.strptime(before[2].replace(",", ""), "%d %B %Y").date()
        back = (ref.weekday() - WEEKDAYS[before[1].lower()]) % 7 or 7
        return ref - timedelta(days=back)
    return None


def locomo_day_cases(shared: Path) -> list[tuple[str, date, date]]:
    """(evidence sentence, session day, annotated day) for LoCoMo's day-precise date answers."""
    data = json.loads((shared / "data" / "locomo" / "locomo_dev.json").read_text("utf-8"))
    cases = []
    for sample in data:
        conversation = sample["conversation"]
        turns = {}
        for key, value in conversation.items():
            if key.startswith("session_") and isinstance(value, list):
                for turn in value:
                    turns[turn["dia_id"]] = (key, turn["text"])
        for qa in sample["qa"]:
            gold = _gold_day(qa.get("answer")) if qa["category"] == 2 else None
            evidence = [e.strip() for e in ";".join(qa["evidence"]).split(";")]
            evidence = [e for e in evidence if e in turns]
            if gold is None or not evidence:
                continue
            session, text = turns[evidence[0]]
            cases.append((text, _session_day(conversation[f"{session}_date_time"]), gold))
    return cases


def test_locomo_relative_dates_resolve_to_the_annotated_day(shared_dir: Path) -> None:
    cases = locomo_day_cases(shared_dir)
    assert len(cases) >= 25
    agree = disagree = no_expression = 0
    for text, said_on, gold in cases:
        days = [f.date for f in find_dates(text, said_on) if f.resolved and f.granularity == "day"]
        if not days:
            no_expression += 1  # "I just launched …": the sentence names no date at all
        elif gold in days:
            agree += 1
        else:
            disagree += 1
    # Measured: 26 agree, 1 disagree (the annotation says Sunday where the text says "last
    # Saturday"), 5 sentences without a date expression.
    assert agree >= 25
    assert disagree <= 1
    assert agree + disagree + no_expression == len(cases)
