"""The body of a typed memory: current sections on top, ``## History`` at the bottom.

Updating a memory (seed 000, "update over create" and 5b "conflict resolution") must
replace outdated facts without losing them: a section that comes back with different text
is replaced, the old text moves to ``## History`` under a dated heading, and a one-line
``> Updated YYYY-MM-DD: reason`` goes right above the changed section. Sections the update
does not mention are kept as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from ..files.sections import Document, Section, normalize_title

HISTORY = "History"
UPDATED_PREFIX = "> Updated "
CHECKPOINT_PREFIX = "> Checkpoint: "
DEFAULT_REASON = "replaced by newer information"
_SPACE = re.compile(r"\s+")
_HISTORY_ENTRY = re.compile(r"^###\s+(?P<title>.*)$")
_ENTRY_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})")


def _is_note(line: str) -> bool:
    return line.startswith((UPDATED_PREFIX, CHECKPOINT_PREFIX))


def _clean(lines: list[str]) -> str:
    """Text as compared: notes left out, blank edges and spacing ignored."""
    kept = [line for line in lines if not _is_note(line.strip())]
    return _SPACE.sub(" ", "\n".join(kept)).strip()


def _strip_blank(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


@dataclass
class HistoryEntry:
    title: str
    lines: list[str]

    @property
    def day(self) -> date | None:
        match = _ENTRY_DATE.match(self.title)
        if not match:
            return None
        try:
            return date.fromisoformat(match.group(1))
        except ValueError:
            return None

    def render(self) -> list[str]:
        return [f"### {self.title}", "", *_strip_blank(self.lines), ""]


def history_entries(section: Section) -> tuple[list[str], list[HistoryEntry]]:
    """The lines before the first entry, and the ``###`` entries of a History section."""
    intro: list[str] = []
    entries: list[HistoryEntry] = []
    for line in section.body:
        match = _HISTORY_ENTRY.match(line)
        if match:
            entries.append(HistoryEntry(match.group("title").strip(), []))
        elif entries:
            entries[-1].lines.append(line)
        else:
            intro.append(line)
    return intro, entries


def set_history(section: Section, intro: list[str], entries: list[HistoryEntry]) -> None:
    body = ["", *_strip_blank(intro)]
    if len(body) > 1:
        body.append("")
    for entry in entries:
        body.extend(entry.render())
    section.body = body


@dataclass
class BodyChange:
    text: str
    #: Section titles replaced (their old text moved to History); "" is the opening text.
    replaced: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.replaced or self.added)


def _annotate_above(doc: Document, index: int, note: str) -> None:
    """Put ``note`` just above section ``index``'s heading, replacing an older note there."""
    lines = doc.preamble if index == 0 else doc.sections[index - 1].body
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and lines[-1].startswith(UPDATED_PREFIX):
        lines.pop()
        while lines and not lines[-1].strip():
            lines.pop()
    if lines:
        lines.append("")
    lines.extend([note, ""])


def _history(doc: Document) -> Section:
    found = doc.get(HISTORY)
    if found is not None:
        return found
    return doc.ensure(HISTORY, placeholder="")


def merge_body(old: str, new: str, today: date, reason: str | None = None) -> BodyChange:
    """``old`` updated with ``new``: replaced sections go to History, notes mark the change."""
    old_doc = Document.parse(old if old.endswith("\n") or not old else old + "\n")
    new_doc = Document.parse(new.strip("\n") + "\n")
    note = f"{UPDATED_PREFIX}{today.isoformat()}: {(reason or DEFAULT_REASON).strip()}"
    change = BodyChange("")
    moved: list[HistoryEntry] = []

    new_intro = _strip_blank(new_doc.preamble)
    old_intro = _strip_blank([line for line in old_doc.preamble if not _is_note(line.strip())])
    if new_intro and _clean(new_intro) != _clean(old_intro):
        notes = [line for line in old_doc.preamble if line.startswith(CHECKPOINT_PREFIX)]
        if old_intro:
            moved.append(HistoryEntry(f"{today.isoformat()} — summary", old_intro))
            change.replaced.append("")
            old_doc.preamble = ["", note, "", *notes, *new_intro, ""]
        else:
            old_doc.preamble = ["", *notes, *new_intro, ""]
            change.added.append("")

    for section in new_doc.sections:
        if normalize_title(section.title) == normalize_title(HISTORY):
            continue  # history is ours to keep; an update cannot rewrite it
        body = _strip_blank(section.body)
        existing = old_doc.get(section.title)
        if existing is None:
            history = old_doc.get(HISTORY)
            created = Section(section.title, f"## {section.title}", ["", *body, ""])
            position = (
                old_doc.sections.index(history) if history is not None else len(old_doc.sections)
            )
            before = old_doc.preamble if position == 0 else old_doc.sections[position - 1].body
            if before and before[-1].strip():
                before.append("")
            old_doc.sections.insert(position, created)
            change.added.append(section.title)
            continue
        if _clean(existing.body) == _clean(body):
            continue
        kept = [line for line in existing.body if not _is_note(line.strip())]
        moved.append(HistoryEntry(f"{today.isoformat()} — {existing.title}", kept))
        existing.body = ["", *body, ""]
        _annotate_above(old_doc, old_doc.sections.index(existing), note)
        change.replaced.append(existing.title)

    if moved:
        history = _history(old_doc)
        intro, entries = history_entries(history)
        set_history(history, intro, [*entries, *moved])
    old_doc.trailing_newline = True
    change.text = old_doc.render().rstrip("\n") + "\n"
    return change


def set_checkpoint(body: str, stamp: str) -> str:
    """One ``> Checkpoint: … (mid-session save)`` line at the top, replacing an older one."""
    line = f"{CHECKPOINT_PREFIX}{stamp} (mid-session save)"
    lines = body.split("\n")
    for index, existing in enumerate(lines):
        if existing.startswith(CHECKPOINT_PREFIX):
            lines[index] = line
            return "\n".join(lines)
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    return "\n".join([*lines[:start], line, "", *lines[start:]])
