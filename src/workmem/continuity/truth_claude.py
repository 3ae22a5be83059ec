"""The benchmark's own reading of a Claude Code transcript (see ``truth``): the main
chain's messages (sidechains skipped), tool calls with the files they read or edit, the
plan from TodoWrite and the Task tools (applied once their result says they worked), the
person's messages, and the compaction summaries with the line before their boundary."""

from __future__ import annotations

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
    text_of,
)

_EDIT_OR_READ = {"read", "edit", "multiedit", "write", "notebookedit"}


def read(path: Path, lines: list[bytes], records: list[dict[str, Any]]) -> Recording:
    session = next((r["sessionId"] for r in records if isinstance(r.get("sessionId"), str)), "")
    cwd = next((r["cwd"] for r in records if isinstance(r.get("cwd"), str)), None)
    rec = Recording("claude-code", path, session or path.stem, cwd, lines)
    rec.times = [epoch(r.get("timestamp")) for r in records]
    plan = PlanTracker()
    pending: dict[str, tuple[Step, dict[str, Any]]] = {}
    boundary: int | None = None
    for number, record in enumerate(records):
        if record.get("isSidechain"):
            continue
        kind = record.get("type")
        if kind == "system" and record.get("subtype") == "compact_boundary":
            boundary = number
            continue
        message = record.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if kind == "user" and record.get("isCompactSummary"):
            text = content if isinstance(content, str) else text_of(content)
            cut = (boundary if boundary is not None else number) - 1
            rec.compactions.append(CompactPoint(cut, text))
            continue
        if kind == "assistant":
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and str(block.get("text", "")).strip():
                    rec.said.append(Said(number, "assistant", block["text"]))
                if block.get("type") != "tool_use":
                    continue
                name = str(block.get("name", ""))
                raw_args = block.get("input")
                args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
                files = []
                if name.lower() in _EDIT_OR_READ:
                    value = args.get("file_path") or args.get("notebook_path")
                    if isinstance(value, str):
                        files.append(relative(value, cwd))
                step = Step(len(rec.steps), number, name, files, block.get("id"), number)
                rec.steps.append(step)
                if block.get("id"):
                    pending[str(block["id"])] = (step, args)
                if name == "TodoWrite" and isinstance(args.get("todos"), list):
                    plan.replace(args["todos"], ("content", "activeForm"))
                    rec.plans.append((number, plan.state()))
            continue
        if kind != "user" or record.get("isMeta"):
            continue
        if isinstance(content, str):
            add_user_text(rec, number, content)
            continue
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                add_user_text(rec, number, str(block.get("text", "")))
            if block.get("type") == "tool_result":
                found = pending.get(str(block.get("tool_use_id")))
                if found is None:
                    continue
                step, args = found
                step.end_line = number
                if _claude_plan_result(plan, step.name, args, record.get("toolUseResult")):
                    rec.plans.append((number, plan.state()))
    return rec


def _claude_plan_result(plan: PlanTracker, name: str, args: dict[str, Any], result: Any) -> bool:
    """Apply a Task tool's call once its result is known; True when the plan changed."""
    info = result if isinstance(result, dict) else {}
    if name == "TaskCreate" and isinstance(args.get("subject"), str):
        raw_task = info.get("task")
        task: dict[str, Any] = raw_task if isinstance(raw_task, dict) else {}
        plan.create(args["subject"], str(task["id"]) if task.get("id") is not None else None)
        return True
    if name == "TaskUpdate":
        if info.get("success") is False:
            return False
        plan.update(args)
        return True
    if name == "TaskList" and isinstance(info.get("tasks"), list):
        plan.replace(info["tasks"], ("subject", "content"))
        return True
    return False
