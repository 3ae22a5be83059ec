"""Lexical candidates: FTS5 BM25 with a bounded cost per query.

FTS5 scores every row that matches and only then sorts, so a query's cost grows with the
number of matches, not with ``k``: on a year of busy notes (200,000 chunks) a query whose
words are all common scores 100,000+ rows and takes 100 ms or more. Three steps keep the
scored set small without changing what a selective query finds:

* A dynamic stoplist: a term in more than ``COMMON_SHARE`` of the chunks adds almost
  nothing to BM25 (FTS5 gives terms in over half the chunks an IDF of about 0), so it is
  dropped; the rarest term is always kept.
* When the kept terms still match more than ``MATCH_BUDGET`` rows, the chunks holding one
  of the rarest terms (those whose matches fit in half the budget; they carry the query's
  meaning) are scored over the whole index, and the full query only over the most recently
  indexed chunks
  (highest rowids: a full rebuild indexes daily logs in date order and a refresh gives
  changed files new rowids), sized so that about the rest of the budget matches there.
  Chunks that only hold common words and lie outside that window are not candidates;
  among such chunks BM25 can hardly tell one from another anyway. Every candidate still
  gets its exact score under the whole query: BM25 sums one non-negative share per query
  term a chunk holds, so ``rare AND common`` scores the chunks that hold both exactly and
  ``rare`` alone those that hold no common term; a chunk's best score of the two is exact.
* Below ``COMMON_MIN_CHUNKS`` chunks nothing of this applies: every query is fast.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from . import analyze
from .database import chunk_count

#: A term in more than this share of chunks is dropped from the query (see above).
COMMON_SHARE = 0.25
#: Below this many chunks every query is fast; the query is used whole.
COMMON_MIN_CHUNKS = 5000
#: About the most rows FTS5 should score for one query (~15 ms on the scale benchmark).
MATCH_BUDGET = 20_000


@dataclass(frozen=True)
class Plan:
    """What to score: ``full`` after rowid ``after`` (None: everywhere), ``rare`` everywhere."""

    full: str
    rare: tuple[str, ...] = ()
    after: int | None = None


def plan(con: sqlite3.Connection, query: str) -> Plan | None:
    """The FTS5 queries for ``query``; None when it holds nothing searchable."""
    atoms = analyze.query_terms(query)
    if not atoms:
        return None
    total = chunk_count(con)
    if total < COMMON_MIN_CHUNKS:
        return Plan(" OR ".join(atoms))
    counts = {atom: _matches(con, atom) for atom in atoms}
    kept = [a for a in atoms if counts[a] <= COMMON_SHARE * total]
    kept = sorted(kept or [min(atoms, key=lambda a: counts[a])], key=lambda a: counts[a])
    full = " OR ".join(kept)
    estimate = sum(counts[a] for a in kept)
    if estimate <= MATCH_BUDGET:
        return Plan(full)
    rare: list[str] = []
    rare_matches = 0
    for atom in kept:
        if rare_matches + counts[atom] > MATCH_BUDGET // 2:
            break
        rare.append(atom)
        rare_matches += counts[atom]
    first = con.execute("SELECT min(id) FROM chunks").fetchone()[0] or 0
    last = con.execute("SELECT max(id) FROM chunks").fetchone()[0] or 0
    window = max(1, (last - first + 1) * (MATCH_BUDGET - rare_matches) // estimate)
    if not rare:
        return Plan(full, (), last - window)
    rare_query = " OR ".join(rare)
    common_query = " OR ".join(kept[len(rare) :])
    return Plan(full, (rare_query, f"({rare_query}) AND ({common_query})"), last - window)


def _matches(con: sqlite3.Connection, atom: str) -> int:
    """Rows matching one atom: reading a doclist without scoring it is cheap."""
    row = con.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (atom,))
    return int(row.fetchone()[0])


def candidates(
    con: sqlite3.Connection,
    query: str,
    columns: tuple[float, float],
    where: str,
    params: list[object],
    limit: int,
) -> dict[int, float]:
    """Up to about ``3 * limit`` chunk ids with their BM25 score (higher is better).

    ``where`` filters on ``chunks c`` (see ``search._where``). A window that holds fewer
    than ``limit`` matching chunks (a narrow filter, say) is widened until it holds enough
    or covers the whole index, so a bound never hides the only matches there are.
    """
    chosen = plan(con, query)
    if chosen is None:
        return {}
    found: dict[int, float] = {}
    for match in chosen.rare:
        for chunk, score in _scored(con, match, columns, where, params, limit, None).items():
            found[chunk] = max(score, found.get(chunk, 0.0))
    after = chosen.after
    while True:
        scored = _scored(con, chosen.full, columns, where, params, limit, after)
        if after is None or len(scored) >= limit:
            break
        first = con.execute("SELECT min(id) FROM chunks").fetchone()[0] or 0
        if after < first:
            break
        last = con.execute("SELECT max(id) FROM chunks").fetchone()[0] or 0
        after = last - 4 * (last - after)
    for chunk, score in scored.items():
        found[chunk] = max(score, found.get(chunk, 0.0))
    return found


def _scored(
    con: sqlite3.Connection,
    match: str,
    columns: tuple[float, float],
    where: str,
    params: list[object],
    limit: int,
    after: int | None,
) -> dict[int, float]:
    bound, bound_params = ("", []) if after is None else (" AND f.rowid > ?", [after])
    if where:
        sql = (
            "SELECT f.rowid, -bm25(chunks_fts, ?, ?) AS s FROM chunks_fts f"
            f" JOIN chunks c ON c.id = f.rowid WHERE chunks_fts MATCH ?{bound}{where}"
            " ORDER BY s DESC LIMIT ?"
        )
    else:  # no filter: FTS alone, no join per matching row
        sql = (
            "SELECT f.rowid, -bm25(chunks_fts, ?, ?) AS s FROM chunks_fts f"
            f" WHERE chunks_fts MATCH ?{bound} ORDER BY s DESC LIMIT ?"
        )
    rows = con.execute(sql, [*columns, match, *bound_params, *params, limit])
    return {chunk: max(0.0, score) for chunk, score in rows}
