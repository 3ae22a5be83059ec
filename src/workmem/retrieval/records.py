"""What the index stores for each chunk: its row, its two FTS columns, its embedding text.

A chunk alone is often too short to be found: "Yes, on Tuesday!" means nothing without the
entry before it. So for kinds written as a running log (daily logs, snapshots, notes,
relay), the context column and the embedding text carry the neighbouring entries too,
while the chunk's own words stay in their own column and weigh more (measured on LoCoMo:
+0.2 recall@5 over plain BM25 for lexical, dense-only recall@5 0.11 -> 0.54 with the
speaker heading and neighbours).

Such a chunk is embedded twice: between its neighbours (the window) and alone. Its stored
vector is ``window + ALONE_WEIGHT * alone``, not normalised: cosine is linear, so one
stored vector scores the sum of both similarities, and a chunk that matches the query in
its own words as well as in its context ranks above one that only sits near a match.
Normalising the sum, or adding the neighbours' own vectors instead, lost what it gained
(dense-only recall@10 on the LoCoMo tune split: window 0.643, window + 0.3 alone 0.686,
normalised 0.639; on the holdout 0.569 -> 0.623).
"""

from __future__ import annotations

import calendar
import contextlib
import hashlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from . import kinds
from .analyze import index_terms
from .chunker import Chunk

#: Kinds whose neighbours (entries just before and after) help find a chunk.
NEIGHBOUR_KINDS = frozenset(
    {
        kinds.DAILY,
        kinds.SNAPSHOT,
        kinds.NOTES,
        kinds.ARCHIVE,
        kinds.RELAY,
        kinds.RESUMPTION,
        kinds.TRANSCRIPT,
    }
)
NEIGHBOUR_CHARS = 300
#: Entries on each side whose words go into the lexical context (the embedding takes one
#: on each side). Chosen on the LoCoMo tune split: 2 beat 1, 3 and 4 for BM25, and a
#: wider embedding window lost dense recall.
LEXICAL_NEIGHBOURS = 2
EMBED_CHARS = 2000
#: Weight of the chunk's own vector in its stored vector (chosen on the LoCoMo tune split
#: from 0.3, 0.5, 0.7). A chunk without neighbours stores ``(1 + ALONE_WEIGHT) * vector``.
ALONE_WEIGHT = 0.3
#: Names how stored vectors are made; vectors made another way are not mixed with them.
VECTOR_RECIPE = "window+0.3alone"

Row = tuple[object, ...]


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def _titled(title: str, text: str, limit: int | None = None) -> str:
    body = text if limit is None else text[:limit]
    return f"{title}: {body}" if title and title not in text else body


@dataclass(frozen=True)
class EmbedViews:
    """What the dense model reads of one chunk: its window, and itself alone if different."""

    window: str
    alone: str | None = None

    @property
    def hash(self) -> str:
        return text_hash(f"{self.window}\0{self.alone or ''}")


def embed_views(
    title: str,
    text: str,
    before: tuple[str, str] | None = None,
    after: tuple[str, str] | None = None,
) -> EmbedViews:
    """The chunk under its title, between its neighbours; and alone when it has any."""
    own = _titled(title, text)
    parts = []
    if before is not None:
        parts.append(_titled(before[0], before[1], NEIGHBOUR_CHARS))
    parts.append(own)
    if after is not None:
        parts.append(_titled(after[0], after[1], NEIGHBOUR_CHARS))
    window = "\n".join(parts)[:EMBED_CHARS]
    alone = own[:EMBED_CHARS]
    return EmbedViews(window, None if alone == window else alone)


def date_words(day: str | None) -> str:
    """``2023-05-08`` also as "May 2023", so a query naming the month finds it lexically."""
    if not day:
        return ""
    try:
        month = calendar.month_name[int(day[5:7])]
    except (ValueError, IndexError):
        return day
    return f"{day} {month} {day[:4]}"


def chunk_records(
    file: kinds.MemoryFile, chunks: list[Chunk]
) -> Iterator[tuple[Row, str, str, str]]:
    """For each chunk: its ``chunks`` row (without id), FTS body, context and section.

    A list item or table row is an entry of its own: its neighbours are other entries
    (the next file of a list, the next decision), so it is searched and embedded without
    them; prose (a daily-log entry, a chat turn) keeps them.

    The context holds, besides the headings and the date, what the file is about (a
    session's topic). The section column holds the words of the section families the
    entry is filed under and of its kind (``vocabulary``, ``labels.kind_words``), in every
    language: "哪些檔案" reaches an English "Files" section, "what does the user prefer"
    a user memory whose text is all in Chinese.
    """
    from .labels import kind_words, label
    from .tokens import count_tokens
    from .vocabulary import heading_words

    seen: dict[str, int] = {}
    neighbours = file.kind in NEIGHBOUR_KINDS
    own_words = kind_words(file)
    for seq, chunk in enumerate(chunks):
        base = text_hash(f"{file.rel}\0{chunk.text}")[:12]
        seen[base] = seen.get(base, 0) + 1
        cid = base if seen[base] == 1 else f"{base}-{seen[base]}"
        context = [*chunk.headings, chunk.title, date_words(chunk.date), chunk.about]
        section = index_terms(f"{heading_words(chunk.headings)} {own_words}")
        before = after = None
        if neighbours and not chunk.item:
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
            label(file, chunk),
            chunk.text,
            count_tokens(chunk.text),
            embed_views(chunk.title, chunk.text, before, after).hash,
            int(chunk.item),
        )
        yield row, index_terms(chunk.text), index_terms(" ".join(c for c in context if c)), section


def stored_embed_views(con: sqlite3.Connection, ids: list[int]) -> dict[int, EmbedViews]:
    """Rebuild the embedding texts of stored chunks (with neighbours where their kind has them)."""
    out: dict[int, EmbedViews] = {}
    for chunk_id in ids:
        row = con.execute(
            "SELECT path, kind, seq, title, text, item FROM chunks WHERE id = ?", (chunk_id,)
        ).fetchone()
        if row is None:
            continue
        path, kind, seq, title, text, item = row
        before = after = None
        if kind in NEIGHBOUR_KINDS and not item:
            near = {
                s: (t, x)
                for s, t, x in con.execute(
                    "SELECT seq, title, text FROM chunks WHERE path = ? AND seq IN (?, ?)",
                    (path, seq - 1, seq + 1),
                )
            }
            before, after = near.get(seq - 1), near.get(seq + 1)
        out[chunk_id] = embed_views(title, text, before, after)
    return out


def store_chunks(
    con: sqlite3.Connection,
    file: kinds.MemoryFile,
    chunks: list[Chunk],
    kept: dict[str, list[tuple[str, bytes]]],
) -> int:
    """Insert a file's chunks (redacted first) with their FTS columns; a vector in ``kept``
    whose embedding text is unchanged goes back to its chunk. Returns the chunks stored."""
    stored = 0
    for row, body, ctx, sec in chunk_records(file, _redacted(chunks)):
        cursor = con.execute(
            "INSERT INTO chunks(cid, path, kind, seq, line_start, line_end, date, session_id,"
            " title, label, text, tokens, ehash, item) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            row,
        )
        rowid = cursor.lastrowid
        con.execute(
            "INSERT INTO chunks_fts(rowid, body, ctx, sec) VALUES (?,?,?,?)",
            (rowid, body, ctx, sec),
        )
        ehash = str(row[-2])
        for model, vec in kept.get(ehash, []):
            con.execute(
                "INSERT OR REPLACE INTO vectors(chunk, model, ehash, vec) VALUES (?,?,?,?)",
                (rowid, model, ehash, vec),
            )
        stored += 1
    return stored


def _redacted(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks as the index may hold them: no secret enters it, whoever wrote the file."""
    from ..redact import redact

    for chunk in chunks:
        chunk.text = redact(chunk.text)[0]
        chunk.title = redact(chunk.title)[0]
        chunk.headings = [redact(heading)[0] for heading in chunk.headings]
    return chunks


def kept_vectors(con: sqlite3.Connection, rel: str) -> dict[str, list[tuple[str, bytes]]]:
    """Stored vectors of a file's chunks by embedding-text hash, to keep across re-chunking."""
    found: dict[str, list[tuple[str, bytes]]] = {}
    rows = con.execute(
        "SELECT v.ehash, v.model, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk"
        " WHERE c.path = ?",
        (rel,),
    ).fetchall()
    with contextlib.suppress(sqlite3.OperationalError):  # no old index attached
        rows += con.execute(
            "SELECT ehash, model, vec FROM carried WHERE path = ?", (rel,)
        ).fetchall()
    for ehash, model, vec in rows:
        found.setdefault(ehash, []).append((model, vec))
    return found
