"""Chinese date expressions, Traditional and Simplified: 昨天, 三天前, 上週二/上周二, 3月15日.

Conventions are those of ``dates`` (Monday weeks; 上週X is the X of the previous calendar
week; a month and day without a year take the session's year). Vague counts (幾天前,
好几个月前) are recognised and left unresolved. A bare weekday (週二) is not resolved.
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

_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "兩": 2,
    "两": 2,
    "倆": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_N = r"[0-9０-９]{1,4}|[零〇一二兩两倆俩三四五六七八九十百]{1,4}"
#: A numeral as Chinese and Japanese write it (15, １５, 十五); read it with ``zh_number``.
NUMERAL = _N
_NUM = rf"(?P<n>{_N})"
_VAGUE = r"(?:好幾|好几|幾|几|數|数|若干)"
_WEEK = r"(?:週|周|星期|禮拜|礼拜)"
_AGO = r"(?:之前|以前|前)"
_LATER = r"(?:之後|之后|以後|以后|後|后)"
_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_SHIFT = {"上上": -2, "上": -1, "這": 0, "这": 0, "本": 0, "今": 0, "下": 1, "下下": 2}


def zh_number(text: str) -> int | None:
    """Arabic, full-width or Chinese numerals up to 9999 (十五, 二十三, 兩, 一百)."""
    value = text.translate(_FULL_WIDTH)
    if value.isdigit():
        return int(value)
    total = 0
    current: int | None = None
    for char in value:
        if char in _DIGITS:
            current = _DIGITS[char]
        elif char == "十":
            total += (1 if current is None else current) * 10
            current = None
        elif char == "百":
            total += (1 if current is None else current) * 100
            current = None
        else:
            return None
    return total + (current or 0)


def _unit(unit: str) -> str:
    if unit in ("天", "日"):
        return DAY
    if unit.endswith("月"):
        return MONTH
    return YEAR if unit == "年" else WEEK


def _counted(sign: int) -> Rule:
    def resolve(match: re.Match[str], ref: date) -> ResolvedDate | None:
        number = zh_number(match.group("n"))
        if number is None or number > 400:
            return None
        rule = "zh-ago" if sign < 0 else "zh-later"
        return offset_from(match.group(0), ref, sign * number, _unit(match.group("unit")), rule)

    return resolve


def _vague(match: re.Match[str], ref: date) -> ResolvedDate:
    return unresolved(match.group(0), "zh-vague")


def _week_relative(match: re.Match[str], ref: date) -> ResolvedDate | None:
    monday = monday_of(ref) + timedelta(weeks=_SHIFT[match.group("rel")])
    day = match.group("wd")
    part = None if day is None else WEEKEND if day == "末" else _WEEKDAY[day]
    return week_part(match.group(0), monday, part, "zh")


def _month_relative(match: re.Match[str], ref: date) -> ResolvedDate | None:
    point = shift_months(ref, _SHIFT[match.group("rel")])
    raw = match.group(0)
    if match.group("d"):
        number = zh_number(match.group("d"))
        day = safe_day(point.year, point.month, number) if number is not None else None
        return on_day(raw, day, "zh-month-day") if day else None
    return month_of(raw, point.year, point.month, "zh-month")


_YEAR_WORDS = {"今年": 0, "去年": -1, "前年": -2, "大前年": -3, "明年": 1, "後年": 2, "后年": 2}


def _year_form(match: re.Match[str], ref: date) -> ResolvedDate | None:
    word = match.group("yw")
    if word in _YEAR_WORDS:
        year = ref.year + _YEAR_WORDS[word]
    else:
        parsed = zh_number(match.group("y"))
        if parsed is None:
            return None
        year = parsed
    month_text, day_text = match.group("m"), match.group("d")
    month = zh_number(month_text) if month_text else None
    day = zh_number(day_text) if day_text else None
    if (month_text and month is None) or (day_text and day is None):
        return None
    return calendar_point(match.group(0), year, month, day, "zh")


def _month_day(match: re.Match[str], ref: date) -> ResolvedDate | None:
    month = zh_number(match.group("m"))
    number = zh_number(match.group("d"))
    if month is None or number is None:
        return None
    day = safe_day(ref.year, month, number)
    return on_day(match.group(0), day, "zh-month-day", year_given=False) if day else None


def _month_only(match: re.Match[str], ref: date) -> ResolvedDate | None:
    month = zh_number(match.group("m"))
    if month is None or not 1 <= month <= 12:
        return None
    return month_of(match.group(0), ref.year, month, "zh-month-name", year_given=False)


_DAY_MARK = r"(?:日|號|号)"
RULES: list[tuple[re.Pattern[str], Rule]] = [
    (re.compile(r"大前天"), fixed_day(-3, "zh-day")),
    (re.compile(r"前天|前日|一昨日"), fixed_day(-2, "zh-day")),
    (re.compile(r"昨天|昨日|昨晚|昨夜"), fixed_day(-1, "zh-day")),
    (re.compile(r"今天|今日|今晚|今早|今夜"), fixed_day(0, "zh-day")),
    (re.compile(r"明天|明日|明晚"), fixed_day(1, "zh-day")),
    (re.compile(r"大後天|大后天"), fixed_day(3, "zh-day")),
    (re.compile(r"(?<!大)(?:後天|后天)"), fixed_day(2, "zh-day")),
    (
        re.compile(rf"{_NUM}\s*(?P<unit>天|日|(?:個|个)?{_WEEK}|(?:個|个)月|年){_AGO}"),
        _counted(-1),
    ),
    (
        re.compile(rf"{_NUM}\s*(?P<unit>天|日|(?:個|个)?{_WEEK}|(?:個|个)月|年){_LATER}"),
        _counted(1),
    ),
    (re.compile(rf"{_VAGUE}(?:天|日|(?:個|个)?{_WEEK}|(?:個|个)月|年){_AGO}"), _vague),
    (
        re.compile(
            rf"(?P<rel>上上|上|這|这|本|下下|下)(?:個|个)?{_WEEK}(?P<wd>[一二三四五六日天末])?"
        ),
        _week_relative,
    ),
    (
        re.compile(
            rf"(?P<rel>上上|上|這|这|本|下下|下)(?:個|个)?月(?:份)?(?:(?P<d>{_N}){_DAY_MARK})?"
        ),
        _month_relative,
    ),
    (
        re.compile(
            rf"(?P<yw>大前年|今年|去年|前年|明年|後年|后年|(?P<y>[0-9０-９]{{4}})年)"
            rf"(?:(?P<m>{_N})月(?:份)?(?:(?P<d>{_N}){_DAY_MARK})?)?"
        ),
        _year_form,
    ),
    (re.compile(rf"(?<![個个幾几])(?P<m>{_N})月(?P<d>{_N}){_DAY_MARK}"), _month_day),
    (
        re.compile(rf"(?<![個个幾几上下這这本])(?P<m>{_N})月(?:份)?(?![0-9０-９前後后底初])"),
        _month_only,
    ),
]

__all__ = ["NUMERAL", "RULES", "zh_number"]
