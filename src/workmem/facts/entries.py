"""Entries of MEMORY.md: list items, their dates, their identity, and the index links.

Curation and the line budget move entries between tiers; to do that without judging the
prose, an entry's age is the newest ``YYYY-MM-DD`` it mentions (or, for a typed-index line,
its file's ``updated``), and its identity is its text without dates, marks or spacing.
Everything that is not a list item stays where it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ..files.sections import parse_blocks
from .typed import parse_filename

_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_INDEX_LINE = re.compile(r"^\s{0,3}[-*+]\s+\[(?:[^\]\\]|\\.)*\]\((?P<target>[^)\s]+)\)")
_MARKS = re.compile(r"\[(?:stale|pinned|pin|confirmed)\]", re.IGNORECASE)
_BULLET = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+")
_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)
PIN_MARKS = ("[pinned]", "[pin]", "📌")
STALE_MARK = "[STALE]"


def dates_in(text: str) -> list[date]:
    found: list[date] = []
    for match in _DATE.finditer(text):
        try:
            found.append(date(int(match.group(1)), int(match.group(2)), int(match.group(3))))
        except ValueError:
            continue
    return found


@dataclass
class Entry:
    """One list item (with its continuation lines) and where it sits."""

    lines: list[str]
    tier: str
    section: str

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def first(self) -> str:
        return _BULLET.sub("", self.lines[0], count=1).strip()

    def link(self) -> str | None:
        """The typed memory file this line indexes, when the item *starts* with its link.

        A free-text entry that merely mentions a memory file is not an index line.
        """
        match = _INDEX_LINE.match(self.lines[0])
        if match is None:
            return None
        name = match.group("target").rsplit("/", 1)[-1]
        return name if parse_filename(name) is not None else None

    def own_date(self) -> date | None:
        found = dates_in(self.text)
        return max(found) if found else None

    @property
    def pinned(self) -> bool:
        low = self.text.casefold()
        return any(mark in low for mark in PIN_MARKS)

    def key(self) -> str:
        """Identity for duplicate detection: text without dates, marks, case or punctuation."""
        link = self.link()
        if link is not None:
            return f"link:{link}"
        body = " ".join(_BULLET.sub("", line, count=1) for line in self.lines)
        body = _MARKS.sub(" ", _DATE.sub(" ", body))
        return _NOISE.sub(" ", body).strip().casefold()


def split_entries(body: list[str], tier: str, section: str) -> list[Entry | list[str]]:
    """A subsection body as entries and runs of other lines, in order."""
    parts: list[Entry | list[str]] = []
    for block in parse_blocks(body):
        if block.is_item:
            parts.append(Entry(list(block.lines), tier, section))
        else:
            parts.append(list(block.lines))
    return parts


def join_parts(parts: list[Entry | list[str]]) -> list[str]:
    lines: list[str] = []
    for part in parts:
        lines.extend(part.lines if isinstance(part, Entry) else part)
    return lines
