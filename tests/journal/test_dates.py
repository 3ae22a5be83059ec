"""Date normalization: the issue's examples, both Chinese scripts, and LoCoMo's real sentences."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from workmem.journal.dates import find_dates, first_date, resolve_date
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
    ],
)
def test_resolves_what_people_say(said: str, expected: str, granularity: str) -> None:
    found = resolve_date(said, REF)
    assert found.date == date.fromisoformat(expected), said
    assert found.granularity == granularity
    assert found.raw == said


@pytest.mark.parametrize(
    "said", ["someday", "a few days ago", "幾天前", "好几个月前", "週二", "Tuesday", "recently", ""]
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
