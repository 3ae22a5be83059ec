"""Finding the memory root and naming the places inside it.

The order is the one DESIGN.md fixes: ``--root``, then ``WORKMEM_ROOT``, then the nearest
``workmem.toml`` upward from the current folder, then the git top-level, then the current
folder. Git is found by walking up for ``.git`` rather than running ``git``, because a
hook pays for every subprocess.

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


@dataclass(frozen=True)
class Workspace:
    """A memory root and the fixed layout under it (see DESIGN.md "The memory root")."""

    root: Path
    #: How the root was found; a guessed one (git top-level, current folder) may not be
    #: turned into a memory root by a write (see ``may_create``).
    found_by: str = GIVEN

    @property
    def may_create(self) -> bool:
        """Whether a write may create the root folder or ``memory/`` when they are missing."""
        return self.found_by not in (GIT, CWD)

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
    if explicit:
        return _given(explicit), OPTION
    from_env = os.environ.get(ROOT_ENV)
    if from_env:
        return _given(from_env), ENV
    try:
        here = (cwd or Path.cwd()).resolve()
    except OSError as exc:  # the current folder was deleted under us
        raise NotFoundError(f"the current folder cannot be read: {exc.strerror or exc}") from None
    if not here.is_dir():
        # A hook payload's cwd that does not exist: never create it, nor a root in it.
        raise NotFoundError(f"folder {here} does not exist; nothing was read or written")
    configured = _find_upward(here, CONFIG_NAME)
    if configured is not None:
        return configured, CONFIG
    git_top = _find_upward(here, ".git")
    if git_top is not None:
        return git_top, GIT
    return here, CWD


def find_root(explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> Path:
    """Resolve the memory root by the documented order of precedence."""
    return locate_root(explicit, cwd)[0]


def open_workspace(
    explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None
) -> Workspace:
    root, found_by = locate_root(explicit, cwd)
    return Workspace(root, found_by)
