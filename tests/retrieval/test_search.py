"""search / get / timeline over real files in a temporary workspace (lexical path)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from workmem.errors import NotFoundError, UsageError
from workmem.retrieval.database import db_path
from workmem.retrieval.index import SearchIndex
from workmem.retrieval.search import get, reindex, search, timeline
from workmem.root import Workspace

BOARD = (
    "# Memory Index\n\n"
    "| Session ID | Agent Name | Topic | Summary | Keywords | Status | Referenced By "
    "| Started At | Updated At |\n"
    "|---|---|---|---|---|---|---|---|---|\n"
    "| 2026-05-20-0900-cursor-main-agent | cursor-main-agent | billing export "
    "| CSV export of invoices | csv, invoices | active | - | 2026-05-20 09:00 "
    "| 2026-05-20 18:00 |\n"
    "| 2026-05-24-0900-codex-main-agent | codex-main-agent | search index | FTS5 ranking "
    "| sqlite | active | - | 2026-05-24 09:00 | 2026-05-24 17:40 |\n"
)


def write(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    monkeypatch.delenv("WORKMEM_SESSION_ID", raising=False)
    mem = root / "memory"
    write(
        root / "MEMORY.md",
        "# MEMORY\n\n## Active\n\n### Feedback\n- 每天收工前要更新 resumption.md\n"
        "- Prefer small pull requests (2026-04-02)\n",
    )
    write(
        mem / "2026-05-20.md",
        "# 2026-05-20\n\n### 10:00 Billing\n\nThe invoice exporter writes CSV files nightly.\n",
    )
    write(
        mem / "2026-05-24.md",
        "# 2026-05-24\n\n### 09:10 Database choice\n\nWe decided to use SQLite with FTS5 for "
        "the search index.\n\n### 17:40 收工\n\n今天收工了，明天繼續做排序。\n",
    )
    write(mem / "index.md", BOARD)
    write(
        mem / "sessions" / "2026-05-24-0900-codex-main-agent.md",
        "# Session\n\n## Decisions\n- Rank with BM25 and recency\n- Keep vectors in SQLite\n",
    )
    write(
        mem / "events.json",
        '[{"event_type": "purchase", "text": "Bought a standing desk.", '
        '"normalized_date": "2026-05-10"}]\n',
    )
    return Workspace(root)


def test_english_query_finds_the_entry_with_provenance(ws: Workspace) -> None:
    hits = search(ws, "which database did we decide on?", k=3)
    top = hits[0]
    assert top.kind == "daily" and top.path == "memory/2026-05-24.md"
    assert "SQLite" in top.text and top.date == "2026-05-24"
    assert top.title == "09:10 Database choice"
    lines = (ws.root / top.path).read_text().split("\n")
    assert "SQLite" in "\n".join(lines[top.line_start - 1 : top.line_end])
    assert top.tokens > 0 and top.score > 0
    assert db_path(ws).is_file()


def test_stemming_matches_other_word_forms(ws: Workspace) -> None:
    hits = search(ws, "exporting invoice", k=2)
    assert any("exporter" in hit.text for hit in hits)


def test_cjk_two_character_term(ws: Workspace) -> None:
    hits = search(ws, "收工", k=5)
    kinds_found = {h.kind for h in hits[:2]}
    assert kinds_found == {"daily", "memory"}
    assert all("收工" in h.text for h in hits[:2])


def test_cjk_relative_time_query(ws: Workspace) -> None:
    # 上週 = the week of 2026-05-18 (the clock is pinned to 2026-05-25)
    hits = search(ws, "上週的決定", k=3)
    assert hits and all(h.date and "2026-05-18" <= h.date <= "2026-05-24" for h in hits)


def test_a_file_edited_between_queries_is_found_in_its_new_form(ws: Workspace) -> None:
    assert not search(ws, "kubernetes")
    path = ws.memory_dir / "2026-05-24.md"
    write(path, path.read_text() + "\n### 18:00 Deploy\n\nMoved the workers to Kubernetes.\n")
    hits = search(ws, "kubernetes")
    assert hits[0].title == "18:00 Deploy"
    # the entry before it is found through its neighbour, but ranks lower
    assert all(h.score < hits[0].score for h in hits[1:])
    write(path, path.read_text().replace("Kubernetes", "Nomad"))
    assert not search(ws, "kubernetes")
    assert search(ws, "nomad")[0].title == "18:00 Deploy"


def test_a_deleted_file_is_gone_from_results(ws: Workspace) -> None:
    assert search(ws, "standing desk")
    (ws.memory_dir / "events.json").unlink()
    assert not search(ws, "standing desk")
    index = SearchIndex(ws)
    with index.connect() as con:
        count = con.execute("SELECT count(*) FROM chunks WHERE path='memory/events.json'")
        assert count.fetchone()[0] == 0


def test_corrupt_index_is_rebuilt_silently(ws: Workspace) -> None:
    search(ws, "sqlite")
    db_path(ws).write_bytes(b"this is not a database" * 100)
    hits = search(ws, "sqlite")
    assert hits and hits[0].kind in {"daily", "board", "snapshot"}


def test_missing_or_outdated_index_is_rebuilt(ws: Workspace) -> None:
    search(ws, "sqlite")
    db_path(ws).unlink()
    assert search(ws, "sqlite")
    import sqlite3

    con = sqlite3.connect(db_path(ws))
    con.execute("UPDATE meta SET value='0' WHERE key='schema'")
    con.commit()
    con.close()
    assert search(ws, "sqlite")


def test_date_bounds_and_filters(ws: Workspace) -> None:
    hits = search(ws, "sqlite csv invoices desk", k=20, since=date(2026, 5, 21))
    assert hits and all(h.date and h.date >= "2026-05-21" for h in hits)
    hits = search(ws, "sqlite csv invoices desk", k=20, until=date(2026, 5, 20))
    assert hits and all(h.date and h.date <= "2026-05-20" for h in hits)
    assert {h.kind for h in search(ws, "sqlite", kinds=["board"])} == {"board"}
    hits = search(ws, "sqlite bm25 vectors", session="2026-05-24-0900-codex-main-agent")
    assert hits and all(h.session_id == "2026-05-24-0900-codex-main-agent" for h in hits)
    with pytest.raises(UsageError):
        search(ws, "x", kinds=["nonsense"])
    with pytest.raises(UsageError):
        search(ws, "x", since=date(2026, 5, 2), until=date(2026, 5, 1))


def test_query_naming_a_day_without_words_returns_that_day(ws: Workspace) -> None:
    hits = search(ws, "what happened yesterday", k=5)
    assert hits and all(h.date == "2026-05-24" for h in hits)


def test_recency_breaks_ties_between_equal_matches(ws: Workspace) -> None:
    path = ws.memory_dir / "2026-01-05.md"
    write(path, "# 2026-01-05\n\n### Standup\n\nDiscussed the flaky payment test.\n")
    write(
        ws.memory_dir / "2026-05-22.md",
        "# 2026-05-22\n\n### Standup\n\nDiscussed the flaky payment test.\n",
    )
    hits = search(ws, "flaky payment test", k=2)
    assert [h.date for h in hits] == ["2026-05-22", "2026-01-05"]


def test_near_session_boost(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKMEM_SESSION_ID", "2026-05-20-0900-cursor-main-agent")
    first = search(ws, "active", k=2, kinds=["board"])[0]
    assert first.session_id == "2026-05-20-0900-cursor-main-agent"


def test_get_returns_the_whole_chunk_and_rejects_bad_ids(ws: Workspace) -> None:
    hit = search(ws, "sqlite fts5", k=1)[0]
    whole = get(ws, hit.id)
    assert whole.text == hit.text and whole.path == hit.path
    with pytest.raises(UsageError):
        get(ws, "../../etc/passwd")
    with pytest.raises(NotFoundError):
        get(ws, "0123456789ab")


def test_get_after_the_chunk_changed_says_search_again(ws: Workspace) -> None:
    hit = search(ws, "standing desk", k=1)[0]
    write(ws.memory_dir / "events.json", "[]\n")
    with pytest.raises(NotFoundError, match="search again"):
        get(ws, hit.id)


def test_timeline_orders_by_date_then_file_order(ws: Workspace) -> None:
    hit = search(ws, "收工", kinds=["daily"], k=1)[0]
    view = timeline(ws, hit.id, before=3, after=3)
    assert view.anchor.id == hit.id
    dates = [h.date or "" for h in [*view.before, view.anchor, *view.after]]
    assert dates == sorted(dates)
    assert view.before[-1].title == "09:10 Database choice"
    undated = search(ws, "收工", kinds=["memory"], k=1)[0]
    around = timeline(ws, undated.id)
    assert all(h.path == "MEMORY.md" for h in [*around.before, *around.after])
    with pytest.raises(UsageError):
        timeline(ws, hit.id, before=-1)


def test_bad_files_are_reported_and_the_rest_still_searchable(ws: Workspace) -> None:
    write(ws.memory_dir / "2026-05-23.md", "# 2026-05-23\n\ncaf\xe9 latte\n", encoding="latin-1")
    write(
        ws.memory_dir / "threads.md",
        "\ufeff# Threads\r\n\r\n## thread-rollout\r\nCanary at 5%.\r\n",
    )
    report = reindex(ws)
    assert "memory/2026-05-23.md" in report.problems
    assert "UTF-8" in report.problems["memory/2026-05-23.md"]
    hits = search(ws, "canary")
    assert hits[0].kind == "thread" and hits[0].text == "Canary at 5%."
    assert search(ws, "sqlite")
    # fixing the file makes it searchable and clears the problem
    write(ws.memory_dir / "2026-05-23.md", "# 2026-05-23\n\ncafé latte\n")
    assert search(ws, "latte")
    assert reindex(ws).problems == {}


def test_huge_file_is_refused_not_fatal(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    import workmem.files.text as text_module

    monkeypatch.setattr(text_module, "MAX_FILE_BYTES", 1000)
    write(ws.memory_dir / "2026-05-01.md", "# big\n\n" + "filler words here\n" * 200)
    report = reindex(ws)
    assert "limit" in report.problems["memory/2026-05-01.md"]
    assert search(ws, "sqlite")


def test_unchanged_files_are_not_reindexed(ws: Workspace) -> None:
    search(ws, "sqlite")
    old = (ws.memory_dir / "2026-05-24.md").stat().st_mtime_ns - 10_000_000_000
    for path in ws.memory_dir.glob("*.md"):
        os.utime(path, ns=(old, old))  # settle: out of the racy window
    reindex(ws)
    report = reindex(ws)
    assert report.files_changed == 0 and report.chunks_added == 0
    path = ws.memory_dir / "2026-05-24.md"
    os.utime(path, ns=(old + 5, old + 5))  # touched, same bytes: hashed, not re-chunked
    report = reindex(ws)
    assert report.files_changed == 0 and report.chunks_added == 0


def test_full_rebuild_swaps_atomically_and_keeps_ids(ws: Workspace) -> None:
    before = search(ws, "sqlite fts5", k=1)[0]
    report = reindex(ws, full=True)
    assert report.rebuilt and report.files_seen == 6
    assert get(ws, before.id).text == before.text
    leftovers = [p.name for p in ws.state_dir.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_first_reindex_reports_what_it_indexed(ws: Workspace) -> None:
    report = reindex(ws)  # no index yet: built here, and counted
    assert report.rebuilt and report.reason == "index missing or unreadable"
    assert report.files_seen == 6 and report.chunks_added > 0 and report.seconds > 0
    db_path(ws).write_bytes(b"not a database")
    report = reindex(ws)
    assert report.rebuilt and report.chunks_added > 0
    report = reindex(ws)
    assert not report.rebuilt and report.chunks_added == 0


def test_empty_workspace_and_empty_query(root: Path) -> None:
    workspace = Workspace(root)
    assert search(workspace, "anything") == []
    assert search(workspace, "   ") == []
    with pytest.raises(UsageError):
        search(workspace, "x", k=0)


def test_a_locked_index_is_reported_not_rebuilt(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from workmem.errors import LockTimeoutError
    from workmem.retrieval import search as search_module

    search(ws, "sqlite")
    inode = db_path(ws).stat().st_ino

    def locked(*args: object, **kwargs: object) -> object:
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as patch:
        patch.setattr(search_module, "_ranked", locked)
        with pytest.raises(LockTimeoutError, match="busy"):
            search(ws, "sqlite")
    assert search(ws, "sqlite") and db_path(ws).stat().st_ino == inode


def test_settings_choose_weights_and_refuse_bad_values(ws: Workspace) -> None:
    from workmem.errors import FormatError

    config = ws.root / "workmem.toml"
    config.write_text("[search.weights]\ndate = 0\nrecency = 0.5\n", encoding="utf-8")
    # with no date weight, a query naming yesterday gets no date-only candidates
    assert search(ws, "what happened yesterday") == []
    for bad in (
        "[search.weights]\nlexcal = 1\n",
        "[search.weights]\ndense = 'high'\n",
        "[search]\nembedder = 3\n",
        "[search.weights]\nhalf_life_days = 0\n",
    ):
        config.write_text(bad, encoding="utf-8")
        with pytest.raises(FormatError, match=r"workmem\.toml"):
            search(ws, "sqlite")


def test_a_heading_naming_the_query_lifts_the_entries_it_heads(ws: Workspace) -> None:
    # Two days apart (the same words on one day would be one hit with both places), the
    # entry the query's agent wrote being the older one: its heading must outweigh recency.
    write(
        ws.memory_dir / "2026-05-21.md",
        "# 2026-05-21\n\n### codex\n\nI moved the exporter to a queue.\n",
    )
    write(
        ws.memory_dir / "2026-05-23.md",
        "# 2026-05-23\n\n### cursor\n\nI moved the exporter to a queue.\n",
    )
    write(ws.memory_dir / "2026-05-22.md", "# 2026-05-22\n\n### codex\n\nLunch was good.\n")
    hits = search(ws, "what did codex move to a queue", k=3, kinds=["daily"])
    # Same words in both bodies: the entry written by the agent the query names wins.
    assert [(h.title, h.snippet[:8]) for h in hits[:2]] == [
        ("codex", "I moved "),
        ("cursor", "I moved "),
    ]
    # The heading multiplies what the text matches: an entry whose only match is its
    # heading stays below both entries that match in their words.
    assert [h.text for h in hits][2:] == ["Lunch was good."]


def test_title_match_is_the_share_of_query_words_in_the_heading() -> None:
    from workmem.retrieval.analyze import asked_terms
    from workmem.retrieval.ranking import title_match

    asked = asked_terms("codex queue")
    assert title_match(asked, "codex") == 0.5
    assert title_match(asked, "Codex: queue work") == 1.0
    assert title_match(asked, None) == 0.0
    assert title_match(set(), "codex") == 0.0
    assert title_match({"收工", "工"}, "17:40 收工") == 1.0


@pytest.mark.parametrize(
    "k, dense, configured, pool",
    [
        (10, True, 150, 150),  # dense fusion always takes the whole pool
        (200, True, 150, 200),
        (10, False, 150, 50),  # lexical alone: the fewest
        (25, False, 150, 100),  # four times k, so boosts can still lift from far down
        (60, False, 150, 150),  # never past the configured pool ...
        (5, False, 20, 20),
        (30, False, 20, 30),  # ... nor under k
    ],
)
def test_candidate_pool(k: int, dense: bool, configured: int, pool: int) -> None:
    from workmem.retrieval.ranking import Weights
    from workmem.retrieval.search import candidate_pool

    assert candidate_pool(Weights(candidates=configured), k, dense=dense) == pool
