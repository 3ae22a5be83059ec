"""OpenClaw sessions (Pi session format v3): ``~/.openclaw/agents/<agent>/sessions/<id>.jsonl``.

A ``session`` header, then entries linked into a tree by ``id``/``parentId`` (the same
rewind semantics as Claude Code, handled by ``tree.py``). Messages carry roles ``user``,
``assistant`` (with ``usage``), ``toolResult`` and ``bashExecution``; ``compaction``
entries keep the summary and the token count before it.

OpenClaw 2026.9 keeps the same entries in its SQLite database (``openclaw_store.py``) and
adds two: ``reset``, written when ``/new`` or ``/reset`` starts a new conversation inside the
same session id (what came before it is an earlier conversation, saved at that reset, and
is left out here), and ``leaf``, which moves the live end of the tree to ``targetId``.
"""

from __future__ import annotations

import re
from pathlib import Path

from .common import arguments, as_int, string_or_none, text_of
from .jsonl import Records
from .model import Compaction, Message, ToolCall, ToolResult, Transcript, Usage
from .tree import rewound_records

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

_KNOWN = frozenset(
    {
        "session",
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
        "reset",
        "leaf",
    }
)
#: entries of a conversation's content: those before the last reset belong to an earlier one
_CONTENT = frozenset({"message", "custom_message", "compaction", "branch_summary"})


def _usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    usage = Usage(
        input_tokens=as_int(raw.get("input")),
        output_tokens=as_int(raw.get("output")),
        cache_creation_tokens=as_int(raw.get("cacheWrite")),
        cache_read_tokens=as_int(raw.get("cacheRead")),
    )
    usage.context_tokens = as_int(raw.get("totalTokens")) or (
        usage.input_tokens
        + usage.output_tokens
        + usage.cache_creation_tokens
        + usage.cache_read_tokens
    )
    return usage


#: what the Gateway wraps a chat channel's message in: a metadata block and a time stamp
_ENVELOPE = re.compile(
    r"^\s*(?:Conversation info \(untrusted metadata\):\s*```(?:json)?\s*\{.*?\}\s*```\s*)?"
    r"(?:\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{2}:\d{2}"
    r"(?: [A-Z]{2,5}[+-]?\d*)?\]\s*)?",
    re.S,
)


def without_envelope(text: str) -> str:
    """The person's own words: OpenClaw puts a channel's metadata block and a time stamp
    (``[Mon 2026-03-02 16:03 GMT+8]``) before them, which no request or topic should carry."""
    stripped = _ENVELOPE.sub("", text, count=1)
    return stripped if stripped.strip() else text


def _message(entry: dict[str, Any]) -> Message | None:
    body = entry.get("message")
    if not isinstance(body, dict):
        return None
    role = body.get("role")
    time = string_or_none(entry.get("timestamp"))
    content = body.get("content")
    if role == "toolResult":
        result = ToolResult(
            output=text_of(content),
            is_error=bool(body.get("isError")),
            call_id=string_or_none(body.get("toolCallId")),
            name=string_or_none(body.get("toolName")),
        )
        return Message(role="tool", time=time, kind="tool_results", tool_results=[result])
    if role == "bashExecution":
        command = str(body.get("command") or "")
        code = body.get("exitCode")
        result = ToolResult(
            output=text_of(body.get("output")),
            is_error=isinstance(code, int) and code != 0,
            name="bash",
        )
        call = ToolCall("bash", {"command": command})
        return Message(
            role="tool", time=time, kind="tool_results", tool_calls=[call], tool_results=[result]
        )
    if role in ("custom", "branchSummary", "compactionSummary", "system"):
        text = text_of(content) or text_of(body.get("summary"))
        return Message(role="system", text=text, time=time, kind="meta")
    if role not in ("user", "assistant"):
        return None
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in content if isinstance(content, list) else [content]:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, dict):
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif block.get("type") == "toolCall":
                calls.append(
                    ToolCall(
                        name=str(block.get("name") or "tool"),
                        input=arguments(block.get("arguments")),
                        id=string_or_none(block.get("id")),
                    )
                )
    text = "\n".join(texts)
    return Message(
        role=str(role),
        text=without_envelope(text) if role == "user" else text,
        time=time,
        tool_calls=calls,
        model=string_or_none(body.get("model")),
        usage=_usage(body.get("usage")) if role == "assistant" else None,
        id=string_or_none(entry.get("id")),
    )


def _conversation_start(items: list[dict[str, Any]], dropped: set[int]) -> int:
    """The index of the reset that starts the conversation to read; -1 for the whole.

    That is the last reset with a message after it. A reset with none after it yet is
    the ``/new`` that just ended the latest conversation: the session-end save runs in
    the background and may read the database after OpenClaw has written that reset, and
    must still find the conversation it is saving.
    """
    begins = latest_reset = -1
    for index, entry in enumerate(items):
        if index in dropped:
            continue
        kind = entry.get("type")
        if kind == "reset":
            latest_reset = index
        elif kind == "message":
            begins = latest_reset
    return begins


def parse(records: Records, path: Path) -> Transcript:
    from .plans import PlanBook

    t = Transcript(platform="openclaw", path=path, skipped_lines=records.skipped)
    book = PlanBook()
    items = records.items
    ids: list[str | None] = []
    parents: list[str | None] = []
    leaf: int | None = None
    for index, entry in enumerate(items):
        kind = entry.get("type")
        uid = string_or_none(entry.get("id")) if kind != "session" else None
        ids.append(uid)
        # A leaf entry hangs under its target: the path to it is the live one, and what
        # grew from the target before it is abandoned (entries after it continue from it).
        parents.append(string_or_none(entry.get("targetId" if kind == "leaf" else "parentId")))
        if kind in ("message", "leaf") and uid is not None:
            leaf = index
    dropped = rewound_records(ids, parents, leaf)
    begins = _conversation_start(items, dropped)
    t.dropped_records = len(dropped)
    calls: dict[str, ToolCall] = {}
    for index, entry in enumerate(items):
        kind = entry.get("type")
        if kind not in _KNOWN:
            t.unknown_records += 1
            continue
        if index in dropped:
            continue
        if index < begins and kind in _CONTENT:
            t.dropped_records += 1
            continue
        if kind == "session":
            t.session_id = string_or_none(entry.get("id"))
            t.cwd = string_or_none(entry.get("cwd"))
        elif kind == "model_change":
            t.model = string_or_none(entry.get("modelId")) or t.model
        elif kind == "session_info":
            t.title = string_or_none(entry.get("name")) or t.title
        elif kind == "compaction":
            summary = entry.get("summary")
            t.compactions.append(
                Compaction(
                    time=string_or_none(entry.get("timestamp")),
                    pre_tokens=as_int(entry.get("tokensBefore")) or None,
                    summary=summary if isinstance(summary, str) else "",
                )
            )
        elif kind == "custom_message":
            t.messages.append(
                Message(
                    role="system",
                    text=text_of(entry.get("content")),
                    time=string_or_none(entry.get("timestamp")),
                    kind="meta",
                )
            )
        elif kind == "message":
            message = _message(entry)
            if message is None:
                t.unknown_records += 1
                continue
            for call in message.tool_calls:
                if call.id:
                    calls[call.id] = call
                if book.on_call(call):
                    t.plan = book.items
            for result in message.tool_results:
                if result.name is None and result.call_id in calls:
                    result.name = calls[result.call_id].name
            t.append(message)
    t.session_id = t.session_id or path.stem
    return t
