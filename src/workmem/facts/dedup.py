"""Deduplication of typed memories (seed 000, 5c): merge into the more specific file.

Two files of the same type overlap by what they say, not by what they are called: their
content words (case, plurals and punctuation aside) are mostly the same (``apis`` and
``api_docs`` holding the same facts in slightly different words), or one topic's words are
a subset of the other's and most of the smaller file's words are in the larger one. The
more specific file (more topic words, then more content) receives the lines it lacks under
``## Merged from <file>``; a line whose every word is already in one of its lines adds
nothing and is not repeated. Only after the specific file is re-read and covers every line
of the generic one is the generic file deleted. The MEMORY.md index is updated by the caller.
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
#: Word overlap (Jaccard) that makes two files duplicates whatever their topics.
SAME_CONTENT = 0.6
#: Share of the smaller file's words found in the other, on top of a topic subset.
RELATED_CONTENT = 0.5
#: Fewer content words than this and a file is too short to call a duplicate by words.
MIN_WORDS = 4


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


def _word(word: str) -> str:
    """A word without its plural ``s`` ("apis" and "api" meet); short words as they are."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words_of(text: str) -> set[str]:
    return {_word(w) for w in _WORDS.findall(text.casefold()) if len(w) > 1 or w.isdigit()}


def _content_words(memory: TypedMemory) -> set[str]:
    found: set[str] = set()
    for line in memory.body.split("\n"):
        key = _line_key(line)
        if key:
            found |= words_of(key)
    return found


def _numbered(words: set[str]) -> set[str]:
    return {w for w in words if any(c.isdigit() for c in w)}


def _weight(words: set[str], numbered: set[str]) -> int:
    """Words with digits (versions, ports, counts, dates) say which fact it is: they weigh
    three times as much, so "fact 10 about 70" and "fact 70 about 490" stay apart."""
    return len(words) + 2 * len(words & numbered)


def _topic_words(memory: TypedMemory) -> set[str]:
    return words_of(memory.topic.replace("-", " "))


def _covered(line: str, have: list[set[str]]) -> bool:
    """Every word of ``line`` is in one line of the other file: it adds nothing."""
    wanted = words_of(line)
    return bool(wanted) and any(wanted <= other for other in have)


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
    content = {m.filename: _content_words(m) for m in memories}
    words = {m.filename: _topic_words(m) for m in memories}
    numbered = _numbered(set().union(*content.values())) if content else set()
    weight = {name: _weight(found, numbered) for name, found in content.items()}
    for i, a in enumerate(memories):
        ca, wa = content[a.filename], words[a.filename]
        for b in memories[i + 1 :]:
            if a.type != b.type or a.filename in used or b.filename in used:
                continue
            cb, wb = content[b.filename], words[b.filename]
            if min(len(ca), len(cb)) < MIN_WORDS or not ca & cb:
                continue
            subset = bool(wa and wb) and (wa <= wb or wb <= wa)
            shared = _weight(ca & cb, numbered)
            score = shared / (weight[a.filename] + weight[b.filename] - shared)
            smaller = min(weight[a.filename], weight[b.filename])
            if score >= SAME_CONTENT or (subset and shared / smaller >= RELATED_CONTENT):
                specific, generic = _specific_first(a, b)
                found.append(Overlap(generic, specific, score))
                used.update((a.filename, b.filename))
                break
    return found


def merged_body(specific: TypedMemory, generic: TypedMemory, today: date) -> str | None:
    """The specific file's body with the generic file's missing lines appended."""
    have = _lines(specific)
    have_words = [words_of(key) for key in have]
    missing: list[str] = []
    for line in generic.body.split("\n"):
        key = _line_key(line)
        if key and key not in have and not _covered(key, have_words):
            missing.append(line)
            have.add(key)
            have_words.append(words_of(key))
    if not missing:
        return None
    header = f"## Merged from {generic.filename} ({today.isoformat()})"
    about = f"> {generic.description}" if generic.description else ""
    block = [header, "", *([about, ""] if about else []), *missing]
    return specific.body.rstrip("\n") + "\n\n" + "\n".join(block) + "\n"


def covers(memory: TypedMemory, other: TypedMemory) -> bool:
    """Every line of ``other`` is in ``memory``, as it is or with all of its words."""
    have = _lines(memory)
    have_words = [words_of(key) for key in have]
    return all(key in have or _covered(key, have_words) for key in _lines(other))


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
            if not covers(parse_memory(specific.path, text, shown), latest_generic):
                raise WriteError(f"{shown} lacks lines of {generic.filename} after merging")

        store.update(specific.path, change, verify=verify)
        reread = read_memory(store, specific.path)
        if reread is None or not covers(reread, latest_generic):
            raise WriteError(f"merge into {shown} did not verify; {generic.filename} was kept")
        generic.path.unlink()
        if generic.path.exists():
            raise WriteError(f"could not delete {store.show(generic.path)} after merging")
