"""The benchmarks' finer measures: plan marks against the plan at the cut, repeated lines,
seeded memories' content, the account a session leaves, a running session's leaked plan."""

from __future__ import annotations

from workmem.continuity.measures import (
    account_agreement,
    board_summaries,
    leaked_items,
    marked_items,
    memory_present,
    plan_precision,
    repeated_lines,
)

PLAN = [
    ("Initialize the Rust crate", "completed"),
    ("Port string_utils module", "completed"),
    ("Port math_utils module", "in_progress"),
    ("Delete Python source files", "pending"),
    ("Write a changelog", "cancelled"),
]


def test_marks_in_both_the_new_and_the_current_forms() -> None:
    context = (
        "## Plan\n- [in progress] Port math_utils module\n- [pending] Delete Python source files\n"
        "- 2 done: Initialize the Rust crate; Port string_utils module\n"
        "- [done] Port string_utils module\n- [dropped] Write a changelog\n"
        "1. [in_progress] Something else\nnot a mark: [pending] inline\n"
    )
    assert [state for _, state in marked_items(context)] == [
        "open",
        "open",
        "done",
        "done",
        "done",
        "dropped",
        "open",
    ]


def test_plan_precision_counts_every_mark_and_the_worst_mistake() -> None:
    right = (
        "- [in progress] Port math_utils module\n- [pending] Delete Python source files\n"
        "- 2 done: Initialize the Rust crate; Port string_utils module\n"
    )
    result = plan_precision(PLAN, right)
    assert (result.precision, result.open_precision, result.done_recall) == (1.0, 1.0, 1.0)
    assert result.done_shown_open == 0
    # A done step shown as open, an unknown open item, and a truncated mark that still
    # names its item (the briefing clips long items with an ellipsis).
    wrong = (
        "- [in progress] Port string_utils module\n- [pending] Make coffee\n"
        "- [in progress] Port math_utils mod…\n"
    )
    result = plan_precision(PLAN, wrong)
    assert result.marks == 3 and result.correct == 1
    assert result.done_shown_open == 1 and result.done_recall == 0.0
    assert plan_precision(PLAN, "no marks at all").precision is None
    assert plan_precision(None, "- [pending] x").precision == 0.0


def test_repeated_lines_and_sentences_but_not_short_ones() -> None:
    context = (
        "## Last request\n> Port this Python project to Rust and keep the tests.\n"
        "Where I left it: Port this Python project to Rust and keep the tests. More.\n"
        "- None\n- None\n## Plan\n## Plan\n"
        "* Port this python project to rust and keep the tests\n"
        "- Last request: “Port this Python project to Rust and keep the tests.”\n"
    )
    repeats = repeated_lines(context)
    # after a label, as a list item, quoted: the same words three more times
    assert len(repeats) == 3
    assert repeated_lines("- None\n- None\nok ok ok\nok ok ok\n") == []


def test_memory_content_not_its_name() -> None:
    memories = {"feedback": "Always run the linter before proposing a commit."}
    index_only = "### Feedback\n- [linter](memory/feedback_linter.md) — lint before commits"
    assert memory_present(index_only, memories) == {"feedback": False}
    wrapped = "- Always run the linter\n  before proposing a **commit**"
    assert memory_present(wrapped, memories) == {"feedback": True}


def test_the_account_by_marks_labels_and_headings() -> None:
    plan = PLAN[:4]
    documents = {
        "board summary": "in progress: Port math_utils module. next: Delete Python source files.",
        "snapshot": (
            "## Current Context\n\nAuto-saved (2026-01-21 06:23): done: Port string_utils "
            "module. in progress: Port math_utils module\n"
        ),
        "relay": (
            "## ✅ Completed\n- Initialize the Rust crate\n## 📋 Next\n- Port math_utils module"
        ),
        "daily": "- Completed:\n  - Delete Python source files\n",  # wrong: it is pending
        "silent": "last request: port it all",
    }
    result = account_agreement(plan, documents)
    counts = result.documents
    assert counts["board summary"] == {
        "named": 2,
        "checked": 2,
        "agree": 2,
        "finished_in_progress": 0,
    }
    assert counts["snapshot"]["agree"] == 2 and counts["relay"]["agree"] == 2
    assert counts["daily"] == {"named": 1, "checked": 1, "agree": 0, "finished_in_progress": 0}
    assert counts["silent"]["named"] == 0
    assert result.share == 6 / 7 and not result.finished_called_in_progress


def test_a_finished_plan_must_never_be_called_in_progress() -> None:
    finished = [(text, "completed") for text, _ in PLAN[:2]]
    relay = (
        "## 🔥 In Progress (was actively working on this)\n\n- Last request: “Port it”\n"
        "## ✅ Completed This Session\n- Initialize the Rust crate\n- Port string_utils module\n"
    )
    result = account_agreement(finished, {"relay": relay, "empty": "## In Progress\n\nNone\n"})
    assert result.finished and result.finished_called_in_progress
    assert result.documents["relay"]["finished_in_progress"] == 1
    assert result.documents["empty"]["finished_in_progress"] == 0
    assert result.share == 1.0
    open_plan = account_agreement(PLAN, {"relay": relay})
    assert not open_plan.finished and not open_plan.finished_called_in_progress


def test_a_running_sessions_plan_only_as_a_one_line_mention() -> None:
    items = ["Port math_utils module", "Delete Python source files"]
    mention = (
        "Another Claude Code session is still running here (last active 1 min ago): "
        "Port math_utils module."
    )
    assert leaked_items(items, mention) == []
    assert leaked_items(items, "## Plan\n- [in progress] Port math_utils module") == [items[0]]
    assert leaked_items(items, "## Pending\n- Delete Python source files (next)") == [items[1]]
    twice = f"{mention}\nYou were doing: Port math_utils module"
    assert leaked_items(items, twice) == [items[0]]
    assert leaked_items(items, "- Delete Python source files") == [items[1]]


def test_board_summaries_with_escaped_pipes() -> None:
    board = (
        "| Session ID | Topic | Summary | Status |\n|---|---|---|---|\n"
        "| s1 | a | in progress: a \\| b | active |\n| s2 | b | done | ended |\n"
    )
    assert board_summaries(board) == ["in progress: a \\| b", "done"]
    assert board_summaries("no table") == []
