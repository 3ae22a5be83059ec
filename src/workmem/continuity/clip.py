"""Text made short for a document: one line of plain words, cut at a word.

Kept apart from the account and the work parts so that a start with nothing to hand over
does not load the transcript model to shorten a memory's description.
"""

from __future__ import annotations

import re

_MARKUP = re.compile(r"^[\s>*#\-•\d.)]+|[*_`]+")


def flatten(text: str) -> str:
    """One line of plain words: markdown marks and runs of space gone."""
    lines = (_MARKUP.sub("", line).strip() for line in text.splitlines())
    return " ".join(" ".join(line for line in lines if line).split())


def clip_words(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a word (or a CJK character), never mid-word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: max(limit - 1, 1)]
    space = cut.rfind(" ")
    if space >= limit // 2 and not _ends_cjk(cut):
        cut = cut[:space]
    return cut.rstrip(" ,;:-–—") + "…"


def _ends_cjk(text: str) -> bool:
    return bool(text) and "\u3040" <= text[-1] <= "\ud7af"
