"""A fake model server for the real agent clients: three wire formats, canned answers.

The agents' own CLIs (Claude Code, Codex, Gemini CLI, OpenClaw) are pointed at this server
on 127.0.0.1 instead of their vendors. It speaks the Anthropic Messages API, the OpenAI
Responses and Chat Completions APIs and the Gemini ``generateContent`` API, streaming or
not, and answers from a script: the first prompt of a scenario gets a plan (the platform's
own plan tool), a file edit (its own edit tool) and a closing text, one step per request,
so the transcript the agent writes holds a plan and edits like a real session's. A
compaction request gets a canned summary; anything else (titles, topic checks) "OK".

Every request is recorded (path and parsed body) so a test can assert on what the model
was sent, e.g. the context a session-start hook injected after a resume.

Bounded: loopback only, a cap on requests and on the body size, and the server thread
stops when the test's context manager exits.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_REQUESTS = 400
MAX_BODY = 32 * 1024 * 1024
#: the longest a ``hold`` step keeps a request open (the test releases it sooner)
HOLD_LIMIT = 120.0
#: phrases by which each client asks for a summary of the conversation (compaction)
COMPACTION_PHRASES = (
    "detailed summary of the conversation",
    "summary of the conversation so far",
    "CONTEXT CHECKPOINT COMPACTION",
    "state_snapshot",
    "handoff summary",
    "summarize the conversation",
    "Summarize the conversation",
    "create a summary",
)
#: Says nothing of the work on purpose: what the model knows after a compaction must come
#: from workmem, not from the fake's own summary.
SUMMARY = "<analysis>Nothing to add.</analysis>\n<summary>Summary: some work was done.</summary>"


@dataclass
class Step:
    """One model turn: call the platform's ``plan`` or ``write`` tool, say ``text``,
    ``call`` the offered tool named ``path`` (an MCP tool: ``mcp__server__name`` …) with
    ``arguments``, or ``hold``: keep the request open until the test releases it (an agent
    killed mid-task is killed while it waits for the model)."""

    kind: str  # "plan" | "write" | "text" | "call" | "hold"
    text: str = ""
    path: str = ""
    content: str = ""
    items: list[tuple[str, str]] = field(default_factory=list)  # (item, status)
    #: input tokens the answer reports (a client compacts once it passes its limit)
    usage: int = 1200
    arguments: dict[str, Any] = field(default_factory=dict)
    #: for a ``call``: what to answer instead while the client does not offer the tool yet
    #: (a client that adds its MCP servers' tools once they have started)
    until_offered: Step | None = None


def offered(name: str, tools: set[str]) -> str:
    """The offered tool ``name`` is known by: itself, or a client's prefixed form of it."""
    for tool in sorted(tools):
        if tool == name or tool.endswith((f"__{name}", f"_{name}", f".{name}")):
            return tool
    return name


@dataclass
class Scenario:
    """Steps answered to the prompt that holds ``marker``, one per request."""

    marker: str
    steps: list[Step]


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        """Every string in the request, joined: what the model was shown."""
        return "\n".join(_strings(self.body))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def hook_context(request: Recorded, prefix: str) -> str:
    """The strings of ``request`` that start with ``prefix`` (how the client labels what a
    hook added), joined; fails the test when there is none."""
    found = [s for s in _strings(request.body) if s.startswith(prefix)]
    assert found, f"no text starting with {prefix!r} in the request"
    return "\n".join(found)


class FakeModel:
    """The scripted model; thread-safe recording of what it was asked."""

    def __init__(self, scenarios: list[Scenario]) -> None:
        self.scenarios = scenarios
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._ids = 0
        #: per scenario, the answers given while waiting for a tool (not steps of it)
        self._waited: dict[str, int] = {}
        #: set when a ``hold`` step is reached; ``release`` lets the held answer go
        self.holding = threading.Event()
        self.release = threading.Event()

    def next_id(self, prefix: str) -> str:
        with self._lock:
            self._ids += 1
            return f"{prefix}_{self._ids:04d}"

    def record(self, path: str, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(Recorded(path, body))

    def model_requests(self) -> list[Recorded]:
        """Requests that asked the model for an answer (not token counts or listings)."""
        return [r for r in self.requests if _is_generation(r.path)]

    # -- choosing the answer -------------------------------------------------------------
    def choose(self, turns: list[tuple[str, str]], tools: set[str]) -> Step:
        """``turns``: (role, text) in order, role "user", "assistant" or "tool" (a tool
        result); the step for the latest scenario prompt, counted by tool results since."""
        user_texts = [t for role, t in turns if role == "user"]
        if user_texts and any(p in user_texts[-1] for p in COMPACTION_PHRASES):
            return Step("text", text=SUMMARY)
        for scenario in reversed(self.scenarios):
            marker_at = max(
                (i for i, (role, t) in enumerate(turns) if role == "user" and scenario.marker in t),
                default=-1,
            )
            if marker_at < 0:
                continue
            done = sum(1 for role, _ in turns[marker_at + 1 :] if role == "tool")
            later_prompt = any(
                role == "user" and t.strip() and not _is_reminder(t)
                for role, t in turns[marker_at + 1 :]
            )
            if later_prompt:
                continue  # the scenario was answered; this is another prompt
            steps = scenario.steps
            waited = self._waited.get(scenario.marker, 0)
            step = steps[min(done - waited, len(steps) - 1)]
            if step.until_offered is not None and offered(step.path, tools) not in tools:
                with self._lock:
                    self._waited[scenario.marker] = waited + 1
                return step.until_offered
            if step.kind == "hold":
                self.holding.set()
                self.release.wait(HOLD_LIMIT)
                return Step("text", text="Released.")
            return step
        return Step("text", text="OK.")


def _is_reminder(text: str) -> bool:
    stripped = text.strip()
    # OpenClaw sends its runtime context as a user message of its own after the prompt
    return stripped.startswith("<") or "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>" in stripped


def _is_generation(path: str) -> bool:
    path = path.split("?", 1)[0]
    return (
        path.endswith("/messages")
        or path.endswith("/responses")
        or path.endswith("/chat/completions")
        or "generatecontent" in path.lower()
    )


# -- Anthropic Messages ------------------------------------------------------------------
def _anthropic_turns(body: dict[str, Any]) -> list[tuple[str, str]]:
    turns: list[tuple[str, str]] = []
    for message in body.get("messages", []):
        role = message.get("role", "")
        content = message.get("content")
        if isinstance(content, str):
            turns.append((role, content))
            continue
        results = []
        for block in content or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                results.append("\n".join(_strings(block.get("content"))))
            elif block.get("type") == "text":
                turns.append((role, str(block.get("text", ""))))
        if results:  # the results of one answer's calls: one step done
            turns.append(("tool", "\n".join(results)))
    return turns


def _anthropic_tool_calls(step: Step, tools: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """The calls of one answer. A plan without TodoWrite (Claude Code 2.1 offers the task
    tools, deferred) is one TaskCreate per item, then a TaskUpdate for each item that is
    not pending, in one answer (Claude Code runs them in order; ids count from 1)."""
    if step.kind == "call":
        return [(offered(step.path, tools), step.arguments)]
    if step.kind == "plan":
        if "TodoWrite" in tools:
            todos = [
                {"content": item, "status": status, "activeForm": item}
                for item, status in step.items
            ]
            return [("TodoWrite", {"todos": todos})]
        calls: list[tuple[str, dict[str, Any]]] = [
            ("TaskCreate", {"subject": item, "description": item, "activeForm": item})
            for item, _status in step.items
        ]
        calls += [
            ("TaskUpdate", {"taskId": str(number), "status": status})
            for number, (_item, status) in enumerate(step.items, 1)
            if status != "pending"
        ]
        return calls
    return [("Write", {"file_path": step.path, "content": step.content})]


def anthropic_answer(model: FakeModel, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(the whole message, its SSE events) for one Messages request."""
    tools = {t.get("name", "") for t in body.get("tools", []) if isinstance(t, dict)}
    step = model.choose(_anthropic_turns(body), tools)
    message_id = model.next_id("msg")
    usage = {"input_tokens": step.usage, "output_tokens": 40}
    content: list[dict[str, Any]]
    if step.kind == "text":
        content = [{"type": "text", "text": step.text}]
        stop = "end_turn"
    else:
        content = [
            {"type": "tool_use", "id": model.next_id("toolu"), "name": name, "input": arguments}
            for name, arguments in _anthropic_tool_calls(step, tools)
        ]
        stop = "tool_use"
    message = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "fake"),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    events = [
        _sse(
            "message_start",
            {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        )
    ]
    for index, block in enumerate(content):
        start: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events.append(
            _sse(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            )
        )
        events.append(
            _sse(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        )
        events.append(_sse("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(
        _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 40},
            },
        )
    )
    events.append(_sse("message_stop", {"type": "message_stop"}))
    return message, events


# -- OpenAI Responses --------------------------------------------------------------------
def _responses_turns(body: dict[str, Any]) -> list[tuple[str, str]]:
    turns: list[tuple[str, str]] = []
    items = body.get("input", [])
    if isinstance(items, str):
        return [("user", items)]
    for item in items:
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind in ("function_call_output", "custom_tool_call_output"):
            turns.append(("tool", "\n".join(_strings(item.get("output")))))
        elif kind == "message":
            role = item.get("role", "")
            role = "user" if role in ("user", "developer") and role == "user" else role
            turns.append((role, "\n".join(_strings(item.get("content")))))
    return turns


def _patch_for(path: str, content: str) -> str:
    lines = "".join(f"+{line}\n" for line in content.splitlines())
    return f"*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n"


def _function_call(model: FakeModel, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    namespace, _, bare = name.rpartition(".")  # a tool of a namespace: "mcp__workmem.get"
    call = {
        "type": "function_call",
        "id": model.next_id("fc"),
        "call_id": model.next_id("call"),
        "name": bare,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }
    return {**call, "namespace": namespace} if namespace else call


def responses_answer(model: FakeModel, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    tool_specs = [t for t in body.get("tools", []) if isinstance(t, dict)]
    tools = {str(t.get("name", "")) for t in tool_specs}
    tools |= {  # the tools of a namespace (Codex groups an MCP server's tools in one)
        f"{t.get('name')}.{inner.get('name')}"
        for t in tool_specs
        if t.get("type") == "namespace"
        for inner in t.get("tools", [])
        if isinstance(inner, dict)
    }
    step = model.choose(_responses_turns(body), tools)
    item: dict[str, Any]
    if step.kind == "text":
        item = {
            "type": "message",
            "role": "assistant",
            "id": model.next_id("msg"),
            "status": "completed",
            "content": [{"type": "output_text", "text": step.text, "annotations": []}],
        }
    elif step.kind == "call":
        item = _function_call(model, offered(step.path, tools), step.arguments)
    elif step.kind == "plan":
        plan = [{"step": text, "status": status} for text, status in step.items]
        item = _function_call(model, "update_plan", {"plan": plan})
    else:
        apply_patch = next((t for t in tool_specs if t.get("name") == "apply_patch"), None)
        patch = _patch_for(step.path, step.content)
        if apply_patch is not None and apply_patch.get("type") == "custom":
            item = {
                "type": "custom_tool_call",
                "id": model.next_id("ctc"),
                "call_id": model.next_id("call"),
                "name": "apply_patch",
                "input": patch,
                "status": "completed",
            }
        elif apply_patch is not None:
            item = _function_call(model, "apply_patch", {"input": patch})
        else:
            shell = "exec_command" if "exec_command" in tools else "shell"
            arguments = (
                {"cmd": f"apply_patch <<'EOF'\n{patch}EOF\n"}
                if shell == "exec_command"
                else {"command": ["apply_patch", patch]}
            )
            item = _function_call(model, shell, arguments)
    response_id = model.next_id("resp")
    usage = {
        "input_tokens": step.usage,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 40,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": step.usage + 40,
    }
    response = {
        "id": response_id,
        "object": "response",
        "status": "completed",
        "model": body.get("model", "fake"),
        "output": [item],
        "usage": usage,
    }
    events = [
        _sse(
            "response.created",
            {
                "type": "response.created",
                "response": {**response, "output": [], "status": "in_progress"},
            },
        ),
        _sse(
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": 0, "item": item},
        ),
        _sse(
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": 0, "item": item},
        ),
        _sse("response.completed", {"type": "response.completed", "response": response}),
    ]
    return response, events


# -- OpenAI Chat Completions ---------------------------------------------------------------
def _chat_turns(body: dict[str, Any]) -> list[tuple[str, str]]:
    turns: list[tuple[str, str]] = []
    for message in body.get("messages", []):
        if not isinstance(message, dict):
            continue
        role = str(message.get("role", ""))
        turns.append(
            ("tool" if role == "tool" else role, "\n".join(_strings(message.get("content"))))
        )
    return turns


def chat_answer(model: FakeModel, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    tools = {
        str(t.get("function", {}).get("name", ""))
        for t in body.get("tools", [])
        if isinstance(t, dict)
    }
    step = model.choose(_chat_turns(body), tools)
    message: dict[str, Any] = {"role": "assistant", "content": None}
    finish = "tool_calls"
    if step.kind == "text":
        message["content"] = step.text
        finish = "stop"
    else:
        name, arguments = _generic_tool_call(step, tools)
        message["tool_calls"] = [
            {
                "id": model.next_id("call"),
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ]
    completion = {
        "id": model.next_id("chatcmpl"),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 1200, "completion_tokens": 40, "total_tokens": 1240},
    }
    delta: dict[str, Any] = {"role": "assistant"}
    if message.get("content"):
        delta["content"] = message["content"]
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": 0, **message["tool_calls"][0]}]
    chunk = {**completion, "object": "chat.completion.chunk"}
    events = [
        _sse(None, {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
        _sse(
            None,
            {
                **chunk,
                "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                "usage": completion["usage"],
            },
        ),
        "data: [DONE]\n\n",
    ]
    return completion, events


def _generic_tool_call(step: Step, tools: set[str]) -> tuple[str, dict[str, Any]]:
    """A plan or write call with the names and arguments the offered tools use."""
    lowered = {t.lower(): t for t in tools}
    if step.kind == "call":
        return offered(step.path, tools), step.arguments
    if step.kind == "plan":
        for name in ("write_todos", "todowrite", "todo_write", "update_plan"):
            if name in lowered:
                key = "plan" if name == "update_plan" else "todos"
                field_name = "step" if name == "update_plan" else "description"
                items = [{field_name: text, "status": status} for text, status in step.items]
                if name in ("todowrite", "todo_write"):
                    items = [
                        {"content": t, "status": s, "id": str(i)}
                        for i, (t, s) in enumerate(step.items)
                    ]
                return lowered[name], {key: items}
        return "write_todos", {"todos": [{"description": t, "status": s} for t, s in step.items]}
    for name in ("write_file", "write", "create_file"):
        if name in lowered:
            return lowered[name], {
                "file_path": step.path,
                "path": step.path,
                "content": step.content,
            }
    return "write_file", {"file_path": step.path, "content": step.content}


# -- Gemini generateContent ---------------------------------------------------------------
def _gemini_turns(body: dict[str, Any]) -> list[tuple[str, str]]:
    turns: list[tuple[str, str]] = []
    for content in body.get("contents", []):
        if not isinstance(content, dict):
            continue
        role = "assistant" if content.get("role") == "model" else "user"
        for part in content.get("parts", []) or []:
            if not isinstance(part, dict):
                continue
            if "functionResponse" in part:
                turns.append(("tool", json.dumps(part["functionResponse"])))
            elif "text" in part:
                turns.append((role, str(part["text"])))
    return turns


def gemini_answer(model: FakeModel, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    tools = {
        str(declaration.get("name", ""))
        for tool in body.get("tools", []) or []
        if isinstance(tool, dict)
        for declaration in tool.get("functionDeclarations", []) or []
        if isinstance(declaration, dict)
    }
    step = model.choose(_gemini_turns(body), tools)
    if step.kind == "text":
        part: dict[str, Any] = {"text": step.text}
    else:
        name, arguments = _generic_tool_call(step, tools)
        part = {"functionCall": {"name": name, "args": arguments}}
    answer = {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 1200,
            "candidatesTokenCount": 40,
            "totalTokenCount": 1240,
        },
        "modelVersion": "fake",
    }
    return answer, [_sse(None, answer)]


def _sse(event: str | None, data: dict[str, Any]) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data, ensure_ascii=False)}\n\n"


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the test output is the place for failures, not access lines

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise ValueError("request body too large")
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("Content-Encoding") == "gzip":
            import gzip

            raw = gzip.decompress(raw)
        elif self.headers.get("Content-Encoding") == "zstd":
            raise ValueError("zstd request bodies are not supported")
        try:
            data = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return {}
        return data if isinstance(data, dict) else {}

    def _send_json(self, status: int, payload: Any) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _send_sse(self, events: list[str]) -> None:
        raw = "".join(events).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        model = self.server.model
        model.record(self.path, {})
        if self.path.rstrip("/").endswith("/models") or "/models" in self.path:
            self._send_json(
                200,
                {"object": "list", "data": [{"id": "fake-model", "object": "model"}], "models": []},
            )
            return
        self._send_json(200, {})

    def do_POST(self) -> None:
        model = self.server.model
        if len(model.requests) >= MAX_REQUESTS:
            self._send_json(429, {"error": {"message": "fake model: request cap reached"}})
            return
        try:
            body = self._body()
        except ValueError as exc:
            self._send_json(413, {"error": {"message": str(exc)}})
            return
        path = self.path.split("?", 1)[0]
        model.record(self.path, body)
        if path.endswith("/count_tokens"):
            self._send_json(200, {"input_tokens": 1200})
            return
        if path.endswith(":countTokens"):
            self._send_json(200, {"totalTokens": 1200})
            return
        if path.endswith("/messages"):
            message, events = anthropic_answer(model, body)
        elif path.endswith("/responses"):
            message, events = responses_answer(model, body)
        elif path.endswith("/chat/completions"):
            message, events = chat_answer(model, body)
        elif "generatecontent" in path.lower():
            message, events = gemini_answer(model, body)
            if ":streamGenerateContent" in path:
                self._send_sse(events)
                return
            self._send_json(200, message)
            return
        else:
            self._send_json(200, {})
            return
        if body.get("stream"):
            self._send_sse(events)
        else:
            self._send_json(200, message)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    model: FakeModel

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            return  # a client killed while its request was held: expected, not a failure
        super().handle_error(request, client_address)


@contextmanager
def serve(scenarios: list[Scenario], *, lifetime: float = 600.0) -> Iterator[tuple[str, FakeModel]]:
    """Run the fake model on 127.0.0.1 (a free port) for at most ``lifetime`` seconds."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.model = FakeModel(scenarios)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
    )
    thread.start()
    timer = threading.Timer(lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        port = server.server_address[1]
        yield f"http://127.0.0.1:{port}", server.model
    finally:
        timer.cancel()
        server.model.release.set()  # a held request must not outlive the test
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def plan_and_edit(marker: str, path: str, *, final_usage: int = 1200) -> Scenario:
    """The scripted session: a plan with one item, a new file, then a closing sentence."""
    return Scenario(
        marker,
        [
            Step("plan", items=[("Write the rate limiter", "in_progress")]),
            Step(
                "write",
                path=path,
                content="class TokenBucket:\n    '''Refills one token a second.'''\n",
            ),
            Step("text", text="I wrote ratelimit.py with a TokenBucket class.", usage=final_usage),
        ],
    )
