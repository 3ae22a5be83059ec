"""Applying a session's thread updates to ``threads.md`` without losing anything.

The seed's ``thread_updates`` dict (``current_position``, ``new_open_questions``,
``closed_questions``) plus decisions and questions noted during the session are applied in
one locked read-modify-write. The check after writing is strict: every line the file had
is still there, except the positions that were replaced (they are returned, so the daily
log records what they were) and the questions that moved from Open to Closed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError, WriteError
from ..files.sections import item_key
from ..files.store import Store
from .threads import (
    DECISIONS,
    OPEN,
    ThreadsDoc,
    add_items,
    check_thread_id,
    close_questions,
    set_position,
    stored_item,
    stored_position,
    touch,
)

_KEYS = {
    "current_position",
    "new_open_questions",
    "closed_questions",
    "new_decisions",
    "title",
    "status",
}


@dataclass
class ThreadUpdate:
    current_position: str | None = None
    new_open_questions: list[str] = field(default_factory=list)
    closed_questions: list[str] = field(default_factory=list)
    new_decisions: list[str] = field(default_factory=list)
    title: str | None = None
    status: str | None = None

    @classmethod
    def from_mapping(cls, thread_id: str, data: Mapping[str, Any]) -> ThreadUpdate:
        unknown = set(data) - _KEYS
        if unknown:
            raise UsageError(
                f"thread update for {thread_id}: unknown key(s) {sorted(unknown)}; "
                f"use {sorted(_KEYS)}"
            )

        def texts(key: str) -> list[str]:
            value = data.get(key) or []
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise UsageError(f"thread update for {thread_id}: '{key}' must be a list of text")
            return [v for v in value if v.strip()]

        def one(key: str) -> str | None:
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise UsageError(f"thread update for {thread_id}: '{key}' must be text")
            return value

        return cls(
            current_position=one("current_position"),
            new_open_questions=texts("new_open_questions"),
            closed_questions=texts("closed_questions"),
            new_decisions=texts("new_decisions"),
            title=one("title"),
            status=one("status"),
        )


@dataclass
class ThreadChanges:
    touched: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    #: thread ID -> (old position, new position) for every replaced position
    positions: dict[str, tuple[str, str]] = field(default_factory=dict)
    closed: dict[str, list[str]] = field(default_factory=dict)
    added: dict[str, list[str]] = field(default_factory=dict)


def _set_status(doc_thread: Any, status: str) -> None:
    import re

    line = f"Status: {stored_item(status)}"
    for index, existing in enumerate(doc_thread.head):
        if re.match(r"^\s*\**\s*status\s*:", existing, re.IGNORECASE):
            if existing != line:
                doc_thread.head[index] = line
                doc_thread.changed = True
            return
    doc_thread.head.insert(1 if doc_thread.head and not doc_thread.head[0].strip() else 0, line)
    doc_thread.changed = True


def apply_updates(
    doc: ThreadsDoc,
    updates: Mapping[str, ThreadUpdate],
    touched: list[str],
    when: str,
    day: str,
) -> ThreadChanges:
    changes = ThreadChanges()
    # The daily log names each thread it touched ([ref: thread-…]); the thread names the
    # log back, on its Last touched line and on each decision the session added.
    log = f"memory/{day}.md"
    for thread_id in dict.fromkeys([*touched, *updates]):
        check_thread_id(thread_id)
        update = updates.get(thread_id, ThreadUpdate())
        existed = doc.get(thread_id) is not None
        thread = doc.ensure(thread_id, update.title)
        if not existed:
            changes.created.append(thread.id)
        if update.status:
            _set_status(thread, update.status)
        if update.current_position and update.current_position.strip():
            new = stored_position(update.current_position)
            old = set_position(thread, new)
            if " ".join(old.split()) != " ".join(new.split()):
                changes.positions[thread.id] = (old, new)
        added = add_items(thread, DECISIONS, update.new_decisions, ref=f"{log}#decisions")
        added += add_items(thread, OPEN, update.new_open_questions)
        closed = close_questions(thread, update.closed_questions, day)
        if added:
            changes.added[thread.id] = added
        if closed:
            changes.closed[thread.id] = closed
        touch(thread, when, ref=log)
        changes.touched.append(thread.id)
    return changes


def _lines(text: str) -> Counter[str]:
    return Counter(" ".join(line.split()) for line in text.split("\n") if line.strip())


def lost_lines(old_text: str, new_text: str, changes: ThreadChanges) -> list[str]:
    """Lines of the old file missing from the new one that no change accounts for."""
    missing = _lines(old_text) - _lines(new_text)
    allowed: set[str] = set()
    for old, _new in changes.positions.values():
        allowed |= {" ".join(line.split()) for line in old.split("\n")}
    moved = {item_key(q.rsplit(" (closed ", 1)[0]) for qs in changes.closed.values() for q in qs}
    lost = []
    for line in missing:
        bare = line[2:] if line[:2] in ("- ", "* ") else line
        if line in allowed or item_key(bare) in moved:
            continue
        if line.casefold().startswith(("last touched:", "status:")):
            continue  # header lines we rewrite on purpose
        if any(
            line.casefold().lstrip("-* ").startswith(p)
            for p in ("**current position", "current position", "position:")
        ):
            continue
        lost.append(line)
    return lost


def write_updates(
    store: Store,
    path: Path,
    updates: Mapping[str, ThreadUpdate],
    touched: list[str],
    when: str,
    day: str,
) -> ThreadChanges:
    """Apply the updates under the file's lock; refuse to write if anything would be lost."""
    result: list[ThreadChanges] = []
    if not updates and not touched:
        return ThreadChanges()

    def change(current: str | None) -> str:
        base = current if current is not None else "# Threads\n"
        doc = ThreadsDoc.parse(base)
        changes = apply_updates(doc, updates, touched, when, day)
        text = doc.render()
        lost = lost_lines(base, text, changes)
        if lost:
            raise WriteError(
                f"{store.show(path)}: updating threads would lose {len(lost)} line(s) "
                f"({lost[0][:60]!r}); nothing was written"
            )
        result[:] = [changes]
        return text

    def verify(text: str) -> None:
        doc = ThreadsDoc.parse(text)
        for thread_id, (_old, new) in result[0].positions.items():
            thread = doc.get(thread_id)
            if thread is None or " ".join(thread.position().split()) != " ".join(new.split()):
                raise WriteError(f"{store.show(path)}: {thread_id} position did not verify")
        for thread_id in result[0].touched:
            if doc.get(thread_id) is None:
                raise WriteError(f"{store.show(path)}: {thread_id} missing after writing")

    store.update(path, change, verify=verify)
    return result[0]
