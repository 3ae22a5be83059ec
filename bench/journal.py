"""Working-memory benchmark: a year of memory, then `workmem load` and `end_session`.

Builds a root with 365 daily logs, 200 threads, 5,000 events and a full MEMORY.md, then
prints: the median wall time of `workmem load "…"` (a fresh process each, as an agent's
session-start hook runs it) for messages that take each Phase 3 branch, the in-process
time, tokens against the budget, and the median time of `end_session`. With the shared
LoCoMo data present it also prints how often event lookup puts the annotated day first.
Target: load under 250 ms median on a 2-core machine.

    .venv/bin/python bench/journal.py [--runs 9] [--tokenizer bpe|estimate]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from workmem.files.store import atomic_write_bytes

NOW = datetime(2026, 5, 25, 13, 18)
MESSAGES = {
    "known thread": "Let's continue the billing service migration, thread-billing-042",
    "new topic": "Can we set up caching for the CI pipeline?",
    "date question": "What did I buy in March?",
    "chinese date": "上週做了什麼？",
    "recall (search)": "Do you remember what we decided about the retry policy?",
}
TOPICS = [
    "billing",
    "auth",
    "parser",
    "search",
    "deploy",
    "metrics",
    "cache",
    "queue",
    "ui",
    "docs",
]
OBJECTS = ["sneakers", "laptop", "coffee grinder", "desk lamp", "headphones", "bike", "keyboard"]


def _write(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def build_root(root: Path, seed: int = 7) -> None:
    rng = random.Random(seed)
    memory = root / "memory"
    memory.mkdir(parents=True)
    threads = []
    for n in range(200):
        topic = TOPICS[n % len(TOPICS)]
        decisions = "\n".join(
            f"- 2026-0{1 + k % 5}-{10 + k:02d}: decided {topic} option {k} "
            "[ref: memory/2026-05-01.md]"
            for k in range(rng.randint(2, 6))
        )
        questions = "\n".join(
            f"- Should {topic} {n} handle case {k}?" for k in range(rng.randint(1, 4))
        )
        touched = (NOW - timedelta(days=rng.randint(0, 300))).strftime("%Y-%m-%d %H:%M")
        threads.append(
            f"## thread-{topic}-{n:03d} — {topic.title()} service migration {n}\n\nStatus: active\n"
            f"Last touched: {touched} (session {n})\n\n### Current Position\n\n"
            f"Step {n % 7} of the {topic} migration; the retry policy is exponential backoff.\n\n"
            f"### Decisions\n\n{decisions}\n\n### Open Questions\n\n{questions}\n"
        )
    _write(memory / "threads.md", "# Threads\n\n" + "\n".join(threads))
    for offset in range(365):
        day = NOW.date() - timedelta(days=offset + 1)
        entries = [f"# {day.isoformat()}\n"]
        for s in range(rng.randint(1, 2)):
            topic = rng.choice(TOPICS)
            entries.append(
                f"### Session {offset * 2 + s} · {9 + s * 5:02d}:00 · cursor-main-agent\n\n"
                f"**Summary:** Worked on the {topic} service: retries, timeouts and tests.\n\n"
                f"#### Decisions\n- Use exponential backoff for {topic} "
                f"[ref: thread-{topic}-001]\n\n"
                f"#### Resumption note\n> Next I check the {topic} dashboards.\n"
            )
        _write(memory / f"{day.isoformat()}.md", "\n".join(entries))
    events = []
    for n in range(5000):
        day = date(2023, 1, 1) + timedelta(days=rng.randint(0, 1240))
        obj = rng.choice(OBJECTS)
        events.append(
            {
                "id": f"evt-{n + 1:05d}",
                "type": rng.choice(["purchase", "meeting", "issue", "milestone"]),
                "text": f"I bought a {obj} on {day:%B} {day.day}.",
                "object_hint": obj,
                "normalized_date": day.isoformat(),
                "session_date": day.isoformat(),
            }
        )
    _write(memory / "events.json", json.dumps({"version": 1, "events": events}, indent=2) + "\n")
    facts = "\n".join(
        f"- Fact {n}: the {TOPICS[n % 10]} service keeps {n} replicas (2026-04-{1 + n % 28:02d})"
        for n in range(120)
    )
    _write(
        root / "MEMORY.md",
        f"# Long-term memory\n\n## Active\n\n### Project\n{facts}\n\n"
        "### Feedback\n- Short answers\n\n### User\n- Alice\n\n### Reference\n"
        "- docs/runbook.md\n\n## Fading\n- Old fact (2025-01-01)\n\n"
        "## Maintenance Log\n- 2026-05-01: curated\n",
    )
    state = {
        "version": 1,
        "session_count": 540,
        "last_session": (NOW - timedelta(hours=16)).strftime("%Y-%m-%d %H:%M"),
        "last_summary": "Worked on billing retries",
        "sessions_since_review": 2,
        "flags": {"memory_review_due": False},
        "active_threads": ["thread-billing-000"],
    }
    _write(memory / "state.json", json.dumps(state, indent=2) + "\n")
    _write(
        memory / "resumption.md", "# Resumption\n\nI was in the middle of the billing retries.\n"
    )


def load_command() -> list[str]:
    from workmem.cli import COMMANDS

    if "load" in COMMANDS:
        return [sys.executable, "-m", "workmem", "load"]
    return [sys.executable, "-m", "workmem.cli.journal_cmds", "load"]


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:7.1f} ms"


def bench_cli(root: Path, runs: int, env: dict[str, str]) -> None:
    command = load_command()
    print(f'\n`{" ".join(["workmem", *command[3:]])} "…" --json`, {runs} fresh processes each')
    print(
        f"{'message':<18} {'median':>10} {'min':>10} {'tokens':>8} {'budget':>7}  strategy/branches"
    )
    for label, message in MESSAGES.items():
        samples = []
        payload: dict = {}  # type: ignore[type-arg]
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [*command, message, "--json"], env=env, capture_output=True, text=True
            )
            samples.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(done.stderr)
            payload = json.loads(done.stdout)
        meta = payload["metadata"]
        print(
            f"{label:<18} {median_ms(samples)} {min(samples) * 1000:7.1f} ms "
            f"{payload['total_tokens']:>8} "
            f"{meta['budget']['total']:>7}  {meta['strategy']}: {', '.join(meta['branches'])}"
        )


def bench_in_process(root: Path, runs: int) -> None:
    from workmem.journal import MemoryLoader

    print(f"\nIn-process MemoryLoader(root).load_session_context(…), median of {runs}")
    for label, message in MESSAGES.items():
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            context = MemoryLoader(root).load_session_context(message)
            samples.append(time.perf_counter() - start)
        omitted = len(context.metadata["omitted"])
        print(
            f"{label:<18} {median_ms(samples)}  {context.total_tokens} tokens, "
            f"{omitted} items omitted"
        )


def bench_end(root: Path, runs: int) -> None:
    from workmem.journal import MemoryWriter

    samples = []
    for n in range(runs):
        os.environ["WORKMEM_NOW"] = (NOW + timedelta(minutes=n)).strftime("%Y-%m-%d %H:%M")
        writer = MemoryWriter(root)
        writer.note_decision(f"Keep retries at {n}", "measured", thread="thread-billing-000")
        writer.note_event("purchase", f"I bought a cable yesterday ({n})")
        start = time.perf_counter()
        writer.end_session(
            f"Bench session {n}",
            "I'll pick up the billing retries.",
            {"thread-billing-000": {"current_position": f"Retries tuned ({n})"}},
        )
        samples.append(time.perf_counter() - start)
    print(
        "\nend_session (daily log, 200 threads, 5,000 events, index, state), "
        f"median of {runs}: {median_ms(samples)}"
    )


def bench_locomo(shared: Path) -> None:
    data_file = shared / "data" / "locomo" / "locomo_dev.json"
    if not data_file.is_file():
        print("\nLoCoMo event lookup: skipped (shared data not found)")
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.journal.test_dates import _gold_day, _session_day

    from workmem.journal.dates import first_date
    from workmem.journal.event_rank import rank_events
    from workmem.journal.events import NewEvent, build_event

    questions = top1 = top3 = 0
    for sample in json.loads(data_file.read_text("utf-8")):
        conversation, events = sample["conversation"], []
        for key, turns in conversation.items():
            if key.startswith("session_") and isinstance(turns, list):
                said_on = _session_day(conversation[f"{key}_date_time"])
                for turn in turns:
                    text = f"{turn['speaker']}: {turn['text']}"
                    events.append(
                        build_event(
                            NewEvent(
                                "said",
                                text,
                                None,
                                None,
                                first_date(turn["text"], said_on),
                                said_on,
                                "bench",
                            )
                        )
                    )
        for qa in sample["qa"]:
            gold = _gold_day(qa.get("answer")) if qa["category"] == 2 else None
            if gold is None:
                continue
            questions += 1
            days = [
                m.event.day
                for m in rank_events(events, qa["question"], date(2024, 1, 1), limit=3).matches
            ]
            top1 += days[:1] == [gold]
            top3 += gold in days
    print(
        f"\nLoCoMo dev (every turn an event, dates normalized from the text): {questions} "
        f"day-precise 'when' questions; annotated day first: {top1}, in the top 3: {top3}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--tokenizer", choices=["bpe", "estimate"], default=None)
    args = parser.parse_args()
    if args.tokenizer:
        os.environ["WORKMEM_TOKENIZER"] = args.tokenizer
    os.environ["WORKMEM_NOW"] = NOW.strftime("%Y-%m-%d %H:%M")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        start = time.perf_counter()
        build_root(root)
        print(
            "root: 365 daily logs, 200 threads, 5,000 events "
            f"(built in {time.perf_counter() - start:.1f} s)"
        )
        from workmem.retrieval.tokens import tokenizer_name

        print(f"tokenizer: {tokenizer_name()}")
        env = {**os.environ, "WORKMEM_ROOT": str(root)}
        os.environ["WORKMEM_ROOT"] = str(root)
        # the search index is built on first use; build it once so every run measures a query
        from workmem.journal import MemoryLoader

        start = time.perf_counter()
        MemoryLoader(root).load_session_context(MESSAGES["recall (search)"])
        print(
            "first recall load (builds the search index): "
            f"{(time.perf_counter() - start) * 1000:.0f} ms"
        )
        bench_cli(root, args.runs, env)
        bench_in_process(root, args.runs)
        bench_end(root, args.runs)
    shared = Path(
        os.environ.get("WORKMEM_SHARED", Path(__file__).resolve().parent.parent.parent / "shared")
    )
    bench_locomo(shared)


if __name__ == "__main__":
    main()
