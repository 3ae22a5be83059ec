"""Readers over transcripts built here, in each platform's format, and over bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.errors import FormatError, NotFoundError, UsageError
from workmem.transcripts import jsonl, read_transcript

from .util import ClaudeWriter, write_jsonl


def claude_session(tmp_path: Path) -> tuple[Path, ClaudeWriter]:
    w = ClaudeWriter()
    w.user("Add a --verbose flag to the CLI")
    w.assistant(
        "I'll plan it.",
        tools=[
            w.tool_use(
                "TodoWrite",
                "t0",
                todos=[
                    {"content": "Add flag", "status": "in_progress", "activeForm": "Adding"},
                    {"content": "Write tests", "status": "pending", "activeForm": "Writing"},
                ],
            )
        ],
    )
    w.result("t0", "Todos have been modified")
    usage = {
        "input_tokens": 4,
        "cache_creation_input_tokens": 1000,
        "cache_read_input_tokens": 20000,
        "output_tokens": 50,
    }
    # one response split over three lines: same message.id and requestId, usage repeated
    w.assistant("Reading the parser.", msg_id="m-split", usage=usage)
    w.assistant(
        tools=[w.tool_use("Read", "t1", file_path="/work/proj/cli.py")],
        msg_id="m-split",
        usage=usage,
    )
    w.assistant(
        tools=[
            w.tool_use(
                "Edit",
                "t2",
                file_path="/work/proj/cli.py",
                old_string="x",
                new_string="def verbose():\n    pass",
            )
        ],
        msg_id="m-split",
        usage=usage,
    )
    w.result("t1", "import argparse")
    w.result("t2", "ok")
    w.assistant(tools=[w.tool_use("Bash", "t3", command="pytest -q")])
    w.result("t3", "1 failed", is_error=True)
    w.assistant("The test fails; fixing the import.")
    return w.write(tmp_path / "sess-1.jsonl"), w


def test_claude_split_response_is_one_message_with_usage_counted_once(tmp_path: Path) -> None:
    path, _ = claude_session(tmp_path)
    t = read_transcript(path)
    split = [m for m in t.messages if m.id == "m-split"]
    assert len(split) == 1
    assert [c.name for c in split[0].tool_calls] == ["Read", "Edit"]
    # usage: 10+4+10+10 input over four distinct responses, not 10+4*3+…
    assert t.total_usage.input_tokens == 10 + 4 + 10 + 10
    assert t.total_usage.cache_read_tokens == 20000
    assert t.last_usage is not None and t.last_usage.context_tokens == 10  # the last response
    assert [(p.text, p.status) for p in t.plan] == [
        ("Add flag", "in_progress"),
        ("Write tests", "pending"),
    ]
    assert [r.is_error for r in t.tool_results] == [False, False, False, True]
    assert t.tool_results[-1].name == "Bash"
    assert t.git_branch == "main" and t.cwd == "/work/proj"


def test_claude_rewind_and_compaction_built_here(tmp_path: Path) -> None:
    w = ClaudeWriter()
    root = w.user("Start")
    fork = w.assistant("Ready")
    w.user("Try A")
    w.assistant("A is bad")
    w.user("Try B", parent=fork)
    w.assistant("B works")
    records = w.records
    records.append(
        {
            "type": "system",
            "subtype": "compact_boundary",
            "uuid": "cb",
            "parentUuid": None,
            "logicalParentUuid": w.last,
            "compactMetadata": {"trigger": "manual", "preTokens": 99000},
            "timestamp": "2026-05-25T11:00:00Z",
        }
    )
    w.last = "cb"
    w.user("Summary of the earlier talk", isCompactSummary=True)
    w.user("Continue")
    w.assistant("Continuing")
    t = read_transcript(w.write(tmp_path / "x.jsonl"))
    assert [m.text for m in t.conversation] == [
        "Start",
        "Ready",
        "Try B",
        "B works",
        "Continue",
        "Continuing",
    ]
    assert t.dropped_records == 2
    assert t.compactions[0].summary == "Summary of the earlier talk"
    assert t.compactions[0].trigger == "manual" and t.compactions[0].pre_tokens == 99000
    assert root == "u1"


def test_claude_sidechain_only_file_is_read_as_its_own_conversation(tmp_path: Path) -> None:
    w = ClaudeWriter()
    w.user("sub task", isSidechain=True)
    w.assistant("sub answer")
    w.records[-1]["isSidechain"] = True
    t = read_transcript(w.write(tmp_path / "agent-abc.jsonl"), "claude-code")
    assert [m.text for m in t.conversation] == ["sub task", "sub answer"]


def test_codex_built_here(tmp_path: Path) -> None:
    def item(kind: str, payload: dict[str, object]) -> dict[str, object]:
        return {"timestamp": "2026-05-25T10:00:00Z", "type": kind, "payload": payload}

    records = [
        item("session_meta", {"id": "cx-1", "cwd": "/work/proj", "git": {"branch": "dev"}}),
        item("turn_context", {"cwd": "/work/proj", "model": "gpt-5-codex"}),
        item(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>cwd</environment_context>"}
                ],
            },
        ),
        item("event_msg", {"type": "user_message", "message": "Fix the build"}),
        item(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Fix the build"}],
            },
        ),
        item(
            "response_item",
            {
                "type": "function_call",
                "name": "update_plan",
                "call_id": "p1",
                "arguments": json.dumps(
                    {
                        "plan": [
                            {"step": "Run make", "status": "completed"},
                            {"step": "Patch Makefile", "status": "in_progress"},
                        ]
                    }
                ),
            },
        ),
        item(
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "call_id": "c1",
                "arguments": json.dumps({"command": ["bash", "-lc", "make"]}),
            },
        ),
        item(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "c1",
                "output": json.dumps(
                    {"output": "make: *** [all] Error 2", "metadata": {"exit_code": 2}}
                ),
            },
        ),
        item(
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "last_token_usage": {
                        "input_tokens": 50000,
                        "cached_input_tokens": 40000,
                        "output_tokens": 1000,
                        "total_tokens": 51000,
                    },
                    "total_token_usage": {
                        "input_tokens": 90000,
                        "cached_input_tokens": 70000,
                        "output_tokens": 3000,
                        "total_tokens": 93000,
                    },
                    "model_context_window": 200000,
                },
            },
        ),
        item("compacted", {"message": "summary so far"}),
        item("event_msg", {"type": "context_compacted"}),
        item("event_msg", {"type": "agent_message", "message": "Patched it."}),
    ]
    t = read_transcript(write_jsonl(tmp_path / "rollout-2026-05-25T10-00-00-cx-1.jsonl", records))
    assert t.platform == "codex" and t.session_id == "cx-1" and t.git_branch == "dev"
    assert [(m.role, m.text) for m in t.conversation] == [
        ("user", "Fix the build"),
        ("assistant", "Patched it."),
    ]
    assert [(p.text, p.status) for p in t.plan] == [
        ("Run make", "completed"),
        ("Patch Makefile", "in_progress"),
    ]
    assert t.tool_results[0].is_error and t.tool_results[0].name == "shell"
    assert t.last_usage is not None and t.last_usage.context_tokens == 51000
    assert t.total_usage.output_tokens == 3000 and t.context_window == 200000
    assert len(t.compactions) == 1 and t.compactions[0].summary == "summary so far"


def test_gemini_jsonl_updates_and_openclaw_branches(tmp_path: Path) -> None:
    gem = write_jsonl(
        tmp_path / "session-1.jsonl",
        [
            {"sessionId": "g1", "projectHash": "abc", "startTime": "2026-05-25T10:00:00Z"},
            {
                "id": "a",
                "type": "user",
                "content": [{"text": "hi"}],
                "timestamp": "2026-05-25T10:00:01Z",
            },
            {
                "id": "b",
                "type": "gemini",
                "content": "draft",
                "tokens": {"input": 100, "output": 1, "cached": 40},
            },
            {
                "id": "b",
                "type": "gemini",
                "content": "final",
                "tokens": {"input": 120, "output": 2, "cached": 40},
            },
            {"$set": {"summary": "greeting"}},
        ],
    )
    g = read_transcript(gem)
    assert [m.text for m in g.messages] == ["hi", "final"] and g.title == "greeting"
    assert g.last_usage is not None and g.last_usage.context_tokens == 120
    oc = write_jsonl(
        tmp_path / "oc.jsonl",
        [
            {"type": "session", "version": 3, "id": "oc-1", "cwd": "/w"},
            {
                "type": "message",
                "id": "1",
                "parentId": None,
                "message": {"role": "user", "content": "go"},
            },
            {
                "type": "message",
                "id": "2",
                "parentId": "1",
                "message": {"role": "assistant", "content": [{"type": "text", "text": "old"}]},
            },
            {
                "type": "message",
                "id": "3",
                "parentId": "1",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "new"}],
                    "usage": {
                        "input": 5,
                        "output": 2,
                        "cacheRead": 100,
                        "cacheWrite": 0,
                        "totalTokens": 107,
                    },
                },
            },
            {
                "type": "compaction",
                "id": "4",
                "parentId": "3",
                "summary": "s",
                "tokensBefore": 5000,
            },
        ],
    )
    o = read_transcript(oc)
    assert [m.text for m in o.conversation] == ["go", "new"] and o.dropped_records == 1
    assert o.last_usage is not None and o.last_usage.context_tokens == 107
    assert o.compactions[0].pre_tokens == 5000


# ---- bad input ----------------------------------------------------------------------------


def test_truncated_corrupt_bom_crlf_and_non_utf8_lines_are_skipped(tmp_path: Path) -> None:
    path, _ = claude_session(tmp_path)
    good = read_transcript(path)
    data = path.read_bytes()
    lines = data.split(b"\n")
    dirty = (
        b"\xef\xbb\xbf"
        + b"\r\n".join(lines[:3])
        + b"\r\n{not json\r\n\xff\xfe garbage\r\n"
        + b"\r\n".join(lines[3:-1])
        + b'\r\n{"type": "assistant", "mess'
    )
    dirty_path = tmp_path / "dirty.jsonl"
    dirty_path.write_bytes(dirty)
    t = read_transcript(dirty_path, "claude-code")
    assert t.skipped_lines == 3
    assert [m.text for m in t.messages] == [m.text for m in good.messages]


def test_unknown_record_types_are_counted_not_fatal(tmp_path: Path) -> None:
    w = ClaudeWriter()
    w.user("hello")
    w.records.append({"type": "brand-new-thing", "payload": [1, 2]})
    w.assistant("hi")
    t = read_transcript(w.write(tmp_path / "u.jsonl"))
    assert t.unknown_records == 1 and [m.text for m in t.conversation] == ["hello", "hi"]


def test_missing_folder_empty_undetectable_and_oversized(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(NotFoundError):
        read_transcript(tmp_path / "nope.jsonl")
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(FormatError, match="folder"):
        read_transcript(tmp_path / "dir.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(UsageError, match="--platform"):
        read_transcript(empty)
    assert read_transcript(empty, "codex").messages == []
    with pytest.raises(UsageError, match="unknown platform"):
        read_transcript(empty, "emacs")
    path, _ = claude_session(tmp_path)
    monkeypatch.setattr(jsonl, "MAX_TRANSCRIPT_BYTES", 100)
    with pytest.raises(FormatError, match="over the 100-byte limit"):
        jsonl.read_transcript_bytes(path, limit=jsonl.MAX_TRANSCRIPT_BYTES)
    broken = tmp_path / "session-x.json"
    broken.write_text('{"messages": [ {"type": "user"')
    with pytest.raises(FormatError, match="not a valid JSON document"):
        read_transcript(broken)


def test_parallel_tool_calls_of_one_response_are_not_taken_for_a_rewind(tmp_path: Path) -> None:
    """Claude Code chains a response's parallel calls, and hangs each result off its own
    call: the other calls are a side branch of the chain, not an abandoned attempt."""
    w = ClaudeWriter(session="par", cwd="/p")
    w.user("read both files please, then tell me what differs")
    first = w.assistant(tools=[w.tool_use("Read", "t1", file_path="/p/a.py")], msg_id="m1")
    w.assistant(tools=[w.tool_use("Read", "t2", file_path="/p/b.py")], msg_id="m1")
    w.result("t2", "b")
    w.last = first
    w.result("t1", "a")
    w.assistant("They differ in one line.")
    t = read_transcript(w.write(tmp_path / "par.jsonl"), "claude-code")
    assert t.dropped_records == 0
    assert [c.input["file_path"] for c in t.tool_calls] == ["/p/a.py", "/p/b.py"]
    assert len(t.tool_results) == 2


def test_codex_context_the_app_wraps_in_tags_is_not_a_request(tmp_path: Path) -> None:
    def user(text: str) -> dict[str, object]:
        return {
            "timestamp": "2026-06-02T16:20:54Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": text}],
            },
        }

    records: list[dict[str, object]] = [
        {"timestamp": "x", "type": "session_meta", "payload": {"id": "c", "cwd": "/r"}},
        user("<skills_instructions>\nuse skills\n</skills_instructions>"),
        user("Review the current code changes and provide prioritized findings."),
        user("<user_action>\n  <action>review</action>\n</user_action>"),
        user("<b>bold</b> is how I would write it, please fix the heading"),
    ]
    t = read_transcript(write_jsonl(tmp_path / "rollout-x.jsonl", records), "codex")
    assert t.user_requests() == [
        "Review the current code changes and provide prioritized findings.",
        "<b>bold</b> is how I would write it, please fix the heading",
    ]


def test_gemini_hook_context_is_not_the_users_words(tmp_path: Path) -> None:
    """Gemini CLI 0.61 stores what SessionStart/BeforeAgent hooks added inside the user's
    message (seen from the real client in tests/agents): read back, it would become the
    user's "request" and feed the next hook's context with its own output."""
    injected = (
        "<hook_context>Your Memory Session ID is: x\n\n## Session Title\n\n"
        "&lt;hook_context&gt;older&lt;/hook_context&gt;</hook_context>\n"
    )
    gem = write_jsonl(
        tmp_path / "session-2.jsonl",
        [
            {"sessionId": "g2", "projectHash": "abc", "startTime": "2026-05-25T10:00:00Z"},
            {"id": "a", "type": "user", "content": [{"text": injected + "Fix the limiter"}]},
            {"id": "b", "type": "user", "content": [{"text": "<hook_context>a</hook_context>"}]},
            {"id": "c", "type": "user", "content": [{"text": "plain <b>html</b> stays"}]},
        ],
    )
    texts = [m.text for m in read_transcript(gem).messages]
    assert texts[0] == "Fix the limiter"
    assert "hook_context" not in " ".join(texts)
    assert texts[-1] == "plain <b>html</b> stays"
