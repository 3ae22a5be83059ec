"""English date expressions: absolute forms via dateutil, relative forms by our rules.

The conventions (Monday weeks, "last Friday" = the most recent Friday before the day, a
missing year = the session's year) are stated once in ``dates``'s docstring.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from .dates import (
    DAY,
    WEEK,
    ResolvedDate,
    Rule,
    fixed_day,
    monday_of,
    month_of,
    offset_from,
    on_day,
    safe_day,
    shift_months,
    unresolved,
    week_of,
    weekend_of,
    year_of,
)

_COUNTING = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = {word: value for value, word in enumerate(_COUNTING.split()) if value} | {
    "a": 1,
    "an": 1,
    "thirty": 30,
}
_NUM = r"(?P<n>\d{1,3}|(?:a\s+)?couple\s+of|" + "|".join(_NUMBER_WORDS) + r")"
_VAGUE = r"(?:a\s+few|few|several|some|many|a\s+number\s+of|a\s+bunch\s+of)"
_UNIT = r"(?P<unit>day|week|weekend|month|year)s?"
WEEKDAYS = {
    name: day
    for day, names in enumerate(
        (
            "monday mon",
            "tuesday tues tue",
            "wednesday wed",
            "thursday thurs thur thu",
            "friday fri",
            "saturday sat",
            "sunday sun",
        )
    )
    for name in names.split()
}
MONTHS = {
    name: month
    for month, names in enumerate(
        (
            "",
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        )
    )
    for name in names.split()
    if month
}
_WD = r"(?P<wd>" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")\.?"
_MON = r"(?P<mon>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")"
#: Words that make a bare month name ("in March") or a bare "3/15" a date, not a verb or ratio.
_PREPOSITION_WORDS = (
    "in on since during until till by before after early mid late of from through around "
    "at due last this next"
)
_PREPOSITIONS = frozenset(_PREPOSITION_WORDS.split())
#: A year written after a month or a day ("May 2023", "May 8,2023", "May 8 of 2023"): it
#: wins over the session's year, so "in May" does not stop short of it.
_YEAR_AFTER = r"(?:,\s*|\s+)(?:(?:of|in)\s+)?(?P<y>\d{4})"
#: Month names that are also common English words; alone they need a capital or a preposition.
_AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar", "jan", "sun", "sat", "wed"})


def _number(text: str) -> int | None:
    word = " ".join(text.lower().split())
    if word.isdigit():
        return int(word)
    if word.endswith("couple of"):
        return 2
    return _NUMBER_WORDS.get(word)


def _ago(match: re.Match[str], ref: date) -> ResolvedDate | None:
    n = _number(match.group("n"))
    if n is None or n > 400:
        return None
    return _offset(match.group(0), ref, -n, match.group("unit").lower(), "ago")


def _ahead(match: re.Match[str], ref: date) -> ResolvedDate | None:
    n = _number(match.group("n") or match.group("n2"))
    unit = (match.group("unit") or match.group("unit2")).lower()
    if n is None or n > 400:
        return None
    return _offset(match.group(0), ref, n, unit, "ahead")


def _offset(raw: str, ref: date, n: int, unit: str, rule: str) -> ResolvedDate | None:
    # "a weekend ago" is last weekend, "two weekends ago" the one before it
    return offset_from(raw, ref, n, unit, f"{unit}s-{rule}")


def _vague(match: re.Match[str], ref: date) -> ResolvedDate:
    return unresolved(match.group(0), "vague")


def _weekday(match: re.Match[str], ref: date) -> ResolvedDate | None:
    relation = " ".join(match.group("rel").lower().split())
    target = WEEKDAYS[match.group("wd").lower().rstrip(".")]
    raw = match.group(0)
    if relation in ("last", "past", "this past"):
        back = (ref.weekday() - target) % 7 or 7
        return on_day(raw, ref - timedelta(days=back), "last-weekday")
    if relation == "this":
        return on_day(raw, monday_of(ref) + timedelta(days=target), "this-weekday")
    if relation in ("next", "coming", "this coming"):
        return on_day(raw, monday_of(ref) + timedelta(days=7 + target), "next-weekday")
    return None


def _period(match: re.Match[str], ref: date) -> ResolvedDate | None:
    relation = " ".join(match.group("rel").lower().split())
    unit = match.group("unit").lower()
    raw = match.group(0)
    if relation in ("past", "the past") and unit in ("week", "month"):
        # "over the past week": the rolling days before today, not a calendar week
        start = ref - timedelta(days=7 if unit == "week" else 30)
        return ResolvedDate(raw, start, start, ref - timedelta(days=1), unit, "rolling")
    if relation in ("last", "past", "the past", "this past", "previous"):
        step = -1
    elif relation in ("this", "earlier this"):
        step = 0
    else:  # next, coming, this coming
        step = 0 if unit == "weekend" and "coming" in relation and ref.weekday() < 5 else 1
    return _shifted_period(raw, ref, unit, step, f"{relation.replace(' ', '-')}-{unit}")


def _shifted_period(raw: str, ref: date, unit: str, step: int, rule: str) -> ResolvedDate | None:
    if unit == "week":
        return week_of(raw, monday_of(ref) + timedelta(weeks=step), rule)
    if unit == "weekend":
        return weekend_of(raw, monday_of(ref) + timedelta(weeks=step), rule)
    if unit == "month":
        point = shift_months(ref, step)
        return month_of(raw, point.year, point.month, rule)
    return year_of(raw, ref.year + step, rule)


def _before_last(match: re.Match[str], ref: date) -> ResolvedDate | None:
    return _shifted_period(match.group(0), ref, match.group("unit").lower(), -2, "before-last")


def _relative_month(match: re.Match[str], ref: date) -> ResolvedDate | None:
    relation = match.group("rel").lower()
    month = MONTHS[match.group("mon").lower()]
    year = ref.year
    if relation == "last":
        year = ref.year if month < ref.month else ref.year - 1
    elif relation == "next":
        year = ref.year if month > ref.month else ref.year + 1
    return month_of(match.group(0), year, month, f"{relation}-month-name")


def _needs_context(match: re.Match[str], group: str) -> bool:
    """True when a bare word could be a verb ("may", "march") and nothing marks it a date."""
    word = match.group(group)
    if word.lower() not in _AMBIGUOUS_MONTHS or word[:1].isupper():
        return False
    return _previous_word(match) not in _PREPOSITIONS


def _previous_word(match: re.Match[str]) -> str:
    before = match.string[: match.start()].rstrip().split()
    return before[-1].lower().strip(",;:(") if before else ""


def _day_month(match: re.Match[str], ref: date) -> ResolvedDate | None:
    if _needs_context(match, "mon"):
        return None
    month = MONTHS[match.group("mon").lower()]
    year_text = match.group("y")
    year = int(year_text) if year_text else ref.year
    day = safe_day(year, month, int(match.group("d")))
    if day is None:
        return None
    return on_day(match.group(0), day, "month-name", year_given=bool(year_text))


def _month_year(match: re.Match[str], ref: date) -> ResolvedDate | None:
    return month_of(
        match.group(0), int(match.group("y")), MONTHS[match.group("mon").lower()], "month-year"
    )


def _bare_month(match: re.Match[str], ref: date) -> ResolvedDate | None:
    month = MONTHS[match.group("mon").lower()]
    return month_of(match.group(0), ref.year, month, "month", year_given=False)


def _bare_year(match: re.Match[str], ref: date) -> ResolvedDate | None:
    return year_of(match.group(0), int(match.group("y")), "year")


def _iso(match: re.Match[str], ref: date) -> ResolvedDate | None:
    day = safe_day(int(match.group("y")), int(match.group("m")), int(match.group("d")))
    return on_day(match.group(0), day, "iso") if day else None


def _dotted(match: re.Match[str], ref: date) -> ResolvedDate | None:
    day = safe_day(int(match.group("y")), int(match.group("m")), int(match.group("d")))
    return on_day(match.group(0), day, "day.month.year") if day else None


def numeric_day(a: int, b: int, year: int | None, ref: date) -> date | None:
    """``a/b[/year]``: month first (US) unless ``a`` cannot be a month."""
    month, day = (b, a) if a > 12 >= b else (a, b)
    if year is not None and year < 100:
        year += 2000
    return safe_day(year if year is not None else ref.year, month, day)


def _slashed(match: re.Match[str], ref: date) -> ResolvedDate | None:
    year_text = match.group("y")
    at_start = not match.string[: match.start()].strip()
    if not year_text and not at_start and _previous_word(match) not in _PREPOSITIONS:
        return None  # "1/2 cup", "3/4 done": a ratio unless something says it is a date
    day = numeric_day(
        int(match.group("a")), int(match.group("b")), int(year_text) if year_text else None, ref
    )
    if day is None:
        return None
    return on_day(match.group(0), day, "numeric", year_given=bool(year_text))


_FLAGS = re.IGNORECASE
RULES: list[tuple[re.Pattern[str], Rule]] = [
    (re.compile(r"\b(?:the\s+)?day\s+before\s+yesterday\b", _FLAGS), fixed_day(-2, "day-before")),
    (re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b", _FLAGS), fixed_day(2, "day-after")),
    (re.compile(r"\byesterday\b|\blast\s+night\b", _FLAGS), fixed_day(-1, "yesterday")),
    (
        re.compile(r"\btoday\b|\btonight\b|\bthis\s+(?:morning|afternoon|evening)\b", _FLAGS),
        fixed_day(0, "today"),
    ),
    (re.compile(r"\btomorrow\b", _FLAGS), fixed_day(1, "tomorrow")),
    (re.compile(rf"\b{_NUM}\s+{_UNIT}\s+ago\b", _FLAGS), _ago),
    (
        re.compile(
            rf"\bin\s+{_NUM}\s+{_UNIT}\b|\b(?P<n2>\d{{1,3}}|"
            + "|".join(_NUMBER_WORDS)
            + r")\s+(?P<unit2>day|week|month|year)s?\s+from\s+now\b",
            _FLAGS,
        ),
        _ahead,
    ),
    (re.compile(rf"\b{_VAGUE}\s+(?:day|week|weekend|month|year)s?\s+ago\b", _FLAGS), _vague),
    (
        re.compile(
            rf"\b(?P<rel>last|this\s+past|past|this\s+coming|this|next|coming)\s+{_WD}\b", _FLAGS
        ),
        _weekday,
    ),
    (
        re.compile(
            r"\b(?P<rel>last|this\s+past|the\s+past|past|previous|earlier\s+this|this\s+coming|"
            r"this|next|coming)\s+(?P<unit>week|weekend|month|year)\b",
            _FLAGS,
        ),
        _period,
    ),
    (
        re.compile(r"\b(?:the\s+)?(?P<unit>week|weekend|month|year)\s+before\s+last\b", _FLAGS),
        _before_last,
    ),
    (re.compile(rf"\b(?P<rel>last|this|next)\s+{_MON}\b", _FLAGS), _relative_month),
    (
        re.compile(
            rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}\.?{_YEAR_AFTER}?\b",
            _FLAGS,
        ),
        _day_month,
    ),
    (
        re.compile(
            rf"\b{_MON}\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:{_YEAR_AFTER}\b)?", _FLAGS
        ),
        _day_month,
    ),
    (re.compile(rf"\b{_MON}\.?{_YEAR_AFTER}\b", _FLAGS), _month_year),
    (
        re.compile(
            r"\b(?:in|since|during|until|till|by|before|after|early|mid|late|of|from|through)"
            rf"[\s-]+{_MON}\b(?!\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\.?{_YEAR_AFTER}\b)",
            _FLAGS,
        ),
        _bare_month,
    ),
    (
        re.compile(
            r"\b(?:in|since|during|of|from|until|by|before|after)\s+(?P<y>(?:19|20)\d{2})\b", _FLAGS
        ),
        _bare_year,
    ),
    (re.compile(r"(?<![\d/.-])(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?![\d/])"), _iso),
    (re.compile(r"(?<![\d/.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\d.])"), _dotted),
    (
        re.compile(r"(?<![\d/.-])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\d/])"),
        _slashed,
    ),
]


def resolve_whole(raw: str, ref: date) -> ResolvedDate | None:
    """An expression that is all date ("3/15", "March 15th, 2023", "2023-03"), via dateutil.

    Returns None when the text is not one absolute date, so relative rules get their turn.
    Which fields were given is found by parsing twice with different defaults.
    """
    text = raw.strip()
    if not re.search(r"\d", text):
        return None
    numeric = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?", text)
    if numeric:
        year = int(numeric.group(3)) if numeric.group(3) else None
        day = numeric_day(int(numeric.group(1)), int(numeric.group(2)), year, ref)
        return on_day(raw, day, "numeric", year_given=year is not None) if day else None
    if not re.search(r"[A-Za-z]", text) and not re.fullmatch(r"[\d\s/.\-:T]+", text):
        return None
    from dateutil import parser

    try:
        first = parser.parse(text, default=datetime(2000, 1, 1))
        second = parser.parse(text, default=datetime(2001, 2, 2))
    except (ValueError, OverflowError, parser.ParserError):
        return None
    if re.search(r"\b(?:" + "|".join(WEEKDAYS) + r")\b", text, re.IGNORECASE) and not re.search(
        r"\d{1,2}", re.sub(r"\d{4}", "", text)
    ):
        return None  # a bare weekday: never guessed
    year_given = first.year == second.year
    year = first.year if year_given else ref.year
    if first.month != second.month:
        return year_of(raw, year, "dateutil") if year_given else None
    if first.day != second.day:
        return month_of(raw, year, first.month, "dateutil", year_given=year_given)
    day = safe_day(year, first.month, first.day)
    return on_day(raw, day, "dateutil", year_given=year_given) if day else None


__all__ = ["DAY", "MONTHS", "RULES", "WEEK", "WEEKDAYS", "resolve_whole"]
