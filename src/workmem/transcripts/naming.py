"""Which agent platform wrote a transcript: its names, where its files live, its records' shape.

Kept apart from reading (``read.py``) because the prompt hook and transcript discovery need
only the names, and should not load the reading code and its JSONL parser to get them.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from .jsonl import Records

PLATFORMS = ("claude-code", "codex", "gemini", "cursor", "openclaw")
#: the names people know the platforms by
DISPLAY_NAMES = {
    "claude-code": "Claude Code",
    "codex": "Codex",
    "gemini": "Gemini CLI",
    "cursor": "Cursor",
    "openclaw": "OpenClaw",
}
_ALIASES = {
    "claude": "claude-code",
    "claude-code": "claude-code",
    "claudecode": "claude-code",
    "codex": "codex",
    "codex-cli": "codex",
    "gemini": "gemini",
    "gemini-cli": "gemini",
    "cursor": "cursor",
    "cursor-agent": "cursor",
    "openclaw": "openclaw",
    "pi": "openclaw",
}
_PATH_HINTS = (
    (".claude", "claude-code"),
    (".codex", "codex"),
    (".gemini", "gemini"),
    (".cursor", "cursor"),
    (".openclaw", "openclaw"),
)
_CODEX_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
)
_CLAUDE_TYPES = frozenset({"user", "assistant", "summary", "file-history-snapshot", "system"})


def normalize_platform(name: str | None) -> str | None:
    if name is None:
        return None
    key = name.strip().lower()
    if key not in _ALIASES:
        raise UsageError(f"unknown platform {name!r}: use one of {', '.join(PLATFORMS)}")
    return _ALIASES[key]


def platform_from_path(path: Path) -> str | None:
    parts = set(path.parts)
    for marker, platform in _PATH_HINTS:
        if marker in parts:
            return platform
    if path.name.startswith("rollout-"):
        return "codex"
    return None


def _sniff_record(record: dict[str, Any]) -> str | None:
    kind = record.get("type")
    if kind in _CODEX_TYPES and "payload" in record:
        return "codex"
    if (kind == "session" and "version" in record) or (kind == "message" and "parentId" in record):
        return "openclaw"
    if "$set" in record or "projectHash" in record or kind == "gemini":
        return "gemini"
    if "parentUuid" in record or ("sessionId" in record and kind in _CLAUDE_TYPES):
        return "claude-code"
    if "role" in record and "message" in record and "type" not in record:
        return "cursor"
    return None


def sniff_platform(records: Records) -> str | None:
    """The first decisive record's platform; Cursor's bare shape only if nothing else says."""
    weak = None
    for record in records.items[:50]:
        found = _sniff_record(record)
        if found == "cursor":
            weak = weak or found
        elif found:
            return found
    return weak
