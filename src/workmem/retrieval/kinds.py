"""Which memory files the search index covers, and what kind each one is.

The kind comes from the path alone (DESIGN.md "The memory root"), so a walk over the
folders is enough to know what changed without opening any file. Files that are derived
(``log-index.md``), mirrors (``memory/daily/``) or runtime state (``.workmem/``) are left
out on purpose: indexing them would only return the same text twice. Of ``state.json``
only the notes of sessions still open are read (``pending``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..root import Workspace

BOARD = "board"
SNAPSHOT = "snapshot"
NOTES = "notes"
DAILY = "daily"
TYPED = "typed"
MEMORY = "memory"
THREAD = "thread"
EVENT = "event"
ARCHIVE = "archive"
RELAY = "relay"
RESUMPTION = "resumption"
#: An agent's own transcript (optional, see ``transcript_source``); not a memory file.
TRANSCRIPT = "transcript"
#: Notes of a session not ended yet, kept in ``state.json`` until ``end`` (``pending``).
PENDING = "pending"

KINDS: tuple[str, ...] = (
    BOARD,
    SNAPSHOT,
    NOTES,
    DAILY,
    TYPED,
    MEMORY,
    THREAD,
    EVENT,
    ARCHIVE,
    RELAY,
    RESUMPTION,
    TRANSCRIPT,
    PENDING,
)

#: Kinds whose files open with a header their writer fills in (the relay snapshot's time,
#: model and context use): metadata, not memory, so not a search hit.
PREAMBLE_KINDS = frozenset({RELAY})

#: Kinds whose entries lose value with age; curated and typed memory do not.
TIMELY_KINDS = frozenset(
    {BOARD, SNAPSHOT, NOTES, DAILY, EVENT, RELAY, ARCHIVE, TRANSCRIPT, PENDING}
)

TYPED_TYPES = ("project", "feedback", "user", "reference")
_DAILY = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
_TYPED = re.compile(r"^(?:" + "|".join(TYPED_TYPES) + r")_[^/]+\.md$")
_SESSION_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})-")
_SUBFOLDERS = ("sessions", "archive", "relay-archive")


@dataclass(frozen=True)
class MemoryFile:
    """One indexed file: what it is and what its path already tells.

    Paths are kept as strings: the walk runs before every query, and building ``Path``
    objects for a thousand files cost more than the ``stat`` calls themselves (profiled).
    """

    rel: str
    kind: str
    date: str | None = None
    session_id: str | None = None
    location: str = ""

    @property
    def path(self) -> Path:
        return Path(self.location or self.rel)


def session_date(session_id: str) -> str | None:
    """Session IDs start with their start date (``2026-05-25-1318-agent``)."""
    match = _SESSION_DATE.match(session_id)
    return match.group(1) if match else None


@lru_cache(maxsize=65536)
def classify(rel: str) -> MemoryFile | None:
    """The kind of the file at ``rel`` (relative to the root, ``/``-separated), or None."""
    parts = rel.split("/")
    name = parts[-1]
    if name.startswith(".") or any(p.startswith(".") for p in parts[:-1]):
        return None
    if rel == "MEMORY.md":
        return MemoryFile(rel, MEMORY)
    if parts[0] != "memory" or len(parts) < 2:
        return None
    inner = parts[1:]
    if len(inner) == 1:
        return _classify_top(rel, name)
    if inner[0] == "sessions" and len(inner) == 2 and name.endswith(".md"):
        if name.endswith(".notes.md"):
            sid = name[: -len(".notes.md")]
            return MemoryFile(rel, NOTES, session_date(sid), sid)
        sid = name[: -len(".md")]
        return MemoryFile(rel, SNAPSHOT, session_date(sid), sid)
    if inner[0] == "archive" and name.endswith(".md"):
        archived = inner[1] if len(inner) >= 3 else None
        day = session_date(archived) if archived else None
        return MemoryFile(rel, ARCHIVE, day, archived)
    if inner[0] == "relay-archive" and len(inner) == 2 and name.endswith(".md"):
        return MemoryFile(rel, RELAY, _leading_date(name))
    return None


def _leading_date(name: str) -> str | None:
    match = re.match(r"^(\d{4}-\d{2}-\d{2})", name)
    return match.group(1) if match else None


def _classify_top(rel: str, name: str) -> MemoryFile | None:
    fixed = {
        "index.md": BOARD,
        "threads.md": THREAD,
        "events.json": EVENT,
        "archive.md": ARCHIVE,
        "relay-snapshot.md": RELAY,
        "resumption.md": RESUMPTION,
        "state.json": PENDING,
    }
    if name in fixed:
        return MemoryFile(rel, fixed[name])
    daily = _DAILY.match(name)
    if daily:
        return MemoryFile(rel, DAILY, daily.group(1))
    if _TYPED.match(name):
        return MemoryFile(rel, TYPED)
    return None


@dataclass(frozen=True)
class FileStat:
    file: MemoryFile
    mtime_ns: int
    size: int


#: What one file's ``stat`` says that matters to the index: (where it is, mtime_ns, size).
Stamp = tuple[str, int, int]


def walk(workspace: Workspace) -> Iterator[FileStat]:
    """Every indexable file with its stat, cheaply: ``scandir``, no file is opened.

    Symlinked folders are not followed and symlinked files that point outside the root
    are skipped, so a link cannot pull foreign files into search results.
    """
    for rel, (location, mtime_ns, size) in stamps(workspace).items():
        found = classify(rel)
        if found is not None:
            yield FileStat(
                MemoryFile(rel, found.kind, found.date, found.session_id, location),
                mtime_ns,
                size,
            )


def stamps(workspace: Workspace) -> dict[str, Stamp]:
    """The same files as ``walk``, by relative path, without an object per file.

    Every query asks whether anything changed; at a year of memory (a thousand files)
    building two objects per file cost twice the ``stat`` calls themselves, so the
    question is answered from these tuples and the objects are made only when it is yes.
    """
    root = workspace.root
    found: dict[str, Stamp] = {}
    _scan(root, root, "", found, recurse=False, only=("MEMORY.md",))
    memory = workspace.memory_dir
    if memory.is_dir() and not memory.is_symlink():
        _scan(root, memory, "memory/", found, recurse=True, only=None)
    return found


def _scan(
    root: Path,
    folder: Path | str,
    prefix: str,
    found: dict[str, Stamp],
    *,
    recurse: bool,
    only: tuple[str, ...] | None,
) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if name.startswith(".") or (only is not None and name not in only):
            continue
        rel = prefix + name
        try:
            if entry.is_dir(follow_symlinks=False):
                if recurse and (prefix != "memory/" or name in _SUBFOLDERS):
                    _scan(root, entry.path, rel + "/", found, recurse=True, only=None)
                continue
            if classify(rel) is None:
                continue
            if entry.is_symlink() and not _inside(root, Path(entry.path)):
                continue
            if not entry.is_file():
                continue
            st = entry.stat()
        except OSError:
            continue
        found[rel] = (entry.path, st.st_mtime_ns, st.st_size)


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True
