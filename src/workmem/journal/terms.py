"""Cheap matching terms for choosing threads, MEMORY.md sections and events.

The loader has to decide in a few milliseconds whether "the auth tokens again" is about a
known thread, so it cannot wait for the search index. These terms are deliberately simple:
English words lightly stemmed (with the irregular verbs that events use: bought -> buy),
CJK text as single characters and bigrams with Traditional and Simplified folded together,
so 上週買了什麼 and 上周买了什么 meet. Ranking by relevance across files is the search
index's job (``workmem.retrieval.search``); this is only for picking among a few candidates.
"""

from __future__ import annotations

import re
from functools import cache

_WORD = r"[A-Za-z0-9][A-Za-z0-9_]*|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+"
_STOP_WORDS = (
    "a an the to of in on at for is are was were be been being i me my we our you your it "
    "its this that these those what when where who whom which how why did do does done "
    "and or but with from by as about into over than then so if not no yes can could will "
    "would should shall may might must have has had having there here they them their he "
    "she his her us any some all just also very up out again still let lets please tell "
    "show find get got anything something thing things"
)
_STOP = frozenset(_STOP_WORDS.split())
_CANON = {
    "bought": "buy",
    "buys": "buy",
    "buying": "buy",
    "purchase": "buy",
    "purchased": "buy",
    "purchases": "buy",
    "purchasing": "buy",
    "paid": "pay",
    "sold": "sell",
    "met": "meet",
    "meeting": "meet",
    "meetings": "meet",
    "went": "go",
    "gone": "go",
    "going": "go",
    "made": "make",
    "took": "take",
    "taken": "take",
    "wrote": "write",
    "written": "write",
    "decided": "decide",
    "decision": "decide",
    "decisions": "decide",
    "chose": "choose",
    "chosen": "choose",
    "fixed": "fix",
    "broke": "break",
    "broken": "break",
    "issues": "issue",
    "bugs": "bug",
}
#: Traditional -> Simplified for the characters memory text uses most; enough to match.
_FOLD = str.maketrans(
    "週買賣會議這個後號禮兩過麼們請說話時間題開發寫讀記憶關於為與對錄進據實體單長東車門見現點線"
    "經網頁驗證項師計劃專標準類應該還從將問條聯統區產動畫際總結購",
    "周买卖会议这个后号礼两过么们请说话时间题开发写读记忆关于为与对录进据实体单长东车门见现点线"
    "经网页验证项师计划专标准类应该还从将问条联统区产动画际总结购",
)
_CJK_STOP = frozenset("的了是我你他她它在和也就都而及与着吗呢吧啊嗎么")
_CJK_CANON = {"买": "buy", "购": "buy", "卖": "sell", "会": "meet"}


def _stem(word: str) -> str:
    if word in _CANON:
        return _CANON[word]
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            if suffix == "es" and not word.endswith(("shes", "ches", "xes", "zes")):
                continue
            return word[: -len(suffix)] + keep
    return word


@cache
def _word_pattern() -> re.Pattern[str]:
    """Compiled on first use: the CJK ranges take a millisecond to compile, and a session
    start with no message and no MEMORY.md never needs them."""
    return re.compile(_WORD)


def terms(text: str) -> list[str]:
    """Matching terms of ``text`` in order (duplicates kept)."""
    out: list[str] = []
    if not text:
        return out
    for match in _word_pattern().finditer(text):
        token = match.group(0)
        if token[0].isascii():
            word = token.lower().strip("_")
            if len(word) < 2 or word in _STOP:
                continue
            out.append(_stem(word))
            continue
        folded = token.translate(_FOLD)
        for index, char in enumerate(folded):
            if char not in _CJK_STOP:
                out.append(_CJK_CANON.get(char, char))
            if index + 1 < len(folded):
                out.append(folded[index : index + 2])
    return out


def term_set(text: str) -> frozenset[str]:
    return frozenset(terms(text))
