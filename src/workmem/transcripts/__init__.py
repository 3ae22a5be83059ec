"""Agent transcripts (Claude Code, Codex, Gemini CLI, Cursor, OpenClaw) read into one model.

Readers are imported only when a transcript of their platform is read, so a hook that
only needs ``context_usage`` pays for one parser.
"""

from __future__ import annotations

from .discover import find_transcripts, resolve_transcript
from .model import (
    Compaction,
    Message,
    PlanItem,
    Round,
    ToolCall,
    ToolResult,
    Transcript,
    TranscriptRef,
    Usage,
)
from .read import PLATFORMS, read_transcript

__all__ = [
    "PLATFORMS",
    "Compaction",
    "Message",
    "PlanItem",
    "Round",
    "ToolCall",
    "ToolResult",
    "Transcript",
    "TranscriptRef",
    "Usage",
    "find_transcripts",
    "read_transcript",
    "resolve_transcript",
]
