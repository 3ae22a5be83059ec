"""Patterns noted again and again across sessions: what curation promotes to MEMORY.md.

Seed 004's curation "promotes confirmed patterns". A pattern (``workmem note pattern``)
lands in its session's daily-log entry under ``#### Patterns``; the same pattern noted in
several sessions is confirmed. This reads those sections back from every daily log and
counts each pattern by its words (case, spacing and punctuation aside), so the third
"User tends to ask for examples" is seen as the same one as the first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ..files.freetext import restore
from .daily import list_logs
from .journal import Journal

_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*$")
_NOISE = re.compile(r"[\W_]+", re.UNICODE)
PATTERN_TITLES = frozenset({"patterns", "pattern", "模式", "規律", "规律"})


@dataclass(frozen=True)
class RepeatedPattern:
    text: str
    count: int
    last: date


def pattern_key(text: str) -> str:
    return _NOISE.sub(" ", text.casefold()).strip()


def noted_patterns(text: str) -> list[str]:
    """The list items under every "Patterns" heading of one daily log, as written."""
    found: list[str] = []
    inside = False
    for line in text.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            inside = heading.group("title").strip().rstrip(":").casefold() in PATTERN_TITLES
            continue
        if not inside:
            continue
        if line.startswith(("- ", "* ")):
            found.append(line[2:].strip())
        elif line.startswith("  ") and line.strip() and found:
            found[-1] = f"{found[-1]} {line.strip()}"
    return [restore(item) for item in found if item]


def repeated_patterns(journal: Journal, at_least: int = 3) -> list[RepeatedPattern]:
    """Patterns noted ``at_least`` times across the daily logs, most noted first.

    A pattern keeps the words of its latest noting and the day of its latest log.
    """
    found: dict[str, RepeatedPattern] = {}
    warnings: list[str] = []
    for log in list_logs(journal.workspace):
        text = journal.safe_text(log.path, warnings)
        if not text:
            continue
        for item in noted_patterns(text):
            key = pattern_key(item)
            if key:
                count = found[key].count + 1 if key in found else 1
                found[key] = RepeatedPattern(item, count, log.day)
    kept = [p for p in found.values() if p.count >= at_least]
    return sorted(kept, key=lambda p: (-p.count, -p.last.toordinal()))
