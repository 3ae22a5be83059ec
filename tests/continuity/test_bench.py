"""The continuity benchmark: its ground truth, its cut points, a run end to end."""

from __future__ import annotations

import json
from pathlib import Path

from tests.continuity.sessions import LAST_REQUEST, PLAN, hazardous_session
from tests.transcripts.util import ClaudeWriter, write_jsonl
from workmem.continuity.bench import cut_points, is_empty, run, truth_at
from workmem.continuity.score import content_words, score
from workmem.continuity.truth import read_recording


def long_session(path: Path) -> Path:
    """A plan set with TodoWrite, then steps: two cut candidates with 8+ calls after each."""
    w = ClaudeWriter(session="bench", cwd="/proj")
    w.user("Please port the csv importer to streaming rows and keep the tests green")
    todos = [
        {"content": "Stream rows", "status": "in_progress", "activeForm": "Streaming"},
        {"content": "Update tests", "status": "pending", "activeForm": "Updating"},
    ]
    w.assistant(tools=[w.tool_use("TodoWrite", "t1", todos=todos)])
    w.result("t1", "ok")
    for n in range(10):
        w.assistant(tools=[w.tool_use("Read", f"r{n}", file_path=f"/proj/src/m{n % 3}.py")])
        w.result(f"r{n}", "code")
    later = [{**todos[0], "status": "completed"}, {**todos[1], "status": "in_progress"}]
    w.assistant(tools=[w.tool_use("TodoWrite", "t2", todos=later)])
    w.result("t2", "ok")
    for n in range(10):
        w.assistant(
            tools=[
                w.tool_use(
                    "Edit",
                    f"e{n}",
                    file_path=f"/proj/tests/t{n % 2}.py",
                    old_string="a",
                    new_string="b",
                )
            ]
        )
        w.result(f"e{n}", "ok")
    return w.write(path)


def test_ground_truth_reads_task_tools_requests_and_files(tmp_path: Path) -> None:
    rec = read_recording(hazardous_session(tmp_path / "h.jsonl", "/proj"))
    assert rec.platform == "claude-code" and len(rec.steps) == 9
    last = rec.plans[-1][1]
    assert last == [(PLAN[0], "completed"), (PLAN[1], "in_progress"), (PLAN[2], "pending")]
    truth = truth_at(rec, len(rec.lines) - 1)
    assert truth.plan == PLAN[1:] and truth.request == LAST_REQUEST


def test_cuts_follow_plan_updates_with_work_after_them(tmp_path: Path) -> None:
    rec = read_recording(long_session(tmp_path / "l.jsonl"))
    cuts = cut_points(rec, 3)
    assert [kind for _, kind in cuts] == ["plan", "plan"]
    first = truth_at(rec, cuts[0][0])
    assert first.plan == ["Stream rows", "Update tests"]
    assert first.files == []  # nothing read yet that is read again
    second = truth_at(rec, cuts[1][0])
    assert second.plan == ["Update tests"]
    assert second.files == []  # m*.py were read before, but tests/ are what comes next
    assert cut_points(rec, 1) == [cuts[1]] or len(cut_points(rec, 1)) == 1


def test_a_codex_rollout_is_detected_and_its_shell_reads_count(tmp_path: Path) -> None:
    def item(payload: dict[str, object]) -> dict[str, object]:
        return {"timestamp": "2026-06-02T16:20:54Z", "type": "response_item", "payload": payload}

    records: list[dict[str, object]] = [
        {"timestamp": "x", "type": "session_meta", "payload": {"id": "c-1", "cwd": "/repo"}},
        {
            "timestamp": "x",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": "add the ignore file flag to the cli"},
        },
        item(
            {
                "type": "function_call",
                "name": "update_plan",
                "call_id": "p1",
                "arguments": json.dumps(
                    {"plan": [{"step": "Thread the flag", "status": "in_progress"}]}
                ),
            }
        ),
        item({"type": "function_call_output", "call_id": "p1", "output": "Plan updated"}),
    ]
    for n in range(9):
        records.append(
            item(
                {
                    "type": "function_call",
                    "name": "exec_command",
                    "call_id": f"s{n}",
                    "arguments": json.dumps({"cmd": "sed -n '1,80p' cli/flags.go"}),
                }
            )
        )
        records.append(item({"type": "function_call_output", "call_id": f"s{n}", "output": "x"}))
    rec = read_recording(write_jsonl(tmp_path / "rollout.jsonl", records))
    assert rec.platform == "codex" and rec.session_id == "c-1"
    cuts = cut_points(rec, 3)
    assert len(cuts) == 1
    assert truth_at(rec, cuts[0][0]).plan == ["Thread the flag"]
    assert rec.steps[1].files == ["cli/flags.go"]


def test_scores_are_shares_of_what_the_next_steps_need() -> None:
    parts = score(
        ["Stream rows"],
        "port the csv importer to streaming rows",
        ["src/a.py"],
        "- [in progress] Stream rows\n> port the csv importer\nfiles: `src/a.py`",
    )
    assert parts.plan == 1.0 and parts.files == 1.0
    assert parts.request == 4 / len(set(content_words("port the csv importer to streaming rows")))
    assert score([], None, [], "x").score is None
    assert is_empty("Your Memory Session ID is: x\n") and not is_empty(
        "Your Memory Session ID is: x\nplan"
    )


def test_a_run_replays_the_hooks_in_fresh_homes_and_reports(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    long_session(folder / "claude-code" / "bench.jsonl")
    report = run(folder, cuts=1, budget=2000)
    summary = report["summary"]
    assert summary["cuts"] == 1 and summary["empty_contexts"] == 0
    assert summary["cuts_with_failures"] == 0, report["cuts"][0]["failures"]
    assert summary["score"] == 1.0 and summary["over_budget"] == 0
    assert set(summary["hook_seconds"]) == {"startup", "prompt", "pre-compact", "resume"}
    cut = report["cuts"][0]
    assert cut["tail_score"] is not None and cut["tokens"] > 0
    # the session start before the work, measured too: its tokens and the seeded memories
    assert cut["start_tokens"] > 0 and cut["platform"] == "claude-code"
    assert set(cut["memory_at_start"]) == {"MEMORY.md Active entry", "feedback memory"}
    assert summary["platforms"]["claude-code"]["cuts"] == 1
    assert summary["platforms"]["claude-code"]["transcripts"] == 1
    assert summary["plan_precision"] is not None  # the resume marks its open steps
    assert summary["without_cut"] == [] and summary["unreadable"] == {}


def _gemini_chat(path: Path) -> Path:
    """A Gemini CLI chat (JSON Lines) with the token counts Gemini records, far below its
    compression threshold: one request, then reads and edits."""
    lines: list[dict[str, object]] = [
        {"sessionId": "g-bench", "projectHash": "h", "startTime": "2026-05-25T10:00:00Z"},
        {
            "id": "u1",
            "timestamp": "2026-05-25T10:00:01Z",
            "type": "user",
            "content": [{"text": "Port the csv importer to streaming rows, keep tests green"}],
        },
    ]
    for n in range(16):
        name, args = (
            ("read_file", {"absolute_path": f"/proj/src/importer_{n % 4}.py"})
            if n % 2
            else ("replace", {"file_path": "/proj/src/importer.py", "old_string": "a"})
        )
        lines.append(
            {
                "id": f"m{n}",
                "timestamp": f"2026-05-25T10:{n + 1:02d}:00Z",
                "type": "gemini",
                "content": "",
                "tokens": {"input": 12000 + 500 * n, "output": 80, "cached": 0, "total": 0},
                "model": "gemini-2.5-flash",
                "toolCalls": [
                    {
                        "id": f"c{n}",
                        "name": name,
                        "args": args,
                        "status": "success",
                        "result": [{"functionResponse": {"response": {"output": "ok"}}}],
                    }
                ],
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_gemini_compression_at_any_cut_is_replayed_as_the_users_compress(
    tmp_path: Path,
) -> None:
    # Gemini CLI asks its PreCompress hook before every request and compresses on its own
    # only near its threshold; a cut anywhere is the user's /compress there, and the work
    # must come back (replayed as an automatic one, the hook rightly saved nothing)
    folder = tmp_path / "data"
    _gemini_chat(folder / "gemini" / "chat.jsonl")
    report = run(folder, cuts=2, budget=2000)
    cuts = report["cuts"]
    assert cuts and all(c["platform"] == "gemini" for c in cuts)
    assert report["summary"]["empty_contexts"] == 0, cuts
    assert all(c["score"] is not None and c["score"] >= 0.9 for c in cuts), cuts
