"""Driving the MCP server the way agents do: the SDK's own client, a real server process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

#: Variables of a surrounding agent session that would tell the server which session it
#: serves (the tests say it themselves).
AGENT_VARIABLES = (
    "WORKMEM_SESSION_ID",
    "CLAUDECODE",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_ENTRYPOINT",
    "CODEX_THREAD_ID",
    "CODEX_SANDBOX",
    "GEMINI_CLI",
    "WORKMEM_TRANSCRIPT",
)
NOW = "2026-05-25 13:18"


def server_env(home: Path | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in AGENT_VARIABLES}
    env.update({"WORKMEM_NOW": NOW, "WORKMEM_EMBEDDER": "none", "WORKMEM_HOOK_FOREGROUND": "1"})
    if home is not None:
        env["HOME"] = str(home)
    env.update(extra)
    return env


def payload(result: Any) -> Any:
    """A tool's result as the client gets it; the call must have succeeded."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        content = result.structured_content
        wrapped = isinstance(content, dict) and set(content) == {"result"}
        return content["result"] if wrapped else content
    text = result.content[0].text if result.content else "null"
    try:
        return json.loads(text)
    except ValueError:
        return text


def error_text(result: Any) -> str:
    """The message of a call that must have failed."""
    assert result.is_error, f"the call succeeded: {result.content}"
    return str(result.content[0].text)


@asynccontextmanager
async def stdio_session(root: Path, env: Mapping[str, str]) -> AsyncIterator[Any]:
    """A client session with ``workmem mcp --root ROOT`` started over stdio."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "workmem", "mcp", "--root", str(root)], env=dict(env)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def run_hook(
    root: Path, platform: str, event: str, data: dict[str, object], env: Mapping[str, str]
) -> str:
    """One hook, run as the agent runs it: a child process of this one (as the MCP server
    the tests start is), its JSON on standard input."""
    done = subprocess.run(
        [sys.executable, "-m", "workmem", "hook", event, "--platform", platform],
        input=json.dumps({"cwd": str(root), **data}),
        capture_output=True,
        text=True,
        env=dict(env),
        cwd=root,
        timeout=60,
        check=True,
    )
    return done.stdout
