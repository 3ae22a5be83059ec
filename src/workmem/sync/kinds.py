"""Which memory file is which kind, for git attributes and for cloud conflict copies.

The kind comes from the path alone, relative to the memory root (DESIGN.md "The memory
root"). ``memory/.workmem/`` is derived and local and is never a kind: it is not committed.
"""

from __future__ import annotations

import re

BOARD = "board"
LOG_INDEX = "log-index"
EVENTS = "events"
STATE = "state"
THREADS = "threads"
MEMORY = "memory"
RESUMPTION = "resumption"
SECTIONS = "sections"
LOG = "log"
TYPED = "typed"
TEXT = "text"

#: Each kind's one-line description, in the order its attributes are written.
DESCRIPTIONS: dict[str, str] = {
    TEXT: "any other memory note, line by line",
    LOG: "daily logs and the archive, by entry in time order",
    SECTIONS: "session snapshots (archived too) and notes, by section and item",
    TYPED: "typed memories, frontmatter by key and body by section",
    BOARD: "the session board, by row and field",
    LOG_INDEX: "the daily-log index, by date",
    EVENTS: "the event ledger, by event",
    STATE: "state.json, by key",
    THREADS: "threads, by thread and part",
    MEMORY: "MEMORY.md, by tier and entry",
    RESUMPTION: "the resumption note, newest first, the other kept",
}

#: git attribute patterns per kind (relative to the memory root); later lines win in git.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("memory/**/*.md", TEXT),
    ("memory/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].md", LOG),
    ("memory/archive.md", LOG),
    ("memory/sessions/*.md", SECTIONS),
    ("memory/archive/*/session.md", SECTIONS),
    ("memory/relay-snapshot.md", SECTIONS),
    ("memory/project_*.md", TYPED),
    ("memory/feedback_*.md", TYPED),
    ("memory/user_*.md", TYPED),
    ("memory/reference_*.md", TYPED),
    ("memory/index.md", BOARD),
    ("memory/log-index.md", LOG_INDEX),
    ("memory/events.json", EVENTS),
    ("memory/state.json", STATE),
    ("memory/threads.md", THREADS),
    ("memory/resumption.md", RESUMPTION),
    ("MEMORY.md", MEMORY),
)

_FIXED = {
    "memory/index.md": BOARD,
    "memory/log-index.md": LOG_INDEX,
    "memory/events.json": EVENTS,
    "memory/state.json": STATE,
    "memory/threads.md": THREADS,
    "MEMORY.md": MEMORY,
    "memory/resumption.md": RESUMPTION,
    "memory/archive.md": LOG,
    "memory/relay-snapshot.md": SECTIONS,
}
_DAILY = re.compile(r"^memory/\d{4}-\d{2}-\d{2}\.md$")
_SESSION = re.compile(r"^memory/(?:sessions/[^/]+|archive/[^/]+/session)\.md$")
_TYPED = re.compile(r"^memory/(?:project|feedback|user|reference)_[^/]+\.md$")
LOCAL_STATE = "memory/.workmem/"


def kind_of(rel: str) -> str | None:
    """The kind of the file at ``rel`` (posix, relative to the memory root), or None."""
    if rel.startswith(LOCAL_STATE) or "/../" in f"/{rel}/":
        return None
    fixed = _FIXED.get(rel)
    if fixed is not None:
        return fixed
    if _DAILY.match(rel):
        return LOG
    if _SESSION.match(rel):
        return SECTIONS
    if _TYPED.match(rel):
        return TYPED
    if rel.startswith("memory/") and rel.endswith(".md"):
        return TEXT
    return None


def is_memory_path(rel: str) -> bool:
    """A file that belongs to the shared memory (committed, merged, synced)."""
    return kind_of(rel) is not None or (
        rel.startswith("memory/") and not rel.startswith(LOCAL_STATE)
    )
