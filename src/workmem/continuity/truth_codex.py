"""The benchmark's own reading of a Codex rollout (see ``truth``): ``session_meta``, the
typed ``user_message`` events, ``response_item`` messages and tool calls, ``compacted``."""

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
    clean_request,
    epoch,
    is_prompt,
    is_request,
    relative,
    shell_files,
    text_of,
)


def _args(payload: dict[str, Any]) -> dict[str, Any]:
    raw = payload.get("arguments")
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {"input": raw}
        return parsed if isinstance(parsed, dict) else {}
    if isinstance(payload.get("input"), str):
        return {"input": payload["input"]}
    return raw if isinstance(raw, dict) else {}


def _command(args: dict[str, Any]) -> str:
    value = args.get("cmd") or args.get("command")
    if isinstance(value, list):
        value = value[-1] if len(value) >= 3 and value[1] in ("-lc", "-c") else " ".join(value)
    return value if isinstance(value, str) else ""


def read(path: Path, lines: list[bytes], records: list[dict[str, Any]]) -> Recording:
    found = next((r.get("payload") for r in records if r.get("type") == "session_meta"), None)
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    cwd = meta.get("cwd") if isinstance(meta.get("cwd"), str) else None
    rec = Recording("codex", path, str(meta.get("id") or path.stem), cwd, lines)
    rec.times = [epoch(r.get("timestamp")) for r in records]
    plan = PlanTracker()
    calls: dict[str, Step] = {}
    typed = any(
        r.get("type") == "event_msg" and r.get("payload", {}).get("type") == "user_message"
        for r in records
    )
    for number, record in enumerate(records):
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        kind, ptype = record.get("type"), payload.get("type")
        if kind == "compacted":
            rec.compactions.append(CompactPoint(number - 1, str(payload.get("message", ""))))
        elif kind == "event_msg" and ptype == "user_message":
            add_user_text(rec, number, str(payload.get("message", "")))
        elif kind == "response_item" and ptype == "message":
            text = text_of(payload.get("content"))
            role = payload.get("role")
            if role == "assistant" and text.strip():
                rec.said.append(Said(number, "assistant", text))
            elif role == "user" and not typed and is_request(text):
                rec.requests.append(Said(number, "user", clean_request(text)))
                rec.said.append(Said(number, "user", text))
            if role == "user" and not typed and is_prompt(text):
                rec.prompts.append(Said(number, "user", clean_request(text)))
        elif kind == "response_item" and ptype in ("function_call", "custom_tool_call"):
            name = str(payload.get("name", ""))
            args = _args(payload)
            files: list[str] = []
            patch = args.get("input") if name == "apply_patch" else None
            if isinstance(patch, str):
                files = re.findall(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", patch, re.M)
            else:
                files = shell_files(_command(args))
            step = Step(len(rec.steps), number, name, [relative(f.strip(), cwd) for f in files])
            step.call_id, step.end_line = payload.get("call_id"), number
            rec.steps.append(step)
            if step.call_id:
                calls[str(step.call_id)] = step
            if name == "update_plan" and isinstance(args.get("plan"), list):
                plan.replace(args["plan"], ("step", "content"))
                rec.plans.append((number, plan.state()))
        elif kind == "response_item" and ptype in (
            "function_call_output",
            "custom_tool_call_output",
        ):
            step_done = calls.get(str(payload.get("call_id")))
            if step_done is not None:
                step_done.end_line = number
    return rec
