"""Agent transcripts (Claude Code, Codex, Gemini CLI, Cursor, OpenClaw) read into one model.

Readers are imported only when a transcript of their platform is read, so a hook that
only needs ``context_usage`` pays for one parser.
"""

from __future__ import annotations

from .. import _lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)

#: Past this a file is not a transcript we should load into memory in one go. Defined here,
#: not in a reader, so the prompt hook can check a file's size without loading one.
MAX_TRANSCRIPT_BYTES = 1024 * 1024 * 1024

_EXPORTS = {
    "find_transcripts": ".discover",
    "resolve_transcript": ".discover",
    "PLATFORMS": ".read",
    "read_transcript": ".read",
    **dict.fromkeys(
        (
            "Compaction",
            "Message",
            "PlanItem",
            "Round",
            "ToolCall",
            "ToolResult",
            "Transcript",
            "TranscriptRef",
            "Usage",
        ),
        ".model",
    ),
}

if TYPE_CHECKING:
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

# A hook that reads one transcript does not load discovery.
__getattr__ = _lazy_exports(__name__, _EXPORTS)


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
