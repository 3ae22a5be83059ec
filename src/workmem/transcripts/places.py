"""Where a transcript named by a caller may be read from: the memory root, or the folders
where the agents keep their transcripts.

A person at a terminal may point ``workmem notes --transcript`` at any file they can read.
A caller that is not that person (an MCP client, whose arguments the model writes) may
not: a transcript path is only taken when it lies inside the memory root (judged by the
root guard every other read goes through, links out of the root refused) or inside one
of the agents' own transcript folders (``discover.platform_folders``), after every link
and ``..`` is followed. What it names must be a regular file (or a session of OpenClaw's
database) owned by the user the server runs as: a FIFO, a device or another user's file
is refused before anything opens it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import NotFoundError, OutsideRootError, UsageError
from ..root import Workspace


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def allowed_folders(workspace: Workspace, home: Path | None = None) -> list[tuple[str, Path]]:
    """(what, folder) a named transcript may lie in, folders resolved."""
    from .discover import platform_folders

    places = [("the memory root", _real(workspace.root))]
    places += [(f"{platform}'s transcripts", _real(folder)) for platform, folder in
               platform_folders(home)]  # fmt: skip
    return places


def _expand(text: str, workspace: Workspace, home: Path | None) -> Path:
    from ..files.oscompat import outside_path

    if not text.strip() or "\0" in text:
        raise UsageError("a transcript path is empty or holds a NUL character")
    owner_home = str(home) if home is not None else os.environ.get("HOME") or str(Path.home())
    path = Path(outside_path(text, home=owner_home))
    return path if path.is_absolute() else workspace.root / path


def confine_transcript(workspace: Workspace, text: str, home: Path | None = None) -> Path:
    """The transcript ``text`` names, when a caller may have it read; refused otherwise.

    Raises ``OutsideRootError`` (refused) for a place outside the root and the agents'
    folders or another user's file, ``UsageError`` for what is not a regular file, and
    ``NotFoundError`` for nothing there.
    """
    from ..files.confine import RootGuard, is_within
    from .openclaw_paths import split_session_path

    path = _expand(text, workspace, home)
    store = split_session_path(path)
    target = store[0] if store else path  # a session of OpenClaw's database: its database
    guard = RootGuard(workspace)
    if guard.governs(target):
        real = guard.check(target)  # a link or ``..`` leading out of the root is refused
    else:
        real = _real(target)
        places = allowed_folders(workspace, home)
        if not any(is_within(folder, real) for _, folder in places):
            names = ", ".join(str(folder) for _, folder in places)
            raise OutsideRootError(
                f"{text}: a transcript is only read from the memory root or an agent's own "
                f"transcript folders ({names})"
            )
    try:
        found = real.stat()
    except FileNotFoundError:
        raise NotFoundError(f"{text}: no such transcript") from None
    except OSError as exc:
        raise OutsideRootError(f"{text}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(found.st_mode):
        raise UsageError(f"{text}: not a regular file (a transcript is a file)")
    if hasattr(os, "geteuid") and found.st_uid != os.geteuid():
        raise OutsideRootError(f"{text}: belongs to another user; only your own files are read")
    return path if store else real
