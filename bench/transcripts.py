"""Transcript benchmarks: full parse throughput, incremental update, heuristic notes.

Builds a ~50 MB Claude Code transcript by chaining copies of the real fixture (fresh
uuids, one parent chain, distinct response ids), then prints:
- full read throughput (MB/s) of ``read_transcript`` (targets: > 50 MB/s);
- the time of an incremental update after 100 new lines (target: < 50 ms);
- the time of one heuristic notes extraction over the whole transcript.

Run: ``.venv/bin/python bench/transcripts.py [--mb 50] [--fixtures ../shared/fixtures/transcripts]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURE = "claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"


def chained_copy(
    records: list[dict[str, Any]], copy: int, parent: str | None
) -> tuple[list[bytes], str | None]:
    lines = []
    for record in records:
        item = json.loads(json.dumps(record))
        if "uuid" in item:
            item["uuid"] = f"{item['uuid']}-{copy}"
            item["parentUuid"] = parent
            parent = item["uuid"]
        message = item.get("message")
        if isinstance(message, dict) and "id" in message:
            message["id"] = f"{message['id']}-{copy}"
        if "requestId" in item:
            item["requestId"] = f"{item['requestId']}-{copy}"
        lines.append(json.dumps(item, ensure_ascii=False).encode() + b"\n")
    return lines, parent


def build(
    path: Path, source: Path, megabytes: float
) -> tuple[int, list[dict[str, Any]], str | None]:
    records = [json.loads(line) for line in source.read_bytes().splitlines() if line.strip()]
    target = int(megabytes * 1024 * 1024)
    size = copies = 0
    parent: str | None = None
    with path.open("wb") as handle:
        while size < target:
            lines, parent = chained_copy(records, copies, parent)
            for line in lines:
                handle.write(line)
                size += len(line)
            copies += 1
    return copies, records, parent


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument(
        "--fixtures", default=str(REPO.parent / "shared" / "fixtures" / "transcripts")
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    source = Path(args.fixtures) / FIXTURE
    if not source.is_file():
        print(f"fixture not found: {source}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO / "src"))
    os.environ.setdefault("WORKMEM_NOW", "2026-05-25 13:18")
    from workmem.files.store import Store
    from workmem.notes.heuristic import extract_sections
    from workmem.root import Workspace
    from workmem.transcripts import read_transcript
    from workmem.transcripts.incremental import TranscriptTail

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "big.jsonl"
        copies, records, parent = build(path, source, args.mb)
        size_mb = path.stat().st_size / (1024 * 1024)
        print(
            f"transcript: {size_mb:.1f} MB, {copies} copies of the fixture, "
            f"{sum(1 for _ in path.open('rb')):,} lines"
        )

        times = []
        transcript = None
        for _ in range(args.runs):
            started = time.perf_counter()
            transcript = read_transcript(path, "claude-code")
            times.append(time.perf_counter() - started)
        assert transcript is not None
        best = min(times)
        print(
            f"full read: best {best:.2f} s, median {statistics.median(times):.2f} s "
            f"-> {size_mb / best:.0f} MB/s (target > 50 MB/s); "
            f"{len(transcript.messages):,} messages, {len(transcript.tool_calls):,} tool calls"
        )

        workspace = Workspace(folder / "ws")
        workspace.root.mkdir()
        tail = TranscriptTail(Store(workspace))
        started = time.perf_counter()
        tail.update(path, "claude-code")
        print(f"incremental first pass (whole file): {time.perf_counter() - started:.2f} s")
        increments = []
        for run in range(5):
            lines, parent = chained_copy(records, copies + run, parent)
            extra = (lines * (100 // len(lines) + 1))[:100]
            with path.open("ab") as handle:
                handle.writelines(extra)
            started = time.perf_counter()
            update = tail.update(path)
            increments.append(time.perf_counter() - started)
        print(
            f"incremental update after 100 new lines: median "
            f"{statistics.median(increments) * 1000:.1f} ms, max {max(increments) * 1000:.1f} ms "
            f"(target < 50 ms); offset {update.summary.offset:,}"
        )

        started = time.perf_counter()
        sections = extract_sections(transcript, {})
        elapsed = time.perf_counter() - started
        filled = sum(1 for v in sections.values() if v.strip())
        print(
            f"heuristic notes extraction over the whole transcript: {elapsed:.2f} s "
            f"({filled}/10 sections filled)"
        )

        # What the session-end hook does with [search] transcripts = true.
        searched = Workspace(folder / "searched")
        searched.root.mkdir()
        searched.config_file.write_text("[search]\ntranscripts = true\n", encoding="utf-8")
        from workmem.retrieval.search import index_transcript, search

        search(searched, "warm up")  # the empty index exists before the session ends
        started = time.perf_counter()
        report = index_transcript(searched, path)
        elapsed = time.perf_counter() - started
        started = time.perf_counter()
        search(searched, "rate limiting tests", kinds=["transcript"])
        print(
            f"indexing it for search (session-end hook, words only): {elapsed:.2f} s, "
            f"{report.chunks_added:,} chunks (session-end deadline 15 s); a search after it "
            f"{(time.perf_counter() - started) * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
