"""Which project a hook acts on: a hook writes only where a project is.

A hook payload says where the agent runs (``cwd``, ``workspaceDir``, ``workspace_roots``),
and workmem finds the memory root from there as any command would. But the payload is
someone else's word: an agent started in the home folder, in ``/tmp``, or a payload that
names any folder at all would otherwise make a memory root wherever it points. So the
folder the root search ends in must be a project:

* a root the user named (``--root``, ``WORKMEM_ROOT``) or one with a ``workmem.toml`` is;
* a git top-level is, unless it is the home folder or the filesystem's root (a dotfiles
  repository in the home folder is not a project) and holds no memory yet;
* a folder that is neither (no git, no ``workmem.toml``, ``MEMORY.md`` or ``memory/``)
  is not: the hook starts nothing there and writes nothing, not even its log.

The root search itself stays ``root.locate_root``'s; this only judges its answer.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..root import CWD, GIT, Workspace, locate_root


def holds_memory(folder: Path) -> bool:
    """Whether a memory root is already in ``folder`` (its settings, MEMORY.md, memory/)."""
    from ..files.confine import ROOT_MARKERS

    return any(os.path.lexists(folder / name) for name in ROOT_MARKERS)


def _is_home_or_top(folder: Path) -> bool:
    try:
        home = Path.home().resolve()
    except (OSError, RuntimeError):
        home = None
    return folder == home or folder.parent == folder


def is_project(root: Path, found_by: str) -> bool:
    """Whether a hook may act on ``root``, found the way ``found_by`` says."""
    if found_by not in (GIT, CWD) or holds_memory(root):
        return True
    return found_by == GIT and not _is_home_or_top(root)


def hook_workspace(explicit: str | os.PathLike[str] | None, cwd: Path | None) -> Workspace | None:
    """The workspace a hook acts on, or ``None`` when the folder it names is no project.

    A project's hook may start its memory root (the first session of a git repository
    with workmem's hooks installed), so the workspace is returned as a given one.
    """
    root, found_by = locate_root(explicit, cwd)
    if not is_project(root, found_by):
        return None
    return Workspace(root)


__all__ = ["holds_memory", "hook_workspace", "is_project"]
