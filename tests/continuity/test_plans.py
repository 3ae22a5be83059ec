"""The agent's plan from every form a platform records it in."""

from __future__ import annotations

import json
from pathlib import Path

from workmem.transcripts.model import ToolCall
from workmem.transcripts.plans import PlanBook, stored_claude_tasks


def state(book: PlanBook) -> list[tuple[str, str]]:
    return [(item.text, item.status) for item in book.items]


def test_task_tools_build_the_plan_one_task_at_a_time() -> None:
    book = PlanBook()
    for subject in ("Write tests", "Fix bug", "Ship"):
        assert book.on_call(ToolCall("TaskCreate", {"subject": subject, "description": "d"}))
    assert book.on_call(ToolCall("TaskUpdate", {"taskId": "2", "status": "in_progress"}))
    assert book.on_call(ToolCall("TaskUpdate", {"taskId": "1", "status": "completed"}))
    assert book.on_call(ToolCall("TaskUpdate", {"taskId": "3", "subject": "Ship it"}))
    assert state(book) == [
        ("Write tests", "completed"),
        ("Fix bug", "in_progress"),
        ("Ship it", "pending"),
    ]
    assert book.on_call(ToolCall("TaskUpdate", {"taskId": "1", "status": "deleted"}))
    assert not book.on_call(ToolCall("TaskUpdate", {"taskId": "9", "status": "completed"}))
    assert state(book) == [("Fix bug", "in_progress"), ("Ship it", "pending")]


def test_the_id_a_task_really_got_wins_over_the_count() -> None:
    book = PlanBook()
    create = ToolCall("TaskCreate", {"subject": "A"}, id="c1")
    book.on_call(create)
    assert book.on_result(create, {"task": {"id": "7", "subject": "A"}}, "")
    book.on_call(ToolCall("TaskUpdate", {"taskId": "7", "status": "in_progress"}))
    assert state(book) == [("A", "in_progress")]
    other = ToolCall("TaskCreate", {"subject": "B"}, id="c2")
    book.on_call(other)
    assert book.on_result(other, None, "Task #12 created successfully: B")
    book.on_call(ToolCall("TaskUpdate", {"taskId": "12", "status": "completed"}))
    assert state(book) == [("A", "in_progress"), ("B", "completed")]


def test_parallel_creates_answered_in_any_order_keep_every_task() -> None:
    book = PlanBook()
    calls = [ToolCall("TaskCreate", {"subject": s}, id=f"c{n}") for n, s in enumerate("XYZ", 1)]
    for call in calls:
        book.on_call(call)
    for call, real in ((calls[0], "1"), (calls[2], "3"), (calls[1], "2")):
        book.on_result(call, {"task": {"id": real}}, "")
    book.on_call(ToolCall("TaskUpdate", {"taskId": "1", "status": "in_progress"}))
    assert state(book) == [("X", "in_progress"), ("Y", "pending"), ("Z", "pending")]


def test_task_list_answers_the_whole_plan() -> None:
    book = PlanBook()
    book.on_call(ToolCall("TaskCreate", {"subject": "Old"}))
    listing = ToolCall("TaskList", {})
    tasks = [{"id": "1", "subject": "New", "status": "in_progress"}]
    assert book.on_result(listing, {"tasks": tasks}, "")
    assert state(book) == [("New", "in_progress")]
    assert book.on_result(listing, {"tasks": []}, "No tasks found")
    assert state(book) == [] and book.updates == 3  # an emptied plan is not "no plan"


def test_whole_list_tools_of_every_platform() -> None:
    book = PlanBook()
    book.on_call(
        ToolCall(
            "TodoWrite",
            {
                "todos": [
                    {"content": "a", "status": "completed", "activeForm": "A"},
                    {"content": "b", "status": "in_progress", "activeForm": "B"},
                ]
            },
        )
    )
    assert state(book) == [("a", "completed"), ("b", "in_progress")]
    book.on_call(ToolCall("update_plan", {"plan": [{"step": "c", "status": "pending"}]}))
    assert state(book) == [("c", "pending")]
    book.on_call(ToolCall("write_todos", {"todos": [{"description": "d", "status": "done"}]}))
    assert state(book) == [("d", "completed")]
    assert not book.on_call(ToolCall("Bash", {"command": "ls"}))


def test_cursors_todo_write_merges_by_id_when_asked() -> None:
    book = PlanBook()
    book.on_call(
        ToolCall(
            "todo_write",
            {
                "merge": False,
                "todos": [
                    {"id": "x", "content": "first", "status": "in_progress"},
                    {"id": "y", "content": "second", "status": "pending"},
                ],
            },
        )
    )
    book.on_call(
        ToolCall(
            "todo_write",
            {
                "merge": True,
                "todos": [
                    {"id": "x", "status": "completed"},
                    {"id": "z", "content": "third", "status": "pending"},
                ],
            },
        )
    )
    assert state(book) == [("first", "completed"), ("second", "pending"), ("third", "pending")]


def test_stored_task_files_in_id_order_and_hostile_names(tmp_path: Path) -> None:
    folder = tmp_path / ".claude" / "tasks" / "s-1"
    folder.mkdir(parents=True)
    for key, subject, status in (
        ("10", "ten", "pending"),
        ("2", "two", "in_progress"),
        ("3", "gone", "deleted"),
    ):
        (folder / f"{key}.json").write_text(
            json.dumps({"id": key, "subject": subject, "status": status})
        )
    (folder / "broken.json").write_text("{not json")
    items = stored_claude_tasks("s-1", tmp_path)
    assert items is not None
    assert [(i.text, i.status) for i in items] == [("two", "in_progress"), ("ten", "pending")]
    assert stored_claude_tasks("../s-1", tmp_path) is None
    assert stored_claude_tasks("missing", tmp_path) is None
    assert stored_claude_tasks(None, tmp_path) is None
