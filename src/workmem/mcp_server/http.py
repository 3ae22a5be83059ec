"""The MCP server over HTTP, for its user only: a bearer token on loopback, or a Unix socket.

On 127.0.0.1 every request must carry the user's token (``token.py``); one without it, or
with another, is answered 401 with a message saying where the token is, and reaches no
tool. On a Unix socket the kernel does the same job: the socket file is made with mode
0600 (uvicorn would make it 0666), so only its user can connect, and no token is asked.
The SDK's own Host and Origin checks still stand behind both, against browsers.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError, WorkmemError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class BearerGuard:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get a 401."""

    def __init__(self, app: App, token: str, where: Path) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode("ascii")
        self.where = where

    def _allowed(self, scope: Scope) -> bool:
        for name, value in scope.get("headers", []):
            if name.lower() == b"authorization":
                return hmac.compare_digest(bytes(value).strip(), self.expected)
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        message = (
            "workmem's MCP server answers its own user only: send the header "
            f"'Authorization: Bearer <token>' with the token in {self.where} "
            "(readable by you alone; `workmem mcp --help` shows how each agent sends it)"
        )
        body = json.dumps({"error": "unauthorized", "message": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="workmem"'),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def unix_socket(path: Path) -> socket.socket:
    """A listening Unix socket at ``path`` that only this user can connect to (mode 0600).

    A leftover socket file from a server that is gone is replaced; anything else at
    ``path`` (a file, a link, a live server's socket) is refused.
    """
    import stat

    if not hasattr(socket, "AF_UNIX"):
        raise UsageError("this system has no Unix sockets: use --http")
    if len(os.fsencode(path)) > 100:
        raise UsageError(f"{path} is too long for a Unix socket path (at most ~100 bytes)")
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None:
        if not stat.S_ISSOCK(found.st_mode):
            raise UsageError(f"{path} exists and is not a socket; nothing was changed")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(path))
        except OSError:
            path.unlink()  # a socket no server listens on any more
        else:
            raise UsageError(f"a server already listens on {path}")
        finally:
            probe.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # the file is born 0600: no moment when others may connect
    try:
        sock.bind(str(path))
    except OSError as exc:
        sock.close()
        raise WorkmemError(f"could not listen on {path}: {exc.strerror}") from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.listen(128)
    return sock


async def run_http(server: MCPServer, *, port: int = 8765, socket_path: Path | None = None) -> None:
    """Serve ``server`` over streamable HTTP until interrupted (see the module docstring)."""
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from .token import load_token

    # This machine's names only (DNS rebinding); without a port too, as a client of the
    # Unix socket names no port.
    names = ["127.0.0.1", "localhost", "[::1]"]
    security = TransportSecuritySettings(
        allowed_hosts=[*names, *(f"{name}:*" for name in names)],
        allowed_origins=[f"http://{name}{port}" for name in names for port in ("", ":*")],
    )
    app: App = server.streamable_http_app(host="127.0.0.1", transport_security=security)
    sockets: list[socket.socket] | None = None
    if socket_path is not None:
        sockets = [unix_socket(socket_path)]
        where = f"unix socket {socket_path} (mode 0600)"
    else:
        token, token_file, created = load_token()
        app = BearerGuard(app, token, token_file)
        new = " (new)" if created else ""
        where = f"http://127.0.0.1:{port}/mcp, token in {token_file}{new}"
    import sys

    sys.stderr.write(f"workmem MCP server on {where}\n")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server_ = uvicorn.Server(config)
    if socket_path is not None:
        # uvicorn stops on SIGTERM, then raises it again, which would kill the process
        # before the socket file is removed: make it an exit that runs `finally` instead
        from ..files.oscompat import exit_on_terminate

        exit_on_terminate()
    try:
        await server_.serve(sockets=sockets)
    except SystemExit:  # uvicorn's way of saying it could not listen
        if server_.started:
            raise
        raise WorkmemError(f"could not listen on 127.0.0.1:{port} (is the port taken?)") from None
    finally:
        if socket_path is not None:
            with contextlib.suppress(OSError):
                socket_path.unlink()
