"""What a recorded session says was going on at any line: the benchmark's ground truth.

This reader is deliberately separate from the transcript readers workmem saves from: a
benchmark that shared its parser with the system it measures would be blind to that
parser's mistakes. It reads the file unit by unit (a line of JSONL, or a message of Gemini
CLI's single JSON document), in file order, and keeps only what the scoring needs: tool
calls (with the files they read or edit), the agent's plan as it changes (TodoWrite,
TaskCreate/TaskUpdate/TaskList, update_plan, write_todos), the user's real requests, every
prompt a person typed (the turns), the conversation's text, the platform's own compaction
summaries, and when each unit was written (the replay's clock).

The shared model and helpers are here; each platform's reader is its own module
(``truth_claude``, ``truth_codex``, ``truth_gemini``, ``truth_openclaw``).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PlanState = list[tuple[str, str]]  # (item text, status)

_CODE_FILE = re.compile(
    r"\.(?:go|py|ts|tsx|js|jsx|mjs|rs|rb|java|kt|c|h|cc|cpp|hpp|cs|swift|m|sh|bash|zsh|md|mdx"
    r"|json|jsonl|ya?ml|toml|ini|cfg|sql|html|css|scss|txt|lock|mod|sum|proto|graphql|vue"
    r"|svelte|tf|gradle|xml|env|example)$",
    re.I,
)
_PATTERN_FIRST = {"rg", "grep", "egrep", "ag", "ack", "sed", "awk"}
_WRAPPERS = re.compile(
    r"<(system-reminder|ide_opened_file|ide_selection|local-command-stdout|local-command-stderr"
    r"|command-message|command-name|command-args|hook_context)>.*?</\1>",
    re.S,
)
#: what a person typed after a slash command is their request
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
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
    #: the file's units: JSONL lines, or (Gemini CLI's single JSON) messages as JSON
    lines: list[bytes]
    steps: list[Step] = field(default_factory=list)
    #: (line, plan state after that line) for every line that changed the plan
    plans: list[tuple[int, PlanState]] = field(default_factory=list)
    #: real requests: what a person asked (5+ content words, wrappers removed)
    requests: list[Said] = field(default_factory=list)
    #: every message a person typed, short ones too: the session's turns begin here
    prompts: list[Said] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    compactions: list[CompactPoint] = field(default_factory=list)
    #: epoch seconds each unit was written, where the file says (None where it does not)
    times: list[float | None] = field(default_factory=list)
    #: "jsonl", or "json" for a single JSON document rewritten whole (``document`` holds
    #: its fields other than the messages)
    layout: str = "jsonl"
    document: dict[str, Any] = field(default_factory=dict)

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

    def time_at(self, line: int) -> float | None:
        """When the unit at ``line`` was written: its own time, else the last one before it,
        else the first one after it (a header without a time)."""
        for number in range(min(line, len(self.times) - 1), -1, -1):
            if self.times[number] is not None:
                return self.times[number]
        return next((t for t in self.times if t is not None), None)

    def prefix(self, line: int, fields: dict[str, Any] | None = None) -> bytes:
        """The file as it was once unit ``line`` was written, in the platform's own format
        (``fields`` replace the single JSON document's own, such as its project)."""
        if self.layout == "json":
            messages = [json.loads(raw) for raw in self.lines[: line + 1]]
            document = {**self.document, **(fields or {})}
            last = messages[-1].get("timestamp") if messages else None
            if isinstance(last, str):
                document["lastUpdated"] = last
            document["messages"] = messages
            return json.dumps(document, ensure_ascii=False, indent=2).encode() + b"\n"
        return b"\n".join(self.lines[: line + 1]) + b"\n"


def content_words(text: str) -> list[str]:
    from .score import content_words as words

    return words(text)


def clean_request(text: str) -> str:
    """The words a person typed: wrappers and injected blocks removed, a slash command's
    arguments kept."""
    return _WRAPPERS.sub(" ", _COMMAND_ARGS.sub(r" \1 ", text)).strip()


def is_request(text: str) -> bool:
    """A real request a person typed: not a wrapper, caveat or injected block, 5+ words."""
    stripped = clean_request(text)
    if not stripped or stripped.startswith(_NOT_A_REQUEST):
        return False
    return len(content_words(stripped)) >= 5


def is_prompt(text: str) -> bool:
    """A message a person typed, however short: anything but a wrapper or injected block."""
    stripped = clean_request(text)
    return bool(stripped) and not stripped.startswith(_NOT_A_REQUEST)


def add_user_text(rec: Recording, line: int, text: str) -> None:
    """A user's message: a turn when typed, a request when it asks for something."""
    if is_prompt(text):
        rec.prompts.append(Said(line, "user", clean_request(text)))
    if is_request(text):
        rec.requests.append(Said(line, "user", clean_request(text)))
    rec.said.append(Said(line, "user", text))


def epoch(value: Any) -> float | None:
    """An ISO time (``Z`` or an offset; naive means UTC) or epoch milliseconds, in seconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 1e11:
        return float(value) / 1000
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def relative(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


def shell_files(command: str) -> list[str]:
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


class PlanTracker:
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
            self.items[key] = [text.strip(), plan_status(entry.get("status"))]
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
            self.items[key][1] = plan_status(status)
        if isinstance(args.get("subject"), str) and args["subject"].strip():
            self.items[key][0] = args["subject"].strip()


def plan_status(value: Any) -> str:
    """pending, in_progress, completed, or the platform's own word (cancelled, ...)."""
    text = str(value or "pending").strip().lower().replace("-", "_")
    return {"completed": "completed", "done": "completed", "in_progress": "in_progress"}.get(
        text, "pending" if text in ("pending", "todo", "not_started") else text
    )


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", "")) for b in content if isinstance(b, dict) and "text" in b
        )
    return ""


def parse_lines(lines: list[bytes]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for raw in lines:
        try:
            record = json.loads(raw)
        except ValueError:
            record = {}
        records.append(record if isinstance(record, dict) else {})
    return records


def read_recording(path: Path) -> Recording:
    """Read a Claude Code, Codex, Gemini CLI or OpenClaw session (detected by its records)."""
    from . import truth_claude, truth_codex, truth_gemini, truth_openclaw

    data = path.read_bytes()
    if data.lstrip().startswith(b"{") and path.suffix == ".json":
        return truth_gemini.read_document(path, data)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    records = parse_lines(lines)
    head = records[:20]
    if any(r.get("type") in ("session_meta", "response_item") for r in head):
        return truth_codex.read(path, lines, records)
    if any(r.get("type") == "session" and "version" in r for r in head[:3]):
        return truth_openclaw.read(path, lines, records)
    if any("$set" in r or ("projectHash" in r and "messages" not in r) for r in head) or any(
        r.get("type") == "gemini" for r in head
    ):
        return truth_gemini.read_lines(path, lines, records)
    return truth_claude.read(path, lines, records)
