"""Finding the memory root and naming the places inside it.

The order is the one DESIGN.md fixes: ``--root``, then ``WORKMEM_ROOT``, then the nearest
``workmem.toml`` upward from the current folder, then the git top-level, then the current
folder. Git is found by walking up for ``.git`` rather than running ``git``, because a
hook pays for every subprocess.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT_ENV = "WORKMEM_ROOT"
CONFIG_NAME = "workmem.toml"


@dataclass(frozen=True)
class Workspace:
    """A memory root and the fixed layout under it (see DESIGN.md "The memory root")."""

    root: Path

    @property
    def config_file(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def memory_dir(self) -> Path:
        return self.root / "memory"

    @property
    def board_file(self) -> Path:
        return self.memory_dir / "index.md"

    @property
    def sessions_dir(self) -> Path:
        return self.memory_dir / "sessions"

    @property
    def archive_dir(self) -> Path:
        return self.memory_dir / "archive"

    @property
    def state_dir(self) -> Path:
        """Derived and runtime state only; git-ignored and safe to delete."""
        return self.memory_dir / ".workmem"

    @property
    def locks_dir(self) -> Path:
        return self.state_dir / "locks"

    def snapshot_file(self, session_id: str) -> Path:
        return self.sessions_dir / f"{session_id}.md"

    def archived_session_dir(self, session_id: str) -> Path:
        return self.archive_dir / session_id

    def relative(self, path: Path) -> str:
        """A path as shown to people: relative to the root when inside it."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


def _find_upward(start: Path, name: str) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / name).exists():
            return folder
    return None


def find_root(explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> Path:
    """Resolve the memory root by the documented order of precedence."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    from_env = os.environ.get(ROOT_ENV)
    if from_env:
        return Path(from_env).expanduser().resolve()
    here = (cwd or Path.cwd()).resolve()
    configured = _find_upward(here, CONFIG_NAME)
    if configured is not None:
        return configured
    git_top = _find_upward(here, ".git")
    if git_top is not None:
        return git_top
    return here


def open_workspace(explicit: str | os.PathLike[str] | None = None) -> Workspace:
    return Workspace(find_root(explicit))
