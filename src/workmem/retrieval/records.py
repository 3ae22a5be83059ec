"""What the index stores for each chunk: its row, its two FTS columns, its embedding text.

A chunk alone is often too short to be found: "Yes, on Tuesday!" means nothing without the
entry before it. So for kinds written as a running log (daily logs, snapshots, notes,
relay), the context column and the embedding text carry the neighbouring entries too,
while the chunk's own words stay in their own column and weigh more (measured on LoCoMo:
+0.2 recall@5 over plain BM25 for lexical, dense-only recall@5 0.11 -> 0.54 with the
speaker heading and neighbours).
"""

from __future__ import annotations

import calendar
import hashlib
import sqlite3
from collections.abc import Iterator

from . import kinds
from .analyze import index_terms
from .chunker import Chunk

#: Kinds whose neighbours (entries just before and after) help find a chunk.
NEIGHBOUR_KINDS = frozenset(
    {kinds.DAILY, kinds.SNAPSHOT, kinds.NOTES, kinds.ARCHIVE, kinds.RELAY, kinds.RESUMPTION}
)
NEIGHBOUR_CHARS = 300
#: Entries on each side whose words go into the lexical context (the embedding takes one
#: on each side). Chosen on the LoCoMo tune split: 2 beat 1, 3 and 4 for BM25, and a
#: wider embedding window lost dense recall.
LEXICAL_NEIGHBOURS = 2
EMBED_CHARS = 2000

Row = tuple[object, ...]


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def _titled(title: str, text: str, limit: int | None = None) -> str:
    body = text if limit is None else text[:limit]
    return f"{title}: {body}" if title and title not in text else body


def embed_text(
    title: str,
    text: str,
    before: tuple[str, str] | None = None,
    after: tuple[str, str] | None = None,
) -> str:
    """What the dense model reads: the chunk under its title, between its neighbours."""
    parts = []
    if before is not None:
        parts.append(_titled(before[0], before[1], NEIGHBOUR_CHARS))
    parts.append(_titled(title, text))
    if after is not None:
        parts.append(_titled(after[0], after[1], NEIGHBOUR_CHARS))
    return "\n".join(parts)[:EMBED_CHARS]


def date_words(day: str | None) -> str:
    """``2023-05-08`` also as "May 2023", so a query naming the month finds it lexically."""
    if not day:
        return ""
    try:
        month = calendar.month_name[int(day[5:7])]
    except (ValueError, IndexError):
        return day
    return f"{day} {month} {day[:4]}"


def chunk_records(file: kinds.MemoryFile, chunks: list[Chunk]) -> Iterator[tuple[Row, str, str]]:
    """For each chunk: its ``chunks`` row (without id), FTS body and FTS context."""
    from .tokens import count_tokens

    seen: dict[str, int] = {}
    neighbours = file.kind in NEIGHBOUR_KINDS
    for seq, chunk in enumerate(chunks):
        base = text_hash(f"{file.rel}\0{chunk.text}")[:12]
        seen[base] = seen.get(base, 0) + 1
        cid = base if seen[base] == 1 else f"{base}-{seen[base]}"
        context = [*chunk.headings, chunk.title, date_words(chunk.date)]
        before = after = None
        if neighbours:
            if seq > 0:
                before = (chunks[seq - 1].title, chunks[seq - 1].text)
            if seq + 1 < len(chunks):
                after = (chunks[seq + 1].title, chunks[seq + 1].text)
            low = max(0, seq - LEXICAL_NEIGHBOURS)
            high = min(len(chunks), seq + LEXICAL_NEIGHBOURS + 1)
            context.extend(chunks[n].text[:NEIGHBOUR_CHARS] for n in range(low, high) if n != seq)
        row = (
            cid,
            file.rel,
            file.kind,
            seq,
            chunk.line_start,
            chunk.line_end,
            chunk.date,
            chunk.session_id,
            chunk.title,
            chunk.text,
            count_tokens(chunk.text),
            text_hash(embed_text(chunk.title, chunk.text, before, after)),
        )
        yield row, index_terms(chunk.text), index_terms(" ".join(c for c in context if c))


def stored_embed_texts(con: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
    """Rebuild the embedding texts of stored chunks (with neighbours where their kind has them)."""
    out: dict[int, str] = {}
    for chunk_id in ids:
        row = con.execute(
            "SELECT path, kind, seq, title, text FROM chunks WHERE id = ?", (chunk_id,)
        ).fetchone()
        if row is None:
            continue
        path, kind, seq, title, text = row
        before = after = None
        if kind in NEIGHBOUR_KINDS:
            near = {
                s: (t, x)
                for s, t, x in con.execute(
                    "SELECT seq, title, text FROM chunks WHERE path = ? AND seq IN (?, ?)",
                    (path, seq - 1, seq + 1),
                )
            }
            before, after = near.get(seq - 1), near.get(seq + 1)
        out[chunk_id] = embed_text(title, text, before, after)
    return out
