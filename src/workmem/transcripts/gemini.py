"""Gemini CLI sessions: ``~/.gemini/tmp/<project>/chats/session-*.json`` or ``*.jsonl``.

Older versions rewrite one JSON document (``ConversationRecord``: metadata and a
``messages`` array); newer ones append JSON Lines: a metadata line, one line per message,
and ``{"$set": {...}}`` lines that update the metadata. A message written again under the
same ``id`` replaces the earlier version in place.
"""

from __future__ import annotations

import re
from pathlib import Path

from .common import arguments, as_int, exit_code_in, string_or_none, text_of
from .jsonl import Records, load_json_document
from .model import Message, ToolCall, ToolResult, Transcript, Usage

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

#: Gemini CLI stores what SessionStart/BeforeAgent hooks added inside the user's message;
#: it is the hooks' words, not the user's, and must not come back as the user's request.
_HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>\s*", re.S)
_ROLES = {"user": "user", "gemini": "assistant", "model": "assistant", "assistant": "assistant"}
_SYSTEM = {"info": "meta", "warning": "meta", "error": "error"}


def _usage(tokens: Any) -> Usage | None:
    if not isinstance(tokens, dict):
        return None
    prompt = as_int(tokens.get("input"))
    cached = as_int(tokens.get("cached"))
    return Usage(
        input_tokens=max(prompt - cached, 0),
        output_tokens=as_int(tokens.get("output")) + as_int(tokens.get("thoughts")),
        cache_read_tokens=cached,
        context_tokens=prompt,
    )


def _tool(raw: dict[str, Any]) -> tuple[ToolCall, ToolResult | None]:
    call = ToolCall(
        name=str(raw.get("name") or "tool"),
        input=arguments(raw.get("args")),
        id=string_or_none(raw.get("id")),
    )
    outputs: list[str] = []
    errored = False
    for part in raw.get("result") or []:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        body = response.get("response") if isinstance(response, dict) else None
        if isinstance(body, dict):
            if "error" in body:
                errored = True
                outputs.append(text_of(body.get("error")) or str(body.get("error")))
            if "output" in body:
                outputs.append(text_of(body.get("output")) or str(body.get("output")))
    if not outputs and isinstance(raw.get("resultDisplay"), str):
        outputs.append(raw["resultDisplay"])
    if not outputs and "status" not in raw:
        return call, None
    text = "\n".join(outputs)
    status = str(raw.get("status") or "success").lower()
    code = exit_code_in(text)
    failed = errored or status not in ("success", "completed") or (code is not None and code != 0)
    return call, ToolResult(text, failed, call.id, call.name)


def _message(raw: dict[str, Any], t: Transcript) -> Message | None:
    kind = str(raw.get("type") or "")
    time = string_or_none(raw.get("timestamp"))
    content = raw.get("content")
    text = text_of(content if content not in (None, "", []) else raw.get("parts"))
    if kind in _SYSTEM:
        return Message(role="system", text=text, time=time, kind=_SYSTEM[kind])
    role = _ROLES.get(kind)
    if role is None:
        t.unknown_records += 1
        return None
    if role == "user" and "<hook_context>" in text:
        text = _HOOK_CONTEXT.sub("", text).strip()
    message = Message(role=role, text=text, time=time, id=string_or_none(raw.get("id")))
    if role == "assistant":
        message.model = string_or_none(raw.get("model"))
        message.usage = _usage(raw.get("tokens"))
        for tool in raw.get("toolCalls") or []:
            if not isinstance(tool, dict):
                continue
            call, result = _tool(tool)
            message.tool_calls.append(call)
            if result is not None:
                message.tool_results.append(result)
    return message


def _finish(t: Transcript, raw_messages: list[dict[str, Any]], meta: dict[str, Any]) -> Transcript:
    from .plans import PlanBook

    book = PlanBook()
    for raw in raw_messages:
        message = _message(raw, t)
        if message is None:
            continue
        t.append(message)
        for call in message.tool_calls:
            if book.on_call(call):
                t.plan = book.items
    t.session_id = string_or_none(meta.get("sessionId")) or t.path.stem
    t.title = string_or_none(meta.get("summary")) or t.title
    return t


def parse_document(data: bytes, path: Path) -> Transcript:
    document = load_json_document(data, path)
    t = Transcript(platform="gemini", path=path)
    if isinstance(document, list):  # very old: a bare list of messages
        return _finish(t, [m for m in document if isinstance(m, dict)], {})
    if not isinstance(document, dict):
        t.unknown_records += 1
        return t
    messages = document.get("messages")
    raw = [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []
    return _finish(t, raw, document)


def parse_lines(records: Records, path: Path) -> Transcript:
    t = Transcript(platform="gemini", path=path, skipped_lines=records.skipped)
    meta: dict[str, Any] = {}
    order: list[str] = []
    by_id: dict[str, dict[str, Any]] = {}
    anonymous = 0
    for record in records.items:
        update = record.get("$set")
        if isinstance(update, dict):
            meta.update(update)
        elif "type" in record and (
            "content" in record or "parts" in record or "toolCalls" in record
        ):
            key = string_or_none(record.get("id"))
            if key is None:
                anonymous += 1
                key = f"\0{anonymous}"
            if key not in by_id:
                order.append(key)
            by_id[key] = record
        elif "sessionId" in record or "projectHash" in record:
            meta.update(record)
        else:
            t.unknown_records += 1
    return _finish(t, [by_id[k] for k in order], meta)
