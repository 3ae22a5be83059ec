"""A small Claude Code transcript of our own, in the platform's JSONL format.

``make demo`` replays it when the recorded fixtures of ``../shared`` are not there, and the
tests use it so the suite means something on any machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def claude_code(path: Path, session: str = "sess-1", cwd: str = "/work/app") -> Path:
    """A short Claude Code session: a request, an edit, a shell command, a result."""
    base = {"sessionId": session, "cwd": cwd, "gitBranch": "main", "version": "2.1.0"}
    lines: list[dict[str, Any]] = [
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "timestamp": "2026-05-25T13:00:00Z",
            "message": {"role": "user", "content": "Add rate limiting to the login endpoint"},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "parentUuid": "u1",
            "timestamp": "2026-05-25T13:00:05Z",
            "requestId": "req_1",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "text", "text": "I'll add a limiter in src/auth/limit.py."},
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Edit",
                        "input": {
                            "file_path": f"{cwd}/src/auth/limit.py",
                            "old_string": "",
                            "new_string": "def limit(): ...",
                        },
                    },
                ],
                "usage": {
                    "input_tokens": 1200,
                    "cache_creation_input_tokens": 3000,
                    "cache_read_input_tokens": 20000,
                    "output_tokens": 300,
                },
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u2",
            "parentUuid": "a1",
            "timestamp": "2026-05-25T13:00:06Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
            },
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a2",
            "parentUuid": "u2",
            "timestamp": "2026-05-25T13:00:09Z",
            "requestId": "req_2",
            "message": {
                "id": "msg_2",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t2",
                        "name": "Bash",
                        "input": {"command": "pytest -q tests/auth"},
                    }
                ],
                "usage": {
                    "input_tokens": 200,
                    "cache_creation_input_tokens": 100,
                    "cache_read_input_tokens": 24000,
                    "output_tokens": 40,
                },
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u3",
            "parentUuid": "a2",
            "timestamp": "2026-05-25T13:00:15Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "3 passed"}],
            },
        },
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path
