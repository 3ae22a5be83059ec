"""What a hit is called, and the words its kind adds to it.

A chunk's heading alone says little once it is out of its file: nine hits titled "Errors
and Corrections" from nine sessions read the same. A hit's title (its ``label``) says what
the entry is and where it came from: the heading with the headings above it inside the
file ("Decisions · Session 8 · 17:30 · codex-main-agent"), and for a session's own files
what the session was about ("Errors and Corrections · mise run lint is showing errors…"),
for a relay snapshot which handoff it was ("✅ Completed This Session · handoff
2026-03-02 12:00").
The heading itself is kept apart for ranking (``ranking.title_match``).

An entry's kind is part of what it is, and a question often names only that: "what does
the user prefer" is answered by the user's typed memory whether or not its text says
"user". So a typed memory's type, and a pending note's kind, count as words of the entry
(in its context column, which weighs less than its text).
"""

from __future__ import annotations

import re

from . import kinds
from .chunker import Chunk

#: The longest topic a label quotes.
TOPIC_CHARS = 60
#: Typed memory types and the words each adds to its entries.
TYPE_WORDS = {
    "user": "user preference",
    "feedback": "feedback preference",
    "project": "project",
    "reference": "reference",
}


def kind_words(file: kinds.MemoryFile) -> str:
    """Words every chunk of ``file`` carries for its kind (see the module docstring)."""
    if file.kind == kinds.TYPED:
        kind = file.rel.rsplit("/", 1)[-1].split("_", 1)[0]
        return f"{TYPE_WORDS.get(kind, kind)} memory"
    if file.kind == kinds.MEMORY:
        return "memory"
    return ""


def _short(text: str) -> str:
    from ..files.freetext import shorten

    return shorten(text, TOPIC_CHARS, fold=True)


_RELAY_STAMP = re.compile(r"(\d{4}-\d{2}-\d{2})-(\d{2})(\d{2})\d{2}\.md$")


def label(file: kinds.MemoryFile, chunk: Chunk) -> str:
    """The title a hit of ``chunk`` is shown under (see the module docstring)."""
    title = chunk.title
    headings = chunk.headings
    if headings and title == headings[-1]:
        # the headings between the file's title and this one: "Decisions · Session 8 …"
        title = " · ".join([title, *reversed(headings[1:-1])])
    if chunk.group:  # "- Decisions:" over this item: "Decisions · Session Relay Auto-Save"
        title = f"{chunk.group} · {title}" if title else chunk.group
    if file.kind == kinds.RELAY:
        stamp = _RELAY_STAMP.search(file.rel)
        when = f"{stamp.group(1)} {stamp.group(2)}:{stamp.group(3)}" if stamp else "latest"
        return f"{title} · handoff {when}"
    if file.kind in (kinds.SNAPSHOT, kinds.NOTES, kinds.ARCHIVE) and chunk.session_id:
        topic = chunk.about.split(" · ")[0] if chunk.about else ""
        if topic and _short(topic) not in title:
            return f"{title} · {_short(topic)}"
        if chunk.session_id not in title:
            return f"{title} · session {chunk.session_id}"
    return title or file.rel
