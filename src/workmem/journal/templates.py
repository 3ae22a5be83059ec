"""Starter text for the files ``workmem init`` creates (only ever when they are missing)."""

from __future__ import annotations

from . import log_index, resumption
from .events import empty_text
from .state import JournalState

THREADS = """# Threads

Ongoing topics. Each `## thread-…` carries enough state under `### Current Position` to
resume without re-reading the daily logs, plus `### Decisions`, `### Open Questions` and
`### Closed Questions`. `workmem end` keeps the threads a session touched up to date.
"""

ARCHIVE = """# Archive

Long-term memories demoted from MEMORY.md's `## Fading` by curation. Nothing here is
deleted: search it (`workmem search --kind archive`) and move an entry back when it matters
again.
"""


def starter_texts() -> dict[str, str]:
    """File name (as the seed names it) -> starter content."""
    return {
        "resumption.md": resumption.TEMPLATE,
        "threads.md": THREADS,
        "state.json": JournalState().render(),
        "log-index.md": log_index.template(),
        "archive.md": ARCHIVE,
        "events.json": empty_text(),
    }
