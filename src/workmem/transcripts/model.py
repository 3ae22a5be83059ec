"""One message model for every agent platform's transcript.

Claude Code, Codex, Gemini CLI, Cursor and OpenClaw each write their sessions differently;
the relay, the notes extractor and the search index should not have to know how. Every
reader turns its platform's records into these few types, and the workflows only ever
see a ``Transcript``. Text here is exactly what the transcript said: redaction happens
where something is written to memory, not here, so figures (lengths, token counts) stay true.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

#: message kinds that are part of the conversation a person would recognise
CONVERSATION_KINDS = frozenset({"message", "command"})


def parse_time(value: Any) -> datetime | None:
    """An ISO-8601 or epoch timestamp as naive local time; ``None`` for anything else."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1000 if value > 1e11 else value
        try:
            return datetime.fromtimestamp(seconds)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or len(value) < 10 or not value[:4].isdigit():
        return None
    text = value.strip().replace("Z", "+00:00")
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone().replace(tzinfo=None)
    return parsed


@dataclass
class ToolCall:
    name: str
    input: dict[str, Any]
    id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "input": self.input}


@dataclass
class ToolResult:
    output: str
    is_error: bool = False
    call_id: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "call_id": self.call_id,
            "name": self.name,
            "is_error": self.is_error,
            "output": self.output,
        }


@dataclass
class Usage:
    """Tokens of one model response; ``context_tokens`` is what it says about the window.

    Platforms count differently (Claude's input excludes the cache, OpenAI's includes it),
    so each reader sets ``context_tokens`` by its platform's own rule.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    context_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_creation_tokens += other.cache_creation_tokens
        self.cache_read_tokens += other.cache_read_tokens

    @property
    def is_empty(self) -> bool:
        return not (
            self.input_tokens
            or self.output_tokens
            or self.cache_creation_tokens
            or self.cache_read_tokens
            or self.context_tokens
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_creation_tokens": self.cache_creation_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "context_tokens": self.context_tokens,
        }


@dataclass
class Message:
    """One entry of the conversation.

    ``role`` is ``user``, ``assistant``, ``tool`` (a tool's output reported on its own, as
    Codex and OpenClaw do) or ``system``. ``kind`` tells conversation (``message``, a slash
    ``command``) from bookkeeping: ``meta`` (injected context), ``compact_summary``,
    ``error``, ``tool_results`` (a user record that only carries tool output).
    """

    role: str
    text: str = ""
    time: str | None = None
    kind: str = "message"
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)
    model: str | None = None
    usage: Usage | None = None
    id: str | None = None

    @property
    def timestamp(self) -> datetime | None:
        return parse_time(self.time)

    @property
    def is_conversation(self) -> bool:
        return (
            self.role in ("user", "assistant")
            and self.kind in CONVERSATION_KINDS
            and bool(self.text.strip())
        )

    def to_dict(self, include_tools: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "role": self.role,
            "kind": self.kind,
            "time": self.time,
            "text": self.text,
        }
        if self.model:
            data["model"] = self.model
        if include_tools:
            data["tool_calls"] = [c.to_dict() for c in self.tool_calls]
            data["tool_results"] = [r.to_dict() for r in self.tool_results]
        return data


@dataclass
class PlanItem:
    """One step of the agent's own plan or todo list; status is pending/in_progress/completed."""

    text: str
    status: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "status": self.status}


@dataclass
class Compaction:
    time: str | None = None
    trigger: str | None = None
    pre_tokens: int | None = None
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "time": self.time,
            "trigger": self.trigger,
            "pre_tokens": self.pre_tokens,
            "summary": self.summary,
        }


@dataclass
class Round:
    """A user message and the assistant's reply to it (the seed's unit of conversation)."""

    user: Message | None
    assistant: list[Message]

    @property
    def reply(self) -> str:
        return "\n\n".join(m.text.strip() for m in self.assistant if m.text.strip())


@dataclass
class Transcript:
    platform: str
    path: Path
    session_id: str | None = None
    cwd: str | None = None
    git_branch: str | None = None
    model: str | None = None
    title: str | None = None
    messages: list[Message] = field(default_factory=list)
    #: messages of side conversations (Claude Code sidechains written into the main file)
    sidechain: list[Message] = field(default_factory=list)
    subagents: list[Transcript] = field(default_factory=list)
    plan: list[PlanItem] = field(default_factory=list)
    compactions: list[Compaction] = field(default_factory=list)
    #: every response's usage counted once (split responses de-duplicated)
    total_usage: Usage = field(default_factory=Usage)
    #: the usage of the last main-chain response: what fills the context window now
    last_usage: Usage | None = None
    #: the context window the platform recorded, when it records one
    context_window: int | None = None
    #: records on rewound branches that were left out
    dropped_records: int = 0
    #: lines that were not JSON (a truncated last line, a corrupt line)
    skipped_lines: int = 0
    #: records of types the reader does not know
    unknown_records: int = 0
    bytes_read: int = 0
    #: bytes of the file left unread by a bounded read (0: read whole)
    skipped_bytes: int = 0

    def append(self, message: Message) -> None:
        """Add a message whose usage is its own (one record, one response): its model and
        usage count for the whole transcript. Readers of split responses count usage
        themselves."""
        self.messages.append(message)
        if message.model:
            self.model = message.model
        if message.usage is not None:
            self.total_usage.add(message.usage)
            if not message.usage.is_empty:
                self.last_usage = message.usage

    # -- views -----------------------------------------------------------------------
    @property
    def conversation(self) -> list[Message]:
        return [m for m in self.messages if m.is_conversation]

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [call for m in self.messages for call in m.tool_calls]

    @property
    def tool_results(self) -> list[ToolResult]:
        return [result for m in self.messages for result in m.tool_results]

    @property
    def started(self) -> datetime | None:
        return next((t for t in (m.timestamp for m in self.messages) if t), None)

    @property
    def ended(self) -> datetime | None:
        return next((t for t in (m.timestamp for m in reversed(self.messages)) if t), None)

    def rounds(self) -> list[Round]:
        """The conversation as rounds: each user message with the assistant text after it."""
        result: list[Round] = []
        for message in self.conversation:
            if message.role == "user":
                result.append(Round(message, []))
            elif result:
                result[-1].assistant.append(message)
            else:
                result.append(Round(None, [message]))
        return result

    def user_requests(self) -> list[str]:
        return [m.text for m in self.conversation if m.role == "user"]

    def summary(self) -> dict[str, Any]:
        """Figures for listings and status: counts, usage, compactions, timing."""
        conversation = self.conversation
        started, ended = self.started, self.ended
        return {
            "platform": self.platform,
            "path": str(self.path),
            "session_id": self.session_id,
            "title": self.title,
            "cwd": self.cwd,
            "git_branch": self.git_branch,
            "model": self.model,
            "messages": len(self.messages),
            "user_messages": sum(1 for m in conversation if m.role == "user"),
            "assistant_messages": sum(1 for m in conversation if m.role == "assistant"),
            "tool_calls": len(self.tool_calls),
            "tool_errors": sum(1 for r in self.tool_results if r.is_error),
            "compactions": len(self.compactions),
            "subagents": len(self.subagents),
            "sidechain_messages": len(self.sidechain),
            "total_usage": self.total_usage.to_dict(),
            "last_usage": self.last_usage.to_dict() if self.last_usage else None,
            "context_window": self.context_window,
            "started": started.isoformat(sep=" ") if started else None,
            "ended": ended.isoformat(sep=" ") if ended else None,
            "dropped_records": self.dropped_records,
            "skipped_lines": self.skipped_lines,
            "unknown_records": self.unknown_records,
            "skipped_bytes": self.skipped_bytes,
        }


@dataclass(frozen=True)
class TranscriptRef:
    """A transcript found on disk, before it is read."""

    platform: str
    path: Path
    session_id: str
    modified: float
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "platform": self.platform,
            "path": str(self.path),
            "session_id": self.session_id,
            "modified": datetime.fromtimestamp(self.modified).isoformat(
                sep=" ", timespec="seconds"
            ),
            "size": self.size,
        }
