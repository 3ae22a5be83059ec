"""Hook input of each platform read into one shape; answers in each platform's format."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from workmem.files.store import Store
from workmem.hooks import session_map
from workmem.hooks.io import format_output, parse_input
from workmem.hooks.runner import HookDeadline, deadline, run_fail_open
from workmem.root import Workspace


def test_claude_code_session_start_input_and_output() -> None:
    raw = json.dumps(
        {
            "session_id": "abc-123",
            "transcript_path": "~/.claude/projects/x/abc-123.jsonl",
            "cwd": "/work/proj",
            "hook_event_name": "SessionStart",
            "source": "compact",
        }
    )
    inp = parse_input(raw, "claude-code", "session-start")
    assert inp.session_id == "abc-123" and inp.source == "compact"
    assert inp.transcript is not None and inp.transcript.name == "abc-123.jsonl"
    out = json.loads(format_output("claude-code", "session-start", "remember this"))
    assert out == {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "remember this",
        }
    }


def test_cursor_fields_and_answers() -> None:
    raw = json.dumps(
        {
            "conversation_id": "c-9",
            "workspace_roots": ["/w"],
            "prompt": "收工",
            "generation_id": "g",
        }
    )
    inp = parse_input(raw, "cursor", "user-prompt-submit")
    assert (inp.session_id, str(inp.cwd), inp.prompt) == ("c-9", "/w", "收工")
    assert json.loads(format_output("cursor", "session-start", "ctx")) == {
        "additional_context": "ctx"
    }
    answer = json.loads(format_output("cursor", "user-prompt-submit", "ctx"))
    assert answer["continue"] is True


def test_gemini_and_codex_use_their_event_names() -> None:
    out = json.loads(format_output("gemini", "user-prompt-submit", "ctx"))
    assert out["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    out = json.loads(format_output("codex", "user-prompt-submit", "ctx"))
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"


def test_openclaw_nested_context() -> None:
    raw = json.dumps({"sessionKey": "main", "workspaceDir": "/ws", "bootstrapFiles": []})
    inp = parse_input(raw, "openclaw", "session-start")
    assert inp.session_id == "main" and str(inp.cwd) == "/ws"
    assert json.loads(format_output("openclaw", "session-start", "ctx"))["context"] == "ctx"


@pytest.mark.parametrize("garbage", ["", "not json", "[1, 2]", "null"])
def test_garbage_input_is_tolerated(garbage: str) -> None:
    inp = parse_input(garbage, "claude-code", "stop")
    assert inp.session_id is None and inp.raw == {}


def test_nothing_to_say_is_empty_output() -> None:
    assert format_output("claude-code", "stop", None) == ""


def test_session_map_round_trip_and_corruption(tmp_path: Path) -> None:
    store = Store(Workspace(tmp_path))
    assert session_map.lookup(store, "claude-code", "abc") is None
    session_map.remember(store, "claude-code", "abc", "2026-05-25-1318-x", Path("/t.jsonl"))
    found = session_map.lookup(store, "claude-code", "abc")
    assert found is not None and found.memory_session_id == "2026-05-25-1318-x"
    assert session_map.lookup(store, "codex", "abc") is None
    (tmp_path / "memory" / ".workmem" / "platform-sessions.json").write_text("{broken")
    assert session_map.lookup(store, "claude-code", "abc") is None
    session_map.remember(store, "claude-code", "def", "2026-05-25-1318-y", None)
    assert session_map.lookup(store, "claude-code", "def") is not None


def test_fail_open_logs_and_returns_nothing(tmp_path: Path) -> None:
    def broken() -> str:
        raise RuntimeError("disk on fire")

    out = run_fail_open(broken, workspace=lambda: Workspace(tmp_path), where="test", seconds=5)
    assert out == ""
    assert "disk on fire" in (tmp_path / "memory" / ".workmem" / "hook.log").read_text()


def test_deadline_stops_slow_work(tmp_path: Path) -> None:
    def slow() -> str:
        time.sleep(5)
        return "late"

    started = time.monotonic()
    out = run_fail_open(slow, workspace=lambda: Workspace(tmp_path), where="slow", seconds=0.2)
    assert out == ""
    assert time.monotonic() - started < 2
    assert "deadline" in (tmp_path / "memory" / ".workmem" / "hook.log").read_text()
    with pytest.raises(HookDeadline), deadline(0.05):
        time.sleep(1)


# -- OpenClaw's payloads (docs/automation/hooks/event-types.md in the openclaw package) ------
def test_openclaw_reset_names_the_replaced_session_not_the_routing_key() -> None:
    """command:new/reset: the ended session is ``previousSessionEntry``; its sessionId is
    the one bootstrap registered, the sessionKey ("agent:main:main") is not."""
    raw = json.dumps(
        {
            "sessionKey": "agent:main:main",
            "workspaceDir": "/ws",
            "previousSessionEntry": {"sessionId": "old-1", "sessionFile": "/s/old-1.jsonl"},
            "sessionEntry": {"sessionId": "new-2", "sessionFile": "/s/new-2.jsonl"},
        }
    )
    inp = parse_input(raw, "openclaw", "session-end")
    assert inp.session_id == "old-1"
    assert str(inp.transcript) == "/s/old-1.jsonl"
    only_key = parse_input(json.dumps({"sessionKey": "agent:main:main"}), "openclaw", "stop")
    assert only_key.session_id == "agent:main:main"


def test_openclaw_compaction_finds_the_transcript_from_agent_and_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    raw = json.dumps({"sessionId": "s-9", "agentId": "main", "messageCount": 40})
    inp = parse_input(raw, "openclaw", "pre-compact")
    assert inp.transcript == tmp_path / "state" / "agents" / "main" / "sessions" / "s-9.jsonl"
    for agent, session in (("../../etc", "s"), ("main", "../x"), ("a/b", "s"), ("main", "a\\b")):
        hostile = json.dumps({"sessionId": session, "agentId": agent})
        assert parse_input(hostile, "openclaw", "pre-compact").transcript is None


def test_cursor_prompt_answer_holds_only_what_cursor_reads() -> None:
    """beforeSubmitPrompt accepts only `continue` and `user_message`."""
    assert json.loads(format_output("cursor", "user-prompt-submit", "ctx", "note")) == {
        "continue": True
    }
    assert format_output("cursor", "user-prompt-submit", None) == ""


# -- context a platform cannot take now, delivered later ----------------------------------
def _gemini_transcript(path: Path, input_tokens: int | None = None) -> Path:
    lines: list[dict[str, object]] = [
        {"sessionId": "g-1", "projectHash": "p", "startTime": "2026-05-25T13:00:00Z"},
        {"id": "1", "type": "user", "content": [{"text": "Add rate limiting to login"}]},
        {
            "id": "2",
            "type": "gemini",
            "content": "Planned it.",
            "toolCalls": [
                {
                    "id": "t1",
                    "name": "write_todos",
                    "args": {"todos": [{"description": "Write limiter", "status": "in_progress"}]},
                    "status": "success",
                }
            ],
        },
    ]
    if input_tokens is not None:  # as Gemini CLI records them on its replies
        lines[-1]["model"] = "gemini-2.5-pro"
        lines[-1]["tokens"] = {"input": input_tokens, "output": 20, "cached": 0}
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_gemini_asks_before_every_request_and_only_a_compression_saves(
    root: Path, tmp_path: Path
) -> None:
    """Gemini CLI fires PreCompress before each request, before it checks its threshold
    (half the window by default): far below it nothing is saved or kept for the next
    prompt; near it, or on a manual /compress, the compaction's save and context are."""
    pending = root / "memory" / ".workmem" / "pending-context.json"
    small = _gemini_transcript(tmp_path / "small.jsonl", input_tokens=20_000)
    base = {"session_id": "g-1", "transcript_path": str(small), "cwd": str(root)}
    _cli_hook(root, "gemini", "SessionStart", {**base, "source": "startup"})
    assert _cli_hook(root, "gemini", "PreCompress", {**base, "trigger": "auto"}) == ""
    assert not pending.exists()
    assert _cli_hook(root, "gemini", "PreCompress", {**base, "trigger": "manual"})
    assert "Write limiter" in json.loads(pending.read_text())["gemini:g-1"]
    pending.unlink()
    full = _gemini_transcript(tmp_path / "full.jsonl", input_tokens=520_000)
    near = {**base, "session_id": "g-2", "transcript_path": str(full)}
    _cli_hook(root, "gemini", "SessionStart", {**near, "source": "startup"})
    assert _cli_hook(root, "gemini", "PreCompress", {**near, "trigger": "auto"})
    assert "gemini:g-2" in json.loads(pending.read_text())


def _cli_hook(root: Path, platform: str, event: str, payload: Mapping[str, object]) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "workmem", "hook", event, "--platform", platform],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=root,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_gemini_gets_the_compacted_sessions_context_with_its_next_prompt(
    root: Path, tmp_path: Path
) -> None:
    transcript = _gemini_transcript(tmp_path / "session-g.jsonl")
    base = {"session_id": "g-1", "transcript_path": str(transcript), "cwd": str(root)}
    _cli_hook(root, "gemini", "SessionStart", {**base, "source": "startup"})
    assert _cli_hook(root, "gemini", "PreCompress", {**base, "trigger": "auto"})
    kept = json.loads((root / "memory" / ".workmem" / "pending-context.json").read_text())
    assert "Write limiter" in kept["gemini:g-1"]
    out = json.loads(_cli_hook(root, "gemini", "BeforeAgent", {**base, "prompt": "go on"}))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("Your Memory Session ID is:") and "Write limiter" in context
    # handed over once
    assert _cli_hook(root, "gemini", "BeforeAgent", {**base, "prompt": "and then"}) == ""
    # another Gemini session does not get it
    _cli_hook(root, "gemini", "PreCompress", {**base, "trigger": "auto"})
    other = {**base, "session_id": "g-2", "prompt": "hi"}
    assert _cli_hook(root, "gemini", "BeforeAgent", other) == ""


def _cursor_transcript(path: Path) -> Path:
    """Cursor's agent transcript shape: {role, message: {content: [blocks]}}."""
    lines = [
        {
            "role": "user",
            "message": {
                "content": [
                    {"type": "text", "text": "<user_query>\nAdd rate limiting\n</user_query>"}
                ]
            },
        },
        {
            "role": "assistant",
            "message": {
                "content": [
                    {"type": "text", "text": "Writing it."},
                    {
                        "type": "tool_use",
                        "name": "Write",
                        "input": {"path": "src/auth/limit.py", "contents": "x"},
                    },
                ]
            },
        },
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def _cursor_payload(root: Path, tmp_path: Path) -> dict[str, object]:
    transcript = _cursor_transcript(tmp_path / "c.jsonl")
    return {
        "conversation_id": "c-1",
        "transcript_path": str(transcript),
        "workspace_roots": [str(root)],
    }


def test_cursor_context_goes_to_a_rules_file(root: Path, tmp_path: Path) -> None:
    base = _cursor_payload(root, tmp_path)
    _cli_hook(root, "cursor", "sessionStart", base)
    rules = root / ".cursor" / "rules" / "workmem.mdc"
    assert not rules.exists()
    _cli_hook(root, "cursor", "preCompact", base)
    text = rules.read_text()
    assert text.startswith("---\ndescription:") and "alwaysApply: true" in text
    assert "Your Memory Session ID is:" in text and "src/auth/limit.py" in text
    answer = _cli_hook(root, "cursor", "beforeSubmitPrompt", {**base, "prompt": "狀態更新"})
    assert answer.strip() in ("", '{"continue": true}')  # no context: Cursor would drop it
    updated = rules.read_text()
    assert "## Latest from workmem" in updated and "[workmem: 狀態更新]" in updated
    assert updated.split("## Latest from workmem")[0].strip() in text  # the state is kept


def test_cursor_rules_file_never_written_through_a_link_outside(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".cursor").mkdir()
    (root / ".cursor" / "rules").symlink_to(outside, target_is_directory=True)
    base = _cursor_payload(root, tmp_path)
    _cli_hook(root, "cursor", "sessionStart", base)
    assert _cli_hook(root, "cursor", "preCompact", base) == ""
    assert list(outside.iterdir()) == []
    assert "leads outside the project" in (root / "memory" / ".workmem" / "hook.log").read_text()


def test_session_end_answers_at_once_and_saves_in_a_detached_process(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No platform waits for a 15-25 s save at session end (Codex cuts it at 3 s)."""
    from workmem.demo_transcript import claude_code

    monkeypatch.delenv("WORKMEM_HOOK_FOREGROUND", raising=False)
    transcript = claude_code(tmp_path / "e.jsonl", cwd=str(root))
    base = {"session_id": "e-1", "transcript_path": str(transcript), "cwd": str(root)}
    _cli_hook(root, "claude-code", "SessionStart", {**base, "source": "startup"})
    started = time.monotonic()
    assert _cli_hook(root, "claude-code", "SessionEnd", {**base, "reason": "other"}) == ""
    assert time.monotonic() - started < 3
    deadline = time.monotonic() + 60
    resumption = root / "memory" / "resumption.md"
    while not resumption.is_file() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "memory session" in resumption.read_text()
    log = root / "memory" / ".workmem" / "hook.log"
    assert not log.exists() or log.read_text() == ""
