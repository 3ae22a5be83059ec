"""The web viewer (``workmem serve``): a read-only face over the board, sessions and journal.

The viewer is a face like the CLI and the MCP server: it reads through the core rooms and
only renders what they return, so a page never disagrees with ``workmem session show`` or
``workmem search``. It never writes a memory file.

Starlette and uvicorn are an optional extra (``workmem[web]``) and are imported only by
``workmem.web.app``, which only ``workmem serve`` (and the viewer's tests) import. This
package file stays free of them, so the CLI can decide which host is safe and explain a
missing extra before anything heavy is loaded.
"""

from __future__ import annotations

import ipaddress

#: Host names a browser uses for this machine; the only ones a loopback viewer answers to.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    """True when ``host`` only accepts connections from this machine."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str) -> list[str]:
    """``Host`` headers the viewer accepts when it listens on ``host``.

    On loopback only this machine's own names are accepted, so a web page elsewhere cannot
    read the memory files through DNS rebinding (a hostile name that resolves to 127.0.0.1).
    On another address the user chose to share the viewer, and any name is accepted.
    """
    if not is_loopback(host):
        return ["*"]
    names = [*LOOPBACK_NAMES]
    bare = host.strip().lower()
    if bare not in names:
        names.append(bare)
    return names


__all__ = ["LOOPBACK_NAMES", "allowed_hosts", "is_loopback"]
