"""Each platform's hook events as the agent sends them, and what reaches its model back.

The replays call ``workmem hook EVENT --platform P`` with the event names and JSON fields
the platform itself uses (``hooks.events`` lists the names; ``hooks.io`` reads the
fields): Claude Code, Codex and Gemini CLI send ``session_id``/``transcript_path``/``cwd``;
Cursor ``conversation_id`` and ``workspace_roots``; OpenClaw's hook bridge
(``platforms.openclaw_hook``) forwards ``sessionId``, ``sessionKey``, ``workspaceDir``,
``agentId``, the message text as ``content``, and the ended session's file at ``/new``.

What the model is given differs as much: ``hookSpecificOutput.additionalContext`` (Claude
Code, Codex, Gemini CLI, at session start and before a prompt), Cursor's
``additional_context`` at session start and its rules file (``.cursor/rules/workmem.mdc``,
sent with every request) for the rest, OpenClaw's ``context`` only at bootstrap (a
``WORKMEM.md`` bootstrap file). An answer the platform does not hand to the model is not
counted as context.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .layouts import OPENCLAW_AGENT

START, PROMPT, COMPACT, TURN_END, END = "start", "prompt", "pre-compact", "turn-end", "end"

#: platform -> {step: the platform's own event name}
EVENT_NAMES: dict[str, dict[str, str]] = {
    "claude-code": {
        START: "SessionStart",
        PROMPT: "UserPromptSubmit",
        COMPACT: "PreCompact",
        TURN_END: "Stop",
        END: "SessionEnd",
    },
    "codex": {
        START: "SessionStart",
        PROMPT: "UserPromptSubmit",
        COMPACT: "PreCompact",
        TURN_END: "Stop",
        END: "SessionEnd",
    },
    "gemini": {
        START: "SessionStart",
        PROMPT: "BeforeAgent",
        COMPACT: "PreCompress",
        TURN_END: "AfterAgent",
        END: "SessionEnd",
    },
    "cursor": {
        START: "sessionStart",
        PROMPT: "beforeSubmitPrompt",
        COMPACT: "preCompact",
        TURN_END: "stop",
        END: "sessionEnd",
    },
    "openclaw": {
        START: "agent:bootstrap",
        PROMPT: "message:received",
        COMPACT: "session:compact:before",
        # the end of the agent's reply; run only when workmem subscribes to it (its
        # ``command:stop`` is the person's /stop, not the end of a turn)
        TURN_END: "message:sent",
        END: "command:new",
    },
}


def event_name(platform: str, step: str) -> str | None:
    """The platform's event for ``step``, or None when workmem does not hook it there."""
    from ..hooks.events import PLATFORM_EVENTS

    name = EVENT_NAMES[platform][step]
    return name if name in PLATFORM_EVENTS[platform] else None


def payload(
    platform: str,
    step: str,
    *,
    session_id: str,
    transcript: Path,
    root: Path,
    text: str | None = None,
    source: str = "startup",
) -> dict[str, Any]:
    """The JSON ``platform`` sends for ``step`` (``text``: the prompt, or the reply at a
    turn end)."""
    name = EVENT_NAMES[platform][step]
    if platform == "openclaw":
        data: dict[str, Any] = {
            "sessionId": session_id,
            "sessionKey": f"agent:{OPENCLAW_AGENT}:main",
            "workspaceDir": str(root),
            "agentId": OPENCLAW_AGENT,
        }
        if step in (PROMPT, TURN_END) and text is not None:
            data["content"] = text
        if step == END:
            data.update(sessionFile=str(transcript), commandSource="tui")
        return data
    if platform == "cursor":
        data = {
            "conversation_id": session_id,
            "generation_id": f"{session_id}-g",
            "hook_event_name": name,
            "workspace_roots": [str(root)],
            "transcript_path": str(transcript),
        }
        if step == START:
            data.update(session_id=session_id, composer_mode="agent")
        elif step == PROMPT:
            data.update(prompt=text or "", attachments=[])
        elif step == TURN_END:
            data.update(status="completed", loop_count=0)
        elif step == END:
            data.update(session_id=session_id, reason="user_close")
        return data
    data = {
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": str(root),
        "hook_event_name": name,
    }
    if step == START:
        data["source"] = source
    elif step == PROMPT:
        data["prompt"] = text or ""
    elif step == COMPACT:
        # A cut falls anywhere in a session. Gemini CLI compresses on its own only near its
        # threshold (and asks its PreCompress hook before every request, compressing or not),
        # so a compression at an arbitrary moment is the user's /compress there.
        data["trigger"] = "manual" if platform == "gemini" else "auto"
    elif step == TURN_END:
        data["stop_hook_active"] = False
        if platform == "gemini":
            data.update(prompt="", prompt_response=text or "")
        elif platform == "codex":
            data["last_assistant_message"] = text or ""
    elif step == END:
        data["reason"] = "exit" if platform == "gemini" else "prompt_input_exit"
    return data


def model_context(platform: str, step: str, stdout: str, root: Path) -> str:
    """What of a hook's answer reaches the model, in ``platform``'s own reply format."""
    text = stdout.strip()
    data: Any = None
    if text:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
    if platform == "openclaw":
        if step == START and isinstance(data, dict) and isinstance(data.get("context"), str):
            return str(data["context"])
        return ""
    if platform == "cursor":
        if step == START and isinstance(data, dict):
            value = data.get("additional_context")
            return value if isinstance(value, str) else ""
        if step in (PROMPT, COMPACT):
            return rules_file(root)
        return ""
    if step not in (START, PROMPT) or not isinstance(data, dict):
        return ""
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict) and isinstance(specific.get("additionalContext"), str):
        return str(specific["additionalContext"])
    return ""


def rules_file(root: Path) -> str:
    """Cursor's rules file without its front matter: sent with every request."""
    path = root / ".cursor" / "rules" / "workmem.mdc"
    if not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8", errors="replace")
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end >= 0:
            text = text[end + 5 :]
    return text.strip()
