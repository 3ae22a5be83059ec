"""Deep recall (seed 004, Phase 4): passages from the search index, else from the newest logs.

Used when the opening message asks to remember (the loader's deep phase) and by
``MemoryLoader.phase_4_search`` mid-session; a session start without such a message never
imports it, nor the search index behind it.
"""

from __future__ import annotations

import re

from ..errors import WorkmemError
from .daily import list_logs
from .journal import Journal
from .terms import term_set, terms

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

DEFAULT_RECALL_KINDS = ["daily", "archive", "thread", "memory", "resumption"]
#: workmem's own bookkeeping comments (session-end tokens): noise in recalled text
_MARKER = re.compile(r"^<!--\s*workmem:[^>]*-->$")


def search_items(
    journal: Journal, query: str, kinds: list[str] | None, k: int, warnings: list[str]
) -> tuple[list[tuple[str, str]], list[dict[str, Any]]]:
    """Ranked passages from the search index; the newest logs by words when it fails."""
    try:
        from ..retrieval.search import search

        hits = search(journal.workspace, query, k=k, kinds=kinds or DEFAULT_RECALL_KINDS)
    except (ImportError, WorkmemError) as exc:
        warnings.append(f"search unavailable ({exc}); scanned the newest daily logs instead")
        return _scan_logs(journal, query, k, warnings)
    items = []
    for hit in hits:
        # One short provenance line per passage: many passages share a small budget.
        when = f"{hit.date} · " if hit.date else ""
        head = f"[{when}{hit.path}:{hit.line_start}]"
        body = "\n".join(
            line for line in hit.text.strip().split("\n") if not _MARKER.match(line.strip())
        )
        items.append((f"search:{hit.id}", f"{head}\n{body.strip()}"))
    return items, [hit.to_dict(compact=True) for hit in hits]


def _scan_logs(
    journal: Journal, query: str, k: int, warnings: list[str]
) -> tuple[list[tuple[str, str]], list[dict[str, Any]]]:
    wanted = set(terms(query))
    scored: list[tuple[int, str, str]] = []
    for log in reversed(list_logs(journal.workspace)[-120:]):
        text = journal.safe_text(log.path, warnings)
        if not text:
            continue
        score = len(wanted & term_set(text))
        if score:
            scored.append((score, log.day.isoformat(), text))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    items = [(f"log:{day}", f"#### memory/{day}.md\n{text.strip()}") for _, day, text in scored[:k]]
    return items, [{"path": f"memory/{day}.md", "score": s} for s, day, _ in scored[:k]]
