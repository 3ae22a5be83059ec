"""Deduplication of typed memories (seed 000, 5c): merge into the more specific file.

Two files of the same type overlap when one topic's words are a subset of the other's and
their contents share lines, or when most of their lines are the same whatever the topics.
The more specific file (more topic words, then more content) receives the lines it lacks
under ``## Merged from <file>``; only after that file is re-read and holds every line of
the generic one is the generic file deleted. The MEMORY.md index is updated by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from ..errors import WriteError
from ..files.store import Store
from .frontmatter import set_fields
from .typed import TypedMemory, parse_memory, read_memory

_SPACE = re.compile(r"\s+")
_WORDS = re.compile(r"[^\W_]+", re.UNICODE)
#: Line overlap (Jaccard) that makes two files duplicates whatever their topics.
SAME_CONTENT = 0.5
#: Line overlap needed on top of a topic subset.
RELATED_CONTENT = 0.2


@dataclass(frozen=True)
class Overlap:
    generic: TypedMemory
    specific: TypedMemory
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "generic": self.generic.filename,
            "specific": self.specific.filename,
            "overlap": round(self.score, 2),
        }


def _line_key(line: str) -> str | None:
    """A content line's identity (bullet, spacing and case aside); None for headings,
    notes and blank lines, which never make two files duplicates."""
    key = _SPACE.sub(" ", line.strip().lstrip("-*+ ")).casefold()
    return key if key and not key.startswith(("#", ">")) else None


def _lines(memory: TypedMemory) -> set[str]:
    return {key for line in memory.body.split("\n") if (key := _line_key(line))}


def _topic_words(memory: TypedMemory) -> set[str]:
    return set(_WORDS.findall(memory.topic.casefold()))


def _specific_first(a: TypedMemory, b: TypedMemory) -> tuple[TypedMemory, TypedMemory]:
    """(specific, generic): more topic words, then more content, then the later name."""

    def rank(m: TypedMemory) -> tuple[int, int, str]:
        return (len(_topic_words(m)), len(_lines(m)), m.filename)

    return (a, b) if rank(a) >= rank(b) else (b, a)


def find_overlaps(memories: list[TypedMemory]) -> list[Overlap]:
    """Pairs to merge; each file takes part in at most one merge per run.

    Line sets and topic words are computed once per file, and only files of the same type
    are compared, so a few hundred memories take milliseconds, not seconds.
    """
    found: list[Overlap] = []
    used: set[str] = set()
    lines = {m.filename: _lines(m) for m in memories}
    words = {m.filename: _topic_words(m) for m in memories}
    for i, a in enumerate(memories):
        la, wa = lines[a.filename], words[a.filename]
        for b in memories[i + 1 :]:
            if a.type != b.type or a.filename in used or b.filename in used:
                continue
            lb, wb = lines[b.filename], words[b.filename]
            subset = bool(wa and wb) and (wa <= wb or wb <= wa)
            if not la or not lb or (not subset and not la & lb):
                continue
            score = len(la & lb) / len(la | lb)
            if score >= SAME_CONTENT or (subset and score >= RELATED_CONTENT):
                specific, generic = _specific_first(a, b)
                found.append(Overlap(generic, specific, score))
                used.update((a.filename, b.filename))
                break
    return found


def merged_body(specific: TypedMemory, generic: TypedMemory, today: date) -> str | None:
    """The specific file's body with the generic file's missing lines appended."""
    have = _lines(specific)
    missing: list[str] = []
    for line in generic.body.split("\n"):
        key = _line_key(line)
        if key and key not in have:
            missing.append(line)
            have.add(key)
    if not missing:
        return None
    header = f"## Merged from {generic.filename} ({today.isoformat()})"
    about = f"> {generic.description}" if generic.description else ""
    block = [header, "", *([about, ""] if about else []), *missing]
    return specific.body.rstrip("\n") + "\n\n" + "\n".join(block) + "\n"


def merge_pair(store: Store, pair: Overlap, today: date) -> None:
    """Write the merge into the specific file, verify it, then delete the generic file."""
    specific, generic = pair.specific, pair.generic
    shown = store.show(specific.path)
    with store.lock(generic.path):
        latest_generic = read_memory(store, generic.path)
        if latest_generic is None:
            return

        def change(current: str | None) -> str:
            if current is None:
                raise WriteError(f"{shown} disappeared while merging")
            memory = parse_memory(specific.path, current, shown)
            body = merged_body(memory, latest_generic, today)
            if body is None:
                return current
            newest = max(d for d in (memory.updated, latest_generic.updated, today) if d)
            raw = memory.front.raw
            if memory.updated is None or newest > memory.updated:
                raw = set_fields(raw, {"updated": min(newest, today).isoformat()}, shown)
            return memory.front.render(raw=raw, body=body)

        def verify(text: str) -> None:
            memory = parse_memory(specific.path, text, shown)
            if not _lines(latest_generic) <= _lines(memory):
                raise WriteError(f"{shown} lacks lines of {generic.filename} after merging")

        store.update(specific.path, change, verify=verify)
        reread = read_memory(store, specific.path)
        if reread is None or not _lines(latest_generic) <= _lines(reread):
            raise WriteError(f"merge into {shown} did not verify; {generic.filename} was kept")
        generic.path.unlink()
        if generic.path.exists():
            raise WriteError(f"could not delete {store.show(generic.path)} after merging")
