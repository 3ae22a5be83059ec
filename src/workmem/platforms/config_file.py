"""Writing an agent's own configuration file the way its owner keeps it.

People keep their agent settings in dotfiles repositories (``~/.claude/settings.json`` a
link into ``~/dotfiles``), make them read-only on purpose, or share them with a team. So a
file outside the memory root that is a link is edited through the link: the target
changes, the link stays. A link whose target is missing, and a read-only file, are refused
with a message that says so, before anything is written. Inside the project the memory
root's guard judges links (one that leads out of the project is refused there).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import WriteError
from ..files.store import Store


def writable_target(store: Store, path: Path) -> Path:
    """The file to write for ``path``; ``WriteError`` when it must not be written."""
    real = path
    if not store.guard.governs(path) and path.is_symlink():
        real = Path(os.path.realpath(path))
        if not real.exists():
            raise WriteError(
                f"{path} is a link to {real}, which does not exist; create that file or "
                "remove the link, then run this again; nothing was written"
            )
    elif store.guard.governs(path):
        real = store.guard.check(path)
    try:
        info = real.stat()
    except FileNotFoundError:
        return real
    except OSError as exc:
        raise WriteError(f"{path}: cannot be checked ({exc}); nothing was written") from exc
    if not stat.S_ISREG(info.st_mode):
        raise WriteError(f"{path} is not a regular file; nothing was written")
    if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
        shown = path if real == path else f"{path} (a link to {real})"
        raise WriteError(
            f"{shown} is read-only: workmem does not replace it. Make it writable "
            "(chmod u+w) and run this again, or add the hooks yourself; nothing was written"
        )
    return real


__all__ = ["writable_target"]
