"""The MCP server tells its clients which workmem they are talking to."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP extra is not installed (pip install 'workmem[mcp]')")

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from workmem import __version__


async def _server_info(root: Path) -> tuple[str, str]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "workmem", "mcp", "--root", str(root)]
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        result = await session.initialize()
    return result.server_info.name, result.server_info.version


def test_server_reports_workmems_version(tmp_path: Path) -> None:
    name, version = anyio.run(_server_info, tmp_path)
    assert (name, version) == ("workmem", __version__)
