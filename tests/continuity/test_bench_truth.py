"""The benchmarks' own readers of Gemini CLI and OpenClaw sessions, on tiny sessions built
here in each platform's format: tool calls with their files, the plan, the requests and
turns, the clock, and the file as it was at a cut."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.transcripts.util import ClaudeWriter, write_jsonl
from workmem.continuity.bench import cut_points, recordings_under, truth_at
from workmem.continuity.truth import read_recording
from workmem.continuity.truth_openclaw import person_text

TODOS = [
    {"description": "Read the config loader", "status": "completed"},
    {"description": "Add the retry flag", "status": "in_progress"},
    {"description": "Document the flag", "status": "pending"},
]


def _stamp(second: int) -> str:
    return f"2026-04-23T12:{second // 60:02d}:{second % 60:02d}.000Z"


def gemini_messages(calls: int = 8) -> list[dict[str, Any]]:
    """A Gemini chat: a request, a write_todos plan, then reads and edits with results."""
    messages: list[dict[str, Any]] = [
        {
            "id": "u1",
            "timestamp": _stamp(0),
            "type": "user",
            "content": [{"text": "Please add a retry flag to the uploader command line"}],
        },
        {
            "id": "g1",
            "timestamp": _stamp(5),
            "type": "gemini",
            "content": "I'll plan this first.",
            "toolCalls": [
                {
                    "id": "todo-1",
                    "name": "write_todos",
                    "args": {"todos": TODOS},
                    "status": "success",
                    "result": [{"functionResponse": {"response": {"output": "ok"}}}],
                }
            ],
        },
    ]
    for n in range(calls):
        name, args = (
            ("read_file", {"file_path": f"/repo/src/up{n % 3}.py"})
            if n % 2
            else ("run_shell_command", {"command": f"sed -n '1,40p' src/cli{n % 2}.py"})
        )
        messages.append(
            {
                "id": f"g{n + 2}",
                "timestamp": _stamp(10 + n * 10),
                "type": "gemini",
                "content": "",
                "toolCalls": [{"id": f"c{n}", "name": name, "args": args, "status": "success"}],
            }
        )
    return messages


def test_gemini_single_json_chat(tmp_path: Path) -> None:
    document = {
        "sessionId": "a41f5459-0000",
        "projectHash": "abc",
        "startTime": _stamp(0),
        "lastUpdated": _stamp(90),
        "messages": gemini_messages(),
    }
    path = tmp_path / "session-2026-04-23T12-00-a41f5459.json"
    path.write_text(json.dumps(document, indent=2))
    rec = read_recording(path)
    assert (rec.platform, rec.layout, rec.session_id) == ("gemini", "json", "a41f5459-0000")
    assert len(rec.lines) == 10 and len(rec.steps) == 9
    assert rec.steps[2].files == ["/repo/src/up1.py"] and rec.steps[1].files == ["src/cli0.py"]
    assert rec.plans[-1][1][1] == ("Add the retry flag", "in_progress")
    assert [s.text for s in rec.requests] == [
        "Please add a retry flag to the uploader command line"
    ]
    start = rec.time_at(0)
    assert start is not None and rec.time_at(1) == start + 5
    # The file at a cut is the platform's own document, holding the messages up to it.
    cut = json.loads(rec.prefix(3, {"projectHash": "here"}))
    assert cut["projectHash"] == "here" and cut["sessionId"] == "a41f5459-0000"
    assert [m["id"] for m in cut["messages"]] == ["u1", "g1", "g2", "g3"]
    assert cut["lastUpdated"] == _stamp(20)
    truth = truth_at(rec, rec.steps[1].end_line)
    assert truth.plan == ["Add the retry flag", "Document the flag"]


def test_gemini_jsonl_message_rewritten_by_id_counts_its_call_once(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = [
        {"sessionId": "0ab84937", "projectHash": "p", "startTime": _stamp(0), "kind": "main"},
        {"id": "i1", "timestamp": _stamp(1), "type": "info", "content": "Empty GEMINI.md"},
        {"$set": {"lastUpdated": _stamp(1)}},
        {
            "id": "u1",
            "timestamp": _stamp(2),
            "type": "user",
            "content": [
                {"text": "<hook_context>workmem said this</hook_context>幫我做一個小修改 uv run"}
            ],
        },
        {"id": "m1", "timestamp": _stamp(3), "type": "gemini", "content": ""},
    ]
    call = {"id": "c1", "name": "replace", "args": {"file_path": "GEMINI.md"}}
    records.append({**records[-1], "toolCalls": [call]})
    records.append({**records[-1], "toolCalls": [{**call, "status": "success"}]})
    records.append({"$set": {"lastUpdated": _stamp(9)}})
    rec = read_recording(write_jsonl(tmp_path / "session.jsonl", records))
    assert rec.platform == "gemini" and rec.layout == "jsonl" and rec.session_id == "0ab84937"
    assert len(rec.steps) == 1
    assert (rec.steps[0].line, rec.steps[0].end_line) == (5, 6)
    assert rec.steps[0].files == ["GEMINI.md"]
    # what a hook added to the user's message is not the user's request
    assert [s.text for s in rec.prompts] == ["幫我做一個小修改 uv run"]
    start = rec.time_at(0)
    assert start is not None and rec.time_at(7) == start + 9
    assert rec.prefix(4).count(b"\n") == 5


def openclaw_records(calls: int = 8) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = [
        {"type": "session", "version": 3, "id": "oc-1", "timestamp": _stamp(0), "cwd": "/ws"},
        {
            "type": "message",
            "id": "m0",
            "timestamp": _stamp(1),
            "message": {
                "role": "user",
                "content": [{"type": "text", "text": "Read HEARTBEAT.md if it exists."}],
            },
        },
        {
            "type": "message",
            "id": "m1",
            "timestamp": _stamp(2),
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "text",
                        "text": "[Mon 2026-03-02 12:50 GMT+8] fix the markdown lint errors "
                        "in the docs folder please",
                    }
                ],
            },
        },
    ]
    for n in range(calls):
        name, args = ("read", {"path": f"/ws/docs/p{n % 3}.md"}) if n % 2 else ("exec", {})
        if name == "exec":
            args = {"command": "pnpm lint docs/index.md"}
        records.append(
            {
                "type": "message",
                "id": f"a{n}",
                "timestamp": _stamp(10 + n * 10),
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": f"step {n}"},
                        {"type": "toolCall", "id": f"t{n}", "name": name, "arguments": args},
                    ],
                },
            }
        )
        records.append(
            {
                "type": "message",
                "id": f"r{n}",
                "timestamp": _stamp(15 + n * 10),
                "message": {"role": "toolResult", "toolCallId": f"t{n}", "content": []},
            }
        )
    records.append({"type": "compaction", "id": "c", "summary": "We fixed lint.", "timestamp": 1})
    return records


def test_openclaw_session(tmp_path: Path) -> None:
    rec = read_recording(write_jsonl(tmp_path / "oc-1.jsonl", openclaw_records()))
    assert (rec.platform, rec.session_id, rec.cwd) == ("openclaw", "oc-1", "/ws")
    assert len(rec.steps) == 8
    assert rec.steps[0].files == ["docs/index.md"] and rec.steps[1].files == ["docs/p1.md"]
    assert rec.steps[0].end_line == 4
    # the heartbeat poll is OpenClaw's own prompt; the channel's stamp is not the request
    assert [s.text for s in rec.prompts] == [
        "fix the markdown lint errors in the docs folder please"
    ]
    assert rec.requests[0].text.startswith("fix the markdown")
    assert rec.compactions[0].summary == "We fixed lint." and rec.compactions[0].cut_line == 18
    assert person_text(
        'Conversation info (untrusted metadata):\n```json\n{"a": 1}\n```\n\nOK了吗'
    ) == ("OK了吗")


def test_cuts_without_a_plan_need_work_after_them(tmp_path: Path) -> None:
    """Without a plan: at 1/2 and 3/4 of the calls, each with 4+ calls after it."""
    for calls, expected in ((5, 0), (8, 1), (12, 1), (16, 2)):
        path = write_jsonl(tmp_path / f"oc-{calls}.jsonl", openclaw_records(calls)[:-1])
        rec = read_recording(path)
        points = cut_points(rec, 3)
        assert len(points) == expected, (calls, points)
        assert all(kind == "spread" for _, kind in points)


def test_files_that_are_no_session_are_reported_not_read(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"name": "x"}')
    (tmp_path / "broken.json").write_bytes(b"{not json")
    write_jsonl(tmp_path / "oc.jsonl", openclaw_records(2))
    found, unreadable = recordings_under(tmp_path)
    assert [r.platform for r in found] == ["openclaw"]
    assert set(unreadable) == {str(tmp_path / "package.json"), str(tmp_path / "broken.json")}


@pytest.mark.parametrize("value", ["", "yesterday", None, 12])
def test_a_unit_without_a_time_takes_the_one_before(tmp_path: Path, value: object) -> None:
    records = openclaw_records(1)
    records[2]["timestamp"] = value
    rec = read_recording(write_jsonl(tmp_path / "oc.jsonl", records))
    assert rec.time_at(2) == rec.time_at(1)


def test_a_slash_commands_arguments_are_the_request(tmp_path: Path) -> None:
    w = ClaudeWriter(session="cmd", cwd="/proj")
    w.user(
        "<command-message>workflows:plan</command-message>\n"
        "<command-name>/workflows:plan</command-name>\n"
        "<command-args>add an option to turn off the session conflict warnings</command-args>"
    )
    w.user("<command-name>/clear</command-name>\n<command-args></command-args>")
    w.user("<system-reminder>the hook said this</system-reminder>")
    rec = read_recording(w.write(tmp_path / "cmd.jsonl"))
    assert [s.text for s in rec.requests] == [
        "add an option to turn off the session conflict warnings"
    ]
    assert [s.text for s in rec.prompts] == [
        "add an option to turn off the session conflict warnings"
    ]


def test_corrupt_lines_and_bytes_are_read_around(tmp_path: Path) -> None:
    """A cut line, non-UTF-8 bytes and a line that is a JSON list: skipped, the rest read."""
    good = openclaw_records(8)
    path = write_jsonl(tmp_path / "oc.jsonl", good[:6], tail=b'{"type": "mess\n\xff\xfe\n[1, 2]\n')
    with path.open("ab") as handle:
        for record in good[6:]:
            handle.write(json.dumps(record).encode() + b"\n")
    rec = read_recording(path)
    assert rec.platform == "openclaw" and len(rec.lines) == len(good) + 3
    assert len(rec.steps) == 8 and rec.steps[-1].end_line == len(rec.lines) - 2
    assert rec.prefix(5).count(b"\n") == 6
