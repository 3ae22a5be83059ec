"""The bridge between how a question is asked and how workmem files what it asks for.

Memory entries sit under the sections workmem's templates write: Decisions, Open
questions, Errors and Corrections, Files / Artifacts, Next Actions, Resumption note,
Learnings, a user's preferences. A question names what it wants by its form far more
often than by those words: "should the handlers be split?" wants a decision, "what broke
on CI?" an error, "where did we leave off?" the resumption note, "哪個檔案…" a file list.

So each family of sections has, here, the words that name it in the languages workmem
speaks, and the question forms that ask for it. An entry under a section of the family
carries the family's words (in its context column, see ``records``): "決定" finds the
English "Decisions" section and "decision" a Chinese "決定" one. A question of the
family's form gets the family's word as one more query term, so entries filed under that
section rise among those that share the question's words.

These are workmem's own section names, not a thesaurus of any project's subject matter:
nothing here knows that SQLite is a database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from . import kinds


@dataclass(frozen=True)
class Family:
    #: The term every entry of the family carries and a question of its form adds.
    term: str
    #: Words of a heading that files an entry under the family (lower case, any language).
    headings: tuple[str, ...]
    #: Words the family's entries carry, besides ``term`` (other languages, synonyms).
    words: str
    #: The forms of a question asking for such an entry.
    asks: str
    #: A question of this family is about the latest entries ("what's next?" is asked of
    #: the last session, not of any): search ranks them as if the question named that day.
    latest: bool = False
    #: Kinds of entry that answer such a question by what they are (``Weights.asked_kind``).
    entry_kinds: tuple[str, ...] = ()


FAMILIES: tuple[Family, ...] = (
    Family(
        "decision",
        ("decision", "decided", "決定", "决定", "決策", "决策", "決議"),
        "decide choose 決定 决定 選擇 选择",
        r"^\W*should\b|\bdecid|\bdecision|\bcho(?:o)?se|\bchosen|\bsettle|\bgo with\b"
        r"|決定|决定|選了|选了|要不要|該不該|该不该",
    ),
    Family(
        "question",
        ("open question", "open questions", "未決", "未决", "待釐清", "問題", "问题"),
        "open question unresolved 問題 问题 未決",
        r"\bunanswered\b|\bunresolved\b|\bopen questions?\b|\bstill open\b|\bundecided\b"
        r"|還沒決定|还没决定|未決|未决|決定了嗎|决定了吗",
    ),
    Family(
        "error",
        ("error", "errors", "gotcha", "gotchas", "錯誤", "错误", "失敗", "失败", "注意"),
        "error fail problem 錯誤 错误 失敗 失败 問題",
        r"\bwrong\b|\bbroke|\bbreak|\bfail|\berror|\bbug|\bcrash|\bblocked\b"
        r"|錯|错|失敗|失败|壞|坏|出問題|出问题|擋|挡",
    ),
    Family(
        "file",
        ("files", "file", "artifacts", "working files", "檔案", "文件"),
        "file 檔案 文件",
        r"\bwhich files?\b|\bwhat files?\b|\bwhere (?:is|are|does|do|was|were)\b"
        r"|檔案|档案|文件|在哪",
    ),
    Family(
        "next",
        (
            "next",
            "resumption",
            "pending",
            "next steps",
            "in progress",
            "下一步",
            "待辦",
            "待办",
            "進行中",
            "进行中",
        ),
        "next resume continue 下一步 接下來 接下来 繼續 继续",
        r"\bnext\b|\b(?:left|leave|leaving) off\b|\bpick (?:it )?up\b|\bresume\b|\bcontinue\b"
        r"|\bstuck\b|接下來|接下来|下一步|繼續|继续|卡在|卡住",
        latest=True,
        entry_kinds=(kinds.RESUMPTION,),
    ),
    Family(
        "task",
        ("task specification", "task", "request", "goal", "任務", "任务", "需求"),
        "task request asked goal 任務 任务 要求 需求",
        r"\basked\b|\bask(?:ing)? (?:for|to)\b|\brequest|\bgoal\b|\bsupposed to\b"
        r"|要求|需求|任務|任务|交代",
    ),
    Family(
        "lesson",
        ("learnings", "patterns", "lessons", "心得", "經驗", "经验", "學到", "学到"),
        "learn lesson pattern 心得 經驗 经验",
        r"\blearn|\blesson|\bpattern|\btakeaway|學到|学到|心得|經驗|经验",
    ),
    Family(
        "preference",
        ("preference", "preferences", "user", "feedback", "偏好", "喜好"),
        "prefer preference 偏好 喜好 習慣 习惯",
        r"\bprefer|\blikes?\b|\bstyle\b|\bconvention|\bhow (?:should|do) (?:we|i)\b"
        r"|偏好|喜歡|喜欢|習慣|习惯|規定|规定",
    ),
)


@cache
def _asks() -> tuple[tuple[Family, re.Pattern[str]], ...]:
    return tuple((family, re.compile(family.asks, re.IGNORECASE)) for family in FAMILIES)


@cache
def _heading_patterns() -> tuple[tuple[Family, re.Pattern[str]], ...]:
    """A heading word matches at a word's start ("Files", not "Profile"); CJK anywhere."""
    out = []
    for family in FAMILIES:
        parts = [w if not w.isascii() else rf"\b{re.escape(w)}" for w in family.headings]
        out.append((family, re.compile("|".join(parts), re.IGNORECASE)))
    return tuple(out)


@cache
def families_of_heading(heading: str) -> tuple[Family, ...]:
    """The families a heading files its entries under ("Open questions" -> question)."""
    return tuple(family for family, pattern in _heading_patterns() if pattern.search(heading))


def heading_words(headings: list[str]) -> str:
    """Words an entry carries for the sections it sits under (see the module docstring)."""
    found: dict[str, None] = {}
    for heading in headings:
        for family in families_of_heading(heading):
            found[family.term] = None
            found[family.words] = None
    return " ".join(found)


def asked_kinds(query: str) -> frozenset[str]:
    """Kinds of entry that answer ``query`` by what they are (``Family.entry_kinds``)."""
    return frozenset(kind for family in asked_families(query) for kind in family.entry_kinds)


@lru_cache(maxsize=256)
def asked_families(query: str) -> tuple[Family, ...]:
    """The families whose question form ``query`` has."""
    return tuple(family for family, pattern in _asks() if pattern.search(query))
