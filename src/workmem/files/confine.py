"""Inside the root only: no link or name found in the memory root leads a read or a write out.

A cloned repository is untrusted input (DESIGN.md principle 8). It can hold a symbolic
link at any name workmem uses: ``memory/sessions/<id>.md`` -> ``~/.ssh/config``, a
``memory/sessions`` folder -> ``/tmp/x``. ``RootGuard`` is the one check every path of the
store goes through:

* a path under the root is resolved, and must stay under the (resolved) root; links that
  stay inside are followed, links that lead out raise ``OutsideRootError`` before anything
  is read, created or written;
* a path the program itself names outside the root (an agent's settings file in the home
  folder, the platform's memory folder) is not the root's to judge and passes unchanged;
* folders are created one level at a time, each checked, never through a link out;
* ``memory/`` (and the root folder) is only created where the workspace allows it: a
  command run in a folder that merely looks like a project (the git top-level, the current
  folder) does not start a memory root there by accident (``NoMemoryRootError``);
* ``memory/.workmem/`` is created with a ``.gitignore`` of ``*``, so it ignores itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path, PurePath

from ..errors import NoMemoryRootError, OutsideRootError, WriteError
from ..root import CONFIG_NAME, Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..doctor import DoctorReport

#: The names whose presence at the root says "a memory root is here".
ROOT_MARKERS = (CONFIG_NAME, "MEMORY.md", "memory")
GITIGNORE = ".gitignore"
#: What ``memory/.workmem/.gitignore`` holds (``workmem setup`` writes the same when missing).
IGNORE_TEXT = "# workmem: derived and runtime state only; safe to delete\n*\n"


def is_within(base: PurePath, path: PurePath) -> bool:
    """Whether ``path`` is ``base`` or under it, by whole components (``/a/bc`` is not under
    ``/a/b``). Windows paths compare case-insensitively, as the filesystem does."""
    if type(base) is not type(path):
        return False
    try:
        path.relative_to(base)
    except ValueError:
        return False
    return True


def _absolute(path: Path) -> Path:
    """Absolute without resolving anything: ``..`` and links are judged later, for real."""
    return path if path.is_absolute() else Path.cwd() / path


class RootGuard:
    """Judges every path the store is asked to read, write, lock or create for one root."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.root = _absolute(workspace.root)
        self._real_root: Path | None = None
        self._folders_checked: set[Path] = set()

    @property
    def real_root(self) -> Path:
        if self._real_root is None:
            self._real_root = Path(os.path.realpath(self.root))
        return self._real_root

    def governs(self, path: Path) -> bool:
        """Whether ``path`` is named under the root (before any link or ``..`` is followed)."""
        absolute = _absolute(path)
        return is_within(self.root, absolute) or is_within(self.real_root, absolute)

    def check(self, path: Path) -> Path:
        """The real path to use for ``path``; ``OutsideRootError`` if a link leads it out.

        ``..`` counts like a link: ``memory/../../x`` is named under the root and refused.
        """
        absolute = _absolute(path)
        if not (is_within(self.root, absolute) or is_within(self.real_root, absolute)):
            return absolute
        real = Path(os.path.realpath(absolute))
        if not is_within(self.real_root, real):
            raise OutsideRootError(self._refusal(absolute, real))
        return real

    def _refusal(self, path: Path, real: Path) -> str:
        shown = self.workspace.relative(path)
        via = self._first_link(path)
        how = (
            f"{self.workspace.relative(via)} is a link to {via.readlink()}"
            if via
            else "the path uses '..'"
        )
        return (
            f"{shown} leads outside the memory root (to {real}): {how}. workmem reads and "
            f"writes only inside {self.root}; replace the link with a real file or folder, "
            "or remove it. Nothing was read or written there"
        )

    def _first_link(self, path: Path) -> Path | None:
        """The first component of ``path`` under the root that is a symbolic link."""
        try:
            rel = path.relative_to(self.root)
        except ValueError:
            return None
        current = self.root
        for part in rel.parts:
            current = current / part
            if current.is_symlink():
                return current
        return None

    # -- creating folders ----------------------------------------------------------------

    def memory_root_exists(self) -> bool:
        return any(os.path.lexists(self.root / name) for name in ROOT_MARKERS)

    def require_memory_root(self, why: str) -> None:
        """``NoMemoryRootError`` unless a memory root is here, whoever found the folder."""
        if not self.memory_root_exists():
            raise NoMemoryRootError(self._no_root_message(why))

    def _no_root_message(self, why: str) -> str:
        return (
            f"there is no memory root here ({why}): {self.root} (the "
            f"{self.workspace.found_by}) has no {CONFIG_NAME}, MEMORY.md or memory/ folder, "
            "and nothing was written. Run `workmem init` to start one there, or name "
            "another folder with --root DIR or WORKMEM_ROOT"
        )

    def make_folder(self, folder: Path) -> Path:
        """Create ``folder`` (and its parents) one level at a time, each one checked.

        Returns its real path. A level that exists as a link must stay inside the root; a
        level that exists as a file is an error; nothing is created outside the root.
        """
        absolute = _absolute(folder)
        if absolute in self._folders_checked:
            return self.check(absolute)
        if not self.governs(absolute):
            _mkdir_outside(absolute)
            return absolute
        self.check(absolute)  # before creating anything: '..' or a link may lead out
        base = self.root if is_within(self.root, absolute) else self.real_root
        parts = absolute.relative_to(base).parts
        self._allow_creation(parts)
        current = base
        for part in parts:
            current = current / part
            self._make_level(current)
        self._folders_checked.add(absolute)
        return self.check(absolute)

    def _allow_creation(self, parts: tuple[str, ...]) -> None:
        """Refuse to start a memory root (the root folder or ``memory/``) unasked."""
        if self.workspace.may_create:
            if not self.root.is_dir():
                _mkdir_outside(self.root)
            return
        if not self.root.is_dir():
            raise NoMemoryRootError(f"{self.root} does not exist; nothing was written")
        if parts[:1] == ("memory",) and not self.memory_root_exists():
            raise NoMemoryRootError(self._no_root_message("a write would start one"))

    def _make_level(self, current: Path) -> None:
        try:
            current.mkdir()
        except FileExistsError:
            if current.is_symlink():
                self.check(current)
            if not current.is_dir():
                raise WriteError(
                    f"{self.workspace.relative(current)} is a file where a folder is "
                    "expected; nothing was written"
                ) from None
            if current == self.workspace.state_dir:
                self._ignore_itself(current)
            return
        except OSError as exc:
            raise WriteError(
                f"could not create the folder {self.workspace.relative(current)}: "
                f"{exc.strerror or exc}; nothing was written"
            ) from exc
        if current == self.workspace.state_dir:
            self._ignore_itself(current)

    def _ignore_itself(self, state_dir: Path) -> None:
        """``memory/.workmem/.gitignore`` = ``*``: git ignores the folder, no project
        ``.gitignore`` needs an edit. Written once; a user's own file is left alone."""
        from .oscompat import UnsafeFileError, open_no_follow

        target = state_dir / GITIGNORE
        if os.path.lexists(target):
            return
        try:
            fd = open_no_follow(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except (FileExistsError, UnsafeFileError):
            return
        except OSError:
            return  # derived state stays usable; the folder is only shown to git
        try:
            os.write(fd, IGNORE_TEXT.encode())
        except OSError:
            pass
        finally:
            os.close(fd)


def _mkdir_outside(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"could not create the folder {folder}: {exc.strerror or exc}") from exc


# -- finding links that lead out (doctor) ---------------------------------------------------


def outside_links(workspace: Workspace) -> Iterator[tuple[Path, str]]:
    """Every link under ``memory/`` and at the names workmem uses at the root that leads
    outside the root, with where it leads. Links are not followed while walking."""
    guard = RootGuard(workspace)
    names = [*ROOT_MARKERS, "HEARTBEAT.md"]
    try:
        from ..platforms.bootstrap import TARGETS

        names += sorted({file for file, _kind in TARGETS.values()})
    except ImportError:  # pragma: no cover - the bootstrap table is part of the core
        pass
    for name in dict.fromkeys(names):
        path = guard.root / name
        found = _leads_out(guard, path)
        if found is not None:
            yield path, found
    memory = guard.root / "memory"
    if memory.is_dir() and not memory.is_symlink():
        yield from _walk_links(guard, memory)


def _leads_out(guard: RootGuard, path: Path) -> str | None:
    if not path.is_symlink():
        return None
    try:
        guard.check(path)
    except OutsideRootError:
        return str(path.readlink())
    return None


def _walk_links(guard: RootGuard, folder: Path) -> Iterator[tuple[Path, str]]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.is_symlink():
            found = _leads_out(guard, path)
            if found is not None:
                yield path, found
        elif entry.is_dir(follow_symlinks=False):
            yield from _walk_links(guard, path)


def check_links(workspace: Workspace, report: DoctorReport) -> None:
    """Doctor check: links that lead outside the root (each one is refused when used)."""
    for path, target in outside_links(workspace):
        report.add(
            "link-outside-root",
            None,
            f"{workspace.relative(path)} is a link to {target}, outside the memory root: "
            "workmem refuses to read or write through it; replace it with a real file or "
            "folder, or remove it",
        )
