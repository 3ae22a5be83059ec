"""Questions in plain words find their answer: section families, weekdays, the latest
entries for "what's next", a graded-down pass for words the memory never uses, and hooks
that search by words only."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from workmem.retrieval import lexical, vocabulary
from workmem.retrieval.dates import bare_weekdays, query_range
from workmem.retrieval.search import search
from workmem.root import Workspace


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """Four days of a project's log (the clock is pinned to Monday 2026-05-25)."""
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    mem = root / "memory"
    write(
        mem / "2026-05-21.md",
        "# 2026-05-21\n\n### Session 1 · 17:00 · codex\n\n"
        "**Summary:** Wired the hook handlers into the CLI.\n\n"
        "#### Decisions\n- Keep the hook handlers in one file for now\n\n"
        "#### Files / Artifacts\n- `cli/hook_handlers.go` — modified; the handlers of every hook\n"
        "- `cli/hook_registry.go` — modified; registers the hook handlers\n\n"
        "#### Resumption note\n> Next: add the session-end handler.\n",
    )
    write(
        mem / "2026-05-22.md",
        "# 2026-05-22\n\n### Session 2 · 17:00 · codex\n\n"
        "**Summary:** Session-end handler added; CI is green.\n\n"
        "#### Resumption note\n> Next: release v0.3 to staging.\n",
    )
    write(
        mem / "2026-05-24.md",
        "# 2026-05-24\n\n### Session 3 · 12:00 · codex\n\n**Summary:** Lint cleanup.\n\n"
        "#### Errors and Corrections\n- `golangci-lint run` failed: goconst on repeated strings\n",
    )
    write(mem / "2026-05-18.md", "# 2026-05-18\n\n### 10:00 Standup\n\nPlanned the sprint.\n")
    return Workspace(root)


def test_a_should_question_ranks_the_decision_above_entries_sharing_its_words(
    ws: Workspace,
) -> None:
    hits = search(ws, "should the hook handlers be split into several files?", k=3)
    assert hits[0].text == "- Keep the hook handlers in one file for now"


def test_a_chinese_question_finds_the_english_section_it_names(ws: Workspace) -> None:
    hits = search(ws, "hook 改了哪些檔案", k=3)
    assert hits and all("Files / Artifacts" in hit.title for hit in hits[:2])


def test_an_error_question_finds_the_error_without_its_words(ws: Workspace) -> None:
    hits = search(ws, "what went wrong with lint", k=2)
    assert "golangci-lint run" in hits[0].text


def test_what_is_next_is_answered_by_the_latest_resumption_note(ws: Workspace) -> None:
    asked = (
        "what should I pick up next",
        "where did we leave off?",
        "接下來要做什麼",
        "上次卡在哪一步",
    )
    for question in asked:
        texts = [hit.text for hit in search(ws, question, k=5)]
        latest = next(i for i, text in enumerate(texts) if "release v0.3" in text)
        older = [i for i, text in enumerate(texts) if "session-end handler." in text]
        assert all(latest < i for i in older), (question, texts)


def test_what_a_session_was_asked_to_do_is_its_task(ws: Workspace) -> None:
    write(
        ws.root / "memory" / "sessions" / "2026-05-22-0900-codex-main-agent.notes.md",
        "# Session Notes: 2026-05-22-0900-codex-main-agent\n\n"
        "## Current State\n\n- Done (2): release notes drafted; codex session tidied\n\n"
        "## Task Specification\n\n- First request: Write the release notes for v0.3\n\n"
        "## Workflow\n\n- `codex exec` then `make notes`\n",
    )
    assert [f.term for f in vocabulary.families_of_heading("Task Specification")] == ["task"]
    for question in ("what was the codex session first asked to do", "codex 那次的任務是什麼"):
        hits = search(ws, question, k=3)
        assert "Write the release notes" in hits[0].text, (question, hits)


def test_a_bare_weekday_is_the_latest_such_day(ws: Workspace) -> None:
    monday = date(2026, 5, 25)
    assert bare_weekdays("what did we do on Thursday", monday) is not None
    for query, day in [
        ("what did we do on Thursday", date(2026, 5, 21)),
        ("週五做了什麼", date(2026, 5, 22)),
        ("星期天", date(2026, 5, 24)),
        ("金曜日の作業", date(2026, 5, 22)),
        ("목요일에 뭐 했지", date(2026, 5, 21)),
        ("on Monday", monday),  # today is a Monday: today
    ]:
        span = query_range(query, monday)
        assert span is not None and (span.start, span.end) == (day, day), query
    # a day of the month alone is the latest such day, a month back if need be
    for query, day in [
        ("what happened on the 21st", date(2026, 5, 21)),
        ("on the 25th", monday),
        ("on the 28th", date(2026, 4, 28)),
        ("on the 31st", date(2026, 3, 31)),  # April has no 31st
        ("2號做了什麼", date(2026, 5, 2)),
        ("10日の作業", date(2026, 5, 10)),
    ]:
        span = query_range(query, monday)
        assert span is not None and (span.start, span.end) == (day, day), query
    assert query_range("2日間かかった", monday) is None  # "for two days" names no day
    # a time written out wins over a bare weekday
    span = query_range("Thursday, May 7 2026", monday)
    assert span is not None and span.start == date(2026, 5, 7)
    hits = search(ws, "what did we do on Thursday", k=3)
    assert hits and all(hit.date == "2026-05-21" for hit in hits)


def test_section_headings_are_read_by_word_start_and_in_both_languages() -> None:
    assert [f.term for f in vocabulary.families_of_heading("Files / Artifacts")] == ["file"]
    assert vocabulary.families_of_heading("Profile") == ()
    assert [f.term for f in vocabulary.families_of_heading("決定事項")] == ["decision"]
    assert "決定" in vocabulary.heading_words(["2026-05-21", "Decisions"])


def test_a_word_the_memory_never_uses_falls_back_to_the_memory_s_own_forms(
    ws: Workspace,
) -> None:
    assert search(ws, "golangcilint") == search(ws, "golangcilint")  # deterministic
    hits = search(ws, "golangcilinter", k=2)
    assert hits and "golangci-lint" in hits[0].text
    from workmem.retrieval.index import SearchIndex

    with SearchIndex(ws).connect() as con:
        # a word the memory uses is never widened; one it never uses stands for its kin
        assert lexical.widen(con, ['"handler"']) == ['"handler"']
        assert lexical.widen(con, ['"golangcilinter"']) == ['"golangci"']
        assert lexical.widen(con, ['"zzzzzzzz"']) == []


def test_a_hook_searches_by_words_only(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    import workmem.retrieval.embedders as embedders
    from workmem.hooks.runner import run_fail_open
    from workmem.retrieval import inhook

    write(ws.root / "workmem.toml", '[search]\nembedder = "hash"\n')
    loaded: list[str] = []
    monkeypatch.setattr(embedders, "get_embedder", lambda spec, url=None: loaded.append(spec))

    def work() -> str:
        return str(len(search(ws, "hook handlers")))

    out = run_fail_open(work, workspace=lambda: ws, where="test", seconds=30)
    assert out != "0" and loaded == []  # hits, and no model was asked for
    assert not inhook.active()  # only inside the hook's work
    search(ws, "hook handlers")
    assert loaded == ["hash"]
