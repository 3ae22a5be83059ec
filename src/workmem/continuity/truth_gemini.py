"""The benchmark's own reading of a Gemini CLI chat (see ``truth``).

Two layouts: the older single JSON document (``session-*.json``: metadata and a
``messages`` array, rewritten whole), read message by message as its units; and the newer
JSON Lines (``session-*.jsonl``: a metadata line, message lines, ``{"$set": …}`` lines),
where a message written again under the same ``id`` is the same message grown (its tool
calls gain results, its text grows): a call counts once, at the line it first appears, and
ends at the line its result appears.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .truth import (
    PlanTracker,
    Recording,
    Said,
    Step,
    add_user_text,
    epoch,
    relative,
    shell_files,
    text_of,
)

_FILE_KEYS = ("file_path", "absolute_path", "path")
_FILE_TOOLS = {"read_file", "write_file", "replace", "edit"}


@dataclass
class _Seen:
    """What earlier versions of each message already gave."""

    calls: dict[str, Step] = field(default_factory=dict)
    said: dict[str, Said] = field(default_factory=dict)
    users: set[str] = field(default_factory=set)


def _files(name: str, args: dict[str, Any], cwd: str | None) -> list[str]:
    if name in _FILE_TOOLS:
        value = next((args[k] for k in _FILE_KEYS if isinstance(args.get(k), str)), None)
        return [relative(value, cwd)] if value else []
    if name == "read_many_files" and isinstance(args.get("paths"), list):
        return [relative(p, cwd) for p in args["paths"] if isinstance(p, str)]
    if name == "run_shell_command" and isinstance(args.get("command"), str):
        return [relative(p, cwd) for p in shell_files(args["command"])]
    return []


def _has_result(call: dict[str, Any]) -> bool:
    return bool(call.get("result")) or str(call.get("status") or "") in (
        "success",
        "error",
        "cancelled",
    )


def _message(
    rec: Recording, number: int, raw: dict[str, Any], seen: _Seen, plan: PlanTracker
) -> None:
    kind = raw.get("type")
    key = str(raw.get("id") or f"#{number}")
    content = raw.get("content")
    if kind == "user":
        if key not in seen.users:
            seen.users.add(key)
            add_user_text(rec, number, text_of(content))
        return
    if kind not in ("gemini", "model", "assistant"):
        return
    text = text_of(content)
    if text.strip():
        earlier = seen.said.get(key)
        if earlier is None:
            seen.said[key] = Said(number, "assistant", text)
            rec.said.append(seen.said[key])
        else:
            earlier.text = text
    for position, call in enumerate(raw.get("toolCalls") or []):
        if not isinstance(call, dict):
            continue
        call_key = f"{key}/{call.get('id') or position}"
        step = seen.calls.get(call_key)
        if step is None:
            name = str(call.get("name") or "")
            raw_args = call.get("args")
            args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
            step = Step(len(rec.steps), number, name, _files(name, args, rec.cwd), call_key)
            rec.steps.append(step)
            seen.calls[call_key] = step
            if name == "write_todos" and isinstance(args.get("todos"), list):
                plan.replace(args["todos"], ("description", "content", "text"))
                rec.plans.append((number, plan.state()))
        if step.end_line < 0 and _has_result(call):
            step.end_line = number


def _close(rec: Recording) -> Recording:
    for step in rec.steps:
        if step.end_line < 0:
            step.end_line = step.line  # never answered in the file: ends where it was asked
    return rec


def read_document(path: Path, data: bytes) -> Recording:
    """The single JSON document: each message is a unit."""
    document = json.loads(data)
    if isinstance(document, list):
        document = {"messages": document}
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        raise ValueError(f"{path.name} is not a Gemini CLI chat (no messages)")
    messages = [m for m in document["messages"] if isinstance(m, dict)]
    units = [json.dumps(m, ensure_ascii=False).encode() for m in messages]
    session = str(document.get("sessionId") or path.stem)
    rec = Recording("gemini", path, session, None, units, layout="json")
    rec.document = {k: v for k, v in document.items() if k != "messages"}
    rec.times = [epoch(m.get("timestamp")) for m in messages]
    seen, plan = _Seen(), PlanTracker()
    for number, message in enumerate(messages):
        _message(rec, number, message, seen, plan)
    return _close(rec)


def read_lines(path: Path, lines: list[bytes], records: list[dict[str, Any]]) -> Recording:
    """The JSON Lines layout: metadata, messages (rewritten by id) and ``$set`` updates."""
    head = next((r for r in records if "sessionId" in r and "type" not in r), {})
    rec = Recording("gemini", path, str(head.get("sessionId") or path.stem), None, lines)
    seen, plan = _Seen(), PlanTracker()
    for number, record in enumerate(records):
        update = record.get("$set")
        if isinstance(update, dict):
            rec.times.append(epoch(update.get("lastUpdated")))
            continue
        if "type" not in record:
            rec.times.append(epoch(record.get("lastUpdated") or record.get("startTime")))
            continue
        rec.times.append(epoch(record.get("timestamp")))
        _message(rec, number, record, seen, plan)
    return _close(rec)
