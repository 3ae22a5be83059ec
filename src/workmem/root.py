"""Finding the memory root and naming the places inside it.

The order is the one DESIGN.md fixes: ``--root``, then ``WORKMEM_ROOT``, then the nearest
``workmem.toml`` upward from the current folder, then the git top-level, then the current
folder. Git is found by walking up for ``.git`` rather than running ``git``, because a
hook pays for every subprocess.

Every git worktree of one repository shares one memory root, the main worktree's: parallel
agents in worktrees then share one board, and with ``workmem sync`` (whose memory files are
not on the project's branches) a new worktree finds the memory instead of starting another.
A linked worktree is recognised from its files alone, as git itself does (``gitcheckout``):
its ``.git`` is a file naming its private git folder, which names the common one. A root
found inside a linked worktree (its ``workmem.toml`` or its top) is the same folder in the
main worktree. ``--root`` and ``WORKMEM_ROOT`` are taken as given.

A root found only because it is the git top-level or the current folder, with no
``workmem.toml``, ``MEMORY.md`` or ``memory/`` in it, is a guess: reads there find nothing,
and a write refuses to start a memory root there (``Workspace.may_create``) and asks for
``workmem init``. A root named by ``--root``, ``WORKMEM_ROOT`` or a ``workmem.toml`` is
the user's choice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import NotFoundError

ROOT_ENV = "WORKMEM_ROOT"
CONFIG_NAME = "workmem.toml"
#: How a root was found, as ``Workspace.found_by`` says it (and messages show it).
GIVEN, OPTION, ENV, CONFIG, GIT, CWD = (
    "given folder",
    "--root folder",
    f"{ROOT_ENV} folder",
    f"folder of {CONFIG_NAME}",
    "git top-level",
    "current folder",
)
#: Added to ``found_by`` when the root is the main worktree's, found from a linked one.
SHARED_SUFFIX = ", shared by every worktree of the repository"


@dataclass(frozen=True)
class Workspace:
    """A memory root and the fixed layout under it (see DESIGN.md "The memory root")."""

    root: Path
    #: How the root was found; a guessed one (git top-level, current folder) may not be
    #: turned into a memory root by a write (see ``may_create``).
    found_by: str = GIVEN
    #: The linked git worktree the root was found from, when it is another worktree's root.
    worktree: Path | None = None

    @property
    def may_create(self) -> bool:
        """Whether a write may create the root folder or ``memory/`` when they are missing."""
        return self.found_by.removesuffix(SHARED_SUFFIX) not in (GIT, CWD)

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


def _given(value: str | os.PathLike[str]) -> Path:
    from .files.oscompat import outside_path

    return Path(outside_path(os.fspath(value))).expanduser().resolve()


def locate_root(
    explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None
) -> tuple[Path, str]:
    """The memory root by the documented order of precedence, and how it was found."""
    root, found_by, _worktree = _locate(explicit, cwd)
    return root, found_by


def _locate(
    explicit: str | os.PathLike[str] | None, cwd: Path | None
) -> tuple[Path, str, Path | None]:
    if explicit:
        return _given(explicit), OPTION, None
    from_env = os.environ.get(ROOT_ENV)
    if from_env:
        return _given(from_env), ENV, None
    try:
        here = (cwd or Path.cwd()).resolve()
    except OSError as exc:  # the current folder was deleted under us
        raise NotFoundError(f"the current folder cannot be read: {exc.strerror or exc}") from None
    if not here.is_dir():
        # A hook payload's cwd that does not exist: never create it, nor a root in it.
        raise NotFoundError(f"folder {here} does not exist; nothing was read or written")
    configured = _find_upward(here, CONFIG_NAME)
    if configured is not None and (configured / ".git").is_dir():
        return configured, CONFIG, None  # the common case: settings at a main worktree's top
    git_top = _find_upward(here, ".git")
    found, how = (configured, CONFIG) if configured is not None else (git_top or here, GIT)
    if configured is None and git_top is None:
        how = CWD
    if git_top is not None and (found == git_top or git_top in found.parents):
        from .gitcheckout import main_worktree

        main = main_worktree(git_top)
        if main is not None:
            return main / found.relative_to(git_top), how + SHARED_SUFFIX, git_top
    return found, how, None


def find_root(explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> Path:
    """Resolve the memory root by the documented order of precedence."""
    return locate_root(explicit, cwd)[0]


def open_workspace(
    explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None
) -> Workspace:
    root, found_by, worktree = _locate(explicit, cwd)
    return Workspace(root, found_by, worktree)
