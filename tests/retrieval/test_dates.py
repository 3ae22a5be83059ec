"""Time references in queries, resolved against a fixed day."""

from __future__ import annotations

from datetime import date

import pytest

from workmem.retrieval.dates import DateRange, first_date, query_range

TODAY = date(2026, 5, 25)  # a Monday


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did we decide on 2026-05-20", date(2026, 5, 20), date(2026, 5, 20)),
        ("notes from 8 May 2023", date(2023, 5, 8), date(2023, 5, 8)),
        ("the call on May 8, 2023", date(2023, 5, 8), date(2023, 5, 8)),
        ("plans for June 2023", date(2023, 6, 1), date(2023, 6, 30)),
        ("what happened in 2024", date(2024, 1, 1), date(2024, 12, 31)),
        ("what happened yesterday", date(2026, 5, 24), date(2026, 5, 24)),
        ("3 days ago", date(2026, 5, 22), date(2026, 5, 22)),
        ("last week's decisions", date(2026, 5, 18), date(2026, 5, 24)),
        ("last month", date(2026, 4, 1), date(2026, 4, 30)),
        ("昨天做了什麼", date(2026, 5, 24), date(2026, 5, 24)),
        ("上週的決定", date(2026, 5, 18), date(2026, 5, 24)),
        ("三天前", date(2026, 5, 22), date(2026, 5, 22)),
        ("十二天前", date(2026, 5, 13), date(2026, 5, 13)),
        ("上个月", date(2026, 4, 1), date(2026, 4, 30)),
        ("2026年5月3日の会議", date(2026, 5, 3), date(2026, 5, 3)),
        ("先週", date(2026, 5, 18), date(2026, 5, 24)),
    ],
)
def test_query_ranges(query: str, start: date, end: date) -> None:
    assert query_range(query, TODAY) == DateRange(start, end)


def test_queries_without_time_and_impossible_dates() -> None:
    assert query_range("sqlite index design", TODAY) is None
    assert query_range("on 2026-02-30", TODAY) is None
    assert first_date("due 2026-13-01 or 2026-06-01") == "2026-06-01"


def test_distance_and_span() -> None:
    week = DateRange(date(2026, 5, 18), date(2026, 5, 24))
    assert week.span == 7
    assert week.distance(date(2026, 5, 20)) == 0
    assert week.distance(date(2026, 5, 27)) == 3
    assert week.distance(date(2026, 5, 16)) == 2
