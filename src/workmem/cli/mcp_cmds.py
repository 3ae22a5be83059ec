"""``workmem mcp``: serve the library to MCP clients."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..platforms.install_route import needs_extra

    try:
        from ..mcp_server import serve
    except ImportError as exc:
        raise UsageError(needs_extra("the MCP server", "mcp")) from exc
    try:
        serve(getattr(args, "root", None), http=args.http, port=args.port)
    except ModuleNotFoundError as exc:
        raise UsageError(needs_extra(f"the MCP server ({exc.name})", "mcp")) from exc
    return 0


#: How to add the server to each agent, shown by ``workmem mcp --help``.
CLIENTS = """\
add it to your agent (use the full path of workmem if agents do not see your PATH):
  Claude Code   claude mcp add workmem -- workmem mcp
                (--scope project writes .mcp.json for everyone on the project)
  Codex         codex mcp add workmem -- workmem mcp
                or in ~/.codex/config.toml:
                  [mcp_servers.workmem]
                  command = "workmem"
                  args = ["mcp"]
  Cursor        .cursor/mcp.json in the project (or ~/.cursor/mcp.json):
                  {"mcpServers": {"workmem": {"command": "workmem", "args": ["mcp"]}}}
  Gemini CLI    gemini mcp add workmem workmem mcp
                (-s user for every project; or "mcpServers" in .gemini/settings.json,
                the same shape as Cursor's)

The server works on the memory root found from the folder the agent starts it in; add
--root DIR to the command to fix one. It needs the optional extra:
pipx inject workmem mcp, uv tool install --with mcp …, or pip install mcp into workmem's
virtualenv (without it, this command prints the one for your install)."""


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    mcp = subparsers.add_parser(
        "mcp",
        parents=[common],
        help="serve workmem over MCP",
        description="Serve workmem's tools and resources to MCP clients, over stdio (what\n"
        "agents start) or streamable HTTP on 127.0.0.1.",
        epilog=CLIENTS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mcp.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1")
    mcp.add_argument("--port", type=int, default=8765)
    mcp.set_defaults(handler=cmd_mcp)
