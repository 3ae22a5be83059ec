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

When this finds too little (fewer than ``FEW`` chunks), the query is asked again, graded
down: each word the memory never uses (a typo, another form of a name: "postgresql" where
the notes say "Postgres", "dependancy") stands for the memory's own words that start like
it (``widen``), the longest start of five letters or more that an indexed word shares,
read from the index's term list. What this second pass finds ranks below what the first
found (``FALLBACK_SHARE`` of its score). A word the memory does use is never widened.
"""

from __future__ import annotations

import re
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


def plan(con: sqlite3.Connection, query: str, *, widened: bool = False) -> Plan | None:
    """The FTS5 queries for ``query``; None when it holds nothing searchable.

    ``widened``: the graded-down pass, unknown words standing for their nearest ones.
    """
    atoms = analyze.query_terms(query)
    if widened:
        atoms = widen(con, atoms)
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


#: Fewer candidates than this and the query is asked again, graded down (``widen``).
FEW = 10
#: What a chunk found only by the graded-down pass keeps of its score.
FALLBACK_SHARE = 0.5
#: The shortest start of a word that may stand for it (``widen``), and how many of the
#: memory's words one unknown word may become.
PREFIX_MIN = 5
PREFIX_WORDS = 4
_PLAIN_ATOM = re.compile(r'^"([a-z]{6,})"$')


def widen(con: sqlite3.Connection, atoms: list[str]) -> list[str]:
    """``atoms`` with each plain word the index does not hold replaced by the indexed
    words sharing its longest start (see the module docstring); others unchanged."""
    out: list[str] = []
    for atom in atoms:
        found = _PLAIN_ATOM.match(atom)
        if found is None or _matches(con, atom):
            out.append(atom)
            continue
        out.extend(analyze.quote(term) for term in _nearest_terms(con, found.group(1)))
    return list(dict.fromkeys(out))


def _nearest_terms(con: sqlite3.Connection, word: str) -> list[str]:
    con.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_terms"
        " USING fts5vocab(main, 'chunks_fts', 'row')"
    )
    for length in range(len(word) - 1, PREFIX_MIN - 1, -1):
        start = word[:length]
        rows = con.execute(
            "SELECT term FROM temp.chunks_terms WHERE term >= ? AND term < ?"
            " ORDER BY doc DESC LIMIT ?",
            (start, start + "\uffff", PREFIX_WORDS),
        ).fetchall()
        if rows:
            return [term for (term,) in rows]
    return []


def _matches(con: sqlite3.Connection, atom: str) -> int:
    """Rows matching one atom: reading a doclist without scoring it is cheap."""
    row = con.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (atom,))
    return int(row.fetchone()[0])


def candidates(
    con: sqlite3.Connection,
    query: str,
    columns: tuple[float, float, float],
    where: str,
    params: list[object],
    limit: int,
) -> dict[int, float]:
    """Up to about ``3 * limit`` chunk ids with their BM25 score (higher is better).

    ``where`` filters on ``chunks c`` (see ``filters.where_clause``). A window that holds fewer
    than ``limit`` matching chunks (a narrow filter, say) is widened until it holds enough
    or covers the whole index, so a bound never hides the only matches there are.
    """
    found = _candidates(con, plan(con, query), columns, where, params, limit)
    if len(found) < FEW:
        fallback = plan(con, query, widened=True)
        if fallback is not None and fallback != plan(con, query):
            more = _candidates(con, fallback, columns, where, params, limit)
            for chunk, score in more.items():
                found.setdefault(chunk, score * FALLBACK_SHARE)
    return found


def _candidates(
    con: sqlite3.Connection,
    chosen: Plan | None,
    columns: tuple[float, float, float],
    where: str,
    params: list[object],
    limit: int,
) -> dict[int, float]:
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
    columns: tuple[float, float, float],
    where: str,
    params: list[object],
    limit: int,
    after: int | None,
) -> dict[int, float]:
    bound, bound_params = ("", []) if after is None else (" AND f.rowid > ?", [after])
    if where:
        sql = (
            "SELECT f.rowid, -bm25(chunks_fts, ?, ?, ?) AS s FROM chunks_fts f"
            f" JOIN chunks c ON c.id = f.rowid WHERE chunks_fts MATCH ?{bound}{where}"
            " ORDER BY s DESC LIMIT ?"
        )
    else:  # no filter: FTS alone, no join per matching row
        sql = (
            "SELECT f.rowid, -bm25(chunks_fts, ?, ?, ?) AS s FROM chunks_fts f"
            f" WHERE chunks_fts MATCH ?{bound} ORDER BY s DESC LIMIT ?"
        )
    rows = con.execute(sql, [*columns, match, *bound_params, *params, limit])
    return {chunk: max(0.0, score) for chunk, score in rows}
