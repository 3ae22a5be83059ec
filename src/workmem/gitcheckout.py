"""A git checkout read from its files: which worktree this is, and the repository's main one.

Hooks find the memory root on every prompt, so nothing here runs ``git``: the answers of
``git rev-parse --git-dir``, ``--git-common-dir`` and the first line of ``git worktree list``
are read from the few small files git keeps for them.

- A main worktree holds a ``.git`` folder; that folder is also the common one.
- A linked worktree (``git worktree add``) holds a ``.git`` *file*, ``gitdir: <path>``, naming
  its private folder ``<common>/worktrees/<name>``; that folder's ``commondir`` file names
  the common folder (relative to it). The main worktree is the folder holding the common
  ``.git``, or, when the repository keeps its git folder elsewhere, the ``core.worktree``
  its config names.
- A submodule also has a ``.git`` file, but its git folder has no ``commondir``: it is a
  repository of its own, not a worktree of the one around it.
- A bare repository has no main worktree: its linked worktrees have none to share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_MAX = 4096  # these files are one line; a larger one is not git's


@dataclass(frozen=True)
class Checkout:
    """Where a git work tree keeps its git data, and the repository's main worktree."""

    top: Path
    git_dir: Path
    common_dir: Path
    #: The main worktree's top; None for a bare repository's linked worktree.
    main_top: Path | None

    @property
    def linked(self) -> bool:
        """A worktree added with ``git worktree add`` (not the main one)."""
        return self.git_dir != self.common_dir


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX + 1)
    except OSError:
        return None
    if len(data) > _MAX:
        return None
    return data.decode("utf-8", "surrogateescape").strip()


def _relative_to(base: Path, value: str) -> Path:
    # normpath, not resolve: git writes these paths itself, and hooks pay for every syscall
    import os

    path = Path(value)
    return Path(os.path.normpath(path if path.is_absolute() else base / path))


def git_dir(top: Path) -> Path | None:
    """The git folder of the work tree whose top is ``top`` (holding ``.git``), or None."""
    dot_git = top / ".git"
    if dot_git.is_dir():
        return dot_git.resolve()
    text = _read(dot_git)
    if text is None or not text.startswith("gitdir:"):
        return None
    found = _relative_to(top, text.removeprefix("gitdir:").strip())
    return found if found.is_dir() else None


def common_dir(folder: Path) -> Path:
    """The common git folder of the git folder ``folder`` (itself unless linked)."""
    named = _read(folder / "commondir")
    if not named:
        return folder
    found = _relative_to(folder, named)
    return found if found.is_dir() else folder


_CORE = re.compile(r"^\s*\[\s*core\s*\]\s*$", re.IGNORECASE)
_SECTION = re.compile(r"^\s*\[")
_SETTING = re.compile(r"^\s*(bare|worktree)\s*=\s*(.*?)\s*$", re.IGNORECASE)


def _core_settings(common: Path) -> dict[str, str]:
    """``core.bare`` and ``core.worktree`` from the repository's config (plain form only)."""
    try:
        with (common / "config").open("rb") as handle:
            text = handle.read(1 << 16).decode("utf-8", "surrogateescape")
    except OSError:
        return {}
    found: dict[str, str] = {}
    in_core = False
    for line in text.splitlines():
        if _SECTION.match(line):
            in_core = bool(_CORE.match(line))
            continue
        match = _SETTING.match(line) if in_core else None
        if match is not None:
            found[match.group(1).lower()] = match.group(2).strip('"')
    return found


def main_top(common: Path) -> Path | None:
    """The main worktree of the repository whose common git folder is ``common``."""
    core = _core_settings(common)
    if core.get("bare", "").lower() in ("true", "yes", "on", "1"):
        return None
    if core.get("worktree"):
        found = _relative_to(common, core["worktree"])
        return found if found.is_dir() else None
    if common.name == ".git" and common.parent.is_dir():
        return common.parent
    return None


def checkout(top: Path) -> Checkout | None:
    """What git knows about the work tree whose top is ``top``, or None when it is not one."""
    folder = git_dir(top)
    if folder is None:
        return None
    common = common_dir(folder)
    if common == folder:
        return Checkout(top, folder, common, top)
    return Checkout(top, folder, common, main_top(common))


def main_worktree(top: Path) -> Path | None:
    """The main worktree when ``top`` is a linked worktree of a repository that has one."""
    if (top / ".git").is_dir():
        return None  # the common case, one stat: a main worktree
    found = checkout(top)
    if found is None or not found.linked or found.main_top is None:
        return None
    return found.main_top if found.main_top != top else None


def find_checkout(start: Path) -> Checkout | None:
    """The checkout holding ``start`` (the nearest ``.git`` upward), or None."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return checkout(folder)
    return None
