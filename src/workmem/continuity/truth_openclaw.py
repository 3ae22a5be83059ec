"""The benchmark's own reading of an OpenClaw session (see ``truth``).

Pi-agent v3 records: a ``session`` header (id, cwd), then ``message`` entries whose
``message.role`` is ``user``, ``assistant`` (text and ``toolCall`` blocks) or
``toolResult`` (``toolCallId``), and ``compaction`` entries with their summary. What
OpenClaw itself writes into the user's turn is not what the person asked: the channel's
``[Mon 2026-03-02 12:50 GMT+8]`` stamp and the ``Conversation info (untrusted metadata)``
block are removed, and its own heartbeat and new-session prompts are turns but not requests.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .truth import (
    CompactPoint,
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

_STAMP = re.compile(r"^\s*\[[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d[^\]]*\]\s*")
_METADATA = re.compile(r"^\s*Conversation info \(untrusted metadata\):\s*```.*?```\s*", re.S)
#: prompts OpenClaw sends on its own (the heartbeat poll, the start of a new session)
_AUTOMATIC = ("Read HEARTBEAT.md", "A new session was started via /new or /reset")
_FILE_TOOLS = {"read", "write", "edit"}
_PLAN_TOOLS = {"todowrite", "todo_write", "update_plan", "write_todos", "todo"}


def person_text(text: str) -> str:
    """The words the person typed, without the envelope OpenClaw adds around them."""
    return _STAMP.sub("", _METADATA.sub("", text)).strip()


def _files(name: str, args: dict[str, Any], cwd: str | None) -> list[str]:
    if name.lower() in _FILE_TOOLS:
        value = args.get("path") or args.get("file_path")
        return [relative(value, cwd)] if isinstance(value, str) else []
    if name.lower() in ("exec", "bash") and isinstance(args.get("command"), str):
        return [relative(p, cwd) for p in shell_files(args["command"])]
    return []


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return {}
    return raw if isinstance(raw, dict) else {}


def _plan(plan: PlanTracker, args: dict[str, Any]) -> bool:
    for key in ("todos", "plan", "items"):
        if isinstance(args.get(key), list):
            plan.replace(args[key], ("content", "step", "description", "text", "title"))
            return True
    return False


def read(path: Path, lines: list[bytes], records: list[dict[str, Any]]) -> Recording:
    header = next((r for r in records if r.get("type") == "session"), {})
    cwd = header.get("cwd") if isinstance(header.get("cwd"), str) else None
    rec = Recording("openclaw", path, str(header.get("id") or path.stem), cwd, lines)
    rec.times = [epoch(r.get("timestamp")) for r in records]
    plan = PlanTracker()
    calls: dict[str, Step] = {}
    for number, record in enumerate(records):
        kind = record.get("type")
        if kind == "compaction":
            summary = record.get("summary")
            if isinstance(summary, str):
                rec.compactions.append(CompactPoint(number - 1, summary))
            continue
        body = record.get("message")
        if kind != "message" or not isinstance(body, dict):
            continue
        role, content = body.get("role"), body.get("content")
        if role == "user":
            text = person_text(text_of(content))
            if text.startswith(_AUTOMATIC):
                rec.said.append(Said(number, "user", text))
            else:
                add_user_text(rec, number, text)
        elif role == "toolResult":
            step = calls.get(str(body.get("toolCallId")))
            if step is not None:
                step.end_line = number
        elif role == "assistant":
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and str(block.get("text", "")).strip():
                    rec.said.append(Said(number, "assistant", str(block["text"])))
                if block.get("type") != "toolCall":
                    continue
                name = str(block.get("name") or "")
                args = _arguments(block.get("arguments"))
                step = Step(len(rec.steps), number, name, _files(name, args, cwd))
                step.call_id, step.end_line = block.get("id"), number
                rec.steps.append(step)
                if step.call_id:
                    calls[str(step.call_id)] = step
                if name.lower() in _PLAN_TOOLS and _plan(plan, args):
                    rec.plans.append((number, plan.state()))
    return rec
