"""``search``, ``get`` and ``timeline``: progressive disclosure over the memory files.

A search returns compact hits (title, snippet, what the whole chunk would cost in tokens);
``get`` returns one chunk whole with its provenance; ``timeline`` the entries around it in
time. The index refreshes changed files before answering, so callers never reindex.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import clock
from ..errors import LockTimeoutError, NotFoundError, UsageError
from ..root import Workspace
from . import analyze
from .bounds import bound_query
from .dates import DateRange, query_range
from .filters import check_filters, filter_day, where_clause
from .hits import COLUMNS, Hit, Timeline, check_id, day, fetch, make_hit, one_per_text
from .index import Progress, RefreshReport, SearchIndex
from .lexical import candidates
from .ranking import Candidate, Weights, fuse, title_match
from .settings import SearchSettings, search_settings
from .vocabulary import asked_kinds

if TYPE_CHECKING:
    from .embedders import QueryVector

__all__ = [
    "Hit",
    "SearchSettings",
    "Timeline",
    "filter_day",
    "get",
    "index_transcript",
    "reindex",
    "search",
    "search_settings",
    "timeline",
]

SESSION_ENV = "WORKMEM_SESSION_ID"


def search(
    workspace: Workspace,
    query: str,
    *,
    k: int = 10,
    kinds: Sequence[str] | None = None,
    since: date | None = None,
    until: date | None = None,
    session: str | None = None,
    embedder: str | None = None,
    weights: Weights | None = None,
    near_session: str | None = None,
) -> list[Hit]:
    """The ``k`` best chunks for ``query``, fused from lexical, dense and time signals.

    ``embedder`` overrides ``[search] embedder`` (``none`` = lexical only); ``near_session``
    (default ``$WORKMEM_SESSION_ID``) ranks that session's chunks slightly higher.
    """
    if k < 1:
        raise UsageError("k must be at least 1")
    check_filters(kinds, since, until)
    query = bound_query(query)  # a pasted 60 KB prompt costs what its start costs
    settings = search_settings(workspace)
    weights = weights or settings.weights
    from .inhook import active

    # A hook never waits for a model: its searches are by words only (``inhook``).
    model = None if active() else embedder_for(embedder or settings.embedder, settings.embed_url)
    vector = None
    if model is not None and weights.dense > 0 and analyze.has_words(query):
        from .embedders import QueryVector

        # Embedding the query is most of a dense search's time: it runs on the other
        # core while the index refreshes and BM25 ranks.
        vector = QueryVector(model, query)
    if near_session is None:
        near_session = os.environ.get(SESSION_ENV) or None
    # The background warmer embeds with the configured model; another one given for this
    # search only (tests, benchmarks) embeds what it needs itself (``embed_missing``).
    configured = embedder is None or embedder.strip() == settings.embedder.strip()
    request = _Request(
        query, k, kinds, since, until, session, near_session, weights, model, configured
    )
    index = settings.index(workspace)
    with index.connect() as con:
        try:
            index.refresh(con)
            return _ranked(index, con, request, vector)
        except sqlite3.DatabaseError as exc:
            _raise_if_busy(exc)  # otherwise corrupt under our feet: rebuild once, below
    index.rebuild(reason="index unreadable during a query")
    with index.connect() as con:
        return _ranked(index, con, request, vector)


@dataclass(frozen=True)
class _Request:
    query: str
    k: int
    kinds: Sequence[str] | None
    since: date | None
    until: date | None
    session: str | None
    near_session: str | None
    weights: Weights
    model: Any
    #: ``model`` is the one of ``workmem.toml``, which a background warmer embeds with.
    configured: bool = False


def embedder_for(spec: str, url: str | None) -> Any:
    """The embedder, without importing the dense machinery for lexical search."""
    if spec.strip().lower() == "none":
        return None
    from .embedders import get_embedder

    return get_embedder(spec, url)


def _raise_if_busy(exc: sqlite3.DatabaseError) -> None:
    """A busy index is not a broken one: say so instead of rebuilding it."""
    message = str(exc).lower()
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in message or "busy" in message):
        raise LockTimeoutError(
            "the search index is busy (another process is updating it); try again"
        ) from exc


#: How far below the k-th hit copies of a hit's text are looked for (``one_per_text``).
SAME_TEXT_DEPTH = 3
#: The fewest candidates a lexical-only query ranks (see ``candidate_pool``).
LEXICAL_POOL = 50


def candidate_pool(weights: Weights, k: int, *, dense: bool) -> int:
    """How many candidates each signal brings to the fusion.

    Dense fusion needs the whole ``candidates`` pool: cosine is stretched between the
    pool's floor and its top, so a narrower pool changes every dense score (LoCoMo conv-26
    and conv-30: 150 -> 50 took recall@10 0.838 -> 0.812). Lexical alone keeps BM25's own order
    at the top, so fetching and fusing 150 rows was a quarter of the query for nothing
    (50: the same recall@5/10/25 and context recall on both LoCoMo splits); but boosts
    can lift an entry from far down (a year of memory: a decision at BM25 rank over 75
    ended 12th), so the pool is at least four times ``k``.
    """
    if dense:
        return max(weights.candidates, k)
    return max(k, min(weights.candidates, max(LEXICAL_POOL, 4 * k)))


def _ranked(
    index: SearchIndex, con: sqlite3.Connection, request: _Request, vector: QueryVector | None
) -> list[Hit]:
    query, weights, kinds = request.query, request.weights, request.kinds
    limit = candidate_pool(weights, request.k, dense=vector is not None)
    where, params = where_clause(kinds, request.since, request.until, request.session)
    found: dict[int, Candidate] = {}
    columns = (weights.body, weights.context, weights.section)
    lexical = candidates(con, query, columns, where, params, limit)
    for chunk, score in lexical.items():
        found[chunk] = Candidate(chunk, "", "", None, None, lexical=score)
    today = clock.now().date()
    named = query_range(query, today) or _latest_asked(con, query, today)
    if named is not None and weights.date > 0:
        # The time a query names is a sub-query of its own: the best matches inside that
        # time are candidates even when the rest of the memory holds better ones, and
        # "what did we do yesterday" (no searchable word) still finds that day.
        inside = " AND c.date BETWEEN ? AND ?"
        span = [named.start.isoformat(), named.end.isoformat()]
        found_inside = candidates(con, query, columns, where + inside, [*params, *span], limit)
        for chunk, score in found_inside.items():
            found.setdefault(chunk, Candidate(chunk, "", "", None, None, lexical=score))
        dated = con.execute(
            f"SELECT c.id FROM chunks c WHERE c.date BETWEEN ? AND ?{where}"
            f" ORDER BY c.date DESC, c.path, c.seq LIMIT ?",
            [*span, *params, limit],
        )
        for (chunk,) in dated:
            found.setdefault(chunk, Candidate(chunk, "", "", None, None))
    floor = 0.0
    if vector is not None:
        from .vectors import dense_candidates, embed_missing, load_table

        embed_missing(index, con, request.model, configured=request.configured)
        table = load_table(index, con, request.model)
        keep = table.mask(
            set(kinds) if kinds else None, request.since, request.until, request.session
        )
        dense, floor = dense_candidates(table, vector.result(), limit, keep)
        for chunk, score in dense.items():
            found.setdefault(chunk, Candidate(chunk, "", "", None, None)).dense = score
    if not found:
        return []
    rows = fetch(con, list(found))
    asked = analyze.asked_terms(query)
    for row in rows.values():
        c = found[row[0]]
        c.kind, c.path, c.session_id = row[2], row[3], row[7]
        c.day = day(row[6])
        c.title = title_match(asked, row[8])
    ranked = fuse(
        [c for c in found.values() if c.chunk in rows],
        weights,
        dense_floor=floor,
        named=named,
        today=today,
        near_session=request.near_session,
        asked_kinds=asked_kinds(query),
    )
    if weights.spread > 0:
        from .gathering import asks_for_several, spread_over_files

        if asks_for_several(query):
            ranked = spread_over_files(ranked, weights.spread)
    needles = analyze.highlight_terms(query)
    # The same text in two files (a snapshot's file list and its notes' copy) is one hit
    # with both places; copies ranked far below the k-th hit are not looked for.
    head = ranked[: max(SAME_TEXT_DEPTH * request.k, 30)]
    unique = one_per_text([rows[c.chunk] for c in head])
    if len(unique) < request.k < len(ranked):  # copies filled the head: look further
        head = ranked
        unique = one_per_text([rows[c.chunk] for c in head])
    scores = {c.chunk: c.score for c in head}
    return [make_hit(row, scores[row[0]], needles, also) for row, also in unique[: request.k]]


def _latest_asked(con: sqlite3.Connection, query: str, today: date) -> DateRange | None:
    """The last day with entries, when the question asks for the latest ("what's next?")."""
    from .vocabulary import asked_families

    if not any(family.latest for family in asked_families(query)):
        return None
    row = con.execute(
        "SELECT max(date) FROM chunks WHERE date IS NOT NULL AND date <= ?", (today.isoformat(),)
    ).fetchone()
    last = day(row[0]) if row else None
    return DateRange(last, last) if last else None


def get(workspace: Workspace, chunk_id: str) -> Hit:
    """One chunk whole, with its provenance; refreshed first, so it is the file's current text."""
    cid = check_id(chunk_id)
    index = search_settings(workspace).index(workspace)
    with index.connect() as con:
        index.refresh(con)
        row = con.execute(f"SELECT {COLUMNS} FROM chunks c WHERE cid = ?", (cid,)).fetchone()
    if row is None:
        raise NotFoundError(
            f"no memory chunk {cid}: the file it came from has changed or gone; search again"
        )
    return make_hit(row, 0.0, [])


def timeline(
    workspace: Workspace,
    chunk_id: str,
    *,
    before: int = 5,
    after: int = 5,
    kinds: Sequence[str] | None = None,
) -> Timeline:
    """The chunks just before and after ``chunk_id`` in time (date, then file order).

    A chunk without a date has no place in time; its neighbours in its own file are given.
    """
    if before < 0 or after < 0:
        raise UsageError("--before and --after cannot be negative")
    check_filters(kinds, None, None)
    anchor = get(workspace, chunk_id)
    index = search_settings(workspace).index(workspace)
    where, params = where_clause(kinds, None, None, None)
    with index.connect() as con:
        seq = con.execute("SELECT seq FROM chunks WHERE cid = ?", (anchor.id,)).fetchone()
        if seq is None:
            raise NotFoundError(f"no memory chunk {anchor.id}: search again")
        if anchor.date:
            columns: tuple[str, ...] = ("c.date", "c.path", "c.seq")
            order: tuple[object, ...] = (anchor.date, anchor.path, seq[0])
            scope = "c.date IS NOT NULL"
        else:
            columns, order = ("c.path", "c.seq"), (anchor.path, seq[0])
            scope = "c.path = ?"
            params = [anchor.path, *params]
        earlier = _neighbours(con, scope + where, params, columns, order, "<", before)
        later = _neighbours(con, scope + where, params, columns, order, ">", after)
    return Timeline(
        anchor=anchor,
        before=[make_hit(r, 0.0, []) for r in reversed(earlier)],
        after=[make_hit(r, 0.0, []) for r in later],
    )


def _neighbours(
    con: sqlite3.Connection,
    where: str,
    params: list[object],
    columns: tuple[str, ...],
    anchor: tuple[object, ...],
    op: str,
    limit: int,
) -> list[tuple[Any, ...]]:
    direction = "DESC" if op == "<" else "ASC"
    key = f"({', '.join(columns)})"
    marks = ", ".join("?" * len(anchor))
    order = ", ".join(f"{column} {direction}" for column in columns)
    sql = f"SELECT {COLUMNS} FROM chunks c WHERE {where} AND {key} {op} ({marks})"
    rows = con.execute(f"{sql} ORDER BY {order} LIMIT ?", [*params, *anchor, limit]).fetchall()
    return rows


def index_transcript(workspace: Workspace, path: Path, *, wait: float = 60.0) -> RefreshReport:
    """Index one transcript now (the session-end hook), if ``[search] transcripts`` is on."""
    settings = search_settings(workspace)
    if not settings.transcripts:
        return RefreshReport()
    from .transcript_source import transcript_stat

    stat = transcript_stat(path)
    if stat is None:
        raise NotFoundError(f"no transcript at {path}")
    index = settings.index(workspace)
    with index.connect() as con:
        return index.add_source(con, stat, wait=wait)


def reindex(
    workspace: Workspace, *, full: bool = False, progress: Progress | None = None
) -> RefreshReport:
    """Bring the index up to date (or rebuild it whole), embedding with the configured model.

    A missing or unreadable index is rebuilt here rather than quietly by ``connect``, so
    the report counts what was indexed; ``seconds`` covers the embedding too.
    """
    import time

    started = time.perf_counter()
    settings = search_settings(workspace)
    index = settings.index(workspace)
    rebuild = full or not index.readable()
    if rebuild:
        reason = "requested" if full else "index missing or unreadable"
        report = index.rebuild(reason=reason, progress=progress)
    with index.connect() as con:
        if not rebuild:
            report = index.refresh(con, sources=True)
        model = embedder_for(settings.embedder, settings.embed_url)
        if model is not None:
            from .vectors import ensure_vectors

            report.vectors_added = ensure_vectors(index, con, model, progress)
        problems = con.execute("SELECT path, error FROM files WHERE error IS NOT NULL")
        report.problems = dict(problems.fetchall())
    report.seconds = time.perf_counter() - started
    return report
