"""Reading a platform's hook JSON into one shape, and writing answers in its own format.

Field names differ per platform (Cursor says ``conversation_id``, OpenClaw ``sessionId``
beside a routing ``sessionKey``) and so do answers (Claude Code and Codex want
``hookSpecificOutput.additionalContext``, Cursor ``additional_context`` at session start
and only ``continue`` before a prompt, Gemini the Claude-like shape and nothing else on
stdout).
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


def _entry_field(data: dict[str, Any], key: str) -> Any:
    """``key`` of OpenClaw's session entry: the replaced session's first (command:new/reset
    carry the old session in ``previousSessionEntry`` and the new one in ``sessionEntry``)."""
    for name in ("previousSessionEntry", "sessionEntry"):
        entry = data.get(name)
        if isinstance(entry, dict) and entry.get(key) not in (None, ""):
            return entry[key]
    return None


def _openclaw_transcript(data: dict[str, Any], session: Any) -> Path | None:
    """Where OpenClaw keeps a session's transcript when the event names only its agent and
    id: from 2026.9 a session inside the agent's SQLite database (``transcripts.
    openclaw_store``, found from the event's ``storePath`` or the agent's id), before that
    ``<state dir>/agents/<agentId>/sessions/<sessionId>.jsonl``."""
    from ..transcripts import openclaw_paths as paths

    if not isinstance(session, str) or not paths.valid_id(session):
        return None  # an id never names a folder; anything else is refused
    agent = data.get("agentId")
    where = data.get("storePath")
    database = paths.database_from_store_path(where) if isinstance(where, str) else None
    if database is None and isinstance(agent, str):
        database = paths.database_for(agent)
    if database is not None and database.is_file():
        return paths.session_path(database, session)
    if not isinstance(agent, str) or not paths.valid_id(agent):
        return None
    return paths.state_dir() / "agents" / agent / "sessions" / f"{session}.jsonl"


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
    # OpenClaw: the sessionId bootstrap registered, never the routing sessionKey when an id
    # is known (command:new/reset carry the id only inside their session entries).
    session = _first(merged, "session_id", "conversation_id", "sessionId") or _entry_field(
        merged, "sessionId"
    )
    if session is None:
        session = merged.get("sessionKey") or None
    transcript = _first(merged, "transcript_path", "transcriptPath", "sessionFile")
    if transcript is None:
        transcript = _entry_field(merged, "sessionFile")
    if platform == "openclaw" and isinstance(transcript, str) and transcript.startswith("sqlite:"):
        from ..transcripts.openclaw_paths import session_from_marker

        transcript = session_from_marker(transcript)  # 2026.9's stand-in for a session file
    if transcript is None and platform == "openclaw":
        transcript = _openclaw_transcript(merged, session)
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
        # beforeSubmitPrompt takes only {continue, user_message} (user_message is what the
        # person sees when a prompt is refused): its context goes to the rules file instead.
        payload: dict[str, Any] = {}
        if event == USER_PROMPT:
            return json.dumps({"continue": True})
        if context and event == SESSION_START:
            payload["additional_context"] = context
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
