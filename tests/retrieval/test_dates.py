"""Time references in queries, resolved against a fixed day by the journal's date engine."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from workmem.files.store import Store
from workmem.journal.daily import append_entry
from workmem.retrieval.dates import DateRange, first_date, parse_iso, query_range
from workmem.retrieval.search import search
from workmem.root import Workspace

TODAY = date(2026, 5, 25)  # a Monday


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did we decide on 2026-05-20", date(2026, 5, 20), date(2026, 5, 20)),
        ("notes from 8 May 2023", date(2023, 5, 8), date(2023, 5, 8)),
        ("the call on May 8, 2023", date(2023, 5, 8), date(2023, 5, 8)),
        ("plans for June 2023", date(2023, 6, 1), date(2023, 6, 30)),
        ("in May 2023", date(2023, 5, 1), date(2023, 5, 31)),
        ("what happened in 2024", date(2024, 1, 1), date(2024, 12, 31)),
        ("what happened yesterday", date(2026, 5, 24), date(2026, 5, 24)),
        ("3 days ago", date(2026, 5, 22), date(2026, 5, 22)),
        ("last week's decisions", date(2026, 5, 18), date(2026, 5, 24)),
        ("the week before last", date(2026, 5, 11), date(2026, 5, 17)),
        ("last month", date(2026, 4, 1), date(2026, 4, 30)),
        ("what did I buy in March?", date(2026, 3, 1), date(2026, 3, 31)),
        ("昨天做了什麼", date(2026, 5, 24), date(2026, 5, 24)),
        ("上週的決定", date(2026, 5, 18), date(2026, 5, 24)),
        ("上週二買了什麼", date(2026, 5, 19), date(2026, 5, 19)),
        ("三天前", date(2026, 5, 22), date(2026, 5, 22)),
        ("十二天前", date(2026, 5, 13), date(2026, 5, 13)),
        ("上个月", date(2026, 4, 1), date(2026, 4, 30)),
        ("2026年5月3日の会議", date(2026, 5, 3), date(2026, 5, 3)),
        ("先週", date(2026, 5, 18), date(2026, 5, 24)),
        ("来週の予定", date(2026, 6, 1), date(2026, 6, 7)),
        ("先月の決定", date(2026, 4, 1), date(2026, 4, 30)),
        ("지난주 화요일에 뭐 했지", date(2026, 5, 19), date(2026, 5, 19)),
        ("다음 달 계획", date(2026, 6, 1), date(2026, 6, 30)),
        ("그저께 회의", date(2026, 5, 23), date(2026, 5, 23)),
    ],
)
def test_query_ranges(query: str, start: date, end: date) -> None:
    assert query_range(query, TODAY) == DateRange(start, end)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        # several times: the span they bound
        ("between March 3 and March 10", date(2026, 3, 3), date(2026, 3, 10)),
        ("last week or the week before last", date(2026, 5, 11), date(2026, 5, 24)),
        ("yesterday and today", date(2026, 5, 24), date(2026, 5, 25)),
        # a year named alone frames the year-less dates, and is not a time of its own
        ("In 2023, what did I buy in March?", date(2023, 3, 1), date(2023, 3, 31)),
        ("what did I buy in March last year", date(2025, 3, 1), date(2025, 3, 31)),
        (
            "Where was John between August 11 and August 15 2023?",
            date(2023, 8, 11),
            date(2023, 8, 15),
        ),
        ("in 2023 on Feb 29", date(2023, 1, 1), date(2023, 12, 31)),
        # a date written out wins over relative words, which might count from it
        (
            "What did Maria do last weekend before April 10, 2023?",
            date(2023, 4, 10),
            date(2023, 4, 10),
        ),
        (
            "what did we decide yesterday about the 2026-05-20 release",
            date(2026, 5, 20),
            date(2026, 5, 20),
        ),
    ],
)
def test_queries_naming_several_times(query: str, start: date, end: date) -> None:
    assert query_range(query, TODAY) == DateRange(start, end)


@pytest.mark.parametrize(
    "query",
    [
        "sqlite index design",
        "on 2026-02-30",
        "a few days ago",
        "幾天前的事",
        "며칠 전",
        "다음 주소",
        "",
    ],
)
def test_queries_without_a_time(query: str) -> None:
    assert query_range(query, TODAY) is None


def test_iso_stamps_of_chunks() -> None:
    assert first_date("due 2026-13-01 or 2026-06-01") == "2026-06-01"
    assert first_date("logged 2026-5-3") == "2026-05-03"
    assert first_date("last week") is None  # chunk dates are stamps, never prose
    assert parse_iso("## 2026-05-24 standup") == date(2026, 5, 24)
    assert parse_iso(None) is None and parse_iso("") is None


def test_distance_and_span() -> None:
    week = DateRange(date(2026, 5, 18), date(2026, 5, 24))
    assert week.span == 7
    assert week.distance(date(2026, 5, 20)) == 0
    assert week.distance(date(2026, 5, 27)) == 3
    assert week.distance(date(2026, 5, 16)) == 2


@pytest.mark.parametrize(
    "query",
    ["先週の火曜日は何をした?", "지난주 화요일에 뭐 했지?", "上週二做了什麼", "last Tuesday"],
)
def test_search_finds_the_day_a_query_names_in_any_language(root: Path, query: str) -> None:
    """Real daily logs written through the Store; the query shares no word with them."""
    store = Store(Workspace(root))
    append_entry(store, date(2026, 5, 12), "10:00 Deploy", "Rolled out the billing service.")
    append_entry(store, date(2026, 5, 19), "11:00 Review", "Reviewed the ranking patch.")
    append_entry(store, date(2026, 5, 24), "09:00 Cleanup", "Removed stale feature flags.")
    hits = search(Workspace(root), query, k=3)
    assert hits and hits[0].date == "2026-05-19"
    assert all(hit.date == "2026-05-19" for hit in hits)


@pytest.mark.parametrize(
    ("query", "today", "start", "end"),
    [
        ("what did we decide last spring", date(2026, 12, 28), date(2026, 3, 1), date(2026, 5, 31)),
        # asked in spring, "last spring" is the one a year before
        ("what did we decide last spring", date(2026, 4, 10), date(2025, 3, 1), date(2025, 5, 31)),
        # the winter of a year begins in its December and runs into the next year
        (
            "the parser decision last winter",
            date(2026, 12, 28),
            date(2025, 12, 1),
            date(2026, 2, 28),
        ),
        ("last winter", date(2026, 1, 15), date(2024, 12, 1), date(2025, 2, 28)),
        ("this winter", date(2026, 1, 15), date(2025, 12, 1), date(2026, 2, 28)),
        ("next summer", date(2026, 7, 1), date(2027, 6, 1), date(2027, 8, 31)),
        ("in the spring of 2023", TODAY, date(2023, 3, 1), date(2023, 5, 31)),
        ("summer 2024 plans", TODAY, date(2024, 6, 1), date(2024, 8, 31)),
        # a season or month without a year is the most recent one: memory is of the past
        ("what changed in the fall", TODAY, date(2025, 9, 1), date(2025, 11, 30)),
        ("what changed in the spring", TODAY, date(2026, 3, 1), date(2026, 5, 31)),
        (
            "what did we decide in December?",
            date(2026, 1, 5),
            date(2025, 12, 1),
            date(2025, 12, 31),
        ),
        (
            "in 2023, what did we ship during the summer?",
            TODAY,
            date(2023, 6, 1),
            date(2023, 8, 31),
        ),
        ("去年春天的決定", TODAY, date(2025, 3, 1), date(2025, 5, 31)),
        ("今年夏季", TODAY, date(2026, 6, 1), date(2026, 8, 31)),
        ("去年の秋の会議", TODAY, date(2025, 9, 1), date(2025, 11, 30)),
        ("작년 겨울에 뭐 했지", TODAY, date(2025, 12, 1), date(2026, 2, 28)),
        ("지난 봄에 결정한 것", TODAY, date(2025, 3, 1), date(2025, 5, 31)),
    ],
)
def test_seasons(query: str, today: date, start: date, end: date) -> None:
    assert query_range(query, today) == DateRange(start, end)


@pytest.mark.parametrize(
    "query",
    ["I fall asleep at the desk", "spring cleaning of the repo", "the springs were broken", "春"],
)
def test_season_words_that_are_not_times(query: str) -> None:
    assert query_range(query, TODAY) is None


def test_a_season_ranks_its_entries_first(root: Path) -> None:
    """Every entry matches the words alike; only spring's are of the time asked about."""
    store = Store(Workspace(root))
    for month in range(1, 13):
        append_entry(store, date(2025, month, 10), "10:00 Parser", "Parser decision recorded.")
    for query in ("parser decision last spring", "去年春天的 parser decision"):
        hits = search(Workspace(root), query, k=3)
        assert [h.date for h in hits] == ["2025-05-10", "2025-04-10", "2025-03-10"] or sorted(
            h.date or "" for h in hits
        ) == ["2025-03-10", "2025-04-10", "2025-05-10"], query


def test_the_time_named_is_a_sub_query_of_its_own(root: Path) -> None:
    """A weaker match inside the time named is found even when stronger ones elsewhere
    fill every candidate place of the query as a whole."""
    from workmem.retrieval.ranking import Weights

    store = Store(Workspace(root))
    for day in range(1, 9):
        append_entry(
            store, date(2026, 3, day), "10:00 Cache", "Cache cache invalidation cache TTL cache."
        )
    append_entry(store, date(2026, 1, 20), "10:00 Misc", "We touched the cache once.")
    narrow = Weights(candidates=3)
    hits = search(Workspace(root), "cache in January", k=3, weights=narrow)
    assert hits[0].date == "2026-01-20"
