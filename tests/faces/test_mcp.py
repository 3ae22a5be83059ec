"""The MCP server, driven by the SDK's own client over stdio (a real subprocess)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP extra is not installed (pip install 'workmem[mcp]')")

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def _payload(result: Any) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if isinstance(content, dict) else content
    return json.loads(result.content[0].text)


async def _session_flow(root: Path) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "workmem", "mcp", "--root", str(root)],
        env={**os.environ, "WORKMEM_NOW": "2026-05-25 13:18", "WORKMEM_PLATFORM": "codex"},
    )
    seen: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        seen["tools"] = tools
        started = _payload(await session.call_tool("session_start", {}))
        sid = started["session_id"]
        seen["sid"] = sid
        _payload(
            await session.call_tool(
                "session_update",
                {"session_id": sid, "topic": "MCP", "sections": {"Decisions": "Use stdio"}},
            )
        )
        seen["list"] = _payload(await session.call_tool("session_list", {}))
        board = await session.read_resource("workmem://board")
        seen["board"] = board.contents[0].text  # type: ignore[union-attr]
        doc = await session.read_resource(f"workmem://sessions/{sid}")
        seen["doc"] = doc.contents[0].text  # type: ignore[union-attr]
        seen["intent"] = _payload(await session.call_tool("which_workflow", {"text": "收工"}))
        bad = await session.call_tool("session_update", {"session_id": "../escape"})
        seen["bad"] = bad
    return seen


def test_board_workflows_over_stdio(tmp_path: Path) -> None:
    seen = anyio.run(_session_flow, tmp_path)
    tools = seen["tools"]
    assert {"session_start", "session_update", "search", "wrap", "load_context"} <= set(tools)
    assert tools["session_list"].annotations.read_only_hint is True
    assert tools["session_archive"].annotations.destructive_hint is True
    assert tools["session_update"].annotations.read_only_hint is False
    sid = seen["sid"]
    assert sid == "2026-05-25-1318-codex-main-agent"
    assert seen["list"][0]["status"] == "active"
    assert sid in seen["board"]
    assert "- Use stdio" in seen["doc"]
    assert seen["intent"]["workflow"] == "wrap"
    assert seen["bad"].is_error
    assert "invalid session ID" in seen["bad"].content[0].text
    assert (tmp_path / "memory" / "sessions" / f"{sid}.md").is_file()


async def _http_flow(url: str) -> list[str]:
    from mcp import Client

    async with Client(url) as client:
        tools = await client.list_tools()
        result = await client.call_tool("which_workflow", {"text": "整理 memory"})
        assert not result.is_error
        return [t.name for t in tools.tools]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_streamable_http_on_loopback(tmp_path: Path) -> None:
    import socket
    import subprocess
    import time

    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "workmem",
            "mcp",
            "--http",
            "--port",
            str(port),
            "--root",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        names = anyio.run(_http_flow, f"http://127.0.0.1:{port}/mcp")
        assert "session_start" in names
    finally:
        server.terminate()
        server.wait(timeout=10)
