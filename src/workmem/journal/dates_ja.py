"""Japanese date expressions: 先週, 来月, 先週の火曜日, 3週間前, 昨年, おととい.

Conventions are those of ``dates``: Monday weeks; 先週の火曜日 is the Tuesday of the previous
calendar week (like 上週二); 今週末 the Saturday and Sunday of this week; a month and day
without a year take the session's year. Japanese shares many words with Chinese (昨日,
今日, 一昨日, 明日, 3日前, 2週前, 今年, 2026年5月3日): ``dates_zh`` reads those and they are not
repeated here, so the two modules always run together. Japanese has no spaces, so only
forms unlikely inside other words are listed (no bare あす or きょう). Vague counts (数週間前,
先日) are recognised and left unresolved.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .dates import (
    MONTH,
    WEEK,
    WEEKEND,
    ResolvedDate,
    Rule,
    calendar_point,
    fixed_day,
    monday_of,
    month_of,
    offset_from,
    on_day,
    safe_day,
    shift_months,
    unresolved,
    week_part,
)
from .dates_zh import NUMERAL, zh_number

_SHIFT = {"先々": -2, "先先": -2, "先": -1, "今": 0, "来": 1, "再来": 2}
_REL = r"(?P<rel>先々|先先|先|今|再来|来)"
_WEEKDAY = {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}
_YEARS = {"一昨年": -2, "おととし": -2, "昨年": -1, "再来年": 2, "来年": 1}
_MONTHS = r"(?:か|ヶ|ケ|カ|ヵ|箇)月(?:間)?"


def _week(match: re.Match[str], ref: date) -> ResolvedDate:
    monday = monday_of(ref) + timedelta(weeks=_SHIFT[match.group("rel")])
    day = match.group("wd")
    part = WEEKEND if match.group("end") else None if day is None else _WEEKDAY[day]
    return week_part(match.group(0), monday, part, "ja")


def _month(match: re.Match[str], ref: date) -> ResolvedDate | None:
    point = shift_months(ref, _SHIFT[match.group("rel")])
    raw = match.group(0)
    if match.group("d") is None:
        return month_of(raw, point.year, point.month, "ja-month")
    number = zh_number(match.group("d"))
    day = safe_day(point.year, point.month, number) if number is not None else None
    return on_day(raw, day, "ja-month-day") if day else None


def _year(match: re.Match[str], ref: date) -> ResolvedDate | None:
    month = zh_number(match.group("m")) if match.group("m") else None
    day = zh_number(match.group("d")) if match.group("d") else None
    year = ref.year + _YEARS[match.group("yw")]
    return calendar_point(match.group(0), year, month, day, "ja")


def _counted(match: re.Match[str], ref: date) -> ResolvedDate | None:
    number = zh_number(match.group("n"))
    if number is None or number > 400:
        return None
    sign = -1 if match.group("dir") == "前" else 1
    unit = WEEK if match.group("unit").startswith("週") else MONTH
    rule = "ja-ago" if sign < 0 else "ja-later"
    return offset_from(match.group(0), ref, sign * number, unit, rule)


def _vague(match: re.Match[str], ref: date) -> ResolvedDate:
    return unresolved(match.group(0), "ja-vague")


RULES: list[tuple[re.Pattern[str], Rule]] = [
    (re.compile(r"一昨々日|一昨昨日"), fixed_day(-3, "ja-day")),
    (re.compile(r"おととい|おとつい"), fixed_day(-2, "ja-day")),
    (re.compile(r"きのう"), fixed_day(-1, "ja-day")),
    (re.compile(r"明後日|あさって"), fixed_day(2, "ja-day")),
    (re.compile(r"明々後日|明明後日|しあさって"), fixed_day(3, "ja-day")),
    (re.compile(rf"{_REL}週(?:の?(?P<wd>[月火水木金土日])曜(?:日)?|(?P<end>末))?"), _week),
    (re.compile(rf"{_REL}月(?:(?P<d>{NUMERAL})日)?"), _month),
    (
        re.compile(rf"(?P<yw>{'|'.join(_YEARS)})(?:の?(?P<m>{NUMERAL})月(?:(?P<d>{NUMERAL})日)?)?"),
        _year,
    ),
    (re.compile(rf"(?P<n>{NUMERAL})\s*(?P<unit>週間|{_MONTHS})(?P<dir>前|後)"), _counted),
    (re.compile(rf"数(?:週間|{_MONTHS})(?:前|後)|何日か前|先日"), _vague),
]

__all__ = ["RULES"]
