"""Korean date expressions: 어제, 지난주, 지난주 화요일, 다음 달, 3일 전, 한 달 전, 작년 3월.

Conventions are those of ``dates``: Monday weeks; 지난주 화요일 is the Tuesday of the
previous calendar week (like 上週二); 지난 화요일, without 주, is the most recent Tuesday
before the day (like "last Tuesday"), 이번 화요일 the Tuesday of this week and 다음 화요일
that of next week (like "this / next Tuesday"); a month and day without a year take the
session's year. Vague counts (며칠 전, 몇 주 전, 얼마 전) are recognised and left unresolved.

Korean writes particles onto words (지난주에, 어제는), so a time word counts only when it
stands alone or a particle follows: 다음 주소 ("next address") is not next week, 오늘날
("nowadays") is not today, 그제야 ("only then") is not the day before yesterday. That test
is done in Python on each match rather than in the patterns, because character classes
of Hangul cost the ``re`` compiler a bitmap each (about 0.3 ms a pattern).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .dates import (
    DAY,
    MONTH,
    WEEK,
    WEEKEND,
    YEAR,
    ResolvedDate,
    Rule,
    calendar_point,
    monday_of,
    month_of,
    offset_from,
    on_day,
    safe_day,
    shift_months,
    unresolved,
    week_part,
)

#: What may follow a time word: particles (에, 는, 부터 …), never more of a word.
_PARTICLES = ("부터", "까지", "동안", "내내", "보다", "쯤", *"에의는은도엔중이가을를로만와과랑")
#: Day words also take a time of day (어젯밤, 오늘밤, 어제저녁).
_TIMES_OF_DAY = ("밤", "아침", "저녁", "오전", "오후", "낮", "새벽")
_SHIFT = {"지지난": -2, "지난": -1, "저번": -1, "이번": 0, "다음": 1, "다다음": 2}
_REL = r"(?P<rel>지지난|지난|저번|이번|다다음|다음)"
_WEEKDAY = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_WD = r"(?P<wd>월|화|수|목|금|토|일)요일"
_YEARS = {"재작년": -2, "작년": -1, "올해": 0, "금년": 0, "내후년": 2, "내년": 1}
_NATIVE = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8}
_NATIVE |= {"아홉": 9, "열": 10}
_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9, "십": 10}
_DAYS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7, "열흘": 10}
_UNITS = {"일": DAY, "주": WEEK, "주일": WEEK, "개월": MONTH, "달": MONTH, "년": YEAR, "해": YEAR}
_DIR = r"\s?(?P<dir>전|후|뒤)"


def _word(rule: Rule, *, start: bool = True, times: bool = False) -> Rule:
    """``rule``, for matches that are a word of their own (see the module docstring)."""

    def resolve(match: re.Match[str], ref: date) -> ResolvedDate | None:
        text, begin, end = match.string, match.start(), match.end()
        if start and begin and text[begin - 1].isalnum():
            return None
        after = text[end : end + 2]
        if after[:1].isalnum():
            allowed = (*_PARTICLES, *_TIMES_OF_DAY) if times else _PARTICLES
            if not after.startswith(allowed):
                return None
        return rule(match, ref)

    return resolve


def _fixed(offset: int) -> Rule:
    def resolve(match: re.Match[str], ref: date) -> ResolvedDate:
        return on_day(match.group(0), ref + timedelta(days=offset), "ko-day")

    return _word(resolve, times=True)


def _week(match: re.Match[str], ref: date) -> ResolvedDate:
    monday = monday_of(ref) + timedelta(weeks=_SHIFT[match.group("rel")])
    day = match.group("wd")
    part = WEEKEND if match.group("end") else None if day is None else _WEEKDAY[day]
    return week_part(match.group(0), monday, part, "ko")


def _weekday(match: re.Match[str], ref: date) -> ResolvedDate:
    """지난 금요일: the most recent Friday before the day; 이번 / 다음: this / next week's."""
    relation = match.group("rel")
    target = _WEEKDAY[match.group("wd")]
    raw = match.group(0)
    if relation in ("지난", "저번"):
        back = (ref.weekday() - target) % 7 or 7
        return on_day(raw, ref - timedelta(days=back), "ko-last-weekday")
    step = 0 if relation == "이번" else 1
    return on_day(raw, monday_of(ref) + timedelta(weeks=step, days=target), "ko-weekday")


def _month(match: re.Match[str], ref: date) -> ResolvedDate | None:
    point = shift_months(ref, _SHIFT[match.group("rel")])
    raw = match.group(0)
    if match.group("d") is None:
        return month_of(raw, point.year, point.month, "ko-month")
    day = safe_day(point.year, point.month, int(match.group("d")))
    return on_day(raw, day, "ko-month-day") if day else None


def _year(match: re.Match[str], ref: date) -> ResolvedDate | None:
    word = match.group("yw")
    year = ref.year + _YEARS[word] if word else int(match.group("y"))
    month = int(match.group("m")) if match.group("m") else None
    day = int(match.group("d")) if match.group("d") else None
    return calendar_point(match.group(0), year, month, day, "ko")


def _month_day(match: re.Match[str], ref: date) -> ResolvedDate | None:
    month = int(match.group("m"))
    if match.group("d") is None:
        if not 1 <= month <= 12:
            return None
        return month_of(match.group(0), ref.year, month, "ko-month-name", year_given=False)
    day = safe_day(ref.year, month, int(match.group("d")))
    return on_day(match.group(0), day, "ko-month-day", year_given=False) if day else None


def _counted(numbers: dict[str, int] | None) -> Rule:
    def resolve(match: re.Match[str], ref: date) -> ResolvedDate | None:
        text = match.group("n")
        number = int(text) if numbers is None else numbers[text]
        if number > 400:
            return None
        unit = _UNITS[match.group("unit")] if "unit" in match.groupdict() else DAY
        sign = -1 if match.group("dir") == "전" else 1
        rule = "ko-ago" if sign < 0 else "ko-later"
        return offset_from(match.group(0), ref, sign * number, unit, rule)

    return resolve


def _vague(match: re.Match[str], ref: date) -> ResolvedDate:
    return unresolved(match.group(0), "ko-vague")


def _words(words: dict[str, int]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


RULES: list[tuple[re.Pattern[str], Rule]] = [
    (re.compile(r"그끄저께|그끄제"), _fixed(-3)),
    (re.compile(r"그저께|그제"), _fixed(-2)),
    (re.compile(r"어제|어저께|어젯밤"), _fixed(-1)),
    (re.compile(r"오늘"), _fixed(0)),
    (re.compile(r"내일"), _fixed(1)),
    (re.compile(r"모레"), _fixed(2)),
    (re.compile(r"글피"), _fixed(3)),
    (re.compile(rf"{_REL}\s?주(?:\s?{_WD}|(?P<end>\s?말))?"), _word(_week)),
    (re.compile(rf"(?P<rel>지난|저번|이번|다음)\s{_WD}"), _word(_weekday)),
    (re.compile(rf"{_REL}\s?달(?:\s?(?P<d>\d{{1,2}})\s?일)?"), _word(_month)),
    (
        re.compile(
            rf"(?:(?P<yw>{_words(_YEARS)})|(?<!\d)(?P<y>\d{{4}})\s?년)"
            rf"(?:\s?(?P<m>\d{{1,2}})\s?월(?:\s?(?P<d>\d{{1,2}})\s?일)?)?"
        ),
        _word(_year),
    ),
    (
        re.compile(r"(?<![\d.])(?P<m>\d{1,2})\s?월(?:\s?(?P<d>\d{1,2})\s?일)?"),
        _word(_month_day, start=False),
    ),
    (
        re.compile(rf"(?<![\d.])(?P<n>\d{{1,3}})\s?(?P<unit>일|주일|주|개월|달|년|해){_DIR}"),
        _word(_counted(None), start=False),
    ),
    (
        re.compile(rf"(?P<n>{_words(_NATIVE)})\s?(?P<unit>주일|주|달|해){_DIR}"),
        _word(_counted(_NATIVE)),
    ),
    (
        re.compile(rf"(?P<n>{_words(_SINO)})\s?(?P<unit>주일|개월|년){_DIR}"),
        _word(_counted(_SINO)),
    ),
    (re.compile(rf"(?P<n>{_words(_DAYS)}){_DIR}"), _word(_counted(_DAYS))),
    (re.compile(rf"(?:며칠|몇\s?(?:일|주일|주|달|개월|해|년)|얼마){_DIR}"), _word(_vague)),
]

__all__ = ["RULES"]
