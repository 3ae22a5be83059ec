"""Dates in memory text and time references in queries.

A query that names a time ("last week", "May 2023", 上週, 三天前) ranks entries near that
time higher; this module turns such words into a date range. Relative words resolve
against ``clock.now()`` so a pinned clock pins the answer. Only forms that are
unambiguous are read (DESIGN.md: dateparser is slow and misses Chinese forms, so these
rules are our own).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_MONTHS = {
    name: index
    for index, names in enumerate(
        (
            (),
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        )
    )
    for name in names
}
_MONTH = (
    r"(january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH}\.?,?\s+(\d{{4}})\b", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_MONTH_YEAR = re.compile(rf"\b{_MONTH}\.?,?\s+(\d{{4}})\b", re.I)
_YEAR = re.compile(r"\b(?:in|during|of|since|year)\s+((?:19|20)\d{2})\b", re.I)
_CJK_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号號])?")
_AGO = re.compile(
    r"\b(\d{1,3}|a|an|one|two|three|four|five|six|seven)\s+(day|week|month)s?\s+ago\b", re.I
)
_CJK_AGO = re.compile(
    r"([0-9一二兩两三四五六七八九十]{1,3})\s*(?:個|个)?\s*(天|日|週|周|星期|禮拜|礼拜|月)前"
)
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_EN_NUMBERS |= {"six": 6, "seven": 7}
_CJK_DIGITS = {"一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_CJK_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}


@dataclass(frozen=True)
class DateRange:
    start: date
    end: date

    def distance(self, day: date) -> int:
        """Days from ``day`` to the range; 0 inside it."""
        if day < self.start:
            return (self.start - day).days
        if day > self.end:
            return (day - self.end).days
        return 0

    @property
    def span(self) -> int:
        return (self.end - self.start).days + 1


def parse_iso(text: str | None) -> date | None:
    if not text:
        return None
    match = _ISO.search(text)
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def first_date(text: str) -> str | None:
    """The first valid ``YYYY-MM-DD`` in ``text``, normalised, or None."""
    for match in _ISO.finditer(text):
        try:
            day = date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        except ValueError:
            continue
        return day.isoformat()
    return None


def _month_range(year: int, month: int) -> DateRange:
    last = calendar.monthrange(year, month)[1]
    return DateRange(date(year, month, 1), date(year, month, last))


def _day(year: int, month: int, day: int) -> DateRange | None:
    try:
        one = date(year, month, day)
    except ValueError:
        return None
    return DateRange(one, one)


def _week_of(day: date) -> DateRange:
    monday = day - timedelta(days=day.weekday())
    return DateRange(monday, monday + timedelta(days=6))


def _cjk_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    if "十" in text:
        tens, _, ones = text.partition("十")
        return _CJK_DIGITS.get(tens, 1) * 10 + _CJK_DIGITS.get(ones, 0)
    return _CJK_DIGITS.get(text, 1)


def _absolute(query: str) -> DateRange | None:
    lowered = query.lower()
    iso = parse_iso(query)
    if iso:
        return DateRange(iso, iso)
    cjk = _CJK_DATE.search(query)
    if cjk:
        year, month = int(cjk.group(1)), int(cjk.group(2))
        if cjk.group(3):
            return _day(year, month, int(cjk.group(3)))
        return _month_range(year, month) if 1 <= month <= 12 else None
    match = _DAY_MONTH_YEAR.search(lowered)
    if match:
        return _day(int(match.group(3)), _MONTHS[match.group(2)], int(match.group(1)))
    match = _MONTH_DAY_YEAR.search(lowered)
    if match:
        return _day(int(match.group(3)), _MONTHS[match.group(1)], int(match.group(2)))
    match = _MONTH_YEAR.search(lowered)
    if match:
        return _month_range(int(match.group(2)), _MONTHS[match.group(1)])
    match = _YEAR.search(lowered)
    if match:
        year = int(match.group(1))
        return DateRange(date(year, 1, 1), date(year, 12, 31))
    return None


def _previous_month(today: date) -> DateRange:
    first = today.replace(day=1) - timedelta(days=1)
    return _month_range(first.year, first.month)


def _relative(query: str, today: date) -> DateRange | None:
    lowered = query.lower()
    single = {
        "day before yesterday": 2,
        "前天": 2,
        "一昨日": 2,
        "그저께": 2,
        "yesterday": 1,
        "昨天": 1,
        "昨日": 1,
        "어제": 1,
        "today": 0,
        "今天": 0,
        "今日": 0,
        "오늘": 0,
    }
    for word, back in single.items():
        if word in lowered:
            one = today - timedelta(days=back)
            return DateRange(one, one)
    match = _AGO.search(lowered)
    if match:
        amount = _EN_NUMBERS.get(match.group(1), 0) or int(match.group(1) or 0)
        return _ago(today, amount, match.group(2))
    match = _CJK_AGO.search(query)
    if match:
        unit = {"天": "day", "日": "day", "月": "month"}.get(match.group(2), "week")
        return _ago(today, _cjk_number(match.group(1)), unit)
    if any(
        w in lowered
        for w in (
            "last week",
            "previous week",
            "上週",
            "上周",
            "上星期",
            "上個星期",
            "上个星期",
            "上禮拜",
            "上礼拜",
            "先週",
            "지난주",
        )
    ):
        return _week_of(today - timedelta(days=7))
    if any(
        w in lowered
        for w in (
            "this week",
            "本週",
            "本周",
            "這週",
            "这周",
            "這星期",
            "这星期",
            "今週",
            "이번 주",
        )
    ):
        return _week_of(today)
    if any(
        w in lowered
        for w in ("last month", "previous month", "上個月", "上个月", "上月", "先月", "지난달")
    ):
        return _previous_month(today)
    if any(w in lowered for w in ("this month", "這個月", "这个月", "本月", "今月", "이번 달")):
        return _month_range(today.year, today.month)
    if any(w in lowered for w in ("last year", "去年", "昨年", "작년")):
        return DateRange(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31))
    return None


def _ago(today: date, amount: int, unit: str) -> DateRange:
    if unit == "day":
        one = today - timedelta(days=amount)
        return DateRange(one, one)
    if unit == "week":
        return _week_of(today - timedelta(days=7 * amount))
    month_index = today.year * 12 + today.month - 1 - amount
    return _month_range(month_index // 12, month_index % 12 + 1)


def query_range(query: str, today: date) -> DateRange | None:
    """The time a query names, if any: absolute forms first, then relative words."""
    return _absolute(query) or _relative(query, today)
