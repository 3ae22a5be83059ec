"""``read_transcript``: any platform's transcript file to the one model.

The platform is named by the caller, or told by where the file lives (``~/.claude``,
``~/.codex``…), or by the shape of its first records, in that order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import UsageError
from .jsonl import Records, parse_lines, read_transcript_bytes
from .model import Transcript

PLATFORMS = ("claude-code", "codex", "gemini", "cursor", "openclaw")
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


def parse_records(
    records: Records,
    path: Path,
    platform: str,
    *,
    subagents: bool = True,
    known_main: bool = False,
) -> Transcript:
    """Build the model from already-parsed JSONL records of a known platform."""
    if platform == "claude-code":
        from . import claude

        return claude.parse(records, path, subagents=subagents, known_main=known_main)
    if platform == "codex":
        from . import codex

        return codex.parse(records, path)
    if platform == "gemini":
        from . import gemini

        return gemini.parse_lines(records, path)
    if platform == "cursor":
        from . import cursor

        return cursor.parse(records, path, subagents=subagents)
    from . import openclaw

    return openclaw.parse(records, path)


def read_transcript(path: Path, platform: str | None = None) -> Transcript:
    """Read a whole transcript; tolerant of unknown records, cut and corrupt lines.

    The cyclic garbage collector is paused while the records are built: a long transcript
    makes hundreds of thousands of small dicts, none of them cyclic, and the collector's
    repeated passes over them otherwise cost more than the parsing itself.
    """
    import gc

    paused = gc.isenabled()
    gc.disable()
    try:
        return _read(Path(path), platform)
    finally:
        if paused:
            gc.enable()


def _read(path: Path, platform: str | None) -> Transcript:
    chosen = normalize_platform(platform) or platform_from_path(path)
    data = read_transcript_bytes(path)
    if path.suffix == ".json" and (chosen in (None, "gemini")):
        from . import gemini

        transcript = gemini.parse_document(data, path)
        transcript.bytes_read = len(data)
        return transcript
    records = parse_lines(data)
    chosen = chosen or sniff_platform(records)
    if chosen is None:
        raise UsageError(
            f"cannot tell which agent wrote {path}: pass --platform ({', '.join(PLATFORMS)})"
        )
    transcript = parse_records(records, path, chosen)
    transcript.bytes_read = len(data)
    return transcript
