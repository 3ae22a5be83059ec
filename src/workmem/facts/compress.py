"""Compression of a typed memory over 50 lines (seed 000, 5a), without an LLM.

The seed asks to keep the frontmatter unchanged, bring the content down to its essentials
(20-30 lines), keep the last 3 ``## History`` entries and delete history older than 90
days. Summarising prose needs a model; moving it does not. So compression here moves text
instead of rewriting it: old and surplus history, then the tail of each long section, go
to ``memory/archive.md`` (searchable, recoverable), and a ``> Compressed`` line says where.
The frontmatter is carried over byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from ..files.sections import Document, normalize_title
from .body import HISTORY, HistoryEntry, _strip_blank, history_entries, set_history
from .frontmatter import split

COMPRESS_OVER = 50
TARGET_LINES = 30
KEEP_HISTORY = 3
HISTORY_DAYS = 90
MIN_SECTION_LINES = 3
COMPRESSED_PREFIX = "> Compressed "


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


def _archived_entry(entry: HistoryEntry) -> list[str]:
    """A history entry as archived: its heading one level down, under ``### From …``."""
    return ["#" + line if line.startswith("### ") else line for line in entry.render()]


def _content_lines(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip())


def _trim_sections(doc: Document, target: int) -> list[tuple[str, list[str]]]:
    """Keep each section's opening lines, move the rest; returns what was moved."""
    current = [s for s in doc.sections if normalize_title(s.title) != normalize_title(HISTORY)]
    total = _content_lines(doc.preamble) + sum(_content_lines(s.body) + 1 for s in current)
    if total <= target:
        return []
    parts = len(current) + (1 if _content_lines(doc.preamble) else 0)
    share = max(MIN_SECTION_LINES, target // max(parts, 1))
    moved: list[tuple[str, list[str]]] = []
    holders = [("summary", doc.preamble), *((s.title, s.body) for s in current)]
    for title, lines in holders:
        seen = 0
        for index, line in enumerate(lines):
            if not line.strip():
                continue
            seen += 1
            if seen > share:
                # Cut at a line that starts a new item or paragraph, never mid-item.
                cut = index
                while cut < len(lines) and lines[cut][:1] in (" ", "\t"):
                    cut += 1
                rest = _strip_blank(lines[cut:])
                if rest:
                    moved.append((title, rest))
                    del lines[cut:]
                    lines.append("")
                break
    return moved


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

    history = doc.get(HISTORY)
    if history is not None:
        intro, entries = history_entries(history)
        cutoff = today - timedelta(days=HISTORY_DAYS)
        keep: list[HistoryEntry] = []
        for entry in entries:
            day = entry.day
            if day is not None and day < cutoff:
                result.archived.append((f"{filename} > History", _archived_entry(entry)))
                result.history_expired += 1
            else:
                keep.append(entry)
        while len(keep) > KEEP_HISTORY:
            result.archived.append((f"{filename} > History", _archived_entry(keep.pop(0))))
            result.history_archived += 1
        set_history(history, intro, keep)
        # History goes last, as the seed lays the file out.
        doc.sections.remove(history)
        doc.sections.append(history)

    for title, lines in _trim_sections(doc, TARGET_LINES):
        result.archived.append((f"{filename} > {title}", lines))
        result.detail_lines_moved += len(lines)

    def render() -> str:
        note = ""
        if result.archived:
            moved = result.detail_lines_moved
            what = f"{moved} lines of detail" if moved else "old history"
            if moved and (result.history_archived or result.history_expired):
                what += " and old history"
            note = f"{COMPRESSED_PREFIX}{today.isoformat()}: {what} moved to memory/archive.md\n\n"
            # The newest pointer replaces an older one; the older moves were logged then.
            doc.preamble[:] = [ln for ln in doc.preamble if not ln.startswith(COMPRESSED_PREFIX)]
        return head + note + doc.render().strip("\n") + "\n"

    text_out = render()
    # Very long history entries: move the oldest kept ones until the file fits.
    while history is not None and len(text_out.splitlines()) > over:
        intro, entries = history_entries(history)
        if not entries:
            break
        result.archived.append((f"{filename} > History", _archived_entry(entries[0])))
        result.history_archived += 1
        set_history(history, intro, entries[1:])
        text_out = render()
    if not result.archived:
        return None  # over the limit but nothing movable (no history, short sections)
    result.text = text_out
    result.lines_after = len(text_out.splitlines())
    return result
