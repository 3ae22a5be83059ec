"""Working memory (seed 004) rules an audit found partial, and a year of use found wrong.

Each test is named after the rule it checks (issue 15: "Working Memory (004)" and "Found
by a simulated year of use").
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from workmem.facts.memory_md import read_tiers
from workmem.journal import MemoryLoader, MemoryWriter, init
from workmem.journal.budget import BudgetConfig
from workmem.journal.migrate import migrate

# -- curation promotes patterns; its messages say what they found -----------------------


def _end_with_pattern(root: Path, monkeypatch: pytest.MonkeyPatch, day: str, text: str) -> None:
    monkeypatch.setenv("WORKMEM_NOW", f"{day} 10:00")
    writer = MemoryWriter(root)
    writer.note_pattern(text)
    writer.end_session(f"Work of {day}", "Next")


def test_a_pattern_noted_in_three_sessions_is_promoted_by_curate(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    init(root)
    _end_with_pattern(root, monkeypatch, "2026-05-20", "User asks for examples after theory")
    _end_with_pattern(root, monkeypatch, "2026-05-21", "Prefers tables")
    _end_with_pattern(root, monkeypatch, "2026-05-22", "user asks for examples after theory.")
    report = MemoryWriter(root).run_curation()
    assert "examples" not in read_tiers((root / "MEMORY.md").read_text("utf-8")).active_intro
    assert not [m for m in report.promoted if "examples" in m.text]
    _end_with_pattern(root, monkeypatch, "2026-05-23", "User asks for examples after theory!")
    dry = MemoryWriter(root).run_curation(dry_run=True)
    assert [m.text for m in dry.promoted if m.reason == "confirmed"]
    report = MemoryWriter(root).run_curation()
    tiers = read_tiers((root / "MEMORY.md").read_text("utf-8"))
    promoted = tiers.active["Patterns"]
    assert "User asks for examples after theory!" in promoted
    assert "noted in 3 sessions, last 2026-05-23" in promoted
    assert "Prefers tables" not in promoted
    MemoryWriter(root).run_curation()  # a second curation does not add it again
    again = read_tiers((root / "MEMORY.md").read_text("utf-8")).active["Patterns"]
    assert again.count("examples after theory") == 1


def test_the_no_tiers_note_appears_only_when_memory_had_no_tiers(root: Path) -> None:
    from workmem.facts.curate import curate
    from workmem.root import Workspace

    memory = root / "MEMORY.md"
    memory.write_text("# M\n\n## Active\n\n### Project\n- a (2026-05-20)\n\n## Fading\n", "utf-8")
    notes = curate(Workspace(root)).notes
    assert not any("no tiers" in n for n in notes)
    assert any("lacked some of its standard sections" in n for n in notes)
    memory.write_text("# M\n\n- likes tea\n", "utf-8")
    assert any("had no tiers" in n for n in curate(Workspace(root)).notes)


# -- event find lists by date when it says "by date" -------------------------------------


def test_event_find_by_date_lists_in_date_order(root: Path) -> None:
    writer = MemoryWriter(root)
    writer.note_event(
        "purchase", "I bought sneakers.", object_hint="sneakers", normalized_date="2023-03-15"
    )
    writer.note_event("meeting", "Met the landlord.", normalized_date="2025-03-02")
    writer.note_event(
        "purchase", "I bought a laptop.", object_hint="laptop", normalized_date="2024-03-20"
    )
    writer.note_event("purchase", "I bought a bike.", normalized_date="2024-06-01")
    found = MemoryLoader(root).phase_4_event_lookup("what did I buy in March?")
    assert "(by date, newest first)" in found.text
    assert [e["normalized_date"] for e in found.items] == ["2025-03-02", "2024-03-20", "2023-03-15"]


# -- a thread is found by the words of its title -----------------------------------------


def test_a_thread_is_matched_by_a_word_only_its_title_has(root: Path) -> None:
    MemoryWriter(root).end_session(
        "Set up threads",
        "Next",
        {
            "thread-zephyr-ci": {"title": "Zephyr pipeline", "current_position": "Green."},
            "thread-auth-api": {"title": "Auth", "current_position": "Tokens."},
            "thread-search-api": {"title": "Search", "current_position": "Ranking."},
        },
    )
    loader = MemoryLoader(root)
    asked = loader.load_session_context("What was the last thing we decided on CI?")
    assert asked.metadata["matched_threads"] == ["thread-zephyr-ci"]
    assert "Green." in asked.text
    shared = loader.load_session_context("Let's look at the API again")
    assert shared.metadata["matched_threads"] == []  # a word two titles share names neither
    both = loader.load_session_context("search api ranking")
    assert both.metadata["matched_threads"][0] == "thread-search-api"


# -- migrate does not repeat a label -------------------------------------------------------


def test_migrate_never_writes_summary_twice(root: Path) -> None:
    (root / "AGENT.md").write_text("# Agent\nBe kind.\n", "utf-8")
    (root / "MEMORY.md").write_text("# Memory\n- likes tea\n", "utf-8")
    logs = root / "memory"
    logs.mkdir()
    (logs / "2026-05-20.md").write_text(
        "# 2026-05-20\n\n## Summary\nSummary: Parser handles tables now.\n", "utf-8"
    )
    (logs / "2026-05-21.md").write_text("# 2026-05-21\n\nSummary: Fixed the lexer.\n", "utf-8")
    migrate(root)
    written = "".join(
        (logs / name).read_text("utf-8") for name in ("resumption.md", "log-index.md")
    )
    assert "Summary: Summary:" not in written and "Last time: Summary:" not in written
    assert "Last time: Fixed the lexer." in written
    assert "| Parser handles tables now. |" in written
    state = json.loads((logs / "state.json").read_text("utf-8"))
    assert state["last_summary"] == "Fixed the lexer."


# -- an event's bare date is the most recent such date, unless it is a plan ---------------


@pytest.mark.parametrize(
    "kind, text, said, expected",
    [
        ("payment", "I paid the rent on December 31.", "2025-01-01", "2024-12-31"),
        ("move", "We moved in March.", "2025-01-10", "2024-03-01"),
        ("purchase", "I bought white Adidas sneakers on 3/15.", "2023-03-20", "2023-03-15"),
        ("purchase", "Bought it on 3/15.", "2023-03-15", "2023-03-15"),
        ("decision", "We decided on 12/31/2025 to ship.", "2025-01-01", "2025-12-31"),
        ("report", "The report is due on December 31.", "2025-01-01", "2025-12-31"),
        ("trip", "I plan to fly on 1/2.", "2025-06-01", "2026-01-02"),
        ("deadline", "Taxes on 4/15.", "2025-05-01", "2026-04-15"),
        ("meeting", "決定在 12月31日 上線", "2025-01-01", "2024-12-31"),
        ("meeting", "預計 12月31日 上線", "2025-01-01", "2025-12-31"),
    ],
)
def test_a_bare_date_in_an_event_is_the_most_recent_such_date_unless_planned(
    root: Path, kind: str, text: str, said: str, expected: str
) -> None:
    event = MemoryWriter(root).note_event(kind, text, session_date=said)
    assert event.normalized_date == expected, event


# -- the loader keeps the newest daily logs last to go -------------------------------------


def test_the_newest_daily_log_is_the_last_to_go_from_the_context_phase(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    init(root)
    memory = root / "memory"
    first = date(2025, 5, 1)
    for offset in range(365):  # a year of daily logs, each with a long summary
        day = first + timedelta(days=offset)
        summary = f"Work of {day}: " + "reviewed the parser and the index " * 6
        (memory / f"{day}.md").write_text(
            f"# {day}\n\n### Session {offset + 1} · 10:00 · a\n\n**Summary:** {summary}\n",
            "utf-8",
        )
    threads = ["# Threads", ""]
    for number in range(300):
        threads += [
            f"## thread-topic-{number} — Topic {number}",
            "",
            "Status: active",
            f"Last touched: 2026-04-{1 + number % 28:02d} 10:00",
            "",
            "### Current Position",
            "",
            f"Position of topic {number}, with enough words to cost some tokens.",
            "",
        ]
    (memory / "threads.md").write_text("\n".join(threads), "utf-8")
    facts = "\n".join(f"- Fact {i}: the service keeps {i} replicas warm" for i in range(180))
    (root / "MEMORY.md").write_text(
        f"# M\n\n## Active\n\n### Project\n{facts}\n\n## Fading\n\n## Maintenance Log\n", "utf-8"
    )
    state = {"session_count": 365, "last_session": "2026-04-30 10:00"}
    (memory / "state.json").write_text(json.dumps(state), "utf-8")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-03 09:00")  # a three-day gap: full reload
    context = MemoryLoader(root).load_session_context("", BudgetConfig(total=4000, context=1200))
    assert context.metadata["strategy"] == "full_reload"
    phase = context.metadata["phases"]["context"]
    assert "## Recent daily logs" in context.text
    assert "log:2026-04-30" in phase["loaded"]
    assert phase["tokens"] <= 1200
    assert "Work of 2026-04-30" in context.text
    assert any(key.startswith("thread:") for key in phase["omitted"])
