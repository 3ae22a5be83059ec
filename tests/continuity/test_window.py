"""A transcript of any size is read in bounded time, and keeps its head, plan and tail."""

from __future__ import annotations

from pathlib import Path

from tests.transcripts.util import ClaudeWriter
from workmem.transcripts.read import read_transcript


def test_a_long_transcript_is_read_as_head_plan_and_tail(tmp_path: Path) -> None:
    w = ClaudeWriter(session="long", cwd="/p")
    w.user("The first request: build the importer with streaming")
    w.assistant(tools=[w.tool_use("TaskCreate", "c1", subject="Stream the rows")])
    w.result("c1", "Task #1 created successfully", detail={"task": {"id": "1"}})
    w.assistant(tools=[w.tool_use("TaskUpdate", "u1", taskId="1", status="in_progress")])
    w.result("u1", "Updated task #1 status")
    for n in range(3000):  # the middle: nothing a save needs
        w.assistant(f"filler reply {n} " + "x" * 200)
    w.user("The last request: now add a progress bar")
    w.assistant("Adding the progress bar.")
    path = w.write(tmp_path / "long.jsonl")
    size = path.stat().st_size
    whole = read_transcript(path, "claude-code")
    part = read_transcript(path, "claude-code", max_bytes=50_000)
    assert whole.skipped_bytes == 0 and part.skipped_bytes > size * 0.8
    assert [(p.text, p.status) for p in part.plan] == [("Stream the rows", "in_progress")]
    assert part.user_requests()[0].startswith("The first request")
    assert part.user_requests()[-1] == "The last request: now add a progress bar"
    assert len(part.messages) < len(whole.messages) / 5


def test_a_small_file_is_read_whole_even_with_a_limit(tmp_path: Path) -> None:
    w = ClaudeWriter(session="s", cwd="/p")
    w.user("hello there, one small request")
    path = w.write(tmp_path / "s.jsonl")
    assert read_transcript(path, "claude-code", max_bytes=10).skipped_bytes == 0
