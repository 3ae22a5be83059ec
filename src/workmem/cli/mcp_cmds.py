"""``workmem mcp``: serve the library to MCP clients."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import UsageError


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..platforms.install_route import needs_extra

    if args.socket and args.http:
        raise UsageError("choose one: --http (127.0.0.1 with a token) or --socket PATH")
    if args.socket is None and not args.http and args.port != 8765:
        raise UsageError("--port is for --http")
    try:
        from ..mcp_server import serve
    except ImportError as exc:
        raise UsageError(needs_extra("the MCP server", "mcp")) from exc
    socket_path = Path(args.socket).expanduser().absolute() if args.socket else None
    try:
        serve(getattr(args, "root", None), http=args.http, port=args.port, socket_path=socket_path)
    except ModuleNotFoundError as exc:
        raise UsageError(needs_extra(f"the MCP server ({exc.name})", "mcp")) from exc
    except KeyboardInterrupt:  # Ctrl-C is how a server in a terminal is stopped
        pass
    return 0


def clients_help() -> str:
    """How to add the server to each agent, shown by ``workmem mcp --help``."""
    from ..mcp_server.token import token_path

    token = token_path()
    return f"""\
add it to your agent (use the full path of workmem if agents do not see your PATH):
  Claude Code   claude mcp add workmem -- workmem mcp
                (--scope project writes .mcp.json for everyone on the project)
  Codex         codex mcp add workmem -- workmem mcp
                or in ~/.codex/config.toml:
                  [mcp_servers.workmem]
                  command = "workmem"
                  args = ["mcp"]
  Cursor        .cursor/mcp.json in the project (or ~/.cursor/mcp.json):
                  {{"mcpServers": {{"workmem": {{"command": "workmem", "args": ["mcp"]}}}}}}
  Gemini CLI    gemini mcp add workmem workmem mcp
                (-s user for every project; or "mcpServers" in .gemini/settings.json,
                the same shape as Cursor's)

over HTTP (--http), every request needs your token, made on the first start and
readable by you alone:
  {token}
  Claude Code   claude mcp add --transport http workmem http://127.0.0.1:8765/mcp \\
                  --header "Authorization: Bearer $(cat {token})"
  Codex         codex mcp add workmem --url http://127.0.0.1:8765/mcp \\
                  --bearer-token-env-var WORKMEM_MCP_TOKEN
                (and export WORKMEM_MCP_TOKEN="$(cat {token})" where Codex runs)
  Gemini CLI    gemini mcp add --transport http workmem http://127.0.0.1:8765/mcp \\
                  --header "Authorization: Bearer $(cat {token})"
A client that can connect to a Unix socket can use --socket PATH instead: the socket
file is made readable by you alone, and no token is needed.

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
        "agents start), or streamable HTTP on 127.0.0.1 that answers only requests\n"
        "carrying your token, or on a Unix socket only you can open.",
        epilog=clients_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mcp.add_argument(
        "--http", action="store_true", help="streamable HTTP on 127.0.0.1 (token required)"
    )
    mcp.add_argument("--port", type=int, default=8765, help="port for --http (default 8765)")
    mcp.add_argument(
        "--socket", metavar="PATH", help="streamable HTTP on a Unix socket (mode 0600)"
    )
    mcp.set_defaults(handler=cmd_mcp)
