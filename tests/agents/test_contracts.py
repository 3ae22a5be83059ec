"""Each platform's hook contract, from its own source or documentation (cited per test):
the payloads it sends, fed to ``workmem hook``, and the answers checked against what the
platform reads. These run everywhere; the real clients' runs are in the other tests here.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from workmem.cli import main

from .conftest import NODE_BIN

#: universal output fields every one of these platforms accepts beside hookSpecificOutput
UNIVERSAL = {"continue", "stopReason", "suppressOutput", "systemMessage", "hookSpecificOutput"}


def run_hook(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    platform: str,
    event: str,
    payload: dict[str, Any],
) -> dict[str, Any] | None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    monkeypatch.setenv("WORKMEM_HOOK_FOREGROUND", "1")
    assert main(["hook", event, "--platform", platform]) == 0
    out = capsys.readouterr().out.strip()
    if not out:
        return None
    answer = json.loads(out)  # stdout holds the JSON answer and nothing else
    assert isinstance(answer, dict)
    return answer


def test_claude_code_contract(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """https://code.claude.com/docs/en/hooks (SessionStart sources startup|resume|clear|
    compact; hookSpecificOutput.additionalContext for SessionStart and UserPromptSubmit;
    PreCompact and SessionEnd take no context). Payload fields as Claude Code 2.1.332 sent
    them in tests/agents/test_claude_code.py."""
    base = {
        "session_id": "4ede83f9-7a31-4add-a3e9-23c3acdee3ff",
        "transcript_path": str(root / "t.jsonl"),
        "cwd": str(root),
    }
    start = run_hook(
        monkeypatch,
        capsys,
        "claude-code",
        "SessionStart",
        {**base, "hook_event_name": "SessionStart", "source": "startup"},
    )
    assert start is not None and set(start) <= UNIVERSAL
    assert start["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert start["hookSpecificOutput"]["additionalContext"].startswith("Your Memory Session ID")
    prompt = run_hook(
        monkeypatch,
        capsys,
        "claude-code",
        "UserPromptSubmit",
        {
            **base,
            "prompt_id": "765036cc",
            "permission_mode": "acceptEdits",
            "hook_event_name": "UserPromptSubmit",
            "prompt": "整理 memory",
        },
    )
    assert prompt is not None and set(prompt) <= UNIVERSAL
    assert prompt["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    pre = run_hook(
        monkeypatch,
        capsys,
        "claude-code",
        "PreCompact",
        {**base, "hook_event_name": "PreCompact", "trigger": "manual", "custom_instructions": ""},
    )
    assert pre is None or set(pre) <= {"systemMessage", "continue", "suppressOutput"}
    end = {**base, "hook_event_name": "SessionEnd", "reason": "other"}
    assert run_hook(monkeypatch, capsys, "claude-code", "SessionEnd", end) is None


def _codex_session_start_output(answer: dict[str, Any]) -> None:
    """codex-rs/hooks/schema/generated/session-start.command.output.schema.json: no
    additional properties at either level; hookEventName is the constant "SessionStart"."""
    assert set(answer) <= {
        "continue",
        "hookSpecificOutput",
        "stopReason",
        "suppressOutput",
        "systemMessage",
    }
    specific = answer["hookSpecificOutput"]
    assert set(specific) <= {"additionalContext", "env", "hookEventName"}
    assert specific["hookEventName"] == "SessionStart"
    assert isinstance(specific["additionalContext"], str)


def test_codex_contract(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Inputs per codex-rs/hooks/schema/generated/*.command.input.schema.json (all required
    fields present); SessionStart source startup|resume|clear|compact
    (codex-rs/hooks/src/events/session_start.rs). SessionEnd as Codex 0.171 sent it."""
    base = {
        "session_id": "01a23247-a6c4-7c62-8cba-da83f2f500a4",
        "transcript_path": None,
        "cwd": str(root),
        "model": "gpt-5",
        "permission_mode": "bypassPermissions",
    }
    for source in ("startup", "compact"):
        answer = run_hook(
            monkeypatch,
            capsys,
            "codex",
            "SessionStart",
            {**base, "hook_event_name": "SessionStart", "source": source},
        )
        assert answer is not None
        _codex_session_start_output(answer)
    prompt = run_hook(
        monkeypatch,
        capsys,
        "codex",
        "UserPromptSubmit",
        {**base, "hook_event_name": "UserPromptSubmit", "turn_id": "t1", "prompt": "整理 memory"},
    )
    assert prompt is not None and set(prompt) <= UNIVERSAL
    assert prompt["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    for event, extra in (
        ("PreCompact", {"turn_id": "t1", "trigger": "auto"}),
        ("Stop", {"turn_id": "t1", "stop_hook_active": False, "last_assistant_message": "ok"}),
        ("SessionEnd", {"reason": "other"}),
    ):
        answer = run_hook(
            monkeypatch, capsys, "codex", event, {**base, "hook_event_name": event, **extra}
        )
        assert answer is None or set(answer) <= {
            "continue",
            "stopReason",
            "systemMessage",
            "suppressOutput",
        }


def test_gemini_cli_contract(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """google-gemini/gemini-cli docs/hooks/reference.md (commit 5411f113): base input
    session_id, transcript_path, cwd, hook_event_name, timestamp; SessionStart source
    startup|resume|clear and BeforeAgent take hookSpecificOutput.additionalContext;
    PreCompress and SessionEnd only systemMessage; stdout must be the JSON alone."""
    base = {
        "session_id": "20e795ef-64f5-41ae-a82d-2d0e7c5201fc",
        "transcript_path": str(root / "session.jsonl"),
        "cwd": str(root),
        "timestamp": "2026-12-01T15:56:59.417Z",
    }
    start = run_hook(
        monkeypatch,
        capsys,
        "gemini",
        "SessionStart",
        {**base, "hook_event_name": "SessionStart", "source": "startup"},
    )
    assert start is not None and set(start) <= UNIVERSAL
    assert start["hookSpecificOutput"] == {
        "hookEventName": "SessionStart",
        "additionalContext": start["hookSpecificOutput"]["additionalContext"],
    }
    agent = run_hook(
        monkeypatch,
        capsys,
        "gemini",
        "BeforeAgent",
        {**base, "hook_event_name": "BeforeAgent", "prompt": "整理 memory"},
    )
    assert agent is not None and agent["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    for event, extra in (("PreCompress", {"trigger": "auto"}), ("SessionEnd", {"reason": "exit"})):
        answer = run_hook(
            monkeypatch, capsys, "gemini", event, {**base, "hook_event_name": event, **extra}
        )
        assert answer is None or set(answer) <= {"systemMessage", "suppressOutput"}


def test_cursor_contract(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """https://cursor.com/docs/agent/hooks: common input conversation_id, generation_id,
    workspace_roots, hook_event_name; sessionStart answers additional_context;
    beforeSubmitPrompt answers only continue and user_message (the official page was not
    reachable from here; the same fields are listed by cupcake.eqtylab.io/reference/
    harnesses/cursor, and issue 14)."""
    base = {
        "conversation_id": "conv-123",
        "generation_id": "gen-456",
        "workspace_roots": [str(root)],
        "model": "gpt-5",
        "cursor_version": "2.0.77",
    }
    start = run_hook(
        monkeypatch, capsys, "cursor", "sessionStart", {**base, "hook_event_name": "sessionStart"}
    )
    assert start is not None and set(start) == {"additional_context"}
    prompt = run_hook(
        monkeypatch,
        capsys,
        "cursor",
        "beforeSubmitPrompt",
        {
            **base,
            "hook_event_name": "beforeSubmitPrompt",
            "prompt": "整理 memory",
            "attachments": [],
        },
    )
    assert prompt is None or set(prompt) <= {"continue", "user_message"}
    rules = root / ".cursor" / "rules" / "workmem.mdc"
    assert "Organized" in rules.read_text() or "整理 memory" in rules.read_text()


# -- OpenClaw: the generated handler, run by a real Node -----------------------------------
def _node() -> str:
    """A Node that runs TypeScript as OpenClaw's hook loader does (type stripping: 22.6+)."""
    for candidate in (NODE_BIN / "node", shutil.which("node")):
        if candidate is None or not Path(candidate).is_file():
            continue
        version = subprocess.run(
            [str(candidate), "--version"], capture_output=True, text=True, check=False
        ).stdout.strip()
        major = int(version.lstrip("v").split(".")[0] or 0) if version else 0
        if major >= 23:
            return str(candidate)
    pytest.skip("no Node 23+ (type stripping) found; `make agents` installs one")


def test_openclaw_handler_contract(tmp_path: Path) -> None:
    """docs/automation/hooks/writing-hooks.md and event-types.md (openclaw 2026.9.6
    package): a handler gets {type, action, sessionKey, context, messages}; bootstrap's
    context.bootstrapFiles is the one mutable field; compaction carries sessionId and
    counts only; command:new/reset carry previousSessionEntry and cfg."""
    from workmem.platforms.openclaw_hook import files

    node = _node()
    calls = tmp_path / "calls.jsonl"
    stub = tmp_path / "workmem-stub"
    stub.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import json, sys, time
            event = sys.argv[2]
            data = json.loads(sys.stdin.read())
            if event == "session:compact:before":
                time.sleep(2)  # a long save: must not be cut short
            with open({str(calls)!r}, "a") as f:
                f.write(json.dumps({{"event": event, "input": data}}) + "\\n")
            if event == "agent:bootstrap":
                print(json.dumps({{"context": "Your Memory Session ID is: X", "messages": []}}))
            """
        )
    )
    stub.chmod(0o755)
    folder = tmp_path / "hooks" / "workmem"
    folder.mkdir(parents=True)
    for name, text in files(str(stub)).items():
        (folder / name).write_text(text)
    driver = tmp_path / "driver.mjs"
    driver.write_text(
        textwrap.dedent(
            f"""\
            import handler from {json.dumps(str(folder / "handler.ts"))};
            let ticks = 0;
            const timer = setInterval(() => ticks++, 50);
            const cfg = {{ gateway: {{ auth: {{ token: "SECRET-TOKEN" }} }} }};
            const key = "agent:main:main";
            const boot = {{ type: "agent", action: "bootstrap", sessionKey: key,
              context: {{ workspaceDir: "/ws", bootstrapFiles: [], cfg, sessionKey: key,
                         sessionId: "s-1", agentId: "main" }}, messages: [] }};
            await handler(boot);
            const compact = {{ type: "session", action: "compact:before", sessionKey: key,
              context: {{ sessionId: "s-1", missingSessionKey: false, messageCount: 40,
                         messageCountOriginal: 40 }}, messages: [] }};
            const before = ticks;
            await handler(compact);
            const reset = {{ type: "command", action: "new", sessionKey: key,
              context: {{ cfg, agentId: "main", workspaceDir: "/ws", commandSource: "telegram",
                previousSessionEntry: {{ sessionId: "s-1", sessionFile: "/state/s-1.jsonl" }},
                sessionEntry: {{ sessionId: "s-2" }} }}, messages: [] }};
            await handler(reset);
            // 2026.9: no session file; the store is named by storePath (a legacy selector)
            const reset9 = {{ type: "command", action: "reset", sessionKey: key,
              context: {{ cfg, agentId: "main", workspaceDir: "/ws", commandSource: "gateway:agent",
                storePath: "/state/agents/main/sessions/sessions.json",
                previousSessionEntry: {{ sessionId: "s-1" }},
                sessionEntry: {{ sessionId: "s-1" }} }},
              messages: [] }};
            await handler(reset9);
            clearInterval(timer);
            console.log(JSON.stringify({{ files: boot.context.bootstrapFiles,
                                          ticksDuringSave: ticks - before }}));
            """
        )
    )
    proc = subprocess.run(
        [node, str(driver)], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["files"] == [
        {
            "name": "WORKMEM.md",
            "path": "WORKMEM.md",
            "content": "Your Memory Session ID is: X",
            "missing": False,
        }
    ]
    # The 2 s save ran to its end while the event loop kept ticking (no spawnSync).
    assert result["ticksDuringSave"] >= 20
    seen = [json.loads(line) for line in calls.read_text().splitlines()]
    assert [c["event"] for c in seen] == [
        "agent:bootstrap",
        "session:compact:before",
        "command:new",
        "command:reset",
    ]
    assert "SECRET-TOKEN" not in calls.read_text() and "cfg" not in calls.read_text()
    boot, compact, reset, reset9 = (c["input"] for c in seen)
    assert boot == {
        "sessionId": "s-1",
        "sessionKey": "agent:main:main",
        "workspaceDir": "/ws",
        "agentId": "main",
    }
    # compaction names only the session: the workspace and agent come from its bootstrap
    assert compact["workspaceDir"] == "/ws" and compact["agentId"] == "main"
    assert compact["sessionId"] == "s-1" and compact["messageCount"] == 40
    # /new: the replaced session, as bootstrap registered it
    assert reset["sessionId"] == "s-1" and reset["sessionFile"] == "/state/s-1.jsonl"
    # 2026.9's reset: the store path goes along, so workmem finds the session in SQLite
    assert reset9["sessionId"] == "s-1" and "sessionFile" not in reset9
    assert reset9["storePath"] == "/state/agents/main/sessions/sessions.json"
