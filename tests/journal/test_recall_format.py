"""Deep recall's text: passages chosen best first, written grouped by file, within budget."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from workmem.files.store import Store
from workmem.journal import BudgetConfig, MemoryLoader
from workmem.journal.budget import PhaseText
from workmem.journal.daily import append_entry
from workmem.journal.recall import Passage, add_passages, grouped
from workmem.retrieval.tokens import count_tokens
from workmem.root import Workspace

TITLE = "## Deep recall (search)"


def _passage(n: int, path: str, line: int, body: str, title: str = "") -> Passage:
    day = path.rsplit("/", 1)[-1].removesuffix(".md")
    return Passage(f"search:{n:012x}", path, line, day, title or f"Entry {n}", body)


def test_passages_are_grouped_by_file_in_the_order_of_their_best() -> None:
    ranked = [
        _passage(1, "memory/2026-05-02.md", 40, "We chose Redis for the limiter."),
        _passage(2, "memory/2026-05-01.md", 9, "Benchmarked three stores."),
        _passage(3, "memory/2026-05-02.md", 12, "Compared Redis and Memcached."),
    ]
    text = grouped(TITLE, ranked)
    assert text.count("### memory/2026-05-02.md") == 1
    assert text.count("### memory/2026-05-01.md") == 1
    assert text.index("2026-05-02.md") < text.index("2026-05-01.md")  # the best file first
    # Inside a file the passages read in file order, each under its own heading.
    assert text.index("Entry 3: Compared Redis") < text.index("Entry 1: We chose Redis")


def test_the_date_is_said_only_where_the_file_name_does_not_say_it() -> None:
    in_log = _passage(1, "memory/2026-05-02.md", 3, "Shipped.")
    in_threads = Passage("search:2", "memory/threads.md", 7, "2026-04-30", "thread-auth", "Done.")
    untitled = Passage("search:3", "MEMORY.md", 12, None, "", "Prefers short answers.")
    assert in_log.entry() == "Entry 1: Shipped.\n"
    assert in_threads.entry() == "thread-auth · 2026-04-30: Done.\n"
    assert untitled.entry() == "line 12: Prefers short answers.\n"


def test_a_tight_budget_keeps_the_best_passages_and_says_what_was_left_out() -> None:
    ranked = [
        _passage(n, f"memory/2026-05-{1 + n % 4:02d}.md", 10 * n, f"Finding number {n}. " * 6)
        for n in range(1, 21)
    ]
    phase = PhaseText("deep", 220, count_tokens)
    loaded = add_passages(phase, TITLE, ranked)
    text = phase.text()
    assert 0 < loaded < len(ranked)
    assert phase.tokens <= 220 and count_tokens(text) <= 220
    # The best ones are in, whatever their file order; the rest are named and counted.
    for passage in ranked[:loaded]:
        assert passage.body.strip() in text and passage.key in phase.loaded
    for passage in ranked[loaded:]:
        assert passage.body.strip() not in text and passage.key in phase.omitted
    assert f"… {len(ranked) - loaded} more passages omitted" in text


def test_a_first_passage_longer_than_the_budget_is_clipped_not_dropped() -> None:
    huge = _passage(1, "memory/2026-05-02.md", 5, "The whole incident log. " * 400)
    phase = PhaseText("deep", 120, count_tokens)
    assert add_passages(phase, TITLE, [huge]) == 1
    assert "The whole incident log." in phase.text()
    assert "cut to fit the budget" in phase.text()
    assert phase.tokens <= 120


def test_no_room_for_anything_loads_nothing_and_names_it() -> None:
    phase = PhaseText("deep", 3, count_tokens)
    assert add_passages(phase, TITLE, [_passage(1, "memory/2026-05-02.md", 5, "x " * 50)]) == 0
    assert phase.text() == "" and phase.omitted == ["search:000000000001"]


def test_the_loader_writes_each_file_once_and_stays_within_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "workmem.toml").write_text('[search]\nembedder = "none"\n', encoding="utf-8")
    store = Store(Workspace(root))
    for day in range(1, 11):
        for n in range(6):
            append_entry(
                store,
                date(2026, 4, day),
                f"Session {n} · 1{n}:00 · claude-code",
                f"Rate limiter work, step {n} of day {day}: tuned the token bucket.",
            )
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    budget = BudgetConfig(total=900)
    context = MemoryLoader(root).load_session_context(
        "What did we do on the rate limiter token bucket?", budget
    )
    deep = context.text.split(TITLE, 1)[1]
    files = [line for line in deep.split("\n") if line.startswith("### memory/")]
    assert files and len(files) == len(set(files))  # each file named once
    assert "Session 3 · 13:00 · claude-code: Rate limiter work, step 3" in deep
    assert context.total_tokens <= 900
    passages = context.metadata["phases"]["deep"]["loaded"]
    assert sum(key.startswith("search:") for key in passages) > 10
