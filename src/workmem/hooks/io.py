"""Reading a platform's hook JSON into one shape, and writing answers in its own format.

Field names differ per platform (Cursor says ``conversation_id``, OpenClaw ``sessionKey``)
and so do answers (Claude Code and Codex want ``hookSpecificOutput.additionalContext``,
Cursor ``additional_context``, Gemini the Claude-like shape and nothing else on stdout).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .events import PRE_COMPACT, SESSION_START, USER_PROMPT, platform_event_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any


@dataclass
class HookInput:
    """A platform's hook JSON in one shape; ``raw`` keeps the rest for platform-specific needs."""

    platform: str
    event: str
    session_id: str | None = None
    transcript: Path | None = None
    cwd: Path | None = None
    prompt: str | None = None
    source: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)


def _first(data: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        value = data.get(key)
        if value not in (None, ""):
            return value
    return None


def _payload_path(value: Any) -> Path | None:
    """A path as the agent sent it: quotes, ``file://`` URIs and Windows forms handled
    (``oscompat.outside_path``); ``None`` for nothing usable."""
    if not value:
        return None
    from ..files.oscompat import outside_path

    text = str(value)
    return Path(outside_path(text)).expanduser() if text.strip() else None


def parse_input(text: str, platform: str, event: str) -> HookInput:
    """Tolerant: empty or non-JSON stdin gives an input with only platform and event."""
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    nested = data.get("context")
    context: dict[str, Any] = nested if isinstance(nested, dict) else {}
    merged = {**context, **data}
    session = _first(merged, "session_id", "conversation_id", "sessionId", "sessionKey")
    transcript = _first(merged, "transcript_path", "transcriptPath", "sessionFile")
    cwd = _first(merged, "cwd", "workspaceDir", "workspace_dir")
    roots = merged.get("workspace_roots")
    if cwd is None and isinstance(roots, list) and roots:
        cwd = roots[0]
    prompt = _first(merged, "prompt", "user_prompt", "content", "message")
    source = _first(merged, "source", "trigger", "reason")
    return HookInput(
        platform=platform,
        event=event,
        session_id=str(session) if session is not None else None,
        transcript=_payload_path(transcript),
        cwd=_payload_path(cwd),
        prompt=str(prompt) if isinstance(prompt, str) else None,
        source=str(source) if source is not None else None,
        raw=data,
    )


def format_output(platform: str, event: str, context: str | None, notice: str | None = None) -> str:
    """The platform's answer: injected ``context`` for the model, ``notice`` for the user.

    Returns "" when there is nothing to say, which every platform accepts.
    """
    if not context and not notice:
        return ""
    if platform == "cursor":
        payload: dict[str, Any] = {}
        if context and event == SESSION_START:
            payload["additional_context"] = context
        elif event == USER_PROMPT:
            payload["continue"] = True
            if context:
                payload["additional_context"] = context
        if notice:
            payload["user_message"] = notice
        return json.dumps(payload, ensure_ascii=False) if payload else ""
    if platform == "openclaw":
        messages = [m for m in (notice,) if m]
        return json.dumps({"context": context or "", "messages": messages}, ensure_ascii=False)
    payload = {}
    if context and event in (SESSION_START, USER_PROMPT):
        payload["hookSpecificOutput"] = {
            "hookEventName": platform_event_name(event, platform),
            "additionalContext": context,
        }
    if notice or (context and event not in (SESSION_START, USER_PROMPT, PRE_COMPACT)):
        payload["systemMessage"] = notice or context
    return json.dumps(payload, ensure_ascii=False) if payload else ""
