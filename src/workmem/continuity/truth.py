"""What a recorded session says was going on at any line: the benchmark's ground truth.

This reader is deliberately separate from the transcript readers workmem saves from: a
benchmark that shared its parser with the system it measures would be blind to that
parser's mistakes. It reads the JSONL file line by line, in file order, and keeps only
what the scoring needs: tool calls (with the files they read or edit), the agent's plan as
it changes (TodoWrite, TaskCreate/TaskUpdate/TaskList, update_plan), the user's real
requests, the conversation's text, and the platform's own compaction summaries.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PlanState = list[tuple[str, str]]  # (item text, status)

_EDIT_OR_READ = {"read", "edit", "multiedit", "write", "notebookedit"}
_CODE_FILE = re.compile(
    r"\.(?:go|py|ts|tsx|js|jsx|mjs|rs|rb|java|kt|c|h|cc|cpp|hpp|cs|swift|m|sh|bash|zsh|md|mdx"
    r"|json|jsonl|ya?ml|toml|ini|cfg|sql|html|css|scss|txt|lock|mod|sum|proto|graphql|vue"
    r"|svelte|tf|gradle|xml|env|example)$",
    re.I,
)
_PATTERN_FIRST = {"rg", "grep", "egrep", "ag", "ack", "sed", "awk"}
_WRAPPERS = re.compile(
    r"<(system-reminder|ide_opened_file|ide_selection|local-command-stdout|local-command-stderr"
    r"|command-message|command-name|command-args)>.*?</\1>",
    re.S,
)
_CALL_OUTPUTS = ("function_call_output", "custom_tool_call_output")
_NOT_A_REQUEST = (
    "<",
    "Caveat:",
    "[Request interrupted",
    "This session is being continued",
    "# AGENTS.md",
)


@dataclass
class Step:
    """One tool call, in file order."""

    index: int
    line: int
    name: str
    files: list[str]
    call_id: str | None = None
    #: the line of its result, once seen (the call's own line until then)
    end_line: int = -1


@dataclass
class Said:
    line: int
    role: str
    text: str


@dataclass
class CompactPoint:
    """A compaction the platform itself made: everything before ``cut_line`` was summarised."""

    cut_line: int
    summary: str


@dataclass
class Recording:
    platform: str
    path: Path
    session_id: str
    cwd: str | None
    lines: list[bytes]
    steps: list[Step] = field(default_factory=list)
    #: (line, plan state after that line) for every line that changed the plan
    plans: list[tuple[int, PlanState]] = field(default_factory=list)
    requests: list[Said] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    compactions: list[CompactPoint] = field(default_factory=list)

    def plan_at(self, line: int) -> PlanState | None:
        found = None
        for at, state in self.plans:
            if at > line:
                break
            found = state
        return found

    def request_at(self, line: int) -> str | None:
        found = None
        for said in self.requests:
            if said.line > line:
                break
            found = said.text
        return found


def content_words(text: str) -> list[str]:
    from .score import content_words as words

    return words(text)


def is_request(text: str) -> bool:
    """A real request a person typed: not a wrapper, caveat or injected block, 5+ words."""
    stripped = _WRAPPERS.sub(" ", text).strip()
    if not stripped or stripped.startswith(_NOT_A_REQUEST):
        return False
    return len(content_words(stripped)) >= 5


def clean_request(text: str) -> str:
    return _WRAPPERS.sub(" ", text).strip()


def _relative(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


def _shell_files(command: str) -> list[str]:
    try:
        words = shlex.split(command, posix=True)
    except ValueError:
        words = command.split()
    found: list[str] = []
    skip_pattern = False
    for word in words:
        if word in ("|", "&&", "||", ";"):
            skip_pattern = False
            continue
        base = word.rsplit("/", 1)[-1]
        if base in _PATTERN_FIRST:
            skip_pattern = True
            continue
        if word.startswith("-") or "://" in word or any(c in word for c in "*?$<>(){}=\"'"):
            continue
        if skip_pattern:
            skip_pattern = False
            continue
        token = re.sub(r":\d+(?::\d+)?$", "", word)
        if _CODE_FILE.search(token) and len(token) < 300:
            found.append(token)
    return found


class _PlanTracker:
    """The plan as the agent's tool calls leave it (an independent reading for the bench)."""

    def __init__(self) -> None:
        self.items: dict[str, list[str]] = {}  # id -> [text, status]
        self.order: list[str] = []
        self.created = 0

    def state(self) -> PlanState:
        return [(self.items[i][0], self.items[i][1]) for i in self.order if i in self.items]

    def replace(self, entries: list[Any], text_keys: tuple[str, ...]) -> None:
        self.items, self.order = {}, []
        for number, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue
            text = next((entry[k] for k in text_keys if isinstance(entry.get(k), str)), None)
            if not text:
                continue
            key = str(entry.get("id") or f"#{number}")
            self.items[key] = [text.strip(), _status(entry.get("status"))]
            self.order.append(key)

    def create(self, subject: str, task_id: str | None) -> None:
        self.created += 1
        key = task_id or str(self.created)
        self.items[key] = [subject.strip(), "pending"]
        self.order.append(key)

    def update(self, args: dict[str, Any]) -> None:
        key = str(args.get("taskId") or args.get("id") or "")
        if key not in self.items:
            return
        status = args.get("status")
        if status == "deleted":
            del self.items[key]
            return
        if isinstance(status, str):
            self.items[key][1] = _status(status)
        if isinstance(args.get("subject"), str) and args["subject"].strip():
            self.items[key][0] = args["subject"].strip()


def _status(value: Any) -> str:
    text = str(value or "pending").strip().lower().replace("-", "_")
    return {"completed": "completed", "done": "completed", "in_progress": "in_progress"}.get(
        text, "pending" if text in ("pending", "todo", "not_started") else text
    )


def read_recording(path: Path) -> Recording:
    """Read a Claude Code JSONL transcript or a Codex rollout (detected by its records)."""
    lines = path.read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    records: list[dict[str, Any]] = []
    for raw in lines:
        try:
            record = json.loads(raw)
        except ValueError:
            record = {}
        records.append(record if isinstance(record, dict) else {})
    codex = any(r.get("type") in ("session_meta", "response_item") for r in records[:20])
    if codex:
        return _read_codex(path, lines, records)
    return _read_claude(path, lines, records)


def _read_claude(path: Path, lines: list[bytes], records: list[dict[str, Any]]) -> Recording:
    session = next((r["sessionId"] for r in records if isinstance(r.get("sessionId"), str)), "")
    cwd = next((r["cwd"] for r in records if isinstance(r.get("cwd"), str)), None)
    rec = Recording("claude-code", path, session or path.stem, cwd, lines)
    plan = _PlanTracker()
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
            text = content if isinstance(content, str) else _text(content)
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
                        files.append(_relative(value, cwd))
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
            if is_request(content):
                rec.requests.append(Said(number, "user", clean_request(content)))
            rec.said.append(Said(number, "user", content))
            continue
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                text = str(block.get("text", ""))
                if is_request(text):
                    rec.requests.append(Said(number, "user", clean_request(text)))
                rec.said.append(Said(number, "user", text))
            if block.get("type") == "tool_result":
                found = pending.get(str(block.get("tool_use_id")))
                if found is None:
                    continue
                step, args = found
                step.end_line = number
                if _claude_plan_result(plan, step.name, args, record.get("toolUseResult")):
                    rec.plans.append((number, plan.state()))
    return rec


def _claude_plan_result(plan: _PlanTracker, name: str, args: dict[str, Any], result: Any) -> bool:
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


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", "")) for b in content if isinstance(b, dict) and "text" in b
        )
    return ""


def _codex_args(payload: dict[str, Any]) -> dict[str, Any]:
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


def _codex_command(args: dict[str, Any]) -> str:
    value = args.get("cmd") or args.get("command")
    if isinstance(value, list):
        value = value[-1] if len(value) >= 3 and value[1] in ("-lc", "-c") else " ".join(value)
    return value if isinstance(value, str) else ""


def _read_codex(path: Path, lines: list[bytes], records: list[dict[str, Any]]) -> Recording:
    found = next((r.get("payload") for r in records if r.get("type") == "session_meta"), None)
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    cwd = meta.get("cwd") if isinstance(meta.get("cwd"), str) else None
    rec = Recording("codex", path, str(meta.get("id") or path.stem), cwd, lines)
    plan = _PlanTracker()
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
            text = str(payload.get("message", ""))
            if is_request(text):
                rec.requests.append(Said(number, "user", clean_request(text)))
            rec.said.append(Said(number, "user", text))
        elif kind == "response_item" and ptype == "message":
            text = _text(payload.get("content"))
            role = payload.get("role")
            if role == "assistant" and text.strip():
                rec.said.append(Said(number, "assistant", text))
            elif role == "user" and not typed and is_request(text):
                rec.requests.append(Said(number, "user", clean_request(text)))
                rec.said.append(Said(number, "user", text))
        elif kind == "response_item" and ptype in ("function_call", "custom_tool_call"):
            name = str(payload.get("name", ""))
            args = _codex_args(payload)
            files: list[str] = []
            patch = args.get("input") if name == "apply_patch" else None
            if isinstance(patch, str):
                files = re.findall(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", patch, re.M)
            else:
                files = _shell_files(_codex_command(args))
            step = Step(len(rec.steps), number, name, [_relative(f.strip(), cwd) for f in files])
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
