"""The daily log over a session of many saves: one entry per save that changed something,
each item logged once, in whatever language the earlier entries were written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.transcripts.util import ClaudeWriter, claude_project
from workmem.continuity.save import RELAY, save_session
from workmem.relay.daily_sync import HEADING, logged
from workmem.root import Workspace

STEPS = [f"Port module {n}" for n in range(6)]


def planned(cwd: Path, done: int, *, extra_rounds: int = 0) -> ClaudeWriter:
    """A session whose plan has ``done`` of its six steps completed."""
    w = ClaudeWriter(session="plan", cwd=str(cwd))
    todos = [
        {
            "content": step,
            "activeForm": step,
            "status": "completed" if n < done else "in_progress" if n == done else "pending",
        }
        for n, step in enumerate(STEPS)
    ]
    w.user("Port the project, one module at a time")
    w.assistant(tools=[w.tool_use("TodoWrite", "t0", todos=todos)])
    w.result("t0", "ok")
    for n in range(done + extra_rounds):
        w.user(f"go on {n}")
        w.assistant(f"working {n}")
    return w


def save(root: Path, home: Path, w: ClaudeWriter) -> None:
    path = w.write(claude_project(home, root) / "plan.jsonl")
    report = save_session(
        Workspace(root),
        session_id=None,
        transcript=path,
        platform="claude-code",
        reason="pre-compact",
        parts=(RELAY,),
    )
    assert report.ok and RELAY in report.done, report.failed


def log(root: Path) -> str:
    return (root / "memory" / "2026-05-25.md").read_text()


def test_ten_saves_log_each_step_once_and_only_saves_that_changed_something(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    progress = [0, 1, 1, 2, 3, 3, 4, 5, 6, 6]  # ten saves; three bring nothing new
    for n, done in enumerate(progress):
        monkeypatch.setenv("WORKMEM_NOW", f"2026-05-25 13:{20 + n}")
        save(root, home, planned(root, done))
    text = log(root)
    assert text.count(f"### {HEADING}") == 7
    for step in STEPS:
        assert text.count(f"  - {step}\n") <= 2  # once as next, once as completed at most
    completed = [line for line in text.splitlines() if line == "- Completed:"]
    assert len(completed) == 6  # each save that completed a step, once
    before = logged(text)
    assert {("completed", step.casefold()) for step in STEPS} <= before.items
    # Before: every save appended its entry with the whole Completed list again.
    assert len(text.splitlines()) < 80


def test_a_language_switch_does_not_log_the_same_items_again(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save(root, home, planned(root, 2))
    (root / "workmem.toml").write_text('[workmem]\nlanguage = "zh-TW"\n')
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:00")
    save(root, home, planned(root, 2, extra_rounds=1))  # same state, now in Chinese
    assert log(root).count(f"### {HEADING}") == 1
    save(root, home, planned(root, 3))
    text = log(root)
    assert text.count(f"### {HEADING}") == 2
    last = text.split(f"### {HEADING}")[-1]
    assert "- 已完成：\n  - Port module 2\n" in last and "Port module 0" not in last
    # A Chinese entry is read back too ("進行中：" with the active text's own ":" after it).
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:30")
    save(root, home, planned(root, 3, extra_rounds=1))
    assert log(root).count(f"### {HEADING}") == 2
    assert logged(log(root)).active == "Current plan step: Port module 3"


def test_a_new_session_after_a_session_end_logs_its_own_progress(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save(root, home, planned(root, 2))
    path = root / "memory" / "2026-05-25.md"
    path.write_text(
        log(root) + "\n### Session 1 · 13:30 · agent\n\n"
        "<!-- workmem:session-end token=0123456789abcdef key=default -->\n**Summary:** done\n"
    )
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 15:00")
    save(root, home, planned(root, 2))
    last = log(root).split(f"### {HEADING}")[-1]
    assert "Port module 0" in last and "Port module 1" in last


def test_a_hand_edited_log_with_odd_entries_is_read_without_error(root: Path) -> None:
    text = (
        "# 2026-05-25\n\n### Session Relay Auto-Save (09:00)\n\nfree text\n- no colon here\n"
        "  - an orphan item\n- Completed:\n  - Ship it\n- Unknown label: x\n  - not an item\n"
        "### Session Relay Auto-Save (broken heading\n- Completed:\n  - Other\n"
    )
    seen = logged(text)
    assert ("completed", "ship it") in seen.items and ("completed", "other") in seen.items
    assert not any(item == "not an item" for _, item in seen.items)
