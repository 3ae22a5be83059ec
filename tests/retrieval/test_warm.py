"""Keeping the index warm: a save starts one background refresh; a search then has no work."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import LockTimeoutError
from workmem.files.locks import FileLock
from workmem.retrieval import warm
from workmem.retrieval.index import SearchIndex
from workmem.retrieval.search import reindex, search
from workmem.retrieval.vectors import ensure_vectors
from workmem.root import Workspace


def entry(root: Path, day: str, heading: str, text: str) -> None:
    path = root / "memory" / f"{day}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_text(encoding="utf-8") if path.exists() else f"# {day}\n"
    path.write_text(f"{old}\n### {heading}\n\n{text}\n", encoding="utf-8")
    # Written "a while ago": a file changed within the last 2 s counts as changed on every
    # look (its mtime may not move on the next write), which would blur what is tested.
    stamp = time.time_ns() - 5_000_000_000
    os.utime(path, ns=(stamp, stamp))


def indexed(workspace: Workspace, words: str) -> bool:
    index = SearchIndex(workspace)
    with index.connect() as con:
        row = con.execute("SELECT count(*) FROM chunks WHERE text LIKE ?", (f"%{words}%",))
        return bool(row.fetchone()[0])


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    monkeypatch.delenv(warm.ENV, raising=False)
    entry(root, "2026-05-20", "10:00 Billing", "The invoice exporter writes CSV files nightly.")
    workspace = Workspace(root)
    reindex(workspace)
    return workspace


def finished(proc: subprocess.Popen[bytes] | None) -> subprocess.Popen[bytes]:
    assert proc is not None, "a warmer should have been started"
    assert proc.wait(timeout=120) == 0
    return proc


def test_a_save_is_indexed_in_the_background(ws: Workspace) -> None:
    entry(ws.root, "2026-05-21", "11:00 Parser", "We chose a recursive descent parser.")
    index = SearchIndex(ws)
    with index.connect() as con:
        assert index.behind(con)
    finished(warm.refresh_soon(ws.root))
    assert indexed(ws, "recursive descent")
    with index.connect() as con:
        assert not index.behind(con)
        report = index.refresh(con)
    # nothing left for the next search to re-chunk (a racy file is only re-hashed)
    assert report.files_changed == 0 and report.chunks_added == 0
    assert search(ws, "recursive descent parser")[0].date == "2026-05-21"
    assert (ws.state_dir / warm.LOG).read_bytes() == b""


def test_nothing_is_started_without_need(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    assert warm.refresh_soon(ws.root) is None  # the index is current
    entry(ws.root, "2026-05-21", "11:00 Parser", "Recursive descent.")
    monkeypatch.setenv(warm.ENV, "0")
    assert warm.refresh_soon(ws.root) is None
    monkeypatch.delenv(warm.ENV)
    (ws.root / "workmem.toml").write_text("[search]\nwarm = false\n", encoding="utf-8")
    assert warm.refresh_soon(ws.root) is None


def test_no_index_no_warmer(root: Path) -> None:
    entry(root, "2026-05-21", "11:00 Parser", "Recursive descent.")
    assert warm.refresh_soon(root) is None
    assert not (Workspace(root).state_dir / "search.sqlite").exists()


def test_a_request_made_while_a_warmer_runs_is_not_lost(ws: Workspace) -> None:
    held = FileLock(ws.locks_dir / "search-warm.lock")
    with held:  # a warmer is busy: the save only leaves its request
        entry(ws.root, "2026-05-21", "11:00 Parser", "Recursive descent parser.")
        before = warm._token(ws)
        assert warm.refresh_soon(ws.root) is None
        assert (ws.state_dir / warm.REQUEST).read_bytes() != before
        assert warm.warm(ws) is False  # a second warmer steps aside
        assert not indexed(ws, "Recursive descent parser")
    assert warm.warm(ws) is True  # the running one, once free, takes the request
    assert indexed(ws, "Recursive descent parser")


def test_the_warmer_embeds_and_a_query_never_waits_for_it(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    (ws.root / "workmem.toml").write_text('[search]\nembedder = "hash"\n', encoding="utf-8")
    for n in range(12):
        entry(ws.root, "2026-05-22", f"0{n % 10}:00 Note {n}", f"Entry number {n} about caching.")
    finished(warm.refresh_soon(ws.root))
    index = SearchIndex(ws)
    from workmem.retrieval.embedders import get_embedder

    model = get_embedder("hash")
    assert model is not None
    with index.connect() as con:
        assert ensure_vectors(index, con, model) == 0  # all embedded already
    entry(ws.root, "2026-05-23", "09:00 Later", "Something new to embed.")
    with index.connect() as con:
        index.refresh(con)
        with index.lock():  # another process embedding: a query does not wait
            started = time.perf_counter()
            assert ensure_vectors(index, con, model, budget_s=1.0, wait=0.0) == 0
            assert time.perf_counter() - started < 30  # not the 60 s a writer would wait
        assert ensure_vectors(index, con, model, budget_s=1.0, wait=0.0) == 1


def vector_total(workspace: Workspace) -> int:
    with SearchIndex(workspace).connect() as con:
        return int(con.execute("SELECT count(*) FROM vectors").fetchone()[0])


def test_a_dense_search_hands_missing_vectors_to_the_warmer_and_embeds_none_itself(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    (ws.root / "workmem.toml").write_text('[search]\nembedder = "hash"\n', encoding="utf-8")
    for n in range(6):
        entry(ws.root, "2026-05-22", f"0{n}:00 Note {n}", f"Entry number {n} about caching.")
    started: list[object] = []
    real_start = warm._start

    def start(workspace: Workspace) -> subprocess.Popen[bytes]:
        proc = real_start(workspace)
        started.append(proc)
        return proc

    monkeypatch.setattr(warm, "_start", start)
    hits = search(ws, "caching entry")
    assert hits  # ranked by their words meanwhile
    assert len(started) == 1  # one warmer asked for
    proc = started[0]
    assert isinstance(proc, subprocess.Popen)
    assert proc.wait(timeout=120) == 0
    assert vector_total(ws) == 7  # the warmer embedded the six entries and the fixture's one
    search(ws, "caching entry")
    assert len(started) == 1  # complete: nothing more is asked for


def test_with_warming_off_a_dense_search_embeds_one_small_batch_itself(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.retrieval.vectors import QUERY_BATCH

    (ws.root / "workmem.toml").write_text(
        '[search]\nembedder = "hash"\nwarm = false\n', encoding="utf-8"
    )
    for n in range(5):
        entry(ws.root, "2026-05-22", f"0{n}:00 Note {n}", f"Entry number {n} about caching.")
    monkeypatch.setattr(warm, "_start", lambda workspace: pytest.fail("no warmer when off"))
    assert search(ws, "caching entry")
    assert vector_total(ws) == QUERY_BATCH == 1  # one chunk: the search stays cheap
    for _ in range(5):
        search(ws, "caching entry")
    assert vector_total(ws) == 6  # the next searches caught up


def test_a_failing_warmer_logs_and_costs_no_results(ws: Workspace) -> None:
    # an endpoint that is not there: the words are indexed, the embedding fails
    (ws.root / "workmem.toml").write_text(
        '[search]\nembedder = "openai"\nembed_url = "http://127.0.0.1:9"\n', encoding="utf-8"
    )
    entry(ws.root, "2026-05-21", "11:00 Parser", "Recursive descent parser.")
    proc = warm.refresh_soon(ws.root)
    assert proc is not None and proc.wait(timeout=120) != 0
    assert b"embedding endpoint" in (ws.state_dir / warm.LOG).read_bytes()
    assert indexed(ws, "Recursive descent parser")
    hits = search(ws, "recursive descent", embedder="none")
    assert hits and hits[0].date == "2026-05-21"


def test_a_broken_request_file_never_breaks_a_save(ws: Workspace) -> None:
    (ws.state_dir / warm.REQUEST).mkdir(parents=True)  # a folder where the file goes
    entry(ws.root, "2026-05-21", "11:00 Parser", "Recursive descent parser.")
    assert warm.refresh_soon(ws.root) is None
    assert warm.around_command("event", lambda: 0, ws.root) == 0


def test_the_cli_warms_after_a_command_that_saved(ws: Workspace) -> None:
    from workmem.cli import main

    argv = ["event", "add", "--type", "decision", "--text", "We use a recursive descent parser"]
    assert main([*argv, "--date", "2026-05-21"]) == 0
    deadline = time.monotonic() + 120
    while not (indexed(ws, "recursive descent parser") and not warm._running(ws)):
        assert time.monotonic() < deadline, "the background refresh did not happen"
        time.sleep(0.1)
    assert (ws.state_dir / warm.REQUEST).is_file()  # it was asked for, by the CLI
    (ws.state_dir / warm.REQUEST).unlink()
    entry(ws.root, "2026-05-22", "10:00 Lexer", "A table-driven lexer.")  # index behind

    def write() -> int:
        entry(ws.root, "2026-05-23", "10:00 Lexer", "A lexer.")
        (ws.root / "memory" / "2026-05-23.md").touch()  # written now
        return 3

    assert warm.around_command("search", write, ws.root) == 3  # a failed write: nothing
    assert warm.around_command("event", lambda: 0, ws.root) == 0  # wrote nothing: nothing
    assert main(["event", "find", "parser"]) == 0  # a read: nothing
    assert not (ws.state_dir / warm.REQUEST).exists()


def test_a_pre_compact_hook_warms_the_index(
    ws: Workspace,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real hook entry, a built Claude Code transcript: what the save wrote is indexed
    by the background warmer, not by the next search."""
    import io
    import json
    import sys

    from workmem.cli import main
    from workmem.demo_transcript import claude_code

    transcript = claude_code(tmp_path / "sess-1.jsonl")
    base = {"session_id": "sess-1", "transcript_path": str(transcript), "cwd": str(ws.root)}
    for event, extra in (("SessionStart", {"source": "startup"}), ("PreCompact", {})):
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**base, **extra})))
        assert main(["hook", event, "--platform", "claude-code"]) == 0
    capsys.readouterr()
    assert warm._token(ws), "the save asked for a refresh"
    deadline = time.monotonic() + 120
    while not (indexed(ws, "src/auth/limit.py") and not warm._running(ws)):
        assert time.monotonic() < deadline, "the snapshot the hook saved was not indexed"
        time.sleep(0.1)


def test_a_planted_link_never_leads_a_request_out_of_the_root(
    ws: Workspace, tmp_path: Path
) -> None:
    """A cloned repository holds ``memory/.workmem/warm.request`` -> a file outside."""
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me", encoding="utf-8")
    (ws.state_dir / warm.REQUEST).symlink_to(outside)
    (ws.state_dir / warm.LOG).symlink_to(tmp_path / "outside.log")
    entry(ws.root, "2026-05-21", "11:00 Parser", "Recursive descent parser.")
    assert warm.refresh_soon(ws.root) is None
    assert outside.read_text(encoding="utf-8") == "keep me"
    assert not (tmp_path / "outside.log").exists()
    assert warm.warm(ws) is True  # a warmer reads no token through it either


def test_embedding_holds_no_index_lock_while_the_model_runs(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.retrieval.embedders import Hashing

    index = SearchIndex(ws)
    held: list[bool] = []

    class Probing(Hashing):
        def passages(self, texts: Any) -> Any:
            probe = index.lock(timeout=0)
            try:
                probe.acquire()  # a search's refresh would get the lock now
            except LockTimeoutError:
                held.append(True)
            else:
                probe.release()
                held.append(False)
            return super().passages(texts)

    for n in range(5):
        entry(ws.root, "2026-05-22", f"0{n}:00 Note {n}", f"Entry number {n} about caching.")
    with index.connect() as con:
        index.refresh(con)
        assert ensure_vectors(index, con, Probing(64), batch_size=2) == 6
    assert held and not any(held)


def test_a_vector_is_stored_only_for_the_text_it_was_made_from(ws: Workspace) -> None:
    import numpy as np

    from workmem.retrieval.embedders import Hashing
    from workmem.retrieval.vectors import _store

    index = SearchIndex(ws)
    with index.connect() as con:
        cid, ehash = con.execute("SELECT id, ehash FROM chunks").fetchone()
        matrix = np.zeros((2, 64), dtype=np.float16)
        # the chunk was re-chunked meanwhile (another hash), or is gone (another id)
        assert _store(index, con, Hashing(64), [(cid, "stale"), (cid + 99, ehash)], matrix, 1) == 0
        assert _store(index, con, Hashing(64), [(cid, ehash)], matrix, 1) == 1
        with index.lock():
            assert _store(index, con, Hashing(64), [(cid, ehash)], matrix, 0) is None


def test_the_warmer_refreshes_at_normal_priority_and_embeds_at_a_low_one(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    (ws.root / "workmem.toml").write_text('[search]\nembedder = "hash"\n', encoding="utf-8")
    entry(ws.root, "2026-05-22", "09:00 Note", "Entry about caching.")
    order: list[str] = []
    real_refresh = SearchIndex.refresh

    def refresh(self: SearchIndex, con: Any, **kwargs: Any) -> Any:
        order.append("refresh")
        return real_refresh(self, con, **kwargs)

    monkeypatch.setattr(SearchIndex, "refresh", refresh)
    monkeypatch.setattr(os, "nice", lambda step: order.append(f"nice {step}"))
    monkeypatch.setattr(warm, "_LOWERED", False)
    warm._refresh(ws)
    warm._refresh(ws)
    assert order == ["refresh", "nice 10", "refresh"]
