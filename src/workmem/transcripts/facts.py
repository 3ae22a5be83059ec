"""What a transcript can tell without anyone summarising it.

Files created, edited and read (from the edit and read tools of every platform), the
functions those edits touched, shell commands in the order they ran, tool failures and
what the agent did next, the user's requests, the agent's own plan. The relay snapshot
and the session-notes extractor both fill their factual parts from here, so the two
never disagree about what happened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .model import Message, PlanItem, ToolCall, ToolResult, Transcript

EDIT_TOOLS = frozenset(
    {
        "edit",
        "multiedit",
        "write",
        "notebookedit",
        "apply_patch",
        "edit_file",
        "write_file",
        "replace",
        "create_file",
        "str_replace_based_edit_tool",
        "str_replace_editor",
        "search_replace",
        "strreplace",
    }
)
CREATE_TOOLS = frozenset({"write", "write_file", "create_file"})
READ_TOOLS = frozenset(
    {"read", "read_file", "view", "notebookread", "open_file", "read_many_files", "cat"}
)
SHELL_TOOLS = frozenset(
    {
        "bash",
        "shell",
        "exec_command",
        "run_shell_command",
        "run_terminal",
        "run_terminal_cmd",
        "shell_exec",
        "local_shell",
        "terminal",
        "execute_command",
        "container.exec",
    }
)
_PATH_KEYS = (
    "file_path",
    "path",
    "filename",
    "target_file",
    "notebook_path",
    "absolute_path",
    "file",
)
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$", re.M)
#: ``apply_patch`` run as a command (Codex's instructions for models without its patch
#: tool); Codex applies such a patch itself, as an edit
_SHELL_PATCH = re.compile(r"(?:^|[\s;&|(])apply_patch\b")
_FUNCTION = re.compile(
    r"\b(?:def|class|function|func|fn|interface|struct|enum|trait|impl)\s+([A-Za-z_][A-Za-z0-9_]*)"
)


@dataclass
class FileTouch:
    path: str
    created: bool = False
    edits: int = 0
    reads: int = 0
    functions: list[str] = field(default_factory=list)
    #: the number of the last tool call that touched it (higher: more recent)
    last_call: int = -1

    @property
    def action(self) -> str:
        if self.created:
            return "created"
        return "modified" if self.edits else "read"


@dataclass
class CommandRun:
    command: str
    failed: bool = False
    output: str = ""
    time: str | None = None


@dataclass
class ToolError:
    tool: str
    subject: str
    error: str
    #: what the agent did right after: its next words or its next tool call
    next_step: str = ""
    #: the same command or file later succeeded
    resolved: bool = False


@dataclass
class TranscriptFacts:
    files: list[FileTouch] = field(default_factory=list)
    commands: list[CommandRun] = field(default_factory=list)
    errors: list[ToolError] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    plan: list[PlanItem] = field(default_factory=list)
    final_replies: list[str] = field(default_factory=list)

    @property
    def edited(self) -> list[FileTouch]:
        return [f for f in self.files if f.edits or f.created]

    def recent_files(self) -> list[FileTouch]:
        """Every file touched, the most recently touched first (the files in play)."""
        return sorted(self.files, key=lambda f: f.last_call, reverse=True)

    def plan_items(self, status: str) -> list[str]:
        return [p.text for p in self.plan if p.status == status]


def shell_command(call: ToolCall) -> str | None:
    """The command line a shell tool ran, whichever platform's argument shape it used."""
    if call.name.lower() not in SHELL_TOOLS:
        return None
    for key in ("command", "cmd", "commandLine", "input"):
        value = call.input.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and all(isinstance(v, str) for v in value) and value:
            if len(value) >= 3 and value[0] in ("bash", "sh", "zsh") and value[1] in ("-lc", "-c"):
                return str(value[-1]).strip()
            return " ".join(value)
    return None


#: shell commands that read the files named in their arguments (how Codex reads files)
_READERS = frozenset(
    {"cat", "sed", "nl", "head", "tail", "less", "more", "bat", "wc", "rg", "grep", "awk", "jq"}
)
#: of those, the ones whose first plain argument is a pattern or a script, not a file
_PATTERN_FIRST = frozenset({"sed", "rg", "grep", "awk", "jq"})
_SEPARATORS = frozenset({"|", "||", "&&", ";"})
_PATHLIKE = re.compile(r"^[\w@.+~-]*(?:/[\w@.+~-]+)*\.?[\w-]+$")


def shell_reads(command: str) -> list[str]:
    """Files a shell command reads with cat, sed -n, head, rg and the like."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    found: list[str] = []
    program: str | None = None
    pattern_pending = False
    for word in words:
        if word in _SEPARATORS:
            program = None
            continue
        if program is None:
            program = word.rsplit("/", 1)[-1]
            pattern_pending = program in _PATTERN_FIRST
            continue
        if program not in _READERS or word.startswith("-"):
            continue
        if pattern_pending:
            pattern_pending = False
            continue
        if ("/" in word or "." in word.lstrip(".")) and _PATHLIKE.match(word) and len(word) < 300:
            found.append(word)
    return found


def _relative(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


def _edited_paths(call: ToolCall) -> list[tuple[str, bool]]:
    """(path, created) for each file an edit tool call changed."""
    name = call.name.lower()
    patch = call.input.get("input") or call.input.get("patch")
    if name in SHELL_TOOLS:
        patch = _shell_patch(shell_command(call))
        name = "apply_patch" if patch else name
    if name == "apply_patch" and isinstance(patch, str):
        return [(p.strip(), kind == "Add") for kind, p in _PATCH_FILE.findall(patch)]
    for key in _PATH_KEYS:
        value = call.input.get(key)
        if isinstance(value, str) and value.strip():
            return [(value.strip(), name in CREATE_TOOLS)]
    return []


def _shell_patch(command: str | None) -> str | None:
    """The command when it hands a patch to ``apply_patch`` (``apply_patch <<'EOF'``)."""
    if command and "*** Begin Patch" in command and _SHELL_PATCH.search(command):
        return command
    return None


def _functions(call: ToolCall) -> list[str]:
    found: list[str] = []
    patch = _shell_patch(shell_command(call))
    if patch:
        found.extend(_FUNCTION.findall(patch))
    for key in ("new_string", "content", "new_str", "file_text", "input", "patch", "code_edit"):
        value = call.input.get(key)
        if isinstance(value, str):
            found.extend(_FUNCTION.findall(value))
    edits = call.input.get("edits")
    if isinstance(edits, list):
        for edit in edits:
            if isinstance(edit, dict) and isinstance(edit.get("new_string"), str):
                found.extend(_FUNCTION.findall(edit["new_string"]))
    return list(dict.fromkeys(found))


def _subject(call: ToolCall | None, cwd: str | None) -> str:
    if call is None:
        return ""
    command = shell_command(call)
    if command:
        return command
    paths = _edited_paths(call)
    if paths:
        return _relative(paths[0][0], cwd)
    for key in (*_PATH_KEYS, "pattern", "query", "url"):
        value = call.input.get(key)
        if isinstance(value, str):
            return _relative(value, cwd)
    return ""


def _first_lines(text: str, lines: int = 3, width: int = 300) -> str:
    """The first ``lines`` lines in one, redacted before anything is cut (a secret over a
    cut line would otherwise leave a piece no detector knows)."""
    from ..files.freetext import redacted, shorten

    clean = redacted(text)
    kept = [line.rstrip() for line in clean.strip().splitlines() if line.strip()][:lines]
    return shorten(" | ".join(kept), width)


def extract_facts(transcript: Transcript, *, requests: int = 5) -> TranscriptFacts:
    facts = TranscriptFacts(plan=list(transcript.plan))
    cwd = transcript.cwd
    files: dict[str, FileTouch] = {}
    calls: dict[str, ToolCall] = {}
    pending_errors: list[ToolError] = []
    messages: list[Message] = transcript.messages
    failed = {r.call_id for r in transcript.tool_results if r.is_error and r.call_id}
    last_call: ToolCall | None = None
    number = 0
    for message in messages:
        if message.is_conversation and message.role == "assistant" and pending_errors:
            for error in pending_errors:
                error.next_step = error.next_step or _first_lines(message.text, 2)
            pending_errors = []
        for call in message.tool_calls:
            last_call = call
            number += 1
            if call.id:
                calls[call.id] = call
            for error in pending_errors:
                if not error.next_step:
                    error.next_step = f"{call.name} {_subject(call, cwd)}".strip()
            name = call.name.lower()
            command = shell_command(call)
            if command:
                facts.commands.append(CommandRun(command, time=message.time))
                for raw in shell_reads(command):
                    path = _relative(raw, cwd)
                    touch = files.setdefault(path, FileTouch(path))
                    touch.reads += 1
                    touch.last_call = number
            edit = name in EDIT_TOOLS or _shell_patch(command) is not None
            if edit and call.id not in failed:
                for raw, created in _edited_paths(call):
                    path = _relative(raw, cwd)
                    touch = files.setdefault(path, FileTouch(path))
                    touch.last_call = number
                    touch.edits += 1
                    touch.created = touch.created or (created and touch.edits == 1)
                    for fn in _functions(call):
                        if fn not in touch.functions:
                            touch.functions.append(fn)
            elif name in READ_TOOLS:
                for key in _PATH_KEYS:
                    value = call.input.get(key)
                    if isinstance(value, str) and value.strip():
                        path = _relative(value.strip(), cwd)
                        touch = files.setdefault(path, FileTouch(path))
                        touch.reads += 1
                        touch.last_call = number
                        break
        for result in message.tool_results:
            matched = calls.get(result.call_id) if result.call_id else None
            if matched is None and result.call_id is None:
                matched = last_call  # platforms without ids report the result right after
            _record_result(facts, result, matched, cwd, pending_errors)
    _mark_resolved(facts)
    facts.files = list(files.values())
    conversation = transcript.conversation
    facts.requests = [m.text for m in conversation if m.role == "user"][-requests:]
    facts.final_replies = [r.reply for r in transcript.rounds() if r.reply][-3:]
    return facts


def _record_result(
    facts: TranscriptFacts,
    result: ToolResult,
    call: ToolCall | None,
    cwd: str | None,
    pending: list[ToolError],
) -> None:
    command = shell_command(call) if call is not None else None
    if command:
        for run in reversed(facts.commands):
            if run.command == command and not run.output:
                run.output = _first_lines(result.output, 2)
                run.failed = result.is_error
                break
    if result.is_error:
        error = ToolError(
            tool=(call.name if call else result.name) or "tool",
            subject=_subject(call, cwd),
            error=_first_lines(result.output) or "(no output)",
        )
        facts.errors.append(error)
        pending.append(error)


def _mark_resolved(facts: TranscriptFacts) -> None:
    """An error is resolved when the same command later ran without failing."""
    for error in facts.errors:
        runs = [c for c in facts.commands if c.command == error.subject] if error.subject else []
        if len(runs) > 1 and not runs[-1].failed:
            error.resolved = True


def describe_file(touch: FileTouch) -> str:
    parts = [touch.action]
    if touch.edits > 1:
        parts.append(f"{touch.edits} edits")
    if touch.functions:
        parts.append("functions: " + ", ".join(touch.functions[:6]))
    return "; ".join(parts)


def to_dict(facts: TranscriptFacts) -> dict[str, Any]:
    return {
        "files": [
            {"path": f.path, "action": f.action, "edits": f.edits, "functions": f.functions}
            for f in facts.files
        ],
        "commands": [{"command": c.command, "failed": c.failed} for c in facts.commands],
        "errors": [
            {"tool": e.tool, "subject": e.subject, "error": e.error, "resolved": e.resolved}
            for e in facts.errors
        ],
        "requests": facts.requests,
        "plan": [p.to_dict() for p in facts.plan],
    }
