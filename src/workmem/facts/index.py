"""The typed index inside MEMORY.md's ``## Active`` (seed 000, Step 6).

One line per typed memory, under the subsection of its type:
``- [Name](memory/<type>_<topic>.md) — description`` with ``[STALE]`` when the staleness
check says so. Lines are updated in place (wherever a person or curation put them, Active
or Fading), new ones are appended, and lines of files merged away are removed. Free-text
entries are left alone. The file stays under its line budget by moving the oldest
low-value lines out (``outline.fit_budget``); the lines of memories written in this run
are never the ones moved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from .. import clock
from ..errors import ConflictError, WriteError
from ..files.freetext import neutralize_line
from ..files.store import Store
from .archive import append_archive, archive_block, archive_file, memory_file
from .entries import STALE_MARK, Entry
from .memory_md import ACTIVE, FADING, MAINTENANCE_LOG, MAX_LINES, ensure_tiers, scaffold_text
from .outline import Outline, fit_budget, line_count, lost_lines
from .typed import TypedMemory, list_memories

LINK_PREFIX = "memory/"


def _escape(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


def index_line(memory: TypedMemory, today: date, prefix: str = LINK_PREFIX) -> str:
    """One line of the index; the name and description are free text (a hand-edited
    frontmatter can hold several lines), so each is folded to one neutral line."""
    about = neutralize_line(memory.description or memory.name)
    stale = f" {STALE_MARK}" if memory.stale_reason(today) else ""
    name = neutralize_line(memory.name)
    return f"- [{_escape(name)}]({prefix}{memory.filename}) — {about}{stale}"


def section_of(kind: str) -> str:
    return kind.capitalize()


@dataclass
class IndexReport:
    memory_file: str
    created: bool = False
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    promoted: list[str] = field(default_factory=list)
    stale: list[tuple[str, str]] = field(default_factory=list)
    faded: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    lines: int = 0
    changed: bool = False
    problems: list[tuple[str, str]] = field(default_factory=list)
    #: Index lines whose file is gone (deleted by hand): kept, reported.
    dangling: list[str] = field(default_factory=list)
    #: Files whose index line curation moved to archive.md: not re-added until rewritten.
    left_archived: list[str] = field(default_factory=list)
    #: What a person should know (the line budget at work, or beyond reach).
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "memory_file": self.memory_file,
            "created": self.created,
            "added": self.added,
            "updated": self.updated,
            "removed": self.removed,
            "promoted": self.promoted,
            "stale": [{"file": f, "reason": r} for f, r in self.stale],
            "faded": self.faded,
            "archived": self.archived,
            "lines": self.lines,
            "changed": self.changed,
            "problems": [{"file": f, "error": e} for f, e in self.problems],
            "dangling": self.dangling,
            "left_archived": self.left_archived,
            "notes": self.notes,
        }


def update_index(
    store: Store,
    *,
    now: datetime | None = None,
    touched: Iterable[str] = (),
    removed: Iterable[str] = (),
    log: str | None = None,
    agent_name: str | None = None,
    max_lines: int = MAX_LINES,
) -> IndexReport:
    """Regenerate the index lines in MEMORY.md (created from the scaffold when missing).

    ``touched`` are file names written in this run (promoted to Active, never moved out);
    ``removed`` are file names merged away (their lines go); ``log`` is a line for the
    Maintenance Log. Archive first, then MEMORY.md, both verified.
    """
    moment = now or clock.now()
    day = moment.date()
    touched_set, removed_set = set(touched), set(removed)
    workspace = store.workspace
    path = memory_file(workspace)
    report = IndexReport(store.show(path))
    listing = list_memories(store)
    report.problems = listing.problems
    by_name = {m.filename: m for m in listing.memories}
    with store.lock(path):
        current = store.read_text(path)
        old = current[0] if current is not None else ""
        report.created = current is None
        base = scaffold_text(agent_name) if current is None else ensure_tiers(old)
        outline = Outline.parse(base)
        placed: dict[str, Entry] = {}
        allowed: list[str] = []
        for old_entry in [*outline.entries(ACTIVE), *outline.entries(FADING)]:
            link = old_entry.link()
            if link is None:
                continue
            if link in removed_set:
                outline.remove(old_entry)
                allowed.extend(old_entry.lines)
                report.removed.append(link)
            elif link in by_name and link not in placed:
                placed[link] = old_entry
            elif link not in by_name and not any(link == name for name, _ in listing.problems):
                report.dangling.append(link)
        archived_links: set[str] | None = None  # read archive.md only when needed
        for memory in listing.memories:
            line = index_line(memory, day)
            reason = memory.stale_reason(day)
            if reason:
                report.stale.append((memory.filename, reason))
            entry = placed.get(memory.filename)
            if entry is None and memory.filename not in touched_set:
                if archived_links is None:
                    archived_links = _archived_links(store)
                if memory.filename in archived_links:
                    report.left_archived.append(memory.filename)
                    continue
            if entry is None:
                section = section_of(memory.type)
                outline.add(Entry([line], ACTIVE, section), ACTIVE, section)
                report.added.append(memory.filename)
                continue
            if entry.lines[0].strip() != line:
                allowed.append(entry.lines[0])
                indent = entry.lines[0][: len(entry.lines[0]) - len(entry.lines[0].lstrip())]
                entry.lines[0] = indent + line
                report.updated.append(memory.filename)
            if entry.tier == FADING and memory.filename in touched_set:
                outline.move(entry, ACTIVE, section_of(memory.type))
                report.promoted.append(memory.filename)

        def dated(entry: Entry) -> date | None:
            link = entry.link()
            found = by_name.get(link) if link else None
            return found.updated if found is not None and found.updated else entry.own_date()

        stamp = clock.stamp(moment)
        if log:
            outline.add(Entry([f"- {stamp} {log}"], MAINTENANCE_LOG, ""), MAINTENANCE_LOG, "")
        faded, archived = fit_budget(
            outline, dated, max_lines, protect=lambda e: e.link() in touched_set
        )
        report.faded = [m.text for m in faded]
        report.archived = [m.text for m in archived]
        new = outline.render()
        report.notes = budget_notes(line_count(new), max_lines, len(faded), len(archived))
        block = archive_block(stamp, "index budget", outline.archive_groups())
        block = block if outline.archived else ""
        lost = lost_lines(old, new, block, outline, allowed)
        if lost:
            raise ConflictError(
                f"updating the index would lose {len(lost)} line(s) of MEMORY.md "
                f"(first: {lost[0]!r}); nothing was written"
            )
        report.lines = line_count(new)
        report.changed = new != old
        if not report.changed:
            return report
        if block:
            append_archive(store, block)
        skipped = set(report.left_archived)
        expected = [index_line(by_name[n], day) for n in by_name if n not in skipped]

        def change(latest: str | None) -> str:
            if (latest or "") != old:
                raise ConflictError("MEMORY.md changed while the index was updated")
            return new

        def verify(text: str) -> None:
            absent = [line for line in expected if line not in text]
            if absent and not all(_archived(line, block) for line in absent):
                raise WriteError(f"MEMORY.md re-read lacks {len(absent)} index line(s)")

        store.update(path, change, verify=verify)
    return report


def budget_notes(lines: int, max_lines: int, faded: int, archived: int) -> list[str]:
    """What the line budget did, in words, for the wrap-up table and ``maintain``."""
    notes = []
    if faded or archived:
        notes.append(
            f"MEMORY.md kept under {max_lines} lines: {faded} older entries faded, "
            f"{archived} moved to memory/archive.md (nothing deleted)"
        )
    if lines > max_lines:
        notes.append(
            f"MEMORY.md has {lines} lines, over {max_lines}: what is left is undated or "
            "pinned; curate it by hand"
        )
    return notes


_ARCHIVED_LINK = re.compile(r"\]\((?:memory/)?(?P<name>[^)\s/]+\.md)\)")


def _archived_links(store: Store) -> set[str]:
    """Typed files whose index line sits in archive.md (moved there by curation)."""
    current = store.read_text(archive_file(store.workspace))
    if current is None:
        return set()
    return {m.group("name") for m in _ARCHIVED_LINK.finditer(current[0])}


def _archived(line: str, block: str) -> bool:
    return line in block
