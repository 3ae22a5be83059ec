"""``workmem mcp``: serve the library to MCP clients."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from ..mcp_server import serve
    except ImportError as exc:
        raise UsageError(
            "the MCP server needs the optional extra: pip install 'workmem[mcp]'"
        ) from exc
    try:
        serve(getattr(args, "root", None), http=args.http, port=args.port)
    except ModuleNotFoundError as exc:
        raise UsageError(f"the MCP server needs {exc.name}: pip install 'workmem[mcp]'") from exc
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    mcp = subparsers.add_parser("mcp", parents=[common], help="serve workmem over MCP")
    mcp.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1")
    mcp.add_argument("--port", type=int, default=8765)
    mcp.set_defaults(handler=cmd_mcp)
