"""Reading only what a transcript gained since last time.

Hooks run on every prompt, and a long session's transcript reaches tens of megabytes.
``TranscriptTail`` remembers, per transcript, the byte offset it has read to and a running
summary (counts, the last recorded usage, the model, an estimate of the context since the
last compaction) in ``memory/.workmem/transcripts/<key>.json``. An update reads from the
offset to the last complete line, parses only those records, folds them into the summary
and moves the offset. A half-written last line is left for next time. If the file was
replaced or truncated (its first bytes changed, or it shrank), the summary starts over.

Whole-document formats (Gemini CLI's ``.json``) cannot be read from an offset; they are
re-read when their size or modification time changes.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ..errors import FormatError, NotFoundError
from ..files.store import Store
from .jsonl import MAX_TRANSCRIPT_BYTES, parse_lines
from .model import Message, Transcript
from .read import normalize_platform, parse_records, platform_from_path, sniff_platform

STATE_FOLDER = "transcripts"
_HEAD_BYTES = 1024
_VERSION = 1


@dataclass
class TailSummary:
    path: str
    platform: str | None = None
    offset: int = 0
    head_len: int = 0
    head: str = ""
    mtime: float = 0.0
    session_id: str | None = None
    cwd: str | None = None
    model: str | None = None
    messages: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    compactions: int = 0
    #: the last usage the platform recorded (context tokens), if any
    context_tokens: int | None = None
    context_window: int | None = None
    #: token estimate of the conversation since the last compaction
    estimated_tokens: int = 0
    has_main: bool = False
    last_time: str | None = None
    version: int = _VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TailSummary:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class TailUpdate:
    summary: TailSummary
    #: the records read by this update, as a transcript of their own
    new: Transcript
    reset: bool = False
    read_bytes: int = 0
    new_messages: list[Message] = field(default_factory=list)


def message_tokens(messages: list[Message]) -> int:
    """Token estimate of messages as they sit in a context window (text, tool input, output)."""
    from ..retrieval.tokens import count_tokens

    total = 0
    for message in messages:
        total += count_tokens(message.text)
        for call in message.tool_calls:
            total += count_tokens(json.dumps(call.input, ensure_ascii=False))
        for result in message.tool_results:
            total += count_tokens(result.output)
    return total


def since_last_compaction(messages: list[Message]) -> tuple[list[Message], bool]:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].kind == "compact_summary":
            return messages[index:], True
    return messages, False


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


def _head_hash(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


class TranscriptTail:
    """Incremental reader whose offsets and summaries live in the workspace's state folder."""

    def __init__(self, store: Store):
        self.store = store
        self.folder = store.workspace.state_dir / STATE_FOLDER

    def state_path(self, transcript: Path) -> Path:
        key = hashlib.sha1(str(Path(transcript).absolute()).encode()).hexdigest()[:20]
        return self.folder / f"{key}.json"

    def load(self, transcript: Path) -> TailSummary | None:
        path = self.state_path(transcript)
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return None  # derived state: a damaged file is rebuilt, never an error
        if not isinstance(data, dict) or data.get("version") != _VERSION:
            return None
        return TailSummary.from_dict(data)

    def update(self, transcript: Path, platform: str | None = None) -> TailUpdate:
        transcript = Path(transcript)
        with self.store.lock(self.state_path(transcript)):
            previous = self.load(transcript)
            result = self._advance(transcript, platform, previous)
            text = json.dumps(result.summary.to_dict(), ensure_ascii=False, indent=1) + "\n"
            self.store.update(self.state_path(transcript), lambda _old: text)
        return result

    def _advance(
        self, transcript: Path, platform: str | None, previous: TailSummary | None
    ) -> TailUpdate:
        try:
            stat = transcript.stat()
        except FileNotFoundError:
            raise NotFoundError(f"transcript not found: {transcript}") from None
        if stat.st_size > MAX_TRANSCRIPT_BYTES:
            raise FormatError(
                f"transcript is {stat.st_size:,} bytes, over the "
                f"{MAX_TRANSCRIPT_BYTES:,}-byte limit",
                path=str(transcript),
            )
        chosen = normalize_platform(platform) or (previous.platform if previous else None)
        chosen = chosen or platform_from_path(transcript)
        if transcript.suffix == ".json" and chosen in (None, "gemini"):
            return self._whole_document(transcript, stat, previous)
        summary = previous
        reset = False
        with transcript.open("rb") as handle:
            if summary is not None:
                handle.seek(0)
                head = handle.read(summary.head_len)
                if stat.st_size < summary.offset or _head_hash(head) != summary.head:
                    summary, reset = None, True
            if summary is None:
                summary = TailSummary(path=str(transcript.absolute()), platform=chosen)
            handle.seek(summary.offset)
            data = handle.read()
            if summary.head_len < _HEAD_BYTES:
                handle.seek(0)
                head_bytes = handle.read(min(_HEAD_BYTES, summary.offset + len(data)))
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
            head = head_bytes[: min(_HEAD_BYTES, summary.offset)]
            summary.head_len, summary.head = len(head), _head_hash(head)
        summary.mtime = stat.st_mtime
        return TailUpdate(summary, part, reset, records.consumed, part.messages)

    def _whole_document(
        self, transcript: Path, stat: os.stat_result, previous: TailSummary | None
    ) -> TailUpdate:
        from .read import read_transcript

        if (
            previous is not None
            and previous.offset == stat.st_size
            and previous.mtime == stat.st_mtime
        ):
            return TailUpdate(previous, Transcript(platform="gemini", path=transcript))
        full = read_transcript(transcript, "gemini")
        seen = previous.messages if previous is not None else 0
        summary = TailSummary(path=str(transcript.absolute()), platform="gemini")
        _fold(summary, full)
        summary.offset, summary.mtime = stat.st_size, stat.st_mtime
        new = Transcript(platform="gemini", path=transcript, messages=full.messages[seen:])
        return TailUpdate(summary, new, previous is None, stat.st_size, new.messages)
