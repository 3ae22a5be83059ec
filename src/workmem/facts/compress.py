"""Compression of a typed memory over 50 lines (seed 000, 5a), without an LLM.

The seed asks to keep the frontmatter unchanged, bring the content down to its essential
facts (20-30 lines), keep the last 3 ``## History`` entries and delete history older than
90 days. Summarising prose needs a model; choosing among facts does not. So compression
here keeps the facts that matter most and moves the others, whole, to
``memory/archive.md`` (searchable, recoverable), with a ``> Compressed`` line that says so:

* history older than 90 days, and entries before the last three, are archived; the last
  three stay whole, word for word, however long they are (the seed keeps them, and a
  History heading whose text went to the archive keeps nothing);
* then the facts of the current sections (list items, or lines of prose) are ranked: the
  newest first (by the date a fact names, else by its place: memories grow at the
  bottom), the most specific next (numbers, names, paths, versions); the lowest-ranked go
  until the body fits 30 lines. Each section keeps at least its best fact.

Nothing is lost: before the result is returned, every line of the old body must be found in
the new body or in what goes to the archive. The frontmatter is carried over byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from ..errors import ConflictError
from ..files.sections import Document, parse_blocks
from .body import HISTORY, HistoryEntry, history_entries, set_history
from .entries import dates_in
from .frontmatter import split

COMPRESS_OVER = 50
#: The body after compression (the seed's "target: 20-30 lines").
TARGET_LINES = 30
KEEP_HISTORY = 3
HISTORY_DAYS = 90
COMPRESSED_PREFIX = "> Compressed "
_SPECIFIC = re.compile(
    r"\d|`[^`]+`|https?://|\b\w+[/._:]\w|\b[A-Z][a-z]+[A-Z]\w*|\b[A-Z]{2,}\b", re.UNICODE
)
_NOTE = (">", "#")


@dataclass
class Compression:
    filename: str
    lines_before: int
    lines_after: int = 0
    history_expired: int = 0
    history_archived: int = 0
    detail_lines_moved: int = 0
    #: (origin, lines) blocks for archive.md.
    archived: list[tuple[str, list[str]]] = field(default_factory=list)
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.filename,
            "lines_before": self.lines_before,
            "lines_after": self.lines_after,
            "history_expired": self.history_expired,
            "history_archived": self.history_archived,
            "detail_lines_moved": self.detail_lines_moved,
        }


@dataclass
class _Fact:
    """One fact of a current section: a list item (with its continuation) or a prose line."""

    holder: str
    lines: list[str]
    order: int
    day: date | None
    specific: int
    kept: bool = True


def specificity(text: str) -> int:
    """How concrete a fact is: numbers, code, paths, names, acronyms (capped at 4)."""
    return min(4, len(_SPECIFIC.findall(text)))


def _archived_entry(entry: HistoryEntry) -> list[str]:
    """A history entry as archived: its heading one level down, under ``### From …``."""
    return ["#" + line if line.startswith("### ") else line for line in entry.render()]


class _Body:
    """The current sections as facts and other lines, so facts can be dropped and rendered."""

    def __init__(self, doc: Document, history: Any) -> None:
        self.doc = doc
        self.holders: list[tuple[str, list[str], list[_Fact | str]]] = []
        self.facts: list[_Fact] = []
        current = [("summary", doc.preamble)]
        current += [(s.title, s.body) for s in doc.sections if s is not history]
        for title, body in current:
            parts: list[_Fact | str] = []
            for block in parse_blocks(body):
                if block.is_item:
                    parts.append(self._fact(title, list(block.lines)))
                    continue
                for line in block.lines:
                    plain = line.strip()
                    is_fact = bool(plain) and not plain.startswith(_NOTE)
                    parts.append(self._fact(title, [line]) if is_fact else line)
            self.holders.append((title, body, parts))

    def _fact(self, holder: str, lines: list[str]) -> _Fact:
        text = "\n".join(lines)
        found = dates_in(text)
        fact = _Fact(holder, lines, len(self.facts), max(found) if found else None, 0)
        fact.specific = specificity(text)
        self.facts.append(fact)
        return fact

    def apply(self) -> None:
        """Write the kept facts back into the document's sections."""
        for _title, body, parts in self.holders:
            lines: list[str] = []
            for part in parts:
                if isinstance(part, str):
                    if part.strip() or not lines or lines[-1].strip():
                        lines.append(part)
                elif part.kept:
                    lines.extend(part.lines)
            body[:] = lines

    def ranked(self) -> list[_Fact]:
        """Kept facts, least worth keeping first; each section's best one is not offered."""
        count = max(len(self.facts) - 1, 1)
        dated = [f.day for f in self.facts if f.day is not None]
        low, high = (min(dated), max(dated)) if dated else (None, None)

        def worth(fact: _Fact) -> float:
            recency = fact.order / count
            if fact.day is not None and low is not None and high is not None and high > low:
                recency = (fact.day - low).days / (high - low).days
            return recency + fact.specific / 8

        best: dict[str, _Fact] = {}
        for fact in self.facts:
            if fact.kept and (fact.holder not in best or worth(fact) >= worth(best[fact.holder])):
                best[fact.holder] = fact
        offered = [f for f in self.facts if f.kept and best.get(f.holder) is not f]
        return sorted(offered, key=lambda f: (worth(f), f.order))

    def moved(self) -> list[tuple[str, list[str]]]:
        """The dropped facts by section, in the order they stood."""
        groups: dict[str, list[str]] = {}
        for fact in self.facts:
            if not fact.kept:
                groups.setdefault(fact.holder, []).extend(fact.lines)
        return list(groups.items())


def _body_lines(doc: Document) -> int:
    return len(doc.render().strip("\n").splitlines())


def compress_text(
    text: str, filename: str, today: date, *, over: int = COMPRESS_OVER
) -> Compression | None:
    """The compressed file, or ``None`` when it is not over ``over`` lines."""
    before = len(text.splitlines())
    if before <= over:
        return None
    front = split(text, filename)
    head = front.render(body="") if front is not None else ""
    body = front.body if front is not None else text
    result = Compression(filename, before)
    doc = Document.parse(body if body.endswith("\n") else body + "\n")
    doc.preamble[:] = [ln for ln in doc.preamble if not ln.startswith(COMPRESSED_PREFIX)]

    history = doc.get(HISTORY)
    origin = f"{filename} > History"
    kept: list[HistoryEntry] = []
    intro: list[str] = []
    if history is not None:
        intro, entries = history_entries(history)
        cutoff = today - timedelta(days=HISTORY_DAYS)
        for entry in entries:
            if entry.day is not None and entry.day < cutoff:
                result.archived.append((origin, _archived_entry(entry)))
                result.history_expired += 1
            else:
                kept.append(entry)
        while len(kept) > KEEP_HISTORY:
            result.archived.append((origin, _archived_entry(kept.pop(0))))
            result.history_archived += 1
        set_history(history, intro, kept)
        doc.sections.remove(history)  # history goes last, as the seed lays the file out
        doc.sections.append(history)
    current = Document(doc.preamble, [s for s in doc.sections if s is not history])
    head_lines = len(head.splitlines()) + 2  # the frontmatter, the "> Compressed" note

    def too_long() -> bool:
        return head_lines + _body_lines(doc) > over

    facts = _Body(doc, history)
    ranked = facts.ranked()
    while ranked and _body_lines(current) + 2 > TARGET_LINES:  # the facts: 20-30 lines
        ranked.pop(0).kept = False
        facts.apply()
    # The kept history entries stay whole: when the file is still long, fewer facts go.
    while ranked and too_long():  # still over: fewer facts, down to each section's best
        ranked.pop(0).kept = False
        facts.apply()
    for title, lines in facts.moved():
        result.archived.append((f"{filename} > {title}", lines))
        result.detail_lines_moved += len(lines)
    if not result.archived:
        return None  # over the limit but nothing movable (a few very long lines)

    what = f"{result.detail_lines_moved} lines of detail" if result.detail_lines_moved else ""
    if result.history_archived or result.history_expired:
        what = f"{what} and old history" if what else "old history"
    note = f"{COMPRESSED_PREFIX}{today.isoformat()}: {what} moved to memory/archive.md\n\n"
    result.text = head + note + doc.render().strip("\n") + "\n"
    result.lines_after = len(result.text.splitlines())
    _check_nothing_lost(body, result)
    return result


def _check_nothing_lost(old_body: str, result: Compression) -> None:
    """Every line of the old body is in the new file or in what goes to the archive."""

    def key(line: str) -> str:
        return " ".join(line.lstrip("#").split())

    have = {key(line) for line in result.text.split("\n")}
    for _origin, lines in result.archived:
        have.update(key(line) for line in lines)
    lost = [
        line
        for line in old_body.split("\n")
        if line.strip() and not line.startswith(COMPRESSED_PREFIX) and key(line) not in have
    ]
    if lost:  # a bug, never the user's fault: refuse rather than drop a fact
        raise ConflictError(
            f"compressing {result.filename} would lose {len(lost)} line(s) "
            f"(first: {lost[0][:60]!r}); nothing was written"
        )
