"""The agent's own plan, in every form a platform records it.

Agents keep their plan through tool calls, and each platform has its own: a whole list set
at once (Claude Code's older ``TodoWrite``, Codex ``update_plan``, Gemini CLI
``write_todos``, Cursor ``todo_write`` which may also merge by id), or one task per call
(current Claude Code's ``TaskCreate`` / ``TaskUpdate``, with ``TaskList`` answering the whole
list). ``PlanBook`` folds any mix of them, in order, into the plan as it stands; readers feed
it every tool call and every result. Claude Code also keeps its tasks as files
(``~/.claude/tasks/<session id>/<n>.json``): ``stored_claude_tasks`` reads them, and where
they exist they are the live state.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from .model import PlanItem, ToolCall

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

#: tools that set the whole plan at once
LIST_TOOLS = frozenset({"todowrite", "todo_write", "update_plan", "write_todos", "todo"})
#: tools that change one task of the plan
TASK_TOOLS = frozenset({"taskcreate", "taskupdate", "tasklist"})
#: one stored Claude Code task is a small JSON object; a larger file is not one
TASK_FILE_BYTES = 1024 * 1024
PLAN_TOOLS = LIST_TOOLS | TASK_TOOLS

_STATUS = {
    "pending": "pending",
    "todo": "pending",
    "not_started": "pending",
    "open": "pending",
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
_TEXT_KEYS = ("content", "step", "subject", "description", "text", "title", "activeForm")
_CREATED = re.compile(r"Task #(\w+) created")


def normal_status(value: object) -> str:
    text = str(value or "pending").strip().lower()
    return _STATUS.get(text, text or "pending")


def _item_text(entry: dict[str, Any]) -> str | None:
    for key in _TEXT_KEYS:
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def is_plan_call(call: ToolCall) -> bool:
    return call.name.lower() in PLAN_TOOLS


class PlanBook:
    """The plan as a sequence of plan tool calls and results leaves it."""

    def __init__(self) -> None:
        self._items: dict[str, PlanItem] = {}
        self._order: list[str] = []
        self._created = 0
        #: TaskCreate call id -> the key its task got before the answer said its real id
        self._provisional: dict[str, str] = {}
        #: times the plan changed (a reader can tell "no plan" from "an emptied plan")
        self.updates = 0

    @property
    def items(self) -> list[PlanItem]:
        return [self._items[key] for key in self._order if key in self._items]

    def _replace(self, entries: list[Any]) -> None:
        self._items, self._order = {}, []
        self._merge(entries)

    def _merge(self, entries: list[Any]) -> None:
        for number, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue
            key = str(entry.get("id") or entry.get("taskId") or f"#{len(self._order) + number}")
            text = _item_text(entry)
            known = self._items.get(key)
            if known is None:
                if text is None:
                    continue
                self._items[key] = PlanItem(text, normal_status(entry.get("status")))
                self._order.append(key)
                continue
            if text is not None:
                known.text = text
            if entry.get("status") is not None:
                known.status = normal_status(entry["status"])

    def on_call(self, call: ToolCall) -> bool:
        """Fold in a tool call; True when it changed the plan."""
        name = call.name.lower()
        args = call.input
        if name in LIST_TOOLS:
            entries = next(
                (
                    args[k]
                    for k in ("todos", "plan", "items", "tasks")
                    if isinstance(args.get(k), list)
                ),
                None,
            )
            if entries is None:
                return False
            if name == "todo_write" and args.get("merge") is True:
                self._merge(entries)
            else:
                self._replace(entries)
        elif name == "taskcreate":
            text = _item_text(args)
            if text is None:
                return False
            self._created += 1
            key = str(self._created)
            while key in self._items:
                self._created += 1
                key = str(self._created)
            self._items[key] = PlanItem(text, "pending")
            self._order.append(key)
            if call.id:
                self._provisional[call.id] = key
        elif name == "taskupdate":
            key = str(args.get("taskId") or args.get("id") or "")
            item = self._items.get(key)
            if item is None:
                return False
            status = args.get("status")
            if status == "deleted":
                del self._items[key]
            else:
                if status is not None:
                    item.status = normal_status(status)
                text = args.get("subject")
                if isinstance(text, str) and text.strip():
                    item.text = text.strip()
        else:
            return False
        self.updates += 1
        return True

    def on_result(self, call: ToolCall, detail: Any, output: str) -> bool:
        """Fold in what a task tool answered: the id a task really got, the whole list."""
        name = call.name.lower()
        if name == "tasklist":
            tasks = detail.get("tasks") if isinstance(detail, dict) else None
            if not isinstance(tasks, list):
                return False
            self._replace(tasks)
            self.updates += 1
            return True
        if name != "taskcreate":
            return False
        task = detail.get("task") if isinstance(detail, dict) else None
        real = (
            str(task.get("id")) if isinstance(task, dict) and task.get("id") is not None else None
        )
        if real is None:
            found = _CREATED.search(output or "")
            real = found.group(1) if found else None
        provisional = self._provisional.pop(call.id, None) if call.id else None
        if real is None or provisional is None or real == provisional:
            return False
        if provisional not in self._items or real in self._items:
            return False  # parallel creates answered out of order: keep what there is
        self._items[real] = self._items.pop(provisional)
        self._order = [real if key == provisional else key for key in self._order]
        return True


def stored_claude_tasks(session_id: str | None, home: Path | None = None) -> list[PlanItem] | None:
    """Claude Code's task files for a session, in id order; None when it has none."""
    if not session_id or "/" in session_id or session_id.startswith("."):
        return None
    config = os.environ.get("CLAUDE_CONFIG_DIR") if home is None else None
    base = Path(config) if config else (home or Path.home()) / ".claude"
    folder = base / "tasks" / session_id
    if not folder.is_dir():
        return None
    from ..errors import WorkmemError
    from ..files.bounded import read_file

    entries: list[tuple[tuple[int, str], PlanItem]] = []
    for path in folder.glob("*.json"):
        try:  # bounded: a pipe or a huge file under a task's name is passed over
            data = json.loads(read_file(path, limit=TASK_FILE_BYTES, what="task file"))
        except (OSError, ValueError, WorkmemError):
            continue
        if not isinstance(data, dict) or data.get("status") == "deleted":
            continue
        text = _item_text(data)
        if text is None:
            continue
        key = str(data.get("id") or path.stem)
        order = (int(key), key) if key.isdigit() else (1 << 30, key)
        entries.append((order, PlanItem(text, normal_status(data.get("status")))))
    if not entries:
        return None
    return [item for _, item in sorted(entries, key=lambda pair: pair[0])]
