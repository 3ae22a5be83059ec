"""The relay snapshot's template (seed 002, Phase 2) and the agent's prose for it.

The seven sections, in the seed's order with In Progress first. The agent's words come in
as a ``SnapshotNotes`` (from options or from markdown with ``## In Progress``-style
headings, emoji optional, in English or Chinese); the rest is filled from the transcript.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

SECTIONS: tuple[tuple[str, str], ...] = (
    ("in_progress", "🔥 In Progress (was actively working on this)"),
    ("completed", "✅ Completed This Session"),
    ("pending", "📋 Pending / Next Steps (priority order)"),
    ("decisions", "🧠 Key Decisions & Context"),
    ("files", "🗂️ Working Files"),
    ("preferences", "💬 User Preferences Discovered"),
    ("gotchas", "⚠️ Gotchas & Warnings"),
)
TITLE = "# Session Relay Snapshot"
_KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("in_progress", ("in progress", "in-progress", "进行中", "進行中", "current")),
    ("completed", ("completed", "done", "完成")),
    ("pending", ("pending", "next step", "next", "待办", "待辦", "下一步")),
    ("decisions", ("decision", "决定", "決定", "决策", "決策")),
    ("files", ("working files", "files", "文件", "檔案")),
    ("preferences", ("preference", "偏好")),
    ("gotchas", ("gotcha", "warning", "注意", "坑")),
    ("commands", ("reproduction", "commands", "命令")),
)
_HEADING = r"^#{2,3}\s+(.+?)\s*$"
_ITEM = r"^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*)$"
_WORD = r"[A-Za-z0-9_'’./:-]+"
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"


@cache
def _pattern(source: str) -> re.Pattern[str]:
    """Compiled on first use: the CJK range alone takes milliseconds to compile, and the
    session-start hook imports this module for the snapshot's title only."""
    return re.compile(source)


def section_key(title: str) -> str | None:
    """Which template section a heading means, by keyword (emoji and case ignored)."""
    lowered = title.casefold()
    for key, words in _KEYWORDS:
        if any(word in lowered for word in words):
            return key
    return None


def heading_of(key: str) -> str:
    return "## " + dict(SECTIONS)[key]


def count_words(text: str) -> int:
    """Words for the 500-2,000 target: Latin words plus one per CJK character."""
    return len(_pattern(_WORD).findall(text)) + len(_pattern(_CJK).findall(text))


def clip_words(text: str, width: int) -> str:
    """Free text as one safe line of at most about ``width`` characters, cut at a word
    (``files.shorten``), then neutralised for the snapshot and the daily log."""
    from ..files.freetext import neutralize_line
    from ..files.shorten import clip_words as shorten

    return neutralize_line(shorten(neutralize_line(text), width))


@dataclass
class SnapshotNotes:
    """The prose only the agent can give: what it was doing, decided, learned."""

    in_progress: str = ""
    completed: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)
    gotchas: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (
            self.in_progress.strip()
            or self.completed
            or self.pending
            or self.decisions
            or self.files
            or self.preferences
            or self.gotchas
            or self.commands
        )

    def items(self, key: str) -> list[str]:
        value = getattr(self, key)
        return list(value) if isinstance(value, list) else []

    @classmethod
    def from_markdown(cls, text: str) -> SnapshotNotes:
        """Sections by heading; list items become items, other text the section's prose.

        Text before any heading is taken as In Progress, so an agent can pipe one
        paragraph in and still be understood.
        """
        notes = cls()
        key: str | None = "in_progress"
        prose: dict[str, list[str]] = {}
        heading_pattern, item_pattern = _pattern(_HEADING), _pattern(_ITEM)
        for line in text.replace("\r\n", "\n").split("\n"):
            heading = heading_pattern.match(line)
            if heading:
                key = section_key(heading.group(1))
                continue
            if line.startswith("# ") or key is None:
                continue
            item = item_pattern.match(line)
            if key != "in_progress" and item:
                getattr(notes, key).append(item.group(1).strip())
            elif key != "in_progress" and line.startswith(("  ", "\t")) and notes.items(key):
                values = getattr(notes, key)
                values[-1] = f"{values[-1]}\n{line}"
            else:
                prose.setdefault(key, []).append(line)
        for name, lines in prose.items():
            body = "\n".join(lines).strip()
            if not body:
                continue
            if name == "in_progress":
                notes.in_progress = body
            else:
                getattr(notes, name).append(body)
        return notes
