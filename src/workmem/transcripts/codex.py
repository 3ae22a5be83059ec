"""Codex CLI rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

Each line is ``{timestamp, type, payload}``. The conversation is in ``response_item``
records (messages, function and custom tool calls with their outputs); ``event_msg``
records repeat the user and agent messages for the UI and carry what only they know:
``token_count`` (the usage and the model's context window), exit codes of commands,
compaction notices. We take messages from ``response_item`` and add an ``event_msg``
message only when no ``response_item`` carries the same text, so nothing is counted
twice and nothing is lost from files that only have one of the two.
"""

from __future__ import annotations

import re
from pathlib import Path

from .common import arguments, as_int, exit_code_in, string_or_none, text_of
from .jsonl import Records
from .model import Compaction, Message, ToolCall, ToolResult, Transcript, Usage

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

_INJECTED = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<permissions instructions>",
    "<turn_aborted>",
)
#: ``<tag> … </tag>`` wrapping a whole user message: context the app added (apps, skills,
#: collaboration mode, a review's results), not words the person typed
_WRAPPED = re.compile(r"^<([a-z][a-z_]*)>.*</\1>\s*$", re.S)


def _injected(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(_INJECTED) or _WRAPPED.match(stripped) is not None


_CALLS = ("function_call", "custom_tool_call", "local_shell_call", "web_search_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output")
_KNOWN = frozenset(
    {
        "session_meta",
        "turn_context",
        "response_item",
        "event_msg",
        "compacted",
        "world_state",
        "inter_agent_communication_metadata",
    }
)


def _output_text(output: Any) -> tuple[str, bool]:
    """Text of a tool output and whether it reports failure."""
    failed = False
    if isinstance(output, str):
        stripped = output.strip()
        if stripped.startswith("{"):  # older Codex: {"output": ..., "metadata": {"exit_code": N}}
            parsed = arguments(stripped)
            meta = parsed.get("metadata")
            if isinstance(meta, dict) and "exit_code" in meta:
                failed = as_int(meta.get("exit_code")) != 0
                return text_of(parsed.get("output")) or output, failed
        text = output
    else:
        text = text_of(output)
    code = exit_code_in(text)
    if code is not None and code != 0:
        failed = True
    return text, failed


def _call(payload: dict[str, Any]) -> ToolCall:
    kind = payload.get("type")
    call_id = string_or_none(payload.get("call_id")) or string_or_none(payload.get("id"))
    if kind == "function_call":
        return ToolCall(
            str(payload.get("name") or "function"), arguments(payload.get("arguments")), call_id
        )
    if kind == "custom_tool_call":
        return ToolCall(
            str(payload.get("name") or "custom_tool"), arguments(payload.get("input")), call_id
        )
    if kind == "local_shell_call":
        action = payload.get("action")
        command = action.get("command") if isinstance(action, dict) else None
        return ToolCall("shell", {"command": command}, call_id)
    action = payload.get("action")
    return ToolCall("web_search", action if isinstance(action, dict) else {}, call_id)


def _usage(info: dict[str, Any]) -> Usage | None:
    last = info.get("last_token_usage")
    if not isinstance(last, dict):
        return None
    total_input = as_int(last.get("input_tokens"))
    cached = as_int(last.get("cached_input_tokens"))
    output = as_int(last.get("output_tokens"))
    total = as_int(last.get("total_tokens")) or total_input + output
    return Usage(
        input_tokens=max(total_input - cached, 0),
        output_tokens=output,
        cache_read_tokens=cached,
        context_tokens=total,
    )


def _cumulative(info: dict[str, Any]) -> Usage | None:
    total = info.get("total_token_usage")
    if not isinstance(total, dict):
        return None
    total_input = as_int(total.get("input_tokens"))
    cached = as_int(total.get("cached_input_tokens"))
    return Usage(
        input_tokens=max(total_input - cached, 0),
        output_tokens=as_int(total.get("output_tokens")),
        cache_read_tokens=cached,
    )


def _message(payload: dict[str, Any], time: str | None) -> Message | None:
    role = payload.get("role")
    text = text_of(payload.get("content"))
    if role in ("developer", "system"):
        return Message(role="system", text=text, time=time, kind="meta")
    if role not in ("user", "assistant"):
        return None
    kind = "meta" if role == "user" and _injected(text) else "message"
    return Message(role=str(role), text=text, time=time, kind=kind)


def _loose(record: dict[str, Any], time: str | None) -> Message | None:
    """Records without the ``{type, payload}`` envelope (drifted or hand-made files)."""
    role = record.get("role")
    if role in ("user", "assistant"):
        return Message(
            role=str(role),
            text=text_of(record.get("message") or record.get("content")),
            time=time,
            model=string_or_none(record.get("model")),
        )
    kind = record.get("type")
    function = record.get("function")
    if kind == "function_call" and isinstance(function, dict):
        call = ToolCall(str(function.get("name") or "function"), arguments(record.get("arguments")))
        return Message(role="assistant", time=time, kind="tool_use", tool_calls=[call])
    if kind == "function_result":
        result = ToolResult(text_of(record.get("result")) or str(record.get("result", "")))
        result.name = string_or_none(record.get("name"))
        return Message(role="tool", time=time, kind="tool_results", tool_results=[result])
    return None


def parse(records: Records, path: Path) -> Transcript:
    from .plans import PlanBook

    t = Transcript(platform="codex", path=path, skipped_lines=records.skipped)
    book = PlanBook()
    ordered: list[tuple[Message, bool]] = []  # (message, came from event_msg)
    seen_text: set[tuple[str, str]] = set()
    calls: dict[str, ToolCall] = {}
    results: dict[str, ToolResult] = {}
    failed_calls: set[str] = set()
    context_events = 0
    window_from_task: int | None = None
    for record in records.items:
        kind = record.get("type")
        payload = record.get("payload")
        time = string_or_none(record.get("timestamp")) or string_or_none(record.get("created_at"))
        if not isinstance(payload, dict):
            loose = _loose(record, time) if kind not in _KNOWN else None
            if loose is not None:
                ordered.append((loose, False))
            elif kind not in _KNOWN:
                t.unknown_records += 1
            continue
        if kind not in _KNOWN:
            t.unknown_records += 1
        elif kind == "session_meta":
            t.session_id = t.session_id or string_or_none(payload.get("id"))
            t.cwd = t.cwd or string_or_none(payload.get("cwd"))
            git = payload.get("git")
            if isinstance(git, dict):
                t.git_branch = string_or_none(git.get("branch")) or t.git_branch
        elif kind == "turn_context":
            t.model = string_or_none(payload.get("model")) or t.model
            t.cwd = t.cwd or string_or_none(payload.get("cwd"))
        elif kind == "compacted":
            summary = payload.get("message")
            t.compactions.append(
                Compaction(time=time, summary=summary if isinstance(summary, str) else "")
            )
        elif kind == "response_item":
            item = payload.get("type")
            if item == "message":
                message = _message(payload, time)
                if message is not None:
                    ordered.append((message, False))
                    seen_text.add((message.role, message.text.strip()))
            elif item in _CALLS:
                call = _call(payload)
                if call.id:
                    calls[call.id] = call
                if book.on_call(call):
                    t.plan = book.items
                ordered.append(
                    (
                        Message(role="assistant", time=time, kind="tool_use", tool_calls=[call]),
                        False,
                    )
                )
            elif item in _OUTPUTS:
                call_id = string_or_none(payload.get("call_id"))
                text, failed = _output_text(payload.get("output"))
                known = calls.get(call_id) if call_id else None
                result = ToolResult(text, failed, call_id, known.name if known else None)
                if call_id:
                    results[call_id] = result
                ordered.append(
                    (
                        Message(role="tool", time=time, kind="tool_results", tool_results=[result]),
                        False,
                    )
                )
        elif kind == "event_msg":
            event = payload.get("type")
            if event in ("user_message", "agent_message"):
                role = "user" if event == "user_message" else "assistant"
                text = text_of(payload.get("message"))
                ordered.append((Message(role=role, text=text, time=time), True))
            elif event == "token_count":
                info = payload.get("info")
                if isinstance(info, dict):
                    usage = _usage(info)
                    if usage is not None and not usage.is_empty:
                        t.last_usage = usage
                    total = _cumulative(info)
                    if total is not None and not total.is_empty:
                        t.total_usage = total
                    window = as_int(info.get("model_context_window"))
                    if window > 0:
                        t.context_window = window
            elif event == "task_started":
                window = as_int(payload.get("model_context_window"))
                if window > 0:
                    window_from_task = window
            elif event == "context_compacted":
                context_events += 1
            elif event == "exec_command_end":
                if as_int(payload.get("exit_code")) != 0 and payload.get("call_id"):
                    failed_calls.add(str(payload["call_id"]))
            elif (
                event == "patch_apply_end"
                and payload.get("success") is False
                and payload.get("call_id")
            ):
                failed_calls.add(str(payload["call_id"]))
    for call_id in failed_calls:
        if call_id in results:
            results[call_id].is_error = True
    t.messages = [
        m for m, from_event in ordered if not (from_event and (m.role, m.text.strip()) in seen_text)
    ]
    if not t.compactions:
        t.compactions = [Compaction(trigger="auto") for _ in range(context_events)]
    if t.context_window is None:
        t.context_window = window_from_task
    t.session_id = t.session_id or path.stem
    return t
