"""Hook input of each platform read into one shape; answers in each platform's format."""

from __future__ import annotations

import json
import time
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
