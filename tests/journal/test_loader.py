"""The 4-phase loader: strategies by gap, Phase 3 branches, budgets that are never exceeded."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.journal import BudgetConfig, MemoryLoader, MemoryWriter, init
from workmem.retrieval.tokens import count_tokens

MEMORY = """# Long-term memory

## Active

### Project
- The API is REST over HTTP/2 (2026-05-01)
- Deploys go through the staging cluster first (2026-05-10)

### Feedback
- Prefers short answers with one example (2026-05-12)

### User
- Alice, backend engineer, works in Taipei (2026-04-01)

### Reference
- Runbook: docs/runbook.md (2026-05-02)

## Fading
- Used to deploy on Fridays (2026-01-10)

## Maintenance Log
- 2026-05-01: curated, merged 2 duplicates
"""


def _workspace(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    init(root)
    (root / "MEMORY.md").write_text(MEMORY, "utf-8")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-24 17:00")
    writer = MemoryWriter(root)
    writer.note_event(
        "purchase",
        "I bought white Adidas sneakers on 3/15.",
        "purchase",
        "white adidas sneakers",
        "2023-03-15",
    )
    writer.note_event("meeting", "昨天跟房東見面談續約", session_date="2026-05-24")
    writer.end_session(
        "Designed the auth token flow; parser work paused.",
        "I'm midway through the auth redesign: refresh tokens next. Alice wants it short.",
        {
            "thread-auth-redesign": {
                "title": "Auth redesign",
                "current_position": "JWT access tokens done; refresh tokens next.",
                "new_open_questions": ["How long should refresh tokens live?"],
            },
            "thread-parser": {"title": "Markdown parser", "current_position": "Paused."},
            "thread-記憶": {"title": "記憶系統設計", "current_position": "正在寫載入器。"},
        },
        mood="focused",
    )
    return root


@pytest.mark.parametrize(
    "now, strategy, first_line_tail",
    [
        ("2026-05-24 17:30", "light", "light reload · last session 30 min ago"),
        ("2026-05-25 09:00", "standard", "standard reload · last session 16.0 h ago"),
        ("2026-05-27 09:00", "full_reload", "full reload · last session 2.7 days ago"),
        ("2026-06-20 09:00", "deep_reload", "deep reload · last session 26.7 days ago"),
    ],
)
def test_strategy_follows_the_gap(
    root: Path, monkeypatch: pytest.MonkeyPatch, now: str, strategy: str, first_line_tail: str
) -> None:
    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", now)
    context = MemoryLoader(root).load_session_context("hello")
    assert context.metadata["strategy"] == strategy
    first_line = context.text.split("\n", 1)[0]
    assert first_line == f"# Working memory · {now} · {first_line_tail}"
    assert "_" not in first_line  # the strategy ids stay in the metadata
    assert "## Orientation (state.json)" in context.text
    assert "refresh tokens next. Alice wants it short." in context.text  # Phase 2 always
    has_memory = "Deploys go through the staging cluster" in context.text
    assert has_memory == (strategy != "light")


def test_no_state_means_deep_reload(root: Path) -> None:
    context = MemoryLoader(root).load_session_context("hi")
    assert context.metadata["strategy"] == "deep_reload"
    assert context.text.split("\n", 1)[0].endswith("· deep reload")
    assert "- No earlier session recorded." in context.text


def test_orientation_says_what_the_message_loaded_in_plain_words(root: Path) -> None:
    context = MemoryLoader(root).load_session_context("What did we decide about the cache?")
    assert context.metadata["branches"] == ["new_topic", "recall"]
    orientation = context.text.split("## Orientation (state.json)")[1].split("\n## ")[0]
    assert "- Loaded for this message: a new topic, memory search." in orientation
    for internal in ("Phase", "new_topic", "recall.", "deep_reload"):
        assert internal not in orientation


def test_thresholds_come_from_settings(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _workspace(root, monkeypatch)
    (root / "workmem.toml").write_text("[journal]\nlight_hours = 20\n", "utf-8")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    assert MemoryLoader(root).load_session_context("x").metadata["strategy"] == "light"


def test_bad_journal_settings_are_errors_naming_the_key(root: Path) -> None:
    from workmem.config import load_settings
    from workmem.errors import FormatError
    from workmem.journal.settings import journal_settings
    from workmem.root import Workspace

    config = root / "workmem.toml"
    for bad, key in (
        ("light_hour = 2", "light_hour"),
        ("review_every = -1", "review_every"),
        ("recent_logs = true", "recent_logs"),
        ("standard_hours = 'soon'", "standard_hours"),
    ):
        config.write_text(f"[journal]\n{bad}\n", "utf-8")
        with pytest.raises(FormatError, match=key):
            journal_settings(load_settings(Workspace(root)))
    config.write_text("[journal]\nreview_every = 3\nlight_hours = 1\n", "utf-8")
    settings = journal_settings(load_settings(Workspace(root)))
    assert (settings.review_every, settings.light_hours) == (3, 1.0)
    assert isinstance(settings.review_every, int) and isinstance(settings.light_hours, float)


def test_known_thread_loads_that_thread_and_one_memory_section(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    context = MemoryLoader(root).load_session_context("Let's finish the auth redesign today")
    meta = context.metadata
    assert meta["branches"][0] == "known_thread"
    assert meta["matched_threads"] == ["thread-auth-redesign"]
    assert "How long should refresh tokens live?" in context.text
    assert "### thread-auth-redesign — Auth redesign" in context.text  # nested one level down
    assert "Used to deploy on Fridays" not in context.text  # not the whole MEMORY.md
    assert "thread:thread-parser" not in meta["phases"]["context"]["loaded"]


def test_chinese_message_finds_the_chinese_thread(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    context = MemoryLoader(root).load_session_context("繼續記憶系統的設計")
    assert context.metadata["matched_threads"] == ["thread-記憶"]
    assert "正在寫載入器。" in context.text


def test_new_topic_loads_memory_and_every_thread_header(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    context = MemoryLoader(root).load_session_context("Can we set up CI caching?")
    # A question about the work in front of the agent is no recall question: no search.
    assert context.metadata["branches"] == ["new_topic"]
    for text in ("## Long-term memory (MEMORY.md)", "Prefers short answers", "Alice, backend"):
        assert text in context.text
    for thread in ("**thread-auth-redesign**", "**thread-parser**", "**thread-記憶**"):
        assert thread in context.text


def test_maintenance_due_loads_fading_log_and_recent_summaries(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    for hour in range(18, 23):
        monkeypatch.setenv("WORKMEM_NOW", f"2026-05-24 {hour}:00")
        MemoryWriter(root).end_session(f"Small fix {hour}", f"Nothing open after {hour}.")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    context = MemoryLoader(root).load_session_context("morning")
    assert "maintenance_due" in context.metadata["branches"]
    assert "Memory review due" in context.text
    assert "Used to deploy on Fridays" in context.text
    assert "## Recent daily logs" in context.text
    assert "Small fix 22" in context.text


def test_date_question_loads_events_ranked_by_date(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    context = MemoryLoader(root).load_session_context("what did I buy in March?")
    assert "event_sensitive" in context.metadata["branches"]
    assert "## Events (events.json, by date, newest first)" in context.text
    assert "2023-03-15 · purchase [white adidas sneakers]" in context.text
    week = MemoryLoader(root).load_session_context("上週做了什麼")
    assert "2026-05-23 · meeting: 昨天跟房東見面談續約" in week.text
    assert "white adidas" not in week.text


@pytest.mark.parametrize("total", [40, 90, 150, 260, 400, 700, 1200, 4000])
def test_the_budget_is_never_exceeded(
    root: Path, monkeypatch: pytest.MonkeyPatch, total: int
) -> None:
    _workspace(root, monkeypatch)
    big = "\n".join(f"- Fact number {i}: the service keeps {i} replicas warm" for i in range(300))
    (root / "MEMORY.md").write_text(
        MEMORY.replace("### Feedback", big + "\n\n### Feedback"), "utf-8"
    )
    monkeypatch.setenv("WORKMEM_NOW", "2026-06-20 09:00")  # deep reload: every phase wants more
    budget = BudgetConfig(total=total, orient=120, anchor=120, context=900, deep=900)
    context = MemoryLoader(root).load_session_context("what did I buy in March?", budget)
    assert context.total_tokens == count_tokens(context.text)
    assert context.total_tokens <= total
    for name, phase in context.metadata["phases"].items():
        assert phase["tokens"] <= getattr(budget, name), name


def test_what_did_not_fit_is_said_and_listed(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _workspace(root, monkeypatch)
    writer = MemoryWriter(root)
    for i in range(40):
        writer.note_event("purchase", f"Bought item {i} on 2026-03-{i % 28 + 1:02d}")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    budget = BudgetConfig(total=1500, orient=250, anchor=300, context=300, deep=200)
    context = MemoryLoader(root).load_session_context("what did I buy in March?", budget)
    omitted = [k for k in context.metadata["omitted"] if k.startswith("event:")]
    assert omitted
    assert f"… {len(omitted)} more events omitted (token budget)" in context.text
    shown = [line for line in context.text.split("\n") if line.startswith("- 2026-03-")]
    days = [line[2:12] for line in shown]
    assert days == sorted(days, reverse=True)  # newest first


def test_damaged_files_are_skipped_with_a_warning(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    (root / "memory" / "threads.md").write_bytes(b"## thread-x\n\xff\xfe broken\n")
    (root / "memory" / "state.json").write_text("{not json", "utf-8")
    context = MemoryLoader(root).load_session_context("auth redesign")
    warnings = " ".join(context.metadata["warnings"])
    assert "threads.md" in warnings and "state.json" in warnings
    assert "refresh tokens next" in context.text  # resumption still loads


def test_recall_question_searches_the_logs(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    context = MemoryLoader(root).load_session_context(
        "Do you remember what we decided on the auth token flow?"
    )
    assert "recall" in context.metadata["branches"]
    assert "## Deep recall" in context.text
    assert "Designed the auth token flow" in context.text


def test_a_recall_lookup_describes_its_hits_and_the_loader_only_writes_them(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.retrieval import analyze

    _workspace(root, monkeypatch)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    made: list[str] = []
    plain_snippet = analyze.snippet

    def counting(text: str, needles: list[str], width: int = 160) -> str:
        made.append(text)
        return plain_snippet(text, needles, width)

    monkeypatch.setattr(analyze, "snippet", counting)
    context = MemoryLoader(root).load_session_context("What did we decide on the auth token flow?")
    assert "Designed the auth token flow" in context.text
    assert made == []  # the session start wrote passages and described nothing
    found = MemoryLoader(root).phase_4_search("auth token flow", budget_tokens=400)
    assert "Designed the auth token flow" in found.text
    assert found.items and all(item["snippet"] for item in found.items)
    assert len(made) == len(found.items)


def test_budget_config_is_checked() -> None:
    from workmem.errors import UsageError

    with pytest.raises(UsageError):
        BudgetConfig(total=-1)
    with pytest.raises(UsageError):
        BudgetConfig.from_mapping({"totl": 10})
    assert BudgetConfig.from_mapping({"total": 900}).total == 900


def test_bom_crlf_and_huge_files_load_within_budget(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    crlf = ("\ufeff" + MEMORY).replace("\n", "\r\n").encode("utf-8")
    (root / "MEMORY.md").write_bytes(crlf)
    huge = "# 2026-05-23\n\n" + "\n".join(
        f"- line {i} of a runaway tool dump" for i in range(120_000)
    )
    (root / "memory" / "2026-05-23.md").write_text(huge, "utf-8")
    assert (root / "memory" / "2026-05-23.md").stat().st_size > 3_000_000
    monkeypatch.setenv("WORKMEM_NOW", "2026-06-20 09:00")  # deep reload reads the newest logs
    budget = BudgetConfig(total=3000)
    context = MemoryLoader(root).load_session_context("new topic", budget)
    assert "Deploys go through the staging cluster first" in context.text  # BOM/CRLF read
    assert "\r" not in context.text
    assert context.total_tokens <= 3000
    assert "log:2026-05-23 (clipped)" in context.metadata["phases"]["deep"]["loaded"] or (
        "log:2026-05-23" in context.metadata["omitted"]
    )
    assert (root / "MEMORY.md").read_bytes() == crlf  # loading never writes


def test_a_thread_without_a_title_is_found_by_the_words_of_its_id(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    MemoryWriter(root).end_session(
        "s", "n", {"thread-auth": {"current_position": "Lifetimes set."}}
    )
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-26 09:00")
    context = MemoryLoader(root).load_session_context("Morning! Back to the auth redesign.")
    assert context.metadata["matched_threads"] == ["thread-auth"]


def test_naming_a_thread_does_not_also_name_its_prefix() -> None:
    from workmem.journal.strategy import match_threads
    from workmem.journal.threads import ThreadsDoc

    doc = ThreadsDoc.parse("## thread-auth\n\n## thread-auth-redesign\n")
    found = match_threads("continue thread-auth-redesign please", doc.threads)
    assert found[0].thread.id == "thread-auth-redesign"
    assert found[0].why == "named" and all(m.why != "named" for m in found[1:])


def test_a_question_funds_deep_recall_before_the_broad_context(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(root, monkeypatch)
    from datetime import date

    from workmem.files.store import Store
    from workmem.journal.daily import append_entry
    from workmem.root import Workspace

    store = Store(Workspace(root))
    for day in range(1, 20):
        append_entry(store, date(2026, 4, day), "Work", f"Routine maintenance on day {day}. " * 20)
    append_entry(store, date(2026, 4, 7), "Decision", "We chose Redis for the rate limiter.")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 09:00")
    for question in ("What did we choose for the rate limiter?", "限流器最後用了什麼"):
        context = MemoryLoader(root).load_session_context(question, BudgetConfig(total=700))
        assert "recall" in context.metadata["branches"]
        assert context.total_tokens <= 700
    context = MemoryLoader(root).load_session_context(
        "What did we choose for the rate limiter?", BudgetConfig(total=700)
    )
    assert "We chose Redis for the rate limiter." in context.text


@pytest.mark.parametrize(
    ("message", "recall"),
    [
        ("how do I run the tests?", False),
        ("Can we set up CI caching?", False),
        ("what's wrong with the parser?", False),
        ("why does the build fail on main?", False),
        ("這個測試為什麼會失敗？", False),
        ("このテストはなぜ失敗するの？", False),
        ("이 테스트 왜 실패해?", False),
        ("please fix the flaky test in auth", False),
        ("What did we decide about the cache?", True),
        ("When did Caroline go to the support group?", True),
        ("What is Caroline's relationship status?", True),
        ("我們上次決定用什麼資料庫？", True),
        ("前回何を決めましたか？", True),
        ("지난주에 뭐 결정했지?", True),
        ("Do you remember the auth token flow", True),
    ],
)
def test_deep_recall_runs_for_recall_questions_only(message: str, recall: bool) -> None:
    """Seed 004 keeps most sessions in Phases 1-3: the deep phase's search is for questions
    the memory answers (the past, someone by name), not every question."""
    from workmem.journal.strategy import wants_recall

    assert wants_recall(message) is recall


def _many_logs(root: Path, count: int) -> None:
    from datetime import date, timedelta

    from workmem.files.store import Store
    from workmem.journal.daily import append_entry
    from workmem.journal.log_index import rebuild
    from workmem.root import Workspace

    store = Store(Workspace(root))
    first = date(2026, 3, 1)
    for n in range(count):
        body = f"Routine work on day {n}."
        if n == 2:
            body = "Migrated the zephyr billing exporter to the new queue."
        append_entry(store, first + timedelta(days=n), "Session", body)
    rebuild(store, Workspace(root))


def test_past_thirty_logs_the_deep_phase_picks_logs_through_the_log_index(root: Path) -> None:
    """Seed 004: the daily-log index is for "when daily logs exceed ~30"."""
    _many_logs(root, 35)
    context = MemoryLoader(root).load_session_context("Back to the zephyr billing exporter")
    assert context.metadata["strategy"] == "deep_reload"
    assert "memory/log-index.md" in context.metadata["files"]
    assert "daily logs chosen through log-index.md" in context.text
    assert "Migrated the zephyr billing exporter" in context.text  # 33 days old: found by its row
    assert "2026-04-04.md" in context.text  # the newest fill the rest


def test_few_logs_or_a_broken_index_load_the_newest_logs(root: Path) -> None:
    _many_logs(root, 12)
    context = MemoryLoader(root).load_session_context("Back to the zephyr billing exporter")
    assert "memory/log-index.md" not in context.metadata["files"]
    assert "## Deep recall (newest daily logs)" in context.text
    _many_logs(root, 35)
    (root / "memory" / "log-index.md").write_text("| Date | Nope |\n|---|---|\n| x | y |\n")
    context = MemoryLoader(root).load_session_context("Back to the zephyr billing exporter")
    assert "## Deep recall (newest daily logs)" in context.text
    assert any("daily-log index" in w for w in context.metadata["warnings"])
