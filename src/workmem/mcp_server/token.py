"""The secret that keeps the HTTP server to its user: a token file only that user can read.

``workmem mcp --http`` listens on 127.0.0.1, which every account of the machine can reach;
loopback and the Host/Origin checks keep browsers out, not other users. So every request
must carry ``Authorization: Bearer <token>``, the token being the content of a file made on
the first start with mode 0600 in a folder of mode 0700 (``~/.config/workmem/mcp-token``).
Another account cannot read it, so it cannot call a tool.

The file is opened without following a link, and refused (never used, never rewritten)
when it is not a regular file owned by this user or when others can read it: a token
someone else can read keeps no one out. This module imports nothing heavy, so
``workmem mcp --help`` can show where the file is.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from ..errors import OutsideRootError, WorkmemError

TOKEN_ENV = "WORKMEM_MCP_TOKEN_FILE"
TOKEN_NAME = "mcp-token"
#: bytes of randomness in a new token (43 URL-safe characters)
TOKEN_BYTES = 32
_MIN_LENGTH = 32


def token_path(env: Mapping[str, str] | None = None) -> Path:
    """Where the token lives: ``$WORKMEM_MCP_TOKEN_FILE``, else the user's config folder
    (``$XDG_CONFIG_HOME`` or ``~/.config``; ``%APPDATA%`` on Windows) + ``workmem/``."""
    environ = os.environ if env is None else env
    explicit = environ.get(TOKEN_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = environ.get("APPDATA") if os.name == "nt" else environ.get("XDG_CONFIG_HOME")
    folder = Path(base) if base else Path(environ.get("HOME") or Path.home()) / ".config"
    return folder / "workmem" / TOKEN_NAME


def _check(path: Path, found: os.stat_result) -> None:
    if not stat.S_ISREG(found.st_mode):
        raise OutsideRootError(f"{path} is not a regular file; remove it and start again")
    if hasattr(os, "geteuid") and found.st_uid != os.geteuid():
        raise OutsideRootError(f"{path} belongs to another user; remove it and start again")
    if os.name != "nt" and found.st_mode & 0o077:
        mode = stat.S_IMODE(found.st_mode)
        raise OutsideRootError(
            f"{path} can be read by other users (mode {mode:o}): run `chmod 600 {path}`, or "
            "remove it for a new token"
        )


def _read(path: Path) -> str:
    from ..files.oscompat import open_no_follow

    # non-blocking: a FIFO planted at the token's name must not hang the server's start
    fd = open_no_follow(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        _check(path, os.fstat(fd))
        data = os.read(fd, 4096)
    finally:
        os.close(fd)
    token = data.decode("ascii", errors="replace").strip()
    if len(token) < _MIN_LENGTH or any(c.isspace() for c in token):
        raise WorkmemError(f"{path} does not hold a token; remove it for a new one")
    return token


def _create(path: Path) -> str:
    import secrets

    from ..files.oscompat import NO_FOLLOW

    folder = path.parent
    if not folder.is_dir():
        folder.mkdir(parents=True, mode=0o700)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    return _read(path)  # what a client will read: checked the same way


def load_token(path: Path | None = None) -> tuple[str, Path, bool]:
    """(token, its file, whether it was created now); created on the first start."""
    where = path or token_path()
    try:
        return _read(where), where, False
    except FileNotFoundError:
        pass
    except OSError as exc:  # a link, a FIFO, a hard link, unreadable
        raise OutsideRootError(f"the token file {where} {exc.strerror}; remove it") from None
    try:
        return _create(where), where, True
    except FileExistsError:  # another server made it between the two steps
        return _read(where), where, False
    except OSError as exc:
        raise WorkmemError(f"could not create the token file {where}: {exc.strerror}") from None
