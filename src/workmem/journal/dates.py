"""Dates in what people say, resolved against the day they said it.

An event is only useful for "what did I buy in March?" if its date is a date, not the words
"last Tuesday". So every event is normalized against the session's date when it is
recorded. The rules are deterministic and documented (seed 004 asks for deterministic
temporal support): absolute forms go through ``dateutil``; relative forms in English and
Chinese (Traditional and Simplified) are our own rules, because dateutil reads neither and
dateparser misses 上週二 / 三天前 and costs over a second per Chinese string (DESIGN.md).

Rules that a reader could dispute are fixed here, once:

* weeks start on Monday; "last week" is the previous Monday-Sunday week;
* "last Friday" is the most recent Friday strictly before the day (LoCoMo's annotators read
  it that way: "last Friday" said on Saturday 15 July 2023 is 14 July); 上週五 is the Friday
  of the previous calendar week; "this Friday" / 這週五 the one of the current week, "next
  Friday" / 下週五 the one of the next week;
* a month and day without a year ("3/15", "March 15", "3月15日") take the session's year;
  numeric dates read month first (US) unless the first number is over 12;
* a bare weekday ("on Tuesday", 週二), "a few days ago", "recently", 幾天前: not resolved.
  The raw text is kept and no date is set; nothing is guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

DAY = "day"
WEEK = "week"
WEEKEND = "weekend"
MONTH = "month"
YEAR = "year"
NONE = "none"


@dataclass(frozen=True)
class ResolvedDate:
    """One date expression: as written, and the day or range it means (or ``None``)."""

    raw: str
    date: dt.date | None
    start: dt.date | None = None
    end: dt.date | None = None
    granularity: str = NONE
    rule: str = "unresolved"
    #: False when a month/day had no year and took the reference year ("3/15", "in March").
    year_given: bool = True
    #: Position of the expression in the scanned text (0, 0 when resolved alone).
    span: tuple[int, int] = (0, 0)

    @property
    def resolved(self) -> bool:
        return self.date is not None

    def contains(self, day: dt.date) -> bool:
        if self.start is None or self.end is None:
            return False
        return self.start <= day <= self.end

    def to_dict(self) -> dict[str, object]:
        return {
            "raw": self.raw,
            "date": self.date.isoformat() if self.date else None,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "granularity": self.granularity,
            "rule": self.rule,
            "year_given": self.year_given,
        }


Rule = Callable[[re.Match[str], date], "ResolvedDate | None"]


def unresolved(raw: str, rule: str = "unresolved", span: tuple[int, int] = (0, 0)) -> ResolvedDate:
    return ResolvedDate(raw=raw, date=None, rule=rule, span=span)


def on_day(raw: str, day: date, rule: str, *, year_given: bool = True) -> ResolvedDate:
    return ResolvedDate(raw, day, day, day, DAY, rule, year_given)


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_of(raw: str, monday: date, rule: str, point: date | None = None) -> ResolvedDate:
    return ResolvedDate(raw, point or monday, monday, monday + timedelta(days=6), WEEK, rule)


def weekend_of(raw: str, monday: date, rule: str) -> ResolvedDate:
    saturday = monday + timedelta(days=5)
    return ResolvedDate(raw, saturday, saturday, saturday + timedelta(days=1), WEEKEND, rule)


def month_of(
    raw: str, year: int, month: int, rule: str, *, year_given: bool = True
) -> ResolvedDate | None:
    if not (1 <= month <= 12) or not (1 <= year <= 9999):
        return None
    first = date(year, month, 1)
    last = date(year, 12, 31) if month == 12 else date(year, month + 1, 1) - timedelta(days=1)
    return ResolvedDate(raw, first, first, last, MONTH, rule, year_given)


def year_of(raw: str, year: int, rule: str) -> ResolvedDate | None:
    if not (1 <= year <= 9999):
        return None
    return ResolvedDate(raw, date(year, 1, 1), date(year, 1, 1), date(year, 12, 31), YEAR, rule)


def safe_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def shift_months(day: date, months: int) -> date:
    from dateutil.relativedelta import relativedelta

    shifted: date = day + relativedelta(months=months)
    return shifted


def scan(
    text: str, reference: date, rules: list[tuple[re.Pattern[str], Rule]]
) -> list[ResolvedDate]:
    """Every non-overlapping expression the rules find, longest first at each position."""
    found: list[tuple[int, int, ResolvedDate]] = []
    for pattern, rule in rules:
        for match in pattern.finditer(text):
            if match.end() == match.start():
                continue
            result = rule(match, reference)
            if result is None:
                continue
            span = (match.start(), match.end())
            raw = text[span[0] : span[1]].strip()
            found.append((span[0], span[1], _with(result, raw, span)))
    found.sort(key=lambda item: (item[0], -(item[1] - item[0])))
    chosen: list[ResolvedDate] = []
    last_end = -1
    for start, end, result in found:
        if start >= last_end:
            chosen.append(result)
            last_end = end
    return chosen


def _with(result: ResolvedDate, raw: str, span: tuple[int, int]) -> ResolvedDate:
    return ResolvedDate(
        raw,
        result.date,
        result.start,
        result.end,
        result.granularity,
        result.rule,
        result.year_given,
        span,
    )


def find_dates(text: str, reference: date) -> list[ResolvedDate]:
    """Every date expression in ``text`` (English and Chinese), in reading order.

    Expressions recognised but not resolvable ("a few days ago", 幾天前) are included with
    ``date=None`` so callers can keep the raw words.
    """
    from . import dates_en, dates_zh

    hits = scan(text, reference, [*dates_en.RULES, *dates_zh.RULES])
    hits.sort(key=lambda r: r.span)
    return hits


def resolve_date(expression: str, reference: date) -> ResolvedDate:
    """One expression on its own (``--date-text "上週二"``); unresolvable gives no date."""
    raw = expression.strip()
    if not raw:
        return unresolved(raw)
    from . import dates_en

    whole = dates_en.resolve_whole(raw, reference)
    if whole is not None:
        return whole
    hits = [h for h in find_dates(raw, reference) if h.resolved]
    if len(hits) == 1:
        return _with(hits[0], raw, (0, len(raw)))
    return unresolved(raw)


def first_date(text: str, reference: date) -> ResolvedDate | None:
    """The first resolvable date in ``text``, else the first unresolvable one, else None."""
    hits = find_dates(text, reference)
    for hit in hits:
        if hit.resolved:
            return hit
    return hits[0] if hits else None


def parse_iso_day(value: str) -> date | None:
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None
