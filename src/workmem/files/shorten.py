"""Text made short for a document: one line of plain words, cut at a word.

Cutting at a word keeps a summary readable ("100% co…" says nothing) and a cut never
splits a word that a reader would search for. Small and free of imports at load, so a hook
that only shortens a line loads nothing else until it cuts.

Redact first, then cut (``freetext``): ``clip_words`` redacts the whole text before it
cuts, and never cuts inside a redaction's marker, so a cut keeps no piece of a secret.
"""

from __future__ import annotations

import re

_MARKUP = re.compile(r"^[\s>*#\-•\d.)]+|[*_`]+")


def flatten(text: str) -> str:
    """One line of plain words: markdown marks and runs of space gone."""
    lines = (_MARKUP.sub("", line).strip() for line in text.splitlines())
    return " ".join(" ".join(line for line in lines if line).split())


def clip_words(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a word (or a CJK character), never mid-word;
    redacted before it is cut."""
    from .freetext import cut_at, redacted

    flat = " ".join(redacted(text).split())
    if len(flat) <= limit:
        return flat
    cut = flat[: cut_at(flat, max(limit - 1, 1))]
    space = cut.rfind(" ")
    if space >= limit // 2 and not _ends_cjk(cut):
        cut = cut[:space]
    return cut.rstrip(" ,;:-–—") + "…"


def _ends_cjk(text: str) -> bool:
    return bool(text) and "\u3040" <= text[-1] <= "\ud7af"
