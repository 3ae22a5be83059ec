"""Reading what a transcript gained and folding it into its running summary.

The other half of ``incremental``: that module decides from the recorded state whether
anything changed; this one, imported only when something did, parses the new complete
lines with the platform's reader and adds them to the counts and usage.
"""

from __future__ import annotations

import os
from pathlib import Path

from .incremental import (
    FIRST_READ_BYTES,
    HEAD_BYTES,
    TailSummary,
    TailUpdate,
    checked_stat,
    head_hash,
    message_tokens,
    since_last_compaction,
)
from .naming import normalize_platform, platform_from_path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import BinaryIO

    from .model import Transcript


def advance(transcript: Path, platform: str | None, previous: TailSummary | None) -> TailUpdate:
    """Read from the recorded offset to the last complete line and fold it in (or start over)."""
    from ..files.bounded import open_regular, read_range
    from .jsonl import parse_lines
    from .model import Transcript
    from .naming import sniff_platform
    from .read import parse_records

    stat = checked_stat(transcript)
    chosen = normalize_platform(platform) or (previous.platform if previous else None)
    chosen = chosen or platform_from_path(transcript)
    if transcript.suffix == ".json" and chosen in (None, "gemini"):
        return _whole_document(transcript, stat, previous)
    summary = previous
    reset = False
    shown = str(transcript)
    with open_regular(transcript, what="transcript") as handle:  # a pipe never hangs it
        if summary is not None:
            handle.seek(0)
            head = handle.read(summary.head_len)
            if stat.st_size < summary.offset or head_hash(head) != summary.head:
                summary, reset = None, True
        if summary is None:
            summary = TailSummary(path=str(transcript.absolute()), platform=chosen)
            if stat.st_size > FIRST_READ_BYTES:
                summary.offset = summary.skipped_bytes = _line_start(
                    handle, stat.st_size - FIRST_READ_BYTES
                )
        # What was there when it was looked at: bytes appended since are read next time.
        data = read_range(handle, summary.offset, stat.st_size - summary.offset, shown=shown)
        if summary.head_len < HEAD_BYTES:
            handle.seek(0)
            head_bytes = handle.read(min(HEAD_BYTES, summary.offset + len(data)))
        else:
            head_bytes = b""
    import gc

    paused = gc.isenabled()
    gc.disable()  # see read_transcript: many small acyclic dicts
    try:
        records = parse_lines(data, final=False)
        summary.platform = summary.platform or chosen or sniff_platform(records)
        if summary.platform is None and records.items:
            summary.platform = "claude-code"  # only for records no reader recognises
        part = (
            parse_records(
                records,
                transcript,
                summary.platform,
                subagents=False,
                known_main=summary.has_main,
            )
            if summary.platform
            else Transcript(platform="unknown", path=transcript)
        )
    finally:
        if paused:
            gc.enable()
    _fold(summary, part)
    summary.offset += records.consumed
    if head_bytes:
        head = head_bytes[: min(HEAD_BYTES, summary.offset)]
        summary.head_len, summary.head = len(head), head_hash(head)
    summary.mtime = stat.st_mtime
    return TailUpdate(summary, part, reset, records.consumed, part.messages)


def _line_start(handle: BinaryIO, position: int) -> int:
    """The offset of the first line that starts at or after ``position``."""
    handle.seek(max(position - 1, 0))
    handle.readline()  # the rest of the line ``position`` falls in
    return handle.tell()


def _whole_document(
    transcript: Path, stat: os.stat_result, previous: TailSummary | None
) -> TailUpdate:
    from .model import Transcript
    from .read import read_transcript

    if previous is not None and previous.offset == stat.st_size and previous.mtime == stat.st_mtime:
        return TailUpdate(previous, Transcript(platform="gemini", path=transcript))
    full = read_transcript(transcript, "gemini")
    seen = previous.messages if previous is not None else 0
    summary = TailSummary(path=str(transcript.absolute()), platform="gemini")
    _fold(summary, full)
    summary.offset, summary.mtime = stat.st_size, stat.st_mtime
    new = Transcript(platform="gemini", path=transcript, messages=full.messages[seen:])
    return TailUpdate(summary, new, previous is None, stat.st_size, new.messages)


def _fold(summary: TailSummary, part: Transcript) -> None:
    conversation = part.conversation
    summary.messages += len(part.messages)
    summary.user_messages += sum(1 for m in conversation if m.role == "user")
    summary.assistant_messages += sum(1 for m in conversation if m.role == "assistant")
    summary.tool_calls += len(part.tool_calls)
    summary.tool_errors += sum(1 for r in part.tool_results if r.is_error)
    summary.compactions += len(part.compactions)
    summary.session_id = summary.session_id or part.session_id
    summary.cwd = part.cwd or summary.cwd
    summary.model = part.model or summary.model
    if part.last_usage is not None:
        summary.context_tokens = part.last_usage.context_tokens
    if part.context_window:
        summary.context_window = part.context_window
    if summary.context_tokens is None:  # only platforms that record no usage need it
        recent, compacted = since_last_compaction(part.messages)
        tokens = message_tokens(recent)
        summary.estimated_tokens = (
            tokens if (compacted or part.compactions) else summary.estimated_tokens + tokens
        )
    summary.has_main = summary.has_main or bool(part.messages)
    ended = next((m.time for m in reversed(part.messages) if m.time), None)
    summary.last_time = ended or summary.last_time
