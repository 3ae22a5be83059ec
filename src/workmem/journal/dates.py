"""Dates in what people say, resolved against the day they said it.

An event is only useful for "what did I buy in March?" if its date is a date, not the words
"last Tuesday". So every event is normalized against the session's date when it is
recorded. The rules are deterministic and documented (seed 004 asks for deterministic
temporal support): absolute forms go through ``dateutil``; relative forms in English,
Chinese (Traditional and Simplified), Japanese and Korean are our own rules (``dates_en``,
``dates_zh``, ``dates_ja``, ``dates_ko``), because dateutil reads none of them and
dateparser misses 上週二 / 三天前 and costs over a second per Chinese string (DESIGN.md).
This is the one date engine of workmem: search reads the time a query names through it
too (``workmem.retrieval.dates``).

Rules that a reader could dispute are fixed here, once:

* weeks start on Monday; "last week" is the previous Monday-Sunday week;
* "last Friday" is the most recent Friday strictly before the day (LoCoMo's annotators read
  it that way: "last Friday" said on Saturday 15 July 2023 is 14 July); 上週五 is the Friday
  of the previous calendar week; "this Friday" / 這週五 the one of the current week, "next
  Friday" / 下週五 the one of the next week;
* 先週X / 지난주 X요일 follow 上週X (the X of the previous calendar week); 지난 X요일 without
  주 follows "last X" (the most recent X before the day);
* a month and day without a year ("3/15", "March 15", "3月15日", "5월 8일") take the session's
  year; a year written next to them wins ("in May 2023", "May 8 of 2023" are 2023);
  numeric dates read month first (US) unless the first number is over 12;
* a bare weekday ("on Tuesday", 週二), "a few days ago", "recently", 幾天前: not resolved.
  The raw text is kept and no date is set; nothing is guessed;
* for an event (``anchor_year``), a month and day without a year is the most recent such
  day not after the day it was said ("on December 31" said on 2025-01-01 is 2024-12-31):
  events are things that happened. A plan or a deadline takes the next such day instead.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
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
    """``day`` moved by whole months, the day clamped to the month's end (31 May - 1 = 30 Apr).

    Plain arithmetic rather than dateutil, so a query naming "last month" imports nothing.
    """
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    if not 1 <= year <= 9999:
        raise ValueError(f"{months} months from {day} leaves the calendar")
    last = calendar.monthrange(year, month)[1]
    return date(year, month, min(day.day, last))


def fixed_day(offset: int, rule: str) -> Rule:
    """A rule for words that always mean the same day relative to the session (昨天, 어제)."""

    def resolve(match: re.Match[str], ref: date) -> ResolvedDate:
        return on_day(match.group(0), ref + timedelta(days=offset), rule)

    return resolve


def offset_from(raw: str, ref: date, n: int, unit: str, rule: str) -> ResolvedDate | None:
    """``n`` units from ``ref`` (negative = past): the day, or the week/month/year it falls in.

    "2 weeks ago" is the week that holds the day 14 days back (its ``date`` is that day), so
    an event said to be two weeks old matches anything in that Monday-Sunday week.
    """
    if unit == DAY:
        return on_day(raw, ref + timedelta(days=n), rule)
    if unit == WEEK:
        point = ref + timedelta(weeks=n)
        return week_of(raw, monday_of(point), rule, point)
    if unit == WEEKEND:
        return weekend_of(raw, monday_of(ref) + timedelta(weeks=n), rule)
    if unit == MONTH:
        point = shift_months(ref, n)
        return month_of(raw, point.year, point.month, rule)
    return year_of(raw, ref.year + n, rule)


def week_part(raw: str, monday: date, part: int | str | None, prefix: str) -> ResolvedDate:
    """The week starting ``monday`` (``part`` None), its weekend (WEEKEND) or one day (0-6)."""
    if part is None:
        return week_of(raw, monday, f"{prefix}-week")
    if part == WEEKEND:
        return weekend_of(raw, monday, f"{prefix}-weekend")
    return on_day(raw, monday + timedelta(days=int(part)), f"{prefix}-weekday")


def calendar_point(
    raw: str,
    year: int,
    month: int | None,
    day: int | None,
    prefix: str,
    *,
    year_given: bool = True,
) -> ResolvedDate | None:
    """A year, a month of it or a day of that month (2023年, 2023年5月, 2023년 5월 8일)."""
    if month is None:
        return year_of(raw, year, f"{prefix}-year")
    if day is None:
        return month_of(raw, year, month, f"{prefix}-year-month", year_given=year_given)
    found = safe_day(year, month, day)
    if found is None:
        return None
    return on_day(raw, found, f"{prefix}-date", year_given=year_given)


def with_year(hit: ResolvedDate, year: int) -> ResolvedDate | None:
    """A year-less day or month ("March 15", "in March", 5월) moved to ``year``.

    For a year named elsewhere in the same sentence ("in 2023, what did I buy in March?").
    A hit whose year was given, or that is not a day or a month, is returned unchanged;
    29 February moved to a common year is no date (None).
    """
    if hit.year_given or hit.date is None or hit.granularity not in (DAY, MONTH):
        return hit
    if hit.granularity == MONTH:
        moved = month_of(hit.raw, year, hit.date.month, hit.rule)
    else:
        day = safe_day(year, hit.date.month, hit.date.day)
        moved = on_day(hit.raw, day, hit.rule) if day else None
    return _with(moved, hit.raw, hit.span) if moved else None


def anchor_year(hit: ResolvedDate, reference: date, *, ahead: bool = False) -> ResolvedDate:
    """A year-less day or month moved to the nearest year on the right side of ``reference``.

    Past (the default): the most recent such day or month that began on or before
    ``reference``. ``ahead``: the next one that has not ended before it. A hit whose year
    was given, or that is not a day or a month, comes back unchanged.
    """
    if hit.year_given or hit.start is None or hit.granularity not in (DAY, MONTH):
        return hit

    def placed(found: ResolvedDate | None) -> bool:
        if found is None or found.start is None or found.end is None:
            return False
        return found.end >= reference if ahead else found.start <= reference

    step = 1 if ahead else -1
    moved: ResolvedDate | None = hit
    year = hit.start.year
    for _ in range(8):  # 29 February waits up to eight years for its next leap year
        if placed(moved):
            break
        year += step
        moved = with_year(hit, year)
    if moved is None or moved is hit:
        return hit
    rule = f"{hit.rule}, {'next' if ahead else 'most recent'} such date"
    return replace(moved, rule=rule, year_given=False)


def scan(
    text: str, reference: date, rules: list[tuple[re.Pattern[str], Rule]]
) -> list[ResolvedDate]:
    """Every non-overlapping expression the rules find, longest first at each position."""
    found: list[tuple[int, int, ResolvedDate]] = []
    for pattern, rule in rules:
        for match in pattern.finditer(text):
            if match.end() == match.start():
                continue
            try:
                result = rule(match, reference)
            except (ValueError, OverflowError):
                continue  # "300 years ago" said on 0001-01-01: off the calendar, not a date
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
    """Every date expression in ``text`` (English, Chinese, Japanese, Korean), in reading order.

    Expressions recognised but not resolvable ("a few days ago", 幾天前, 며칠 전) are included
    with ``date=None`` so callers can keep the raw words.
    """
    hits = scan(text, reference, _rules_for(text))
    hits.sort(key=lambda r: r.span)
    return hits


def _rules_for(text: str) -> list[tuple[re.Pattern[str], Rule]]:
    """The rule sets of the scripts ``text`` is written in, each imported on first need.

    English rules always run (ISO dates and digits appear in every script); Chinese and
    Japanese run together on CJK or kana, since Japanese leaves their shared words to
    ``dates_zh``; Korean on Hangul. An English prompt thus never compiles the CJK patterns.
    """
    from . import dates_en, dates_seasons

    rules = [*dates_en.RULES, *dates_seasons.ENGLISH_RULES]
    if text.isascii():
        return rules
    if _script("cjk").search(text):
        from . import dates_ja, dates_zh

        rules += [*dates_zh.RULES, *dates_ja.RULES, *dates_seasons.cjk_rules()]
    if _script("hangul").search(text):
        from . import dates_ko

        rules += [*dates_ko.RULES, *dates_seasons.korean_rules()]
    return rules


@functools.cache
def _script(name: str) -> re.Pattern[str]:
    if name == "hangul":  # syllables and jamo
        return re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
    # kana, CJK ideographs (and extension A, compatibility), full-width forms
    return re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


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
    """A field that starts with an ISO day ("2026-05-20", "2026-05-20 13:18"), else None."""
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None


_ISO_DAY = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")


def iso_day(text: str | None) -> date | None:
    """The first valid ``YYYY-MM-DD`` anywhere in ``text`` (2026-13-01 is skipped), or None.

    Stored files mark their dates this way (daily log names, headings, frontmatter), so
    indexing a chunk needs only this exact form; prose goes through ``find_dates``.
    """
    if not text:
        return None
    for match in _ISO_DAY.finditer(text):
        found = safe_day(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if found is not None:
            return found
    return None
