"""``workmem serve``: a read-only web view of the board, sessions, threads, events and search.

Like ``workmem mcp``, the server lives in an optional extra (``workmem[web]``: Starlette and
uvicorn), so this module imports them only when the command runs and says how to install
them when they are missing. It listens on loopback unless told otherwise, and says plainly
when another address would put the memory files on the network.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from ..errors import UsageError
from .output import emit_json, say, wants_json

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8766  # beside `workmem mcp --http` (8765), not on it


def _server() -> Callable[..., None]:
    """``workmem.web.app.serve``, or a clear error when the ``web`` extra is missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        missing = getattr(exc, "name", None) or "starlette or uvicorn"
        from ..platforms.install_route import needs_extra

        raise UsageError(needs_extra(f"the web viewer ({missing} is missing)", "web")) from exc
    from ..web.app import serve

    return serve


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def cmd_serve(args: argparse.Namespace) -> int:
    from ..root import open_workspace
    from ..web import is_loopback

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port takes 0 to 65535, got {args.port}")
    host = args.host.strip()
    if not host:
        raise UsageError("--host needs an address, e.g. 127.0.0.1")
    serve = _server()
    workspace = open_workspace(getattr(args, "root", None))
    if not is_loopback(host):
        sys.stderr.write(
            f"workmem: warning: listening on {host}, not on loopback: the memory files of "
            f"{workspace.root} (board, snapshots, notes, logs, events) will be visible on the "
            "network to anyone who can reach this address, with no login. Use --host "
            "127.0.0.1 to keep them on this machine.\n"
        )
    url = _url(host, args.port)
    if wants_json(args):
        emit_json({"ok": True, "url": url, "root": str(workspace.root), "read_only": True})
    else:
        say(f"workmem viewer (read-only) for {workspace.root} at {url}  (Ctrl-C stops it)")
    sys.stdout.flush()
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a viewer is stopped
        serve(workspace, host=host, port=args.port)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    serve = subparsers.add_parser(
        "serve",
        parents=[common],
        help="a read-only web view of the board, sessions, threads, events and search",
        description=(
            "Serve a read-only web view of this workspace's memory: the session board, "
            "session snapshots and notes, threads, the event timeline and search. "
            "Needs the optional extra `web`; without it, this command prints how to add it "
            "for your install."
        ),
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    serve.set_defaults(handler=cmd_serve)
