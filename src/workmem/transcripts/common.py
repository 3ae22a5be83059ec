"""Small pieces every platform reader shares: content blocks, tool arguments, todo lists."""

from __future__ import annotations

import json
import re

from .model import PlanItem, ToolCall

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

#: tools through which agents keep their own plan or todo list
PLAN_TOOLS = frozenset({"todowrite", "todo_write", "update_plan", "write_todos", "todo"})
_STATUS = {
    "pending": "pending",
    "todo": "pending",
    "not_started": "pending",
    "in_progress": "in_progress",
    "in-progress": "in_progress",
    "inprogress": "in_progress",
    "active": "in_progress",
    "doing": "in_progress",
    "completed": "completed",
    "complete": "completed",
    "done": "completed",
    "cancelled": "cancelled",
    "canceled": "cancelled",
}
_EXIT_CODE = re.compile(r"(?:exit code|exited with code|Exit Code)[:=]?\s*(-?\d+)", re.I)


def text_of(content: Any, *, skip: frozenset[str] = frozenset({"thinking"})) -> str:
    """Plain text of a message ``content``: a string or a list of typed blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        if content.get("type") in skip:
            return ""
        for key in ("text", "output", "content"):
            value = content.get(key)
            if isinstance(value, (str, list)):
                return text_of(value, skip=skip)
        return ""
    if isinstance(content, list):
        parts = [text_of(block, skip=skip) for block in content]
        return "\n".join(p for p in parts if p)
    return ""


def arguments(value: Any) -> dict[str, Any]:
    """Tool arguments as a dict, whether the platform stored an object or a JSON string."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("{"):
            try:
                parsed = json.loads(stripped)
            except ValueError:
                return {"input": value}
            if isinstance(parsed, dict):
                return parsed
        return {"input": value}
    if value is None:
        return {}
    return {"input": value}


def plan_from_call(call: ToolCall) -> list[PlanItem] | None:
    """The full plan a todo/plan tool call sets, or ``None`` if the call is not one."""
    if call.name.lower() not in PLAN_TOOLS:
        return None
    items = None
    for key in ("todos", "plan", "items", "tasks"):
        if isinstance(call.input.get(key), list):
            items = call.input[key]
            break
    if items is None:
        return None
    plan: list[PlanItem] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = next(
            (
                item[k]
                for k in ("content", "step", "description", "text", "title", "subject")
                if isinstance(item.get(k), str) and item[k].strip()
            ),
            None,
        )
        if text is None:
            continue
        status = str(item.get("status", "pending")).strip().lower()
        plan.append(PlanItem(text.strip(), _STATUS.get(status, status or "pending")))
    return plan


def exit_code_in(text: str) -> int | None:
    """The exit code a shell tool's output reports, if it reports one."""
    match = _EXIT_CODE.search(text[:400]) or _EXIT_CODE.search(text[-400:])
    return int(match.group(1)) if match else None


def string_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def as_int(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return 0
