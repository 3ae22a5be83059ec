"""What a face says beside a search's hits when the question could not be taken as asked.

A question with no words (only punctuation, only an emoji), a question about a day
nothing was written on, a pasted log longer than search reads: each gets a sentence in
the user's language (``workmem.i18n``, decided from the question itself first) instead
of a bare "no matches", or of hits from another week presented as if they answered it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..root import Workspace
from . import analyze, bounds
from .dates import DateRange, query_range
from .hits import Hit


def span_text(span: DateRange) -> str:
    if span.start == span.end:
        return span.start.isoformat()
    return f"{span.start.isoformat()} – {span.end.isoformat()}"


def notices(workspace: Workspace | None, query: str, hits: Sequence[Hit], today: date) -> list[str]:
    """Sentences to show with ``hits`` for ``query`` (none for an ordinary question)."""
    from ..i18n import language_for, text

    language = language_for(workspace, words=query)
    said: list[str] = []
    if workspace is not None and not hits and not _has_memory(workspace):
        said.append(text(language, "search.no_memory", root=str(workspace.root)))
    asked = bounds.bound_query(query)
    span = query_range(asked, today)
    if not analyze.has_words(asked) and span is None:
        from ..files.freetext import shorten

        shown = shorten(query, 41)
        said.append(text(language, "search.no_words", query=repr(shown)))
    if span is not None and not any(_inside(hit, span) for hit in hits):
        key = "search.nothing_dated_closest" if hits else "search.nothing_dated"
        said.append(text(language, key, span=span_text(span)))
    if bounds.was_cut(query):
        said.append(text(language, "search.cut", chars=f"{bounds.MAX_QUERY_CHARS:,}"))
    return said


def _inside(hit: Hit, span: DateRange) -> bool:
    if not hit.date:
        return False
    try:
        day = date.fromisoformat(hit.date[:10])
    except ValueError:
        return False
    return span.start <= day <= span.end


def _has_memory(workspace: Workspace) -> bool:
    """A memory root to search: its long-term file or its memory folder exists."""
    return workspace.memory_dir.is_dir() or (workspace.root / "MEMORY.md").is_file()
