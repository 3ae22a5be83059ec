"""The time a query names, as one range search can rank by; the dates of stored chunks.

Words are read by the journal's date engine (``workmem.journal.dates``), the only one in
workmem, so search and the events ledger agree on what "last week", 上週二, 先週 or 지난달
mean, and a rule fixed there is fixed for both. This module only decides what one range a
query stands for, and reads the exact ``YYYY-MM-DD`` stamps that memory files carry.

A query may name several times; the rules, in order:

1. a year the query names ("in 2023", "last year", 去年, 작년, or the year of "May 8, 2023")
   is given to the days, months and seasons written without one ("in 2023, what did I buy in
   March?" is March 2023, "between August 11 and August 15 2023" starts on 2023-08-11), and
   a year that served as that frame is not a time of its own; this needs one such year;
2. times written out in full (a day, month or year whose meaning does not depend on the
   day the question is asked) win over relative words: in "what did she do last weekend
   before April 10, 2023" the relative words may count from today or from that date, the
   written date is the one thing certain;
3. a day or month without a year is the most recent one ("in December" asked in January
   is last December);
4. the range is the span from the earliest to the latest of what is left: "between March
   3 and March 10", "last week or the week before", 上週和這週 are about the stretch they
   bound, and ranking scores by distance to a single range.

Words that name no day ("a few days ago", 幾天前, 며칠 전) give no range.

A bare weekday ("what did we do on Monday", 週二, 火曜日, 화요일) or day of the month ("on
the 2nd", 2號, 2日), which the date engine never guesses (an event said to happen "on
Tuesday" may be next Tuesday), is read here as the most recent such day, today included: a
question to a memory is about the past. It is used only when the query names no other
time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from ..journal.dates import YEAR, ResolvedDate, anchor_year, find_dates, iso_day, with_year
from ..journal.dates_seasons import SEASON, season_in_year
from . import bounds as query_bounds


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
    """The first valid ``YYYY-MM-DD`` in ``text`` as a date, or None."""
    return iso_day(text)


def first_date(text: str) -> str | None:
    """The first valid ``YYYY-MM-DD`` in ``text``, normalised (2026-5-3 -> 2026-05-03)."""
    found = iso_day(text)
    return found.isoformat() if found else None


_WEEKDAY = re.compile(
    r"\b(?P<en>monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
    r"|(?:週|周|星期|禮拜|礼拜)(?P<zh>[一二三四五六日天])"
    r"|(?P<ja>[月火水木金土日])曜"
    r"|(?P<ko>[월화수목금토일])요일",
    re.IGNORECASE,
)
_EN_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_CHARS = {"zh": "一二三四五六日", "ja": "月火水木金土日", "ko": "월화수목금토일"}


def bare_weekdays(query: str, today: date) -> DateRange | None:
    """The most recent day (today included) of each weekday ``query`` names, as one range."""
    days: list[date] = []
    for match in _WEEKDAY.finditer(query):
        if match.group("en"):
            target = _EN_DAYS.index(match.group("en").lower())
        else:
            script = next(name for name in _DAY_CHARS if match.group(name))
            char = match.group(script)
            target = 6 if char == "天" else _DAY_CHARS[script].index(char)
        days.append(today - timedelta(days=(today.weekday() - target) % 7))
        if len(days) >= query_bounds.MAX_DATES:
            break
    return DateRange(min(days), max(days)) if days else None


_MONTH_DAY = re.compile(
    r"\bthe\s+(?P<en>[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)\b"
    r"|(?<![0-9月/\-.])(?P<cjk>[1-9]|[12][0-9]|3[01])\s*[號号日](?![間间前後后])",
    re.IGNORECASE,
)


def bare_month_days(query: str, today: date) -> DateRange | None:
    """The most recent day (today included) of each day of the month ``query`` names."""
    days: list[date] = []
    for match in _MONTH_DAY.finditer(query):
        number = int(match.group("en") or match.group("cjk"))
        year, month = today.year, today.month
        for _ in range(3):  # "the 31st" asked in April is March's
            if number <= today.day or (year, month) != (today.year, today.month):
                try:
                    days.append(date(year, month, number))
                    break
                except ValueError:
                    pass
            year, month = (year, month - 1) if month > 1 else (year - 1, 12)
        if len(days) >= query_bounds.MAX_DATES:
            break
    return DateRange(min(days), max(days)) if days else None


def query_range(query: str, today: date) -> DateRange | None:
    """The time ``query`` names, resolved against ``today``, or None when it names none.

    Only the start of a long query is read, and only its first times count (``bounds``).
    """
    query = query_bounds.prefix(query, query_bounds.MAX_DATE_CHARS)
    hits = [hit for hit in find_dates(query, today) if hit.resolved][: query_bounds.MAX_DATES]
    if not hits:
        return bare_weekdays(query, today) or bare_month_days(query, today)
    written = _written_out(query, today, hits)
    framed = [_in_the_past(hit, today) for hit in _years_framed(hits, written)]
    kept = [hit for hit in framed if hit.span in written] or framed
    bounds = [(hit.start, hit.end) for hit in kept if hit.start and hit.end]
    if not bounds:
        return None
    return DateRange(min(start for start, _ in bounds), max(end for _, end in bounds))


def _in_the_past(hit: ResolvedDate, today: date) -> ResolvedDate:
    """A day or month said without a year is the most recent one: memory is of the past.

    "What did we decide in December?" asked in January is last December, not the coming
    one. A year named in the query has already placed it (``_years_framed``).
    """
    if hit.year_given:
        return hit
    if hit.granularity == SEASON and hit.start is not None and hit.start > today:
        return season_in_year(hit, hit.start.year - 1) or hit
    return anchor_year(hit, today)


def _written_out(query: str, today: date, hits: list[ResolvedDate]) -> set[tuple[int, int]]:
    """Spans that mean the same day whatever day it is: read again from another day, compare.

    Asking the engine twice keeps every rule's knowledge in the engine (no list here of
    which rules are relative); 400 days moves the year, the month and the weekday at once.
    """
    try:
        other = today - timedelta(days=400)
    except OverflowError:
        other = today + timedelta(days=400)
    again = {hit.span: (hit.start, hit.end) for hit in find_dates(query, other) if hit.resolved}
    return {hit.span for hit in hits if again.get(hit.span) == (hit.start, hit.end)}


def _years_framed(hits: list[ResolvedDate], written: set[tuple[int, int]]) -> list[ResolvedDate]:
    """Year-less days and months moved into the one year the query names; frames dropped.

    A moved hit counts as written out from then on (its span joins ``written``).
    """
    if all(hit.year_given for hit in hits):
        return hits
    years = {
        hit.date.year
        for hit in hits
        if hit.date and hit.year_given and (hit.granularity == YEAR or hit.span in written)
    }
    if len(years) != 1:
        return hits
    year = years.pop()
    framed: list[ResolvedDate] = []
    for hit in hits:
        if hit.granularity == YEAR:
            continue  # the frame itself
        if not hit.year_given:
            moved = season_in_year(hit, year) if hit.granularity == SEASON else with_year(hit, year)
            if moved is None:
                continue  # 29 February in a common year
            written.add(moved.span)
            hit = moved
        framed.append(hit)
    # nothing but the frame was left ("in 2023, on 29 February"): the year is the answer
    return framed or [hit for hit in hits if hit.granularity == YEAR]
