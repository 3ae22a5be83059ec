"""Seasons in what people say: "last spring", "in the summer of 2023", 去年春天, 작년 겨울.

A season is three whole months, counted the meteorological way of the northern
hemisphere: spring March-May, summer June-August, autumn (fall) September-November,
winter December-February. The winter of a year is the one that begins in its December
("winter 2025" and 去年冬天 said in 2026 run from December 2025 to February 2026).

* "last spring": the most recent spring that has ended before the day said (in December
  2026, spring 2026; in April 2026, spring 2025);
* "this spring": the spring of the day's year; "this winter": the one under way, else the
  one that begins this December; "next spring": the first that begins after the day;
* "in (the) spring", "spring": the day's year, with ``year_given`` False (a year named
  elsewhere in the sentence may move it); "spring 2023", "the spring of 2023": that year;
* 去年/今年/明年/前年 (Chinese, Japanese with の) and 작년/올해/내년/지난 (Korean) name the
  year; a bare Japanese 春 or Korean 봄 is not read, being too often a name or a word.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from datetime import date, timedelta

from .dates import ResolvedDate, Rule

SEASON = "season"
#: First month of each season; winter runs into the next year.
_FIRST_MONTH = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}
_ENGLISH = {"spring": "spring", "summer": "summer", "autumn": "autumn", "fall": "autumn"}
_ENGLISH |= {"winter": "winter"}
_CJK = {"春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}
_KOREAN = {"봄": "spring", "여름": "summer", "가을": "autumn", "겨울": "winter"}
#: Year words: how many years from the day's year.
_CJK_YEARS = {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "來年": 1, "来年": 1}
_KOREAN_YEARS = {"재작년": -2, "작년": -1, "지난해": -1, "올해": 0, "금년": 0, "내년": 1}


def season_of(
    raw: str, season: str, year: int, rule: str, *, year_given: bool = True
) -> ResolvedDate | None:
    """The season of ``year`` (the winter that begins in its December) as a range."""
    if not (1 <= year <= 9998):
        return None
    first = date(year, _FIRST_MONTH[season], 1)
    after = date(year + 1, 3, 1) if season == "winter" else date(year, first.month + 3, 1)
    end = after - timedelta(days=1)
    return ResolvedDate(raw, first, first, end, SEASON, rule, year_given)


def season_in_year(hit: ResolvedDate, year: int) -> ResolvedDate | None:
    """A season said without its year ("in the summer") moved to ``year``."""
    if hit.granularity != SEASON or hit.start is None:
        return hit
    season = next(name for name, month in _FIRST_MONTH.items() if month == hit.start.month)
    moved = season_of(hit.raw, season, year, hit.rule)
    return None if moved is None else replace(moved, span=hit.span)


def _current(season: str, ref: date) -> ResolvedDate | None:
    """The season under way on ``ref``, if it is ``season``."""
    for year in (ref.year - 1, ref.year):
        found = season_of("", season, year, "")
        if found and found.start and found.end and found.start <= ref <= found.end:
            return found
    return None


def relative_season(raw: str, season: str, ref: date, relation: str) -> ResolvedDate | None:
    """``last``, ``this`` or ``next`` ``season`` as said on ``ref``."""
    rule = f"{relation}-season"
    if relation == "this":
        under_way = _current(season, ref)
        year = under_way.date.year if under_way and under_way.date else ref.year
        return season_of(raw, season, year, rule)
    step = -1 if relation == "last" else 1
    year = ref.year + (1 if relation == "last" else -1)
    for _ in range(4):
        found = season_of(raw, season, year, rule)
        if found is None or found.start is None or found.end is None:
            return None
        if (relation == "last" and found.end < ref) or (relation == "next" and found.start > ref):
            return found
        year += step
    return None


def _with_year(match: re.Match[str], ref: date) -> ResolvedDate | None:
    """ "spring 2023", "the summer of 2023", "in the spring" (the day's year, not given)."""
    season = _ENGLISH[match.group("season").lower()]
    if match.group("y"):
        return season_of(match.group(0), season, int(match.group("y")), "season-of-year")
    return season_of(match.group(0), season, ref.year, "season", year_given=False)


def _relative(match: re.Match[str], ref: date) -> ResolvedDate | None:
    season = _ENGLISH[match.group("season").lower()]
    relation = match.group("rel").lower()
    relation = "last" if relation in ("past", "previous") else relation
    return relative_season(match.group(0), season, ref, relation)


def _cjk(match: re.Match[str], ref: date) -> ResolvedDate | None:
    season = _CJK[match.group("season")]
    shift = _CJK_YEARS[match.group("year")]
    return season_of(match.group(0), season, ref.year + shift, "year-season")


def _korean(match: re.Match[str], ref: date) -> ResolvedDate | None:
    season = _KOREAN[match.group("season")]
    year = match.group("year")
    if year == "지난":
        return relative_season(match.group(0), season, ref, "last")
    return season_of(match.group(0), season, ref.year + _KOREAN_YEARS[year], "year-season")


_FLAGS = re.IGNORECASE
_SEASON_WORD = r"(?P<season>spring|summer|autumn|fall|winter)"
_YEAR = r"(?:\s+(?:of\s+)?(?P<y>\d{4}))"
#: Words that make a bare season a time ("fall" alone is a verb, "spring" a noun too).
_BEFORE = r"(?:in|during|over|through|since|until|by|early|late|mid)"
ENGLISH_RULES: list[tuple[re.Pattern[str], Rule]] = [
    (re.compile(rf"\b(?:the\s+)?{_SEASON_WORD}{_YEAR}\b", _FLAGS), _with_year),
    (
        re.compile(rf"\b{_BEFORE}\s+(?:the\s+)?{_SEASON_WORD}{_YEAR}?\b", _FLAGS),
        _with_year,
    ),
    (
        re.compile(rf"\b(?P<rel>last|past|previous|this|next)\s+{_SEASON_WORD}\b", _FLAGS),
        _relative,
    ),
]


@functools.cache
def cjk_rules() -> list[tuple[re.Pattern[str], Rule]]:
    """Chinese and Japanese seasons, compiled on first need (English text never needs them)."""
    pattern = r"(?P<year>前年|去年|今年|明年|來年|来年)の?(?P<season>[春夏秋冬])(?:天|季|期)?"
    return [(re.compile(pattern), _cjk)]


@functools.cache
def korean_rules() -> list[tuple[re.Pattern[str], Rule]]:
    years = "재작년|작년|지난해|지난|올해|금년|내년"
    return [(re.compile(rf"(?P<year>{years})\s*(?P<season>봄|여름|가을|겨울)"), _korean)]
