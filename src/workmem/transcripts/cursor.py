"""Cursor agent transcripts: ``~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl``.

Lines are ``{role, message: {content: [blocks]}}`` in Anthropic's block shapes, with no
timestamps, ids or usage (context usage is therefore estimated). The user's words are
wrapped in ``<user_query>``; Cursor writes ``[REDACTED]`` in place of hidden reasoning.
Subagents write their own files in ``subagents/`` beside the parent's.
"""

from __future__ import annotations

import re
from pathlib import Path

from .common import string_or_none, text_of
from .jsonl import Records, parse_lines, read_transcript_bytes
from .model import Message, ToolCall, ToolResult, Transcript

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

_QUERY = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.S)


def _blocks(content: Any) -> list[Any]:
    return content if isinstance(content, list) else [content]


def _message(record: dict[str, Any]) -> Message | None:
    role = record.get("role")
    body = record.get("message")
    content = body.get("content") if isinstance(body, dict) else record.get("content")
    if role not in ("user", "assistant"):
        return None
    texts: list[str] = []
    calls: list[ToolCall] = []
    results: list[ToolResult] = []
    for block in _blocks(content):
        if isinstance(block, str):
            texts.append(block)
            continue
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            if block["text"].strip() != "[REDACTED]":
                texts.append(block["text"])
        elif kind == "tool_use":
            raw_input = block.get("input")
            calls.append(
                ToolCall(
                    name=str(block.get("name") or "tool"),
                    input=raw_input if isinstance(raw_input, dict) else {},
                    id=string_or_none(block.get("id")),
                )
            )
        elif kind == "tool_result":
            results.append(
                ToolResult(
                    output=text_of(block.get("content")),
                    is_error=bool(block.get("is_error")),
                    call_id=string_or_none(block.get("tool_use_id")),
                )
            )
    text = "\n".join(texts)
    if role == "user":
        queries = _QUERY.findall(text)
        if queries:
            text = "\n".join(queries)
    kind = "tool_results" if results and not text.strip() else "message"
    return Message(
        role=str(role),
        text=text,
        time=string_or_none(record.get("timestamp")),
        kind=kind,
        tool_calls=calls,
        tool_results=results,
    )


def parse(records: Records, path: Path, *, subagents: bool = True) -> Transcript:
    from .plans import PlanBook

    t = Transcript(platform="cursor", path=path, skipped_lines=records.skipped)
    book = PlanBook()
    for record in records.items:
        message = _message(record)
        if message is None:
            if "type" not in record:
                t.unknown_records += 1
            continue
        t.messages.append(message)
        for call in message.tool_calls:
            if book.on_call(call):
                t.plan = book.items
    t.session_id = path.stem
    if subagents:
        folder = path.parent / "subagents"
        if folder.is_dir() and path.parent.name != "subagents":
            for child in sorted(folder.glob("*.jsonl")):
                t.subagents.append(
                    parse(parse_lines(read_transcript_bytes(child)), child, subagents=False)
                )
    return t
