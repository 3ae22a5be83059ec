"""The bounded lexical path: same exact BM25 scores, fewer rows scored, nothing lost that matters.

The bounds apply only to big indexes; the thresholds are lowered here so that a few hundred
real chunks in real daily logs exercise them.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from workmem.retrieval import lexical
from workmem.retrieval.filters import where_clause
from workmem.retrieval.index import SearchIndex
from workmem.retrieval.search import search
from workmem.root import Workspace

DAYS = 30
PER_DAY = 10
START = date(2026, 4, 1)


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    monkeypatch.delenv("WORKMEM_SESSION_ID", raising=False)
    memory = root / "memory"
    memory.mkdir(parents=True, exist_ok=True)
    for d in range(DAYS):
        day = START + timedelta(days=d)
        entries = [f"# {day}\n"]
        for e in range(PER_DAY):
            words = ["deploy", "billing"] if (d + e) % 3 else ["deploy", "review"]
            if d < 3 and e == 0:
                words.append("zanzibar")  # rare, and only in the oldest logs
            if d < 3 and e == 1:
                words += ["zanzibar", "billing", "deploy"]
            entries.append(f"### {e:02d}:00 work\n\nWe {' and '.join(words)} today.\n")
        (memory / f"{day}.md").write_text("\n".join(entries), encoding="utf-8")
    return Workspace(root)


def _candidates(
    ws: Workspace, query: str, *, until: date | None = None, limit: int = 20
) -> dict[int, float]:
    where, params = where_clause(None, None, until, None)
    index = SearchIndex(ws)
    with index.connect() as con:
        index.refresh(con)
        return lexical.candidates(con, query, (2.0, 1.0, 1.0), where, params, limit)


def _bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical, "COMMON_MIN_CHUNKS", 50)
    monkeypatch.setattr(lexical, "COMMON_SHARE", 1.0)  # keep the common words in the query
    monkeypatch.setattr(lexical, "MATCH_BUDGET", 60)


def test_small_index_uses_the_whole_query(ws: Workspace) -> None:
    index = SearchIndex(ws)
    with index.connect() as con:
        index.refresh(con)
        chosen = lexical.plan(con, "zanzibar deploy billing")
    assert chosen == lexical.Plan('"zanzibar" OR "deploy" OR "bill"')


def test_rare_terms_are_found_everywhere_with_exact_scores(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact = _candidates(ws, "zanzibar deploy billing", limit=10_000)  # every match, scored
    _bounded(monkeypatch)
    index = SearchIndex(ws)
    with index.connect() as con:
        chosen = lexical.plan(con, "zanzibar deploy billing")
    assert chosen is not None and chosen.after is not None
    assert chosen.rare[0] == '"zanzibar"'
    bounded = _candidates(ws, "zanzibar deploy billing")
    assert len(bounded) < len(exact)
    for chunk, score in bounded.items():
        assert score == pytest.approx(exact[chunk])  # exact BM25, whichever query found it
    best = sorted(exact, key=lambda c: -exact[c])[:3]
    assert set(best) <= set(bounded)  # the old zanzibar entries are kept
    hits = search(ws, "zanzibar deploy billing", k=3, embedder="none")
    assert all("zanzibar" in h.text for h in hits)
    assert hits[0].date is not None and hits[0].date < str(START + timedelta(days=3))


def test_common_words_only_are_scored_in_the_newest_window(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact = _candidates(ws, "deploy billing", limit=10_000)
    _bounded(monkeypatch)
    index = SearchIndex(ws)
    with index.connect() as con:
        chosen = lexical.plan(con, "deploy billing")
    assert chosen is not None and chosen.rare == () and chosen.after is not None
    assert chosen.after > min(exact)  # older chunks are not scored at all
    bounded = _candidates(ws, "deploy billing")
    assert len(bounded) == 20 and min(bounded) > chosen.after
    for chunk, score in bounded.items():
        assert score == pytest.approx(exact[chunk])


def test_a_narrow_filter_widens_the_window_until_matches_appear(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    _bounded(monkeypatch)
    early = START + timedelta(days=1)
    found = _candidates(ws, "deploy review", until=early)
    assert found  # the window of newest chunks holds none of these dates
    hits = search(ws, "deploy review", until=early, k=5, embedder="none")
    assert hits and all(h.date is not None and h.date <= str(early) for h in hits)
